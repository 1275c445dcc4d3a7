package kstreamstest_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/kstreamstest"
	"github.com/stoatflow/stoatflow/kstreams/serde"
)

func long(n int64) []byte { return binary.BigEndian.AppendUint64(nil, uint64(n)) }

func build(t *testing.T, b *kstreams.StreamsBuilder, cfg kstreamstest.Config) *kstreamstest.Driver {
	t.Helper()
	topo, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	d, err := kstreamstest.New(topo, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

type kv struct {
	key   string
	value []byte
	ts    int64
}

func check(t *testing.T, what string, got []kstreamstest.Record, want []kv) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d records, want %d: %+v", what, len(got), len(want), got)
	}
	for i, w := range want {
		g := got[i]
		if string(g.Key) != w.key || !bytes.Equal(g.Value, w.value) || (g.Value == nil) != (w.value == nil) || g.Timestamp != w.ts {
			t.Errorf("%s[%d] = key %q value %x ts %d, want key %q value %x ts %d", what, i, g.Key, g.Value, g.Timestamp, w.key, w.value, w.ts)
		}
	}
}

func wordCountBuilder() *kstreams.StreamsBuilder {
	b := kstreams.NewStreamsBuilder()
	src := kstreams.Stream(b, []string{"streams-plaintext-input"}, kstreams.ConsumedWith[string, string](serde.String{}, serde.String{}))
	ws := kstreams.FlatMapValues(src, func(v string) []string { return strings.Fields(strings.ToLower(v)) })
	kstreams.GroupBy(ws, func(_, w string) string { return w }).Count().
		ToStream().To("streams-wordcount-output", kstreams.ProducedWith[string, int64](serde.String{}, serde.Long{}))
	return b
}

func TestWordCountOutputAndChangelog(t *testing.T) {
	d := build(t, wordCountBuilder(), kstreamstest.Config{ApplicationID: "wc",
		DefaultKeySerde: serde.Erase[string](serde.String{}), DefaultValueSerde: serde.Erase[string](serde.String{})})
	in := kstreamstest.NewInputTopic(d, "streams-plaintext-input", serde.String{}, serde.String{})
	if err := in.Pipe("k1", "Hello Kafka Streams", 100); err != nil {
		t.Fatal(err)
	}
	if err := in.Pipe("k2", "hello world", 50); err != nil {
		t.Fatal(err)
	}
	want := []kv{{"hello", long(1), 100}, {"kafka", long(1), 100}, {"streams", long(1), 100}, {"hello", long(2), 100}, {"world", long(1), 50}}
	check(t, "output", d.Records("streams-wordcount-output"), want)
	check(t, "changelog", d.Changelog("KSTREAM-AGGREGATE-STATE-STORE-0000000003"), want)
	check(t, "repartition", d.Records("wc-KSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition"), []kv{
		{"hello", []byte("hello"), 100}, {"kafka", []byte("kafka"), 100}, {"streams", []byte("streams"), 100},
		{"hello", []byte("hello"), 50}, {"world", []byte("world"), 50}})
	typed, err := kstreamstest.ReadOutput(d, "streams-wordcount-output", serde.String{}, serde.Long{})
	if err != nil || len(typed) != 5 || typed[3].Key != "hello" || typed[3].Value != 2 {
		t.Fatalf("typed output %+v %v", typed, err)
	}
	if again := d.ReadOutput("streams-wordcount-output"); len(again) != 0 {
		t.Fatalf("ReadOutput did not consume: %d", len(again))
	}
}

