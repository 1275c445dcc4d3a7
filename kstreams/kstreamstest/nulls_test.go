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

var nullableString = serde.Nullable[string](serde.String{})

var stringDefaults = kstreamstest.Config{ApplicationID: "app",
	DefaultKeySerde: serde.Erase[string](serde.String{}), DefaultValueSerde: serde.Erase[string](serde.String{})}

// nullableStringDefaults reads the same String keys as *string, nil for
// null: the key type of a topology that keeps or makes null keys through key
// functions.
var nullableStringDefaults = kstreamstest.Config{ApplicationID: "app",
	DefaultKeySerde: serde.Erase[*string](serde.Nullable[string](serde.String{})), DefaultValueSerde: serde.Erase[string](serde.String{})}

// pipeAll pipes key "k" with "a", a tombstone and "" at timestamps 1, 2, 3.
func pipeAll(t *testing.T, d *kstreamstest.Driver, topic string) {
	t.Helper()
	for i, v := range [][]byte{[]byte("a"), nil, []byte("")} {
		if err := d.Pipe(topic, []byte("k"), v, int64(i+1)); err != nil {
			t.Fatal(err)
		}
	}
}

func TestStatelessOperatorsOverStringsKeepTombstones(t *testing.T) {
	b := kstreams.NewStreamsBuilder()
	src := stringStream(b, "in")
	calls := 0
	kstreams.MapValues(src, func(v string) string { calls++; return strings.ToUpper(v) }).To("mapvalues")
	src.Filter(func(_, v string) bool { return v != "" }).To("filter")
	src.FilterNot(func(_, v string) bool { return v == "a" }).To("filternot")
	kstreams.Map(src, func(k, v string) (string, string) { return k + "!", v + "?" }).To("map")
	kstreams.FlatMapValues(src, func(v string) []string { return []string{v, v} }).To("flatmapvalues")
	kstreams.FlatMap(src, func(k, v string) []kstreams.KeyValue[string, string] {
		return []kstreams.KeyValue[string, string]{{Key: k + "1", Value: v + "?"}}
	}).To("flatmap")
	kstreams.SelectKey(src, func(k, v string) string { return k + v }).To("selectkey")
	var peeked, each []string
	src.Peek(func(_, v string) { peeked = append(peeked, v) }).To("peek")
	src.Foreach(func(_, v string) { each = append(each, v) })
	branches := src.Split(kstreams.Named("s-")).Branch(func(_, v string) bool { return v == "" }).DefaultBranch()
	branches["s-1"].To("branch-empty")
	branches["s-0"].To("branch-default")
	lengths := kstreams.MapValues(src, func(v string) int64 { return int64(len(v)) })
	kstreams.MapValues(lengths, func(n int64) string { return strconv.FormatInt(n, 10) }).To("int64")
	d := build(t, b, stringDefaults)
	pipeAll(t, d, "in")

	check(t, "mapvalues", d.Records("mapvalues"), []kv{{"k", []byte("A"), 1}, {"k", nil, 2}, {"k", []byte(""), 3}})
	if calls != 2 {
		t.Errorf("MapValues called %d times, want 2 (never for the tombstone)", calls)
	}
	check(t, "filter", d.Records("filter"), []kv{{"k", []byte("a"), 1}, {"k", nil, 2}})
	check(t, "filternot", d.Records("filternot"), []kv{{"k", nil, 2}, {"k", []byte(""), 3}})
	check(t, "map", d.Records("map"), []kv{{"k!", []byte("a?"), 1}, {"k!", nil, 2}, {"k!", []byte("?"), 3}})
	check(t, "flatmapvalues", d.Records("flatmapvalues"), []kv{{"k", []byte("a"), 1}, {"k", []byte("a"), 1}, {"k", nil, 2},
		{"k", []byte(""), 3}, {"k", []byte(""), 3}})
	check(t, "flatmap", d.Records("flatmap"), []kv{{"k1", []byte("a?"), 1}, {"k1", nil, 2}, {"k1", []byte("?"), 3}})
	check(t, "selectkey", d.Records("selectkey"), []kv{{"ka", []byte("a"), 1}, {"k", nil, 2}, {"k", []byte(""), 3}})
	check(t, "peek", d.Records("peek"), []kv{{"k", []byte("a"), 1}, {"k", nil, 2}, {"k", []byte(""), 3}})
	if strings.Join(peeked, "|") != "a|" || strings.Join(each, "|") != "a|" {
		t.Errorf("Peek saw %q, Foreach %q; want [a, \"\"] (no tombstone)", peeked, each)
	}
	check(t, "branch-empty", d.Records("branch-empty"), []kv{{"k", []byte(""), 3}})
	check(t, "branch-default", d.Records("branch-default"), []kv{{"k", []byte("a"), 1}, {"k", nil, 2}})
	check(t, "int64", d.Records("int64"), []kv{{"k", []byte("1"), 1}, {"k", nil, 2}, {"k", []byte("0"), 3}})
}

