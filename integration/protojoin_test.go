package integration

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/dynamicpb"

	"github.com/stoatflow/stoatflow/compat"
	"github.com/stoatflow/stoatflow/examples/protojoin"
	"github.com/stoatflow/stoatflow/internal/testkafka"
	"github.com/stoatflow/stoatflow/internal/testregistry"
	"github.com/stoatflow/stoatflow/kstreams/serde/registry"
	"github.com/stoatflow/stoatflow/streams"
)

// protoJoinEvents are the twin's inputs: clicks ("page:n") on the stream,
// profiles ("name/tier") on the table, with tombstones, a null key, an
// all-default Click (no field bytes at all) and a late click.
func protoJoinEvents() []joinEvent {
	u1, u2, u3, u4, u5 := str("u1"), str("u2"), str("u3"), str("u4"), str("u5")
	tbl := func(k, v *string, sec int64) joinEvent { return joinEvent{"table", tombstoneEvent{k, v, sec}} }
	st := func(k, v *string, sec int64) joinEvent { return joinEvent{"input", tombstoneEvent{k, v, sec}} }
	return []joinEvent{
		tbl(u1, str("Ada/gold"), 1), tbl(u2, str("Bo/silver"), 2), st(u1, str("home:1"), 3), st(u3, str("cart:2"), 4),
		tbl(u1, str("Ada L./platinum"), 5), st(u1, str("buy:300"), 6), tbl(u2, nil, 7), st(u2, str("home:4"), 8),
		st(u2, nil, 9), tbl(u4, nil, 10), tbl(nil, str("X/none"), 11), tbl(u3, str("Cy/"), 12), st(u3, str("help:-5"), 13),
		tbl(u3, nil, 14), tbl(u3, str("Cy/bronze"), 15), st(u3, str("cart:7"), 16), tbl(u5, str("Eve/gold"), 25),
		tbl(u4, str("Dee/silver"), 30), st(u5, str(":0"), 40), st(u4, str("late:9"), 20),
	}
}

// TestProtobufStreamTableJoinMatchesKafkaStreams: the stream-table join of
// examples/protojoin over Protobuf values gives the same bytes on both
// engines: the output's keys, values (magic byte 0, schema id, message
// indexes, Protobuf encoding) and timestamps per partition, and the table
// store's changelog (Profile records), as well as the same internal topics
// and describe(). Kafka Streams writes the wire format with the reference
// project's ConfluentProtobufSerde (ProtoJoin.java): Confluent's own serde
// is not published on Maven Central, and Apicurio's Protobuf serde frames
// records differently (TestApicurioProtobufSerdeFramingDiffersFromConfluent).
func TestProtobufStreamTableJoinMatchesKafkaStreams(t *testing.T) {
	t.Parallel()
	regURL := testregistry.URL(t)
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	clicks, profiles, enriched, err := protojoin.Serdes(regURL)
	if err != nil {
		t.Fatal(err)
	}
	// The inputs are registered under a subject of their own: readers
	// find the schema by the id in the bytes.
	subjectTopic := testregistry.Name(t, "protojoin-input")
	events := protoJoinEvents()
	input, inputs := joinInputs(events)
	encode := func(recs []testkafka.Record, side string) {
		for i := range recs {
			if recs[i].Value == nil {
				continue
			}
			var b []byte
			var err error
			if side == "input" {
				page, n, _ := strings.Cut(string(recs[i].Value), ":")
				num, _ := strconv.ParseInt(n, 10, 64)
				b, err = clicks.Serialize(subjectTopic, protojoin.New(protojoin.Click, map[string]any{"page": page, "n": num}))
			} else {
				name, tier, _ := strings.Cut(string(recs[i].Value), "/")
				b, err = profiles.Serialize(subjectTopic, protojoin.New(protojoin.Profile, map[string]any{"name": name, "tier": tier}))
			}
			if err != nil {
				t.Fatal(err)
			}
			recs[i].Value = b
		}
	}
	encode(input, "input")
	encode(inputs["table"], "table")

	// The expected results, as "kind:page:n+name/tier".
	want, changelog := streamTableResults(events, func(row *string) string {
		if row == nil {
			return "/"
		}
		return *row
	})

	out := runDifferential(t, diffCase{
		app: protojoin.Name, props: filepath.Join(root, "examples", "protojoin", "streams.properties"),
		input: input, inputs: inputs, outputs: len(want),
		changelogs: map[string]int{"{table}-STATE-STORE-0000000001-changelog": changelog},
	})

	// The bytes are Confluent's: EnrichedClick is the file's third
	// message, so its indexes are a count of 1 and index 2 (zigzag 02 04).
	ids := map[int]bool{}
	decoded := make([]testkafka.Record, 0, len(out))
	for _, r := range out {
		if len(r.Value) < 7 || r.Value[0] != 0 || !bytes.Equal(r.Value[5:7], []byte{0x02, 0x04}) {
			t.Fatalf("output value % x: not magic byte 0, schema id, message indexes [2]", r.Value)
		}
		ids[int(binary.BigEndian.Uint32(r.Value[1:5]))] = true
		m, err := enriched.Deserialize(r.Topic, r.Value)
		if err != nil {
			t.Fatal(err)
		}
		r.Value = []byte(protoJoinText(m))
		decoded = append(decoded, r)
	}
	checkJoinOutput(t, decoded, want)
	// A Profile, the file's first message, has the single 0 for indexes.
	p, err := profiles.Serialize(subjectTopic, protojoin.New(protojoin.Profile, map[string]any{"name": "A"}))
	if err != nil || !bytes.Equal(p[5:], []byte{0x00, 0x0a, 0x01, 'A'}) {
		t.Fatalf("Profile bytes % x, %v", p, err)
	}
	t.Logf("compared bytes: %d output records (String key; value = magic byte 0, schema id(s) %v, message indexes 02 04, EnrichedClick; timestamp) "+
		"and %d changelog records (Profile values, message index 00) on each engine", len(out), ids, changelog)
}

