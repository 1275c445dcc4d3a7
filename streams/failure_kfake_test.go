package streams_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/internal/testkafka"
	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/serde"
	"github.com/stoatflow/stoatflow/streams"
	"github.com/stoatflow/stoatflow/txn"
)

// threadCommits records which threads committed.
type threadCommits struct {
	streams.NoHooks
	mu      sync.Mutex
	commits map[int]int
}

func (h *threadCommits) OnCommit(thread int, _ txn.CommitStats, err error) {
	if err != nil {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.commits[thread]++
}

func (h *threadCommits) of(thread int) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.commits[thread]
}

// failOnceTopology is the word count whose processor panics at the first
// "boom" this process sees, and counts it like any word after.
func failOnceTopology(t *testing.T, failed *atomic.Bool) *kstreams.Topology {
	t.Helper()
	b := kstreams.NewStreamsBuilder()
	words := kstreams.Stream[string, string](b, []string{"in"}).Peek(func(_, w string) {
		if w == "boom" && failed.CompareAndSwap(false, true) {
			panic("boom: the processor's first failure")
		}
	})
	counts := kstreams.GroupBy(words, func(_, w string) string { return w }).
		Count(kstreams.MaterializedAs[string, int64]("counts"))
	counts.ToStream().To("out", kstreams.ProducedWith[string, int64](serde.String{}, serde.Long{}))
	topo, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return topo
}

// TestKfakeReplaceThreadResumesFromTheCommittedState: under
// exactly_once_v2, a processor that panics with REPLACE_THREAD answered
// stops its thread, whose epoch aborts; a new thread (under the failed
// one's index) takes its tasks from their committed offsets and stores, and the output has every
// count once, the failing record's included.
func TestKfakeReplaceThreadResumesFromTheCommittedState(t *testing.T) {
	_, addr := startBroker(t)
	createTopics(t, addr, 2, "in", "out")
	var failed atomic.Bool
	hooks := &threadCommits{commits: map[int]int{}}
	quiet := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError}))
	ks, err := streams.New(failOnceTopology(t, &failed), appConfig(t, addr, "replace", t.TempDir()),
		streams.WithLogger(quiet), streams.WithHooks(hooks))
	if err != nil {
		t.Fatal(err)
	}
	var handled []error
	var mu sync.Mutex
	if err := ks.SetUncaughtExceptionHandler(func(err error) streams.ExceptionResponse {
		mu.Lock()
		defer mu.Unlock()
		handled = append(handled, err)
		return streams.ReplaceThread
	}); err != nil {
		t.Fatal(err)
	}
	var states []string
	ks.SetStateListener(func(next, _ streams.State) {
		mu.Lock()
		defer mu.Unlock()
		states = append(states, next.String())
	})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := ks.Start(ctx); err != nil {
		t.Fatal(err)
	}
	defer closeApp(t, ks)
	if err := ks.SetUncaughtExceptionHandler(nil); !errors.Is(err, streams.ErrAlreadyStarted) {
		t.Errorf("setting the handler after Start: %v, want ErrAlreadyStarted", err)
	}

	seq := append(append(append([]string{}, vocab...), vocab...), "boom")
	seq = append(seq, vocab...)
	produce := func(from, to int) {
		recs := make([]testkafka.Record, 0, to-from)
		for i := from; i < to; i++ {
			recs = append(recs, testkafka.Record{Topic: "in", Partition: testkafka.AnyPartition, Key: []byte("k"), Value: []byte(seq[i])})
		}
		testkafka.Produce(t, addr, recs...)
	}
	// The words before the failure are committed first.
	produce(0, 2*len(vocab))
	readCounts(t, addr, "out", 2*len(vocab))
	before := hooks.of(1)
	produce(2*len(vocab), len(seq))
	got := readCounts(t, addr, "out", len(seq))

	want := map[string][]int64{}
	for _, w := range seq {
		want[w] = append(want[w], int64(len(want[w])+1))
	}
	checkCounts(t, got, want)
	if ks.State() != streams.Running {
		t.Errorf("state %s after the replacement, want RUNNING (%v)", ks.State(), ks.Err())
	}
	mu.Lock()
	defer mu.Unlock()
	if len(handled) != 1 || !strings.Contains(handled[0].Error(), "boom: the processor's first failure") {
		t.Fatalf("the handler saw %v, want the processor's one panic", handled)
	}
	if n := hooks.of(1); n <= before {
		t.Errorf("%d commits of thread 1 before the failure, %d at the end: the replacement never committed", before, n)
	}
	if !strings.Contains(strings.Join(states, ","), "RUNNING,REBALANCING") {
		t.Errorf("states %v: the replacement did not rebalance", states)
	}
}

