package registry

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/confluentinc/confluent-kafka-go/v2/schemaregistry"
	crserde "github.com/confluentinc/confluent-kafka-go/v2/schemaregistry/serde"
	"github.com/confluentinc/confluent-kafka-go/v2/schemaregistry/serde/protobuf"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/dynamicpb"
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
	if newMsg == nil {
		return nil, errors.New("registry: a Protobuf serde needs a function that makes an empty message")
	}
	return newProtobuf(client, cfg, newMsg)
}

// newProtobuf is NewProtobuf; a nil newMsg reads each record into the Go
// type registered (in protoregistry.GlobalTypes) under the full name of the
// message its schema and message indexes name.
func newProtobuf[T proto.Message](client schemaregistry.Client, cfg SerdeConfig, newMsg func() T) (*Protobuf[T], error) {
	if client == nil {
		return nil, errors.New("registry: a Protobuf serde needs a schema registry client")
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
	// Without a message type, the program's generated packages are where
	// a record's message type is found, by its full name.
	de.ProtoRegistry = protoregistry.GlobalTypes
	if cfg.SubjectNameStrategy != TopicNameStrategy {
		if newMsg == nil {
			return nil, fmt.Errorf("registry: %s needs the message type of the Protobuf serde (specific.protobuf.key.type or specific.protobuf.value.type)", cfg.SubjectNameStrategy)
		}
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
	if dm, ok := any(m).(*dynamicpb.Message); ok {
		// proto.Marshal writes a dynamic message's fields in no fixed
		// order; generated code (Go's and Java's, and Java's
		// DynamicMessage) writes them by field number. The payload ends
		// the record, so it is replaced by that encoding.
		n := proto.Size(dm)
		if payload, err := marshalInNumberOrder(dm); err == nil && len(payload) == n && n <= len(b) {
			b = append(b[:len(b)-n:len(b)-n], payload...)
		}
	}
	return b, nil
}

// marshalInNumberOrder encodes m with its fields in field-number order, then
// its unknown fields, as generated code does: a message's encoding is the
// concatenation of its fields'. Messages within it are encoded
// deterministically (by field number, members of a oneof last).
func marshalInNumberOrder(m *dynamicpb.Message) ([]byte, error) {
	var fds []protoreflect.FieldDescriptor
	m.Range(func(fd protoreflect.FieldDescriptor, _ protoreflect.Value) bool {
		fds = append(fds, fd)
		return true
	})
	sort.Slice(fds, func(i, j int) bool { return fds[i].Number() < fds[j].Number() })
	opts := proto.MarshalOptions{Deterministic: true}
	var out []byte
	for _, fd := range fds {
		one := m.Type().New()
		one.Set(fd, m.Get(fd))
		var err error
		if out, err = opts.MarshalAppend(out, one.Interface()); err != nil {
			return nil, err
		}
	}
	return append(out, m.GetUnknown()...), nil
}

// Deserialize reads a record written by a Confluent Protobuf serializer.
func (p *Protobuf[T]) Deserialize(topic string, b []byte) (T, error) {
	var m T
	id, err := header(topic, b)
	if err != nil {
		return m, err
	}
	if p.newMsg == nil {
		v, err := p.de.Deserialize(topic, b)
		if err != nil {
			msg := "reading Protobuf failed"
			if !isRESTError(err) && !isTransportError(err) && strings.Contains(err.Error(), "unable to find MessageType") {
				msg += " (link in the Go package generated from the record's .proto file, or name its Java class in specific.protobuf.key.type or specific.protobuf.value.type)"
			}
			return m, &WireError{Topic: topic, SchemaID: id, Msg: msg, Err: classifyAny(err)}
		}
		out, ok := v.(T)
		if !ok {
			return m, &WireError{Topic: topic, SchemaID: id, Msg: fmt.Sprintf("read a %T, not a %T", v, m)}
		}
		return out, nil
	}
	m = p.newMsg()
	if err := p.de.DeserializeInto(topic, b, m); err != nil {
		return m, &WireError{Topic: topic, SchemaID: id, Msg: "reading Protobuf failed", Err: classifyAny(err)}
	}
	return m, nil
}
