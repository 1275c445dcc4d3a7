package kstreamstest_test

import (
	"errors"
	"strconv"
	"testing"

	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/serde"
)

// counting is KTableTransformValuesTest's StatefulTransformer: it returns
// how many values it has seen, whatever they are.
type counting struct{ n int32 }

func (c *counting) Init(kstreams.ProcessorContext) error { return nil }
func (c *counting) Transform(string, string) (int32, error) {
	c.n++
	return c.n, nil
}
func (c *counting) Close() error { return nil }

// length is its StatelessTransformer: the value's length.
type length struct{}

func (length) Init(kstreams.ProcessorContext) error        { return nil }
func (length) Transform(_ string, v string) (int32, error) { return int32(len(v)), nil }
func (length) Close() error                                { return nil }

// regroupSum is the rest of both tests: groupBy to the same key, reduce with
// adder and subtractor, as strings.
func regroupSum(t *kstreams.KTable[string, int32]) {
	g := kstreams.GroupTableBy(t, func(k string, v int32) (string, int32) { return k, v },
		kstreams.Grouped[string, int32]{KeySerde: serde.String{}, ValueSerde: serde.Integer{}})
	sum := g.Reduce(func(a, v int32) int32 { return a + v }, func(a, v int32) int32 { return a - v })
	kstreams.MapTableValues(sum, func(_ string, v int32) string { return strconv.Itoa(int(v)) }).ToStream().To("out")
}

// KTableTransformValuesTest.shouldCalculateCorrectOldValuesIfMaterializedEvenIfStateful:
// a materialized result reads its old value from its store, so a stateful
// transformer is not run again for it.
func TestTableTransformValuesMaterializedOldValues(t *testing.T) {
	b := kstreams.NewStreamsBuilder()
	src := stringTable(b, "in", kstreams.MaterializedAs[string, string]("source"))
	tr := kstreams.TransformTableValues(src, func() kstreams.ValueTransformerWithKey[string, string, int32] { return &counting{} }, nil,
		kstreams.Materialized[string, int32]{Name: "queryable-store", KeySerde: serde.String{}, ValueSerde: serde.Integer{}})
	regroupSum(tr)
	d := build(t, b, stringDefaults)
	pipeRows(t, d, "in", []row{{"A", "ignored", 5}, {"A", "ignored1", 15}, {"A", "ignored2", 10}})
	check(t, "out", d.Records("out"), []kv{{"A", []byte("1"), 5}, {"A", []byte("2"), 15}, {"A", []byte("3"), 15}})
	if got := d.Changelog("queryable-store"); len(got) != 3 {
		t.Errorf("queryable-store changelog: %d records, want 3", len(got))
	}
}

// KTableTransformValuesTest.shouldCalculateCorrectOldValuesIfNotStatefulEvenIfNotMaterialized:
// unmaterialized, the old value is the transformer applied to the parent's
// old value.
func TestTableTransformValuesComputedOldValues(t *testing.T) {
	b := kstreams.NewStreamsBuilder()
	src := stringTable(b, "in", kstreams.MaterializedAs[string, string]("source"))
	regroupSum(kstreams.TransformTableValues(src, func() kstreams.ValueTransformerWithKey[string, string, int32] { return length{} }, nil))
	d := build(t, b, stringDefaults)
	pipeRows(t, d, "in", []row{{"A", "a", 5}, {"A", "aa", 15}, {"A", "aaa", 10}})
	check(t, "out", d.Records("out"), []kv{{"A", []byte("1"), 5}, {"A", []byte("2"), 15}, {"A", []byte("3"), 15}})
}

// exclaim is KTableTransformValuesTest's ExclamationValueTransformer over
// values that can be null, with a store of its own: "key->value!#n", n the
// key's updates so far; its context cannot forward.
type exclaim struct {
	store     *kstreams.KeyValueStore
	forwarded error
}

func (e *exclaim) Init(ctx kstreams.ProcessorContext) error {
	s, err := ctx.StateStore("updates")
	if err != nil {
		return err
	}
	e.store = s.(*kstreams.KeyValueStore)
	e.forwarded = ctx.Forward(kstreams.Record{Key: "x"})
	return nil
}

func (e *exclaim) Transform(k string, v *string) (*string, error) {
	if !errors.Is(e.forwarded, kstreams.ErrForwardNotAllowed) {
		return nil, errors.New("the transformer's context forwarded")
	}
	n, ok, err := e.store.Get(k)
	if err != nil {
		return nil, err
	}
	next := int64(1)
	if ok {
		next = n.(int64) + 1
	}
	if err := e.store.Put(k, next); err != nil {
		return nil, err
	}
	if v != nil && *v == "fail" {
		return nil, errors.New("transform failed")
	}
	s := "null"
	if v != nil {
		s = *v
	}
	out := k + "->" + s + "!#" + strconv.FormatInt(next, 10)
	return &out, nil
}

func (e *exclaim) Close() error { return nil }

// KTableTransformValuesTest.shouldTransformValuesWithKey and
// shouldTransformOnGetIfNotMaterialized's input: a deletion reaches a
// transformer whose values can be null, which may turn it into a value; a
// failed transformation is the record's error.
func TestTableTransformValuesSeesDeletions(t *testing.T) {
	b := kstreams.NewStreamsBuilder()
	b.AddStateStore(kstreams.KeyValueStoreBuilder[string, int64]("updates", serde.String{}, serde.Long{}))
	nullable := serde.Nullable[string](serde.String{})
	src := kstreams.Table(b, "in", kstreams.ConsumedWith[string, *string](serde.String{}, nullable))
	kstreams.TransformTableValues(src, func() kstreams.ValueTransformerWithKey[string, *string, *string] { return &exclaim{} },
		[]string{"updates"}).ToStream().To("out", kstreams.ProducedWith[string, *string](serde.String{}, nullable))
	d := build(t, b, stringDefaults)
	pipeRows(t, d, "in", []row{{"A", "a", 5}, {"B", "b", 10}, {"D", "", 15}, {"A", "", 20}})
	check(t, "out", d.Records("out"), []kv{{"A", []byte("A->a!#1"), 5}, {"B", []byte("B->b!#1"), 10},
		{"D", []byte("D->null!#1"), 15}, {"A", []byte("A->null!#2"), 20}})
	if err := d.Pipe("in", []byte("B"), []byte("fail"), 30); err == nil || err.Error() == "" {
		t.Fatalf("a failed transformation: %v", err)
	}
	if got := d.Records("out"); len(got) != 4 {
		t.Errorf("a failed transformation forwarded: %d records", len(got))
	}
}
