package registry_test

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/confluentinc/confluent-kafka-go/v2/schemaregistry"

	"github.com/stoatflow/stoatflow/internal/testregistry"
	"github.com/stoatflow/stoatflow/kstreams/serde"
	"github.com/stoatflow/stoatflow/kstreams/serde/registry"
)

const clickV1 = `{"type":"record","name":"Click","namespace":"io.stoatflow.test","fields":[
 {"name":"user","type":"string"},{"name":"n","type":"long"}]}`

// clickV2 adds a field with a default: a reader of v2 reads v1 records.
const clickV2 = `{"type":"record","name":"Click","namespace":"io.stoatflow.test","fields":[
 {"name":"user","type":"string"},{"name":"n","type":"long"},{"name":"page","type":"string","default":"home"}]}`

type click struct {
	User string `avro:"user"`
	N    int64  `avro:"n"`
}

type clickPage struct {
	User string `avro:"user"`
	N    int64  `avro:"n"`
	Page string `avro:"page"`
}

func schemaID(t *testing.T, b []byte) int {
	t.Helper()
	if len(b) < 5 || b[0] != 0 {
		t.Fatalf("not the Confluent wire format: % x", b)
	}
	return int(binary.BigEndian.Uint32(b[1:5]))
}

func TestAvroWritesConfluentWireFormatAndRegistersUnderTopicSubject(t *testing.T) {
	cl := testregistry.Client(t)
	topic := testregistry.Name(t, "clicks")
	s, err := registry.NewAvro[click](cl, clickV1, registry.DefaultSerdeConfig(false))
	if err != nil {
		t.Fatal(err)
	}
	b, err := s.Serialize(topic, click{User: "a", N: 3})
	if err != nil {
		t.Fatal(err)
	}
	md, err := cl.GetLatestSchemaMetadata(topic + "-value")
	if err != nil {
		t.Fatalf("the schema was not registered under %s-value: %v", topic, err)
	}
	if got := schemaID(t, b); got != md.ID {
		t.Fatalf("schema id in the bytes = %d, registry says %d", got, md.ID)
	}
	// Avro binary: string "a" is zigzag length 1 (0x02) and 'a'; long 3 is 0x06.
	if want := []byte{0x02, 'a', 0x06}; !bytes.Equal(b[5:], want) {
		t.Fatalf("payload = % x, want % x", b[5:], want)
	}
	got, err := s.Deserialize(topic, b)
	if err != nil {
		t.Fatal(err)
	}
	if got != (click{User: "a", N: 3}) {
		t.Fatalf("round trip = %+v", got)
	}
	// A second serde (a new client, no cache) reads the same bytes by id.
	s2, err := registry.NewAvro[click](testregistry.Client(t), clickV1, registry.DefaultSerdeConfig(false))
	if err != nil {
		t.Fatal(err)
	}
	if got, err := s2.Deserialize(topic, b); err != nil || got != (click{User: "a", N: 3}) {
		t.Fatalf("fresh client read %+v, %v", got, err)
	}
	// Keys register under <topic>-key.
	k, err := registry.NewAvro[string](cl, "", registry.DefaultSerdeConfig(true))
	if err != nil {
		t.Fatal(err)
	}
	kb, err := k.Serialize(topic, "user-a")
	if err != nil {
		t.Fatal(err)
	}
	kmd, err := cl.GetLatestSchemaMetadata(topic + "-key")
	if err != nil || kmd.ID != schemaID(t, kb) || strings.Trim(kmd.Schema, `"`) != "string" {
		t.Fatalf("key subject: %+v, %v (bytes % x)", kmd, err, kb)
	}
}

func TestAvroReaderSchemaResolvesOlderWriter(t *testing.T) {
	cl := testregistry.Client(t)
	topic := testregistry.Name(t, "evolve")
	w, err := registry.NewAvro[click](cl, clickV1, registry.DefaultSerdeConfig(false))
	if err != nil {
		t.Fatal(err)
	}
	b, err := w.Serialize(topic, click{User: "u", N: 7})
	if err != nil {
		t.Fatal(err)
	}
	r, err := registry.NewAvro[clickPage](cl, clickV2, registry.DefaultSerdeConfig(false))
	if err != nil {
		t.Fatal(err)
	}
	got, err := r.Deserialize(topic, b)
	if err != nil {
		t.Fatal(err)
	}
	if got != (clickPage{User: "u", N: 7, Page: "home"}) {
		t.Fatalf("resolved = %+v, want the default for page", got)
	}
}

