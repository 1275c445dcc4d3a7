package kstreamstest_test

import (
	"strconv"
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/kstreamstest"
	"github.com/stoatflow/stoatflow/kstreams/serde"
)

// Ports of Kafka's CogroupedKStreamImplTest, TimeWindowedCogroupedKStreamImplTest
// and SessionWindowedCogroupedKStreamImplTest: every input step and expected
// output.

func appendValue(_ string, v, agg string) string { return agg + v }
func emptyAgg() string                           { return "" }

// cogroupOf groups each topic by key and cogroups them, the i-th with aggs[i].
func cogroupOf(b *kstreams.StreamsBuilder, aggs []func(string, string, string) string, topics ...string) *kstreams.CogroupedKStream[string, string] {
	var c *kstreams.CogroupedKStream[string, string]
	for i, t := range topics {
		g := kstreams.Stream(b, []string{t}, kstreams.ConsumedWith[string, string](serde.String{}, serde.String{})).GroupByKey(stringGrouped)
		if c == nil {
			c = kstreams.Cogroup(g, aggs[i])
		} else {
			c = kstreams.CogroupWith(c, g, aggs[i])
		}
	}
	return c
}

func repeat(f func(string, string, string) string, n int) []func(string, string, string) string {
	out := make([]func(string, string, string) string, n)
	for i := range out {
		out[i] = f
	}
	return out
}

func TestCogroupAggregateSingleStream(t *testing.T) {
	for _, withNull := range []bool{false, true} {
		b := kstreams.NewStreamsBuilder()
		cogroupOf(b, repeat(appendValue, 1), "one").Aggregate(emptyAgg).ToStream().To("out")
		d := build(t, b, stringDefaults)
		in := []row{{"k1", "A", 0}, {"k2", "B", 0}, {"k2", "B", 0}, {"k1", "A", 0}}
		if withNull { // testCogroupHandleNullValues: a null value is dropped
			in = []row{{"k1", "A", 0}, {"k2", "B", 0}, {"k2", "", 0}, {"k2", "B", 0}, {"k1", "A", 0}}
		}
		pipeRows(t, d, "one", in)
		check(t, "out", d.Records("out"), []kv{{"k1", []byte("A"), 0}, {"k2", []byte("B"), 0}, {"k2", []byte("BB"), 0}, {"k1", []byte("AA"), 0}})
	}
}

func TestCogroupAggregateTwoStreamsWithDistinctKeys(t *testing.T) {
	b := kstreams.NewStreamsBuilder()
	cogroupOf(b, repeat(appendValue, 2), "one", "two").Aggregate(emptyAgg).ToStream().To("out")
	d := build(t, b, stringDefaults)
	pipeRows(t, d, "one", []row{{"k1", "A", 0}, {"k1", "A", 1}, {"k1", "A", 10}, {"k1", "A", 100}})
	pipeRows(t, d, "two", []row{{"k2", "B", 100}, {"k2", "B", 200}, {"k2", "B", 1}, {"k2", "B", 500}, {"k2", "B", 500}, {"k2", "B", 100}})
	check(t, "out", d.Records("out"), []kv{{"k1", []byte("A"), 0}, {"k1", []byte("AA"), 1}, {"k1", []byte("AAA"), 10},
		{"k1", []byte("AAAA"), 100}, {"k2", []byte("B"), 100}, {"k2", []byte("BB"), 200}, {"k2", []byte("BBB"), 200},
		{"k2", []byte("BBBB"), 500}, {"k2", []byte("BBBBB"), 500}, {"k2", []byte("BBBBBB"), 500}})
}

