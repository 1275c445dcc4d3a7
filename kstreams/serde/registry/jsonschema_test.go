package registry_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/stoatflow/stoatflow/internal/testregistry"
	"github.com/stoatflow/stoatflow/kstreams/serde"
	"github.com/stoatflow/stoatflow/kstreams/serde/registry"
)

type order struct {
	ID    string  `json:"id"`
	Items int     `json:"items"`
	Total float64 `json:"total"`
}

func TestJSONSchemaRoundTripThroughRegistry(t *testing.T) {
	cl := testregistry.Client(t)
	topic := testregistry.Name(t, "orders")
	s, err := registry.NewJSONSchema[order](cl, registry.DefaultSerdeConfig(false))
	if err != nil {
		t.Fatal(err)
	}
	in := order{ID: "o-1", Items: 3, Total: 9.5}
	b, err := s.Serialize(topic, in)
	if err != nil {
		t.Fatal(err)
	}
	md, err := cl.GetLatestSchemaMetadata(topic + "-value")
	if err != nil {
		t.Fatalf("subject %s-value: %v", topic, err)
	}
	if schemaID(t, b) != md.ID || md.SchemaType != "JSON" {
		t.Fatalf("id %d, registry %+v", schemaID(t, b), md)
	}
	if got := string(b[5:]); got != `{"id":"o-1","items":3,"total":9.5}` {
		t.Fatalf("payload %s", got)
	}
	out, err := s.Deserialize(topic, b)
	if err != nil || out != in {
		t.Fatalf("round trip %+v, %v", out, err)
	}

	// A payload the schema refuses (items must be an integer) and one that
	// is not JSON name the schema id.
	for _, bad := range []string{`{"id":"o-2","items":"many","total":1}`, `{not json`} {
		_, err = s.Deserialize(topic, append(append([]byte{}, b[:5]...), bad...))
		var we *registry.WireError
		if !errors.As(err, &we) || we.SchemaID != md.ID || !errors.Is(err, serde.ErrSerialization) {
			t.Fatalf("%s: %v", bad, err)
		}
	}
	_, err = s.Deserialize(topic, []byte{0, 0x7f, 0xff, 0xff, 0xf1, '{', '}'})
	if !errors.Is(err, registry.ErrUnknownSchema) || !strings.Contains(err.Error(), "schema id 2147483633") {
		t.Fatalf("unknown id: %v", err)
	}
	if _, err := s.Deserialize(topic, []byte("{}")); err == nil || !strings.Contains(err.Error(), "magic byte") {
		t.Fatalf("no header: %v", err)
	}
	if _, err := registry.NewJSONSchema[order](cl, registry.SerdeConfig{SubjectNameStrategy: registry.RecordNameStrategy}); err == nil {
		t.Fatal("RecordNameStrategy accepted for JSON Schema")
	}
}
