package registry

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sync"

	"github.com/confluentinc/confluent-kafka-go/v2/schemaregistry"
	"github.com/confluentinc/confluent-kafka-go/v2/schemaregistry/serde/avrov2"
	"github.com/hamba/avro/v2"

	"github.com/stoatflow/stoatflow/kstreams/serde"
)

// avroCodec is the registry half shared by the Avro serdes: it finds the id
// of a writer schema under its subject, and the schema of an id, caching
// both and the parsed schemas.
type avroCodec struct {
	client schemaregistry.Client
	cfg    SerdeConfig

	mu struct {
		sync.Mutex
		// parsed holds schemas by their JSON text, and texts by
		// schema, since the registry compares the text it was given.
		parsed map[string]avro.Schema
		texts  map[avro.Schema]string
		// byID holds the writer schemas of the ids read so far.
		byID map[int]avro.Schema
		// resolved holds writer schemas resolved against the reader
		// schema, by writer id.
		resolved map[int]avro.Schema
		// readers holds the schema a record of each writer id is read
		// as: the reader schema, or the writer's own.
		readers map[int]avro.Schema
	}
}

func newAvroCodec(client schemaregistry.Client, cfg SerdeConfig) (*avroCodec, error) {
	if client == nil {
		return nil, errors.New("registry: an Avro serde needs a schema registry client")
	}
	c := &avroCodec{client: client, cfg: cfg}
	c.mu.parsed = map[string]avro.Schema{}
	c.mu.texts = map[avro.Schema]string{}
	c.mu.byID = map[int]avro.Schema{}
	c.mu.resolved = map[int]avro.Schema{}
	c.mu.readers = map[int]avro.Schema{}
	return c, nil
}

// parse parses an Avro schema with the schemas it references, each in a
// cache of its own so that two subjects' records of the same name never mix.
func (c *avroCodec) parse(info schemaregistry.SchemaInfo) (avro.Schema, error) {
	c.mu.Lock()
	s, ok := c.mu.parsed[info.Schema]
	c.mu.Unlock()
	if ok {
		return s, nil
	}
	cache := &avro.SchemaCache{}
	if err := c.parseRefs(info, cache, 0); err != nil {
		return nil, err
	}
	s, err := avro.ParseWithCache(info.Schema, "", cache)
	if err != nil {
		return nil, fmt.Errorf("registry: invalid Avro schema: %w", err)
	}
	c.mu.Lock()
	c.mu.parsed[info.Schema] = s
	c.mu.texts[s] = info.Schema
	c.mu.Unlock()
	return s, nil
}

// text returns the JSON a schema was parsed from, or its full JSON form
// for a schema made in code. Registering the text as given, not Avro's
// canonical form, keeps its defaults, docs and properties.
func (c *avroCodec) text(s avro.Schema) string {
	c.mu.Lock()
	t, ok := c.mu.texts[s]
	c.mu.Unlock()
	if ok {
		return t
	}
	if b, err := s.(interface{ MarshalJSON() ([]byte, error) }).MarshalJSON(); err == nil {
		return string(b)
	}
	return s.String()
}

func (c *avroCodec) parseRefs(info schemaregistry.SchemaInfo, cache *avro.SchemaCache, depth int) error {
	if depth > 32 {
		return errors.New("registry: schema references nest deeper than 32")
	}
	for _, ref := range info.References {
		md, err := c.client.GetSchemaMetadataIncludeDeleted(ref.Subject, ref.Version, true)
		if err != nil {
			return fmt.Errorf("registry: reference %s (subject %s version %d): %w", ref.Name, ref.Subject, ref.Version, classify(err))
		}
		if err := c.parseRefs(md.SchemaInfo, cache, depth+1); err != nil {
			return err
		}
		if _, err := avro.ParseWithCache(md.Schema, "", cache); err != nil {
			return fmt.Errorf("registry: reference %s: invalid Avro schema: %w", ref.Name, err)
		}
	}
	return nil
}

// fullName is the name the record subject name strategies use.
func fullName(s avro.Schema) string {
	if n, ok := s.(avro.NamedSchema); ok {
		return n.FullName()
	}
	return ""
}

