package registry

import (
	"errors"
	"fmt"

	"github.com/confluentinc/confluent-kafka-go/v2/schemaregistry"
	crserde "github.com/confluentinc/confluent-kafka-go/v2/schemaregistry/serde"
	"github.com/confluentinc/confluent-kafka-go/v2/schemaregistry/serde/jsonschema"
)

// JSONSchema is the Confluent JSON Schema serde (KafkaJsonSchemaSerde) for Go
// values of T: the wire format's header, then T as JSON. The schema is
// derived from T (its exported fields and json tags), or under
// use.latest.version taken from the subject's latest; the payload is
// validated against it on both sides.
type JSONSchema[T any] struct {
	ser *jsonschema.Serializer
	de  *jsonschema.Deserializer
}

// NewJSONSchema returns a JSON Schema serde for T. It names subjects with
// TopicNameStrategy only: the record strategies need a schema title, which
// a derived schema has not.
func NewJSONSchema[T any](client schemaregistry.Client, cfg SerdeConfig) (*JSONSchema[T], error) {
	if client == nil {
		return nil, errors.New("registry: a JSON Schema serde needs a schema registry client")
	}
	if cfg.SubjectNameStrategy != TopicNameStrategy {
		return nil, fmt.Errorf("registry: the JSON Schema serde supports %s only, not %s", TopicNameStrategy, cfg.SubjectNameStrategy)
	}
	typ := crserde.ValueSerde
	if cfg.IsKey {
		typ = crserde.KeySerde
	}
	sc := jsonschema.NewSerializerConfig()
	sc.AutoRegisterSchemas = cfg.AutoRegisterSchemas
	sc.UseLatestVersion = cfg.UseLatestVersion && !cfg.AutoRegisterSchemas
	sc.NormalizeSchemas = cfg.NormalizeSchemas
	sc.EnableValidation = true
	ser, err := jsonschema.NewSerializer(client, typ, sc)
	if err != nil {
		return nil, fmt.Errorf("registry: JSON Schema serializer: %w", err)
	}
	dc := jsonschema.NewDeserializerConfig()
	dc.UseLatestVersion = cfg.UseLatestVersion
	dc.EnableValidation = true
	de, err := jsonschema.NewDeserializer(client, typ, dc)
	if err != nil {
		return nil, fmt.Errorf("registry: JSON Schema deserializer: %w", err)
	}
	return &JSONSchema[T]{ser: ser, de: de}, nil
}

// Serialize writes v as JSON after the wire format's header.
func (j *JSONSchema[T]) Serialize(topic string, v T) ([]byte, error) {
	b, err := j.ser.Serialize(topic, &v)
	if err != nil {
		return nil, &WireError{Topic: topic, SchemaID: NoSchemaID, Msg: "writing JSON Schema failed", Err: classifyAny(err)}
	}
	return b, nil
}

// Deserialize reads a record written by a JSON Schema serializer.
func (j *JSONSchema[T]) Deserialize(topic string, b []byte) (T, error) {
	var v T
	id, err := header(topic, b)
	if err != nil {
		return v, err
	}
	if err := j.de.DeserializeInto(topic, b, &v); err != nil {
		return v, &WireError{Topic: topic, SchemaID: id, Msg: "reading JSON Schema failed", Err: classifyAny(err)}
	}
	return v, nil
}

// classifyAny classifies the registry's errors and leaves the others
// (invalid JSON, a value the schema refuses) as they are.
func classifyAny(err error) error {
	if isRESTError(err) || isTransportError(err) {
		return classify(err)
	}
	return err
}
