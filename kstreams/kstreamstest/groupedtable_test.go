package kstreamstest_test

import (
	"strings"
	"testing"

	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/kstreamstest"
	"github.com/stoatflow/stoatflow/kstreams/serde"
)

type row struct {
	k, v string // v "" is a delete
	ts   int64
}

func pipeRows(t *testing.T, d *kstreamstest.Driver, topic string, rows []row) {
	t.Helper()
	for _, r := range rows {
		var v []byte
		if r.v != "" {
			v = []byte(r.v)
		}
		if err := d.Pipe(topic, []byte(r.k), v, r.ts); err != nil {
			t.Fatal(err)
		}
	}
}

var stringGrouped = kstreams.Grouped[string, string]{KeySerde: serde.String{}, ValueSerde: serde.String{}}

// MockAggregator.TOSTRING_ADDER and TOSTRING_REMOVER with STRING_INIT.
func toStringAdder(_ string, v, agg string) string   { return agg + "+" + v }
func toStringRemover(_ string, v, agg string) string { return agg + "-" + v }
func zeroString() string                             { return "0" }

// KTableAggregateTest.testAggBasic: the key stays, so each update is one
// repartition record with both values, subtracted then added; the result's
// timestamp is the later of the record's and the aggregate's.
func TestGroupedTableAggregateBasic(t *testing.T) {
	b := kstreams.NewStreamsBuilder()
	tbl := stringTable(b, "topic1", kstreams.MaterializedAs[string, string]("topic1-source"))
	same := func(k, v string) (string, string) { return k, v }
	kstreams.AggregateTable(kstreams.GroupTableBy(tbl, same, stringGrouped), zeroString, toStringAdder, toStringRemover,
		kstreams.Materialized[string, string]{Name: "topic1-Canonized", ValueSerde: serde.String{}}).ToStream().To("out")
	d := build(t, b, stringDefaults)
	pipeRows(t, d, "topic1", []row{{"A", "1", 10}, {"B", "2", 15}, {"A", "3", 20}, {"B", "4", 18}, {"C", "5", 5},
		{"D", "6", 25}, {"B", "7", 15}, {"C", "8", 10}})
	check(t, "out", d.Records("out"), []kv{{"A", []byte("0+1"), 10}, {"B", []byte("0+2"), 15}, {"A", []byte("0+1-1+3"), 20},
		{"B", []byte("0+2-2+4"), 18}, {"C", []byte("0+5"), 5}, {"D", []byte("0+6"), 25}, {"B", []byte("0+2-2+4-4+7"), 18},
		{"C", []byte("0+5-5+8"), 10}})
	// The repartition topic is named after the store and carries Kafka's
	// Change layout: new ++ 0x01 for a first value, varint(len(new)) ++ new
	// ++ old ++ 0x02 for an update under the same key.
	rep := d.Records("app-topic1-Canonized-repartition")
	if len(rep) != 8 || string(rep[0].Value) != "1\x01" || string(rep[2].Value) != "\x02"+"3"+"1\x02" {
		t.Fatalf("repartition records: %+v", rep)
	}
}

// KTableAggregateTest.testAggRepartition: a null key or a null pair is not
// grouped; a key that changes sends the subtraction to the old key first.
func TestGroupedTableAggregateRepartition(t *testing.T) {
	b := kstreams.NewStreamsBuilder()
	tbl := stringTable(b, "topic1", kstreams.MaterializedAs[string, string]("topic1-source"))
	regroup := func(k, v string) (*string, string) {
		if k == "null" || k == "NULL" {
			return nil, v
		}
		return &v, v
	}
	grouped := kstreams.GroupTableBy(tbl, regroup, kstreams.Grouped[*string, string]{KeySerde: serde.Nullable[string](serde.String{}), ValueSerde: serde.String{}})
	add := func(_ *string, v, agg string) string { return agg + "+" + v }
	sub := func(_ *string, v, agg string) string { return agg + "-" + v }
	kstreams.AggregateTable(grouped, zeroString, add, sub,
		kstreams.Materialized[*string, string]{Name: "topic1-Canonized", ValueSerde: serde.String{}}).ToStream().To("out")
	d := build(t, b, stringDefaults)
	pipeRows(t, d, "topic1", []row{{"A", "1", 10}, {"A", "", 15}, {"A", "1", 12}, {"B", "2", 20}, {"null", "3", 25},
		{"B", "4", 23}, {"NULL", "5", 24}, {"B", "7", 22}})
	check(t, "out", d.Records("out"), []kv{{"1", []byte("0+1"), 10}, {"1", []byte("0+1-1"), 15}, {"1", []byte("0+1-1+1"), 15},
		{"2", []byte("0+2"), 20}, {"2", []byte("0+2-2"), 23}, {"4", []byte("0+4"), 23}, {"4", []byte("0+4-4"), 23}, {"7", []byte("0+7"), 22}})
}

