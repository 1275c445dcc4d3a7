package kstreamstest_test

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/internal/storeformat"
	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/kstreamstest"
	"github.com/stoatflow/stoatflow/kstreams/serde"
)

// The expected results below are those of Kafka Streams' SuppressScenarioTest
// and SuppressTopologyTest (streams/src/test/.../kstream/internals/).

type skvt struct {
	key   string
	value *int64
	ts    int64
}

func ln(v int64) *int64 { return &v }

// windowedString is Java's Windowed.toString: [key@start/end].
func windowedString(k kstreams.Windowed[string]) string {
	return fmt.Sprintf("[%s@%d/%d]", k.Key, k.Window.Start, k.Window.End)
}

func toWindowedStrings(t *kstreams.KTable[kstreams.Windowed[string], int64], topic string) {
	kstreams.Map(t.ToStream(), func(k kstreams.Windowed[string], v int64) (string, int64) { return windowedString(k), v }).
		To(topic, kstreams.ProducedWith[string, int64](serde.String{}, serde.Long{}))
}

func verifyLongs(t *testing.T, what string, got []kstreamstest.Record, want []skvt) {
	t.Helper()
	var g []skvt
	for _, r := range got {
		e := skvt{key: string(r.Key), ts: r.Timestamp}
		if r.Value != nil {
			v, err := serde.Long{}.Deserialize("", r.Value)
			if err != nil {
				t.Fatal(err)
			}
			e.value = &v
		}
		g = append(g, e)
	}
	str := func(l []skvt) string {
		s := ""
		for _, e := range l {
			v := "null"
			if e.value != nil {
				v = fmt.Sprint(*e.value)
			}
			s += fmt.Sprintf("(%s,%s,%d) ", e.key, v, e.ts)
		}
		return s
	}
	if str(g) != str(want) {
		t.Errorf("%s:\n got  %s\n want %s", what, str(g), str(want))
	}
}

func pipeKeys(t *testing.T, d *kstreamstest.Driver, topic string, recs ...skvt) {
	t.Helper()
	in := kstreamstest.NewInputTopic(d, topic, serde.String{}, serde.String{})
	for _, r := range recs {
		if err := in.Pipe(r.key, "v1", r.ts); err != nil {
			t.Fatal(err)
		}
	}
}

func rec(k string, ts int64) skvt { return skvt{key: k, ts: ts} }

func windowedCounts(b *kstreams.StreamsBuilder, w kstreams.TimeWindows) *kstreams.KTable[kstreams.Windowed[string], int64] {
	g := kstreams.GroupBy(stringStream(b, "input"), func(k, _ string) string { return k },
		kstreams.Grouped[string, string]{KeySerde: serde.String{}, ValueSerde: serde.String{}})
	return kstreams.WindowedBy(g, w).Count(kstreams.Materialized[string, int64]{Name: "counts", CachingDisabled: true})
}

func TestSuppressFinalResultsForTimeWindows(t *testing.T) {
	b := kstreams.NewStreamsBuilder()
	counts := windowedCounts(b, kstreams.TimeWindowsOfSizeAndGrace(2*time.Millisecond, time.Millisecond))
	toWindowedStrings(counts.Suppress(kstreams.UntilWindowCloses(kstreams.Unbounded())), "output-suppressed")
	toWindowedStrings(counts, "output-raw")
	d := build(t, b, kstreamstest.Config{ApplicationID: "app"})
	// The last record is dropped: its window closed when stream time reached 5.
	pipeKeys(t, d, "input", rec("k1", 0), rec("k1", 1), rec("k1", 2), rec("k1", 1), rec("k1", 0), rec("k1", 5), rec("k1", 0))
	verifyLongs(t, "raw", d.ReadOutput("output-raw"), []skvt{
		{"[k1@0/2]", ln(1), 0}, {"[k1@0/2]", ln(2), 1}, {"[k1@2/4]", ln(1), 2}, {"[k1@0/2]", ln(3), 1}, {"[k1@0/2]", ln(4), 1}, {"[k1@4/6]", ln(1), 5}})
	verifyLongs(t, "suppressed", d.ReadOutput("output-suppressed"), []skvt{{"[k1@0/2]", ln(4), 1}, {"[k1@2/4]", ln(1), 2}})
}

