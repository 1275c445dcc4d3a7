package streams_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/stoatflow/stoatflow/state"
	"github.com/stoatflow/stoatflow/streams"
	"github.com/stoatflow/stoatflow/txn"
)

// feeder produces the input in batches from a goroutine until it sent
// limit records (or, with limit 0, until stopped), so that rebalances and
// commits happen while records flow.
type feeder struct {
	sent atomic.Int64
	err  error
	stop chan struct{}
	done chan struct{}
}

func startFeeder(t *testing.T, addr, input string, batch, limit int) *feeder {
	t.Helper()
	// The default partitioner hashes keys with murmur2, as Java's does.
	p, err := kgo.NewClient(kgo.SeedBrokers(addr), kgo.ProducerLinger(5*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	f := &feeder{stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(f.done)
		defer p.Close()
		for i := 0; limit == 0 || i < limit; {
			n := batch
			if limit > 0 {
				n = min(batch, limit-i)
			}
			recs := make([]*kgo.Record, 0, n)
			for j := i; j < i+n; j++ {
				recs = append(recs, &kgo.Record{Topic: input, Key: []byte(fmt.Sprintf("k%d", j)), Value: []byte(vocab[j%len(vocab)])})
			}
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			f.err = p.ProduceSync(ctx, recs...).FirstErr()
			cancel()
			if f.err != nil {
				return
			}
			i += n
			f.sent.Store(int64(i))
			select {
			case <-f.stop:
				return
			case <-time.After(50 * time.Millisecond):
			}
		}
	}()
	return f
}

// halt stops an unbounded feeder and returns what it sent.
func (f *feeder) halt(t *testing.T) int {
	t.Helper()
	close(f.stop)
	return f.wait(t)
}

// wait waits until the feeder sent everything and returns the count.
func (f *feeder) wait(t *testing.T) int {
	t.Helper()
	select {
	case <-f.done:
	case <-time.After(2 * time.Minute):
		t.Fatal("feeder did not finish within 2 minutes")
	}
	if f.err != nil {
		t.Fatalf("feeding input: %v", f.err)
	}
	return int(f.sent.Load())
}

// waitFor polls cond every 50 ms for up to d.
func waitFor(t *testing.T, d time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %s waiting for %s", d, what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func localPartitions(ks *streams.KafkaStreams) int { return len(ks.LocalStores("counts")) }

// TestKfakeRebalanceWithRevocation: a second instance joins while records
// flow (the first one's tasks are revoked: it commits and hands them over),
// then leaves again (the first takes them back). The read_committed output
// holds every count exactly once, in order.
func TestKfakeRebalanceWithRevocation(t *testing.T) {
	_, addr := startBroker(t)
	createTopics(t, addr, 4, "in", "out")
	hooksA, hooksB := newCommitHooks(t), newCommitHooks(t)
	a := startApp(t, countTopology(t, "in", "out"), appConfig(t, addr, "rb", t.TempDir()), streams.WithHooks(hooksA))
	if n := localPartitions(a); n != 4 {
		t.Fatalf("alone, instance A hosts %d counts partitions, want 4", n)
	}
	f := startFeeder(t, addr, "in", 10, 0)

	waitFor(t, time.Minute, "A to process records", func() bool { ok, _ := hooksA.counts(); return ok > 3 })
	b := startApp(t, countTopology(t, "in", "out"), appConfig(t, addr, "rb", t.TempDir()), streams.WithHooks(hooksB))
	waitFor(t, time.Minute, "the tasks to be shared", func() bool {
		return localPartitions(a) > 0 && localPartitions(b) > 0 && localPartitions(a)+localPartitions(b) == 4
	})
	atJoin := f.sent.Load()
	waitFor(t, time.Minute, "B to commit", func() bool { ok, _ := hooksB.counts(); return ok > 3 })
	closeApp(t, b)
	waitFor(t, time.Minute, "A to take every task back", func() bool { return localPartitions(a) == 4 })
	atLeave := f.sent.Load()
	okA, _ := hooksA.counts()
	waitFor(t, time.Minute, "A to commit after B left", func() bool { ok, _ := hooksA.counts(); return ok > okA+3 })
	sent := f.halt(t)
	t.Logf("%d records: %d sent when the tasks were shared, %d when A had them all back", sent, atJoin, atLeave)
	checkCounts(t, readCounts(t, addr, "out", sent), wantCounts(sent, vocab))
	waitFor(t, time.Minute, "A's stores to hold the final counts", func() bool {
		got := storeCounts(t, a, state.ReadCommitted)
		for w, seq := range wantCounts(sent, vocab) {
			if got[w] != seq[len(seq)-1] {
				return false
			}
		}
		return true
	})
	closeApp(t, a)
	for name, h := range map[string]*commitHooks{"A": hooksA, "B": hooksB} {
		if _, failed := h.counts(); len(failed) > 0 {
			t.Errorf("instance %s: failed commits %v", name, failed)
		}
	}
}

// topicID returns a topic's id.
func topicID(t *testing.T, addr, topic string) [16]byte {
	t.Helper()
	cl, err := kgo.NewClient(kgo.SeedBrokers(addr))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	md, err := kadm.NewClient(cl).Metadata(ctx, topic)
	if err != nil {
		t.Fatal(err)
	}
	d, ok := md.Topics[topic]
	if !ok || d.Err != nil {
		t.Fatalf("topic %s: %v", topic, d.Err)
	}
	return d.ID
}

// TestKfakeAbortedEpochRewinds: the broker refuses one AddOffsetsToTxn with
// TRANSACTION_ABORTABLE in a transaction that wrote to the store's changelog
// (so the epoch wrote to the store). The commit fails, the transaction
// aborts, the overlays are dropped and the tasks rewind to their committed
// offsets: nothing of the aborted epoch stays in the stores, and the output
// holds every count exactly once.
func TestKfakeAbortedEpochRewinds(t *testing.T) {
	c, addr := startBroker(t)
	createTopics(t, addr, 2, "in", "out")
	hooks := newCommitHooks(t)
	ks := startApp(t, countTopology(t, "in", "out"), appConfig(t, addr, "ab", t.TempDir()), streams.WithHooks(hooks))
	words(t, addr, "in", 0, 100, vocab)
	checkCounts(t, readCounts(t, addr, "out", 100), wantCounts(100, vocab))

	// The control functions run on the broker's goroutine, one at a time;
	// those that return false only observe. A transactional produce to the
	// changelog adds its partition to the transaction (KIP-890); it names
	// the topic by id.
	const changelog = "ab-counts-changelog"
	changelogID := topicID(t, addr, changelog)
	var storeTxn, refused atomic.Int32
	c.ControlKey(kmsg.Produce.Int16(), func(req kmsg.Request) (kmsg.Response, error, bool) {
		r := req.(*kmsg.ProduceRequest)
		if r.TransactionID == nil {
			return nil, nil, false
		}
		for _, tp := range r.Topics {
			if tp.Topic == changelog || tp.TopicID == changelogID {
				storeTxn.Store(1)
			}
		}
		return nil, nil, false
	})
	c.ControlKey(kmsg.AddPartitionsToTxn.Int16(), func(req kmsg.Request) (kmsg.Response, error, bool) {
		r := req.(*kmsg.AddPartitionsToTxnRequest)
		topics := r.Topics
		for _, tx := range r.Transactions {
			for _, tp := range tx.Topics {
				topics = append(topics, kmsg.AddPartitionsToTxnRequestTopic{Topic: tp.Topic})
			}
		}
		for _, tp := range topics {
			if tp.Topic == changelog {
				storeTxn.Store(1)
			}
		}
		return nil, nil, false
	})
	c.ControlKey(kmsg.EndTxn.Int16(), func(kmsg.Request) (kmsg.Response, error, bool) {
		storeTxn.Store(0)
		return nil, nil, false
	})
	c.ControlKey(kmsg.AddOffsetsToTxn.Int16(), func(req kmsg.Request) (kmsg.Response, error, bool) {
		if storeTxn.Load() == 0 || refused.Load() > 0 {
			return nil, nil, false
		}
		refused.Add(1)
		resp := req.ResponseKind().(*kmsg.AddOffsetsToTxnResponse)
		resp.ErrorCode = 120 // TRANSACTION_ABORTABLE
		return resp, nil, true
	})
	words(t, addr, "in", 100, 100, vocab)
	waitFor(t, time.Minute, "a commit to fail", func() bool { _, failed := hooks.counts(); return len(failed) > 0 })
	if refused.Load() != 1 {
		t.Fatalf("AddOffsetsToTxn refused %d times, want 1", refused.Load())
	}
	_, failed := hooks.counts()
	if !errors.Is(failed[0], txn.ErrAbortable) {
		t.Fatalf("commit error = %v, want txn.ErrAbortable", failed[0])
	}
	checkCounts(t, readCounts(t, addr, "out", 200), wantCounts(200, vocab))
	want := wantCounts(200, vocab)
	waitFor(t, 30*time.Second, "the stores to hold the final counts", func() bool {
		got := storeCounts(t, ks, state.ReadCommitted)
		for w, seq := range want {
			if got[w] != seq[len(seq)-1] {
				return false
			}
		}
		return len(got) == len(want)
	})
	// Once the input is committed, the uncommitted view has nothing more.
	if got, com := storeCounts(t, ks, state.ReadUncommitted), storeCounts(t, ks, state.ReadCommitted); !equalCounts(got, com) {
		t.Fatalf("READ_UNCOMMITTED %v differs from READ_COMMITTED %v after the input was committed", got, com)
	}
	if ks.State() != streams.Running {
		t.Fatalf("instance in state %s after the aborted epoch, want RUNNING", ks.State())
	}
	closeApp(t, ks)
}

func equalCounts(a, b map[string]int64) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// TestKfakeRepartitionPurgedAfterCommit: with repartition.purge.interval.ms=0
// each commit deletes the repartition records its tasks have committed
// (DeleteRecords), as Kafka Streams does.
func TestKfakeRepartitionPurgedAfterCommit(t *testing.T) {
	_, addr := startBroker(t)
	createTopics(t, addr, 2, "in", "out")
	ks := startApp(t, countTopology(t, "in", "out"), appConfig(t, addr, "pg", t.TempDir(), "repartition.purge.interval.ms=0"))
	words(t, addr, "in", 0, 300, vocab)
	checkCounts(t, readCounts(t, addr, "out", 300), wantCounts(300, vocab))

	c, err := kgo.NewClient(kgo.SeedBrokers(addr))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	adm := kadm.NewClient(c)
	const topic = "pg-counts-repartition"
	waitFor(t, 30*time.Second, "the repartition topic to be purged", func() bool {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		starts, err := adm.ListStartOffsets(ctx, topic)
		if err != nil {
			t.Fatalf("start offsets of %s: %v", topic, err)
		}
		ends, err := adm.ListEndOffsets(ctx, topic)
		if err != nil {
			t.Fatalf("end offsets of %s: %v", topic, err)
		}
		for p := int32(0); p < 2; p++ {
			lo, _ := starts.Lookup(topic, p)
			hi, _ := ends.Lookup(topic, p)
			if lo.Err != nil || hi.Err != nil {
				t.Fatalf("watermarks of %s-%d: %v %v", topic, p, lo.Err, hi.Err)
			}
			if hi.Offset == 0 || lo.Offset == 0 {
				return false // nothing written, or nothing purged yet
			}
		}
		return true
	})
	closeApp(t, ks)
}

// TestKfakeRestoreAfterRestart: a restart on the same state directory after a
// clean close restores nothing; a restart on an empty one restores every
// store in full from its changelog, and counting goes on from the restored
// counts.
func TestKfakeRestoreAfterRestart(t *testing.T) {
	_, addr := startBroker(t)
	createTopics(t, addr, 2, "in", "out")
	dir := t.TempDir()
	ks := startApp(t, countTopology(t, "in", "out"), appConfig(t, addr, "rs", dir))
	words(t, addr, "in", 0, 200, vocab)
	checkCounts(t, readCounts(t, addr, "out", 200), wantCounts(200, vocab))
	closeApp(t, ks)

	same := newCommitHooks(t)
	ks = startApp(t, countTopology(t, "in", "out"), appConfig(t, addr, "rs", dir), streams.WithHooks(same))
	words(t, addr, "in", 200, 100, vocab)
	checkCounts(t, readCounts(t, addr, "out", 300), wantCounts(300, vocab))
	closeApp(t, ks)
	same.mu.Lock()
	for tp, n := range same.restored {
		if n != 0 || same.full[tp] {
			t.Errorf("restart after a clean close: %s restored %d records (full %v), want none", tp, n, same.full[tp])
		}
	}
	same.mu.Unlock()

	fresh := newCommitHooks(t)
	ks = startApp(t, countTopology(t, "in", "out"), appConfig(t, addr, "rs", t.TempDir()), streams.WithHooks(fresh))
	got := storeCounts(t, ks, state.ReadCommitted)
	want := wantCounts(300, vocab)
	for w, seq := range want {
		if got[w] != seq[len(seq)-1] {
			t.Errorf("restored count of %q = %d, want %d", w, got[w], seq[len(seq)-1])
		}
	}
	words(t, addr, "in", 300, 100, vocab)
	checkCounts(t, readCounts(t, addr, "out", 400), wantCounts(400, vocab))
	closeApp(t, ks)
	fresh.mu.Lock()
	defer fresh.mu.Unlock()
	var total int64
	for tp, n := range fresh.restored {
		total += n
		if !fresh.full[tp] {
			t.Errorf("restart on an empty state directory: %s restored from an offset, want in full", tp)
		}
	}
	// Every count update is one changelog record.
	if total != 300 {
		t.Errorf("restored %d changelog records in all, want 300", total)
	}
}

// TestKfakeInteractiveQueriesDuringCommits: goroutines read every store
// partition at both isolation levels while the instance processes and
// commits. A READ_COMMITTED count never goes back and is always one the
// committed output holds; nothing a query sees exceeds the final count.
func TestKfakeInteractiveQueriesDuringCommits(t *testing.T) {
	_, addr := startBroker(t)
	createTopics(t, addr, 2, "in", "out")
	ks := startApp(t, countTopology(t, "in", "out"), appConfig(t, addr, "iq", t.TempDir()))
	const total = 1200
	want := wantCounts(total, vocab)

	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	var reads atomic.Int64
	for _, iso := range []state.IsolationLevel{state.ReadCommitted, state.ReadUncommitted} {
		for g := 0; g < 2; g++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				last := map[string]int64{}
				for ctx.Err() == nil {
					for _, ls := range ks.LocalStores("counts") {
						view := ls.Store.(state.KeyValueStore).ReadOnly(iso)
						for _, w := range vocab {
							v, err := view.Get([]byte(w))
							if err != nil {
								if errors.Is(err, state.ErrClosed) {
									continue // the task closed meanwhile
								}
								t.Errorf("%s get %q: %v", iso, w, err)
								return
							}
							reads.Add(1)
							if v == nil {
								continue
							}
							n := int64(beUint64(v[8:]))
							if final := want[w][len(want[w])-1]; n < 1 || n > final {
								t.Errorf("%s: count of %q = %d, outside 1..%d", iso, w, n, final)
							}
							if iso == state.ReadCommitted {
								if n < last[w] {
									t.Errorf("READ_COMMITTED count of %q went back from %d to %d", w, last[w], n)
								}
								last[w] = n
							}
						}
					}
				}
			}()
		}
	}
	startFeeder(t, addr, "in", 30, total).wait(t)
	checkCounts(t, readCounts(t, addr, "out", total), want)
	cancel()
	wg.Wait()
	if reads.Load() == 0 {
		t.Fatal("no query read anything")
	}
	closeApp(t, ks)
}

func beUint64(b []byte) uint64 {
	var v uint64
	for _, c := range b[:8] {
		v = v<<8 | uint64(c)
	}
	return v
}

// TestKfakeCommitAtStaleGenerationIsAbortedAndRewound: the group moves on
// while a transaction is open, and the broker refuses its offsets with
// ILLEGAL_GENERATION (a rebalance completed without this member). The
// commit fails and is counted, the transaction aborts (the offsets are
// never accepted at the wrong generation) and the tasks rewind: the output
// holds every count exactly once and the instance runs on.
func TestKfakeCommitAtStaleGenerationIsAbortedAndRewound(t *testing.T) {
	c, addr := startBroker(t)
	createTopics(t, addr, 2, "in", "out")
	hooks := newCommitHooks(t)
	ks := startApp(t, countTopology(t, "in", "out"), appConfig(t, addr, "stale", t.TempDir()), streams.WithHooks(hooks))
	words(t, addr, "in", 0, 100, vocab)
	checkCounts(t, readCounts(t, addr, "out", 100), wantCounts(100, vocab))

	var refused atomic.Int32
	c.ControlKey(kmsg.TxnOffsetCommit.Int16(), func(req kmsg.Request) (kmsg.Response, error, bool) {
		if refused.Load() > 0 {
			return nil, nil, false
		}
		refused.Add(1)
		r := req.(*kmsg.TxnOffsetCommitRequest)
		resp := r.ResponseKind().(*kmsg.TxnOffsetCommitResponse)
		for _, tp := range r.Topics {
			rt := kmsg.NewTxnOffsetCommitResponseTopic()
			rt.Topic = tp.Topic
			for _, p := range tp.Partitions {
				rp := kmsg.NewTxnOffsetCommitResponseTopicPartition()
				rp.Partition = p.Partition
				rp.ErrorCode = kerr.IllegalGeneration.Code
				rt.Partitions = append(rt.Partitions, rp)
			}
			resp.Topics = append(resp.Topics, rt)
		}
		return resp, nil, true
	})
	words(t, addr, "in", 100, 100, vocab)
	waitFor(t, time.Minute, "a commit to fail", func() bool { _, failed := hooks.counts(); return len(failed) > 0 })
	_, failed := hooks.counts()
	if !errors.Is(failed[0], kerr.IllegalGeneration) || !errors.Is(failed[0], txn.ErrAbortable) {
		t.Fatalf("commit error = %v, want ILLEGAL_GENERATION as txn.ErrAbortable", failed[0])
	}
	checkCounts(t, readCounts(t, addr, "out", 200), wantCounts(200, vocab))
	if ks.State() != streams.Running {
		t.Fatalf("instance in state %s after the refused commit, want RUNNING", ks.State())
	}
	t.Logf("%d commit refused at a stale generation, counted as failed, aborted and rewound; the counts stayed exactly once", len(failed))
	closeApp(t, ks)
}
