package streams_test

// Broker-free tests of the runtime: an in-process Kafka-protocol broker
// (kfake) that the runtime's franz-go clients talk to, with transactions, consumer groups and
// DeleteRecords. They run under the race detector in make test.

import (
	"context"
	"encoding/binary"
	"fmt"
	"log/slog"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"

	"github.com/stoatflow/stoatflow/compat"
	"github.com/stoatflow/stoatflow/internal/testkafka"
	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/serde"
	"github.com/stoatflow/stoatflow/state"
	"github.com/stoatflow/stoatflow/streams"
	"github.com/stoatflow/stoatflow/txn"
)

// startBroker starts a one-broker kfake cluster for the test.
func startBroker(t *testing.T, opts ...kfake.Opt) (*kfake.Cluster, string) {
	t.Helper()
	c, err := kfake.NewCluster(append([]kfake.Opt{kfake.NumBrokers(1)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c, strings.Join(c.ListenAddrs(), ",")
}

// appConfig is an exactly_once_v2 application on the broker at addr, with
// String default serdes, commits every 100 ms and fast rebalances.
func appConfig(t *testing.T, addr, appID, stateDir string, extra ...string) *compat.Config {
	t.Helper()
	return appConfigWith(t, nil, addr, appID, stateDir, extra...)
}

// appConfigWith is appConfig loaded with opts.
func appConfigWith(t *testing.T, opts []compat.LoadOption, addr, appID, stateDir string, extra ...string) *compat.Config {
	t.Helper()
	sets := []string{
		"application.id=" + appID,
		"bootstrap.servers=" + addr,
		"state.dir=" + stateDir,
		"processing.guarantee=exactly_once_v2",
		"commit.interval.ms=100",
		"default.key.serde=org.apache.kafka.common.serialization.Serdes$StringSerde",
		"default.value.serde=org.apache.kafka.common.serialization.Serdes$StringSerde",
		"statestore.cache.max.bytes=0",
		"replication.factor=1",
		"main.consumer.session.timeout.ms=6000",
		"main.consumer.heartbeat.interval.ms=500",
	}
	cfg, diags := compat.LoadFiles(nil, append(sets, extra...), nil, opts...)
	if err := diags.Err(); err != nil {
		t.Fatal(err)
	}
	return cfg
}

// countTopology is the word count over whole values: each input value is
// one word, repartitioned by word (through <app>-counts-repartition) and
// counted in store "counts"; every new count goes to output as a Long.
func countTopology(t *testing.T, input, output string) *kstreams.Topology {
	t.Helper()
	b := kstreams.NewStreamsBuilder()
	words := kstreams.Stream[string, string](b, []string{input})
	counts := kstreams.GroupBy(words, func(_, w string) string { return w }).
		Count(kstreams.MaterializedAs[string, int64]("counts"))
	counts.ToStream().To(output, kstreams.ProducedWith[string, int64](serde.String{}, serde.Long{}))
	topo, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return topo
}

// commitHooks counts successful and failed commits and checks that every
// successful commit leaves the thread without uncommitted bytes.
type commitHooks struct {
	streams.NoHooks
	t        *testing.T
	mu       sync.Mutex
	commits  int
	failures []error
	restored map[string]int64 // changelog partition → records restored
	full     map[string]bool  // changelog partition → restore was full
	// justCommitted marks threads whose next uncommitted-bytes report is
	// the one the thread sends right after a successful commit.
	justCommitted map[int]bool
	afterCommit   int // such reports seen
}

func newCommitHooks(t *testing.T) *commitHooks {
	return &commitHooks{t: t, restored: map[string]int64{}, full: map[string]bool{}, justCommitted: map[int]bool{}}
}

func (h *commitHooks) OnCommit(thread int, _ txn.CommitStats, err error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if err != nil {
		h.failures = append(h.failures, err)
		return
	}
	h.commits++
	h.justCommitted[thread] = true
}

func (h *commitHooks) OnThreadUncommittedBytes(thread int, n int64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	// The report that follows a commit: the thread's share of the budget
	// is back to zero.
	if h.justCommitted[thread] {
		h.justCommitted[thread] = false
		h.afterCommit++
		if n != 0 {
			h.t.Errorf("thread %d holds %d uncommitted bytes right after a commit", thread, n)
		}
	}
}

func (h *commitHooks) OnRestoreStart(_ string, tp state.TopicPartition, _, _ int64, full bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.full[tp.String()] = full
}

func (h *commitHooks) OnRestoreEnd(_ string, tp state.TopicPartition, total int64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.restored[tp.String()] += total
}

func (h *commitHooks) counts() (ok int, failed []error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.commits > 0 && h.afterCommit == 0 {
		h.t.Errorf("%d commits, but no uncommitted-bytes report after any", h.commits)
	}
	return h.commits, slices.Clone(h.failures)
}

// startApp starts topo and waits until the instance is RUNNING.
func startApp(t *testing.T, topo *kstreams.Topology, cfg *compat.Config, opts ...streams.Option) *streams.KafkaStreams {
	t.Helper()
	// Warnings and errors only: a failing test shows them, a passing one
	// stays readable.
	quiet := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	ks, err := streams.New(topo, cfg, append([]streams.Option{streams.WithLogger(quiet)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	running := make(chan struct{})
	var once sync.Once
	ks.SetStateListener(func(next, _ streams.State) {
		if next == streams.Running {
			once.Do(func() { close(running) })
		}
	})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := ks.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		_ = ks.Close(ctx)
	})
	select {
	case <-running:
	case <-ks.Done():
		t.Fatalf("instance stopped before RUNNING: %v", ks.Err())
	case <-time.After(time.Minute):
		t.Fatalf("instance not RUNNING after a minute (state %s)", ks.State())
	}
	return ks
}

func closeApp(t *testing.T, ks *streams.KafkaStreams) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := ks.Close(ctx); err != nil {
		t.Fatalf("close: %v", err)
	}
}

// words produces n records to input, the i-th with value vocab[i%len(vocab)]
// and key "k<i>".
func words(t *testing.T, addr, input string, from, n int, vocab []string) {
	t.Helper()
	recs := make([]testkafka.Record, 0, n)
	for i := from; i < from+n; i++ {
		recs = append(recs, testkafka.Record{Topic: input, Partition: testkafka.AnyPartition,
			Key: []byte(fmt.Sprintf("k%d", i)), Value: []byte(vocab[i%len(vocab)])})
	}
	testkafka.Produce(t, addr, recs...)
}

// wantCounts is what the word count of records 0..n-1 over vocab writes per
// word: the counts 1, 2, ... in order.
func wantCounts(n int, vocab []string) map[string][]int64 {
	want := map[string][]int64{}
	for i := 0; i < n; i++ {
		w := vocab[i%len(vocab)]
		want[w] = append(want[w], int64(len(want[w])+1))
	}
	return want
}

// readCounts reads the output read_committed until it holds n updates (and
// 500 ms more), and returns each word's counts in offset order.
func readCounts(t *testing.T, addr, output string, n int) map[string][]int64 {
	t.Helper()
	recs, err := testkafka.ReadCommitted(addr, output, n, time.Minute, 500*time.Millisecond)
	if err != nil {
		t.Fatalf("reading %s: %v", output, err)
	}
	got := map[string][]int64{}
	for _, r := range recs {
		if len(r.Value) != 8 {
			t.Fatalf("output %s@%d: value of %d bytes, want a Long", output, r.Offset, len(r.Value))
		}
		got[string(r.Key)] = append(got[string(r.Key)], int64(binary.BigEndian.Uint64(r.Value)))
	}
	return got
}

func checkCounts(t *testing.T, got, want map[string][]int64) {
	t.Helper()
	for w, seq := range want {
		if !slices.Equal(got[w], seq) {
			i := 0
			for i < len(seq) && i < len(got[w]) && got[w][i] == seq[i] {
				i++
			}
			at := func(s []int64) string {
				if i < len(s) {
					return fmt.Sprint(s[i])
				}
				return "none"
			}
			t.Errorf("word %q: %d committed updates, want %d; first difference at update %d: %s, want %s",
				w, len(got[w]), len(seq), i+1, at(got[w]), at(seq))
		}
	}
	for w := range got {
		if _, ok := want[w]; !ok {
			t.Errorf("unexpected word %q in the output: %v", w, got[w])
		}
	}
}

// storeCounts reads every "counts" partition this instance hosts at iso.
func storeCounts(t *testing.T, ks *streams.KafkaStreams, iso state.IsolationLevel) map[string]int64 {
	t.Helper()
	out := map[string]int64{}
	for _, ls := range ks.LocalStores("counts") {
		kv, ok := ls.Store.(state.KeyValueStore)
		if !ok {
			t.Fatalf("store counts partition %d is a %T", ls.Partition, ls.Store)
		}
		it, err := kv.ReadOnly(iso).All()
		if err != nil {
			t.Fatal(err)
		}
		for it.Next() {
			v := it.Value()
			if len(v) != 16 { // timestamp ++ Long
				t.Fatalf("store counts partition %d key %q: value of %d bytes", ls.Partition, it.Key(), len(v))
			}
			out[string(it.Key())] = int64(binary.BigEndian.Uint64(v[8:]))
		}
		if err := it.Err(); err != nil {
			t.Fatal(err)
		}
		it.Close()
	}
	return out
}

var vocab = []string{"otter", "badger", "stoat", "weasel", "marten", "mink", "ferret", "wolverine", "sable"}

func createTopics(t *testing.T, addr string, partitions int, topics ...string) {
	t.Helper()
	testkafka.CreateTopics(t, addr, partitions, topics...)
}

// TestKfakeWordCountExactlyOnce: the runtime end to end on kfake, the
// baseline the other tests build on.
func TestKfakeWordCountExactlyOnce(t *testing.T) {
	_, addr := startBroker(t)
	createTopics(t, addr, 2, "in", "out")
	hooks := newCommitHooks(t)
	ks := startApp(t, countTopology(t, "in", "out"), appConfig(t, addr, "wc", t.TempDir()), streams.WithHooks(hooks))
	words(t, addr, "in", 0, 200, vocab)
	checkCounts(t, readCounts(t, addr, "out", 200), wantCounts(200, vocab))
	closeApp(t, ks)
	if ok, failed := hooks.counts(); ok == 0 || len(failed) > 0 {
		t.Fatalf("commits: %d ok, failed %v", ok, failed)
	}
}