func TestAvroWithoutAutoRegisterNeedsRegisteredSchema(t *testing.T) {
	cl := testregistry.Client(t)
	topic := testregistry.Name(t, "noauto")
	cfg := registry.DefaultSerdeConfig(false)
	cfg.AutoRegisterSchemas = false
	s, err := registry.NewAvro[click](cl, clickV1, cfg)
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.Serialize(topic, click{User: "a", N: 1})
	if !errors.Is(err, registry.ErrUnknownSchema) || !errors.Is(err, serde.ErrSerialization) {
		t.Fatalf("unregistered schema: err = %v, want ErrUnknownSchema", err)
	}
	id, err := cl.Register(topic+"-value", schemaregistry.SchemaInfo{Schema: clickV1}, false)
	if err != nil {
		t.Fatal(err)
	}
	b, err := s.Serialize(topic, click{User: "a", N: 1})
	if err != nil {
		t.Fatal(err)
	}
	if schemaID(t, b) != id {
		t.Fatalf("id %d, registered %d", schemaID(t, b), id)
	}

	// use.latest.version with no schema of its own writes with the latest.
	cfg.UseLatestVersion = true
	latest, err := registry.NewAvro[map[string]any](cl, "", cfg)
	if err != nil {
		t.Fatal(err)
	}
	lb, err := latest.Serialize(topic, map[string]any{"user": "b", "n": int64(2)})
	if err != nil {
		t.Fatal(err)
	}
	if schemaID(t, lb) != id || !bytes.Equal(lb[5:], []byte{0x02, 'b', 0x04}) {
		t.Fatalf("use.latest.version wrote % x", lb)
	}
}

func TestAvroRecordNameStrategies(t *testing.T) {
	cl := testregistry.Client(t)
	topic := testregistry.Name(t, "strategy")
	ns := testregistry.Name(t, "ns")
	ns = strings.ReplaceAll(ns, "-", "_")
	schema := strings.Replace(clickV1, "io.stoatflow.test", ns, 1)
	for _, tc := range []struct {
		strategy registry.SubjectNameStrategy
		subject  string
	}{
		{registry.RecordNameStrategy, ns + ".Click"},
		{registry.TopicRecordNameStrategy, topic + "-" + ns + ".Click"},
	} {
		cfg := registry.DefaultSerdeConfig(false)
		cfg.SubjectNameStrategy = tc.strategy
		s, err := registry.NewAvro[click](cl, schema, cfg)
		if err != nil {
			t.Fatal(err)
		}
		b, err := s.Serialize(topic, click{User: "x", N: 1})
		if err != nil {
			t.Fatal(err)
		}
		md, err := cl.GetLatestSchemaMetadata(tc.subject)
		if err != nil || md.ID != schemaID(t, b) {
			t.Fatalf("%s: subject %s: %+v, %v", tc.strategy, tc.subject, md, err)
		}
	}
}

func TestAvroBadInputNamesTopicAndSchemaID(t *testing.T) {
	cl := testregistry.Client(t)
	topic := testregistry.Name(t, "bad")
	s, err := registry.NewAvro[click](cl, clickV1, registry.DefaultSerdeConfig(false))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		in   []byte
		want string
		is   error
		id   int
	}{
		{"magic", []byte{1, 0, 0, 0, 1, 2}, "unknown magic byte 0x01", nil, registry.NoSchemaID},
		{"short", []byte{0, 0}, "too few", nil, registry.NoSchemaID},
		{"empty", []byte{}, "too few", nil, registry.NoSchemaID},
		{"unknown id", []byte{0, 0x7f, 0xff, 0xff, 0xf0, 2, 'a', 6}, "unknown schema id", registry.ErrUnknownSchema, 0x7ffffff0},
	} {
		_, err := s.Deserialize(topic, tc.in)
		var we *registry.WireError
		if !errors.As(err, &we) || !errors.Is(err, serde.ErrSerialization) {
			t.Fatalf("%s: err = %v, want a WireError", tc.name, err)
		}
		if we.Topic != topic || we.SchemaID != tc.id || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), topic) {
			t.Fatalf("%s: %v (topic %q id %d)", tc.name, err, we.Topic, we.SchemaID)
		}
		if tc.is != nil && !errors.Is(err, tc.is) {
			t.Fatalf("%s: %v is not %v", tc.name, err, tc.is)
		}
	}
	// A payload that is not Avro for its (known) schema.
	good, err := s.Serialize(topic, click{User: "a", N: 1})
	if err != nil {
		t.Fatal(err)
	}
	bad := append(append([]byte{}, good[:5]...), 0x7f)
	_, err = s.Deserialize(topic, bad)
	var we *registry.WireError
	if !errors.As(err, &we) || we.SchemaID != schemaID(t, good) {
		t.Fatalf("corrupt payload: %v", err)
	}
}