func TestWordCountWithPartitionsRoutesByKey(t *testing.T) {
	d := build(t, wordCountBuilder(), kstreamstest.Config{Partitions: 4,
		DefaultKeySerde: serde.Erase[string](serde.String{}), DefaultValueSerde: serde.Erase[string](serde.String{})})
	in := kstreamstest.NewInputTopic(d, "streams-plaintext-input", serde.String{}, serde.String{})
	for i, line := range []string{"a b c d e", "a a b", "e"} {
		if err := in.Pipe("line", line, int64(i)); err != nil {
			t.Fatal(err)
		}
	}
	final := map[string]int64{}
	for _, r := range d.Records("streams-wordcount-output") {
		if want := kstreams.DefaultPartition(r.Key, 4); r.Partition != want {
			t.Errorf("%s in partition %d, want %d", r.Key, r.Partition, want)
		}
		final[string(r.Key)] = int64(binary.BigEndian.Uint64(r.Value))
	}
	for w, n := range map[string]int64{"a": 3, "b": 2, "c": 1, "d": 1, "e": 2} {
		if final[w] != n {
			t.Errorf("count(%s) = %d want %d", w, final[w], n)
		}
	}
	for _, r := range d.Changelog("KSTREAM-AGGREGATE-STATE-STORE-0000000003") {
		if r.Partition != kstreams.DefaultPartition(r.Key, 4) {
			t.Errorf("changelog %s in partition %d", r.Key, r.Partition)
		}
	}
}

func TestStatelessOps(t *testing.T) {
	b := kstreams.NewStreamsBuilder()
	src := kstreams.Stream(b, []string{"in"}, kstreams.ConsumedWith[string, string](serde.String{}, serde.String{}))
	var peeked []string
	kept := src.Filter(func(_, v string) bool { return v != "" }).FilterNot(func(k, _ string) bool { return k == "skip" }).
		Peek(func(k, _ string) { peeked = append(peeked, k) })
	lens := kstreams.MapValues(kept, func(v string) int64 { return int64(len(v)) })
	swapped := kstreams.Map(kept, func(k, v string) (string, string) { return v, k })
	rekeyed := kstreams.SelectKey(lens, func(k string, _ int64) string { return strings.ToUpper(k) })
	pairs := kstreams.FlatMap(kept, func(k, v string) []kstreams.KeyValue[string, string] {
		return []kstreams.KeyValue[string, string]{{Key: k + "1", Value: v}, {Key: k + "2", Value: v}}
	})
	var seen int
	pairs.Foreach(func(string, string) { seen++ })
	rekeyed.To("lens", kstreams.ProducedWith[string, int64](serde.String{}, serde.Long{}))
	swapped.To("swapped", kstreams.ProducedWith[string, string](serde.String{}, serde.String{}))
	d := build(t, b, kstreamstest.Config{})
	in := kstreamstest.NewInputTopic(d, "in", serde.String{}, serde.String{})
	for _, r := range []struct{ k, v string }{{"a", "xyz"}, {"skip", "q"}, {"b", ""}, {"c", "hi"}} {
		if err := in.Pipe(r.k, r.v, 7); err != nil {
			t.Fatal(err)
		}
	}
	check(t, "lens", d.Records("lens"), []kv{{"A", long(3), 7}, {"C", long(2), 7}})
	check(t, "swapped", d.Records("swapped"), []kv{{"xyz", []byte("a"), 7}, {"hi", []byte("c"), 7}})
	if strings.Join(peeked, ",") != "a,c" || seen != 4 {
		t.Errorf("peeked %v foreach %d", peeked, seen)
	}
}

func TestNullKeyRecordsAreDroppedByGroupByKeyCount(t *testing.T) {
	b := kstreams.NewStreamsBuilder()
	kstreams.Stream(b, []string{"in"}, kstreams.ConsumedWith[string, string](serde.String{}, serde.String{})).
		GroupByKey().Count().ToStream().To("out", kstreams.ProducedWith[string, int64](serde.String{}, serde.Long{}))
	d := build(t, b, kstreamstest.Config{})
	if err := d.Pipe("in", nil, []byte("v"), 1); err != nil {
		t.Fatal(err)
	}
	if err := d.Pipe("in", []byte("k"), nil, 2); err != nil {
		t.Fatal(err)
	}
	if err := d.Pipe("in", []byte("k"), []byte("v"), 3); err != nil {
		t.Fatal(err)
	}
	check(t, "out", d.Records("out"), []kv{{"k", long(1), 3}})
	if n := len(d.Dropped()); n != 2 {
		t.Errorf("dropped %d records, want 2: %+v", n, d.Dropped())
	}
}

