package integration

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/examples/ssjoin"
	"github.com/stoatflow/stoatflow/internal/testkafka"
	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/kstreamstest"
	"github.com/stoatflow/stoatflow/kstreams/serde"
)

// TestSsJoinDescribeMatchesKafkaStreams: the three joins' processors,
// stores, repartition topic and sub-topology text as Kafka Streams 4.4
// prints them.
func TestSsJoinDescribeMatchesKafkaStreams(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	args := map[string]string{"left": "l", "right": "r", "output": "o"}
	want, err := Describe(ctx, ReferenceOptions{App: ssjoin.Name, Args: args})
	if err != nil {
		t.Fatal(err)
	}
	topo, err := ssjoin.Build(args)
	if err != nil {
		t.Fatal(err)
	}
	if got := topo.Describe().String(); got != want {
		t.Errorf("describe() differs:\n--- Kafka Streams\n%s--- StoatFlow\n%s", want, got)
	}
}

// ssJoinEvent is one input record of the differential join test, in the
// order it is produced to its topic; all go to partition 0. A nil key or
// value is Kafka's null.
type ssJoinEvent struct {
	key, value *string
	ms         int64 // from epochBase
}

func (e ssJoinEvent) record() testkafka.Record {
	r := testkafka.Record{Partition: 0, Timestamp: time.UnixMilli(epochBase + e.ms)}
	if e.key != nil {
		r.Key = []byte(*e.key)
	}
	if e.value != nil {
		r.Value = []byte(*e.value)
	}
	return r
}

// TestSsJoinMatchesKafkaStreams: inner, left and outer stream-stream joins
// over the same two topics, and a re-keyed stream joined with itself
// through one repartition topic, on both engines,
// with records out of order, late records inside and beyond the grace
// period, duplicates, null values and null keys: output per partition,
// every join store's changelog byte for byte (window store keys with their
// sequence numbers, the shared store's lists and tombstones), internal
// topics with their configs, and describe().
func TestSsJoinMatchesKafkaStreams(t *testing.T) {
	t.Parallel()
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	a, b, c, d := str("a"), str("b"), str("c"), str("e")
	left := []ssJoinEvent{
		{a, str("A1"), 1000},
		{b, str("B1"), 2000},
		{a, str("A2"), 4000},
		{c, str("C1"), 9000},
		{a, str("A3"), 3500},    // out of order, within every window
		{nil, str("N1"), 10000}, // null key: inner drops it, left and outer emit it at once
		{d, nil, 11000},         // null value: dropped by every join
		{b, str("B2"), 20000},
		{c, str("C2"), 14500}, // late: past the outer join's window and grace, within the inner's
		{a, str("A4"), 30000},
		{a, str("A4"), 30000}, // a duplicate: both kept
		{d, str("D1"), 45000},
	}
	right := []ssJoinEvent{
		{a, str("a1"), 1500},
		{c, str("c1"), 12500},
		{b, str("b1"), 21000},
		{a, str("a2"), 29000},
		{nil, str("n1"), 22500}, // null key: inner's repartition drops it; outer emits it
		{b, nil, 23000},         // null value
		{a, str("a3"), 27000},   // late for the left join's grace, inside the inner's window
		{c, str("c2"), 60000},   // moves stream time: every window closes
	}
	x, y := str("u"), str("v")
	self := []ssJoinEvent{{x, str("X1"), 1000}, {x, str("X2"), 1500}, {y, str("Y1"), 2000}, {x, str("X3"), 4000}, {y, nil, 4500}, {x, str("X4"), 3000}}
	// Output keys: a, b, c, e and "none" go to partition 0, u and v (the
	// self join's, written by other tasks) to partition 1, so that each
	// output partition has one writing task and a deterministic order.
	// The engines interleave the two topics by timestamp; the driver, fed
	// in that order, gives the output and changelog counts to wait for.
	order := interleave(left, right)
	topo, err := ssjoin.Build(map[string]string{"input": "input", "left": "left", "right": "right", "output": "out"})
	if err != nil {
		t.Fatal(err)
	}
	drv, err := kstreamstest.New(topo, kstreamstest.Config{ApplicationID: "app",
		DefaultKeySerde: serde.Erase[string](serde.String{}), DefaultValueSerde: serde.Erase[string](serde.String{})})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range self {
		order = append(order, topicEvent{"input", e})
	}
	for _, e := range order {
		r := e.ev.record()
		if err := drv.Pipe(e.topic, r.Key, r.Value, r.Timestamp.UnixMilli()); err != nil {
			t.Fatal(err)
		}
	}
	outputs := len(drv.Records("out"))
	changelogs := map[string]int{}
	for _, st := range topo.Subtopologies() {
		for _, s := range st.Stores {
			if n := len(drv.Changelog(s.Name)); n > 0 {
				changelogs[s.Name+"-changelog"] = n
			}
		}
	}
	if outputs < 20 || len(changelogs) != 10 {
		t.Fatalf("the input must exercise every join: %d outputs, changelogs %v", outputs, changelogs)
	}
	t.Logf("expecting %d outputs, changelogs %v", outputs, changelogs)
	var lrecs, rrecs, srecs []testkafka.Record
	for _, e := range self {
		srecs = append(srecs, e.record())
	}
	for _, e := range left {
		lrecs = append(lrecs, e.record())
	}
	for _, e := range right {
		rrecs = append(rrecs, e.record())
	}
	runDifferential(t, diffCase{
		app: ssjoin.Name, props: filepath.Join(root, "examples", "ssjoin", "streams.properties"),
		input:   srecs,
		inputs:  map[string][]testkafka.Record{"left": lrecs, "right": rrecs},
		outputs: outputs, changelogs: changelogs,
	})
}

