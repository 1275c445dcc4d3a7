package txn_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/stoatflow/stoatflow/txn"
)

// loseEndTxnAnswers makes c close the connection of every EndTxn instead of
// answering it, as a network that breaks between the request and its
// answer, until the returned function is called. With reach, the first one
// reaches the coordinator first: the transaction ends as it asked, and
// only its answer is lost.
func loseEndTxnAnswers(t *testing.T, c *kfake.Cluster, reach bool) (heal func()) {
	raw, err := kgo.NewClient(kgo.SeedBrokers(c.ListenAddrs()...))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(raw.Close)
	var forwarding, healed atomic.Bool
	var once sync.Once
	c.ControlKey(kmsg.EndTxn.Int16(), func(req kmsg.Request) (kmsg.Response, error, bool) {
		c.KeepControl()
		if forwarding.Load() || healed.Load() {
			return nil, nil, false // the copy sent below: the coordinator handles it
		}
		if reach {
			once.Do(func() {
				forwarding.Store(true)
				done := make(chan struct{})
				go func() {
					defer close(done)
					ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
					defer cancel()
					if _, err := raw.Request(ctx, req); err != nil {
						t.Errorf("forwarding the EndTxn: %v", err)
					}
				}()
				c.SleepControl(func() { <-done })
				forwarding.Store(false)
			})
		}
		return nil, errors.New("the answer is lost"), true
	})
	return func() { healed.Store(true) }
}

// outcomeFixture is a transactional producer on kfake whose epoch wrote one
// record and consumed input up to offset 5.
type outcomeFixture struct {
	c       *kfake.Cluster
	p       *txn.Producer
	offsets []txn.Offset
	group   txn.GroupMetadata
}

func newOutcomeFixture(t *testing.T) *outcomeFixture {
	t.Helper()
	c, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.SeedTopics(1, "in", "out"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	p, err := txn.NewProducer([]kgo.Opt{kgo.SeedBrokers(c.ListenAddrs()...), kgo.TransactionalID("outcome-txn"),
		// Give up on a lost answer quickly.
		kgo.RequestRetries(2), kgo.RetryBackoffFn(func(int) time.Duration { return 10 * time.Millisecond })}, true)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close(context.Background()) })
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := p.Init(ctx); err != nil {
		t.Fatal(err)
	}
	if err := p.Send(ctx, "out", 0, []byte("k"), []byte("v"), time.Now().UnixMilli(), nil); err != nil {
		t.Fatal(err)
	}
	return &outcomeFixture{c: c, p: p, offsets: []txn.Offset{{Topic: "in", Partition: 0, Offset: 5, Metadata: "epoch-1"}},
		group: txn.GroupMetadata{Group: "outcome-group", Generation: -1}}
}

// committedOutput reads "out" read_committed for a second.
func (f *outcomeFixture) committedOutput(t *testing.T) int {
	t.Helper()
	cl, err := kgo.NewClient(kgo.SeedBrokers(f.c.ListenAddrs()...), kgo.ConsumeTopics("out"),
		kgo.FetchIsolationLevel(kgo.ReadCommitted()), kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	n := 0
	for ctx.Err() == nil {
		n += cl.PollFetches(ctx).NumRecords()
	}
	return n
}

func (f *outcomeFixture) groupOffset(t *testing.T) int64 {
	t.Helper()
	cl, err := kgo.NewClient(kgo.SeedBrokers(f.c.ListenAddrs()...))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	resp, err := kadm.NewClient(cl).FetchOffsetsForTopics(ctx, f.group.Group, "in")
	if errors.Is(err, kerr.GroupIDNotFound) {
		return -1 // kfake's answer for a group that never committed
	}
	if err != nil {
		t.Fatal(err)
	}
	o, _ := resp.Lookup("in", 0)
	return o.At
}

// nextEpochCommits checks the producer is usable after the resolution.
func (f *outcomeFixture) nextEpochCommits(t *testing.T) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := f.p.Send(ctx, "out", 0, []byte("k2"), []byte("v2"), time.Now().UnixMilli(), nil); err != nil {
		t.Fatalf("the next epoch's send: %v", err)
	}
	next := []txn.Offset{{Topic: "in", Partition: 0, Offset: 9, Metadata: "epoch-2"}}
	if err := f.p.CommitTransaction(ctx, next, f.group); err != nil {
		t.Fatalf("the next epoch's commit: %v", err)
	}
}

