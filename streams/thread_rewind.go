package streams

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/serde"
	"github.com/stoatflow/stoatflow/txn"
)

// unavailableError is a record (or a cache flush, or a punctuation) whose
// output a serde could not write because a service it needs did not
// answer (serde.ErrUnavailable: a schema registry that is down). It is not
// the record's fault, so no exception handler sees it: the epoch is
// aborted and processed again (retryEpoch), and nothing is written without
// its schema.
type unavailableError struct {
	where string
	err   error
}

func (e *unavailableError) Error() string { return e.where + ": " + e.err.Error() }

func (e *unavailableError) Unwrap() error { return e.err }

// asUnavailable returns err as an unavailableError when a serde's service
// caused it while writing. A record the service was needed to read goes to
// the deserialization handler instead, with its topic, partition and
// offset, as Kafka Streams hands it there.
func asUnavailable(err error, where string) *unavailableError {
	var de *kstreams.DeserializationError
	if !errors.Is(err, serde.ErrUnavailable) || errors.As(err, &de) {
		return nil
	}
	return &unavailableError{where: where, err: err}
}

// unavailableBackoff is the pause before the n-th retry (from 1) of an
// epoch aborted by an unavailable service: 0.5 s doubling up to 30 s, for
// as long as the service stays away.
func unavailableBackoff(n int) time.Duration {
	d := 500 * time.Millisecond
	for i := 1; i < n && d < 30*time.Second; i++ {
		d *= 2
	}
	return min(d, 30*time.Second)
}

// retryEpoch aborts the epoch that u stopped, rewinds every task to its
// last commit and waits before the thread processes the same records
// again. Under exactly_once_v2 nothing of the epoch reaches the output;
// under at_least_once what it had sent is sent again.
func (t *streamThread) retryEpoch(ctx context.Context, u *unavailableError) error {
	t.unavailable++
	wait := unavailableBackoff(t.unavailable)
	t.log.Warn("a serde's service is unavailable; the epoch is aborted and processed again from the last commit",
		"at", u.where, "attempt", t.unavailable, "retry-in", wait, "err", u.err)
	var stores []txn.StoreCommit
	for _, a := range t.tasks {
		if a.running() {
			stores = append(stores, a.storeCommits()...)
		}
	}
	actx, cancel := context.WithTimeout(t.s.abortCtx, commitTimeout)
	t.committer.Abort(actx, stores)
	cancel()
	t.barrier.Next(time.Now())
	if err := t.rewind(false); err != nil {
		return err
	}
	select {
	case <-ctx.Done():
	case <-time.After(wait):
	}
	return nil
}

// rewind restarts every running task from its last committed input
// offsets after an aborted epoch: processors are rebuilt over the stores
// (whose overlays the committer dropped), buffers emptied, and the
// partitions re-assigned at their committed offsets.
func (t *streamThread) rewind(fenced bool) error {
	t.captured = nil // the aborted epoch's
	if fenced {
		defer t.doing("replacing its fenced producer")()
		ctx, cancel := context.WithTimeout(t.ctx, time.Minute)
		defer cancel()
		_ = t.producer.Close(ctx) // fenced: the abort fails, the broker has aborted already
		p, err := t.newProducer()
		if err != nil {
			return err
		}
		if err := p.Init(ctx); err != nil {
			p.Close(ctx)
			return err
		}
		t.producer = p
		t.committer.Producer = p
	}
	// Partitions this thread has committed since it got them rewind to
	// what it committed, which it knows exactly (the broker may not show
	// the last commit yet); the others, and every partition once fenced
	// (another instance may own and commit them now), to the group's
	// committed offsets, read from the broker.
	seek := map[tpKey]int64{}
	var fetch []tpKey
	for _, a := range t.tasks {
		for _, q := range a.queues {
			if q.committed >= 0 && !fenced {
				seek[q.tp] = q.committed
			} else {
				fetch = append(fetch, q.tp)
			}
			// Partition time goes back with the offset (the replayed records
			// must see the partition time they saw the first time).
			q.recs, q.next, q.dirty, q.partTime, q.headKnown, q.delivered = nil, -1, false, q.committedPartTime, false, -1
		}
		if a.task != nil {
			a.task.Close()
			a.task = nil
			if a.restoring == 0 {
				if err := t.startTask(a); err != nil {
					return err
				}
			}
		}
		// The queues are empty: a partition paused for a full one is
		// fetched again, from the rewound position.
		t.emptied(a)
	}
	if t.inCallback {
		// The partitions are being revoked: nothing will read them here.
		return nil
	}
	if len(fetch) > 0 {
		committed, err := t.committedOffsets(fetch)
		if err != nil {
			return fmt.Errorf("reading committed offsets to rewind: %w", err)
		}
		var reset []tpKey
		for _, c := range committed {
			t.restorePartitionTime(c)
			if c.offset < 0 {
				reset = append(reset, c.tp)
			} else {
				seek[c.tp] = c.offset
			}
		}
		if len(reset) > 0 {
			offs, err := t.resetOffsets(reset)
			if err != nil {
				return fmt.Errorf("rewinding partitions without a committed offset: %w", err)
			}
			maps.Copy(seek, offs)
		}
	}
	if len(seek) == 0 {
		return nil
	}
	// A record fetched before the seek is below it: handle drops it.
	for _, a := range t.tasks {
		for _, q := range a.queues {
			if off, ok := seek[q.tp]; ok {
				q.next = off
			}
		}
	}
	set := map[string]map[int32]kgo.EpochOffset{}
	for tp, off := range seek {
		if set[tp.topic] == nil {
			set[tp.topic] = map[int32]kgo.EpochOffset{}
		}
		set[tp.topic][tp.partition] = kgo.EpochOffset{Epoch: -1, Offset: off}
	}
	// The rebalance is held (the loop has not allowed it since its poll):
	// the partitions stay this thread's while their position moves.
	t.consumer.SetOffsets(set)
	t.publishOffsetSums()
	return nil
}
