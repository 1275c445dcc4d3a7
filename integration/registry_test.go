package integration

import (
	"context"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/compat"
	"github.com/stoatflow/stoatflow/examples/avrocount"
	"github.com/stoatflow/stoatflow/internal/testkafka"
	"github.com/stoatflow/stoatflow/internal/testregistry"
	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/serde"
	"github.com/stoatflow/stoatflow/kstreams/serde/registry"
	"github.com/stoatflow/stoatflow/streams"
)

// The Avro records of the registry tests.
const (
	avroClickSchema = `{"type":"record","name":"Click","namespace":"io.stoatflow.reference","fields":[
 {"name":"user","type":"string"},{"name":"n","type":"long"}]}`
	avroTotalSchema = `{"type":"record","name":"ClickTotal","namespace":"io.stoatflow.reference","fields":[
 {"name":"clicks","type":"long"},{"name":"sum","type":"long"}]}`
)

type avroClick struct {
	User string `avro:"user"`
	N    int64  `avro:"n"`
}

type avroTotal struct {
	Clicks int64 `avro:"clicks"`
	Sum    int64 `avro:"sum"`
}

// Topologies of the registry tests.
const (
	// avroWindowed counts and sums Avro clicks per key in tumbling
	// ten-second windows; the sums are Avro records in the store and on
	// the output topic.
	avroWindowed = "integration-avro-windowed"
	// avroGenericCount counts the clicks of each user, reading values with
	// the default value serde (GenericAvroSerde from the configuration).
	avroGenericCount = "integration-avro-generic-count"
)

// buildAvroWindowed builds the avroWindowed topology.
func buildAvroWindowed(args map[string]string) (*kstreams.Topology, error) {
	cl, err := registry.NewClient(registry.ClientConfig{URL: args["registry"]})
	if err != nil {
		return nil, err
	}
	clicks, err := registry.NewAvro[avroClick](cl, avroClickSchema, registry.DefaultSerdeConfig(false))
	if err != nil {
		return nil, err
	}
	totals, err := registry.NewAvro[avroTotal](cl, avroTotalSchema, registry.DefaultSerdeConfig(false))
	if err != nil {
		return nil, err
	}
	windowKey := serde.TimeWindowed[string]{Inner: serde.String{}, WindowSize: 10_000}
	b := kstreams.NewStreamsBuilder()
	events := kstreams.Stream(b, []string{args["input"]}, kstreams.ConsumedWith[string, avroClick](serde.String{}, clicks))
	windows := kstreams.WindowedBy(events.GroupByKey(), kstreams.TimeWindowsOfSizeWithNoGrace(10*time.Second))
	windows.Count().ToStream().To(args["counts"], kstreams.ProducedWith[kstreams.Windowed[string], int64](windowKey, serde.Long{}))
	kstreams.WindowedAggregate(windows, func() avroTotal { return avroTotal{} },
		func(_ string, c avroClick, t avroTotal) avroTotal {
			return avroTotal{Clicks: t.Clicks + 1, Sum: t.Sum + c.N}
		},
		kstreams.Materialized[string, avroTotal]{Name: "avro-totals", ValueSerde: totals}).
		ToStream().To(args["totals"], kstreams.ProducedWith[kstreams.Windowed[string], avroTotal](windowKey, totals))
	return b.Build()
}

// buildAvroGenericCount builds the avroGenericCount topology.
func buildAvroGenericCount(args map[string]string) (*kstreams.Topology, error) {
	b := kstreams.NewStreamsBuilder()
	events := kstreams.Stream[string, registry.GenericRecord](b, []string{args["input"]})
	kstreams.GroupBy(events, func(_ string, r registry.GenericRecord) string {
		m, _ := r.Value.(map[string]any)
		u, _ := m["user"].(string)
		return u
	}, kstreams.Grouped[string, registry.GenericRecord]{KeySerde: serde.String{}}).Count().
		ToStream().To(args["output"], kstreams.ProducedWith[string, int64](serde.String{}, serde.Long{}))
	return b.Build()
}

func wireID(t *testing.T, b []byte) int {
	t.Helper()
	if len(b) < 5 || b[0] != 0 {
		t.Fatalf("not the Confluent wire format: % x", b)
	}
	return int(binary.BigEndian.Uint32(b[1:5]))
}