// shouldCogroupAndAggregateTwoKStreamsWithSharedKeys and
// testCogroupWithThreeGroupedStreams: the result's timestamp is the later of
// the record's and the aggregate's.
func TestCogroupAggregateSharedKeys(t *testing.T) {
	for _, three := range []bool{false, true} {
		b := kstreams.NewStreamsBuilder()
		topics := []string{"one", "two"}
		if three {
			topics = append(topics, "three")
		}
		cogroupOf(b, repeat(appendValue, len(topics)), topics...).Aggregate(emptyAgg).ToStream().To("out")
		d := build(t, b, stringDefaults)
		pipeRows(t, d, "one", []row{{"k1", "A", 0}, {"k2", "A", 1}, {"k1", "A", 10}, {"k2", "A", 100}})
		if three {
			pipeRows(t, d, "two", []row{{"k2", "B", 100}, {"k2", "B", 200}, {"k1", "B", 1}, {"k2", "B", 500}})
			pipeRows(t, d, "three", []row{{"k1", "B", 500}, {"k2", "B", 500}, {"k3", "B", 500}, {"k2", "B", 100}})
		} else {
			pipeRows(t, d, "two", []row{{"k2", "B", 100}, {"k2", "B", 200}, {"k1", "B", 1}, {"k2", "B", 500}, {"k1", "B", 500},
				{"k2", "B", 500}, {"k3", "B", 500}, {"k2", "B", 100}})
		}
		want := []kv{{"k1", []byte("A"), 0}, {"k2", []byte("A"), 1}, {"k1", []byte("AA"), 10}, {"k2", []byte("AA"), 100},
			{"k2", []byte("AAB"), 100}, {"k2", []byte("AABB"), 200}, {"k1", []byte("AAB"), 10}, {"k2", []byte("AABBB"), 500},
			{"k1", []byte("AABB"), 500}, {"k2", []byte("AABBBB"), 500}}
		if three {
			want = append(want, kv{"k3", []byte("B"), 500})
		}
		// Kafka's tests read only the records they list: the last input's
		// update is not among them.
		got := d.Records("out")
		if len(got) > len(want) {
			got = got[:len(want)]
		}
		check(t, "out", got, want)
	}
}

func sumOf(_ string, v string, agg int32) int32 {
	n, _ := strconv.Atoi(v)
	return agg + int32(n)
}

func sumInts(_ string, v, agg int32) int32 { return agg + v }

// shouldAllowDifferentOutputTypeInCoGroup and
// shouldCoGroupStreamsWithDifferentInputTypes.
func TestCogroupAggregateOtherTypes(t *testing.T) {
	for _, intInput := range []bool{false, true} {
		b := kstreams.NewStreamsBuilder()
		g1 := kstreams.Stream(b, []string{"one"}, kstreams.ConsumedWith[string, string](serde.String{}, serde.String{})).GroupByKey()
		c := kstreams.Cogroup(g1, sumOf)
		if intInput {
			g2 := kstreams.Stream(b, []string{"two"}, kstreams.ConsumedWith[string, int32](serde.String{}, serde.Integer{})).GroupByKey()
			c = kstreams.CogroupWith(c, g2, sumInts)
		} else {
			g2 := kstreams.Stream(b, []string{"two"}, kstreams.ConsumedWith[string, string](serde.String{}, serde.String{})).GroupByKey()
			c = kstreams.CogroupWith(c, g2, sumOf)
		}
		c.Aggregate(func() int32 { return 0 }, kstreams.Materialized[string, int32]{Name: "store1", ValueSerde: serde.Integer{}}).
			ToStream().To("out", kstreams.ProducedWith[string, int32](serde.String{}, serde.Integer{}))
		d := build(t, b, stringDefaults)
		pipeRows(t, d, "one", []row{{"k1", "1", 0}, {"k2", "1", 1}, {"k1", "1", 10}, {"k2", "1", 100}})
		two := []struct {
			k  string
			v  int32
			ts int64
		}{{"k2", 2, 100}, {"k2", 2, 200}, {"k1", 2, 1}, {"k2", 2, 500}, {"k1", 2, 500}, {"k2", 3, 500}, {"k3", 2, 500}, {"k2", 2, 100}}
		for _, r := range two {
			var v []byte
			if intInput {
				v, _ = serde.Integer{}.Serialize("two", r.v)
			} else {
				v = []byte(strconv.Itoa(int(r.v)))
			}
			if err := d.Pipe("two", []byte(r.k), v, r.ts); err != nil {
				t.Fatal(err)
			}
		}
		i := func(n int32) []byte { b, _ := serde.Integer{}.Serialize("out", n); return b }
		want := []kv{{"k1", i(1), 0}, {"k2", i(1), 1}, {"k1", i(2), 10}, {"k2", i(2), 100}, {"k2", i(4), 100}, {"k2", i(6), 200},
			{"k1", i(4), 10}, {"k2", i(8), 500}, {"k1", i(6), 500}, {"k2", i(11), 500}, {"k3", i(2), 500}, {"k2", i(13), 500}}
		got := d.Records("out")
		if !intInput { // Kafka's test reads the first ten
			got, want = got[:10], want[:10]
		}
		check(t, "out", got, want)
	}
}

