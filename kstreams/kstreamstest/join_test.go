package kstreamstest_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/kstreamstest"
	"github.com/stoatflow/stoatflow/kstreams/serde"
)

// joinInput is one step of AbstractJoinIntegrationTest's input: a value (nil
// for null) under key 0 on the left or right topic.
type joinInput struct {
	topic   string
	value   *string
	ts      int64
	nullKey bool
}

func sp(s string) *string { return &s }

// joinInputs is AbstractJoinIntegrationTest.input, out-of-order records
// and nulls included.
var joinInputs = []joinInput{
	{"left", nil, 1, false}, {"right", nil, 2, false}, {"left", sp("A"), 3, false}, {"right", sp("a"), 4, false},
	{"left", sp("B"), 5, false}, {"right", sp("b"), 6, false}, {"left", nil, 7, false}, {"right", nil, 8, false},
	{"left", sp("C"), 9, false}, {"right", sp("c"), 10, false}, {"right", nil, 11, false}, {"left", nil, 12, false},
	{"right", nil, 13, false}, {"right", sp("d"), 7, false}, {"left", sp("D"), 6, false}, {"left", nil, 2, false},
	{"right", nil, 3, false}, {"right", sp("e"), 14, false}, {"left", sp("E"), 15, false}, {"left", nil, 10, false},
	{"right", nil, 9, false}, {"left", sp("F"), 4, false}, {"right", sp("f"), 3, false},
}

var longString = kstreamstest.Config{ApplicationID: "join",
	DefaultKeySerde: serde.Erase[int64](serde.Long{}), DefaultValueSerde: serde.Erase[string](serde.String{})}

// runJoinMatrix pipes joinInputs and checks each step's output: want[i] is
// "" for nothing, else "value@ts" ("<null>@ts" for a null value), as the
// expected results of Kafka's join integration tests. It returns the driver.
func runJoinMatrix(t *testing.T, b *kstreams.StreamsBuilder, caching bool, want []string) *kstreamstest.Driver {
	t.Helper()
	return runJoinSteps(t, b, caching, joinInputs, want)
}

// pipeJoinInput pipes one step under key 0 (or a null key).
func pipeJoinInput(t *testing.T, d *kstreamstest.Driver, in joinInput) {
	t.Helper()
	var k, v []byte
	if in.value != nil {
		v = []byte(*in.value)
	}
	if !in.nullKey {
		k = make([]byte, 8)
	}
	if err := d.Pipe(in.topic, k, v, in.ts); err != nil {
		t.Fatal(err)
	}
}

func runJoinSteps(t *testing.T, b *kstreams.StreamsBuilder, caching bool, inputs []joinInput, want []string) *kstreamstest.Driver {
	t.Helper()
	if len(want) != len(inputs) {
		t.Fatalf("%d expectations for %d inputs", len(want), len(inputs))
	}
	cfg := longString
	cfg.Caching = caching
	d := build(t, b, cfg)
	for i, in := range inputs {
		pipeJoinInput(t, d, in)
		out, err := kstreamstest.ReadOutput(d, "output", serde.Long{}, serde.String{})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range out {
			v := r.Value
			if r.ValueNull {
				v = "<null>"
			}
			if r.Key != 0 || r.KeyNull {
				t.Errorf("step %d: key %d (null %v), want 0", i, r.Key, r.KeyNull)
			}
			got = append(got, fmt.Sprintf("%s@%d", v, r.Timestamp))
		}
		if g := strings.Join(got, ","); g != want[i] {
			t.Errorf("step %d (%s %v@%d): output %q, want %q", i, in.topic, deref(in.value), in.ts, g, want[i])
		}
	}
	return d
}

func deref(s *string) string {
	if s == nil {
		return "<null>"
	}
	return *s
}

func dashJoin(a, b string) string { return a + "-" + b }

// javaString is Java's string concatenation of a possibly null string.
func javaString(s *string) string {
	if s == nil {
		return "null"
	}
	return *s
}

func joinSources(b *kstreams.StreamsBuilder) (*kstreams.KStream[int64, string], *kstreams.KTable[int64, string]) {
	return kstreams.Stream[int64, string](b, []string{"left"}), kstreams.Table(b, "right", kstreams.Consumed[int64, string]{})
}

// StreamTableJoinIntegrationTest.testInner, with and without caching.
func TestStreamTableInnerJoinIntegrationMatrix(t *testing.T) {
	for _, caching := range []bool{false, true} {
		t.Run(fmt.Sprintf("caching=%v", caching), func(t *testing.T) {
			b := kstreams.NewStreamsBuilder()
			s, tbl := joinSources(b)
			kstreams.StreamTableJoin(s, tbl, func(_ int64, v, vo string) string { return dashJoin(v, vo) }).To("output")
			runJoinMatrix(t, b, caching, []string{"", "", "", "", "B-a@5", "", "", "", "", "", "", "", "", "",
				"D-d@6", "", "", "", "E-e@15", "", "", "", ""})
		})
	}
}

// StreamTableJoinIntegrationTest.testLeft, with and without caching: a
// missing table row reaches the joiner as a nil pointer.
func TestStreamTableLeftJoinIntegrationMatrix(t *testing.T) {
	for _, caching := range []bool{false, true} {
		t.Run(fmt.Sprintf("caching=%v", caching), func(t *testing.T) {
			b := kstreams.NewStreamsBuilder()
			s, tbl := joinSources(b)
			kstreams.StreamTableLeftJoin(s, tbl, func(_ int64, v string, vo *string) string { return v + "-" + javaString(vo) }).To("output")
			d := runJoinMatrix(t, b, caching, []string{"", "", "A-null@3", "", "B-a@5", "", "", "", "C-null@9", "", "", "", "", "",
				"D-d@6", "", "", "", "E-e@15", "", "", "F-null@4", ""})
			// The stream's null values (steps 0, 6, 11, 15, 19) are dropped and counted.
			n := 0
			for _, dr := range d.Dropped() {
				if dr.Reason == "Skipping record due to null join key or value." {
					n++
				}
			}
			if n != 5 {
				t.Errorf("%d records dropped for a null join key or value, want 5: %+v", n, d.Dropped())
			}
		})
	}
}