func TestNullableViewTellsNullFromEmpty(t *testing.T) {
	b := kstreams.NewStreamsBuilder()
	src := stringStream(b, "in")
	view := kstreams.Nullable(src)
	// Java's filter((k, v) -> v != null): the view's own serde applies.
	view.Filter(func(_ string, v *string) bool { return v != nil }).To("present")
	// A serde for the view's type, as a Java Produced would name it.
	view.FilterNot(func(_ string, v *string) bool { return v != nil && *v == "" }).
		To("not-empty", kstreams.ProducedWith[string, *string](serde.String{}, nullableString))
	kstreams.MapValues(view, func(v *string) string {
		if v == nil {
			return "null"
		}
		return "[" + *v + "]"
	}).To("described")
	kstreams.MapValues(view, func(v *string) *string {
		if v != nil && *v == "a" {
			return nil // a nil result is a tombstone
		}
		return v
	}).To("deleted", kstreams.ProducedWith[string, *string](serde.String{}, nullableString))
	kstreams.Map(view, func(k string, v *string) (string, string) {
		if v == nil {
			return k + "-null", "was null"
		}
		return k, *v
	}).To("map")
	var peeked []string
	view.Peek(func(_ string, v *string) {
		if v == nil {
			peeked = append(peeked, "nil")
		} else {
			peeked = append(peeked, strconv.Quote(*v))
		}
	}).To("peek")
	branches := view.Split(kstreams.Named("v-")).Branch(func(_ string, v *string) bool { return v == nil }).DefaultBranch()
	branches["v-1"].To("branch-null")
	d := build(t, b, stringDefaults)
	pipeAll(t, d, "in")

	check(t, "present", d.Records("present"), []kv{{"k", []byte("a"), 1}, {"k", []byte(""), 3}})
	check(t, "not-empty", d.Records("not-empty"), []kv{{"k", []byte("a"), 1}, {"k", nil, 2}})
	check(t, "described", d.Records("described"), []kv{{"k", []byte("[a]"), 1}, {"k", []byte("null"), 2}, {"k", []byte("[]"), 3}})
	check(t, "deleted", d.Records("deleted"), []kv{{"k", nil, 1}, {"k", nil, 2}, {"k", []byte(""), 3}})
	check(t, "map", d.Records("map"), []kv{{"k", []byte("a"), 1}, {"k-null", []byte("was null"), 2}, {"k", []byte(""), 3}})
	check(t, "peek", d.Records("peek"), []kv{{"k", []byte("a"), 1}, {"k", nil, 2}, {"k", []byte(""), 3}})
	if strings.Join(peeked, ",") != `"a",nil,""` {
		t.Errorf("Peek on the view saw %v", peeked)
	}
	check(t, "branch-null", d.Records("branch-null"), []kv{{"k", nil, 2}})
}

func TestNullableViewDescribesAsItsStream(t *testing.T) {
	plain, viewed := kstreams.NewStreamsBuilder(), kstreams.NewStreamsBuilder()
	stringStream(plain, "in").Filter(func(_, v string) bool { return v != "" }).To("out")
	kstreams.Nullable(stringStream(viewed, "in")).Filter(func(_ string, v *string) bool { return v != nil }).To("out")
	p, err := plain.Build()
	if err != nil {
		t.Fatal(err)
	}
	v, err := viewed.Build()
	if err != nil {
		t.Fatal(err)
	}
	if p.Describe().String() != v.Describe().String() {
		t.Errorf("a Nullable view changed describe():\n%s\n%s", p.Describe(), v.Describe())
	}
}