// TestKfakeShutdownClientWithoutHandler: without a handler, a failing
// processor stops the instance, which ends in ERROR with the failure.
func TestKfakeShutdownClientWithoutHandler(t *testing.T) {
	_, addr := startBroker(t)
	createTopics(t, addr, 1, "in", "out")
	var failed atomic.Bool
	ks := startApp(t, failOnceTopology(t, &failed), appConfig(t, addr, "fail", t.TempDir()))
	testkafka.Produce(t, addr, testkafka.Record{Topic: "in", Partition: 0, Key: []byte("k"), Value: []byte("boom")})
	select {
	case <-ks.Done():
	case <-time.After(time.Minute):
		t.Fatalf("the instance did not stop after its processor failed (state %s)", ks.State())
	}
	if ks.State() != streams.Error || ks.Err() == nil || !strings.Contains(ks.Err().Error(), "boom") {
		t.Fatalf("state %s, error %v: want ERROR with the processor's failure", ks.State(), ks.Err())
	}
}

// TestKfakeCleanUpRestoresInFull: CleanUp is refused while the instance
// runs; after Close it deletes the stores, so the next instance on the
// directory restores them in full from their changelogs and counts on
// from there.
func TestKfakeCleanUpRestoresInFull(t *testing.T) {
	_, addr := startBroker(t)
	createTopics(t, addr, 2, "in", "out")
	dir := t.TempDir()
	ks := startApp(t, countTopology(t, "in", "out"), appConfig(t, addr, "clean", dir))
	if err := ks.CleanUp(); !errors.Is(err, streams.ErrRunning) {
		t.Fatalf("CleanUp while running: %v, want ErrRunning", err)
	}
	words(t, addr, "in", 0, 100, vocab)
	readCounts(t, addr, "out", 100)
	closeApp(t, ks)
	if err := ks.CleanUp(); err != nil {
		t.Fatal(err)
	}

	hooks := newCommitHooks(t)
	ks = startApp(t, countTopology(t, "in", "out"), appConfig(t, addr, "clean", dir), streams.WithHooks(hooks))
	words(t, addr, "in", 100, 100, vocab)
	checkCounts(t, readCounts(t, addr, "out", 200), wantCounts(200, vocab))
	closeApp(t, ks)
	hooks.mu.Lock()
	defer hooks.mu.Unlock()
	if len(hooks.full) == 0 {
		t.Fatal("no restore after CleanUp")
	}
	for tp, full := range hooks.full {
		if !full {
			t.Errorf("%s restored from a local offset after CleanUp, want in full", tp)
		}
	}
}

// TestKfakeShutdownApplicationStopsEveryInstance: a processor fails and
// its instance's handler answers SHUTDOWN_APPLICATION. The request goes
// through the group: every instance ends in ERROR, the failing one with
// its failure, the others with ErrApplicationShutdown, their own handlers
// never asked. With two instances of one thread each, the failing one asks
// through a consumer of its own; with one instance of two threads, through
// its other thread.
func TestKfakeShutdownApplicationStopsEveryInstance(t *testing.T) {
	for name, threads := range map[string][]int{"two instances": {1, 1}, "two threads": {2}} {
		t.Run(name, func(t *testing.T) { shutdownApplication(t, threads) })
	}
}

func shutdownApplication(t *testing.T, threads []int) {
	_, addr := startBroker(t)
	createTopics(t, addr, 2, "in", "out")
	var failed atomic.Bool
	quiet := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError}))
	var mu sync.Mutex
	asked := map[int]int{}
	var instances []*streams.KafkaStreams
	for i, n := range threads {
		cfg := appConfig(t, addr, "shutdown-app", t.TempDir(), fmt.Sprintf("num.stream.threads=%d", n))
		ks, err := streams.New(failOnceTopology(t, &failed), cfg, streams.WithLogger(quiet))
		if err != nil {
			t.Fatal(err)
		}
		if err := ks.SetUncaughtExceptionHandler(func(error) streams.ExceptionResponse {
			mu.Lock()
			defer mu.Unlock()
			asked[i]++
			return streams.ShutdownApplication
		}); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		err = ks.Start(ctx)
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = ks.Close(context.Background()) })
		instances = append(instances, ks)
	}
	// Every thread runs its share of the input before the failure.
	words(t, addr, "in", 0, 40, vocab)
	readCounts(t, addr, "out", 40)
	testkafka.Produce(t, addr, testkafka.Record{Topic: "in", Partition: testkafka.AnyPartition, Key: []byte("k"), Value: []byte("boom")})
	for i, ks := range instances {
		select {
		case <-ks.Done():
		case <-time.After(time.Minute):
			t.Fatalf("instance %d still %s a minute after the failure", i, ks.State())
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(asked) != 1 {
		t.Fatalf("handlers asked %v, want only the failing instance's, once", asked)
	}
	for i, ks := range instances {
		if ks.State() != streams.Error {
			t.Errorf("instance %d ended %s, want ERROR", i, ks.State())
		}
		if asked[i] == 1 {
			if ks.Err() == nil || !strings.Contains(ks.Err().Error(), "boom") {
				t.Errorf("the failing instance's error %v, want its processor's failure", ks.Err())
			}
		} else if !errors.Is(ks.Err(), streams.ErrApplicationShutdown) {
			t.Errorf("instance %d's error %v, want ErrApplicationShutdown", i, ks.Err())
		}
	}
}