func TestReduceAndAggregateTimestamps(t *testing.T) {
	b := kstreams.NewStreamsBuilder()
	g := kstreams.Stream(b, []string{"in"}, kstreams.ConsumedWith[string, string](serde.String{}, serde.String{})).GroupByKey()
	g.Reduce(func(a, v string) string { return a + "+" + v }, kstreams.MaterializedAs[string, string]("reduced")).
		ToStream().To("reduced-out")
	kstreams.Aggregate(g, func() int64 { return 10 }, func(_ string, v string, a int64) int64 { return a + int64(len(v)) },
		kstreams.Materialized[string, int64]{Name: "lengths", ValueSerde: serde.Long{}}).
		ToStream().To("lengths-out", kstreams.ProducedWith[string, int64](serde.String{}, serde.Long{}))
	d := build(t, b, kstreamstest.Config{ApplicationID: "app"})
	in := kstreamstest.NewInputTopic(d, "in", serde.String{}, serde.String{})
	for _, r := range []struct {
		v  string
		ts int64
	}{{"a", 5}, {"bb", 3}, {"ccc", 9}} {
		if err := in.Pipe("k", r.v, r.ts); err != nil {
			t.Fatal(err)
		}
	}
	check(t, "reduced", d.Records("reduced-out"), []kv{{"k", []byte("a"), 5}, {"k", []byte("a+bb"), 5}, {"k", []byte("a+bb+ccc"), 9}})
	check(t, "lengths", d.Records("lengths-out"), []kv{{"k", long(11), 5}, {"k", long(13), 5}, {"k", long(16), 9}})
	check(t, "reduced changelog", d.Records("app-reduced-changelog"), []kv{{"k", []byte("a"), 5}, {"k", []byte("a+bb"), 5}, {"k", []byte("a+bb+ccc"), 9}})
}

func windowKey(k string, start int64) string { return k + string(long(start)) }

func TestWindowedCountDropsLateRecords(t *testing.T) {
	b := kstreams.NewStreamsBuilder()
	g := kstreams.Stream(b, []string{"in"}, kstreams.ConsumedWith[string, string](serde.String{}, serde.String{})).GroupByKey()
	kstreams.WindowedBy(g, kstreams.TimeWindowsOfSizeAndGrace(10*time.Millisecond, 5*time.Millisecond)).
		Count(kstreams.MaterializedAs[string, int64]("counts")).ToStream().
		To("out", kstreams.Produced[kstreams.Windowed[string], int64]{ValueSerde: serde.Long{}})
	d := build(t, b, kstreamstest.Config{ApplicationID: "app", DefaultKeySerde: serde.Erase[string](serde.String{})})
	in := kstreamstest.NewInputTopic(d, "in", serde.String{}, serde.String{})
	for _, ts := range []int64{1, 12, 3, 16, 4} {
		if err := in.Pipe("k", "v", ts); err != nil {
			t.Fatal(err)
		}
	}
	// ts 16 moves stream time to 16, closing [0,10) (end 10 <= 16-5): ts 4 is dropped.
	check(t, "out", d.Records("out"), []kv{
		{windowKey("k", 0), long(1), 1}, {windowKey("k", 10), long(1), 12}, {windowKey("k", 0), long(2), 3}, {windowKey("k", 10), long(2), 16}})
	changelog := d.Changelog("counts")
	wantKeys := []string{windowKey("k", 0) + "\x00\x00\x00\x00", windowKey("k", 10) + "\x00\x00\x00\x00"}
	if len(changelog) != 4 || string(changelog[0].Key) != wantKeys[0] || string(changelog[1].Key) != wantKeys[1] || changelog[3].Timestamp != 16 {
		t.Errorf("changelog %+v", changelog)
	}
	if dr := d.Dropped(); len(dr) != 1 || dr[0].Processor != "KSTREAM-AGGREGATE-0000000001" {
		t.Errorf("dropped %+v", dr)
	}
	typed, err := kstreamstest.ReadOutput(d, "out", serde.TimeWindowed[string]{Inner: serde.String{}, WindowSize: 10}, serde.Long{})
	if err != nil || typed[1].Key.Window != (kstreams.Window{Start: 10, End: 20}) {
		t.Fatalf("%+v %v", typed, err)
	}
}