func TestMergingANullableViewWithAPointerStreamFails(t *testing.T) {
	b := kstreams.NewStreamsBuilder()
	view := kstreams.Nullable(stringStream(b, "a"))
	ptrs := kstreams.Stream(b, []string{"b"}, kstreams.ConsumedWith[string, *string](serde.String{}, nullableString))
	view.Merge(ptrs).To("out")
	if _, err := b.Build(); err == nil || !strings.Contains(err.Error(), "Nullable view") {
		t.Fatalf("Build() = %v, want an error about merging a Nullable view", err)
	}
	// Two views of string streams hold the same records: they merge.
	ok := kstreams.NewStreamsBuilder()
	kstreams.Nullable(stringStream(ok, "a")).Merge(kstreams.Nullable(stringStream(ok, "b"))).
		Filter(func(_ string, v *string) bool { return v != nil }).To("out")
	d := build(t, ok, stringDefaults)
	pipeAll(t, d, "b")
	check(t, "out", d.Records("out"), []kv{{"k", []byte("a"), 1}, {"k", []byte(""), 3}})
}

// KStreamAggregate and KStreamReduce skip a record with a null key or value
// and count it as dropped.
func TestGroupedAggregationsSkipNullValues(t *testing.T) {
	b := kstreams.NewStreamsBuilder()
	g := stringStream(b, "in").GroupByKey()
	g.Count().ToStream().To("count", kstreams.ProducedWith[string, int64](serde.String{}, serde.Long{}))
	g.Reduce(func(a, v string) string { return a + "+" + v }).ToStream().To("reduce")
	kstreams.Aggregate(g, func() string { return "" }, func(_, v, a string) string { return a + v + ";" },
		kstreams.Materialized[string, string]{ValueSerde: serde.String{}}).ToStream().To("aggregate")
	// Over the view, the reducer sees pointers; the null value is still skipped.
	kstreams.Nullable(stringStream(b, "in2")).GroupByKey(kstreams.Grouped[string, *string]{ValueSerde: nullableString}).
		Reduce(func(a, v *string) *string { s := *a + "+" + *v; return &s }).ToStream().To("view-reduce")
	d := build(t, b, stringDefaults)
	pipeAll(t, d, "in")
	pipeAll(t, d, "in2")
	check(t, "count", d.Records("count"), []kv{{"k", long(1), 1}, {"k", long(2), 3}})
	check(t, "reduce", d.Records("reduce"), []kv{{"k", []byte("a"), 1}, {"k", []byte("a+"), 3}})
	check(t, "aggregate", d.Records("aggregate"), []kv{{"k", []byte("a;"), 1}, {"k", []byte("a;;"), 3}})
	check(t, "view-reduce", d.Records("view-reduce"), []kv{{"k", []byte("a"), 1}, {"k", []byte("a+"), 3}})
	n := 0
	for _, dr := range d.Dropped() {
		if dr.Reason == "Skipping record due to null key or value." {
			n++
		}
	}
	if n != 4 {
		t.Errorf("dropped %+v, want 4 null-value drops", d.Dropped())
	}
}

