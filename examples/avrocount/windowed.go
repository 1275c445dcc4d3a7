package avrocount

import (
	"errors"
	"os"
	"time"

	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/serde"
	"github.com/stoatflow/stoatflow/kstreams/serde/registry"
)

// WindowedName is the name of the twin of the reference application
// AvroWindowed: Avro clicks ({user, n}) summed per key in tumbling
// ten-second windows without grace into an Avro ClickTotal ({clicks, sum}),
// in the store and on the output topic. Its serdes are registry.Avro, built
// in code. Arguments: input (default avro-input), output (default
// avro-totals) and registry (the schema registry's URL; default
// $STOATFLOW_TEST_REGISTRY_URL). Keys are Strings.
const WindowedName = "avrowindowed"

// RegistryEnv names the environment variable that gives the registry's URL
// when the registry argument is not given.
const RegistryEnv = "STOATFLOW_TEST_REGISTRY_URL"

// ClickSchema is the schema of the input records.
const ClickSchema = `{"type":"record","name":"Click","namespace":"io.stoatflow.reference","fields":[
 {"name":"user","type":"string"},{"name":"n","type":"long"}]}`

// TotalSchema is AvroWindowed.TOTAL_SCHEMA, character for character: the
// registry gives the same content the same id.
const TotalSchema = `{"type":"record","name":"ClickTotal","namespace":"io.stoatflow.reference","fields":[{"name":"clicks","type":"long"},{"name":"sum","type":"long"}]}`

// Click is an input record.
type Click struct {
	User string `avro:"user"`
	N    int64  `avro:"n"`
}

// Total is a window's aggregate.
type Total struct {
	Clicks int64 `avro:"clicks"`
	Sum    int64 `avro:"sum"`
}

// BuildWindowed returns the windowed Avro aggregate.
func BuildWindowed(args map[string]string) (*kstreams.Topology, error) {
	input, output, url := "avro-input", "avro-totals", os.Getenv(RegistryEnv)
	if v := args["input"]; v != "" {
		input = v
	}
	if v := args["output"]; v != "" {
		output = v
	}
	if v := args["registry"]; v != "" {
		url = v
	}
	if url == "" {
		return nil, errors.New("avrocount: no schema registry: give the argument registry=<schema.registry.url> or set " + RegistryEnv)
	}
	cl, err := registry.NewClient(registry.ClientConfig{URL: url})
	if err != nil {
		return nil, err
	}
	clicks, err := registry.NewAvro[Click](cl, ClickSchema, registry.DefaultSerdeConfig(false))
	if err != nil {
		return nil, err
	}
	totals, err := registry.NewAvro[Total](cl, TotalSchema, registry.DefaultSerdeConfig(false))
	if err != nil {
		return nil, err
	}
	b := kstreams.NewStreamsBuilder()
	events := kstreams.Stream(b, []string{input}, kstreams.ConsumedWith[string, Click](serde.String{}, clicks))
	kstreams.WindowedAggregate(kstreams.WindowedBy(events.GroupByKey(), kstreams.TimeWindowsOfSizeWithNoGrace(10*time.Second)),
		func() Total { return Total{} },
		func(_ string, c Click, t Total) Total { return Total{Clicks: t.Clicks + 1, Sum: t.Sum + c.N} },
		kstreams.Materialized[string, Total]{KeySerde: serde.String{}, ValueSerde: totals}).
		ToStream().To(output, kstreams.ProducedWith[kstreams.Windowed[string], Total](
		serde.TimeWindowed[string]{Inner: serde.String{}, WindowSize: 10_000}, totals))
	return b.Build()
}
