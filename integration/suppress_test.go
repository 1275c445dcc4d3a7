package integration

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/stoatflow/stoatflow/examples/suppress"
	"github.com/stoatflow/stoatflow/internal/storeformat"
	"github.com/stoatflow/stoatflow/internal/testkafka"
	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/kstreamstest"
	"github.com/stoatflow/stoatflow/kstreams/serde"
)

type suppressEvent struct {
	key   string
	value *string
	sec   int64
}

func (e suppressEvent) record() testkafka.Record {
	r := testkafka.Record{Partition: 0, Key: []byte(e.key), Timestamp: time.UnixMilli(epochBase + e.sec*1000)}
	if e.value != nil {
		r.Value = []byte(*e.value)
	}
	return r
}

// expectSuppress runs app over events in the in-process driver (all input
// in one partition, as on the broker) and returns how many output records
// it writes and how many records each named changelog gets. The driver
// commits after every record, which changes the suppression buffers'
// changelogs (a key is logged once per commit) but nothing else.
func expectSuppress(t *testing.T, app string, events []suppressEvent, stores ...string) (int, map[string]int) {
	t.Helper()
	f := topology(t, app)
	topo, err := f(map[string]string{"input": "in", "output": "out"})
	if err != nil {
		t.Fatal(err)
	}
	d, err := kstreamstest.New(topo, kstreamstest.Config{ApplicationID: "app"})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	in := kstreamstest.NewInputTopic(d, "in", serde.String{}, serde.String{})
	for _, e := range events {
		if e.value == nil {
			err = in.PipeNullValue(e.key, epochBase+e.sec*1000)
		} else {
			err = in.Pipe(e.key, *e.value, epochBase+e.sec*1000)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	logs := map[string]int{}
	for _, s := range stores {
		logs[s+"-changelog"] = len(d.Changelog(s))
	}
	return len(d.Records("out")), logs
}

// TestSuppressFinalMatchesKafkaStreams: time-windowed and session counts
// suppressed until their windows close, under exactly_once_v2, over keyed
// events out of order, some later than the grace period; the last event
// closes every earlier window. One record per closed window, the same on
// both engines; both buffers' changelogs hold the same keys and end in the
// same bytes.
func TestSuppressFinalMatchesKafkaStreams(t *testing.T) {
	t.Parallel()
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	x := str("x")
	events := []suppressEvent{
		{"a", x, 1}, {"b", x, 2}, {"a", x, 3}, {"a", x, 12}, {"b", x, 9}, {"c", x, 15},
		{"a", x, 21}, {"b", x, 14},
		{"a", x, 8}, // stream time 21: window [0,10) closed at 15, and a's session [1,3] at 10: dropped
		{"c", x, 33}, {"a", x, 29}, {"b", x, 31}, {"a", x, 40}, {"c", x, 26}, {"b", x, 38}, {"a", x, 39},
		{"b", x, 36}, // joins b's session [31,38]
		{"z", x, 200},
	}
	const timeStore, sessionStore = "KSTREAM-AGGREGATE-STATE-STORE-0000000001", "KSTREAM-AGGREGATE-STATE-STORE-0000000007"
	outputs, logs := expectSuppress(t, suppress.FinalName, events, timeStore, sessionStore)
	if outputs < 10 {
		t.Fatalf("the driver emitted %d final results; the events close more windows than that", outputs)
	}
	var recs []testkafka.Record
	for _, e := range events {
		recs = append(recs, e.record())
	}
	goOut := runDifferential(t, diffCase{
		app: suppress.FinalName, props: filepath.Join(root, "examples", "suppress", "streams.properties"),
		input: recs, outputs: outputs, changelogs: logs,
	})
	compareSuppressLogs(t, goOut, "KTABLE-SUPPRESS-STATE-STORE-0000000004-changelog", "sessions-final-store-changelog")
}

// TestSuppressTimeLimitMatchesKafkaStreams: a materialized table suppressed
// for ten seconds of stream time in a buffer of three keys that emits
// early: updates that collapse, a fourth key that pushes the oldest out,
// deletes (of buffered keys, and of a key never held) that come out as
// tombstones, out-of-order timestamps.
func TestSuppressTimeLimitMatchesKafkaStreams(t *testing.T) {
	t.Parallel()
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	events := []suppressEvent{
		{"u1", str("a"), 1}, {"u2", str("b"), 2}, {"u1", str("c"), 3}, {"u3", str("d"), 4},
		{"u4", str("e"), 5},                 // a fourth key: u1 goes out early
		{"u2", nil, 6}, {"u5", str("f"), 7}, // u2's delete goes out early
		{"u3", str("g"), 15},                                             // stream time 15: u3 and u4 are due
		{"u6", str("h"), 11}, {"u1", str("i"), 16}, {"u7", str("j"), 17}, // out of order: u6 is buffered at 11
		{"u6", nil, 18}, {"u8", str("k"), 30}, {"u9", str("l"), 60},
		{"u10", nil, 61}, // a delete of a key never held
		{"u11", str("m"), 100},
	}
	outputs, logs := expectSuppress(t, suppress.TimeLimitName, events, suppress.SourceStore)
	if outputs < 10 {
		t.Fatalf("the driver emitted %d records; the events push out more than that", outputs)
	}
	var recs []testkafka.Record
	for _, e := range events {
		recs = append(recs, e.record())
	}
	goOut := runDifferential(t, diffCase{
		app: suppress.TimeLimitName, props: filepath.Join(root, "examples", "suppress", "streams.properties"),
		input: recs, outputs: outputs, changelogs: logs,
	})
	tombstones := 0
	for _, r := range goOut {
		if r.Value == nil {
			tombstones++
		}
	}
	if tombstones != 3 { // the deletes of u2, u6 and u10
		t.Errorf("%d tombstones in the output, want 3", tombstones)
	}
	compareSuppressLogs(t, goOut, "KTABLE-SUPPRESS-STATE-STORE-0000000003-changelog")
}

// TestSuppressBytesMatchesKafkaStreams: a table that is not materialized,
// suppressed in a buffer bounded in bytes as Kafka Streams estimates them
// (the record context's topic counts, so one record is about 90 bytes
// here): suppress materializes the table (its store and changelog appear
// on both engines), and the same updates go out early.
func TestSuppressBytesMatchesKafkaStreams(t *testing.T) {
	t.Parallel()
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	var events []suppressEvent
	for i := range 30 {
		k := fmt.Sprintf("k%d", i%7)
		v := strings.Repeat("v", 1+i%5)
		e := suppressEvent{key: k, value: &v, sec: int64(i)}
		if i%9 == 8 {
			e.value = nil // a delete
		}
		if i%11 == 10 {
			e.sec -= 8 // out of order
		}
		events = append(events, e)
	}
	events = append(events, suppressEvent{"end", str("x"), 100})
	outputs, _ := expectSuppress(t, suppress.BytesName, events)
	if outputs < 15 {
		t.Fatalf("the driver emitted %d records; the events push out more than that", outputs)
	}
	var recs []testkafka.Record
	for _, e := range events {
		recs = append(recs, e.record())
	}
	goOut := runDifferential(t, diffCase{
		app: suppress.BytesName, props: filepath.Join(root, "examples", "suppress", "streams.properties"),
		input: recs, outputs: outputs,
	})
	compareSuppressLogs(t, goOut, "held-store-changelog")
	// The store suppress made the table materialize: every update logged.
	in := strings.TrimSuffix(goOut[0].Topic, "-out-go")
	bootstrap := testkafka.Bootstrap(t)
	suffix := in + "-STATE-STORE-0000000000-changelog"
	jvmLog, err := testkafka.ReadCommitted(bootstrap, in+"-jvm-"+suffix, len(events), time.Minute, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	goLog, err := testkafka.ReadCommitted(bootstrap, in+"-go-"+suffix, len(events), time.Minute, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	comparePartitions(t, "table changelog", jvmLog, goLog)
}

// compareSuppressLogs compares the suppression buffers' changelogs of the
// two applications of a differential run. Which updates of a key reach
// the changelog depends on where the commits fall (a key is logged once per
// commit, as its value or, once it left the buffer, a tombstone), and the
// records carry the producer's wall-clock time, so the records themselves
// differ between runs of one engine. What may not differ: every key that
// was ever buffered is logged, so both logs hold the same keys per
// partition; the last record of each key is the buffer's final state, so
// both end in the same bytes; values carry the header v=3, tombstones none.
func compareSuppressLogs(t *testing.T, goOut []testkafka.Record, suffixes ...string) {
	t.Helper()
	if len(goOut) == 0 {
		t.Fatal("no output records to find the applications by")
	}
	in := strings.TrimSuffix(goOut[0].Topic, "-out-go")
	bootstrap := testkafka.Bootstrap(t)
	for _, suffix := range suffixes {
		jvm := readChangelog(t, bootstrap, in+"-jvm-"+suffix)
		goLog := readChangelog(t, bootstrap, in+"-go-"+suffix)
		if len(jvm.records) == 0 || len(goLog.records) == 0 {
			t.Errorf("%s: Kafka Streams logged %d records, StoatFlow %d", suffix, len(jvm.records), len(goLog.records))
			continue
		}
		for _, l := range []*bufferLog{jvm, goLog} {
			if l.badHeaders != "" {
				t.Errorf("%s: %s", l.topic, l.badHeaders)
			}
		}
		if j, g := jvm.keys(), goLog.keys(); j != g {
			t.Errorf("%s: logged keys differ:\n--- Kafka Streams\n%s\n--- StoatFlow\n%s", suffix, j, g)
		}
		if j, g := jvm.final(), goLog.final(); j != g {
			t.Errorf("%s: final buffer differs:\n--- Kafka Streams\n%s\n--- StoatFlow\n%s", suffix, j, g)
		}
		// The final values read back as Kafka's format, from the input topic.
		for _, r := range goLog.last {
			if r.Value == nil {
				continue
			}
			v, _, err := storeformat.SplitBufferValue(r.Value)
			if err != nil {
				t.Errorf("%s: %x: %v", suffix, r.Value, err)
			} else if v.Context.Topic != in {
				t.Errorf("%s: buffered record from topic %q, want %q", suffix, v.Context.Topic, in)
			}
		}
		t.Logf("%s: Kafka Streams logged %d records, StoatFlow %d; %d keys", suffix, len(jvm.records), len(goLog.records), len(goLog.last))
	}
}

type bufferLog struct {
	topic      string
	records    []*kgo.Record
	last       map[string]*kgo.Record // partition/key → its last record
	badHeaders string
}

func (l *bufferLog) keys() string {
	var out []string
	for k := range l.last {
		out = append(out, k)
	}
	sort.Strings(out)
	return strings.Join(out, "\n")
}

func (l *bufferLog) final() string {
	var out []string
	for k, r := range l.last {
		if r.Value != nil {
			out = append(out, fmt.Sprintf("%s=%x", k, r.Value))
		}
	}
	sort.Strings(out)
	return strings.Join(out, "\n")
}

// readChangelog reads a committed changelog to its end.
func readChangelog(t *testing.T, bootstrap, topic string) *bufferLog {
	t.Helper()
	cl, err := testkafka.NewClient(bootstrap, kgo.ConsumeTopics(topic), kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()),
		kgo.FetchIsolationLevel(kgo.ReadCommitted()), kgo.FetchMaxWait(200*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	l := &bufferLog{topic: topic, last: map[string]*kgo.Record{}}
	deadline := time.Now().Add(time.Minute)
	quietSince := time.Now()
	for time.Since(quietSince) < 5*time.Second && time.Now().Before(deadline) {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		fetches := cl.PollFetches(ctx)
		cancel()
		fetches.EachError(func(tp string, p int32, err error) {
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Logf("reading %s-%d: %v", tp, p, err)
			}
		})
		n := 0
		fetches.EachRecord(func(r *kgo.Record) {
			n++
			l.records = append(l.records, r)
			l.last[fmt.Sprintf("p%d:%x", r.Partition, r.Key)] = r
			want := r.Value != nil
			ok := len(r.Headers) == 0
			if want {
				ok = len(r.Headers) == 1 && r.Headers[0].Key == "v" && bytes.Equal(r.Headers[0].Value, []byte{3})
			}
			if !ok && l.badHeaders == "" {
				l.badHeaders = fmt.Sprintf("record %d@%d has headers %v", r.Partition, r.Offset, r.Headers)
			}
		})
		if n > 0 {
			quietSince = time.Now()
		}
	}
	return l
}

// TestSuppressRejectionsMatchKafkaStreams: untilWindowCloses on a table
// that is not windowed fails when the topology is built, with the message
// Kafka Streams 4.4 gives (read from the reference app, which prints it).
func TestSuppressRejectionsMatchKafkaStreams(t *testing.T) {
	t.Parallel()
	str := func() kstreams.Consumed[string, string] {
		return kstreams.ConsumedWith[string, string](serde.String{}, serde.String{})
	}
	final := kstreams.UntilWindowCloses(kstreams.Unbounded())
	cases := map[string]func(b *kstreams.StreamsBuilder){
		"table": func(b *kstreams.StreamsBuilder) { kstreams.Table(b, "input", str()).Suppress(final) },
		"filtered": func(b *kstreams.StreamsBuilder) {
			kstreams.Table(b, "input", str()).Filter(func(string, string) bool { return true }).Suppress(final)
		},
		"count": func(b *kstreams.StreamsBuilder) {
			kstreams.Stream(b, []string{"input"}, str()).GroupByKey().Count().Suppress(final)
		},
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	for name, build := range cases {
		_, err := Describe(ctx, ReferenceOptions{App: "suppressrejected", Args: map[string]string{"case": name}})
		if err == nil {
			t.Fatalf("%s: Kafka Streams built the topology", name)
		}
		_, jvm, ok := strings.Cut(err.Error(), "REJECTED: ")
		if !ok {
			t.Fatalf("%s: Kafka Streams failed otherwise: %v", name, err)
		}
		jvm, _, _ = strings.Cut(jvm, "\n")
		b := kstreams.NewStreamsBuilder()
		build(b)
		_, goErr := b.Build()
		if goErr == nil || goErr.Error() != jvm || !errors.Is(goErr, kstreams.ErrInvalidTopology) {
			t.Errorf("%s:\n Kafka Streams %s\n StoatFlow     %v", name, jvm, goErr)
		}
	}
}

// TestSuppressShapesDescribeLikeKafkaStreams: suppressions over a toTable,
// an unmaterialized filter and mapValues (each makes the source
// materialize for the old values the buffer keeps) and a windowed session
// reduce describe as in Kafka Streams 4.4.
func TestSuppressShapesDescribeLikeKafkaStreams(t *testing.T) {
	t.Parallel()
	strs := kstreams.ConsumedWith[string, string](serde.String{}, serde.String{})
	out := kstreams.ProducedWith[string, string](serde.String{}, serde.String{})
	second := kstreams.UntilTimeLimit(time.Second, kstreams.Unbounded())
	cases := map[string]func(b *kstreams.StreamsBuilder){
		"totable": func(b *kstreams.StreamsBuilder) {
			kstreams.Stream(b, []string{"suppress-input"}, strs).ToTable().Suppress(second).ToStream().To("suppress-output", out)
		},
		"filtered": func(b *kstreams.StreamsBuilder) {
			kstreams.Table(b, "suppress-input", strs).Filter(func(_, v string) bool { return len(v) > 1 }).
				Suppress(second).ToStream().To("suppress-output", out)
		},
		"mapped": func(b *kstreams.StreamsBuilder) {
			kstreams.MapTableValues(kstreams.Table(b, "suppress-input", strs), func(_, v string) string { return v + "!" }).
				Suppress(second).ToStream().To("suppress-output", out)
		},
		"reduced": func(b *kstreams.StreamsBuilder) {
			g := kstreams.Stream(b, []string{"suppress-input"}, strs).GroupByKey()
			done := kstreams.WindowedBySession(g, kstreams.SessionWindowsOfInactivityGapWithNoGrace(5*time.Second)).
				Reduce(func(a, b string) string { return a + b }).
				Suppress(kstreams.UntilWindowCloses(kstreams.Unbounded()).WithName("done"))
			kstreams.Map(done.ToStream(), func(k kstreams.Windowed[string], v string) (string, string) { return k.Key, v }).
				To("suppress-output", out)
		},
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	for name, build := range cases {
		jvm, err := Describe(ctx, ReferenceOptions{App: "suppressshapes", Args: map[string]string{"case": name}})
		if err != nil {
			t.Fatal(err)
		}
		b := kstreams.NewStreamsBuilder()
		build(b)
		topo, err := b.Build()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got := topo.Describe().String(); got != jvm {
			t.Errorf("%s: describe() differs:\n--- Kafka Streams\n%s--- StoatFlow\n%s", name, jvm, got)
		}
	}
}

// filteredTimeName is a table filtered to values not starting with "-" and
// suppressed for five seconds of stream time, the twin of the reference
// app of that name.
const filteredTimeName = "suppressfilteredtime"

// buildFilteredTime builds the filteredTimeName topology.
func buildFilteredTime(args map[string]string) (*kstreams.Topology, error) {
	b := kstreams.NewStreamsBuilder()
	kstreams.Table(b, args["input"], kstreams.ConsumedWith[string, string](serde.String{}, serde.String{})).
		Filter(func(_, v string) bool { return !strings.HasPrefix(v, "-") }).
		Suppress(kstreams.UntilTimeLimit(5*time.Second, kstreams.Unbounded())).
		ToStream().To(args["output"], kstreams.ProducedWith[string, string](serde.String{}, serde.String{}))
	return b.Build()
}

// TestSuppressStreamTimeIsTheSuppressionsOwn: the suppression's stream time
// is the largest timestamp of the updates that reach it, not the task's: a
// late-stamped update the filter drops (its key never passed, so the filter
// forwards nothing) does not push buffered keys out. Were it the task's,
// k1 would go out twice.
func TestSuppressStreamTimeIsTheSuppressionsOwn(t *testing.T) {
	t.Parallel()
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	events := []suppressEvent{
		{"k1", str("v1"), 1}, {"skip", str("-x"), 100}, {"k1", str("v2"), 2}, {"k1", str("v3"), 3},
		{"k2", str("w1"), 4}, {"end", str("e"), 1000},
	}
	outputs, _ := expectSuppress(t, filteredTimeName, events)
	if outputs != 2 { // k1=v3 and k2=w1
		t.Fatalf("the driver emitted %d records, want 2", outputs)
	}
	var recs []testkafka.Record
	for _, e := range events {
		recs = append(recs, e.record())
	}
	runDifferential(t, diffCase{
		app: filteredTimeName, props: filepath.Join(root, "examples", "suppress", "streams.properties"),
		input: recs, outputs: outputs,
	})
}