// KStreamWindowAggregate hands null values to the aggregator: a windowed
// count counts them; over a string, a null leaves a reduce or aggregate as
// it was, and as a window's first value it is the window's (null) aggregate.
func TestWindowedAggregationsOverNullValues(t *testing.T) {
	b := kstreams.NewStreamsBuilder()
	g := stringStream(b, "in").GroupByKey()
	windows := kstreams.TimeWindowsOfSizeAndGrace(10*time.Second, time.Minute)
	windowed := kstreams.WindowedBy(g, windows)
	plain := func(k kstreams.Windowed[string], v string) (string, string) {
		return k.Key + "@" + strconv.FormatInt(k.Window.Start, 10), v
	}
	counts := kstreams.MapValues(windowed.Count().ToStream(), func(n int64) string { return strconv.FormatInt(n, 10) })
	kstreams.Map(counts, plain).To("count")
	reducerCalls := 0
	kstreams.Map(windowed.Reduce(func(a, v string) string { reducerCalls++; return a + "+" + v }).ToStream(), plain).To("reduce")
	kstreams.Map(kstreams.WindowedAggregate(windowed, func() string { return "" }, func(_, v, a string) string { return a + v + ";" },
		kstreams.Materialized[string, string]{ValueSerde: serde.String{}}).ToStream(), plain).To("aggregate")
	d := build(t, b, stringDefaults)
	pipeAll(t, d, "in")
	if err := d.Pipe("in", []byte("j"), nil, 4); err != nil { // the first value of j's window
		t.Fatal(err)
	}
	check(t, "count", d.Records("count"), []kv{{"k@0", []byte("1"), 1}, {"k@0", []byte("2"), 2}, {"k@0", []byte("3"), 3}, {"j@0", []byte("1"), 4}})
	check(t, "reduce", d.Records("reduce"), []kv{{"k@0", []byte("a"), 1}, {"k@0", []byte("a"), 2}, {"k@0", []byte("a+"), 3}, {"j@0", nil, 4}})
	if reducerCalls != 1 {
		t.Errorf("reducer called %d times, want 1 (never with a null)", reducerCalls)
	}
	check(t, "aggregate", d.Records("aggregate"), []kv{{"k@0", []byte("a;"), 1}, {"k@0", []byte("a;"), 2}, {"k@0", []byte("a;;"), 3}, {"j@0", []byte(""), 4}})
}

// KStreamSessionWindowAggregate: null values open and merge sessions (a
// session count counts them), and each merged session is retracted with a
// null that stays null through MapValues and Map over strings.
func TestSessionAggregationsOverNullValues(t *testing.T) {
	b := kstreams.NewStreamsBuilder()
	g := stringStream(b, "in").GroupByKey()
	sessions := kstreams.WindowedBySession(g, kstreams.SessionWindowsOfInactivityGapAndGrace(5*time.Second, time.Minute))
	plain := func(k kstreams.Windowed[string], v string) (string, string) {
		return k.Key + "@" + strconv.FormatInt(k.Window.Start, 10) + "-" + strconv.FormatInt(k.Window.End, 10), v
	}
	counts := kstreams.MapValues(sessions.Count().ToStream(), func(n int64) string { return strconv.FormatInt(n, 10) })
	kstreams.Map(counts, plain).Filter(func(_, v string) bool { return v != "2" }).To("count")
	kstreams.Map(sessions.Reduce(func(a, v string) string { return a + "+" + v }).ToStream(), plain).To("reduce")
	kstreams.Map(kstreams.SessionAggregate(sessions, func() string { return "" }, func(_, v, a string) string { return a + v + ";" },
		func(_, a, c string) string { return a + c }, kstreams.Materialized[string, string]{ValueSerde: serde.String{}}).ToStream(), plain).
		To("aggregate")
	d := build(t, b, stringDefaults)
	for _, r := range []struct {
		v  []byte
		ts int64
	}{{[]byte("a"), 1000}, {nil, 3000}, {[]byte("b"), 20000}, {nil, 30000}, {[]byte("c"), 32000}} {
		if err := d.Pipe("in", []byte("k"), r.v, r.ts); err != nil {
			t.Fatal(err)
		}
	}
	check(t, "count", d.Records("count"), []kv{
		{"k@1000-1000", []byte("1"), 1000},
		{"k@1000-1000", nil, 1000}, // retracted by the null at 3000, whose count of 2 is filtered
		{"k@20000-20000", []byte("1"), 20000},
		{"k@30000-30000", []byte("1"), 30000}, // a null value opens a session
		{"k@30000-30000", nil, 30000},
	})
	check(t, "reduce", d.Records("reduce"), []kv{
		{"k@1000-1000", []byte("a"), 1000}, {"k@1000-1000", nil, 1000}, {"k@1000-3000", []byte("a"), 3000},
		{"k@20000-20000", []byte("b"), 20000},
		{"k@30000-30000", nil, 30000}, // a session whose only value is null has a null aggregate
		{"k@32000-32000", []byte("c"), 32000},
	})
	check(t, "aggregate", d.Records("aggregate"), []kv{
		{"k@1000-1000", []byte("a;"), 1000}, {"k@1000-1000", nil, 1000}, {"k@1000-3000", []byte("a;"), 3000},
		{"k@20000-20000", []byte("b;"), 20000},
		{"k@30000-30000", []byte(""), 30000}, {"k@30000-30000", nil, 30000}, {"k@30000-32000", []byte("c;"), 32000},
	})
}

