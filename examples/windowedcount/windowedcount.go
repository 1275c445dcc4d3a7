// Package windowedcount counts records per key in tumbling ten-second
// windows with five seconds of grace, the twin of the Kafka Streams reference
// app of the same name. Records later than the grace period are dropped, as
// Kafka Streams drops them. The output key is Kafka's time-windowed key (the
// key's bytes, then the window start as an 8-byte big-endian long); the value
// is the count as a Long.
//
// FinalName is the same count over hopping windows (ten seconds advancing by
// five, five seconds of grace) with emitStrategy(onWindowClose), in store
// FinalStore: each window is written once, with its final count, when
// stream time passes its end plus the grace period.
//
// Arguments: input (default windowed-input) and output (default
// windowed-counts). Input keys and values use the default serdes (Strings).
package windowedcount

import (
	"time"

	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/serde"
)

// Name is the stoatflow.topology value of the topology.
const Name = "windowedcount"

// The windows: tumbling, ten seconds, five seconds of grace.
const (
	WindowSize = 10 * time.Second
	Grace      = 5 * time.Second
)

// FinalName is the stoatflow.topology value of the final-results topology.
const FinalName = "windowedcountfinal"

// Advance is the hop of FinalName's windows.
const Advance = 5 * time.Second

// FinalStore is FinalName's store. It keeps windows a minute, longer than
// they take to close, so a closed window is still in it when an instance
// takes over: only the close time of the last emission, committed with the
// offsets, keeps the next instance from emitting it again.
const (
	FinalStore     = "final-counts"
	FinalRetention = time.Minute
)

// Build returns the windowed-count topology.
func Build(args map[string]string) (*kstreams.Topology, error) {
	input, output := topics(args, "windowed-counts")
	b := kstreams.NewStreamsBuilder()
	events := kstreams.Stream[string, string](b, []string{input})
	counts := kstreams.WindowedBy(events.GroupByKey(), kstreams.TimeWindowsOfSizeAndGrace(WindowSize, Grace)).Count()
	keySerde := serde.TimeWindowed[string]{Inner: serde.String{}, WindowSize: WindowSize.Milliseconds()}
	counts.ToStream().To(output, kstreams.ProducedWith[kstreams.Windowed[string], int64](keySerde, serde.Long{}))
	return b.Build()
}

// BuildFinal returns the final-results topology.
func BuildFinal(args map[string]string) (*kstreams.Topology, error) {
	input, output := topics(args, "windowed-final")
	b := kstreams.NewStreamsBuilder()
	events := kstreams.Stream[string, string](b, []string{input})
	w := kstreams.WindowedBy(events.GroupByKey(), kstreams.TimeWindowsOfSizeAndGrace(WindowSize, Grace).AdvanceBy(Advance))
	counts := w.EmitStrategy(kstreams.EmitOnWindowClose).Count(kstreams.Materialized[string, int64]{Name: FinalStore, Retention: FinalRetention})
	keySerde := serde.TimeWindowed[string]{Inner: serde.String{}, WindowSize: WindowSize.Milliseconds()}
	counts.ToStream().To(output, kstreams.ProducedWith[kstreams.Windowed[string], int64](keySerde, serde.Long{}))
	return b.Build()
}

// topics are the input and output arguments, windowed-input and output by
// default.
func topics(args map[string]string, output string) (string, string) {
	input := "windowed-input"
	if v := args["input"]; v != "" {
		input = v
	}
	if v := args["output"]; v != "" {
		output = v
	}
	return input, output
}
