package kstreamstest_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/kstreamstest"
	"github.com/stoatflow/stoatflow/kstreams/serde"
)

// seenProcessor counts records per key in the "seen" store and forwards
// (value, count); "reset" deletes the key's count. It is the Go twin of the
// processor in testdata/jvmcapture/Proc.java.
type seenProcessor struct {
	ctx   kstreams.ProcessorContext
	store *kstreams.KeyValueStore
}

func (p *seenProcessor) Init(ctx kstreams.ProcessorContext) error {
	p.ctx = ctx
	s, err := ctx.StateStore("seen")
	if err != nil {
		return err
	}
	p.store = s.(*kstreams.KeyValueStore)
	return nil
}

func (p *seenProcessor) Process(r kstreams.Record) error {
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
	return p.ctx.Forward(kstreams.Record{Key: r.Value, Value: next, Timestamp: r.Timestamp, Headers: r.Headers})
}

func (p *seenProcessor) Close() error { return nil }

func processBuilder() *kstreams.StreamsBuilder {
	b := kstreams.NewStreamsBuilder()
	b.AddStateStore(kstreams.KeyValueStoreBuilder[string, int64]("seen", serde.String{}, serde.Long{}))
	in := kstreams.Stream(b, []string{"in"}, kstreams.ConsumedWith[string, string](serde.String{}, serde.String{}))
	counted := kstreams.Process[string, int64](in, func() kstreams.Processor { return &seenProcessor{} }, "", "seen")
	counted.To("counted", kstreams.ProducedWith[string, int64](serde.String{}, serde.Long{}))
	counted.GroupByKey(kstreams.Grouped[string, int64]{KeySerde: serde.String{}, ValueSerde: serde.Long{}}).Count().
		ToStream().To("regrouped", kstreams.ProducedWith[string, int64](serde.String{}, serde.Long{}))
	return b
}

func TestProcessWithStoreMatchesKafkaStreams44(t *testing.T) {
	topo, err := processBuilder().Build()
	if err != nil {
		t.Fatal(err)
	}
	wantDescribe, err := os.ReadFile(filepath.Join("..", "testdata", "jvmcapture", "papi", "process.describe.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if got := topo.Describe().String(); got != string(wantDescribe) {
		t.Errorf("describe\n%s\nkafka streams 4.4.0\n%s", got, wantDescribe)
	}
	want, err := os.ReadFile(filepath.Join("..", "testdata", "jvmcapture", "papi", "process.records.txt"))
	if err != nil {
		t.Fatal(err)
	}
	d := build(t, processBuilder(), kstreamstest.Config{ApplicationID: "app"})
	for _, r := range []struct {
		k, v string
		ts   int64
	}{{"k", "x", 5}, {"k", "y", 3}, {"j", "x", 8}, {"k", "reset", 9}, {"k", "x", 10}} {
		pipe(t, d, "in", r.k, r.v, r.ts)
	}
	if got := transcript(d, []string{"counted", "regrouped", "app-seen-changelog"}); got != string(want) {
		t.Errorf("records\n%s\nkafka streams 4.4.0\n%s", got, want)
	}
}