// KTableAggregateTest.testCount and testCountWithInternalStore: counts per
// value; a row that moves is subtracted from its old group.
func TestGroupedTableCount(t *testing.T) {
	for _, named := range []bool{false, true} {
		b := kstreams.NewStreamsBuilder()
		tbl := stringTable(b, "count-test-input", kstreams.MaterializedAs[string, string]("source"))
		byValue := func(_, v string) (string, string) { return v, v }
		var opts []kstreams.AggOption[string, int64]
		if named {
			opts = append(opts, kstreams.MaterializedAs[string, int64]("count"))
		}
		kstreams.GroupTableBy(tbl, byValue, stringGrouped).Count(opts...).ToStream().
			To("out", kstreams.ProducedWith[string, int64](serde.String{}, serde.Long{}))
		d := build(t, b, stringDefaults)
		pipeRows(t, d, "count-test-input", []row{{"A", "green", 10}, {"B", "green", 9}, {"A", "blue", 12}, {"C", "yellow", 15}, {"D", "green", 11}})
		check(t, "out", d.Records("out"), []kv{{"green", long(1), 10}, {"green", long(2), 10}, {"green", long(1), 12},
			{"blue", long(1), 12}, {"yellow", long(1), 15}, {"green", long(2), 12}})
		if named {
			if got := d.Records("app-count-repartition"); len(got) != 6 {
				t.Errorf("named count: %d repartition records, want 6", len(got))
			}
		} else if got := d.Records("app-KTABLE-AGGREGATE-STATE-STORE-0000000003-repartition"); len(got) != 6 {
			t.Errorf("generated count: %d repartition records, want 6 (topics %v)", len(got), d.Topics())
		}
	}
}

// KTableAggregateTest.testRemoveOldBeforeAddNew: under the same key the old
// value is removed before the new one is added.
func TestGroupedTableRemovesOldBeforeAddingNew(t *testing.T) {
	b := kstreams.NewStreamsBuilder()
	tbl := stringTable(b, "count-test-input", kstreams.MaterializedAs[string, string]("source"))
	split := func(k, _ string) (string, string) { return k[:1], k[1:2] }
	kstreams.AggregateTable(kstreams.GroupTableBy(tbl, split, stringGrouped), func() string { return "" },
		func(_, v, agg string) string { return agg + v },
		func(_, v, agg string) string { return strings.ReplaceAll(agg, v, "") },
		kstreams.Materialized[string, string]{Name: "someStore", ValueSerde: serde.String{}}).ToStream().To("out")
	d := build(t, b, stringDefaults)
	pipeRows(t, d, "count-test-input", []row{{"11", "A", 10}, {"12", "B", 8}, {"11", "", 12}, {"12", "C", 6}})
	check(t, "out", d.Records("out"), []kv{{"1", []byte("1"), 10}, {"1", []byte("12"), 10}, {"1", []byte("2"), 12}, {"1", []byte("2"), 12}})
}

// KTableAggregateTest.testShouldNotSendTransientStateIfNotUpgrading and
// testNoEqualsAndNotSameObject: a key that stays the same is one record, no
// transient count of 0; a key Go cannot compare (a []byte, as Java's byte[]
// without equals) is two records, the transient 0 included.
func TestGroupedTableSameKeyIsOneUpdate(t *testing.T) {
	b := kstreams.NewStreamsBuilder()
	tbl := stringTable(b, "input-topic", kstreams.MaterializedAs[string, string]("source"))
	kstreams.GroupTableBy(tbl, func(k, v string) (string, string) { return k, v }, stringGrouped).Count().ToStream().
		To("same", kstreams.ProducedWith[string, int64](serde.String{}, serde.Long{}))
	asBytes := func(_, v string) ([]byte, []byte) { return []byte("1"), []byte(v) }
	kstreams.GroupTableBy(tbl, asBytes, kstreams.Grouped[[]byte, []byte]{KeySerde: serde.ByteArray{}, ValueSerde: serde.ByteArray{}}).
		Count().ToStream().To("bytes", kstreams.ProducedWith[[]byte, int64](serde.ByteArray{}, serde.Long{}))
	d := build(t, b, stringDefaults)
	pipeRows(t, d, "input-topic", []row{{"1", "x", 8}, {"1", "y", 9}})
	check(t, "same", d.Records("same"), []kv{{"1", long(1), 8}, {"1", long(1), 9}})
	check(t, "bytes", d.Records("bytes"), []kv{{"1", long(1), 8}, {"1", long(0), 9}, {"1", long(1), 9}})
}

// KGroupedTableImplTest's reduce: adder and subtractor over a re-keyed table,
// a deleted row subtracted from its group, and a reduce result that a
// subtractor turns into nil deleting the group.
func TestGroupedTableReduce(t *testing.T) {
	b := kstreams.NewStreamsBuilder()
	tbl := stringTable(b, "in", kstreams.MaterializedAs[string, string]("source"))
	byFirst := func(_, v string) (string, string) { return v[:1], v }
	kstreams.GroupTableBy(tbl, byFirst, stringGrouped).Reduce(
		func(agg, v string) string { return agg + "," + v },
		func(agg, v string) string { return strings.TrimPrefix(strings.ReplaceAll(","+agg, ","+v, ""), ",") },
		kstreams.MaterializedAs[string, string]("reduced")).ToStream().To("out")
	d := build(t, b, stringDefaults)
	pipeRows(t, d, "in", []row{{"k1", "a1", 1}, {"k2", "a2", 2}, {"k1", "b1", 3}, {"k2", "", 4}, {"k3", "b3", 5}})
	check(t, "out", d.Records("out"), []kv{{"a", []byte("a1"), 1}, {"a", []byte("a1,a2"), 2},
		{"a", []byte("a2"), 3}, {"b", []byte("b1"), 3}, {"a", []byte(""), 4}, {"b", []byte("b1,b3"), 5}})
}
