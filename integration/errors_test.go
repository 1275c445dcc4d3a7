package integration

import (
	"context"
	"encoding/binary"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/internal/testkafka"
	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/serde"
	"github.com/stoatflow/stoatflow/streams"
)

// doubler reads Long values and writes them doubled: an input value that is
// not 8 bytes is a poison record for its LongDeserializer.
const doubler = "integration-doubler"

// buildDoubler builds the doubler topology.
func buildDoubler(args map[string]string) (*kstreams.Topology, error) {
	b := kstreams.NewStreamsBuilder()
	s := kstreams.Stream(b, []string{args["input"]}, kstreams.ConsumedWith[string, int64](serde.String{}, serde.Long{}))
	kstreams.MapValues(s, func(v int64) int64 { return 2 * v }).
		To(args["output"], kstreams.ProducedWith[string, int64](serde.String{}, serde.Long{}))
	return b.Build()
}

func long(v int64) []byte {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], uint64(v))
	return b[:]
}

// poisonInput writes 1, 2, a 3-byte poison value at offset 2, then 4, 5.
func poisonInput(t *testing.T) (bootstrap, in, out string) {
	bootstrap = testkafka.Bootstrap(t)
	in, out = testkafka.Topic(t, "in"), testkafka.Topic(t, "out")
	testkafka.CreateTopics(t, bootstrap, 1, in, out)
	vals := [][]byte{long(1), long(2), []byte("bad"), long(4), long(5)}
	var recs []testkafka.Record
	for i, v := range vals {
		recs = append(recs, testkafka.Record{Topic: in, Partition: 0, Key: []byte(fmt.Sprint("k", i)), Value: v,
			Timestamp: time.UnixMilli(epochBase + int64(i))})
	}
	testkafka.Produce(t, bootstrap, recs...)
	return bootstrap, in, out
}

func doublerConfig(t *testing.T, bootstrap, in string, set map[string]string) map[string]string {
	m := map[string]string{
		"application.id":       in + "-app",
		"bootstrap.servers":    bootstrap,
		"state.dir":            t.TempDir(),
		"processing.guarantee": "exactly_once_v2",
	}
	for k, v := range set {
		m[k] = v
	}
	return m
}