// protoJoinText prints an EnrichedClick as the expected results do.
func protoJoinText(m *dynamicpb.Message) string {
	s := func(f string) string { return protojoin.Get(m, f).String() }
	return fmt.Sprintf("%s:%s:%d+%s/%s", s("kind"), s("page"), protojoin.Get(m, "n").Int(), s("name"), s("tier"))
}

// TestApicurioProtobufSerdeFramingDiffersFromConfluent pins why the Kafka
// Streams twin of protojoin does not use Apicurio Registry's Protobuf serde
// (apicurio-registry-serdes-protobuf-serde 2.6.13.Final, the one served
// here): in its Confluent mode (as-confluent, content ids, no headers) it
// writes the magic byte and the 4-byte id as Confluent does, but then a
// length-delimited Ref message naming the type (09 0a 07 "Profile") where
// Confluent's serializer writes the message indexes (00 for the file's
// first message). StoatFlow reads Confluent's framing only.
func TestApicurioProtobufSerdeFramingDiffersFromConfluent(t *testing.T) {
	t.Parallel()
	regURL := testregistry.URL(t)
	bootstrap := testkafka.Bootstrap(t)
	in, out := testkafka.Topic(t, "in"), testkafka.Topic(t, "out")
	testkafka.CreateTopics(t, bootstrap, 1, in, out)
	testkafka.Produce(t, bootstrap, testkafka.Record{Topic: in, Partition: 0, Key: []byte("u1"), Value: []byte("Ada"), Timestamp: time.UnixMilli(epochBase)})
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	ref, err := StartReference(ctx, ReferenceOptions{App: "apicurioprotobuf",
		Set: map[string]string{"application.id": in + "-app", "bootstrap.servers": bootstrap, "state.dir": t.TempDir(),
			"default.key.serde": "org.apache.kafka.common.serialization.Serdes$StringSerde", "replication.factor": "1"},
		Args: map[string]string{"input": in, "output": out}})
	if err != nil {
		t.Fatal(err)
	}
	defer ref.Stop(45 * time.Second)
	recs, err := testkafka.ReadCommitted(bootstrap, out, 1, 2*time.Minute, time.Second)
	if err != nil {
		t.Fatalf("Apicurio output: %v\n%s", err, ref.Stderr())
	}
	b := recs[0].Value
	ref9 := append([]byte{0x09, 0x0a, 0x07}, "Profile"...)
	wantTail := append(ref9, 0x0a, 0x03, 'A', 'd', 'a')
	if len(b) < 5 || b[0] != 0 || !bytes.Equal(b[5:], wantTail) {
		t.Fatalf("Apicurio's Protobuf serde wrote % x; want 00 <id> % x (its Ref framing)", b, wantTail)
	}
	// The same Profile in Confluent's framing, as StoatFlow writes it.
	_, profiles, _, err := protojoin.Serdes(regURL)
	if err != nil {
		t.Fatal(err)
	}
	c, err := profiles.Serialize(testregistry.Name(t, "apicurio-cmp"), protojoin.New(protojoin.Profile, map[string]any{"name": "Ada"}))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(c[5:], []byte{0x00, 0x0a, 0x03, 'A', 'd', 'a'}) {
		t.Fatalf("Confluent framing % x", c)
	}
	// StoatFlow's reader takes the Ref's length byte for an index count
	// and does not read the record as a Profile.
	if m, err := profiles.Deserialize(out, b); err == nil && protojoin.Get(m, "name").String() == "Ada" {
		t.Fatalf("Apicurio's framing read as Confluent's: %v", m)
	}
	t.Logf("Apicurio ProtobufSerde 2.6.13.Final (as-confluent, contentId): % x\nConfluent framing (StoatFlow):             % x", b, c)
}