// TestAvroWindowedCountAndAggregateThroughRegistry: Avro values in, a
// windowed count and an Avro windowed aggregate out, on the real broker and
// registry. The input's and output's schemas are registered under their
// topics' subjects and their ids are in the bytes.
func TestAvroWindowedCountAndAggregateThroughRegistry(t *testing.T) {
	t.Parallel()
	bootstrap := testkafka.Bootstrap(t)
	regURL := testregistry.URL(t)
	cl := testregistry.Client(t)
	in, counts, totals := testkafka.Topic(t, "in"), testkafka.Topic(t, "counts"), testkafka.Topic(t, "totals")
	testkafka.CreateTopics(t, bootstrap, 1, in, counts, totals)

	producer, err := registry.NewAvro[avroClick](cl, avroClickSchema, registry.DefaultSerdeConfig(false))
	if err != nil {
		t.Fatal(err)
	}
	// Window [0,10s): a 1+2, b 5; window [10s,20s): a 4; then a record at
	// 30s closes both windows (no grace).
	inputs := []struct {
		key string
		n   int64
		ms  int64
	}{{"a", 1, 0}, {"b", 5, 1000}, {"a", 2, 9000}, {"a", 4, 12000}, {"a", 0, 30000}}
	var recs []testkafka.Record
	for _, r := range inputs {
		v, err := producer.Serialize(in, avroClick{User: r.key, N: r.n})
		if err != nil {
			t.Fatal(err)
		}
		recs = append(recs, testkafka.Record{Topic: in, Partition: 0, Key: []byte(r.key), Value: v, Timestamp: time.UnixMilli(epochBase + r.ms)})
	}
	testkafka.Produce(t, bootstrap, recs...)
	inMeta, err := cl.GetLatestSchemaMetadata(in + "-value")
	if err != nil || inMeta.ID != wireID(t, recs[0].Value) {
		t.Fatalf("input subject %s-value: %+v, %v", in, inMeta, err)
	}

	cfg, err := LoadConfig(nil, map[string]string{
		"application.id": in + "-app", "bootstrap.servers": bootstrap, "state.dir": t.TempDir(),
		"processing.guarantee": "exactly_once_v2", "statestore.cache.max.bytes": "0",
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	ks, err := StartStoatFlow(ctx, buildAvroWindowed, map[string]string{"input": in, "counts": counts, "totals": totals, "registry": regURL}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer ks.Close(context.Background())

	keySerde := serde.TimeWindowed[string]{Inner: serde.String{}, WindowSize: 10_000}
	// Window starts print relative to the window boundary before epochBase.
	base0 := epochBase / 10000 * 10000
	rel := func(ms int64) int64 { return (epochBase+ms)/10000*10000 - base0 }
	gotCounts, err := testkafka.ReadCommitted(bootstrap, counts, len(inputs), time.Minute, 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	var cs []string
	for _, r := range gotCounts {
		k, err := keySerde.Deserialize(counts, r.Key)
		if err != nil {
			t.Fatal(err)
		}
		cs = append(cs, fmt.Sprintf("%s@%d=%d", k.Key, k.Window.Start-base0, binary.BigEndian.Uint64(r.Value)))
	}
	gotTotals, err := testkafka.ReadCommitted(bootstrap, totals, len(inputs), time.Minute, 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	outMeta, err := cl.GetLatestSchemaMetadata(totals + "-value")
	if err != nil {
		t.Fatalf("output subject %s-value not registered: %v", totals, err)
	}
	reader, err := registry.NewAvro[avroTotal](testregistry.Client(t), avroTotalSchema, registry.DefaultSerdeConfig(false))
	if err != nil {
		t.Fatal(err)
	}
	var ts []string
	for _, r := range gotTotals {
		if id := wireID(t, r.Value); id != outMeta.ID {
			t.Fatalf("output schema id %d, the registry has %d under %s-value", id, outMeta.ID, totals)
		}
		k, err := keySerde.Deserialize(totals, r.Key)
		if err != nil {
			t.Fatal(err)
		}
		v, err := reader.Deserialize(totals, r.Value)
		if err != nil {
			t.Fatal(err)
		}
		ts = append(ts, fmt.Sprintf("%s@%d=%d/%d", k.Key, k.Window.Start-base0, v.Clicks, v.Sum))
	}
	wantCounts := []string{
		fmt.Sprintf("a@%d=1", rel(0)), fmt.Sprintf("b@%d=1", rel(1000)), fmt.Sprintf("a@%d=2", rel(9000)),
		fmt.Sprintf("a@%d=1", rel(12000)), fmt.Sprintf("a@%d=1", rel(30000)),
	}
	wantTotals := []string{
		fmt.Sprintf("a@%d=1/1", rel(0)), fmt.Sprintf("b@%d=1/5", rel(1000)), fmt.Sprintf("a@%d=2/3", rel(9000)),
		fmt.Sprintf("a@%d=1/4", rel(12000)), fmt.Sprintf("a@%d=1/0", rel(30000)),
	}
	if strings.Join(cs, " ") != strings.Join(wantCounts, " ") {
		t.Errorf("counts %v, want %v", cs, wantCounts)
	}
	if strings.Join(ts, " ") != strings.Join(wantTotals, " ") {
		t.Errorf("totals %v, want %v", ts, wantTotals)
	}
	// The store's changelog carries the Avro bytes too: the serde registered
	// the aggregate's schema under the changelog's subject, as Kafka
	// Streams' serdes do.
	subjects, err := cl.GetAllSubjects()
	if err != nil {
		t.Fatal(err)
	}
	changelog := cfg.ApplicationID + "-avro-totals-changelog-value"
	found := false
	for _, s := range subjects {
		found = found || s == changelog
	}
	if !found {
		var mine []string
		for _, s := range subjects {
			if strings.HasPrefix(s, cfg.ApplicationID) || strings.HasPrefix(s, in) {
				mine = append(mine, s)
			}
		}
		sort.Strings(mine)
		t.Errorf("no subject %s; the application's subjects: %v", changelog, mine)
	}
}

// genericCountConfig is a JVM application's configuration: the value serde
// is GenericAvroSerde with Confluent's keys, the key serde StringSerde.
func genericCountConfig(t *testing.T, bootstrap, regURL, in string, set map[string]string) map[string]string {
	m := map[string]string{
		"application.id": in + "-app", "bootstrap.servers": bootstrap, "state.dir": t.TempDir(),
		"processing.guarantee": "exactly_once_v2", "statestore.cache.max.bytes": "0",
		"default.key.serde":   "org.apache.kafka.common.serialization.Serdes$StringSerde",
		"default.value.serde": "io.confluent.kafka.streams.serdes.avro.GenericAvroSerde",
		"schema.registry.url": regURL,
	}
	for k, v := range set {
		m[k] = v
	}
	return m
}

// avroPoisonInput writes clicks of a, b, a, with a record of an unknown
// magic byte at offset 1 and one of an unknown schema id at offset 3.
func avroPoisonInput(t *testing.T) (bootstrap, regURL, in, out string) {
	bootstrap, regURL = testkafka.Bootstrap(t), testregistry.URL(t)
	in, out = testkafka.Topic(t, "in"), testkafka.Topic(t, "out")
	testkafka.CreateTopics(t, bootstrap, 1, in, out)
	p, err := registry.NewAvro[avroClick](testregistry.Client(t), avroClickSchema, registry.DefaultSerdeConfig(false))
	if err != nil {
		t.Fatal(err)
	}
	enc := func(u string) []byte {
		b, err := p.Serialize(in, avroClick{User: u, N: 1})
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	vals := [][]byte{enc("a"), {1, 0, 0, 0, 1, 2, 'a', 2}, enc("b"), {0, 0x7f, 0xff, 0xff, 0xf0, 2, 'a', 2}, enc("a")}
	var recs []testkafka.Record
	for i, v := range vals {
		recs = append(recs, testkafka.Record{Topic: in, Partition: 0, Key: []byte(fmt.Sprint("k", i)), Value: v, Timestamp: time.UnixMilli(epochBase + int64(i))})
	}
	testkafka.Produce(t, bootstrap, recs...)
	return bootstrap, regURL, in, out
}

// TestAvroPoisonRecordsSkippedUnderLogAndContinue: records of an unknown
// magic byte or schema id go to the deserialization handler, which skips
// them; the others are counted.
func TestAvroPoisonRecordsSkippedUnderLogAndContinue(t *testing.T) {
	t.Parallel()
	bootstrap, regURL, in, out := avroPoisonInput(t)
	// SpecificAvroSerde, as a JVM application with generated classes names
	// it: in Go its values are GenericRecords too.
	cfg, err := LoadConfig(nil, genericCountConfig(t, bootstrap, regURL, in, map[string]string{
		"deserialization.exception.handler": "org.apache.kafka.streams.errors.LogAndContinueExceptionHandler",
		"default.value.serde":               "io.confluent.kafka.streams.serdes.avro.SpecificAvroSerde",
	}))
	if err != nil {
		t.Fatal(err)
	}
	counters := NewCounters()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	ks, err := StartStoatFlow(ctx, buildAvroGenericCount, map[string]string{"input": in, "output": out}, cfg, streams.WithHooks(counters))
	if err != nil {
		t.Fatal(err)
	}
	defer ks.Close(context.Background())
	recs, err := testkafka.ReadCommitted(bootstrap, out, 3, time.Minute, 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range recs {
		got = append(got, fmt.Sprintf("%s=%d", r.Key, binary.BigEndian.Uint64(r.Value)))
	}
	if strings.Join(got, " ") != "a=1 b=1 a=2" {
		t.Fatalf("output %v, want [a=1 b=1 a=2] (the two poison records skipped)", got)
	}
	if n := counters.Dropped("deserialization-error"); n != 2 {
		t.Errorf("dropped-records count %d, want 2", n)
	}
}

// TestAvroUnknownSchemaIDStopsAppUnderLogAndFail: the error names the
// record's topic, partition and offset and the schema id.
func TestAvroUnknownSchemaIDStopsAppUnderLogAndFail(t *testing.T) {
	t.Parallel()
	bootstrap, regURL, in, out := avroPoisonInput(t)
	cfg, err := LoadConfig(nil, genericCountConfig(t, bootstrap, regURL, in, nil))
	if err != nil {
		t.Fatal(err)
	}
	stopsWith(t, cfg, map[string]string{"input": in, "output": out}, in+"-0@1", "unknown magic byte 0x01")

	// A topic whose first record has an unknown schema id.
	in2, out2 := testkafka.Topic(t, "in2"), testkafka.Topic(t, "out2")
	testkafka.CreateTopics(t, bootstrap, 1, in2, out2)
	testkafka.Produce(t, bootstrap, testkafka.Record{Topic: in2, Partition: 0, Key: []byte("k"),
		Value: []byte{0, 0x7f, 0xff, 0xff, 0xf0, 2, 'a', 2}, Timestamp: time.UnixMilli(epochBase)})
	cfg, err = LoadConfig(nil, genericCountConfig(t, bootstrap, regURL, in2, nil))
	if err != nil {
		t.Fatal(err)
	}
	stopsWith(t, cfg, map[string]string{"input": in2, "output": out2},
		in2+"-0@0", fmt.Sprintf("schema id %d", 0x7ffffff0), "unknown schema id", "LogAndFailExceptionHandler")
}

// stopsWith runs the generic count until it stops and checks its error.
func stopsWith(t *testing.T, cfg *compat.Config, args map[string]string, want ...string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	ks, err := StartStoatFlow(ctx, buildAvroGenericCount, args, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer ks.Close(context.Background())
	select {
	case <-ks.Done():
	case <-ctx.Done():
		t.Fatal("the application did not stop on the poison record")
	}
	msg := fmt.Sprint(ks.Err())
	t.Logf("stopped with: %s", msg)
	for _, w := range want {
		if !strings.Contains(msg, w) {
			t.Errorf("error %q should contain %q", msg, w)
		}
	}
}

// avroDiff is the twin of the reference app AvroWindowed
// (examples/avrocount's avrowindowed): Avro clicks summed per key in
// tumbling ten-second windows into an Avro ClickTotal, in the store and on
// the output topic. Kafka Streams runs it with Apicurio Registry's Avro serde
// in its Confluent mode (4-byte content id, no headers); StoatFlow with
// registry.Avro through the Confluent-compatible API of the same registry.
const avroDiff = avrocount.WindowedName

// TestAvroWindowedAggregateMatchesKafkaStreams: the output and changelog
// bytes, magic byte and schema id included, are the same on both engines.
func TestAvroWindowedAggregateMatchesKafkaStreams(t *testing.T) {
	t.Parallel()
	testregistry.URL(t)
	props := filepath.Join(t.TempDir(), "avro.properties")
	if err := os.WriteFile(props, []byte("application.id=avro-windowed\nbootstrap.servers=127.0.0.1:9092\n"+
		"default.key.serde=org.apache.kafka.common.serialization.Serdes$StringSerde\nreplication.factor=1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := registry.NewAvro[avroClick](testregistry.Client(t), avroClickSchema, registry.DefaultSerdeConfig(false))
	if err != nil {
		t.Fatal(err)
	}
	// The input's subject is a topic of its own: readers find the schema
	// by the id in the bytes.
	subjectTopic := testregistry.Name(t, "avro-diff-input")
	inputs := []struct {
		key string
		n   int64
		ms  int64
	}{{"a", 1, 0}, {"b", 5, 1000}, {"a", 2, 9000}, {"a", 4, 12000}, {"b", 3, 14000}, {"a", 7, 30000}}
	var recs []testkafka.Record
	for _, r := range inputs {
		v, err := p.Serialize(subjectTopic, avroClick{User: r.key, N: r.n})
		if err != nil {
			t.Fatal(err)
		}
		recs = append(recs, testkafka.Record{Partition: 0, Key: []byte(r.key), Value: v, Timestamp: time.UnixMilli(epochBase + r.ms)})
	}
	out := runDifferential(t, diffCase{
		app: avroDiff, props: props,
		input: recs, outputs: len(inputs),
		changelogs: map[string]int{"KSTREAM-AGGREGATE-STATE-STORE-0000000001-changelog": len(inputs)},
	})
	for _, r := range out {
		if len(r.Value) < 5 || r.Value[0] != 0 {
			t.Fatalf("output value % x is not in the Confluent wire format", r.Value)
		}
	}
	t.Logf("compared bytes: %d output records (key, value with magic byte and schema id %d, timestamp) and %d changelog records",
		len(out), wireID(t, out[0].Value), len(inputs))
}