// writer returns the id and schema to write a value of schema s (nil when
// the serde has none of its own and use.latest.version picks it) to topic,
// following auto.register.schemas, use.latest.version and normalize.schemas
// in Confluent's order.
func (c *avroCodec) writer(topic string, s avro.Schema) (int, avro.Schema, error) {
	name := ""
	if s != nil {
		name = fullName(s)
	}
	subject, err := c.cfg.SubjectNameStrategy.subject(topic, c.cfg.IsKey, name)
	if err != nil {
		return NoSchemaID, nil, &WireError{Topic: topic, SchemaID: NoSchemaID, Msg: "cannot name the subject", Err: err}
	}
	switch {
	case s != nil && c.cfg.AutoRegisterSchemas:
		var id int
		err := retryUnavailable(func() (err error) {
			id, err = c.client.Register(subject, schemaregistry.SchemaInfo{Schema: c.text(s)}, c.cfg.NormalizeSchemas)
			return err
		})
		if err != nil {
			return NoSchemaID, nil, &WireError{Topic: topic, SchemaID: NoSchemaID, Subject: subject,
				Msg: "registering the schema failed", Err: classify(err)}
		}
		return id, s, nil
	case c.cfg.UseLatestVersion || s == nil:
		var md schemaregistry.SchemaMetadata
		err := retryUnavailable(func() (err error) {
			md, err = c.client.GetLatestSchemaMetadata(subject)
			return err
		})
		if err != nil {
			return NoSchemaID, nil, &WireError{Topic: topic, SchemaID: NoSchemaID, Subject: subject,
				Msg: "looking up the latest schema failed (register one, or set auto.register.schemas=true)", Err: classify(err)}
		}
		latest, err := c.parse(md.SchemaInfo)
		if err != nil {
			return NoSchemaID, nil, &WireError{Topic: topic, SchemaID: md.ID, Subject: subject, Msg: "the latest schema", Err: err}
		}
		return md.ID, latest, nil
	default:
		var id int
		err := retryUnavailable(func() (err error) {
			id, err = c.client.GetID(subject, schemaregistry.SchemaInfo{Schema: c.text(s)}, c.cfg.NormalizeSchemas)
			return err
		})
		if err != nil {
			return NoSchemaID, nil, &WireError{Topic: topic, SchemaID: NoSchemaID, Subject: subject,
				Msg: "the schema is not registered under the subject and auto.register.schemas=false", Err: classify(err)}
		}
		return id, s, nil
	}
}

// encode writes v with schema s (see writer) in the wire format.
func (c *avroCodec) encode(topic string, s avro.Schema, v any) ([]byte, error) {
	id, w, err := c.writer(topic, s)
	if err != nil {
		return nil, err
	}
	payload, err := avro.Marshal(w, v)
	if err != nil {
		return nil, &WireError{Topic: topic, SchemaID: id, Msg: "the value does not fit its Avro schema", Err: err}
	}
	return frame(id, payload), nil
}

// schemaByID returns the writer schema of id.
func (c *avroCodec) schemaByID(topic string, id int) (avro.Schema, error) {
	c.mu.Lock()
	s, ok := c.mu.byID[id]
	c.mu.Unlock()
	if ok {
		return s, nil
	}
	// An empty subject asks for the id alone, as Confluent's deserializers do.
	var info schemaregistry.SchemaInfo
	err := retryUnavailable(func() (err error) {
		info, err = c.client.GetBySubjectAndID("", id)
		return err
	})
	if err != nil {
		err = classify(err)
		msg := "the registry could not be asked for the schema; the record is intact: retry when the registry is back"
		if errors.Is(err, ErrUnknownSchema) {
			msg = "unknown schema id: the registry has no schema with this id (was the record written against another registry?)"
		}
		return nil, &WireError{Topic: topic, SchemaID: id, Msg: msg, Err: err}
	}
	if info.SchemaType != "" && info.SchemaType != "AVRO" {
		return nil, &WireError{Topic: topic, SchemaID: id, Msg: fmt.Sprintf("the schema is %s, not Avro", info.SchemaType)}
	}
	s, err = c.parse(info)
	if err != nil {
		return nil, &WireError{Topic: topic, SchemaID: id, Msg: "the writer schema", Err: err}
	}
	c.mu.Lock()
	c.mu.byID[id] = s
	c.mu.Unlock()
	return s, nil
}

// readSchema returns the schema to decode a record written with id: the
// writer schema resolved against reader (nil: the writer's own), or against
// the subject's latest schema under use.latest.version.
func (c *avroCodec) readSchema(topic string, id int, reader avro.Schema) (avro.Schema, error) {
	c.mu.Lock()
	r, ok := c.mu.resolved[id]
	c.mu.Unlock()
	if ok {
		return r, nil
	}
	w, err := c.schemaByID(topic, id)
	if err != nil {
		return nil, err
	}
	if c.cfg.UseLatestVersion {
		subject, err := c.cfg.SubjectNameStrategy.subject(topic, c.cfg.IsKey, fullName(w))
		if err != nil {
			return nil, &WireError{Topic: topic, SchemaID: id, Msg: "cannot name the subject", Err: err}
		}
		var md schemaregistry.SchemaMetadata
		err = retryUnavailable(func() (err error) {
			md, err = c.client.GetLatestSchemaMetadata(subject)
			return err
		})
		if err != nil {
			return nil, &WireError{Topic: topic, SchemaID: id, Subject: subject, Msg: "looking up the latest schema (use.latest.version=true) failed", Err: classify(err)}
		}
		if reader, err = c.parse(md.SchemaInfo); err != nil {
			return nil, &WireError{Topic: topic, SchemaID: md.ID, Subject: subject, Msg: "the latest schema", Err: err}
		}
	}
	r = w
	readAs := w
	if reader != nil {
		readAs = reader
	}
	if reader != nil && reader.Fingerprint() != w.Fingerprint() {
		if r, err = avro.NewSchemaCompatibility().Resolve(reader, w); err != nil {
			return nil, &WireError{Topic: topic, SchemaID: id, Msg: "the writer schema cannot be read with the reader schema", Err: err}
		}
	}
	c.mu.Lock()
	c.mu.resolved[id] = r
	c.mu.readers[id] = readAs
	c.mu.Unlock()
	return r, nil
}

