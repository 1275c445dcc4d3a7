// Package sessioncount counts records per key and session: a session of a
// key lasts while its records come less than five seconds apart, with ten
// minutes of grace for late records. When a record joins two sessions (or
// extends one), the old sessions are retracted with a null value and the
// merged session's count follows. The output key is Kafka's session-windowed
// key (the key's bytes, then the session end and start as 8-byte big-endian
// longs); the value is the count as a Long.
//
// Arguments: input (default session-input) and output (default
// session-counts). Input keys and values use the default serdes (Strings).
package sessioncount

import (
	"time"

	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/serde"
)

// Name is the stoatflow.topology value of the topology.
const Name = "sessioncount"

// The sessions: five seconds of inactivity close one, ten minutes of grace.
const (
	InactivityGap = 5 * time.Second
	Grace         = 10 * time.Minute
)

// Build returns the session-count topology.
func Build(args map[string]string) (*kstreams.Topology, error) {
	input, output := "session-input", "session-counts"
	if v := args["input"]; v != "" {
		input = v
	}
	if v := args["output"]; v != "" {
		output = v
	}
	b := kstreams.NewStreamsBuilder()
	events := kstreams.Stream[string, string](b, []string{input})
	counts := kstreams.WindowedBySession(events.GroupByKey(), kstreams.SessionWindowsOfInactivityGapAndGrace(InactivityGap, Grace)).Count()
	keySerde := serde.SessionWindowed[string]{Inner: serde.String{}}
	counts.ToStream().To(output, kstreams.ProducedWith[kstreams.Windowed[string], int64](keySerde, serde.Long{}))
	return b.Build()
}