func TestHoppingWindowsUpdateEveryWindow(t *testing.T) {
	b := kstreams.NewStreamsBuilder()
	g := kstreams.Stream(b, []string{"in"}, kstreams.ConsumedWith[string, string](serde.String{}, serde.String{})).GroupByKey()
	kstreams.WindowedBy(g, kstreams.TimeWindowsOfSizeWithNoGrace(10*time.Millisecond).AdvanceBy(5*time.Millisecond)).
		Count().ToStream().To("out", kstreams.Produced[kstreams.Windowed[string], int64]{KeySerde: serde.TimeWindowed[string]{Inner: serde.String{}}, ValueSerde: serde.Long{}})
	d := build(t, b, kstreamstest.Config{})
	if err := kstreamstest.NewInputTopic(d, "in", serde.String{}, serde.String{}).Pipe("k", "v", 7); err != nil {
		t.Fatal(err)
	}
	check(t, "out", d.Records("out"), []kv{{windowKey("k", 0), long(1), 7}, {windowKey("k", 5), long(1), 7}})
}

func sessionKey(k string, start, end int64) string {
	return k + string(long(end)) + string(long(start))
}

func TestSessionCountMergesSessions(t *testing.T) {
	b := kstreams.NewStreamsBuilder()
	g := kstreams.Stream(b, []string{"in"}, kstreams.ConsumedWith[string, string](serde.String{}, serde.String{})).GroupByKey()
	kstreams.WindowedBySession(g, kstreams.SessionWindowsOfInactivityGapAndGrace(10*time.Millisecond, 20*time.Millisecond)).
		Count(kstreams.MaterializedAs[string, int64]("sessions")).ToStream().
		To("out", kstreams.Produced[kstreams.Windowed[string], int64]{ValueSerde: serde.Long{}})
	d := build(t, b, kstreamstest.Config{ApplicationID: "app", DefaultKeySerde: serde.Erase[string](serde.String{})})
	in := kstreamstest.NewInputTopic(d, "in", serde.String{}, serde.String{})
	for _, ts := range []int64{0, 30, 15} {
		if err := in.Pipe("k", "v", ts); err != nil {
			t.Fatal(err)
		}
	}
	// 15 is more than the 10ms gap from both 0 and 30: a third session, accepted
	// because its end is not before stream time 30 minus grace 20.
	if err := in.Pipe("k", "v", 22); err != nil { // joins [15,15] and [30,30] into [15,30]
		t.Fatal(err)
	}
	check(t, "out", d.Records("out"), []kv{
		{sessionKey("k", 0, 0), long(1), 0},
		{sessionKey("k", 30, 30), long(1), 30},
		{sessionKey("k", 15, 15), long(1), 15},
		{sessionKey("k", 15, 15), nil, 15},
		{sessionKey("k", 30, 30), nil, 30},
		{sessionKey("k", 15, 30), long(3), 30},
	})
	check(t, "changelog", d.Changelog("sessions"), []kv{
		{sessionKey("k", 0, 0), long(1), 0},
		{sessionKey("k", 30, 30), long(1), 30},
		{sessionKey("k", 15, 15), long(1), 15},
		{sessionKey("k", 15, 15), nil, 22},
		{sessionKey("k", 30, 30), nil, 22},
		{sessionKey("k", 15, 30), long(3), 22},
	})
	// Kafka Streams 4.4 drops a session ending before stream time minus grace
	// minus gap: after 100, that is 100-20-10 = 70.
	if err := in.Pipe("other", "v", 100); err != nil {
		t.Fatal(err)
	}
	if err := in.Pipe("late", "v", 69); err != nil {
		t.Fatal(err)
	}
	if err := in.Pipe("late", "v", 70); err != nil {
		t.Fatal(err)
	}
	if len(d.Dropped()) != 1 {
		t.Errorf("dropped %+v", d.Dropped())
	}
}