// testCogroupKeyMixedAggregators.
func TestCogroupAggregateMixedAggregators(t *testing.T) {
	b := kstreams.NewStreamsBuilder()
	cogroupOf(b, []func(string, string, string) string{toStringRemover, toStringAdder}, "one", "two").
		Aggregate(zeroString, kstreams.Materialized[string, string]{Name: "store1", ValueSerde: serde.String{}}).ToStream().To("out")
	d := build(t, b, stringDefaults)
	pipeRows(t, d, "one", []row{{"k1", "1", 0}, {"k2", "1", 1}, {"k1", "1", 10}, {"k2", "1", 100}})
	pipeRows(t, d, "two", []row{{"k1", "2", 500}, {"k2", "2", 500}, {"k1", "2", 500}, {"k2", "2", 100}})
	check(t, "out", d.Records("out"), []kv{{"k1", []byte("0-1"), 0}, {"k2", []byte("0-1"), 1}, {"k1", []byte("0-1-1"), 10},
		{"k2", []byte("0-1-1"), 100}, {"k1", []byte("0-1-1+2"), 500}, {"k2", []byte("0-1-1+2"), 500},
		{"k1", []byte("0-1-1+2+2"), 500}, {"k2", []byte("0-1-1+2+2"), 500}})
}

// testCogroupWithKTableKTableInnerJoin: the cogroup's table joins through
// its store.
func TestCogroupTableJoinsAnotherTable(t *testing.T) {
	b := kstreams.NewStreamsBuilder()
	left := cogroupOf(b, repeat(appendValue, 2), "one", "two").
		Aggregate(emptyAgg, kstreams.Named("name"), kstreams.MaterializedAs[string, string]("store"))
	right := stringTable(b, "three")
	kstreams.TableTableJoin(left, right, func(a, b string) string { return a + "+" + b },
		kstreams.Materialized[string, string]{KeySerde: serde.String{}, ValueSerde: serde.String{}}).ToStream().To("out")
	d := build(t, b, stringDefaults)
	pipeRows(t, d, "one", []row{{"k1", "A", 5}})
	pipeRows(t, d, "two", []row{{"k2", "B", 6}})
	if n := len(d.Records("out")); n != 0 {
		t.Fatalf("%d outputs before the other table has the keys", n)
	}
	pipeRows(t, d, "three", []row{{"k1", "C", 0}, {"k2", "D", 10}})
	check(t, "out", d.Records("out"), []kv{{"k1", []byte("A+C"), 5}, {"k2", []byte("B+D"), 10}})
}

// unwindowed strips the window from time-windowed (8 bytes) or session
// (16 bytes) keys, as Kafka's windowed cogroup tests compare only the key.
func unwindowed(recs []kstreamstest.Record, suffix int) []kstreamstest.Record {
	for i := range recs {
		recs[i].Key = recs[i].Key[:len(recs[i].Key)-suffix]
	}
	return recs
}

func windowedCogroup(b *kstreams.StreamsBuilder) *kstreams.CogroupedKStream[string, string] {
	return cogroupOf(b, []func(string, string, string) string{toStringAdder, toStringRemover}, "topic", "topic2")
}

var stringWindowedMat = kstreams.Materialized[string, string]{KeySerde: serde.String{}, ValueSerde: serde.String{}}