func TestTableDeletesStayNullThroughMapValuesFilterMap(t *testing.T) {
	b := kstreams.NewStreamsBuilder()
	table := kstreams.Table(b, "users", kstreams.ConsumedWith[string, string](serde.String{}, serde.String{}),
		kstreams.MaterializedAs[string, string]("users-store"))
	upper := kstreams.MapValues(table.ToStream(), strings.ToUpper)
	kept := upper.Filter(func(_, v string) bool { return v != "SKIP" })
	kstreams.Map(kept, func(k, v string) (string, string) { return k + "!", "<" + v + ">" }).To("out")
	d := build(t, b, stringDefaults)
	for i, r := range []struct{ k, v []byte }{
		{[]byte("u1"), []byte("alice")}, {[]byte("u2"), []byte("")}, {[]byte("u1"), nil}, {[]byte("u3"), nil},
		{[]byte("u2"), []byte("skip")}, {nil, []byte("x")},
	} {
		if err := d.Pipe("users", r.k, r.v, int64(i+1)); err != nil {
			t.Fatal(err)
		}
	}
	check(t, "out", d.Records("out"), []kv{{"u1!", []byte("<ALICE>"), 1}, {"u2!", []byte("<>"), 2}, {"u1!", nil, 3}, {"u3!", nil, 4}})
	check(t, "changelog", d.Changelog("users-store"), []kv{{"u1", []byte("alice"), 1}, {"u2", []byte(""), 2}, {"u1", nil, 3},
		{"u3", nil, 4}, {"u2", []byte("skip"), 5}})
	if len(d.Dropped()) != 1 || d.Dropped()[0].Reason != "Skipping record due to null key." {
		t.Errorf("dropped %+v, want the null-key record", d.Dropped())
	}
}

// echo forwards what it receives, and a record of its own: the value "seen"
// with the flags it got, so the test sees what Process was handed.
type echo struct {
	ctx kstreams.TypedContext[string, string]
}

func (p *echo) Init(ctx kstreams.TypedContext[string, string]) error { p.ctx = ctx; return nil }
func (p *echo) Close() error                                         { return nil }

func (p *echo) Process(r kstreams.TypedRecord[string, string]) error {
	if err := p.ctx.Forward(r); err != nil {
		return err
	}
	seen := kstreams.TypedRecord[string, string]{Key: "seen", Value: strconv.Quote(r.Key) + strconv.FormatBool(r.KeyNull) + " " +
		strconv.Quote(r.Value) + strconv.FormatBool(r.ValueNull), Timestamp: r.Timestamp}
	return p.ctx.Forward(seen)
}

type viewEcho struct {
	ctx kstreams.TypedContext[string, string]
}

func (p *viewEcho) Init(ctx kstreams.TypedContext[string, string]) error { p.ctx = ctx; return nil }
func (p *viewEcho) Close() error                                         { return nil }

func (p *viewEcho) Process(r kstreams.TypedRecord[string, *string]) error {
	v := "nil"
	if r.Value != nil {
		v = strconv.Quote(*r.Value)
	}
	return p.ctx.Forward(kstreams.TypedRecord[string, string]{Key: r.Key, Value: v, Timestamp: r.Timestamp})
}

