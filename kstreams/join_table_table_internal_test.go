package kstreams

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stoatflow/stoatflow/kstreams/serde"
	"github.com/stoatflow/stoatflow/state"
)

type discardCollector struct{}

func (discardCollector) Send(ProducerRecord) error { return nil }

// oldValuesJoin runs join over tables topic1 and topic2 with old values
// requested downstream (KTableImpl.enableSendingOldValues(true) in Kafka's
// KTableKTable*JoinTest.testSendingOldValue) and returns a function piping
// one record and one reading the changes forwarded since the last read, as
// "key:new/old@ts".
func oldValuesJoin(t *testing.T, join func(t1, t2 *KTable[int32, string]) *KTable[int32, string]) (
	pipe func(topic string, key *int32, value *string, ts int64), read func() string) {
	return joinHarness(t, join, true, nil)
}

// joinHarness is oldValuesJoin with old values requested downstream or
// not; check, if set, sees the tables before the topology is built.
func joinHarness(t *testing.T, join func(t1, t2 *KTable[int32, string]) *KTable[int32, string], sendOld bool,
	check func(t1, t2, joined *KTable[int32, string])) (pipe func(topic string, key *int32, value *string, ts int64), read func() string) {
	t.Helper()
	b := NewStreamsBuilder()
	c := ConsumedWith[int32, string](serde.Integer{}, serde.String{})
	t1, t2 := Table(b, "topic1", c), Table(b, "topic2", c)
	joined := join(t1, t2)
	if sendOld && (!joined.old.request(true) || !t1.old.sending() || !t2.old.sending()) {
		t.Fatal("old values not enabled on the join and both tables")
	}
	if check != nil {
		check(t1, t2, joined)
	}
	var got []string
	b.addNode(&nodeSpec{name: "proc", kind: ProcessorNode, preds: []string{joined.name}, supplier: stateless(func(_ ProcessorContext, r Record) error {
		ch := r.Value.(Change)
		got = append(got, fmt.Sprintf("%v:%v/%v@%d", r.Key, ch.New, ch.Old, r.Timestamp))
		return nil
	})})
	topo, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	stores := map[string]StateStore{}
	for _, s := range topo.Subtopologies()[0].Stores {
		stores[s.Name] = state.NewInMemoryKeyValue(state.KeyValueOptions{Name: s.Name, Timestamped: s.Timestamped})
	}
	task, err := topo.NewTask(TaskConfig{ApplicationID: "app", Stores: stores, Output: discardCollector{}})
	if err != nil {
		t.Fatal(err)
	}
	if err := task.Init(); err != nil {
		t.Fatal(err)
	}
	offset := int64(0)
	pipe = func(topic string, key *int32, value *string, ts int64) {
		t.Helper()
		var kb, vb []byte
		if key != nil {
			kb, _ = serde.Integer{}.Serialize(topic, *key)
		}
		if value != nil {
			vb = []byte(*value)
		}
		offset++
		if err := task.Process(topic, 0, offset, kb, vb, ts, nil); err != nil {
			t.Fatal(err)
		}
	}
	read = func() string {
		out := strings.Join(got, " ")
		got = nil
		return out
	}
	return pipe, read
}

func plus(a, b *string) string {
	s := func(p *string) string {
		if p == nil {
			return "null"
		}
		return *p
	}
	return s(a) + "+" + s(b)
}

func ip(i int32) *int32   { return &i }
func sv(s string) *string { return &s }

