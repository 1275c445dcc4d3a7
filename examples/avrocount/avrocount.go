// Package avrocount counts Avro records by the value of one of their fields:
// a JVM application's topology whose .properties names Confluent's
// SpecificAvroSerde (or GenericAvroSerde) as default.value.serde, with
// schema.registry.url and the registry's other keys, run unchanged. Values
// arrive as registry.GenericRecord; the output key is the field's value as a
// String, the value the count as a Long.
//
// Arguments: input (default avro-input), output (default avro-counts) and
// field (default user). Input keys use the default key serde.
//
// The package also has "avrowindowed" (WindowedName, BuildWindowed), the
// twin of the reference application AvroWindowed, with its serdes built in
// code.
package avrocount

import (
	"fmt"

	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/serde"
	"github.com/stoatflow/stoatflow/kstreams/serde/registry"
)

// Name is the stoatflow.topology value of the topology.
const Name = "avrocount"

// CountsStore is the count's store.
const CountsStore = "avro-counts"

// Build returns the Avro count topology.
func Build(args map[string]string) (*kstreams.Topology, error) {
	input, output, field := "avro-input", "avro-counts", "user"
	if v := args["input"]; v != "" {
		input = v
	}
	if v := args["output"]; v != "" {
		output = v
	}
	if v := args["field"]; v != "" {
		field = v
	}
	b := kstreams.NewStreamsBuilder()
	records := kstreams.Stream[any, registry.GenericRecord](b, []string{input})
	byField := kstreams.GroupBy(records, func(_ any, r registry.GenericRecord) string {
		m, _ := r.Value.(map[string]any)
		return fmt.Sprint(m[field])
	}, kstreams.Grouped[string, registry.GenericRecord]{KeySerde: serde.String{}})
	byField.Count(kstreams.Materialized[string, int64]{Name: CountsStore, ValueSerde: serde.Long{}}).
		ToStream().To(output, kstreams.ProducedWith[string, int64](serde.String{}, serde.Long{}))
	return b.Build()
}