func TestTypedProcessorSeesNullsAsNulls(t *testing.T) {
	b := kstreams.NewStreamsBuilder()
	src := stringStream(b, "in")
	kstreams.ProcessTyped(src, func() kstreams.TypedProcessor[string, string, string, string] { return &echo{} }, "echo").
		To("echo", kstreams.ProducedWith[string, string](serde.String{}, serde.String{}))
	kstreams.ProcessTyped(kstreams.Nullable(src), func() kstreams.TypedProcessor[string, *string, string, string] { return &viewEcho{} }, "view").
		To("view", kstreams.ProducedWith[string, string](serde.String{}, serde.String{}))
	d := build(t, b, stringDefaults)
	pipeAll(t, d, "in")
	if err := d.Pipe("in", nil, []byte("v"), 4); err != nil {
		t.Fatal(err)
	}
	check(t, "echo", d.Records("echo"), []kv{
		{"k", []byte("a"), 1}, {"seen", []byte(`"k"false "a"false`), 1},
		{"k", nil, 2}, {"seen", []byte(`"k"false ""true`), 2},
		{"k", []byte(""), 3}, {"seen", []byte(`"k"false ""false`), 3},
		{"", []byte("v"), 4}, {"seen", []byte(`""true "v"false`), 4},
	})
	typed, err := kstreamstest.ReadOutput(d, "echo", serde.String{}, serde.String{})
	if err != nil {
		t.Fatal(err)
	}
	if r := typed[6]; !r.KeyNull || r.ValueNull || r.Value != "v" {
		t.Errorf("a null key forwarded back came out as %+v, want a null key", r)
	}
	if r := typed[2]; r.KeyNull || !r.ValueNull {
		t.Errorf("a tombstone forwarded back came out as %+v, want a null value", r)
	}
	if r := typed[4]; r.KeyNull || r.ValueNull || r.Value != "" {
		t.Errorf(`an empty value forwarded back came out as %+v, want ""`, r)
	}
	check(t, "view", d.Records("view"), []kv{{"k", []byte(`"a"`), 1}, {"k", []byte("nil"), 2}, {"k", []byte(`""`), 3}, {"", []byte(`"v"`), 4}})
}

// recordKeys shows the keys of topic's records: <null> for Kafka's null,
// the quoted bytes otherwise ("" for an empty key).
func recordKeys(d *kstreamstest.Driver, topic string) string {
	var out []string
	for _, r := range d.Records(topic) {
		if r.Key == nil {
			out = append(out, "<null>")
		} else {
			out = append(out, strconv.Quote(string(r.Key)))
		}
	}
	return strings.Join(out, " ")
}

// TestKeyFunctionsNeverTurnAnEmptyKeyIntoNull: over string keys a key
// function's "" is a key, as Java's "" is, whether the record came with a
// null key (which the function saw as "") or with an empty one.
func TestKeyFunctionsNeverTurnAnEmptyKeyIntoNull(t *testing.T) {
	b := kstreams.NewStreamsBuilder()
	src := stringStream(b, "in")
	kstreams.Map(src, func(k, v string) (string, string) { return k, v + "!" }).To("map-same-key")
	kstreams.Map(src, func(k, v string) (string, string) { return k + v, v }).To("map-computed-key")
	kstreams.SelectKey(src, func(k, _ string) string { return k }).To("selectkey-same")
	kstreams.SelectKey(src, func(_, v string) string { return v }).To("selectkey-value")
	kstreams.FlatMap(src, func(k, v string) []kstreams.KeyValue[string, string] {
		return []kstreams.KeyValue[string, string]{{Key: k, Value: v}, {Key: "x" + k, Value: v}}
	}).To("flatmap")
	d := build(t, b, stringDefaults)
	for _, r := range []struct{ k, v []byte }{{nil, []byte("a")}, {[]byte(""), []byte("b")}, {nil, []byte("")}} {
		if err := d.Pipe("in", r.k, r.v, 1); err != nil {
			t.Fatal(err)
		}
	}
	for topic, want := range map[string]string{
		"map-same-key":     `"" "" ""`,
		"map-computed-key": `"a" "b" ""`,
		"selectkey-same":   `"" "" ""`,
		"selectkey-value":  `"a" "b" ""`,
		"flatmap":          `"" "x" "" "x" "" "x"`,
	} {
		if got := recordKeys(d, topic); got != want {
			t.Errorf("%s keys = %s, want %s", topic, got, want)
		}
	}
}