// TestCommitWhoseAnswerIsLostButCommittedIsResolvedAsCommitted: the
// coordinator commits the transaction and the answer never comes back. The
// commit must report success (the stores then commit what the output and
// changelog hold) rather than an aborted epoch, whose rewind would count
// the epoch's input twice.
func TestCommitWhoseAnswerIsLostButCommittedIsResolvedAsCommitted(t *testing.T) {
	f := newOutcomeFixture(t)
	heal := loseEndTxnAnswers(t, f.c, true)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := f.p.CommitTransaction(ctx, f.offsets, f.group); err != nil {
		t.Fatalf("commit whose answer was lost after it committed: %v, want nil", err)
	}
	if o := f.p.TakeOutcome(); o != txn.OutcomeCommitted {
		t.Fatalf("outcome %q, want %q", o, txn.OutcomeCommitted)
	}
	if n := f.committedOutput(t); n != 1 {
		t.Fatalf("read_committed output holds %d records, want the committed epoch's 1", n)
	}
	if got := f.groupOffset(t); got != 5 {
		t.Fatalf("group offset %d, want the committed epoch's 5", got)
	}
	heal()
	f.nextEpochCommits(t)
	if n := f.committedOutput(t); n != 2 {
		t.Fatalf("read_committed output holds %d records after the next epoch, want 2", n)
	}
}

// TestCommitWhoseRequestIsLostIsResolvedAsAborted: no EndTxn reaches the
// coordinator. The commit must report an aborted epoch (the tasks rewind
// and process the input again), and nothing of it may become visible.
func TestCommitWhoseRequestIsLostIsResolvedAsAborted(t *testing.T) {
	f := newOutcomeFixture(t)
	heal := loseEndTxnAnswers(t, f.c, false)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	err := f.p.CommitTransaction(ctx, f.offsets, f.group)
	if !errors.Is(err, txn.ErrAbortable) || !strings.Contains(err.Error(), "did not commit") {
		t.Fatalf("commit whose request was lost: %v, want ErrAbortable saying it did not commit", err)
	}
	if o := f.p.TakeOutcome(); o != txn.OutcomeAborted {
		t.Fatalf("outcome %q, want %q", o, txn.OutcomeAborted)
	}
	if err := f.p.AbortTransaction(ctx); err != nil {
		t.Fatalf("abort after the resolution: %v", err)
	}
	if n := f.committedOutput(t); n != 0 {
		t.Fatalf("read_committed output holds %d records of the epoch that did not commit", n)
	}
	if got := f.groupOffset(t); got != -1 {
		t.Fatalf("group offset %d, want none", got)
	}
	heal()
	f.nextEpochCommits(t)
	if n := f.committedOutput(t); n != 1 {
		t.Fatalf("read_committed output holds %d records after the next epoch, want its 1", n)
	}
}

// TestOffsetsLostBeforeTheCommitAbortTheEpoch: the transaction's offsets
// never reach the coordinator (AddOffsetsToTxn's connection breaks each
// time). Nothing of the epoch can have committed, so the epoch aborts and
// the producer goes on, rather than the thread stopping on an error of no
// class.
func TestOffsetsLostBeforeTheCommitAbortTheEpoch(t *testing.T) {
	f := newOutcomeFixture(t)
	var healed atomic.Bool
	f.c.ControlKey(kmsg.AddOffsetsToTxn.Int16(), func(kmsg.Request) (kmsg.Response, error, bool) {
		f.c.KeepControl()
		if healed.Load() {
			return nil, nil, false
		}
		return nil, errors.New("the connection breaks"), true
	})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	err := f.p.CommitTransaction(ctx, f.offsets, f.group)
	if !errors.Is(err, txn.ErrAbortable) {
		t.Fatalf("commit whose offsets never reached the coordinator: %v, want ErrAbortable", err)
	}
	if err := f.p.AbortTransaction(ctx); err != nil {
		t.Fatalf("abort: %v", err)
	}
	if n := f.committedOutput(t); n != 0 {
		t.Fatalf("read_committed output holds %d records of the aborted epoch", n)
	}
	healed.Store(true)
	f.nextEpochCommits(t)
	if n := f.committedOutput(t); n != 1 {
		t.Fatalf("read_committed output holds %d records after the next epoch, want its 1", n)
	}
}