// TestTableJoinsSendOldValues ports KTableKTableInnerJoinTest,
// KTableKTableLeftJoinTest and KTableKTableOuterJoinTest.testSendingOldValue:
// with old values requested, each side's update forwards the joined old
// value with the new, and both unmaterialized sources are materialized.
func TestTableJoinsSendOldValues(t *testing.T) {
	cases := map[string]struct {
		join func(t1, t2 *KTable[int32, string]) *KTable[int32, string]
		want []string // after each step of the script below
	}{
		"inner": {
			join: func(t1, t2 *KTable[int32, string]) *KTable[int32, string] {
				return TableTableJoin(t1, t2, func(a, b string) string { return a + "+" + b })
			},
			want: []string{
				"",
				"0:X0+Y0/<nil>@5 1:X1+Y1/<nil>@10",
				"0:XX0+Y0/X0+Y0@7 1:XX1+Y1/X1+Y1@10",
				"0:XX0+YY0/XX0+Y0@7 1:XX1+YY1/XX1+Y1@7 2:XX2+YY2/<nil>@10 3:XX3+YY3/<nil>@15",
				"0:XXX0+YY0/XX0+YY0@6 1:XXX1+YY1/XX1+YY1@6 2:XXX2+YY2/XX2+YY2@10 3:XXX3+YY3/XX3+YY3@15",
				"0:<nil>/XXX0+YY0@6 1:<nil>/XXX1+YY1@7",
				"2:XXXX2+YY2/XXX2+YY2@13 3:XXXX3+YY3/XXX3+YY3@15",
				"2:<nil>/XXXX2+YY2@10 3:<nil>/XXXX3+YY3@20",
			},
		},
		"left": {
			join: func(t1, t2 *KTable[int32, string]) *KTable[int32, string] {
				return TableTableLeftJoin(t1, t2, func(a string, b *string) string { return plus(&a, b) })
			},
			want: []string{
				"0:X0+null/<nil>@5 1:X1+null/<nil>@6",
				"0:X0+Y0/X0+null@5 1:X1+Y1/X1+null@10",
				"0:XX0+Y0/X0+Y0@7 1:XX1+Y1/X1+Y1@10 2:XX2+null/<nil>@7 3:XX3+null/<nil>@7",
				"0:XX0+YY0/XX0+Y0@7 1:XX1+YY1/XX1+Y1@7 2:XX2+YY2/XX2+null@10 3:XX3+YY3/XX3+null@15",
				"0:XXX0+YY0/XX0+YY0@6 1:XXX1+YY1/XX1+YY1@6 2:XXX2+YY2/XX2+YY2@10 3:XXX3+YY3/XX3+YY3@15",
				"0:XXX0+null/XXX0+YY0@6 1:XXX1+null/XXX1+YY1@7",
				"0:XXXX0+null/XXX0+null@13 1:XXXX1+null/XXX1+null@13 2:XXXX2+YY2/XXX2+YY2@13 3:XXXX3+YY3/XXX3+YY3@15",
				"0:<nil>/XXXX0+null@0 1:<nil>/XXXX1+null@42 2:<nil>/XXXX2+YY2@10 3:<nil>/XXXX3+YY3@20",
			},
		},
		"outer": {
			join: func(t1, t2 *KTable[int32, string]) *KTable[int32, string] {
				return TableTableOuterJoin(t1, t2, plus)
			},
			want: []string{
				"0:X0+null/<nil>@5 1:X1+null/<nil>@6",
				"0:X0+Y0/X0+null@5 1:X1+Y1/X1+null@10",
				"0:XX0+Y0/X0+Y0@7 1:XX1+Y1/X1+Y1@10 2:XX2+null/<nil>@7 3:XX3+null/<nil>@7",
				"0:XX0+YY0/XX0+Y0@7 1:XX1+YY1/XX1+Y1@7 2:XX2+YY2/XX2+null@10 3:XX3+YY3/XX3+null@15",
				"0:XXX0+YY0/XX0+YY0@6 1:XXX1+YY1/XX1+YY1@6 2:XXX2+YY2/XX2+YY2@10 3:XXX3+YY3/XX3+YY3@15",
				"0:XXX0+null/XXX0+YY0@6 1:XXX1+null/XXX1+YY1@7",
				"0:XXXX0+null/XXX0+null@13 1:XXXX1+null/XXX1+null@13 2:XXXX2+YY2/XXX2+YY2@13 3:XXXX3+YY3/XXX3+YY3@15",
				"0:<nil>/XXXX0+null@0 1:<nil>/XXXX1+null@42 2:null+YY2/XXXX2+YY2@10 3:null+YY3/XXXX3+YY3@20",
			},
		},
	}
	keys := []int32{0, 1, 2, 3}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			pipe, read := oldValuesJoin(t, c.join)
			step := 0
			check := func() {
				t.Helper()
				if got := read(); got != c.want[step] {
					t.Errorf("step %d: %s\nwant     %s", step, got, c.want[step])
				}
				step++
			}
			for i := range 2 {
				pipe("topic1", ip(keys[i]), sv(fmt.Sprintf("X%d", keys[i])), 5+int64(i))
			}
			pipe("topic1", nil, sv("SomeVal"), 42) // a null key: dropped
			check()
			for i := range 2 {
				pipe("topic2", ip(keys[i]), sv(fmt.Sprintf("Y%d", keys[i])), 10*int64(i))
			}
			pipe("topic2", nil, sv("AnotherVal"), 73)
			check()
			for _, k := range keys {
				pipe("topic1", ip(k), sv(fmt.Sprintf("XX%d", k)), 7)
			}
			check()
			for _, k := range keys {
				pipe("topic2", ip(k), sv(fmt.Sprintf("YY%d", k)), int64(k)*5)
			}
			check()
			for _, k := range keys {
				pipe("topic1", ip(k), sv(fmt.Sprintf("XXX%d", k)), 6)
			}
			check()
			pipe("topic2", ip(0), nil, 5)
			pipe("topic2", ip(1), nil, 7)
			check()
			for _, k := range keys {
				pipe("topic1", ip(k), sv(fmt.Sprintf("XXXX%d", k)), 13)
			}
			check()
			for i, ts := range []int64{0, 42, 5, 20} {
				pipe("topic1", ip(keys[i]), nil, ts)
			}
			check()
		})
	}
}

