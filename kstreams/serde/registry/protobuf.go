package registry

import (
	"errors"
	"fmt"

	"github.com/confluentinc/confluent-kafka-go/v2/schemaregistry"
	crserde "github.com/confluentinc/confluent-kafka-go/v2/schemaregistry/serde"
	"github.com/confluentinc/confluent-kafka-go/v2/schemaregistry/serde/protobuf"
	"google.golang.org/protobuf/proto"
)

// Protobuf is the Confluent Protobuf serde (KafkaProtobufSerde) for messages
// of T: the wire format's header, the message indexes that locate T's type
// in its .proto file (a single 0 for the file's first message), then the
// Protobuf encoding. T's file is registered (with the files it imports, as
// references) under the subject its strategy names.
type Protobuf[T proto.Message] struct {
	ser    *protobuf.Serializer
	de     *protobuf.Deserializer
	newMsg func() T
}

// NewProtobuf returns a Protobuf serde for T; newMsg returns an empty T to
// decode into (for a generated type, func() *pb.X { return new(pb.X) }).
func NewProtobuf[T proto.Message](client schemaregistry.Client, cfg SerdeConfig, newMsg func() T) (*Protobuf[T], error) {
	if client == nil {
		return nil, errors.New("registry: a Protobuf serde needs a schema registry client")
	}
	if newMsg == nil {
		return nil, errors.New("registry: a Protobuf serde needs a function that makes an empty message")
	}
	typ := crserde.ValueSerde
	if cfg.IsKey {
		typ = crserde.KeySerde
	}
	sc := protobuf.NewSerializerConfig()
	sc.AutoRegisterSchemas = cfg.AutoRegisterSchemas
	sc.UseLatestVersion = cfg.UseLatestVersion && !cfg.AutoRegisterSchemas
	sc.NormalizeSchemas = cfg.NormalizeSchemas
	ser, err := protobuf.NewSerializer(client, typ, sc)
	if err != nil {
		return nil, fmt.Errorf("registry: Protobuf serializer: %w", err)
	}
	dc := protobuf.NewDeserializerConfig()
	dc.UseLatestVersion = cfg.UseLatestVersion
	de, err := protobuf.NewDeserializer(client, typ, dc)
	if err != nil {
		return nil, fmt.Errorf("registry: Protobuf deserializer: %w", err)
	}
	if cfg.SubjectNameStrategy != TopicNameStrategy {
		strategy := func(topic string, _ crserde.Type, _ schemaregistry.SchemaInfo) (string, error) {
			return cfg.SubjectNameStrategy.subject(topic, cfg.IsKey, string(newMsg().ProtoReflect().Descriptor().FullName()))
		}
		ser.SubjectNameStrategy = strategy
	}
	return &Protobuf[T]{ser: ser, de: de, newMsg: newMsg}, nil
}

// Serialize writes m in the Confluent Protobuf wire format.
func (p *Protobuf[T]) Serialize(topic string, m T) ([]byte, error) {
	b, err := p.ser.Serialize(topic, m)
	if err != nil {
		return nil, &WireError{Topic: topic, SchemaID: NoSchemaID, Msg: "writing Protobuf failed", Err: classifyAny(err)}
	}
	return b, nil
}

// Deserialize reads a record written by a Confluent Protobuf serializer.
func (p *Protobuf[T]) Deserialize(topic string, b []byte) (T, error) {
	m := p.newMsg()
	id, err := header(topic, b)
	if err != nil {
		return m, err
	}
	if err := p.de.DeserializeInto(topic, b, m); err != nil {
		return m, &WireError{Topic: topic, SchemaID: id, Msg: "reading Protobuf failed", Err: classifyAny(err)}
	}
	return m, nil
}
