package txn_test

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/stoatflow/stoatflow/state"
	"github.com/stoatflow/stoatflow/txn"
)

// nowhere is an address nothing listens on: every broker call waits until
// its timeout.
const nowhere = "127.0.0.1:1"

func unreachableProducer(t *testing.T, eos bool, extra ...kgo.Opt) *txn.Producer {
	t.Helper()
	opts := []kgo.Opt{kgo.SeedBrokers(nowhere)}
	if eos {
		opts = append(opts, kgo.TransactionalID("lifecycle-"+t.Name()))
	}
	opts = append(opts, extra...)
	p, err := txn.NewProducer(opts, eos)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close(context.Background()) })
	return p
}

func TestProducerReturnsErrClosedAfterClose(t *testing.T) {
	for _, eos := range []bool{false, true} {
		t.Run(fmt.Sprintf("eos=%v", eos), func(t *testing.T) {
			p := unreachableProducer(t, eos)
			ctx := context.Background()
			var wg sync.WaitGroup
			for range 4 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					if err := p.Close(ctx); err != nil {
						t.Errorf("Close: %v", err)
					}
				}()
			}
			wg.Wait()
			if err := p.Close(ctx); err != nil {
				t.Errorf("Close after Close: %v", err)
			}
			calls := map[string]error{
				"Send":              p.Send(ctx, "t", 0, nil, []byte("v"), -1, nil),
				"Flush":             p.Flush(ctx),
				"Init":              p.Init(ctx),
				"CommitTransaction": p.CommitTransaction(ctx, nil, txn.GroupMetadata{}),
				"AbortTransaction":  p.AbortTransaction(ctx),
			}
			for name, err := range calls {
				if !errors.Is(err, txn.ErrClosed) {
					t.Errorf("%s after Close: %v, want ErrClosed", name, err)
				}
			}
		})
	}
}

// InitProducerID against no broker waits as long as its context lets it; a
// cancellation ends it at once.
func TestProducerInitHonoursCancellation(t *testing.T) {
	p := unreachableProducer(t, true)
	cause := errors.New("test cancelled the wait")
	ctx, cancel := context.WithCancelCause(context.Background())
	time.AfterFunc(300*time.Millisecond, func() { cancel(cause) })
	start := time.Now()
	err := p.Init(ctx)
	took := time.Since(start)
	if err == nil {
		t.Fatal("Init succeeded without a broker")
	}
	if !errors.Is(err, cause) {
		t.Errorf("error %v does not carry the context's cause", err)
	}
	if took > 800*time.Millisecond {
		t.Errorf("Init took %v after a cancellation at 300ms, want it to end at once", took)
	}
}

func TestProducerInitHonoursDeadline(t *testing.T) {
	p := unreachableProducer(t, true)
	ctx, cancel := context.WithTimeout(context.Background(), 1500*time.Millisecond)
	defer cancel()
	start := time.Now()
	err := p.Init(ctx)
	if took := time.Since(start); took > 3*time.Second || took < time.Second {
		t.Errorf("Init returned after %v, want about the 1.5s deadline", took)
	}
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("error %v does not say the deadline passed", err)
	}
}

// With the producer's buffer full and nothing draining it (no broker), a
// Send waits for room only until its context ends, and the record's failure
// reaches the epoch's Flush, naming the full buffer.
func TestProducerSendBufferFullHonoursContext(t *testing.T) {
	p := unreachableProducer(t, false, kgo.MaxBufferedRecords(1))
	if err := p.Send(context.Background(), "t", 0, nil, []byte("first"), -1, nil); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	start := time.Now()
	err := p.Send(ctx, "t", 0, nil, []byte("second"), -1, nil)
	if took := time.Since(start); took > 2*time.Second || took < 400*time.Millisecond {
		t.Errorf("Send on a full buffer returned after %v, want about the 500ms deadline", took)
	}
	if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "buffer") {
		t.Fatalf("Send on a full buffer: %v, want an error naming the full buffer and the deadline", err)
	}
	fctx, fcancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer fcancel()
	err = p.Flush(fctx)
	if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "buffer") {
		t.Errorf("Flush after the failed Send: %v, want the send's failure naming the full buffer", err)
	}
}

// failingStore is a state.Store holding nothing whose Commit fails with err
// (succeeds when err is nil).
type failingStore struct {
	name string
	err  error
}

func (s failingStore) Name() string                                 { return s.name }
func (s failingStore) Persistent() bool                             { return false }
func (s failingStore) Commit(map[state.TopicPartition]*int64) error { return s.err }
func (s failingStore) Rollback()                                    {}
func (s failingStore) CommittedOffset(state.TopicPartition) (int64, bool, error) {
	return 0, false, nil
}
func (s failingStore) ApproximateNumUncommittedBytes() int64 { return 0 }
func (s failingStore) ApplyChangelog([]state.ChangelogRecord, state.TopicPartition, int64) error {
	return nil
}
func (s failingStore) Close() error { return nil }

// diskError is a typed error a store may fail with, for errors.As.
type diskError struct{ path string }

func (e *diskError) Error() string { return "disk full at " + e.path }

func TestStoreCommitErrorListsFailuresInStableOrderAndUnwraps(t *testing.T) {
	disk := &diskError{path: "/state/b"}
	stores := []txn.StoreCommit{
		{Store: failingStore{name: "b", err: disk}, Partition: 1},
		{Store: failingStore{name: "a", err: fs.ErrPermission}, Partition: 1},
		{Store: failingStore{name: "c"}, Partition: 0}, // commits fine
		{Store: failingStore{name: "a", err: state.ErrClosed}, Partition: 0},
	}
	// at_least_once with nothing to commit on Kafka: the Kafka step succeeds
	// without a broker and the stores commit.
	c := &txn.Committer{Producer: unreachableProducer(t, false)}
	var first string
	for i := range 5 {
		_, err := c.Commit(context.Background(), txn.TriggerRequested, nil, stores)
		var sce *txn.StoreCommitError
		if !errors.As(err, &sce) {
			t.Fatalf("got %v, want a StoreCommitError", err)
		}
		var got []string
		for _, f := range sce.Failed {
			got = append(got, fmt.Sprintf("%s/%d", f.Store, f.Partition))
		}
		if fmt.Sprint(got) != "[a/0 a/1 b/1]" {
			t.Fatalf("failures %v, want [a/0 a/1 b/1] (by store, then partition)", got)
		}
		if !errors.Is(err, state.ErrClosed) || !errors.Is(err, fs.ErrPermission) {
			t.Errorf("errors.Is does not reach every store's error: %v", err)
		}
		var de *diskError
		if !errors.As(err, &de) || de.path != "/state/b" {
			t.Errorf("errors.As does not reach store b's typed error: %v", err)
		}
		if i == 0 {
			first = err.Error()
			for _, want := range []string{"3 store(s)", "a [partition 0]", "a [partition 1]", "b [partition 1]: disk full"} {
				if !strings.Contains(first, want) {
					t.Errorf("message %q lacks %q", first, want)
				}
			}
		} else if err.Error() != first {
			t.Fatalf("message changed between runs:\n%s\n%s", first, err.Error())
		}
		// The input order shuffled: the report must not follow it.
		stores[0], stores[3] = stores[3], stores[0]
	}
	if strings.Contains(first, "c [") {
		t.Errorf("a store that committed is listed: %s", first)
	}
}