func TestSuppressFinalResultsForTimeWindowsWithLargeJump(t *testing.T) {
	b := kstreams.NewStreamsBuilder()
	counts := windowedCounts(b, kstreams.TimeWindowsOfSizeAndGrace(2*time.Millisecond, 2*time.Millisecond))
	toWindowedStrings(counts.Suppress(kstreams.UntilWindowCloses(kstreams.Unbounded())), "output-suppressed")
	toWindowedStrings(counts, "output-raw")
	d := build(t, b, kstreamstest.Config{ApplicationID: "app"})
	pipeKeys(t, d, "input", rec("k1", 0), rec("k1", 1), rec("k1", 2), rec("k1", 0), rec("k1", 3), rec("k1", 0), rec("k1", 4),
		rec("k1", 0), rec("k1", 30))
	verifyLongs(t, "raw", d.ReadOutput("output-raw"), []skvt{
		{"[k1@0/2]", ln(1), 0}, {"[k1@0/2]", ln(2), 1}, {"[k1@2/4]", ln(1), 2}, {"[k1@0/2]", ln(3), 1}, {"[k1@2/4]", ln(2), 3},
		{"[k1@0/2]", ln(4), 1}, {"[k1@4/6]", ln(1), 4}, {"[k1@30/32]", ln(1), 30}})
	verifyLongs(t, "suppressed", d.ReadOutput("output-suppressed"), []skvt{
		{"[k1@0/2]", ln(4), 1}, {"[k1@2/4]", ln(2), 3}, {"[k1@4/6]", ln(1), 4}})
}

func TestSuppressFinalResultsForSessionWindows(t *testing.T) {
	b := kstreams.NewStreamsBuilder()
	g := kstreams.GroupBy(stringStream(b, "input"), func(k, _ string) string { return k },
		kstreams.Grouped[string, string]{KeySerde: serde.String{}, ValueSerde: serde.String{}})
	counts := kstreams.WindowedBySession(g, kstreams.SessionWindowsOfInactivityGapWithNoGrace(5*time.Millisecond)).
		Count(kstreams.Materialized[string, int64]{Name: "counts", CachingDisabled: true})
	toWindowedStrings(counts.Suppress(kstreams.UntilWindowCloses(kstreams.Unbounded())), "output-suppressed")
	toWindowedStrings(counts, "output-raw")
	d := build(t, b, kstreamstest.Config{ApplicationID: "app"})
	// k2@11 moves stream time past the first session's end plus the gap;
	// the late k1@5 is dropped everywhere; k1@30 flushes the rest.
	pipeKeys(t, d, "input", rec("k1", 0), rec("k1", 5), rec("k1", 1), rec("k2", 11), rec("k1", 5), rec("k1", 30))
	verifyLongs(t, "raw", d.ReadOutput("output-raw"), []skvt{
		{"[k1@0/0]", ln(1), 0}, {"[k1@0/0]", nil, 0}, {"[k1@0/5]", ln(2), 5}, {"[k1@0/5]", nil, 5}, {"[k1@0/5]", ln(3), 5},
		{"[k2@11/11]", ln(1), 11}, {"[k1@30/30]", ln(1), 30}})
	verifyLongs(t, "suppressed", d.ReadOutput("output-suppressed"), []skvt{{"[k1@0/5]", ln(3), 5}, {"[k2@11/11]", ln(1), 11}})
}

// keyCounts is a count per key, the table the intermediate scenarios below
// suppress (Kafka's scenarios count a re-grouped table; these count the
// stream, which changes the raw values but not what suppression does).
func keyCounts(b *kstreams.StreamsBuilder) *kstreams.KTable[string, int64] {
	return stringStream(b, "input").GroupByKey().Count(kstreams.Materialized[string, int64]{CachingDisabled: true})
}

func toLongs(t *kstreams.KTable[string, int64], topic string) {
	t.ToStream().To(topic, kstreams.ProducedWith[string, int64](serde.String{}, serde.Long{}))
}

func TestSuppressZeroTimeLimitEmitsImmediately(t *testing.T) {
	b := kstreams.NewStreamsBuilder()
	counts := keyCounts(b)
	toLongs(counts.Suppress(kstreams.UntilTimeLimit(0, kstreams.Unbounded())), "output-suppressed")
	toLongs(counts, "output-raw")
	d := build(t, b, kstreamstest.Config{ApplicationID: "app"})
	pipeKeys(t, d, "input", rec("v1", 0), rec("v2", 1), rec("v1", 2), rec("x", 3))
	want := []skvt{{"v1", ln(1), 0}, {"v2", ln(1), 1}, {"v1", ln(2), 2}, {"x", ln(1), 3}}
	verifyLongs(t, "raw", d.ReadOutput("output-raw"), want)
	verifyLongs(t, "suppressed", d.ReadOutput("output-suppressed"), want)
}

