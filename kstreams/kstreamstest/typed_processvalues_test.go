package kstreamstest_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stoatflow/stoatflow/examples/processvalues"
	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/kstreamstest"
	"github.com/stoatflow/stoatflow/kstreams/serde"
)

// typedTagger is the processvalues example's tagger on the typed API.
type typedTagger struct {
	ctx  kstreams.TypedFixedKeyContext[string, string]
	seen *kstreams.KeyValueStore
}

func (p *typedTagger) Init(ctx kstreams.TypedFixedKeyContext[string, string]) error {
	st, err := ctx.StateStore(processvalues.SeenStore)
	if err != nil {
		return err
	}
	p.ctx, p.seen = ctx, st.(*kstreams.KeyValueStore)
	return nil
}

func (p *typedTagger) Process(r kstreams.TypedFixedKeyRecord[string, string]) error {
	if r.Value == "drop" {
		return nil
	}
	n, ok, err := p.seen.Get(r.Key())
	if err != nil {
		return err
	}
	next := int64(1)
	if ok {
		next = n.(int64) + 1
	}
	if err := p.seen.Put(r.Key(), next); err != nil {
		return err
	}
	r.Value += "#" + strconv.FormatInt(next, 10)
	return p.ctx.Forward(r)
}

func (p *typedTagger) Close() error { return nil }

// typedUpper upper-cases values, and changes their type on the way: a
// string becomes a []byte.
type typedUpper struct {
	ctx kstreams.TypedFixedKeyContext[string, []byte]
}

func (p *typedUpper) Init(ctx kstreams.TypedFixedKeyContext[string, []byte]) error {
	p.ctx = ctx
	return nil
}

func (p *typedUpper) Process(r kstreams.TypedFixedKeyRecord[string, string]) error {
	return p.ctx.Forward(kstreams.WithValue(r, []byte(strings.ToUpper(r.Value))))
}

func (p *typedUpper) Close() error { return nil }

// TestTypedFixedKeyProcessorGivesTheSameRecords: the processvalues example
// (pinned against Kafka Streams by TestProcessValuesMatchesKafkaStreams)
// written with typed fixed-key processors writes the same records, its
// changelogs and repartition topic included.
func TestTypedFixedKeyProcessorGivesTheSameRecords(t *testing.T) {
	s := serde.String{}
	produced := kstreams.ProducedWith[string, string](s, s)
	b := kstreams.NewStreamsBuilder()
	b.AddStateStore(kstreams.KeyValueStoreBuilder[string, int64](processvalues.SeenStore, s, serde.Long{}))
	in := kstreams.Stream(b, []string{"in"}, kstreams.ConsumedWith[string, string](s, s))
	tagged := kstreams.ProcessValuesTyped(in, func() kstreams.TypedFixedKeyProcessor[string, string, string] { return &typedTagger{} }, "", processvalues.SeenStore)
	tagged.To("out", produced)
	grouped := kstreams.Grouped[string, string]{KeySerde: s, ValueSerde: s}
	kstreams.MapValues(tagged.GroupByKey(grouped).Count().ToStream(), func(n int64) string { return "count:" + strconv.FormatInt(n, 10) }).
		To("out", produced)
	rekeyed := kstreams.SelectKey(in, func(_, v string) string { return v })
	upper := kstreams.ProcessValuesTyped(rekeyed, func() kstreams.TypedFixedKeyProcessor[string, string, []byte] { return &typedUpper{} }, "")
	kstreams.MapValues(upper.GroupByKey(kstreams.Grouped[string, []byte]{KeySerde: s, ValueSerde: serde.ByteArray{}}).Count().ToStream(),
		func(n int64) string { return "rekeyed:" + strconv.FormatInt(n, 10) }).
		To("out", produced)
	typed := build(t, b, kstreamstest.Config{ApplicationID: "app"})
	topo, err := processvalues.Build(map[string]string{"input": "in", "output": "out"})
	if err != nil {
		t.Fatal(err)
	}
	untyped, err := kstreamstest.New(topo, kstreamstest.Config{ApplicationID: "app"})
	if err != nil {
		t.Fatal(err)
	}
	defer untyped.Close()
	values := []string{"ant", "bee", "drop", "cat", "bee", "ant"}
	for _, d := range []*kstreamstest.Driver{typed, untyped} {
		for i := range 24 {
			pipe(t, d, "in", "k"+strconv.Itoa(i%4), values[i%len(values)], int64(i)*100)
		}
	}
	topics := []string{"out", "app-" + processvalues.SeenStore + "-changelog",
		"app-KSTREAM-AGGREGATE-STATE-STORE-0000000003-changelog", "app-KSTREAM-AGGREGATE-STATE-STORE-0000000010-repartition",
		"app-KSTREAM-AGGREGATE-STATE-STORE-0000000010-changelog"}
	got, want := transcript(typed, topics), transcript(untyped, topics)
	if got != want {
		t.Errorf("typed\n%s\nuntyped\n%s", got, want)
	}
	if strings.Count(want, "\n") < 60 {
		t.Fatalf("the untyped run wrote %d records; the topics compared are not the ones it writes:\n%s", strings.Count(want, "\n"), want)
	}
}