// TestKeyFunctionsGiveNullForNil: a key function's nil (of a pointer key
// type) is Kafka's null, and over keys read as pointers a null key reaches
// the function as nil, so Java's k -> k keeps it null while a "" stays "".
func TestKeyFunctionsGiveNullForNil(t *testing.T) {
	b := kstreams.NewStreamsBuilder()
	src := kstreams.Stream[*string, string](b, []string{"in"})
	same := func(k *string, _ string) *string { return k }
	kstreams.Map(src, func(k *string, v string) (*string, string) { return k, v + "!" }).To("map-same-key")
	kstreams.SelectKey(src, same).To("selectkey-same")
	kstreams.SelectKey(src, func(_ *string, v string) *string {
		if v == "none" {
			return nil
		}
		return &v
	}).To("selectkey-value")
	kstreams.FlatMap(src, func(k *string, v string) []kstreams.KeyValue[*string, string] {
		return []kstreams.KeyValue[*string, string]{{Key: k, Value: v}}
	}).To("flatmap")
	d := build(t, b, nullableStringDefaults)
	for _, r := range []struct{ k, v []byte }{{nil, []byte("a")}, {[]byte(""), []byte("")}, {[]byte("k"), []byte("none")}} {
		if err := d.Pipe("in", r.k, r.v, 1); err != nil {
			t.Fatal(err)
		}
	}
	for topic, want := range map[string]string{
		"map-same-key":    `<null> "" "k"`,
		"selectkey-same":  `<null> "" "k"`,
		"selectkey-value": `"a" "" <null>`,
		"flatmap":         `<null> "" "k"`,
	} {
		if got := recordKeys(d, topic); got != want {
			t.Errorf("%s keys = %s, want %s", topic, got, want)
		}
	}
}

// TestGroupByCountsEmptyKeysAndDropsNullOnes is KStreamImpl.groupBy followed
// by count: the mapper's "" is a key, written to the repartition topic and
// counted, whatever the record's own key; its null goes no further than the
// repartition's filter, which drops it unseen (KStreamFilter records no
// drop). Grouped by key, a record with a null key or value reaches
// KStreamAggregate, which skips it as a dropped record.
func TestGroupByCountsEmptyKeysAndDropsNullOnes(t *testing.T) {
	const skipped = "Skipping record due to null key or value."
	counts := kstreams.ProducedWith[string, int64](serde.String{}, serde.Long{})
	t.Run("string keys", func(t *testing.T) {
		b := kstreams.NewStreamsBuilder()
		src := stringStream(b, "in")
		kstreams.GroupBy(src, func(_, v string) string { return v }).Count().ToStream().To("by-value", counts)
		src.GroupByKey().Count().ToStream().To("by-key", counts)
		d := build(t, b, stringDefaults)
		for _, r := range []struct{ k, v []byte }{
			{nil, []byte("")}, {nil, []byte("a")}, {[]byte("k"), []byte("")}, {[]byte(""), []byte("a")}, {nil, []byte("")},
		} {
			if err := d.Pipe("in", r.k, r.v, 1); err != nil {
				t.Fatal(err)
			}
		}
		check(t, "by-value", d.Records("by-value"), []kv{{"", long(1), 1}, {"a", long(1), 1}, {"", long(2), 1}, {"a", long(2), 1}, {"", long(3), 1}})
		if got, want := recordKeys(d, "by-value"), `"" "a" "" "a" ""`; got != want {
			t.Errorf("by-value keys = %s, want %s", got, want)
		}
		// Grouped by key: the null keys are skipped, the empty one counted.
		check(t, "by-key", d.Records("by-key"), []kv{{"k", long(1), 1}, {"", long(1), 1}})
		if got, want := recordKeys(d, "by-key"), `"k" ""`; got != want {
			t.Errorf("by-key keys = %s, want %s", got, want)
		}
		if dr := d.Dropped(); len(dr) != 3 || dr[0].Reason != skipped {
			t.Errorf("dropped %+v, want the three null keys skipped by the count grouped by key", dr)
		}
	})
	t.Run("pointer keys", func(t *testing.T) {
		// Java's groupBy((k, v) -> v == null || v.equals("none") ? null : v)
		// and groupByKey(), each counted.
		b := kstreams.NewStreamsBuilder()
		src := kstreams.Stream[*string, string](b, []string{"in"})
		nullableCounts := kstreams.ProducedWith[*string, int64](nullableString, serde.Long{})
		kstreams.GroupBy(kstreams.Nullable(src), func(_ *string, v *string) *string {
			if v == nil || *v == "none" {
				return nil
			}
			return v
		}).Count().ToStream().To("by-value", nullableCounts)
		src.GroupByKey().Count().ToStream().To("by-key", nullableCounts)
		d := build(t, b, nullableStringDefaults)
		for _, r := range []struct{ k, v []byte }{
			{nil, []byte("none")}, {nil, []byte("")}, {[]byte("k"), []byte("none")}, {[]byte("k"), nil}, {[]byte(""), []byte("")},
		} {
			if err := d.Pipe("in", r.k, r.v, 1); err != nil {
				t.Fatal(err)
			}
		}
		// The nil keys never reach the repartition topic.
		var through []string
		for _, topic := range d.Topics() {
			if strings.HasSuffix(topic, "-repartition") {
				for _, r := range d.Records(topic) {
					through = append(through, strconv.Quote(string(r.Key)))
				}
			}
		}
		if got := strings.Join(through, " "); got != `"" ""` {
			t.Errorf("repartition keys = %s, want the two empty ones", got)
		}
		check(t, "by-value", d.Records("by-value"), []kv{{"", long(1), 1}, {"", long(2), 1}})
		if got := recordKeys(d, "by-value"); got != `"" ""` {
			t.Errorf("by-value keys = %s, want two empty keys", got)
		}
		check(t, "by-key", d.Records("by-key"), []kv{{"k", long(1), 1}, {"", long(1), 1}})
		// Grouped by key: the two null keys and the tombstone are skipped.
		if dr := d.Dropped(); len(dr) != 3 || dr[0].Reason != skipped || dr[2].Reason != skipped {
			t.Errorf("dropped %+v, want the count's three skips", dr)
		}
	})
}

