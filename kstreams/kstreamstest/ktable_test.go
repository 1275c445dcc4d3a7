package kstreamstest_test

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/kstreamstest"
	"github.com/stoatflow/stoatflow/kstreams/serde"
)

func even(_ string, v string) bool {
	n, err := strconv.Atoi(v)
	return err == nil && n%2 == 0
}

// pipeFilterInput is KTableFilterTest's input: A, B, C = 1; A = 2 (15),
// B = 2 (8); A = 3 (20); A and B deleted (10, 20).
func pipeFilterInput(t *testing.T, d *kstreamstest.Driver, topic string) {
	t.Helper()
	for _, r := range []struct {
		k, v string
		ts   int64
	}{{"A", "1", 5}, {"B", "1", 10}, {"C", "1", 15}, {"A", "2", 15}, {"B", "2", 8}, {"A", "3", 20}, {"A", "", 10}, {"B", "", 20}} {
		var v []byte
		if r.v != "" {
			v = []byte(r.v)
		}
		if err := d.Pipe(topic, []byte(r.k), v, r.ts); err != nil {
			t.Fatal(err)
		}
	}
}

func stringTable(b *kstreams.StreamsBuilder, topic string, m ...kstreams.Materialized[string, string]) *kstreams.KTable[string, string] {
	return kstreams.Table(b, topic, kstreams.ConsumedWith[string, string](serde.String{}, serde.String{}), m...)
}

// KTableFilterTest.testNotSendingOldValue: over an unmaterialized source the
// filter cannot know the old value, so every rejected update is a tombstone.
func TestTableFilterWithoutOldValuesForwardsEveryTombstone(t *testing.T) {
	b := kstreams.NewStreamsBuilder()
	tbl := stringTable(b, "in")
	tbl.ToStream().To("all")
	tbl.Filter(even).ToStream().To("even")
	d := build(t, b, stringDefaults)
	pipeFilterInput(t, d, "in")
	check(t, "all", d.Records("all"), []kv{{"A", []byte("1"), 5}, {"B", []byte("1"), 10}, {"C", []byte("1"), 15},
		{"A", []byte("2"), 15}, {"B", []byte("2"), 8}, {"A", []byte("3"), 20}, {"A", nil, 10}, {"B", nil, 20}})
	check(t, "even", d.Records("even"), []kv{{"A", nil, 5}, {"B", nil, 10}, {"C", nil, 15},
		{"A", []byte("2"), 15}, {"B", []byte("2"), 8}, {"A", nil, 20}, {"A", nil, 10}, {"B", nil, 20}})
}

// KTableFilterTest.testSendingOldValue (materialized parent): a tombstone
// goes downstream only for a row whose old value passed.
func TestTableFilterOverMaterializedSourceSkipsNeedlessTombstones(t *testing.T) {
	for _, not := range []bool{false, true} {
		b := kstreams.NewStreamsBuilder()
		tbl := stringTable(b, "in", kstreams.MaterializedAs[string, string]("source-store"))
		if not {
			tbl.FilterNot(func(k, v string) bool { return !even(k, v) }).ToStream().To("even")
		} else {
			tbl.Filter(even).ToStream().To("even")
		}
		d := build(t, b, stringDefaults)
		pipeFilterInput(t, d, "in")
		check(t, "even", d.Records("even"), []kv{{"A", []byte("2"), 15}, {"B", []byte("2"), 8}, {"A", nil, 20}, {"B", nil, 20}})
	}
}

