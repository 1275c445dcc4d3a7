package kstreamstest_test

import (
	"testing"

	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/kstreamstest"
	"github.com/stoatflow/stoatflow/kstreams/serde"
)

// typedSeen is seenProcessor written against the typed Processor API.
type typedSeen struct {
	ctx   kstreams.TypedContext[string, int64]
	store *kstreams.KeyValueStore
}

func (p *typedSeen) Init(ctx kstreams.TypedContext[string, int64]) error {
	p.ctx = ctx
	s, err := ctx.StateStore("seen")
	if err != nil {
		return err
	}
	p.store = s.(*kstreams.KeyValueStore)
	return nil
}

func (p *typedSeen) Process(r kstreams.TypedRecord[string, string]) error {
	n, ok, err := p.store.Get(r.Key)
	if err != nil {
		return err
	}
	next := int64(1)
	if ok {
		next = n.(int64) + 1
	}
	if r.Value == "reset" {
		next = 0
		err = p.store.Delete(r.Key)
	} else {
		err = p.store.Put(r.Key, next)
	}
	if err != nil {
		return err
	}
	return p.ctx.Forward(kstreams.TypedRecord[string, int64]{Key: r.Value, Value: next, Timestamp: r.Timestamp, Headers: r.Headers})
}

func (p *typedSeen) Close() error { return nil }

func TestTypedProcessorGivesTheSameRecords(t *testing.T) {
	b := kstreams.NewStreamsBuilder()
	b.AddStateStore(kstreams.KeyValueStoreBuilder[string, int64]("seen", serde.String{}, serde.Long{}))
	in := kstreams.Stream(b, []string{"in"}, kstreams.ConsumedWith[string, string](serde.String{}, serde.String{}))
	counted := kstreams.ProcessTyped(in, func() kstreams.TypedProcessor[string, string, string, int64] { return &typedSeen{} }, "", "seen")
	counted.To("counted", kstreams.ProducedWith[string, int64](serde.String{}, serde.Long{}))
	counted.GroupByKey(kstreams.Grouped[string, int64]{KeySerde: serde.String{}, ValueSerde: serde.Long{}}).Count().
		ToStream().To("regrouped", kstreams.ProducedWith[string, int64](serde.String{}, serde.Long{}))
	typed := build(t, b, kstreamstest.Config{ApplicationID: "app"})
	untyped := build(t, processBuilder(), kstreamstest.Config{ApplicationID: "app"})
	for _, d := range []*kstreamstest.Driver{typed, untyped} {
		for _, r := range []struct {
			k, v string
			ts   int64
		}{{"k", "x", 5}, {"k", "y", 3}, {"j", "x", 8}, {"k", "reset", 9}, {"k", "x", 10}} {
			pipe(t, d, "in", r.k, r.v, r.ts)
		}
	}
	topics := []string{"counted", "regrouped", "app-seen-changelog"}
	if got, want := transcript(typed, topics), transcript(untyped, topics); got != want {
		t.Errorf("typed\n%s\nuntyped\n%s", got, want)
	}
}

type nullifier struct {
	ctx kstreams.TypedContext[string, *string]
}

func (p *nullifier) Init(ctx kstreams.TypedContext[string, *string]) error { p.ctx = ctx; return nil }
func (p *nullifier) Close() error                                          { return nil }

func (p *nullifier) Process(r kstreams.TypedRecord[string, *string]) error {
	if r.Value != nil && *r.Value == "drop" {
		r.Value = nil
	}
	return p.ctx.Forward(r)
}

func TestTypedNilIsKafkaNull(t *testing.T) {
	b := kstreams.NewStreamsBuilder()
	in := kstreams.Stream(b, []string{"in"}, kstreams.ConsumedWith[string, *string](serde.String{}, serde.Nullable[string](serde.String{})))
	out := kstreams.ProcessTyped(in, func() kstreams.TypedProcessor[string, *string, string, *string] { return &nullifier{} }, "")
	out.To("out", kstreams.ProducedWith[string, *string](serde.String{}, serde.Nullable[string](serde.String{})))
	out.GroupByKey(kstreams.Grouped[string, *string]{KeySerde: serde.String{}, ValueSerde: serde.Nullable[string](serde.String{})}).Count().
		ToStream().To("counts", kstreams.ProducedWith[string, int64](serde.String{}, serde.Long{}))
	d := build(t, b, kstreamstest.Config{})
	for _, v := range []string{"keep", "drop"} {
		if err := d.Pipe("in", []byte("k"), []byte(v), 1); err != nil {
			t.Fatal(err)
		}
	}
	if err := d.Pipe("in", []byte("k"), nil, 2); err != nil {
		t.Fatal(err)
	}
	check(t, "out", d.Records("out"), []kv{{"k", []byte("keep"), 1}, {"k", nil, 1}, {"k", nil, 2}})
	check(t, "counts", d.Records("counts"), []kv{{"k", long(1), 1}})
}

func TestMapValuesToNilPointerIsKafkaNull(t *testing.T) {
	b := kstreams.NewStreamsBuilder()
	in := kstreams.Stream(b, []string{"in"}, kstreams.ConsumedWith[string, string](serde.String{}, serde.String{}))
	ptr := kstreams.MapValues(in, func(v string) *string {
		if v == "drop" {
			return nil
		}
		return &v
	})
	ptr.To("out", kstreams.ProducedWith[string, *string](serde.String{}, serde.Nullable[string](serde.String{})))
	ptr.GroupByKey(kstreams.Grouped[string, *string]{ValueSerde: serde.Nullable[string](serde.String{})}).Count().
		ToStream().To("counts", kstreams.ProducedWith[string, int64](serde.String{}, serde.Long{}))
	d := build(t, b, kstreamstest.Config{})
	pipe(t, d, "in", "k", "keep", 1)
	pipe(t, d, "in", "k", "drop", 2)
	check(t, "out", d.Records("out"), []kv{{"k", []byte("keep"), 1}, {"k", nil, 2}})
	check(t, "counts", d.Records("counts"), []kv{{"k", long(1), 1}})
}