func TestAvroRegistryUnreachableIsUnavailable(t *testing.T) {
	// Port 1 on loopback refuses connections.
	cl, err := registry.NewClient(registry.ClientConfig{URL: "http://127.0.0.1:1"})
	if err != nil {
		t.Fatal(err)
	}
	s, err := registry.NewAvro[click](cl, clickV1, registry.DefaultSerdeConfig(false))
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.Deserialize("t", []byte{0, 0, 0, 0, 5, 2, 'a', 6})
	if !errors.Is(err, registry.ErrRegistryUnavailable) || errors.Is(err, registry.ErrUnknownSchema) {
		t.Fatalf("deserialize: %v", err)
	}
	if !strings.Contains(err.Error(), "schema id 5") {
		t.Fatalf("no schema id in %v", err)
	}
	if _, err = s.Serialize("t", click{}); !errors.Is(err, registry.ErrRegistryUnavailable) {
		t.Fatalf("serialize: %v", err)
	}
	// The runtime retries the epoch of a record it could not write for this
	// reason, instead of handing it to an exception handler.
	if !errors.Is(err, serde.ErrUnavailable) {
		t.Fatalf("serialize: %v is not a serde.ErrUnavailable", err)
	}
}

func TestGenericAndPrimitiveAvro(t *testing.T) {
	cl := testregistry.Client(t)
	topic := testregistry.Name(t, "generic")
	g, err := registry.NewGenericAvro(cl, registry.DefaultSerdeConfig(false))
	if err != nil {
		t.Fatal(err)
	}
	b, err := g.Serialize(topic, registry.GenericRecord{Schema: clickV1, Value: map[string]any{"user": "g", "n": int64(9)}})
	if err != nil {
		t.Fatal(err)
	}
	r, err := g.Deserialize(topic, b)
	if err != nil {
		t.Fatal(err)
	}
	m, ok := r.Value.(map[string]any)
	if !ok || m["user"] != "g" || m["n"] != int64(9) || r.SchemaID != schemaID(t, b) || !strings.Contains(r.Schema, "Click") {
		t.Fatalf("generic read %+v", r)
	}
	if j, err := json.Marshal(r); err != nil || string(j) != `{"n":9,"user":"g"}` {
		t.Fatalf("JSON of a GenericRecord: %s, %v", j, err)
	}
	// The generic bytes are the specific serde's bytes.
	s, err := registry.NewAvro[click](cl, clickV1, registry.DefaultSerdeConfig(false))
	if err != nil {
		t.Fatal(err)
	}
	sb, err := s.Serialize(topic, click{User: "g", N: 9})
	if err != nil || !bytes.Equal(sb, b) {
		t.Fatalf("specific % x, generic % x, %v", sb, b, err)
	}

	p, err := registry.NewPrimitiveAvro(cl, registry.DefaultSerdeConfig(true))
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []any{"s", int64(-2), int32(5), 1.5, float32(2.5), true, []byte{1, 2}} {
		pb, err := p.SerializeAny(topic, v)
		if err != nil {
			t.Fatal(err)
		}
		back, err := p.DeserializeAny(topic, pb)
		if err != nil {
			t.Fatal(err)
		}
		if !equalAny(back, v) {
			t.Fatalf("primitive %T %v came back as %T %v", v, v, back, back)
		}
	}
	if pb, err := p.SerializeAny(topic, nil); pb != nil || err != nil {
		t.Fatalf("null: % x, %v", pb, err)
	}
	if _, err := p.SerializeAny(topic, struct{}{}); !errors.Is(err, serde.ErrSerialization) {
		t.Fatalf("struct: %v", err)
	}
}

func equalAny(a, b any) bool {
	if ab, ok := a.([]byte); ok {
		bb, ok := b.([]byte)
		return ok && bytes.Equal(ab, bb)
	}
	return a == b
}