type topicEvent struct {
	topic string
	ev    ssJoinEvent
}

// interleave merges the two topics' records as a task picks among its input
// partitions: the head record with the smaller timestamp first.
func interleave(left, right []ssJoinEvent) []topicEvent {
	var out []topicEvent
	for len(left) > 0 || len(right) > 0 {
		if len(right) == 0 || (len(left) > 0 && left[0].ms <= right[0].ms) {
			out = append(out, topicEvent{"left", left[0]})
			left = left[1:]
		} else {
			out = append(out, topicEvent{"right", right[0]})
			right = right[1:]
		}
	}
	return out
}

// TestJoinOverTopicsNotCopartitionedFailsOnBothEngines: a join over a
// one-partition and a two-partition topic does not start on Kafka Streams
// nor on StoatFlow, and both name the topics and their partition counts in
// Kafka Streams' words.
func TestJoinOverTopicsNotCopartitionedFailsOnBothEngines(t *testing.T) {
	t.Parallel()
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	bootstrap := testkafka.Bootstrap(t)
	in := testkafka.Topic(t, "copart")
	leftTopic, rightTopic, out := in+"-left", in+"-right", in+"-out"
	testkafka.CreateTopics(t, bootstrap, 1, leftTopic)
	testkafka.CreateTopics(t, bootstrap, 2, in, rightTopic, out)
	want := "Topics not co-partitioned: [{" + leftTopic + "=1, " + rightTopic + "=2}]"
	args := map[string]string{"input": in, "left": leftTopic, "right": rightTopic, "output": out}
	props := filepath.Join(root, "examples", "ssjoin", "streams.properties")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()

	ref, err := StartReference(ctx, ReferenceOptions{App: ssjoin.Name, Configs: []string{props},
		Set: map[string]string{"bootstrap.servers": bootstrap, "application.id": in + "-jvm", "state.dir": t.TempDir()}, Args: args})
	if err != nil {
		t.Fatal(err)
	}
	defer ref.Stop(45 * time.Second)
	// The uncaught exception (reported before the log line may have
	// reached stderr) carries Kafka Streams' message with its thread's
	// log prefix: Invalid topology: stream-thread [...] Topics not ...
	err = ref.WaitState(ctx, "ERROR")
	msg := ref.Stderr()
	if err != nil {
		msg = err.Error() + "\n" + msg
	}
	if !strings.Contains(msg, "Invalid topology: ") || !strings.Contains(msg, want) {
		t.Errorf("Kafka Streams did not fail with %q: %v\n%s", want, err, ref.Stderr())
	}

	cfg, err := LoadConfig([]string{props}, map[string]string{"bootstrap.servers": bootstrap, "application.id": in + "-go", "state.dir": t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	ks, err := StartStoatFlow(ctx, ssjoin.Build, args, cfg)
	if err == nil {
		ks.Close(context.Background())
		t.Fatal("StoatFlow started a join over topics that are not co-partitioned")
	}
	if !errors.Is(err, kstreams.ErrInvalidTopology) || !strings.Contains(err.Error(), "Invalid topology: "+want) {
		t.Errorf("StoatFlow failed with %v, want Invalid topology: %s", err, want)
	}
}