// KTableFilterTest.shouldSkipNullOnMaterialization and
// shouldNotSkipNullOnMaterialization: a materialized filter reads old values
// from its own store only when something downstream asks; its parent's
// materialization decides whether rejected new rows become tombstones.
func TestMaterializedTableFilter(t *testing.T) {
	for _, srcMat := range []bool{false, true} {
		b := kstreams.NewStreamsBuilder()
		var m []kstreams.Materialized[string, string]
		if srcMat {
			m = append(m, kstreams.MaterializedAs[string, string]("source-store"))
		}
		f := stringTable(b, "in", m...).Filter(func(_, v string) bool { return v != "reject" },
			kstreams.MaterializedAs[string, string]("filter-store"))
		if f.QueryableStoreName() != "filter-store" {
			t.Fatalf("QueryableStoreName = %q", f.QueryableStoreName())
		}
		f.ToStream().To("out")
		d := build(t, b, stringDefaults)
		for i, v := range []string{"reject", "reject", "ok", "reject"} {
			if err := d.Pipe("in", []byte(string(rune('A'+i%3))), []byte(v), int64(5*(i+1))); err != nil {
				t.Fatal(err)
			}
		}
		// A reject, B reject, C ok, A reject again.
		want := []kv{{"A", nil, 5}, {"B", nil, 10}, {"C", []byte("ok"), 15}, {"A", nil, 20}}
		if srcMat {
			want = []kv{{"C", []byte("ok"), 15}}
		}
		check(t, "out", d.Records("out"), want)
		changelog := d.Changelog("filter-store")
		if srcMat {
			check(t, "changelog", changelog, []kv{{"C", []byte("ok"), 15}})
		} else {
			check(t, "changelog", changelog, want)
		}
	}
}

// KTableMapValuesTest: the mapper sees key and value, never a deletion; a
// materialized result has its own store and changelog.
func TestTableMapValues(t *testing.T) {
	for _, mat := range []bool{false, true} {
		b := kstreams.NewStreamsBuilder()
		tbl := stringTable(b, "in")
		calls := 0
		var opts []kstreams.AggOption[string, int64]
		if mat {
			opts = append(opts, kstreams.Materialized[string, int64]{Name: "len-store", ValueSerde: serde.Long{}})
		}
		lens := kstreams.MapTableValues(tbl, func(k, v string) int64 { calls++; return int64(len(k + v)) }, opts...)
		kstreams.MapTableValues(lens, func(_ string, n int64) string { return strconv.FormatInt(n, 10) }).
			ToStream().To("out")
		d := build(t, b, stringDefaults)
		pipeFilterInput(t, d, "in")
		check(t, "out", d.Records("out"), []kv{{"A", []byte("2"), 5}, {"B", []byte("2"), 10}, {"C", []byte("2"), 15},
			{"A", []byte("2"), 15}, {"B", []byte("2"), 8}, {"A", []byte("2"), 20}, {"A", nil, 10}, {"B", nil, 20}})
		if calls != 6 {
			t.Errorf("mapper called %d times, want 6 (never for a deletion)", calls)
		}
		cl := d.Changelog("len-store")
		if !mat && len(cl) != 0 {
			t.Errorf("unmaterialized mapValues has a changelog: %+v", cl)
		}
		if mat && len(cl) != 8 || mat && cl[7].Value != nil {
			t.Errorf("len-store changelog = %+v, want 8 records ending in a tombstone", cl)
		}
	}
}

// A materialized filter feeding a mapValues: the chain of the differential
// test, with caching on (old values then come from the stores).
func TestTableChainWithCaching(t *testing.T) {
	for _, caching := range []bool{false, true} {
		b := kstreams.NewStreamsBuilder()
		tbl := stringTable(b, "in", kstreams.MaterializedAs[string, string]("source-store"))
		f := tbl.Filter(even, kstreams.MaterializedAs[string, string]("even-store"))
		kstreams.MapTableValues(f, func(k, v string) string { return k + "=" + v }).ToStream().To("out")
		cfg := stringDefaults
		cfg.Caching = caching
		d := build(t, b, cfg)
		pipeFilterInput(t, d, "in")
		check(t, "out", d.Records("out"), []kv{{"A", []byte("A=2"), 15}, {"B", []byte("B=2"), 8}, {"A", nil, 20}, {"B", nil, 20}})
		check(t, "even-store changelog", d.Changelog("even-store"),
			[]kv{{"A", []byte("2"), 15}, {"B", []byte("2"), 8}, {"A", nil, 20}, {"B", nil, 20}})
	}
}