func TestSuppressIntermediateEventsWithTimeLimit(t *testing.T) {
	b := kstreams.NewStreamsBuilder()
	counts := keyCounts(b)
	toLongs(counts.Suppress(kstreams.UntilTimeLimit(2*time.Millisecond, kstreams.Unbounded())), "output-suppressed")
	d := build(t, b, kstreamstest.Config{ApplicationID: "app"})
	pipeKeys(t, d, "input", rec("v1", 0), rec("v2", 1), rec("v1", 2))
	// v1 was first buffered at 0: at stream time 2 its time is up; it goes
	// out with its latest value and that update's timestamp.
	verifyLongs(t, "suppressed", d.ReadOutput("output-suppressed"), []skvt{{"v1", ln(2), 2}})
	pipeKeys(t, d, "input", rec("tick", 3))
	verifyLongs(t, "suppressed after tick", d.ReadOutput("output-suppressed"), []skvt{{"v2", ln(1), 1}})
	pipeKeys(t, d, "input", rec("tick", 4))
	// tick was first buffered at 3; at 4 it stays, updated.
	verifyLongs(t, "suppressed after tock", d.ReadOutput("output-suppressed"), nil)
	pipeKeys(t, d, "input", rec("other", 5))
	verifyLongs(t, "suppressed at 5", d.ReadOutput("output-suppressed"), []skvt{{"tick", ln(2), 4}})
}

func TestSuppressIntermediateEventsWithRecordLimit(t *testing.T) {
	b := kstreams.NewStreamsBuilder()
	counts := keyCounts(b)
	toLongs(counts.Suppress(kstreams.UntilTimeLimit(time.Duration(math.MaxInt64), kstreams.MaxRecords(1).EmitEarlyWhenFull())), "output-suppressed")
	d := build(t, b, kstreamstest.Config{ApplicationID: "app"})
	pipeKeys(t, d, "input", rec("v1", 0), rec("v1", 1), rec("v2", 2), rec("v1", 3))
	// consecutive updates of v1 collapse; each new key pushes the oldest out.
	verifyLongs(t, "suppressed", d.ReadOutput("output-suppressed"), []skvt{{"v1", ln(2), 1}, {"v2", ln(1), 2}})
	pipeKeys(t, d, "input", rec("x", 4))
	verifyLongs(t, "suppressed after x", d.ReadOutput("output-suppressed"), []skvt{{"v1", ln(3), 3}})
}

func TestSuppressIntermediateEventsWithBytesLimit(t *testing.T) {
	b := kstreams.NewStreamsBuilder()
	counts := keyCounts(b)
	// One buffered count is 8 (time) + 2 (key) + 8 (new) + 8 (old, once
	// there is one) + 8 + 8 + topic + 4 bytes of context; the topic is the
	// driver's input topic "input": 51 bytes with an old value, 43 without.
	toLongs(counts.Suppress(kstreams.UntilTimeLimit(time.Duration(math.MaxInt64), kstreams.MaxBytes(100))), "output-suppressed")
	d := build(t, b, kstreamstest.Config{ApplicationID: "app"})
	pipeKeys(t, d, "input", rec("v1", 0), rec("v1", 1), rec("v2", 2), rec("v3", 3))
	// v1 (prior null, old 1: 51 bytes) + v2 (43) = 94 fit; v3 pushes v1 out.
	verifyLongs(t, "suppressed", d.ReadOutput("output-suppressed"), []skvt{{"v1", ln(2), 1}})
}