// A join materializes an unmaterialized source table in the store it drew
// when it was created, in the source's place in the store order, and
// connects the store to the processors that read it.
func TestJoinMaterializesSourceInItsDrawnStore(t *testing.T) {
	b := NewStreamsBuilder()
	c := ConsumedWith[string, string](serde.String{}, serde.String{})
	t1 := Table(b, "t1", c)
	agg := Stream(b, []string{"s"}, c).GroupByKey().Count()
	t2 := MapTableValues(agg, func(_ string, n int64) string { return fmt.Sprint(n) })
	j := TableTableJoin(t1, t2, func(a, b string) string { return a + b })
	if j.QueryableStoreName() != "" || t1.QueryableStoreName() != "" {
		t.Errorf("queryable names %q %q, want none", j.QueryableStoreName(), t1.QueryableStoreName())
	}
	topo, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range topo.Subtopologies()[0].Stores {
		names = append(names, s.Name)
	}
	want := []string{"t1-STATE-STORE-0000000000", "KSTREAM-AGGREGATE-STATE-STORE-0000000004"}
	if !slices.Equal(names, want) {
		t.Errorf("stores %v, want %v", names, want)
	}
	this := topo.byName["KTABLE-JOINTHIS-0000000008"]
	other := topo.byName["KTABLE-JOINOTHER-0000000009"]
	if this == nil || other == nil || !slices.Equal(this.stores, want[1:]) || !slices.Equal(other.stores, want[:1]) {
		t.Errorf("join processors %+v %+v", this, other)
	}
}

