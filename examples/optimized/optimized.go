// Package optimized is the topology of Kafka Streams' RepartitionOptimizingTest,
// run as Kafka Streams runs it: one map changes the key, and four operations
// below it need the records partitioned by the new key:
//
//	input → map(upper-case key) ─┬→ filter(B) → mapValues(upper case) → <output>-processed
//	                             ├→ groupByKey.count (count-store) ───────┬→ <output>
//	                             ├→ groupByKey.aggregate(length sum) → <output>-aggregate
//	                             ├→ filter → peek → groupByKey.reduce(a:b) → <output>-reduce
//	                             └→ filter(A) → join(counts, 5 s) ←───────┘ → <output>-joined
//
// Under topology.optimization=none each of the four writes its own
// repartition topic; under all (the streams.properties here) they share one,
// count-groupByKey-repartition, placed right after the map, and the filters
// above the reduce and the join move behind it. Arguments: input and output.
// Keys and values are Strings.
package optimized

import (
	"strconv"
	"strings"
	"time"

	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/serde"
)

// Name is the stoatflow.topology value of the topology.
const Name = "optimized"

// The suffixes of the output topics beside <output> (the counts).
const (
	ProcessedSuffix = "-processed"
	AggregateSuffix = "-aggregate"
	ReduceSuffix    = "-reduce"
	JoinedSuffix    = "-joined"
)

// JoinWindow is the join's time difference.
const JoinWindow = 5 * time.Second

// Build returns the topology.
func Build(args map[string]string) (*kstreams.Topology, error) {
	input, output := "optimized-input", "optimized-output"
	if v := args["input"]; v != "" {
		input = v
	}
	if v := args["output"]; v != "" {
		output = v
	}
	s := serde.String{}
	b := kstreams.NewStreamsBuilder()
	src := kstreams.Stream(b, []string{input}, kstreams.Consumed[string, string]{Name: "sourceStream", KeySerde: s, ValueSerde: s})
	mapped := kstreams.Map(src, func(k, v string) (string, string) { return strings.ToUpper(k), v }, kstreams.Named("source-map"))

	kstreams.MapValues(mapped.Filter(func(k, _ string) bool { return k == "B" }, kstreams.Named("process-filter")),
		strings.ToUpper, kstreams.Named("process-mapValues")).
		To(output+ProcessedSuffix, kstreams.Produced[string, string]{Name: "process-to"})

	counts := mapped.GroupByKey(kstreams.Grouped[string, string]{Name: "count-groupByKey"}).
		Count(kstreams.Named("count"), kstreams.Materialized[string, int64]{Name: "count-store", KeySerde: s, ValueSerde: serde.Long{}}).
		ToStream(kstreams.Named("count-toStream"))
	counts.To(output, kstreams.Produced[string, int64]{Name: "count-to", KeySerde: s, ValueSerde: serde.Long{}})

	kstreams.Aggregate(mapped.GroupByKey(kstreams.Grouped[string, string]{Name: "aggregate-groupByKey"}),
		func() int32 { return 0 }, func(_ string, v string, sum int32) int32 { return sum + int32(len(v)) },
		kstreams.Named("aggregate"), kstreams.Materialized[string, int32]{Name: "aggregate-store", KeySerde: s, ValueSerde: serde.Integer{}}).
		ToStream(kstreams.Named("aggregate-toStream")).
		To(output+AggregateSuffix, kstreams.Produced[string, int32]{Name: "reduce-to", KeySerde: s, ValueSerde: serde.Integer{}})

	mapped.Filter(func(string, string) bool { return true }, kstreams.Named("reduce-filter")).
		Peek(func(string, string) {}, kstreams.Named("reduce-peek")).
		GroupByKey(kstreams.Grouped[string, string]{Name: "reduce-groupByKey"}).
		Reduce(func(agg, v string) string { return agg + ":" + v }, kstreams.Named("reducer"), kstreams.MaterializedAs[string, string]("reduce-store")).
		ToStream(kstreams.Named("reduce-toStream")).
		To(output+ReduceSuffix, kstreams.ProducedWith[string, string](s, s))

	kstreams.Join(mapped.Filter(func(k, _ string) bool { return k == "A" }, kstreams.Named("join-filter")), counts,
		func(v string, n int64) string { return v + ":" + strconv.FormatInt(n, 10) }, kstreams.JoinWindowsOfTimeDifferenceWithNoGrace(JoinWindow),
		kstreams.StreamJoined[string, string, int64]{Name: "join", KeySerde: s, ValueSerde: s, OtherValueSerde: serde.Long{}}).
		To(output+JoinedSuffix, kstreams.Produced[string, string]{Name: "join-to"})
	return b.Build()
}
