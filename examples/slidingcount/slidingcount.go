// Package slidingcount aggregates in sliding windows, the way Kafka Streams runs the same calls:
//
//	stream → groupByKey → windowedBy(SlidingWindows of 10 s, 5 s grace)
//	  → count (materialized as "sliding-counts")        → "count:N"
//	  → reduce a+","+b (materialized as "sliding-values") → "values:v1,v2"
//	  → both merged into output with the time-windowed key (TimeWindowedSerializer)
//
// FinalName is the same with emitStrategy(onWindowClose) on both
// aggregations: each window once, with its final result.
//
// Arguments: input and output. Keys and values are Strings.
package slidingcount

import (
	"strconv"
	"time"

	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/serde"
)

// Name is the stoatflow.topology value of the topology.
const Name = "slidingcount"

// The windows and the stores; changelogs are <application.id>-<store>-changelog.
const (
	TimeDifference = 10 * time.Second
	Grace          = 5 * time.Second
	CountsStore    = "sliding-counts"
	ValuesStore    = "sliding-values"
)

// FinalName is the stoatflow.topology value of the final-results topology.
const FinalName = "slidingcountfinal"

// Build returns the topology.
func Build(args map[string]string) (*kstreams.Topology, error) {
	return build(args, kstreams.EmitOnWindowUpdate)
}

// BuildFinal returns the final-results topology.
func BuildFinal(args map[string]string) (*kstreams.Topology, error) {
	return build(args, kstreams.EmitOnWindowClose)
}

func build(args map[string]string, emit kstreams.EmitStrategy) (*kstreams.Topology, error) {
	input, output := "slidingcount-input", "slidingcount-output"
	if v := args["input"]; v != "" {
		input = v
	}
	if v := args["output"]; v != "" {
		output = v
	}
	s := serde.String{}
	b := kstreams.NewStreamsBuilder()
	grouped := kstreams.Stream(b, []string{input}, kstreams.ConsumedWith[string, string](s, s)).GroupByKey()
	windows := kstreams.SlidingWindowsOfTimeDifferenceAndGrace(TimeDifference, Grace)
	counts := kstreams.WindowedBySliding(grouped, windows).EmitStrategy(emit).Count(kstreams.MaterializedAs[string, int64](CountsStore))
	labelled := kstreams.MapValues(counts.ToStream(), func(n int64) string { return "count:" + strconv.FormatInt(n, 10) })
	values := kstreams.WindowedBySliding(grouped, windows).EmitStrategy(emit).Reduce(func(a, v string) string { return a + "," + v },
		kstreams.MaterializedAs[string, string](ValuesStore))
	listed := kstreams.MapValues(values.ToStream(), func(v string) string { return "values:" + v })
	key := serde.TimeWindowed[string]{Inner: s, WindowSize: TimeDifference.Milliseconds()}
	labelled.Merge(listed).To(output, kstreams.ProducedWith[kstreams.Windowed[string], string](key, s))
	return b.Build()
}