func TestTimeWindowedCogroup(t *testing.T) {
	cases := []struct {
		name    string
		windows kstreams.TimeWindows
		one     bool // only "topic" is cogrouped, with the adder
		topic   []row
		topic2  []row
		want    []kv
	}{
		{name: "timeWindowAggregateTestStreamsTest", windows: kstreams.TimeWindowsOfSizeWithNoGrace(500 * time.Millisecond),
			topic: []row{{"k1", "A", 0}, {"k2", "A", 0}, {"k2", "A", 1}, {"k1", "A", 2}, {"k1", "B", 3}, {"k2", "B", 3}, {"k2", "B", 4}, {"k1", "B", 4}},
			want: []kv{{"k1", []byte("0+A"), 0}, {"k2", []byte("0+A"), 0}, {"k2", []byte("0+A+A"), 1}, {"k1", []byte("0+A+A"), 2},
				{"k1", []byte("0+A+A+B"), 3}, {"k2", []byte("0+A+A+B"), 3}, {"k2", []byte("0+A+A+B+B"), 4}, {"k1", []byte("0+A+A+B+B"), 4}}},
		{name: "timeWindowMixAggregatorsTest", windows: kstreams.TimeWindowsOfSizeWithNoGrace(500 * time.Millisecond),
			topic:  []row{{"k1", "A", 0}, {"k2", "A", 0}, {"k2", "A", 1}, {"k1", "A", 2}},
			topic2: []row{{"k1", "B", 3}, {"k2", "B", 3}, {"k2", "B", 4}, {"k1", "B", 4}},
			want: []kv{{"k1", []byte("0+A"), 0}, {"k2", []byte("0+A"), 0}, {"k2", []byte("0+A+A"), 1}, {"k1", []byte("0+A+A"), 2},
				{"k1", []byte("0+A+A-B"), 3}, {"k2", []byte("0+A+A-B"), 3}, {"k2", []byte("0+A+A-B-B"), 4}, {"k1", []byte("0+A+A-B-B"), 4}}},
		{name: "timeWindowAggregateManyWindowsTest", windows: kstreams.TimeWindowsOfSizeWithNoGrace(500 * time.Millisecond), one: true,
			topic: []row{{"k1", "A", 0}, {"k2", "A", 499}, {"k2", "A", 500}, {"k1", "A", 500}},
			want:  []kv{{"k1", []byte("0+A"), 0}, {"k2", []byte("0+A"), 499}, {"k2", []byte("0+A"), 500}, {"k1", []byte("0+A"), 500}}},
		{name: "timeWindowAggregateOverlappingWindowsTest", one: true,
			windows: kstreams.TimeWindowsOfSizeWithNoGrace(500 * time.Millisecond).AdvanceBy(200 * time.Millisecond),
			topic:   []row{{"k1", "A", 0}, {"k2", "A", 0}, {"k1", "B", 250}, {"k2", "B", 250}, {"k2", "A", 500}, {"k1", "A", 500}},
			want: []kv{{"k1", []byte("0+A"), 0}, {"k2", []byte("0+A"), 0}, {"k1", []byte("0+A+B"), 250}, {"k1", []byte("0+B"), 250},
				{"k2", []byte("0+A+B"), 250}, {"k2", []byte("0+B"), 250}, {"k2", []byte("0+B+A"), 500}, {"k2", []byte("0+A"), 500},
				{"k1", []byte("0+B+A"), 500}, {"k1", []byte("0+A"), 500}}},
		{name: "timeWindowMixAggregatorsManyWindowsTest", windows: kstreams.TimeWindowsOfSizeWithNoGrace(500 * time.Millisecond),
			topic:  []row{{"k1", "A", 0}, {"k2", "A", 0}, {"k2", "A", 1}, {"k1", "A", 2}},
			topic2: []row{{"k1", "B", 3}, {"k2", "B", 3}, {"k2", "B", 501}, {"k1", "B", 501}},
			want: []kv{{"k1", []byte("0+A"), 0}, {"k2", []byte("0+A"), 0}, {"k2", []byte("0+A+A"), 1}, {"k1", []byte("0+A+A"), 2},
				{"k1", []byte("0+A+A-B"), 3}, {"k2", []byte("0+A+A-B"), 3}, {"k2", []byte("0-B"), 501}, {"k1", []byte("0-B"), 501}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := kstreams.NewStreamsBuilder()
			var cg *kstreams.CogroupedKStream[string, string]
			if c.one {
				cg = cogroupOf(b, repeat(toStringAdder, 1), "topic")
			} else {
				cg = windowedCogroup(b)
			}
			cg.WindowedBy(c.windows).Aggregate(zeroString, stringWindowedMat).ToStream().To("out")
			d := build(t, b, stringDefaults)
			pipeRows(t, d, "topic", c.topic)
			pipeRows(t, d, "topic2", c.topic2)
			check(t, "out", unwindowed(d.Records("out"), 8), c.want)
		})
	}
}