type jsonInvoice struct {
	Number string `json:"number"`
	Amount int64  `json:"amount"`
}

// invoiceClasses binds the Java class of the JVM twin's invoices to
// jsonInvoice.
var invoiceClasses = registry.Classes{JSONSchema: map[string]registry.JSONSchemaType{"io.stoatflow.reference.Invoice": registry.JSONSchemaOf[jsonInvoice]()}}

// TestProtobufAndJSONSchemaDefaultSerdesFromProperties: a JVM application's
// file naming KafkaProtobufSerde (with specific.protobuf.value.type, the
// Java class protoc makes for protojoin's Click) and KafkaJsonSchemaSerde
// (with json.key.type) gives the runtime default serdes that write the
// Confluent wire format through the registry and read it back.
func TestProtobufAndJSONSchemaDefaultSerdesFromProperties(t *testing.T) {
	t.Parallel()
	regURL := testregistry.URL(t)
	props := filepath.Join(t.TempDir(), "app.properties")
	if err := os.WriteFile(props, []byte("application.id=proto-defaults\nbootstrap.servers=127.0.0.1:9092\n"+
		"default.key.serde=io.confluent.kafka.streams.serdes.json.KafkaJsonSchemaSerde\njson.key.type=io.stoatflow.reference.Invoice\n"+
		"default.value.serde=io.confluent.kafka.streams.serdes.protobuf.KafkaProtobufSerde\n"+
		"specific.protobuf.value.type=io.stoatflow.reference.ProtoJoinMessages$Click\n"+
		"schema.registry.url="+regURL+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := LoadConfig([]string{props}, nil, compat.WithSchemaClasses(invoiceClasses))
	if err != nil {
		t.Fatal(err)
	}
	key, value, err := streams.DefaultSerdes(cfg)
	if err != nil {
		t.Fatal(err)
	}
	topic := testregistry.Name(t, "proto-defaults")
	click := protojoin.New(protojoin.Click, map[string]any{"page": "home", "n": int64(2)})
	vb, err := value.SerializeAny(topic, click)
	if err != nil {
		t.Fatal(err)
	}
	// Click is the file's second message: indexes 02 02.
	if want := []byte{0x02, 0x02, 0x0a, 0x04, 'h', 'o', 'm', 'e', 0x10, 0x02}; !bytes.Equal(vb[5:], want) {
		t.Fatalf("value % x, want 00 <id> % x", vb, want)
	}
	v, err := value.DeserializeAny(topic, vb)
	if err != nil {
		t.Fatal(err)
	}
	if m, ok := v.(proto.Message); !ok || !proto.Equal(m, click) {
		t.Fatalf("value read back as %v (%T)", v, v)
	}
	kb, err := key.SerializeAny(topic, jsonInvoice{Number: "i-9", Amount: 5})
	if err != nil {
		t.Fatal(err)
	}
	if string(kb[5:]) != `{"number":"i-9","amount":5}` {
		t.Fatalf("key % x", kb)
	}
	if k, err := key.DeserializeAny(topic, kb); err != nil || k != (jsonInvoice{Number: "i-9", Amount: 5}) {
		t.Fatalf("key read back as %v, %v", k, err)
	}
	cl := testregistry.Client(t)
	for _, s := range []struct{ subject, typ string }{{topic + "-key", "JSON"}, {topic + "-value", "PROTOBUF"}} {
		md, err := cl.GetLatestSchemaMetadata(s.subject)
		if err != nil || md.SchemaType != s.typ {
			t.Errorf("subject %s: %+v, %v", s.subject, md, err)
		}
	}
}