// decode reads b into out (a pointer), returning the writer schema id.
func (c *avroCodec) decode(topic string, b []byte, reader avro.Schema, out any) (int, error) {
	id, err := header(topic, b)
	if err != nil {
		return id, err
	}
	r, err := c.readSchema(topic, id, reader)
	if err != nil {
		return id, err
	}
	if err := avro.Unmarshal(r, b[headerLen:], out); err != nil {
		return id, &WireError{Topic: topic, SchemaID: id, Msg: "the payload is not valid Avro for its schema", Err: err}
	}
	return id, nil
}

// Avro is the Confluent Avro serde for Go values of T: structs with `avro`
// field tags (SpecificAvroSerde), map[string]any records, or primitives
// (PrimitiveAvroSerde: string, int32, int64, float32, float64, bool, []byte).
// Its schema is the one given to NewAvro, or derived from T; with
// use.latest.version and no schema given, the subject's latest.
type Avro[T any] struct {
	codec  *avroCodec
	schema avro.Schema
}

// NewAvro returns an Avro serde for T that writes with schema (Avro schema
// JSON). An empty schema is derived from T (a struct or a primitive), or,
// under use.latest.version, taken from the registry when a record is written.
// The schema is also the reader schema: records written with an older or
// newer compatible schema are resolved into it, as a Java specific reader
// resolves into its generated class.
func NewAvro[T any](client schemaregistry.Client, schema string, cfg SerdeConfig) (*Avro[T], error) {
	codec, err := newAvroCodec(client, cfg)
	if err != nil {
		return nil, err
	}
	a := &Avro[T]{codec: codec}
	switch {
	case schema != "":
		if a.schema, err = codec.parse(schemaregistry.SchemaInfo{Schema: schema}); err != nil {
			return nil, err
		}
	case cfg.UseLatestVersion && !cfg.AutoRegisterSchemas:
	default:
		if a.schema, err = schemaOfType(reflect.TypeFor[T]()); err != nil {
			return nil, err
		}
	}
	return a, nil
}

// schemaOfType derives the Avro schema of a Go type: the primitive that
// PrimitiveAvroSerde writes for it, or a record for a struct.
func schemaOfType(t reflect.Type) (avro.Schema, error) {
	prim := map[reflect.Kind]avro.Type{
		reflect.String: avro.String, reflect.Int32: avro.Int, reflect.Int64: avro.Long,
		reflect.Float32: avro.Float, reflect.Float64: avro.Double, reflect.Bool: avro.Boolean,
	}
	if p, ok := prim[t.Kind()]; ok {
		return avro.NewPrimitiveSchema(p, nil), nil
	}
	if t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Uint8 {
		return avro.NewPrimitiveSchema(avro.Bytes, nil), nil
	}
	if t.Kind() == reflect.Struct {
		s, err := avrov2.StructToSchema(t)
		if err != nil {
			return nil, fmt.Errorf("registry: Avro schema of %s: %w", t, err)
		}
		return s, nil
	}
	return nil, fmt.Errorf("registry: no Avro schema can be derived from %s: give the schema to NewAvro", t)
}

// Serialize writes v in the Confluent Avro wire format.
func (a *Avro[T]) Serialize(topic string, v T) ([]byte, error) {
	return a.codec.encode(topic, a.schema, v)
}

// Deserialize reads a record written in the Confluent Avro wire format.
func (a *Avro[T]) Deserialize(topic string, b []byte) (T, error) {
	var v T
	_, err := a.codec.decode(topic, b, a.schema, &v)
	return v, err
}

// GenericRecord is an Avro value with the schema it was read or is to be
// written with, the Go counterpart of GenericAvroSerde's GenericRecord. Value
// is map[string]any for a record, and the decoded Go value for any other
// schema.
type GenericRecord struct {
	// Schema is the value's Avro schema JSON.
	Schema string
	// SchemaID is the registry id the record was read with (0 for a value
	// made in code).
	SchemaID int
	Value    any
}