func TestSuppressShutsDownWhenFull(t *testing.T) {
	b := kstreams.NewStreamsBuilder()
	counts := keyCounts(b)
	toLongs(counts.Suppress(kstreams.UntilTimeLimit(100*24*time.Hour, kstreams.MaxRecords(1).ShutDownWhenFull())), "output-suppressed")
	d := build(t, b, kstreamstest.Config{ApplicationID: "app"})
	pipeKeys(t, d, "input", rec("hey", 100))
	err := kstreamstest.NewInputTopic(d, "input", serde.String{}, serde.String{}).Pipe("dummyKey", "v", 100)
	const want = "KTABLE-SUPPRESS-0000000004 buffer exceeded its max capacity. Currently [2/1] records and [93/9223372036854775807] bytes."
	var pe *kstreams.ProcessError
	if !errors.As(err, &pe) || pe.Err == nil || !containsStr(err.Error(), want) {
		t.Fatalf("error %v, want one ending in %q", err, want)
	}
}

func containsStr(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}

// TestSuppressBufferChangelog: the buffer logs each changed key once per
// commit (the driver commits after every input record) in Kafka Streams'
// version 3 format with the header v=3, and a tombstone for a key that
// left the buffer.
func TestSuppressBufferChangelog(t *testing.T) {
	b := kstreams.NewStreamsBuilder()
	counts := windowedCounts(b, kstreams.TimeWindowsOfSizeAndGrace(2*time.Millisecond, time.Millisecond))
	toWindowedStrings(counts.Suppress(kstreams.UntilWindowCloses(kstreams.Unbounded()).WithName("final")), "output-suppressed")
	d := build(t, b, kstreamstest.Config{ApplicationID: "app", WallClockStart: time.UnixMilli(1000)})
	in := kstreamstest.NewInputTopic(d, "input", serde.String{}, serde.String{})
	if err := in.Pipe("k1", "v1", 0); err != nil {
		t.Fatal(err)
	}
	if err := in.Pipe("k1", "v1", 1); err != nil {
		t.Fatal(err)
	}
	if err := in.Pipe("k1", "v1", 5); err != nil {
		t.Fatal(err)
	}
	log := d.Changelog("final-store")
	key0 := "k1" + string(long(0))
	key4 := "k1" + string(long(4))
	if len(log) != 4 {
		t.Fatalf("changelog: %d records, want 4: %+v", len(log), log)
	}
	// At the third record the window [0,2) leaves the buffer and [4,6)
	// enters it: Java's HashSet of dirty keys iterates key0 (bucket 7)
	// before key4 (bucket 11).
	for i, want := range []string{key0, key0, key0, key4} {
		if string(log[i].Key) != want || log[i].Timestamp != 1000 || log[i].Partition != 0 {
			t.Errorf("changelog[%d] = %q@%d, want %q@1000", i, log[i].Key, log[i].Timestamp, want)
		}
	}
	if log[2].Value != nil || len(log[2].Headers) != 0 || log[3].Value == nil {
		t.Errorf("changelog[2] should be a tombstone without headers, [3] a value: %+v", log[2:])
	}
	// The second record updated the window [0,2): prior 0 (the count's
	// initial value, which Kafka's window aggregation sends as a new
	// window's old value), old 1, new 2,
	// from offset 1 of the repartition topic, buffered until the window end 2.
	v, bt, err := storeformat.SplitBufferValue(log[1].Value)
	if err != nil {
		t.Fatal(err)
	}
	if h := log[1].Headers; len(h) != 1 || h[0].Key != "v" || string(h[0].Value) != "\x03" {
		t.Errorf("headers %+v, want v=3", h)
	}
	if bt != 2 || string(v.Prior) != string(long(0)) || string(v.Old) != string(long(1)) || string(v.New) != string(long(2)) ||
		!reflect.DeepEqual(v.Context, storeformat.RecordContext{Timestamp: 1, Offset: 1, Topic: "app-counts-repartition", Partition: 0}) {
		t.Errorf("buffer value %+v time %d", v, bt)
	}
	want := storeformat.AppendBufferValue(nil, v, bt)
	if string(want) != string(log[1].Value) {
		t.Errorf("re-encoded value differs: %x vs %x", want, log[1].Value)
	}
}