func TestClientConfigHidesUserInfo(t *testing.T) {
	c := registry.ClientConfig{URL: "https://u:pw-secret@reg.example:8081", BasicAuthCredentialsSource: "USER_INFO", BasicAuthUserInfo: "u:secret-pass"}
	s := c.String()
	if strings.Contains(s, "secret") {
		t.Fatalf("String() shows a secret: %s", s)
	}
	for _, tc := range []struct {
		c    registry.ClientConfig
		want string
	}{
		{registry.ClientConfig{}, "schema.registry.url is required"},
		{registry.ClientConfig{URL: "localhost:8081"}, "not an http"},
		{registry.ClientConfig{URL: "http://a:1,http://b:1"}, "several"},
		{registry.ClientConfig{URL: "http://a:1", BasicAuthCredentialsSource: "USER_INFO", BasicAuthUserInfo: "nocolon"}, "user:password"},
		{registry.ClientConfig{URL: "http://a:1", BasicAuthCredentialsSource: "SASL_INHERIT"}, "not USER_INFO or URL"},
		{registry.ClientConfig{URL: "http://a:1", BasicAuthCredentialsSource: "URL"}, "user info in schema.registry.url"},
		{registry.ClientConfig{URL: "http://a:1", SSLKeyLocation: "k.pem"}, "both"},
	} {
		err := tc.c.Validate()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Fatalf("%+v: %v, want %q", tc.c, err, tc.want)
		}
		if strings.Contains(err.Error(), "secret") {
			t.Fatalf("error shows a secret: %v", err)
		}
	}
}

// TestAvroRetriesABriefRegistryOutage: two failed requests (a 503) are
// retried; the record is written and read as if nothing happened.
func TestAvroRetriesABriefRegistryOutage(t *testing.T) {
	target, err := url.Parse(testregistry.URL(t))
	if err != nil {
		t.Fatal(err)
	}
	proxy := httputil.NewSingleHostReverseProxy(target)
	var failures atomic.Int32
	failures.Store(2)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if failures.Add(-1) >= 0 {
			w.WriteHeader(http.StatusServiceUnavailable)
			_, _ = w.Write([]byte(`{"error_code":50301,"message":"restarting"}`))
			return
		}
		r.Host = target.Host
		proxy.ServeHTTP(w, r)
	}))
	defer srv.Close()
	cl, err := registry.NewClient(registry.ClientConfig{URL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	s, err := registry.NewAvro[click](cl, clickV1, registry.DefaultSerdeConfig(false))
	if err != nil {
		t.Fatal(err)
	}
	topic := testregistry.Name(t, "outage")
	b, err := s.Serialize(topic, click{User: "o", N: 1})
	if err != nil {
		t.Fatalf("after a brief outage: %v", err)
	}
	if failures.Load() >= 0 {
		t.Fatal("the outage was not hit")
	}
	failures.Store(2)
	fresh, err := registry.NewAvro[click](cl, clickV1, registry.DefaultSerdeConfig(false))
	if err != nil {
		t.Fatal(err)
	}
	if got, err := fresh.Deserialize(topic, b); err != nil || got != (click{User: "o", N: 1}) {
		t.Fatalf("read after an outage: %+v, %v", got, err)
	}
}

// TestGenericAvroUseLatestVersionReadsIntoTheLatestSchema: a v1 record read
// under use.latest.version has v2's shape, and its GenericRecord carries v2.
func TestGenericAvroUseLatestVersionReadsIntoTheLatestSchema(t *testing.T) {
	cl := testregistry.Client(t)
	topic := testregistry.Name(t, "latest")
	w, err := registry.NewAvro[click](cl, clickV1, registry.DefaultSerdeConfig(false))
	if err != nil {
		t.Fatal(err)
	}
	b, err := w.Serialize(topic, click{User: "l", N: 4})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cl.Register(topic+"-value", schemaregistry.SchemaInfo{Schema: clickV2}, false); err != nil {
		t.Fatal(err)
	}
	cfg := registry.DefaultSerdeConfig(false)
	cfg.AutoRegisterSchemas, cfg.UseLatestVersion = false, true
	g, err := registry.NewGenericAvro(testregistry.Client(t), cfg)
	if err != nil {
		t.Fatal(err)
	}
	r, err := g.Deserialize(topic, b)
	if err != nil {
		t.Fatal(err)
	}
	m, _ := r.Value.(map[string]any)
	if m["page"] != "home" || m["user"] != "l" || r.SchemaID != schemaID(t, b) || !strings.Contains(r.Schema, `"page"`) {
		t.Fatalf("read %+v", r)
	}
	// Written back, it uses the latest schema (use.latest.version).
	out, err := g.Serialize(topic, r)
	if err != nil {
		t.Fatal(err)
	}
	md, err := cl.GetLatestSchemaMetadata(topic + "-value")
	if err != nil || schemaID(t, out) != md.ID || schemaID(t, out) == schemaID(t, b) {
		t.Fatalf("written with id %d, latest %d (%v), read id %d", schemaID(t, out), md.ID, err, schemaID(t, b))
	}
}