func TestTableSourceMaterializesAndForwards(t *testing.T) {
	b := kstreams.NewStreamsBuilder()
	kstreams.Table(b, "users", kstreams.ConsumedWith[string, string](serde.String{}, serde.String{}),
		kstreams.MaterializedAs[string, string]("users-store")).ToStream().To("users-out")
	d := build(t, b, kstreamstest.Config{ApplicationID: "app"})
	in := kstreamstest.NewInputTopic(d, "users", serde.String{}, serde.String{})
	if err := in.Pipe("u1", "alice", 5); err != nil {
		t.Fatal(err)
	}
	if err := in.PipeNullValue("u1", 6); err != nil {
		t.Fatal(err)
	}
	check(t, "out", d.Records("users-out"), []kv{{"u1", []byte("alice"), 5}, {"u1", nil, 6}})
	check(t, "changelog", d.Changelog("users-store"), []kv{{"u1", []byte("alice"), 5}, {"u1", nil, 6}})
}

func TestMissingDefaultSerdeFailsTaskCreation(t *testing.T) {
	b := kstreams.NewStreamsBuilder()
	kstreams.Stream[string, string](b, []string{"in"}).To("out")
	d := build(t, b, kstreamstest.Config{})
	if err := d.Pipe("in", []byte("k"), []byte("v"), 1); err == nil {
		t.Fatal("expected an error without serdes")
	}
}

func TestWindowedSinkPartitionsByBaseKey(t *testing.T) {
	b := kstreams.NewStreamsBuilder()
	g := kstreams.Stream(b, []string{"in"}, kstreams.ConsumedWith[string, string](serde.String{}, serde.String{})).GroupByKey()
	kstreams.WindowedBy(g, kstreams.TimeWindowsOfSizeWithNoGrace(10*time.Millisecond)).Count().ToStream().
		To("out", kstreams.Produced[kstreams.Windowed[string], int64]{ValueSerde: serde.Long{}})
	d := build(t, b, kstreamstest.Config{Partitions: 8, DefaultKeySerde: serde.Erase[string](serde.String{})})
	in := kstreamstest.NewInputTopic(d, "in", serde.String{}, serde.String{})
	for i, k := range []string{"alpha", "beta", "gamma", "delta", "alpha"} {
		if err := in.Pipe(k, "v", int64(i*7)); err != nil {
			t.Fatal(err)
		}
	}
	for _, r := range d.Records("out") {
		base := r.Key[:len(r.Key)-8]
		if want := kstreams.DefaultPartition(base, 8); r.Partition != want {
			t.Errorf("%q in partition %d, want %d (hash of the key without its window)", base, r.Partition, want)
		}
	}
}

func TestSerdeTypeMismatchFailsTheRecordNotTheProcess(t *testing.T) {
	b := kstreams.NewStreamsBuilder()
	src := kstreams.Stream[string, int64](b, []string{"in"})
	kstreams.MapValues(src, func(v int64) int64 { return v + 1 }).To("out")
	d := build(t, b, kstreamstest.Config{DefaultKeySerde: serde.Erase[string](serde.String{}), DefaultValueSerde: serde.Erase[string](serde.String{})})
	err := d.Pipe("in", []byte("k"), []byte("v"), 1)
	if !errors.Is(err, kstreams.ErrValueType) {
		t.Fatalf("got %v", err)
	}
	var pe *kstreams.ProcessError
	if !errors.As(err, &pe) || pe.Offset != 0 || pe.Topic != "in" {
		t.Fatalf("not a ProcessError with the record's position: %v", err)
	}
}

