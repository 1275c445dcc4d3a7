// Package tombstones holds two topologies whose outputs carry tombstones
// through ordinary Map, MapValues and Filter calls over plain string values,
// the way a Kafka Streams topology written with null-safe lambdas keeps them:
//
//   - "sessiontombstones" counts records per key and session (five seconds
//     of inactivity, ten minutes of grace). When sessions merge, the merged
//     ones are retracted with a null value; the counts go through MapValues
//     (to text), Map (to a "key@start-end" key), Filter (dropping counts of
//     two) and MapValues (upper case), and the retractions stay null.
//   - "tabletombstones" reads a table (materialized as "tombstone-table")
//     whose topic holds deletes, and writes its updates through MapValues
//     (upper case), Filter (dropping "SKIP") and Map (key and value
//     decorated): a delete stays a null value, an empty value stays empty.
//
// Arguments: input and output. Keys and values are Strings.
package tombstones

import (
	"strconv"
	"strings"
	"time"

	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/serde"
)

// The stoatflow.topology values of the topologies.
const (
	SessionName = "sessiontombstones"
	TableName   = "tabletombstones"
)

// StoreName is the table's store; its changelog is
// <application.id>-tombstone-table-changelog.
const StoreName = "tombstone-table"

// The sessions: five seconds of inactivity close one, ten minutes of grace.
const (
	InactivityGap = 5 * time.Second
	Grace         = 10 * time.Minute
)

func topics(args map[string]string, input, output string) (string, string) {
	if v := args["input"]; v != "" {
		input = v
	}
	if v := args["output"]; v != "" {
		output = v
	}
	return input, output
}

var stringOutput = kstreams.ProducedWith[string, string](serde.String{}, serde.String{})

// BuildSession returns the session-count topology.
func BuildSession(args map[string]string) (*kstreams.Topology, error) {
	input, output := topics(args, "session-tombstones-input", "session-tombstones-output")
	b := kstreams.NewStreamsBuilder()
	events := kstreams.Stream(b, []string{input}, kstreams.ConsumedWith[string, string](serde.String{}, serde.String{}))
	counts := kstreams.WindowedBySession(events.GroupByKey(), kstreams.SessionWindowsOfInactivityGapAndGrace(InactivityGap, Grace)).Count()
	texts := kstreams.MapValues(counts.ToStream(), func(n int64) string { return strconv.FormatInt(n, 10) })
	keyed := kstreams.Map(texts, func(k kstreams.Windowed[string], v string) (string, string) {
		return k.Key + "@" + strconv.FormatInt(k.Window.Start, 10) + "-" + strconv.FormatInt(k.Window.End, 10), "n=" + v
	})
	kept := keyed.Filter(func(_, v string) bool { return v != "n=2" })
	kstreams.MapValues(kept, strings.ToUpper).To(output, stringOutput)
	return b.Build()
}

// BuildTable returns the table topology.
func BuildTable(args map[string]string) (*kstreams.Topology, error) {
	input, output := topics(args, "table-tombstones-input", "table-tombstones-output")
	b := kstreams.NewStreamsBuilder()
	table := kstreams.Table(b, input, kstreams.ConsumedWith[string, string](serde.String{}, serde.String{}),
		kstreams.MaterializedAs[string, string](StoreName))
	upper := kstreams.MapValues(table.ToStream(), strings.ToUpper)
	kept := upper.Filter(func(_, v string) bool { return v != "SKIP" })
	kstreams.Map(kept, func(k, v string) (string, string) { return k + "!", "<" + v + ">" }).To(output, stringOutput)
	return b.Build()
}