// KStreamImpl.toTable: updates and deletions of a stream become a table;
// a null key is dropped; a changed key repartitions, and a computed "" is a
// key like any other.
func TestStreamToTable(t *testing.T) {
	b := kstreams.NewStreamsBuilder()
	src := stringStream(b, "in")
	src.ToTable(kstreams.MaterializedAs[string, string]("t-store")).Filter(func(_, v string) bool { return v != "x" }).
		ToStream().To("out")
	kstreams.SelectKey(src, func(k, _ string) string { return strings.ToLower(k) }).ToTable().ToStream().To("lower")
	d := build(t, b, stringDefaults)
	for _, r := range []struct {
		k, v []byte
		ts   int64
	}{{[]byte("A"), []byte("1"), 1}, {[]byte("A"), []byte("x"), 2}, {nil, []byte("2"), 3}, {[]byte("A"), nil, 4}, {[]byte("B"), []byte("x"), 5}} {
		if err := d.Pipe("in", r.k, r.v, r.ts); err != nil {
			t.Fatal(err)
		}
	}
	check(t, "out", d.Records("out"), []kv{{"A", []byte("1"), 1}, {"A", nil, 2}})
	check(t, "changelog", d.Changelog("t-store"), []kv{{"A", []byte("1"), 1}, {"A", []byte("x"), 2}, {"A", nil, 4}, {"B", []byte("x"), 5}})
	// The selector over string keys sees the null key as "" and gives back
	// the key "", which is a key: the record is re-keyed and kept.
	check(t, "lower", d.Records("lower"), []kv{{"a", []byte("1"), 1}, {"a", []byte("x"), 2}, {"", []byte("2"), 3}, {"a", nil, 4}, {"b", []byte("x"), 5}})
	if got := len(d.Dropped()); got != 1 {
		t.Errorf("dropped %d records, want 1 (the null key): %+v", got, d.Dropped())
	}
}

// A windowed aggregation always holds the old aggregate, so a filter over it
// (KTableFilter asks its parent for old values) forwards nothing while a
// window's count has not passed yet, rather than a tombstone per update.
func TestTableFilterOverWindowedCounts(t *testing.T) {
	atLeastTwo := func(_ kstreams.Windowed[string], n int64) bool { return n >= 2 }
	show := func(k kstreams.Windowed[string], n int64) (string, string) {
		return k.Key + "@" + strconv.FormatInt(k.Window.Start, 10), strconv.FormatInt(n, 10)
	}
	for _, caching := range []bool{false, true} {
		b := kstreams.NewStreamsBuilder()
		src := stringStream(b, "in")
		timed := kstreams.WindowedBy(src.GroupByKey(), kstreams.TimeWindowsOfSizeWithNoGrace(10*time.Second)).Count()
		kstreams.Map(timed.Filter(atLeastTwo).ToStream(), show).To("timed")
		sessions := kstreams.WindowedBySession(kstreams.GroupBy(src, func(k, _ string) string { return k }),
			kstreams.SessionWindowsOfInactivityGapWithNoGrace(5*time.Second)).Count()
		kstreams.Map(sessions.Filter(atLeastTwo).ToStream(), show).To("sessions")
		cfg := stringDefaults
		cfg.Caching = caching
		d := build(t, b, cfg)
		for _, r := range []struct {
			k  string
			ts int64
		}{{"A", 0}, {"A", 1000}, {"B", 2000}, {"A", 3000}, {"A", 60000}} {
			if err := d.Pipe("in", []byte(r.k), []byte("x"), r.ts); err != nil {
				t.Fatal(err)
			}
		}
		check(t, "timed", d.Records("timed"), []kv{{"A@0", []byte("2"), 1000}, {"A@0", []byte("3"), 3000}})
		// The merge of [0,0] into [0,1000] retracts a count of 1 (never passed):
		// nothing; [0,1000] is retracted when A@3000 merges it, with a count of
		// 2 that passed: a tombstone.
		check(t, "sessions", d.Records("sessions"), []kv{{"A@0", []byte("2"), 1000}, {"A@0", nil, 1000}, {"A@0", []byte("3"), 3000}})
	}
}