func tableSources(b *kstreams.StreamsBuilder) (*kstreams.KTable[int64, string], *kstreams.KTable[int64, string]) {
	m := func(name string) kstreams.Materialized[int64, string] {
		return kstreams.Materialized[int64, string]{Name: name, LoggingDisabled: true}
	}
	return kstreams.Table(b, "left", kstreams.Consumed[int64, string]{}, m("left")),
		kstreams.Table(b, "right", kstreams.Consumed[int64, string]{}, m("right"))
}

// joinStore is TableTableJoinIntegrationTest's materialized: the result
// store, serdes given, caching and logging off.
var joinStore = kstreams.Materialized[int64, string]{Name: "anyStoreName", KeySerde: serde.Long{}, ValueSerde: serde.String{},
	CachingDisabled: true, LoggingDisabled: true}

// checkJoinStore is AbstractJoinIntegrationTest.checkQueryableStore: the
// result store holds the last result under key 0.
func checkJoinStore(t *testing.T, d *kstreamstest.Driver, value string, ts int64) {
	t.Helper()
	task, ok := d.Task(kstreams.TaskID{})
	if !ok {
		t.Fatal("no task 0_0")
	}
	st, ok := task.Store(joinStore.Name)
	if !ok {
		t.Fatalf("no store %s", joinStore.Name)
	}
	v, gotTs, found, err := st.(*kstreams.TimestampedKeyValueStore).Get(int64(0))
	if err != nil || !found || v != value || gotTs != ts {
		t.Errorf("store %s[0] = %v@%d (found %v, err %v), want %s@%d", joinStore.Name, v, gotTs, found, err, value, ts)
	}
}

// lastOutput is the last record written to output, as "value@ts".
func lastOutput(t *testing.T, d *kstreamstest.Driver) string {
	t.Helper()
	out := d.Records("output")
	if len(out) == 0 {
		t.Fatal("no output")
	}
	r := out[len(out)-1]
	return fmt.Sprintf("%s@%d", r.Value, r.Timestamp)
}

var tableJoinMatrix = map[string]struct {
	join func(l, r *kstreams.KTable[int64, string]) *kstreams.KTable[int64, string]
	want []string
}{
	// TableTableJoinIntegrationTest.testInner.
	"inner": {
		join: func(l, r *kstreams.KTable[int64, string]) *kstreams.KTable[int64, string] {
			return kstreams.TableTableJoin(l, r, dashJoin, kstreams.AggOption[int64, string](joinStore))
		},
		want: []string{"", "", "", "A-a@4", "B-a@5", "B-b@6", "<null>@7", "", "", "C-c@10", "<null>@11", "", "", "",
			"D-d@7", "<null>@7", "", "", "E-e@15", "<null>@14", "", "", "F-f@4"},
	},
	// TableTableJoinIntegrationTest.testLeft.
	"left": {
		join: func(l, r *kstreams.KTable[int64, string]) *kstreams.KTable[int64, string] {
			return kstreams.TableTableLeftJoin(l, r, func(v string, vo *string) string { return v + "-" + javaString(vo) },
				kstreams.AggOption[int64, string](joinStore))
		},
		want: []string{"", "", "A-null@3", "A-a@4", "B-a@5", "B-b@6", "<null>@7", "", "C-null@9", "C-c@10", "C-null@11", "<null>@12", "", "",
			"D-d@7", "<null>@7", "", "", "E-e@15", "<null>@14", "", "F-null@4", "F-f@4"},
	},
	// TableTableJoinIntegrationTest.testOuter.
	"outer": {
		join: func(l, r *kstreams.KTable[int64, string]) *kstreams.KTable[int64, string] {
			return kstreams.TableTableOuterJoin(l, r, func(v, vo *string) string { return javaString(v) + "-" + javaString(vo) },
				kstreams.AggOption[int64, string](joinStore))
		},
		want: []string{"", "", "A-null@3", "A-a@4", "B-a@5", "B-b@6", "null-b@7", "<null>@8", "C-null@9", "C-c@10", "C-null@11", "<null>@12", "",
			"null-d@7", "D-d@7", "null-d@7", "<null>@3", "null-e@14", "E-e@15", "null-e@14", "<null>@9", "F-null@4", "F-f@4"},
	},
}

// TableTableJoinIntegrationTest.testInner, testLeft and testOuter: every
// step without caching; with caching, the last result (F-f at 4); and the
// queryable result store either way.
func TestTableTableJoinIntegrationMatrix(t *testing.T) {
	for name, c := range tableJoinMatrix {
		t.Run(name, func(t *testing.T) {
			b := kstreams.NewStreamsBuilder()
			l, r := tableSources(b)
			c.join(l, r).ToStream().To("output")
			d := runJoinMatrix(t, b, false, c.want)
			checkJoinStore(t, d, "F-f", 4)
		})
		t.Run(name+"/caching", func(t *testing.T) {
			b := kstreams.NewStreamsBuilder()
			l, r := tableSources(b)
			c.join(l, r).ToStream().To("output")
			cfg := longString
			cfg.Caching = true
			d := build(t, b, cfg)
			for _, in := range joinInputs {
				pipeJoinInput(t, d, in)
			}
			if got := lastOutput(t, d); got != "F-f@4" {
				t.Errorf("last output %s, want F-f@4", got)
			}
			checkJoinStore(t, d, "F-f", 4)
		})
	}
}

