// Package passthrough is a stateless filter and map, the twin of the Kafka
// Streams reference app of the same name: records whose value starts with
// '#' are dropped, every other value is upper-cased (ASCII, as Java's
// toUpperCase(Locale.ROOT) does for ASCII input) and written to the output
// topic under its key. No store, no repartition: the engine's per-record
// cost on the plain consume → produce path.
//
// Arguments: input (default passthrough-input) and output (default
// passthrough-output). Keys and values use default.key.serde and
// default.value.serde (Strings).
package passthrough

import (
	"strings"

	"github.com/stoatflow/stoatflow/kstreams"
)

// Name is the stoatflow.topology value of the topology.
const Name = "passthrough"

// Build returns the passthrough topology.
func Build(args map[string]string) (*kstreams.Topology, error) {
	input, output := "passthrough-input", "passthrough-output"
	if v := args["input"]; v != "" {
		input = v
	}
	if v := args["output"]; v != "" {
		output = v
	}
	b := kstreams.NewStreamsBuilder()
	kept := kstreams.Stream[string, string](b, []string{input}).
		Filter(func(_, v string) bool { return !Dropped(v) })
	kstreams.MapValues(kept, strings.ToUpper).To(output)
	return b.Build()
}

// Dropped reports whether the filter drops a record with value v.
func Dropped(v string) bool { return strings.HasPrefix(v, "#") }
