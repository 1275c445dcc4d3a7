package streams_test

import (
	"context"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/internal/testkafka"
	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/streams"
	"github.com/stoatflow/stoatflow/txn"
)

// commitTriggers records why each successful commit happened.
type commitTriggers struct {
	streams.NoHooks
	mu       sync.Mutex
	triggers []txn.Trigger
}

func (h *commitTriggers) OnCommit(_ int, stats txn.CommitStats, err error) {
	if err == nil {
		h.mu.Lock()
		defer h.mu.Unlock()
		h.triggers = append(h.triggers, stats.Trigger)
	}
}

// addInProcessorOut adds to topo the Processor API chain source (topic
// "in") → the named processor running fn → sink (topic "out").
func addInProcessorOut(t *testing.T, topo *kstreams.Topology, name string, fn kstreams.ProcessorFunc) {
	t.Helper()
	for _, err := range []error{
		topo.AddSource("source", kstreams.SourceOptions{}, "in"),
		topo.AddProcessor(name, fn.Supplier(), "source"),
		topo.AddSink("sink", "out", kstreams.SinkOptions{}, name),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
}

func (h *commitTriggers) requested() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Contains(h.triggers, txn.TriggerRequested)
}

// TestKfakeProcessorCommitEndsTheTransaction: with commit.interval.ms at a
// minute, what a processor forwards stays in its open transaction,
// unseen by a read_committed reader, until the processor calls Commit; the
// commit that follows is one the processor requested, and it makes every
// record before it visible.
func TestKfakeProcessorCommitEndsTheTransaction(t *testing.T) {
	_, addr := startBroker(t)
	createTopics(t, addr, 1, "in", "out")
	topo := kstreams.NewTopology()
	var processed atomic.Int32
	committer := kstreams.ProcessorFunc(func(ctx kstreams.ProcessorContext, r kstreams.Record) error {
		processed.Add(1)
		if r.Value == "commit" {
			ctx.Commit()
		}
		return ctx.Forward(r)
	})
	addInProcessorOut(t, topo, "committer", committer)
	hooks := &commitTriggers{}
	ks, err := streams.New(topo, appConfig(t, addr, "commit", t.TempDir(), "commit.interval.ms=60000", "producer.transaction.timeout.ms=60000"), streams.WithHooks(hooks))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := ks.Start(ctx); err != nil {
		t.Fatal(err)
	}
	defer closeApp(t, ks)
	produce := func(values ...string) {
		for _, v := range values {
			testkafka.Produce(t, addr, testkafka.Record{Topic: "in", Partition: 0, Key: []byte("k"), Value: []byte(v)})
		}
	}
	produce("a", "b")
	for processed.Load() < 2 {
		if ctx.Err() != nil {
			t.Fatal("the records were never processed")
		}
		time.Sleep(50 * time.Millisecond)
	}
	if got, _ := testkafka.ReadCommitted(addr, "out", 1, 3*time.Second, time.Second); len(got) != 0 {
		t.Fatalf("%d records visible before any commit, want 0", len(got))
	}
	if hooks.requested() {
		t.Fatal("a requested commit before any processor asked for one")
	}
	produce("commit")
	got, err := testkafka.ReadCommitted(addr, "out", 3, 20*time.Second, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	var values []string
	for _, r := range got {
		values = append(values, string(r.Value))
	}
	if want := []string{"a", "b", "commit"}; !slices.Equal(values, want) {
		t.Errorf("output %v, want %v", values, want)
	}
	if !hooks.requested() {
		t.Errorf("commits %v: none was requested", hooks.triggers)
	}
}