// A cache too small for the working set evicts least recently used entries,
// flushing the dirty ones, so every count still reaches the output and the
// changelog, and both agree.
func TestSmallCacheEvictsAndFlushes(t *testing.T) {
	b := kstreams.NewStreamsBuilder()
	src := kstreams.Stream(b, []string{"in"}, kstreams.ConsumedWith[string, string](serde.String{}, serde.String{}))
	kstreams.FlatMapValues(src, strings.Fields).GroupByKey().Count(kstreams.MaterializedAs[string, int64]("counts")).
		ToStream().To("out", kstreams.ProducedWith[string, int64](serde.String{}, serde.Long{}))
	d := build(t, b, kstreamstest.Config{Caching: true, CacheMaxBytes: 300})
	want := map[string]int64{}
	for i := 0; i < 50; i++ {
		k := string(rune('a' + i%13))
		line := strings.Repeat("w ", i%4+1)
		want[k] += int64(i%4 + 1)
		pipe(t, d, "in", k, line, int64(i))
	}
	last := map[string]int64{}
	for _, r := range d.Records("out") {
		last[string(r.Key)] = int64(binary.BigEndian.Uint64(r.Value))
	}
	logged := map[string]int64{}
	for _, r := range d.Changelog("counts") {
		logged[string(r.Key)] = int64(binary.BigEndian.Uint64(r.Value))
	}
	for k, n := range want {
		if last[k] != n || logged[k] != n {
			t.Errorf("%s: output %d changelog %d, want %d", k, last[k], logged[k], n)
		}
	}
	if got := len(d.Records("out")); got != 50 {
		t.Errorf("%d outputs, want one per input record", got)
	}
}

// One record updating many hopping windows overflows a tiny cache with dirty
// entries: evicting one flushes them all, and the final state is the one
// without a cache.
func TestDirtyEvictionKeepsFinalState(t *testing.T) {
	final := func(cfg kstreamstest.Config) map[string]string {
		b := kstreams.NewStreamsBuilder()
		g := kstreams.Stream(b, []string{"in"}, kstreams.ConsumedWith[string, string](serde.String{}, serde.String{})).GroupByKey()
		kstreams.WindowedBy(g, kstreams.TimeWindowsOfSizeAndGrace(50*time.Millisecond, time.Second).AdvanceBy(time.Millisecond)).
			Count(kstreams.MaterializedAs[string, int64]("w")).ToStream().
			To("out", kstreams.ProducedWith[kstreams.Windowed[string], int64](serde.TimeWindowed[string]{Inner: serde.String{}, WindowSize: 50}, serde.Long{}))
		d := build(t, b, cfg)
		for i, ts := range []int64{100, 120, 90, 130, 100} {
			pipe(t, d, "in", string(rune('a'+i%2)), "v", ts)
		}
		out := map[string]string{}
		for _, r := range d.Records("out") {
			out[string(r.Key)] = string(r.Value)
		}
		logged := map[string]string{}
		for _, r := range d.Changelog("w") {
			logged[string(r.Key[:len(r.Key)-4])] = string(r.Value)
		}
		for k, v := range out {
			if logged[k] != v {
				t.Errorf("changelog and output disagree on %x", k)
			}
		}
		return out
	}
	want := final(kstreamstest.Config{ApplicationID: "test"})
	got := final(kstreamstest.Config{ApplicationID: "test", Caching: true, CacheMaxBytes: 400})
	if len(got) != len(want) {
		t.Fatalf("%d windows, want %d", len(got), len(want))
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("window %x: %x, want %x", k, got[k], v)
		}
	}
}