// The four topologies of Kafka's SuppressTopologyTest.
func TestSuppressDescribe(t *testing.T) {
	final := func(name string) string {
		b := kstreams.NewStreamsBuilder()
		g := kstreams.GroupBy(stringStream(b, "input"), func(k, _ string) string { return k },
			kstreams.Grouped[string, string]{KeySerde: serde.String{}, ValueSerde: serde.String{}})
		counts := kstreams.WindowedBySession(g, kstreams.SessionWindowsOfInactivityGapAndGrace(5*time.Millisecond, 5*time.Millisecond)).
			Count(kstreams.Materialized[string, int64]{Name: "counts", CachingDisabled: true})
		s := kstreams.UntilWindowCloses(kstreams.Unbounded())
		if name != "" {
			s = s.WithName(name)
		}
		toWindowedStrings(counts.Suppress(s), "output-suppressed")
		return describe(t, b)
	}
	intermediate := func(name string) string {
		b := kstreams.NewStreamsBuilder()
		s := kstreams.UntilTimeLimit(time.Second, kstreams.Unbounded())
		if name != "" {
			s = s.WithName(name)
		}
		toLongs(stringStream(b, "input").GroupByKey().Count().Suppress(s), "output")
		return describe(t, b)
	}
	finalTopology := func(agg, sup, store, toStream, mapName, sink string) string {
		return "Topologies:\n" +
			"   Sub-topology: 0\n" +
			"    Source: KSTREAM-SOURCE-0000000000 (topics: [input])\n" +
			"      --> KSTREAM-KEY-SELECT-0000000001\n" +
			"    Processor: KSTREAM-KEY-SELECT-0000000001 (stores: [])\n" +
			"      --> counts-repartition-filter\n" +
			"      <-- KSTREAM-SOURCE-0000000000\n" +
			"    Processor: counts-repartition-filter (stores: [])\n" +
			"      --> counts-repartition-sink\n" +
			"      <-- KSTREAM-KEY-SELECT-0000000001\n" +
			"    Sink: counts-repartition-sink (topic: counts-repartition)\n" +
			"      <-- counts-repartition-filter\n" +
			"\n" +
			"  Sub-topology: 1\n" +
			"    Source: counts-repartition-source (topics: [counts-repartition])\n" +
			"      --> " + agg + "\n" +
			"    Processor: " + agg + " (stores: [counts])\n" +
			"      --> " + sup + "\n" +
			"      <-- counts-repartition-source\n" +
			"    Processor: " + sup + " (stores: [" + store + "])\n" +
			"      --> " + toStream + "\n" +
			"      <-- " + agg + "\n" +
			"    Processor: " + toStream + " (stores: [])\n" +
			"      --> " + mapName + "\n" +
			"      <-- " + sup + "\n" +
			"    Processor: " + mapName + " (stores: [])\n" +
			"      --> " + sink + "\n" +
			"      <-- " + toStream + "\n" +
			"    Sink: " + sink + " (topic: output-suppressed)\n" +
			"      <-- " + mapName + "\n" +
			"\n"
	}
	intermediateTopology := func(store, sup, supStore, toStream, sink string) string {
		return "Topologies:\n" +
			"   Sub-topology: 0\n" +
			"    Source: KSTREAM-SOURCE-0000000000 (topics: [input])\n" +
			"      --> KSTREAM-AGGREGATE-0000000002\n" +
			"    Processor: KSTREAM-AGGREGATE-0000000002 (stores: [" + store + "])\n" +
			"      --> " + sup + "\n" +
			"      <-- KSTREAM-SOURCE-0000000000\n" +
			"    Processor: " + sup + " (stores: [" + supStore + "])\n" +
			"      --> " + toStream + "\n" +
			"      <-- KSTREAM-AGGREGATE-0000000002\n" +
			"    Processor: " + toStream + " (stores: [])\n" +
			"      --> " + sink + "\n" +
			"      <-- " + sup + "\n" +
			"    Sink: " + sink + " (topic: output)\n" +
			"      <-- " + toStream + "\n" +
			"\n"
	}
	cases := []struct{ name, got, want string }{
		{"anonymous final", final(""), finalTopology("KSTREAM-AGGREGATE-0000000002", "KTABLE-SUPPRESS-0000000006",
			"KTABLE-SUPPRESS-STATE-STORE-0000000007", "KTABLE-TOSTREAM-0000000008", "KSTREAM-MAP-0000000009", "KSTREAM-SINK-0000000010")},
		{"named final", final("myname"), finalTopology("KSTREAM-AGGREGATE-0000000002", "myname",
			"myname-store", "KTABLE-TOSTREAM-0000000006", "KSTREAM-MAP-0000000007", "KSTREAM-SINK-0000000008")},
		{"anonymous intermediate", intermediate(""), intermediateTopology("KSTREAM-AGGREGATE-STATE-STORE-0000000001",
			"KTABLE-SUPPRESS-0000000003", "KTABLE-SUPPRESS-STATE-STORE-0000000004", "KTABLE-TOSTREAM-0000000005", "KSTREAM-SINK-0000000006")},
		{"named intermediate", intermediate("asdf"), intermediateTopology("KSTREAM-AGGREGATE-STATE-STORE-0000000001",
			"asdf", "asdf-store", "KTABLE-TOSTREAM-0000000003", "KSTREAM-SINK-0000000004")},
	}
	for _, c := range cases {
		if c.got != c.want {
			t.Errorf("%s:\n--- got\n%s--- want\n%s", c.name, c.got, c.want)
		}
	}
}

