// Package twostores keeps two key-value stores in one task: per key, the
// number of records ("counts") and the sum of their values ("sums"), each
// written to its own output topic as a Long. Both aggregations read the same
// grouped stream, so every record updates both stores within one task and
// one commit: a crash between the two stores' commits must leave neither
// ahead of the other's changelog.
//
// Arguments: input (default amounts), counts (default amount-counts) and
// sums (default amount-sums). Input keys are Strings; values are decimal
// integers as Strings (a value that does not parse counts as zero in the
// sum).
package twostores

import (
	"strconv"

	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/serde"
)

// Name is the stoatflow.topology value of the topology.
const Name = "twostores"

// The store names.
const (
	CountsStore = "counts"
	SumsStore   = "sums"
)

// Build returns the two-store topology.
func Build(args map[string]string) (*kstreams.Topology, error) {
	input, counts, sums := "amounts", "amount-counts", "amount-sums"
	if v := args["input"]; v != "" {
		input = v
	}
	if v := args["counts"]; v != "" {
		counts = v
	}
	if v := args["sums"]; v != "" {
		sums = v
	}
	b := kstreams.NewStreamsBuilder()
	amounts := kstreams.MapValues(kstreams.Stream[string, string](b, []string{input}), Amount)
	g := amounts.GroupByKey(kstreams.Grouped[string, int64]{KeySerde: serde.String{}, ValueSerde: serde.Long{}})
	g.Count(kstreams.Materialized[string, int64]{Name: CountsStore, ValueSerde: serde.Long{}}).
		ToStream().To(counts, kstreams.ProducedWith[string, int64](serde.String{}, serde.Long{}))
	g.Reduce(func(agg, v int64) int64 { return agg + v }, kstreams.Materialized[string, int64]{Name: SumsStore, ValueSerde: serde.Long{}}).
		ToStream().To(sums, kstreams.ProducedWith[string, int64](serde.String{}, serde.Long{}))
	return b.Build()
}

// Amount parses a record value; anything but a decimal integer is zero.
func Amount(v string) int64 {
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return 0
	}
	return n
}
