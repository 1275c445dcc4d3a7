// Package versioned joins a stream with a versioned table, the way Kafka
// Streams runs the same calls:
//
//	table → a versioned table in "versioned-prices" (history kept 1 min)
//	input → left join with the table as of each record's time → output,
//	        "left:v+row" (row "null" when no version was valid then)
//	input → inner join, named "graced", with the upper-cased table and a
//	        5 s grace period (records wait in graced-Buffer) → output,
//	        "graced:v+ROW"
//
// A table update that arrives after a later one (out of order) is kept as
// history: stream records at its time join it. Arguments: input, table and
// output. Keys and values are Strings.
package versioned

import (
	"strings"
	"time"

	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/serde"
)

// Name is the stoatflow.topology value of the topology.
const Name = "versioned"

// Store is the versioned table's store; its changelog is
// <application.id>-versioned-prices-changelog.
const Store = "versioned-prices"

// GracedJoin names the join with a grace period; its buffer is
// GracedJoin-Buffer.
const GracedJoin = "graced"

func arg(args map[string]string, name, dflt string) string {
	if v := args[name]; v != "" {
		return v
	}
	return dflt
}

// Build returns the topology.
func Build(args map[string]string) (*kstreams.Topology, error) {
	s := serde.String{}
	in := kstreams.ConsumedWith[string, string](s, s)
	out := kstreams.ProducedWith[string, string](s, s)
	output := arg(args, "output", "versioned-output")
	b := kstreams.NewStreamsBuilder()
	events := kstreams.Stream(b, []string{arg(args, "input", "versioned-events")}, in)
	prices := kstreams.Table(b, arg(args, "table", "versioned-table"), in,
		kstreams.MaterializedAsVersioned[string, string](kstreams.PersistentVersionedKeyValueStore(Store, time.Minute)))
	kstreams.StreamTableLeftJoin(events, prices, func(_, v string, row *string) string {
		if row == nil {
			return "left:" + v + "+null"
		}
		return "left:" + v + "+" + *row
	}).To(output, out)
	upper := kstreams.MapTableValues(prices, func(_, v string) string { return strings.ToUpper(v) })
	kstreams.StreamTableJoin(events, upper, func(_, v, row string) string { return "graced:" + v + "+" + row },
		kstreams.Joined[string, string]{Name: GracedJoin}.WithGracePeriod(5*time.Second)).To(output, out)
	return b.Build()
}
