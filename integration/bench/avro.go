package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/stoatflow/stoatflow/examples/avrocount"
	"github.com/stoatflow/stoatflow/kstreams/serde/registry"
)

// avroClicks returns the generator of the avro workload: Click{user, n}
// values in the Confluent wire format (the schema registered once, under
// the subject of subjectTopic), keyed as the windowed workload's records.
// The registry is $STOATFLOW_TEST_REGISTRY_URL's, which both engines' twins
// of avrowindowed read too.
func (b *bench) avroClicks(subjectTopic string) (func(int) record, error) {
	url := os.Getenv(avrocount.RegistryEnv)
	if url == "" {
		return nil, errors.New("the avro workload needs a schema registry: set " + avrocount.RegistryEnv +
			" (make bench runs under scripts/with-registry.sh, which starts one)")
	}
	cl, err := registry.NewClient(registry.ClientConfig{URL: url})
	if err != nil {
		return nil, err
	}
	ser, err := registry.NewAvro[avrocount.Click](cl, avrocount.ClickSchema, registry.DefaultSerdeConfig(false))
	if err != nil {
		return nil, err
	}
	// Registering up front turns a registry problem into the workload's
	// error before any record is produced.
	if _, err := ser.Serialize(subjectTopic, avrocount.Click{}); err != nil {
		return nil, fmt.Errorf("bench: registering the Avro click schema: %w", err)
	}
	return func(i int) record {
		k := key(i, b.cfg.keys)
		v, err := ser.Serialize(subjectTopic, avrocount.Click{User: string(k), N: int64(mix(i) % 100)})
		if err != nil {
			// The schema is registered and cached: encoding a struct of
			// a string and a long does not fail.
			panic(fmt.Sprintf("bench: Avro click %d: %v", i, err))
		}
		return record{key: k, value: v}
	}, nil
}
