package streams_test

import (
	"context"
	"testing"

	"github.com/stoatflow/stoatflow/kstreams/serde"
	"github.com/stoatflow/stoatflow/streams"
)

// TestDefaultSerdesGoWithTheInstance: the Schema Registry default serdes
// (and their registry client and schema cache) are built once per
// instance and shared by its users, never by two instances, even of one
// configuration.
func TestDefaultSerdesGoWithTheInstance(t *testing.T) {
	cfg := appConfig(t, "127.0.0.1:9092", "serdes", t.TempDir(),
		"default.value.serde=io.confluent.kafka.streams.serdes.avro.PrimitiveAvroSerde", "schema.registry.url=http://127.0.0.1:8081")
	var values []serde.Untyped
	for range 2 {
		ks, err := streams.New(growTopology(t, "in", "out"), cfg)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = ks.Close(context.Background()) })
		_, v1, err := ks.DefaultSerdes()
		if err != nil {
			t.Fatal(err)
		}
		_, v2, err := ks.DefaultSerdes()
		if err != nil {
			t.Fatal(err)
		}
		if v1 == nil || v1 != v2 {
			t.Fatalf("one instance's value serdes: %v and %v, want one", v1, v2)
		}
		values = append(values, v1)
	}
	if values[0] == values[1] {
		t.Error("two instances share a value serde")
	}
}