func TestPoisonRecordSkippedUnderLogAndContinue(t *testing.T) {
	t.Parallel()
	bootstrap, in, out := poisonInput(t)
	dlq := in + "-dlq"
	testkafka.CreateTopics(t, bootstrap, 1, dlq)
	cfg, err := LoadConfig(nil, doublerConfig(t, bootstrap, in, map[string]string{
		"deserialization.exception.handler":   "org.apache.kafka.streams.errors.LogAndContinueExceptionHandler",
		"errors.dead.letter.queue.topic.name": dlq,
	}))
	if err != nil {
		t.Fatal(err)
	}
	counters := NewCounters()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	ks, err := StartStoatFlow(ctx, buildDoubler, map[string]string{"input": in, "output": out}, cfg, streams.WithHooks(counters))
	if err != nil {
		t.Fatal(err)
	}
	defer ks.Close(context.Background())
	recs, err := testkafka.ReadCommitted(bootstrap, out, 4, time.Minute, 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	var got []int64
	for _, r := range recs {
		got = append(got, int64(binary.BigEndian.Uint64(r.Value)))
	}
	if fmt.Sprint(got) != "[2 4 8 10]" {
		t.Fatalf("output %v, want [2 4 8 10] (the poison record skipped)", got)
	}
	if n := counters.Dropped("deserialization-error"); n != 1 {
		t.Errorf("dropped-records count %d, want 1", n)
	}
	dead, err := testkafka.ReadCommitted(bootstrap, dlq, 1, time.Minute, time.Second)
	if err != nil || len(dead) != 1 || string(dead[0].Value) != "bad" {
		t.Fatalf("dead-letter queue: %d records, %v; want the poison record", len(dead), err)
	}
}

func TestPoisonRecordStopsAppUnderLogAndFail(t *testing.T) {
	t.Parallel()
	bootstrap, in, out := poisonInput(t)
	cfg, err := LoadConfig(nil, doublerConfig(t, bootstrap, in, map[string]string{
		"deserialization.exception.handler": "org.apache.kafka.streams.errors.LogAndFailExceptionHandler",
	}))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	topo, err := buildDoubler(map[string]string{"input": in, "output": out})
	if err != nil {
		t.Fatal(err)
	}
	ks, err := streams.New(topo, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := ks.Start(ctx); err != nil {
		t.Fatal(err)
	}
	select {
	case <-ks.Done():
	case <-ctx.Done():
		t.Fatal("the application did not stop on the poison record")
	}
	if ks.State() != streams.Error {
		t.Errorf("state %v, want ERROR", ks.State())
	}
	msg := fmt.Sprint(ks.Err())
	if want := fmt.Sprintf("%s-0@2", in); !strings.Contains(msg, want) || !strings.Contains(msg, "LongDeserializer") {
		t.Errorf("error %q should name the record %s and the deserializer's complaint", msg, want)
	}
	// Nothing committed past the poison record: the group's offset is at
	// most 2, and no output is visible beyond the records before it.
	committed, err := testkafka.Committed(bootstrap, cfg.ApplicationID, in, 1, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if off := committed[0]; off > 2 {
		t.Errorf("committed input offset %v is past the poison record at 2", off)
	}
	recs, _ := testkafka.ReadCommitted(bootstrap, out, 3, 3*time.Second, 0)
	if len(recs) > 2 {
		t.Errorf("%d output records visible; at most the 2 before the poison record may be", len(recs))
	}
}

// TestRepartitionRecordsPurgedAfterCommit: records of a repartition topic
// that every reader committed are deleted.
func TestRepartitionRecordsPurgedAfterCommit(t *testing.T) {
	t.Parallel()
	a := newWordCountApp(t, 2)
	a.feed(t, sampleLines, 2)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	ks := a.start(t, ctx, map[string]string{"processing.guarantee": "exactly_once_v2", "repartition.purge.interval.ms": "0"}, nil)
	_, total := expectedUpdates(sampleLines)
	readUpdates(t, a.bootstrap, a.out, total)
	if err := ks.Close(ctx); err != nil {
		t.Fatal(err)
	}
	admin := testkafka.Admin(t, a.bootstrap)
	topic := a.appID + "-KSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition"
	octx, ocancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer ocancel()
	starts, err := testkafka.StartOffsets(octx, admin, topic)
	if err != nil {
		t.Fatal(err)
	}
	// The end a read_committed consumer sees, as the watermark query did.
	ends, err := testkafka.ListOffsets(octx, admin, true, topic)
	if err != nil {
		t.Fatal(err)
	}
	for p := int32(0); p < 2; p++ {
		lo, hi := starts[topic][p], ends[topic][p]
		if hi == 0 {
			continue
		}
		if lo == 0 {
			t.Errorf("%s-%d: log start 0 of end %d: committed repartition records were not purged", topic, p, hi)
		}
	}
}

// merger copies two topics, read by one source node, to one output topic.
const merger = "integration-merger"

// buildMerger builds the merger topology.
func buildMerger(args map[string]string) (*kstreams.Topology, error) {
	b := kstreams.NewStreamsBuilder()
	kstreams.Stream(b, []string{args["left"], args["right"]}, kstreams.ConsumedWith[string, string](serde.String{}, serde.String{})).
		To(args["output"], kstreams.ProducedWith[string, string](serde.String{}, serde.String{}))
	return b.Build()
}

// TestTaskProcessesPartitionsInTimestampOrder: a task with two input
// partitions, both holding data before the start, emits its records in
// timestamp order across them (max.task.idle.ms=0 waits for a partition
// with data on the broker that is not fetched yet).
func TestTaskProcessesPartitionsInTimestampOrder(t *testing.T) {
	t.Parallel()
	bootstrap := testkafka.Bootstrap(t)
	left, right, out := testkafka.Topic(t, "left"), testkafka.Topic(t, "right"), testkafka.Topic(t, "out")
	testkafka.CreateTopics(t, bootstrap, 1, left, right, out)
	var recs []testkafka.Record
	for i := 0; i < 40; i++ {
		topic := left
		if i%2 == 1 {
			topic = right
		}
		recs = append(recs, testkafka.Record{Topic: topic, Partition: 0, Key: []byte("k"), Value: []byte(fmt.Sprint(i)),
			Timestamp: time.UnixMilli(epochBase + int64(i))})
	}
	// All of right first, then all of left: arrival order is not timestamp order.
	var ordered []testkafka.Record
	for _, r := range recs {
		if r.Topic == right {
			ordered = append(ordered, r)
		}
	}
	for _, r := range recs {
		if r.Topic == left {
			ordered = append(ordered, r)
		}
	}
	testkafka.Produce(t, bootstrap, ordered...)
	cfg, err := LoadConfig(nil, map[string]string{
		"application.id": left + "-app", "bootstrap.servers": bootstrap, "state.dir": t.TempDir(),
		"processing.guarantee": "exactly_once_v2", "max.task.idle.ms": "0",
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	ks, err := StartStoatFlow(ctx, buildMerger, map[string]string{"left": left, "right": right, "output": out}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer ks.Close(context.Background())
	got, err := testkafka.ReadCommitted(bootstrap, out, 40, time.Minute, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range got {
		if string(r.Value) != fmt.Sprint(i) {
			var vals []string
			for _, r := range got {
				vals = append(vals, string(r.Value))
			}
			t.Fatalf("output out of timestamp order: %v", vals)
		}
	}
}