var intString = kstreamstest.Config{ApplicationID: "join",
	DefaultKeySerde: serde.Erase[int32](serde.Integer{}), DefaultValueSerde: serde.Erase[string](serde.String{})}

func intStreamTable(b *kstreams.StreamsBuilder) (*kstreams.KStream[int32, string], *kstreams.KTable[int32, string]) {
	c := kstreams.ConsumedWith[int32, string](serde.Integer{}, serde.String{})
	return kstreams.Stream(b, []string{"streamTopic"}, c), kstreams.Table(b, "tableTopic", c)
}

type kvt struct {
	k  int32
	v  string
	ts int64
}

func pipeInts(t *testing.T, d *kstreamstest.Driver, topic string, recs ...kvt) {
	t.Helper()
	in := kstreamstest.NewInputTopic(d, topic, serde.Integer{}, serde.String{})
	for _, r := range recs {
		var err error
		if r.v == "<null>" {
			err = in.PipeNullValue(r.k, r.ts)
		} else {
			err = in.Pipe(r.k, r.v, r.ts)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}

func expectInts(t *testing.T, d *kstreamstest.Driver, want ...kvt) {
	t.Helper()
	out, err := kstreamstest.ReadOutput(d, "output", serde.Integer{}, serde.String{})
	if err != nil {
		t.Fatal(err)
	}
	var got []kvt
	for _, r := range out {
		v := r.Value
		if r.ValueNull {
			v = "<null>"
		}
		got = append(got, kvt{r.Key, v, r.Timestamp})
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("output %v, want %v", got, want)
	}
}

func seq(prefix string, n int, ts func(i int) int64) []kvt {
	var out []kvt
	for i := range n {
		out = append(out, kvt{int32(i), fmt.Sprintf("%s%d", prefix, i), ts(i)})
	}
	return out
}

func at(ts int64) func(int) int64 { return func(int) int64 { return ts } }
func byIndex(i int) int64         { return int64(i) }

// KStreamKTableJoinTest.shouldNotJoinOnTableUpdates,
// shouldJoinOnlyIfMatchFoundOnStreamUpdates and
// shouldClearTableEntryOnNullValueUpdates: only stream records join, with
// the table as it is when they arrive.
func TestStreamTableJoinLooksTheTableUpAsOfTheStreamRecord(t *testing.T) {
	b := kstreams.NewStreamsBuilder()
	s, tbl := intStreamTable(b)
	kstreams.StreamTableJoin(s, tbl, func(_ int32, v, vo string) string { return v + "+" + vo }).To("output")
	d := build(t, b, intString)
	pipeInts(t, d, "streamTopic", seq("X", 2, byIndex)...)
	expectInts(t, d)
	pipeInts(t, d, "tableTopic", seq("Y", 2, at(99))...)
	expectInts(t, d)
	pipeInts(t, d, "streamTopic", seq("X", 4, byIndex)...)
	expectInts(t, d, kvt{0, "X0+Y0", 0}, kvt{1, "X1+Y1", 1})
	pipeInts(t, d, "tableTopic", seq("YY", 4, at(7))...)
	expectInts(t, d)
	pipeInts(t, d, "streamTopic", seq("X", 4, byIndex)...)
	expectInts(t, d, kvt{0, "X0+YY0", 0}, kvt{1, "X1+YY1", 1}, kvt{2, "X2+YY2", 2}, kvt{3, "X3+YY3", 3})
	pipeInts(t, d, "tableTopic", kvt{0, "<null>", 0}, kvt{1, "<null>", 0})
	expectInts(t, d)
	pipeInts(t, d, "streamTopic", seq("XX", 4, byIndex)...)
	expectInts(t, d, kvt{2, "XX2+YY2", 2}, kvt{3, "XX3+YY3", 3})
}

// KStreamKTableLeftJoinTest.testJoin and shouldClearTableEntryOnNullValueUpdates:
// every stream record joins, a missing row as a nil *VO.
func TestStreamTableLeftJoinJoinsMissingRows(t *testing.T) {
	b := kstreams.NewStreamsBuilder()
	s, tbl := intStreamTable(b)
	kstreams.StreamTableLeftJoin(s, tbl, func(_ int32, v string, vo *string) string { return v + "+" + javaString(vo) }).To("output")
	d := build(t, b, intString)
	pipeInts(t, d, "streamTopic", seq("X", 2, byIndex)...)
	expectInts(t, d, kvt{0, "X0+null", 0}, kvt{1, "X1+null", 1})
	pipeInts(t, d, "tableTopic", seq("Y", 2, at(0))...)
	expectInts(t, d)
	pipeInts(t, d, "streamTopic", seq("X", 4, byIndex)...)
	expectInts(t, d, kvt{0, "X0+Y0", 0}, kvt{1, "X1+Y1", 1}, kvt{2, "X2+null", 2}, kvt{3, "X3+null", 3})
	pipeInts(t, d, "tableTopic", seq("YY", 4, at(0))...)
	pipeInts(t, d, "tableTopic", kvt{0, "<null>", 0}, kvt{1, "<null>", 0})
	pipeInts(t, d, "streamTopic", seq("XX", 4, byIndex)...)
	expectInts(t, d, kvt{0, "XX0+null", 0}, kvt{1, "XX1+null", 1}, kvt{2, "XX2+YY2", 2}, kvt{3, "XX3+YY3", 3})
}

// KStreamKTableJoinTest.shouldLogAndMeterWhenSkippingNullLeftKey and
// ...NullLeftValue; for a left join, a null key with a value is joined (with
// no row) and keeps its null key, a null value is still dropped.
func TestStreamTableJoinNullKeysAndValues(t *testing.T) {
	for _, left := range []bool{false, true} {
		b := kstreams.NewStreamsBuilder()
		s, tbl := intStreamTable(b)
		if left {
			kstreams.StreamTableLeftJoin(s, tbl, func(k int32, v string, vo *string) string { return fmt.Sprint(k, v, javaString(vo)) }).To("output")
		} else {
			kstreams.StreamTableJoin(s, tbl, func(_ int32, v, vo string) string { return v + vo }).To("output")
		}
		d := build(t, b, intString)
		pipeInts(t, d, "tableTopic", kvt{0, "T", 0})
		if err := d.Pipe("streamTopic", nil, []byte("A"), 1); err != nil {
			t.Fatal(err)
		}
		pipeInts(t, d, "streamTopic", kvt{0, "<null>", 2})
		out := d.Records("output")
		dropped := d.Dropped()
		if left {
			if len(out) != 1 || out[0].Key != nil || string(out[0].Value) != "0Anull" {
				t.Errorf("left join output %+v, want one null-key record 0Anull", out)
			}
			if len(dropped) != 1 {
				t.Errorf("left join dropped %+v, want the null value only", dropped)
			}
		} else {
			if len(out) != 0 {
				t.Errorf("inner join output %+v, want none", out)
			}
			if len(dropped) != 2 {
				t.Errorf("inner join dropped %+v, want the null key and the null value", dropped)
			}
		}
		for _, dr := range dropped {
			if dr.Reason != "Skipping record due to null join key or value." || !strings.HasPrefix(dr.Processor, "KSTREAM-") {
				t.Errorf("dropped %+v", dr)
			}
		}
	}
}

// A stream-table join over a re-keyed stream reads the repartition topic:
// the table is looked up under the new key.
func TestStreamTableJoinAfterKeyChangeRepartitions(t *testing.T) {
	b := kstreams.NewStreamsBuilder()
	s := kstreams.Stream(b, []string{"in"}, kstreams.ConsumedWith[string, string](serde.String{}, serde.String{}))
	tbl := kstreams.Table(b, "t", kstreams.ConsumedWith[string, string](serde.String{}, serde.String{}))
	keyed := kstreams.SelectKey(s, func(_, v string) string { return v })
	kstreams.StreamTableJoin(keyed, tbl, func(k, v, vo string) string { return k + "=" + vo }).To("output")
	d := build(t, b, stringDefaults)
	if err := d.Pipe("t", []byte("x"), []byte("X"), 1); err != nil {
		t.Fatal(err)
	}
	if err := d.Pipe("in", []byte("k"), []byte("x"), 2); err != nil {
		t.Fatal(err)
	}
	check(t, "output", d.Records("output"), []kv{{"x", []byte("x=X"), 2}})
	if n := len(d.Records("app-KSTREAM-KEY-SELECT-0000000004-repartition")); n != 1 {
		t.Errorf("%d records on the repartition topic, want 1 (topics %v)", n, d.Topics())
	}
}

// A forced materialization of a source table writes its changelog
// <app>-<topic>-STATE-STORE-<n>-changelog, as Kafka Streams' does.
func TestStreamTableJoinMaterializesTheSourceTable(t *testing.T) {
	b := kstreams.NewStreamsBuilder()
	s, tbl := intStreamTable(b)
	kstreams.StreamTableJoin(s, tbl, func(_ int32, v, vo string) string { return v + vo }).To("output")
	cfg := intString
	cfg.ApplicationID = "app"
	d := build(t, b, cfg)
	pipeInts(t, d, "tableTopic", kvt{0, "T", 3}, kvt{0, "<null>", 4})
	if got := d.Records("app-tableTopic-STATE-STORE-0000000001-changelog"); len(got) != 2 || got[1].Value != nil {
		t.Errorf("changelog %+v, want the row and its tombstone (topics %v)", got, d.Topics())
	}
}

// A grace period needs a versioned table, which a plain table is not:
// Kafka Streams' IllegalArgumentException.
func TestStreamTableJoinRejectsGraceOnUnversionedTable(t *testing.T) {
	b := kstreams.NewStreamsBuilder()
	s, tbl := intStreamTable(b)
	kstreams.StreamTableJoin(s, tbl, func(_ int32, v, vo string) string { return v + vo },
		kstreams.Joined[int32, string]{}.WithGracePeriod(0)).To("output")
	_, err := b.Build()
	if err == nil || err.Error() != "KTable must be versioned to use a grace period in a stream table join." {
		t.Fatalf("Build: %v", err)
	}
}

// KTableKTableInnerJoinTest.testJoin over unmaterialized sources (both
// materialized by the join) and without a result store: results stamped
// with the larger timestamp, deletions on either side delete.
func TestTableTableJoinOverUnmaterializedSources(t *testing.T) {
	for _, queryable := range []bool{false, true} {
		b := kstreams.NewStreamsBuilder()
		c := kstreams.ConsumedWith[int32, string](serde.Integer{}, serde.String{})
		t1, t2 := kstreams.Table(b, "topic1", c), kstreams.Table(b, "topic2", c)
		var opts []kstreams.AggOption[int32, string]
		if queryable {
			opts = append(opts, kstreams.Materialized[int32, string]{KeySerde: serde.Integer{}, ValueSerde: serde.String{}})
		}
		j := kstreams.TableTableJoin(t1, t2, func(a, b string) string { return a + "+" + b }, opts...)
		j.ToStream().To("output", kstreams.ProducedWith[int32, string](serde.Integer{}, serde.String{}))
		d := build(t, b, intString)
		pipeInts(t, d, "topic1", kvt{0, "X0", 5}, kvt{1, "X1", 6})
		expectInts(t, d)
		pipeInts(t, d, "topic2", kvt{0, "Y0", 0}, kvt{1, "Y1", 10})
		expectInts(t, d, kvt{0, "X0+Y0", 5}, kvt{1, "X1+Y1", 10})
		pipeInts(t, d, "topic1", seq("XX", 4, at(7))...)
		expectInts(t, d, kvt{0, "XX0+Y0", 7}, kvt{1, "XX1+Y1", 10})
		pipeInts(t, d, "topic2", seq("YY", 4, func(i int) int64 { return int64(i) * 5 })...)
		expectInts(t, d, kvt{0, "XX0+YY0", 7}, kvt{1, "XX1+YY1", 7}, kvt{2, "XX2+YY2", 10}, kvt{3, "XX3+YY3", 15})
		pipeInts(t, d, "topic2", kvt{0, "<null>", 5}, kvt{1, "<null>", 7})
		expectInts(t, d, kvt{0, "<null>", 7}, kvt{1, "<null>", 7})
		pipeInts(t, d, "topic1", kvt{0, "<null>", 0}, kvt{1, "<null>", 42}, kvt{2, "<null>", 5}, kvt{3, "<null>", 20})
		// Kafka forwards a deletion of a row the other side lacks only when
		// it does not know the old value (no old values requested here).
		expectInts(t, d, kvt{2, "<null>", 10}, kvt{3, "<null>", 20})
	}
}

// A repartition in front of a join that accepts null keys (a left join)
// lets null-key records through, as Kafka Streams rewrites its repartition
// filters: downstream the left join emits the record, and an aggregation
// between the two drops it with the dropped-records metric instead of the
// filter dropping it unseen. Without such a join the filter drops it.
func TestRepartitionFiltersKeepNullKeysForLeftJoins(t *testing.T) {
	run := func(left bool) (*kstreamstest.Driver, []kstreamstest.Record) {
		b := kstreams.NewStreamsBuilder()
		s := kstreams.Stream[*string, string](b, []string{"in"})
		tbl := kstreams.Table[*string, string](b, "t", kstreams.Consumed[*string, string]{})
		// A nil key is Kafka's null: the record leaves with a null key.
		keyed := kstreams.SelectKey(s, func(_ *string, v string) *string {
			if v == "null-key" {
				return nil
			}
			return &v
		})
		counts := kstreams.MapValues(keyed.GroupByKey().Count().ToStream(), func(n int64) string { return fmt.Sprint(n) })
		if left {
			kstreams.StreamTableLeftJoin(keyed, tbl, func(k *string, v string, vo *string) string { return v + "+" + javaString(vo) }).To("output")
			kstreams.StreamTableLeftJoin(counts, tbl, func(k *string, v string, vo *string) string { return "n" + v }).To("counts")
		} else {
			kstreams.StreamTableJoin(keyed, tbl, func(k *string, v, vo string) string { return v + "+" + vo }).To("output")
			counts.To("counts")
		}
		d := build(t, b, nullableStringDefaults)
		if err := d.Pipe("in", nil, []byte("null-key"), 1); err != nil {
			t.Fatal(err)
		}
		return d, d.Records("output")
	}
	d, out := run(true)
	if len(out) != 1 || out[0].Key != nil || string(out[0].Value) != "null-key+null" {
		t.Errorf("left join output %+v, want the null-key record joined with no row", out)
	}
	if dr := d.Dropped(); len(dr) != 1 || dr[0].Reason != "Skipping record due to null key or value." {
		t.Errorf("dropped %+v, want the count's drop of the null key", dr)
	}
	d, out = run(false)
	if len(out) != 0 || len(d.Dropped()) != 0 {
		t.Errorf("inner join: output %+v, dropped %+v; want the repartition filter to drop the record unseen", out, d.Dropped())
	}
}

// inputWithoutOutOfOrderData is AbstractJoinIntegrationTest's input for the
// chained joins: no out-of-order records, and two null-key records last.
var inputWithoutOutOfOrderData = []joinInput{
	{"left", nil, 1, false}, {"right", nil, 2, false}, {"left", sp("A"), 3, false}, {"right", sp("a"), 4, false},
	{"left", sp("B"), 5, false}, {"right", sp("b"), 6, false}, {"left", nil, 7, false}, {"right", nil, 8, false},
	{"left", sp("C"), 9, false}, {"right", sp("c"), 10, false}, {"right", nil, 11, false}, {"left", nil, 12, false},
	{"right", nil, 13, false}, {"right", sp("d"), 14, false}, {"left", sp("D"), 15, false},
	{"left", sp("E"), 16, true}, {"right", sp("e"), 17, true},
}

// chainedTableJoins are TableTableJoinIntegrationTest's multi-joins:
// leftTable.<first>(rightTable).<second>(rightTable, materialized), with
// the expected results without caching (the duplicates are Kafka Streams'
// own, KAFKA-6443: the right table feeds both joins).
var chainedTableJoins = map[string]struct {
	first, second string
	want          []string
}{
	"inner-inner": {"join", "join", []string{"", "", "", "A-a-a@4,A-a-a@4", "B-a-a@5", "B-b-b@6,B-b-b@6", "<null>@7", "", "", "C-c-c@10,C-c-c@10", "", "", "", "", "D-d-d@15", "", ""}},
	"inner-left":  {"join", "leftJoin", []string{"", "", "", "A-a-a@4,A-a-a@4", "B-a-a@5", "B-b-b@6,B-b-b@6", "<null>@7", "", "", "C-c-c@10,C-c-c@10", "<null>@11", "", "", "", "D-d-d@15", "", ""}},
	"inner-outer": {"join", "outerJoin", []string{"", "", "", "A-a-a@4,A-a-a@4", "B-a-a@5", "B-b-b@6,B-b-b@6", "null-b@7", "<null>@8", "", "C-c-c@10,C-c-c@10", "<null>@11,<null>@11", "", "", "null-d@14", "D-d-d@15", "", ""}},
	"left-inner":  {"leftJoin", "join", []string{"", "", "", "A-a-a@4,A-a-a@4", "B-a-a@5", "B-b-b@6,B-b-b@6", "<null>@7", "", "", "C-c-c@10,C-c-c@10", "<null>@11", "", "", "", "D-d-d@15", "", ""}},
	"left-left":   {"leftJoin", "leftJoin", []string{"", "", "A-null-null@3", "A-a-a@4,A-a-a@4", "B-a-a@5", "B-b-b@6,B-b-b@6", "<null>@7", "", "C-null-null@9", "C-c-c@10,C-c-c@10", "C-null-null@11,C-null-null@11", "<null>@12", "", "", "D-d-d@15", "", ""}},
	"left-outer":  {"leftJoin", "outerJoin", []string{"", "", "A-null-null@3", "A-a-a@4,A-a-a@4", "B-a-a@5", "B-b-b@6,B-b-b@6", "null-b@7", "<null>@8", "C-null-null@9", "C-c-c@10,C-c-c@10", "C-null-null@11,C-null-null@11", "<null>@12", "", "null-d@14", "D-d-d@15", "", ""}},
	"outer-inner": {"outerJoin", "join", []string{"", "", "", "A-a-a@4,A-a-a@4", "B-a-a@5", "B-b-b@6,B-b-b@6", "null-b-b@7", "", "", "C-c-c@10,C-c-c@10", "<null>@11", "", "", "null-d-d@14,null-d-d@14", "D-d-d@15", "", ""}},
	"outer-left":  {"outerJoin", "leftJoin", []string{"", "", "A-null-null@3", "A-a-a@4,A-a-a@4", "B-a-a@5", "B-b-b@6,B-b-b@6", "null-b-b@7", "<null>@8", "C-null-null@9", "C-c-c@10,C-c-c@10", "C-null-null@11,C-null-null@11", "<null>@12", "", "null-d-d@14,null-d-d@14", "D-d-d@15", "", ""}},
	"outer-outer": {"outerJoin", "outerJoin", []string{"", "", "A-null-null@3", "A-a-a@4,A-a-a@4", "B-a-a@5", "B-b-b@6,B-b-b@6", "null-b-b@7", "<null>@8,<null>@8", "C-null-null@9", "C-c-c@10,C-c-c@10", "C-null-null@11,C-null-null@11", "<null>@12", "", "null-d-d@14,null-d-d@14", "D-d-d@15", "", ""}},
}

// tableJoinOp applies one of Kafka's table joins by name, with Java's
// string concatenation of a missing side.
func tableJoinOp(op string, l, r *kstreams.KTable[int64, string], opts ...kstreams.AggOption[int64, string]) *kstreams.KTable[int64, string] {
	switch op {
	case "join":
		return kstreams.TableTableJoin(l, r, dashJoin, opts...)
	case "leftJoin":
		return kstreams.TableTableLeftJoin(l, r, func(v string, vo *string) string { return v + "-" + javaString(vo) }, opts...)
	default:
		return kstreams.TableTableOuterJoin(l, r, func(v, vo *string) string { return javaString(v) + "-" + javaString(vo) }, opts...)
	}
}

// TableTableJoinIntegrationTest.testInnerInner ... testOuterOuter: every
// step without caching (inputWithoutOutOfOrderData); with caching, the last
// result of the full input (F-f-f at 4); and the result store either way.
func TestChainedTableTableJoinIntegrationMatrix(t *testing.T) {
	for name, c := range chainedTableJoins {
		chain := func() *kstreams.StreamsBuilder {
			b := kstreams.NewStreamsBuilder()
			l, r := tableSources(b)
			tableJoinOp(c.second, tableJoinOp(c.first, l, r), r, joinStore).ToStream().To("output")
			return b
		}
		t.Run(name, func(t *testing.T) {
			d := runJoinSteps(t, chain(), false, inputWithoutOutOfOrderData, c.want)
			checkJoinStore(t, d, "D-d-d", 15)
		})
		t.Run(name+"/caching", func(t *testing.T) {
			cfg := longString
			cfg.Caching = true
			d := build(t, chain(), cfg)
			for _, in := range joinInputs {
				pipeJoinInput(t, d, in)
			}
			if got := lastOutput(t, d); got != "F-f-f@4" {
				t.Errorf("last output %s, want F-f-f@4", got)
			}
			checkJoinStore(t, d, "F-f-f", 4)
		})
	}
}

// After KTableKTableLeftJoinTest.shouldNotThrowIllegalStateExceptionWhenMultiCacheEvictions:
// a chain of left joins over an aggregation, five source tables and a
// left join of a mapValues, under a cache small enough to evict on almost
// every write, fed random updates and deletes. Whatever order the caches
// flush in, the last update of a key recomputes it from the tables' final
// rows, so the result store must end as the model computed from them.
func TestChainedLeftJoinsUnderCacheEvictionsEndAtTheModel(t *testing.T) {
	inputs := []string{"agg", "one", "two", "three", "four", "five", "six"}
	b := kstreams.NewStreamsBuilder()
	c := kstreams.ConsumedWith[int64, string](serde.Long{}, serde.String{})
	concat := func(a, b string) string { return a + b }
	agg := kstreams.Stream(b, []string{"agg"}, c).GroupByKey().Reduce(concat)
	tables := map[string]*kstreams.KTable[int64, string]{}
	for _, in := range inputs[1:] {
		tables[in] = kstreams.Table(b, in, c, kstreams.MaterializedAs[int64, string](in+"-base-store"))
	}
	upper := func(_ int64, v string) string { return strings.ToUpper(v) }
	plus := func(v string, vo *string) string { return v + "+" + javaString(vo) }
	seven := kstreams.MapTableValues(tables["one"], upper)
	eight := kstreams.TableTableLeftJoin(tables["six"], seven, plus)
	chain := agg
	for _, next := range []*kstreams.KTable[int64, string]{tables["one"], tables["two"], tables["three"], tables["four"], tables["five"], eight} {
		chain = kstreams.TableTableLeftJoin(chain, next, plus)
	}
	kstreams.MapTableValues(chain, upper, kstreams.Materialized[int64, string]{Name: "result", ValueSerde: serde.String{}})
	cfg := longString
	cfg.Caching, cfg.CacheMaxBytes = true, 600
	d := build(t, b, cfg)

	values := []string{"a", "AA", "BBB", "CCCC", "DD", "EEEEEEEE", "F", "GGGGGGGGGGGGGGG", "HHH", "IIIIIIIIII"}
	rng := rand.New(rand.NewPCG(13, 7))
	rows := map[string]map[int64]string{}
	for _, in := range inputs {
		rows[in] = map[int64]string{}
	}
	for range 400 {
		for _, in := range inputs {
			k := int64(rng.IntN(40))
			kb, _ := serde.Long{}.Serialize(in, k)
			if in != "agg" && rng.IntN(8) == 0 {
				delete(rows[in], k)
				if err := d.Pipe(in, kb, nil, 0); err != nil {
					t.Fatal(err)
				}
				continue
			}
			v := values[rng.IntN(len(values))]
			if in == "agg" {
				rows[in][k] += v
			} else {
				rows[in][k] = v
			}
			if err := d.Pipe(in, kb, []byte(v), 0); err != nil {
				t.Fatal(err)
			}
		}
	}
	row := func(in string, k int64) *string {
		if v, ok := rows[in][k]; ok {
			return &v
		}
		return nil
	}
	task, _ := d.Task(kstreams.TaskID{})
	st, _ := task.Store("result")
	store := st.(*kstreams.TimestampedKeyValueStore)
	checked := 0
	for k := range int64(40) {
		var want *string
		if a := row("agg", k); a != nil {
			r := *a
			for _, in := range []string{"one", "two", "three", "four", "five"} {
				r = plus(r, row(in, k))
			}
			var e *string
			if six := row("six", k); six != nil {
				var s *string
				if one := row("one", k); one != nil {
					s = sp(strings.ToUpper(*one))
				}
				e = sp(plus(*six, s))
			}
			want = sp(strings.ToUpper(plus(r, e)))
		}
		got, _, ok, err := store.Get(k)
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case want == nil && ok:
			t.Errorf("key %d: result %v, want none", k, got)
		case want != nil && (!ok || got != *want):
			t.Errorf("key %d: result %v (found %v), want %s", k, got, ok, *want)
		case want != nil:
			checked++
		}
	}
	if checked < 20 {
		t.Fatalf("only %d keys with a result: the input does not exercise the joins", checked)
	}
}

// Windowed tables join on their windowed keys: a windowed count's rows are
// looked up in its window store under (key, window start), a session
// count's under its exact session, as KStreamWindowAggregate's and
// KStreamSessionWindowAggregate's value getters do.
func TestTableJoinsOfWindowedTables(t *testing.T) {
	c := kstreams.ConsumedWith[string, string](serde.String{}, serde.String{})
	counts := func(a, b int64) string { return fmt.Sprintf("a=%d,b=%d", a, b) }
	t.Run("time windows", func(t *testing.T) {
		b := kstreams.NewStreamsBuilder()
		w := kstreams.TimeWindowsOfSizeWithNoGrace(10 * time.Second)
		ca := kstreams.WindowedBy(kstreams.Stream(b, []string{"a"}, c).GroupByKey(), w).Count()
		cb := kstreams.WindowedBy(kstreams.Stream(b, []string{"b"}, c).GroupByKey(), w).Count()
		kstreams.TableTableJoin(ca, cb, counts).ToStream().To("output")
		d := build(t, b, stringDefaults)
		for _, in := range []struct {
			topic string
			ts    int64
		}{{"a", 1000}, {"b", 2000}, {"a", 3000}, {"b", 12000}, {"a", 15000}} {
			if err := d.Pipe(in.topic, []byte("k"), []byte("x"), in.ts); err != nil {
				t.Fatal(err)
			}
		}
		out, err := kstreamstest.ReadOutput(d, "output", serde.TimeWindowed[string]{Inner: serde.String{}, WindowSize: 10000}, serde.String{})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range out {
			got = append(got, fmt.Sprintf("%s@%d:%s@%d", r.Key.Key, r.Key.Window.Start, r.Value, r.Timestamp))
		}
		want := []string{"k@0:a=1,b=1@2000", "k@0:a=2,b=1@3000", "k@10000:a=1,b=1@15000"}
		if !slices.Equal(got, want) {
			t.Errorf("output %v, want %v", got, want)
		}
	})
	t.Run("sessions", func(t *testing.T) {
		b := kstreams.NewStreamsBuilder()
		w := kstreams.SessionWindowsOfInactivityGapWithNoGrace(5 * time.Second)
		ca := kstreams.WindowedBySession(kstreams.Stream(b, []string{"a"}, c).GroupByKey(), w).Count()
		cb := kstreams.WindowedBySession(kstreams.Stream(b, []string{"b"}, c).GroupByKey(), w).Count()
		kstreams.TableTableJoin(ca, cb, counts).ToStream().To("output")
		d := build(t, b, stringDefaults)
		// Both open [1000,1000]: joined. a's next record merges its session
		// into [1000,2000]: the old one is deleted (the join deletes its
		// result) and b has no [1000,2000] session to join the new one.
		for _, in := range []struct {
			topic string
			ts    int64
		}{{"a", 1000}, {"b", 1000}, {"a", 2000}, {"b", 2000}} {
			if err := d.Pipe(in.topic, []byte("k"), []byte("x"), in.ts); err != nil {
				t.Fatal(err)
			}
		}
		out, err := kstreamstest.ReadOutput(d, "output", serde.SessionWindowed[string]{Inner: serde.String{}}, serde.String{})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range out {
			v := r.Value
			if r.ValueNull {
				v = "<null>"
			}
			got = append(got, fmt.Sprintf("%s@%d-%d:%s@%d", r.Key.Key, r.Key.Window.Start, r.Key.Window.End, v, r.Timestamp))
		}
		want := []string{"k@1000-1000:a=1,b=1@1000", "k@1000-1000:<null>@1000", "k@1000-2000:a=2,b=2@2000"}
		if !slices.Equal(got, want) {
			t.Errorf("output %v, want %v", got, want)
		}
	})
}

// A stream joined with an unmaterialized table join reads its rows through
// the join's value getter, computed from both tables (inner: both rows;
// left: the left row; outer: either), with the larger timestamp.
func TestStreamJoinOfUnmaterializedTableJoins(t *testing.T) {
	for _, op := range []string{"join", "leftJoin", "outerJoin"} {
		b := kstreams.NewStreamsBuilder()
		c := kstreams.ConsumedWith[string, string](serde.String{}, serde.String{})
		t1, t2 := kstreams.Table(b, "t1", c), kstreams.Table(b, "t2", c)
		var j *kstreams.KTable[string, string]
		switch op {
		case "join":
			j = kstreams.TableTableJoin(t1, t2, func(a, b string) string { return a + "-" + b })
		case "leftJoin":
			j = kstreams.TableTableLeftJoin(t1, t2, func(a string, b *string) string { return a + "-" + javaString(b) })
		default:
			j = kstreams.TableTableOuterJoin(t1, t2, func(a, b *string) string { return javaString(a) + "-" + javaString(b) })
		}
		s := kstreams.Stream(b, []string{"s"}, c)
		kstreams.StreamTableLeftJoin(s, j, func(_, v string, row *string) string { return v + "=" + javaString(row) }).To("output")
		d := build(t, b, stringDefaults)
		for _, r := range []struct {
			topic, k, v string
			ts          int64
		}{{"t1", "a", "A", 1}, {"t2", "b", "B", 2}, {"t1", "c", "C", 3}, {"t2", "c", "CC", 4},
			{"s", "a", "x", 10}, {"s", "b", "y", 11}, {"s", "c", "z", 12}, {"s", "d", "w", 13}} {
			if err := d.Pipe(r.topic, []byte(r.k), []byte(r.v), r.ts); err != nil {
				t.Fatal(err)
			}
		}
		var got []string
		for _, r := range d.Records("output") {
			got = append(got, string(r.Key)+":"+string(r.Value))
		}
		want := map[string][]string{
			"join":      {"a:x=null", "b:y=null", "c:z=C-CC", "d:w=null"},
			"leftJoin":  {"a:x=A-null", "b:y=null", "c:z=C-CC", "d:w=null"},
			"outerJoin": {"a:x=A-null", "b:y=null-B", "c:z=C-CC", "d:w=null"},
		}[op]
		if !slices.Equal(got, want) {
			t.Errorf("%s: output %v, want %v", op, got, want)
		}
	}
}

// With every store caching (the result store too) and the caches flushed
// after each record, as TopologyTestDriver commits, each step of
// TableTableJoinIntegrationTest forwards what it forwards without caching:
// one result per step, and every tombstone deletes a row the result store
// held (a deletion of an absent row would not be flushed).
func TestTableTableJoinIntegrationMatrixWithCachingResultStore(t *testing.T) {
	for name, c := range tableJoinMatrix {
		t.Run(name, func(t *testing.T) {
			b := kstreams.NewStreamsBuilder()
			l, r := tableSources(b)
			cached := joinStore
			cached.CachingDisabled = false
			join := map[string]string{"inner": "join", "left": "leftJoin", "outer": "outerJoin"}[name]
			tableJoinOp(join, l, r, cached).ToStream().To("output")
			d := runJoinMatrix(t, b, true, c.want)
			checkJoinStore(t, d, "F-f", 4)
		})
	}
}

// The same for stream-stream joins: the repartition before a left join
// lets a null-key record through (its filter relaxed at Build), the one
// before an inner join drops it.
func TestRepartitionFiltersKeepNullKeysForLeftStreamStreamJoins(t *testing.T) {
	for _, left := range []bool{false, true} {
		b := kstreams.NewStreamsBuilder()
		keyed := kstreams.SelectKey(kstreams.Stream[*string, string](b, []string{"in"}), func(_ *string, v string) *string {
			if v == "null-key" {
				return nil // Kafka's null: the record leaves with a null key
			}
			return &v
		})
		other := kstreams.Stream[*string, string](b, []string{"other"})
		w := kstreams.JoinWindowsOfTimeDifferenceWithNoGrace(time.Second)
		if left {
			kstreams.LeftJoin(keyed, other, func(v string, vo *string) string { return v + "+" + javaString(vo) }, w).To("output")
		} else {
			kstreams.Join(keyed, other, func(v, vo string) string { return v + "+" + vo }, w).To("output")
		}
		d := build(t, b, nullableStringDefaults)
		if err := d.Pipe("in", nil, []byte("null-key"), 1); err != nil {
			t.Fatal(err)
		}
		var through int
		for _, topic := range d.Topics() {
			if strings.HasSuffix(topic, "-repartition") {
				through += len(d.Records(topic))
			}
		}
		if want := map[bool]int{false: 0, true: 1}[left]; through != want {
			t.Errorf("left=%t: %d records through the repartition topic, want %d", left, through, want)
		}
	}
}