// TestTableGroupByAndGlobalJoinKeepEmptyKeys: the selector of KTable.groupBy
// and the key selector of a global-table join follow the same rule over
// string keys: a "" they return is a key (a group counted under "", the
// global table's row under ""), as in Kafka Streams.
func TestTableGroupByAndGlobalJoinKeepEmptyKeys(t *testing.T) {
	b := kstreams.NewStreamsBuilder()
	str := kstreams.ConsumedWith[string, string](serde.String{}, serde.String{})
	tbl := kstreams.Table(b, "t", str, kstreams.MaterializedAs[string, string]("t-store"))
	kstreams.GroupTableBy(tbl, func(_, v string) (string, string) { return v, v }).Count().ToStream().
		To("counts", kstreams.ProducedWith[string, int64](serde.String{}, serde.Long{}))
	rows := kstreams.GlobalTable(b, "g", str)
	kstreams.JoinGlobal(stringStream(b, "s"), rows, func(_, v string) string { return v },
		func(v, row string) string { return v + "+" + row }).To("joined")
	d := build(t, b, stringDefaults)
	for _, r := range []struct {
		topic string
		k, v  []byte
	}{
		{"g", []byte(""), []byte("empty-row")}, {"s", nil, []byte("")}, {"s", nil, []byte("none")},
		{"t", []byte("u1"), []byte("")}, {"t", []byte("u2"), []byte("x")}, {"t", []byte("u3"), []byte("")},
	} {
		if err := d.Pipe(r.topic, r.k, r.v, 1); err != nil {
			t.Fatal(err)
		}
	}
	check(t, "counts", d.Records("counts"), []kv{{"", long(1), 1}, {"x", long(1), 1}, {"", long(2), 1}})
	if got := recordKeys(d, "counts"); got != `"" "x" ""` {
		t.Errorf("counts keys = %s, want the empty key twice", got)
	}
	check(t, "joined", d.Records("joined"), []kv{{"", []byte("+empty-row"), 1}})
	if got := recordKeys(d, "joined"); got != "<null>" {
		t.Errorf("joined keys = %s, want the stream record's null key", got)
	}
}