// MarshalJSON renders the record's value alone, as Avro's JSON-like
// GenericRecord.toString does, so that interactive queries over HTTP answer
// with the record's fields.
func (r GenericRecord) MarshalJSON() ([]byte, error) {
	b, err := json.Marshal(r.Value)
	if err != nil {
		return nil, fmt.Errorf("registry: the Avro value of schema id %d as JSON: %w", r.SchemaID, err)
	}
	return b, nil
}

// GenericAvro is the serde of GenericAvroSerde (and, read from a
// .properties file, of SpecificAvroSerde, since a Go program has no
// generated Java class): it reads any Avro record with its writer schema
// and writes a GenericRecord with its own.
type GenericAvro struct{ codec *avroCodec }

// NewGenericAvro returns the generic Avro serde.
func NewGenericAvro(client schemaregistry.Client, cfg SerdeConfig) (*GenericAvro, error) {
	codec, err := newAvroCodec(client, cfg)
	if err != nil {
		return nil, err
	}
	return &GenericAvro{codec: codec}, nil
}

// Serialize writes r.Value with r.Schema (with the subject's latest schema
// when r.Schema is empty and use.latest.version is set).
func (g *GenericAvro) Serialize(topic string, r GenericRecord) ([]byte, error) {
	var s avro.Schema
	if r.Schema != "" {
		var err error
		if s, err = g.codec.parse(schemaregistry.SchemaInfo{Schema: r.Schema}); err != nil {
			return nil, &WireError{Topic: topic, SchemaID: NoSchemaID, Msg: "the record's schema", Err: err}
		}
	} else if !g.codec.cfg.UseLatestVersion {
		return nil, &WireError{Topic: topic, SchemaID: NoSchemaID, Msg: "a GenericRecord needs its schema unless use.latest.version=true"}
	}
	return g.codec.encode(topic, s, r.Value)
}

// Deserialize reads any Avro record with its writer schema (or the
// subject's latest under use.latest.version).
func (g *GenericAvro) Deserialize(topic string, b []byte) (GenericRecord, error) {
	var v any
	id, err := g.codec.decode(topic, b, nil, &v)
	if err != nil {
		return GenericRecord{}, err
	}
	// The value has the shape of the schema it was read as (the latest,
	// under use.latest.version), so that is the schema it is written with.
	g.codec.mu.Lock()
	readAs := g.codec.mu.readers[id]
	g.codec.mu.Unlock()
	return GenericRecord{Schema: g.codec.text(readAs), SchemaID: id, Value: v}, nil
}

// PrimitiveAvro is the untyped serde of PrimitiveAvroSerde, for serdes named
// in a .properties file: it writes a Go string, int32, int64, float32,
// float64, bool or []byte with the Avro primitive schema of its type, and
// reads a primitive record back into that Go type.
type PrimitiveAvro struct{ codec *avroCodec }

// NewPrimitiveAvro returns the primitive Avro serde.
func NewPrimitiveAvro(client schemaregistry.Client, cfg SerdeConfig) (*PrimitiveAvro, error) {
	codec, err := newAvroCodec(client, cfg)
	if err != nil {
		return nil, err
	}
	return &PrimitiveAvro{codec: codec}, nil
}

// SerializeAny writes v, nil as Kafka's null.
func (p *PrimitiveAvro) SerializeAny(topic string, v any) ([]byte, error) {
	if v == nil {
		return nil, nil
	}
	s, err := schemaOfType(reflect.TypeOf(v))
	if err != nil || s.Type() == avro.Record {
		return nil, &WireError{Topic: topic, SchemaID: NoSchemaID,
			Msg: fmt.Sprintf("PrimitiveAvroSerde writes string, int32, int64, float32, float64, bool or []byte, not %T", v)}
	}
	return p.codec.encode(topic, s, v)
}

// DeserializeAny reads a primitive record, nil bytes as nil.
func (p *PrimitiveAvro) DeserializeAny(topic string, b []byte) (any, error) {
	if b == nil {
		return nil, nil
	}
	var v any
	id, err := p.codec.decode(topic, b, nil, &v)
	if err != nil {
		return nil, err
	}
	// Avro's int decodes as a Go int; PrimitiveAvroSerde's is an Integer.
	if i, ok := v.(int); ok {
		if w, err := p.codec.schemaByID(topic, id); err == nil && w.Type() == avro.Int {
			return int32(i), nil
		}
		return int64(i), nil
	}
	return v, nil
}

var (
	_ serde.Serde[GenericRecord] = (*GenericAvro)(nil)
	_ serde.Untyped              = (*PrimitiveAvro)(nil)
)