// KTableKTable{Inner,Left,Outer}JoinTest.testNotSendingOldValues: without a
// downstream request the join forwards no old value; a left join still
// makes its left table send old values (to skip deletions of absent rows),
// an outer join both tables.
func TestTableJoinsWithoutOldValues(t *testing.T) {
	joinFns := map[string]struct {
		join           func(t1, t2 *KTable[int32, string]) *KTable[int32, string]
		leftOld, right bool
	}{
		"inner": {func(t1, t2 *KTable[int32, string]) *KTable[int32, string] {
			return TableTableJoin(t1, t2, func(a, b string) string { return a + "+" + b })
		}, false, false},
		"left": {func(t1, t2 *KTable[int32, string]) *KTable[int32, string] {
			return TableTableLeftJoin(t1, t2, func(a string, b *string) string { return plus(&a, b) })
		}, true, false},
		"outer": {func(t1, t2 *KTable[int32, string]) *KTable[int32, string] { return TableTableOuterJoin(t1, t2, plus) }, true, true},
	}
	for name, c := range joinFns {
		t.Run(name, func(t *testing.T) {
			pipe, read := joinHarness(t, c.join, false, func(t1, t2, joined *KTable[int32, string]) {
				if t1.old.sending() != c.leftOld || t2.old.sending() != c.right || joined.old.sending() {
					t.Errorf("sending old values: left %v right %v join %v, want %v %v false",
						t1.old.sending(), t2.old.sending(), joined.old.sending(), c.leftOld, c.right)
				}
			})
			for _, k := range []int32{0, 1} {
				pipe("topic1", ip(k), sv(fmt.Sprintf("X%d", k)), 5)
				pipe("topic2", ip(k), sv(fmt.Sprintf("Y%d", k)), 6)
				pipe("topic1", ip(k), sv(fmt.Sprintf("XX%d", k)), 7)
				pipe("topic2", ip(k), nil, 8)
			}
			out := read()
			if out == "" || strings.Contains(out, "/X") || strings.Contains(out, "/null") {
				t.Errorf("forwarded old values: %s", out)
			}
		})
	}
}

type collected struct{ recs []ProducerRecord }

func (c *collected) Send(r ProducerRecord) error { c.recs = append(c.recs, r); return nil }

// A join reads a caching table through its cache: a row not flushed yet
// (not in the store, not in the changelog) is joined all the same, as
// Kafka Streams' getters read through the caching store.
func TestStreamTableJoinReadsTheTableCache(t *testing.T) {
	b := NewStreamsBuilder()
	c := ConsumedWith[string, string](serde.String{}, serde.String{})
	s, tbl := Stream(b, []string{"s"}, c), Table(b, "t", c)
	StreamTableJoin(s, tbl, func(_, v, row string) string { return v + "+" + row }).To("out", ProducedWith[string, string](serde.String{}, serde.String{}))
	topo, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	stores := map[string]StateStore{}
	for _, st := range topo.Subtopologies()[0].Stores {
		stores[st.Name] = state.NewInMemoryKeyValue(state.KeyValueOptions{Name: st.Name, Timestamped: st.Timestamped})
	}
	out := &collected{}
	task, err := topo.NewTask(TaskConfig{ApplicationID: "app", Stores: stores, Output: out, CacheMaxBytes: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	if err := task.Init(); err != nil {
		t.Fatal(err)
	}
	if err := task.Process("t", 0, 0, []byte("k"), []byte("row"), 1, nil); err != nil {
		t.Fatal(err)
	}
	if err := task.Process("s", 0, 0, []byte("k"), []byte("v"), 2, nil); err != nil {
		t.Fatal(err)
	}
	var topics []string
	for _, r := range out.recs {
		topics = append(topics, r.Topic+"="+string(r.Value))
	}
	if !slices.Equal(topics, []string{"out=v+row"}) {
		t.Fatalf("written %v, want only the join result (the row still in the cache)", topics)
	}
	if err := task.Flush(); err != nil {
		t.Fatal(err)
	}
	if n := len(out.recs); n != 2 || out.recs[1].Topic != "app-t-STATE-STORE-0000000001-changelog" {
		t.Errorf("after the flush %d records %+v, want the row's changelog record", n, out.recs)
	}
}
