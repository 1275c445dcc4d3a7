package streams_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/internal/testkafka"
	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/streams"
)

// forwardTopology is the Processor API topology in → forward → out, with
// the default serdes.
func forwardTopology(t *testing.T) *kstreams.Topology {
	t.Helper()
	topo := kstreams.NewTopology()
	forward := kstreams.ProcessorFunc(func(ctx kstreams.ProcessorContext, r kstreams.Record) error { return ctx.Forward(r) })
	for _, err := range []error{
		topo.AddSource("source", kstreams.SourceOptions{}, "in"),
		topo.AddProcessor("forward", forward.Supplier(), "source"),
		topo.AddSink("sink", "out", kstreams.SinkOptions{}, "forward"),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	return topo
}

// TestKfakePauseStopsProcessingUntilResume: an instance paused before it
// starts joins its group and goes RUNNING, but processes nothing; records
// produced meanwhile wait on the broker and are processed, in order, once
// it resumes; a second pause stops it again.
func TestKfakePauseStopsProcessingUntilResume(t *testing.T) {
	_, addr := startBroker(t)
	createTopics(t, addr, 2, "in", "out")
	ks, err := streams.New(forwardTopology(t), appConfig(t, addr, "pause", t.TempDir()))
	if err != nil {
		t.Fatal(err)
	}
	ks.Pause()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := ks.Start(ctx); err != nil {
		t.Fatal(err)
	}
	defer closeApp(t, ks)
	waitFor(t, 30*time.Second, "RUNNING while paused", func() bool { return ks.State() == streams.Running })
	produce := func(values ...string) {
		for _, v := range values {
			testkafka.Produce(t, addr, testkafka.Record{Topic: "in", Partition: 1, Key: []byte("k"), Value: []byte(v)})
		}
	}
	none := func(what string) {
		t.Helper()
		if got, _ := testkafka.ReadCommitted(addr, "out", 1, 3*time.Second, time.Second); len(got) != 0 {
			t.Fatalf("%s: %d records out, want none", what, len(got))
		}
	}
	produce("a", "b")
	none("paused before Start")
	if !ks.IsPaused() || ks.State() != streams.Running {
		t.Fatalf("IsPaused %v, state %s; want paused and RUNNING", ks.IsPaused(), ks.State())
	}
	ks.Resume()
	got, err := testkafka.ReadCommitted(addr, "out", 2, 20*time.Second, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if string(got[0].Value) != "a" || string(got[1].Value) != "b" {
		t.Fatalf("after Resume: %q, %q; want a, b", got[0].Value, got[1].Value)
	}
	ks.Pause()
	time.Sleep(time.Second) // the thread sees the pause at its next round
	produce("c")
	if got, _ := testkafka.ReadCommitted(addr, "out", 3, 3*time.Second, time.Second); len(got) != 2 {
		t.Fatalf("paused again: %d records out, want 2", len(got))
	}
	ks.Resume()
	if _, err := testkafka.ReadCommitted(addr, "out", 3, 20*time.Second, time.Second); err != nil {
		t.Fatal(err)
	}
}

// resumeOnRebalance resumes its instance from within the first assignment
// it sees once armed: a Resume that comes while a rebalance hands the
// thread its tasks.
type resumeOnRebalance struct {
	streams.NoHooks
	armed, fired atomic.Bool
	ks           atomic.Pointer[streams.KafkaStreams]
}

func (h *resumeOnRebalance) OnRebalance(int) {
	if h.armed.Load() && !h.fired.Load() {
		h.ks.Load().Resume()
		h.fired.Store(true)
	}
}
func (*resumeOnRebalance) OnPoll(int, int, time.Duration)                     {}
func (*resumeOnRebalance) OnProcess(int, kstreams.TaskID, int, time.Duration) {}
func (*resumeOnRebalance) OnRecordsLag(int, string, int32, int64)             {}
func (*resumeOnRebalance) OnTaskOpened(int, kstreams.TaskID)                  {}

// TestKfakeResumeDuringARebalanceResumesKeptTasks: a paused instance that
// is resumed while a rebalance hands its thread the tasks it keeps (a
// second instance joins) fetches and processes their partitions again;
// the pause a running task's partitions got before the rebalance does
// not outlive the Resume.
func TestKfakeResumeDuringARebalanceResumesKeptTasks(t *testing.T) {
	_, addr := startBroker(t)
	createTopics(t, addr, 2, "in", "out")
	produce := func(values ...string) {
		for i, v := range values {
			testkafka.Produce(t, addr, testkafka.Record{Topic: "in", Partition: int32(i % 2), Key: []byte("k"), Value: []byte(v)})
		}
	}
	hooks := &resumeOnRebalance{}
	a := startApp(t, forwardTopology(t), appConfig(t, addr, "resume-rebalance", t.TempDir()), streams.WithHooks(hooks))
	hooks.ks.Store(a)
	defer closeApp(t, a)
	produce("a0", "a1")
	if _, err := testkafka.ReadCommitted(addr, "out", 2, 30*time.Second, time.Second); err != nil {
		t.Fatal(err)
	}
	a.Pause()
	time.Sleep(time.Second) // the thread pauses its partitions at its next round
	hooks.armed.Store(true)
	b := startApp(t, forwardTopology(t), appConfig(t, addr, "resume-rebalance", t.TempDir()))
	defer closeApp(t, b)
	waitFor(t, 30*time.Second, "a rebalance on the paused instance", hooks.fired.Load)
	if a.IsPaused() {
		t.Fatal("still paused after Resume")
	}
	waitFor(t, 30*time.Second, "both instances RUNNING", func() bool {
		return a.State() == streams.Running && b.State() == streams.Running
	})
	produce("b0", "b1", "c0", "c1")
	got, err := testkafka.ReadCommitted(addr, "out", 6, 30*time.Second, time.Second)
	if err != nil {
		t.Fatalf("after Resume during the rebalance: %v (a partition the resumed instance kept stays paused?)", err)
	}
	t.Logf("%d records out", len(got))
}