func TestSessionWindowedCogroup(t *testing.T) {
	merger := func(_ string, a, b string) string { return a + "+" + b }
	cases := []struct {
		name    string
		windows kstreams.SessionWindows
		one     bool
		topic   []row
		topic2  []row
		want    []kv
	}{
		{name: "sessionWindowAggregateTest", windows: kstreams.SessionWindowsOfInactivityGapWithNoGrace(500 * time.Millisecond), one: true,
			topic: []row{{"k1", "A", 0}, {"k2", "A", 0}, {"k1", "B", 599}, {"k2", "B", 607}},
			want:  []kv{{"k1", []byte("0+A"), 0}, {"k2", []byte("0+A"), 0}, {"k1", []byte("0+B"), 599}, {"k2", []byte("0+B"), 607}}},
		{name: "sessionWindowAggregate2Test", windows: kstreams.SessionWindowsOfInactivityGapWithNoGrace(500 * time.Millisecond), one: true,
			topic: []row{{"k1", "A", 0}, {"k1", "A", 0}, {"k2", "B", 599}, {"k1", "B", 607}},
			// The merged session has the same window: it replaces the
			// first, with no tombstone.
			want: []kv{{"k1", []byte("0+A"), 0}, {"k1", []byte("0+0+A+A"), 0}, {"k2", []byte("0+B"), 599}, {"k1", []byte("0+B"), 607}}},
		{name: "sessionWindowAggregateTest2StreamsTest", windows: kstreams.SessionWindowsOfInactivityGapAndGrace(100*time.Millisecond, 24*time.Hour),
			topic: []row{{"k1", "A", 0}, {"k1", "A", 84}, {"k1", "A", 113}, {"k1", "A", 199}, {"k1", "B", 300}, {"k2", "B", 301}, {"k2", "B", 400}, {"k1", "B", 400}},
			want: []kv{{"k1", []byte("0+A"), 0}, {"k1", nil, 0}, {"k1", []byte("0+0+A+A"), 84}, {"k1", nil, 84},
				{"k1", []byte("0+0+0+A+A+A"), 113}, {"k1", nil, 113}, {"k1", []byte("0+0+0+0+A+A+A+A"), 199}, {"k1", []byte("0+B"), 300},
				{"k2", []byte("0+B"), 301}, {"k2", nil, 301}, {"k2", []byte("0+0+B+B"), 400}, {"k1", nil, 300}, {"k1", []byte("0+0+B+B"), 400}}},
		{name: "sessionWindowMixAggregatorsTest", windows: kstreams.SessionWindowsOfInactivityGapAndGrace(100*time.Millisecond, 24*time.Hour),
			topic:  []row{{"k1", "A", 0}, {"k2", "A", 0}, {"k2", "A", 1}, {"k1", "A", 2}},
			topic2: []row{{"k1", "B", 3}, {"k2", "B", 3}, {"k2", "B", 444}, {"k1", "B", 444}},
			want: []kv{{"k1", []byte("0+A"), 0}, {"k2", []byte("0+A"), 0}, {"k2", nil, 0}, {"k2", []byte("0+0+A+A"), 1},
				{"k1", nil, 0}, {"k1", []byte("0+0+A+A"), 2}, {"k1", nil, 2}, {"k1", []byte("0+0+0+A+A-B"), 3}, {"k2", nil, 1},
				{"k2", []byte("0+0+0+A+A-B"), 3}, {"k2", []byte("0-B"), 444}, {"k1", []byte("0-B"), 444}}},
		{name: "sessionWindowMixAggregatorsManyWindowsTest", windows: kstreams.SessionWindowsOfInactivityGapAndGrace(100*time.Millisecond, 24*time.Hour),
			topic:  []row{{"k1", "A", 0}, {"k2", "A", 0}, {"k2", "A", 1}, {"k1", "A", 2}},
			topic2: []row{{"k1", "B", 3}, {"k2", "B", 500}, {"k2", "B", 501}, {"k1", "B", 501}},
			want: []kv{{"k1", []byte("0+A"), 0}, {"k2", []byte("0+A"), 0}, {"k2", nil, 0}, {"k2", []byte("0+0+A+A"), 1},
				{"k1", nil, 0}, {"k1", []byte("0+0+A+A"), 2}, {"k1", nil, 2}, {"k1", []byte("0+0+0+A+A-B"), 3},
				{"k2", []byte("0-B"), 500}, {"k2", nil, 500}, {"k2", []byte("0+0-B-B"), 501}, {"k1", []byte("0-B"), 501}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := kstreams.NewStreamsBuilder()
			var cg *kstreams.CogroupedKStream[string, string]
			if c.one {
				cg = cogroupOf(b, repeat(toStringAdder, 1), "topic")
			} else {
				cg = windowedCogroup(b)
			}
			cg.WindowedBySession(c.windows).Aggregate(zeroString, merger, stringWindowedMat).ToStream().To("out")
			d := build(t, b, stringDefaults)
			pipeRows(t, d, "topic", c.topic)
			pipeRows(t, d, "topic2", c.topic2)
			check(t, "out", unwindowed(d.Records("out"), 16), c.want)
		})
	}
}
