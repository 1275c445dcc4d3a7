// Package selfjoin joins a stream with itself, the way Kafka Streams runs
// the same calls:
//
//	input → join(input, 10 s before, 5 s after, 20 s grace; "self", stores "self-store") → output
//
// Under topology.optimization=all (the streams.properties here) Kafka
// Streams' single.store.self.join keeps one window store,
// self-store-this-join-store, and joins in the self-merge processor; under
// none the join has its two sides and stores. Arguments: input and output.
// Keys and values are Strings; a result is "<key>:<left>+<right>".
package selfjoin

import (
	"time"

	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/serde"
)

// Name is the stoatflow.topology value of the topology.
const Name = "selfjoin"

// Windows are the join's windows.
var Windows = kstreams.JoinWindowsOfTimeDifferenceAndGrace(10*time.Second, 20*time.Second).After(5 * time.Second)

// Build returns the topology.
func Build(args map[string]string) (*kstreams.Topology, error) {
	input, output := "selfjoin-input", "selfjoin-output"
	if v := args["input"]; v != "" {
		input = v
	}
	if v := args["output"]; v != "" {
		output = v
	}
	s := serde.String{}
	b := kstreams.NewStreamsBuilder()
	in := kstreams.Stream(b, []string{input}, kstreams.ConsumedWith[string, string](s, s))
	kstreams.JoinWithKey(in, in, func(k, l, r string) string { return k + ":" + l + "+" + r }, Windows,
		kstreams.StreamJoined[string, string, string]{Name: "self", StoreName: "self-store", KeySerde: s, ValueSerde: s, OtherValueSerde: s}).
		To(output, kstreams.ProducedWith[string, string](s, s))
	return b.Build()
}
