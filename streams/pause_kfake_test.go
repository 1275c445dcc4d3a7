package streams_test

import (
	"context"
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