func describe(t *testing.T, b *kstreams.StreamsBuilder) string {
	t.Helper()
	topo, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return topo.Describe().String()
}

// TestSuppressUntilWindowClosesRejectsNonWindowedTables: Kafka Streams'
// GraphGraceSearchUtil message, naming the DSL graph walked from its root.
func TestSuppressUntilWindowClosesRejectsNonWindowedTables(t *testing.T) {
	cases := map[string]struct {
		build func(b *kstreams.StreamsBuilder)
		want  string
	}{
		"table": {func(b *kstreams.StreamsBuilder) {
			stringTable(b, "input").Suppress(kstreams.UntilWindowCloses(kstreams.Unbounded()))
		}, "Invalid topology: Window close time is only defined for windowed computations. Got [root->KTABLE-SOURCE-0000000002]."},
		"filtered table": {func(b *kstreams.StreamsBuilder) {
			stringTable(b, "input").Filter(func(string, string) bool { return true }).Suppress(kstreams.UntilWindowCloses(kstreams.Unbounded()))
		}, "Invalid topology: Window close time is only defined for windowed computations. Got [root->KTABLE-SOURCE-0000000002->KTABLE-FILTER-0000000003]."},
		"count": {func(b *kstreams.StreamsBuilder) {
			stringStream(b, "input").GroupByKey().Count().Suppress(kstreams.UntilWindowCloses(kstreams.Unbounded()))
		}, "Invalid topology: Window close time is only defined for windowed computations. Got [root->KSTREAM-SOURCE-0000000000->KSTREAM-AGGREGATE-0000000002]."},
	}
	for name, c := range cases {
		b := kstreams.NewStreamsBuilder()
		c.build(b)
		_, err := b.Build()
		if err == nil || err.Error() != c.want || !errors.Is(err, kstreams.ErrInvalidTopology) {
			t.Errorf("%s: error %v\nwant %s", name, err, c.want)
		}
	}
}

// TestSuppressUnderCachingKeepsRecordOrigin: a cached aggregation forwards
// its updates at the flush, with the record context of the record that
// wrote them (Kafka's cache entry context), so the suppression buffers
// them with that record's topic, partition and offset.
func TestSuppressUnderCachingKeepsRecordOrigin(t *testing.T) {
	b := kstreams.NewStreamsBuilder()
	g := kstreams.GroupBy(stringStream(b, "input"), func(k, _ string) string { return k },
		kstreams.Grouped[string, string]{KeySerde: serde.String{}, ValueSerde: serde.String{}})
	counts := kstreams.WindowedBy(g, kstreams.TimeWindowsOfSizeAndGrace(2*time.Millisecond, time.Millisecond)).
		Count(kstreams.Materialized[string, int64]{Name: "counts"})
	toWindowedStrings(counts.Suppress(kstreams.UntilWindowCloses(kstreams.Unbounded()).WithName("final")), "output-suppressed")
	d := build(t, b, kstreamstest.Config{ApplicationID: "app", Caching: true})
	pipeKeys(t, d, "input", rec("k1", 0), rec("k1", 1), rec("k1", 5))
	verifyLongs(t, "suppressed", d.ReadOutput("output-suppressed"), []skvt{{"[k1@0/2]", ln(2), 1}})
	log := d.Changelog("final-store")
	if len(log) < 2 {
		t.Fatalf("changelog %+v", log)
	}
	v, _, err := storeformat.SplitBufferValue(log[1].Value)
	if err != nil {
		t.Fatal(err)
	}
	if v.Context.Topic != "app-counts-repartition" || v.Context.Offset != 1 || v.Context.Partition != 0 || v.Context.Timestamp != 1 {
		t.Errorf("buffered context %+v, want the second record's", v.Context)
	}
}
