// Package suppress holds two topologies that suppress table updates, the
// twins of the Kafka Streams reference app's "suppressfinal" and
// "suppresstimelimit".
//
// FinalName counts events per key in ten-second tumbling windows with five
// seconds of grace, and in sessions of five seconds of inactivity with two
// seconds of grace, and emits only each window's final count:
// suppress(untilWindowCloses(unbounded())), the session one named
// "sessions-final". The results are written as "t:key@start" and
// "s:key@start/end" with the count as text.
//
// TimeLimitName holds the updates of a table (materialized as
// "suppress-source") for ten seconds of stream time, in a buffer of at most
// three keys that emits its oldest key early when full:
// suppress(untilTimeLimit(10s, maxRecords(3).emitEarlyWhenFull())).
// Deletes go through as tombstones.
//
// BytesName suppresses a table that is not materialized (suppress makes it
// materialize, as Kafka Streams does, for the old values its buffer keeps)
// for five seconds, in a buffer of at most 400 bytes as Kafka Streams
// estimates a buffered record's memory, emitting early when full; the
// suppression is named "held".
//
// Arguments: input and output. Keys and values are Strings.
package suppress

import (
	"strconv"
	"time"

	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/serde"
)

// The stoatflow.topology values of the topologies.
const (
	FinalName     = "suppressfinal"
	TimeLimitName = "suppresstimelimit"
	BytesName     = "suppressbytes"
)

// The windows of FinalName.
const (
	WindowSize   = 10 * time.Second
	WindowGrace  = 5 * time.Second
	SessionGap   = 5 * time.Second
	SessionGrace = 2 * time.Second
)

// The buffer of TimeLimitName.
const (
	TimeLimit  = 10 * time.Second
	MaxRecords = 3
)

// The buffer of BytesName.
const (
	BytesLimit = 5 * time.Second
	MaxBytes   = 400
)

// SourceStore is TimeLimitName's table store.
const SourceStore = "suppress-source"

func topics(args map[string]string, input, output string) (string, string) {
	if v := args["input"]; v != "" {
		input = v
	}
	if v := args["output"]; v != "" {
		output = v
	}
	return input, output
}

// BuildFinal returns the final-results topology.
func BuildFinal(args map[string]string) (*kstreams.Topology, error) {
	input, output := topics(args, "suppress-final-input", "suppress-final-output")
	b := kstreams.NewStreamsBuilder()
	events := kstreams.Stream(b, []string{input}, kstreams.ConsumedWith[string, string](serde.String{}, serde.String{}))
	// Built in the twin's call order, which decides the generated names.
	timed := kstreams.WindowedBy(events.GroupByKey(), kstreams.TimeWindowsOfSizeAndGrace(WindowSize, WindowGrace)).Count().
		Suppress(kstreams.UntilWindowCloses(kstreams.Unbounded()))
	t := kstreams.Map(timed.ToStream(), func(k kstreams.Windowed[string], n int64) (string, string) {
		return "t:" + k.Key + "@" + strconv.FormatInt(k.Window.Start, 10), strconv.FormatInt(n, 10)
	})
	sessions := kstreams.WindowedBySession(events.GroupByKey(), kstreams.SessionWindowsOfInactivityGapAndGrace(SessionGap, SessionGrace)).
		Count().Suppress(kstreams.UntilWindowCloses(kstreams.Unbounded()).WithName("sessions-final"))
	s := kstreams.Map(sessions.ToStream(), func(k kstreams.Windowed[string], n int64) (string, string) {
		return "s:" + k.Key + "@" + strconv.FormatInt(k.Window.Start, 10) + "/" + strconv.FormatInt(k.Window.End, 10), strconv.FormatInt(n, 10)
	})
	t.Merge(s).To(output, kstreams.ProducedWith[string, string](serde.String{}, serde.String{}))
	return b.Build()
}

// BuildTimeLimit returns the time-limit topology.
func BuildTimeLimit(args map[string]string) (*kstreams.Topology, error) {
	input, output := topics(args, "suppress-timelimit-input", "suppress-timelimit-output")
	b := kstreams.NewStreamsBuilder()
	kstreams.Table(b, input, kstreams.ConsumedWith[string, string](serde.String{}, serde.String{}),
		kstreams.MaterializedAs[string, string](SourceStore)).
		Suppress(kstreams.UntilTimeLimit(TimeLimit, kstreams.MaxRecords(MaxRecords).EmitEarlyWhenFull())).
		ToStream().To(output, kstreams.ProducedWith[string, string](serde.String{}, serde.String{}))
	return b.Build()
}

// BuildBytes returns the byte-bounded topology.
func BuildBytes(args map[string]string) (*kstreams.Topology, error) {
	input, output := topics(args, "suppress-bytes-input", "suppress-bytes-output")
	b := kstreams.NewStreamsBuilder()
	kstreams.Table(b, input, kstreams.ConsumedWith[string, string](serde.String{}, serde.String{})).
		Suppress(kstreams.UntilTimeLimit(BytesLimit, kstreams.MaxBytes(MaxBytes).EmitEarlyWhenFull()).WithName("held")).
		ToStream().To(output, kstreams.ProducedWith[string, string](serde.String{}, serde.String{}))
	return b.Build()
}
