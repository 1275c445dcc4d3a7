// Package windowedcount counts records per key in tumbling ten-second
// windows with five seconds of grace, the twin of the Kafka Streams reference
// app of the same name. Records later than the grace period are dropped, as
// Kafka Streams drops them. The output key is Kafka's time-windowed key (the
// key's bytes, then the window start as an 8-byte big-endian long); the value
// is the count as a Long.
//
// Importing the package registers the topology as "windowedcount".
// Arguments: input (default windowed-input) and output (default
// windowed-counts). Input keys and values use the default serdes (Strings).
package windowedcount

import (
	"time"

	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/serde"
)

// Name is the name the topology is registered under.
const Name = "windowedcount"

// The windows: tumbling, ten seconds, five seconds of grace.
const (
	WindowSize = 10 * time.Second
	Grace      = 5 * time.Second
)

func init() { kstreams.RegisterTopology(Name, Build) }

// Build returns the windowed-count topology.
func Build(args map[string]string) (*kstreams.Topology, error) {
	input, output := "windowed-input", "windowed-counts"
	if v := args["input"]; v != "" {
		input = v
	}
	if v := args["output"]; v != "" {
		output = v
	}
	b := kstreams.NewStreamsBuilder()
	events := kstreams.Stream[string, string](b, []string{input})
	counts := kstreams.WindowedBy(events.GroupByKey(), kstreams.TimeWindowsOfSizeAndGrace(WindowSize, Grace)).Count()
	keySerde := serde.TimeWindowed[string]{Inner: serde.String{}, WindowSize: WindowSize.Milliseconds()}
	counts.ToStream().To(output, kstreams.ProducedWith[kstreams.Windowed[string], int64](keySerde, serde.Long{}))
	return b.Build()
}