// nullMarker forwards a string's length, and a null for a null value.
type nullMarker struct {
	ctx  kstreams.TypedFixedKeyContext[string, int64]
	seen []string
}

func (p *nullMarker) Init(ctx kstreams.TypedFixedKeyContext[string, int64]) error {
	p.ctx = ctx
	return nil
}

func (p *nullMarker) Process(r kstreams.TypedFixedKeyRecord[string, string]) error {
	p.seen = append(p.seen, strconv.FormatBool(r.KeyNull())+"/"+strconv.FormatBool(r.ValueNull))
	out := kstreams.WithValue(r, int64(len(r.Value)))
	out.ValueNull = r.ValueNull
	return p.ctx.Forward(out)
}

func (p *nullMarker) Close() error { return nil }

// TestTypedFixedKeyProcessorNulls: a null value reaches the processor as
// ValueNull (never as ""), a ValueNull it forwards is written as a null,
// and a null key stays null.
func TestTypedFixedKeyProcessorNulls(t *testing.T) {
	b := kstreams.NewStreamsBuilder()
	in := kstreams.Stream(b, []string{"in"}, kstreams.ConsumedWith[string, string](serde.String{}, serde.String{}))
	p := &nullMarker{}
	kstreams.ProcessValuesTyped(in, func() kstreams.TypedFixedKeyProcessor[string, string, int64] { return p }, "lengths").
		To("out", kstreams.ProducedWith[string, int64](serde.String{}, serde.Long{}))
	d := build(t, b, kstreamstest.Config{ApplicationID: "app"})
	for _, r := range []struct {
		k, v []byte
	}{{[]byte("a"), []byte("four")}, {[]byte("b"), nil}, {nil, []byte("xy")}, {[]byte("c"), []byte("")}} {
		if err := d.Pipe("in", r.k, r.v, 1); err != nil {
			t.Fatal(err)
		}
	}
	if got := strings.Join(p.seen, " "); got != "false/false false/true true/false false/false" {
		t.Errorf("the processor saw key-null/value-null %s", got)
	}
	recs := d.Records("out")
	if len(recs) != 4 {
		t.Fatalf("%d records written, want 4", len(recs))
	}
	if recs[1].Value != nil || string(recs[1].Key) != "b" {
		t.Errorf("record 1: key %q value %v, want b and a null", recs[1].Key, recs[1].Value)
	}
	if recs[2].Key != nil || len(recs[2].Value) != 8 || recs[2].Value[7] != 2 {
		t.Errorf("record 2: key %v value %v, want a null key and the Long 2", recs[2].Key, recs[2].Value)
	}
	if len(recs[3].Value) != 8 || recs[3].Value[7] != 0 {
		t.Errorf("record 3: value %v, want the Long 0 for the empty string (not a null)", recs[3].Value)
	}
}
