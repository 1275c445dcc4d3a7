package streams

import (
	"fmt"
	"time"

	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/state"
)

// DurabilityHooks is an optional extension of Hooks: the runtime calls it
// when its Hooks also implement it.
type DurabilityHooks interface {
	// OnStoreDurableLag reports how far a persistent store's durable
	// offsets trail its committed ones (what a crash now would replay),
	// after each commit and, for a store without commits, about once a
	// second.
	OnStoreDurableLag(task kstreams.TaskID, store string, lag state.DurableLag)
}

// idleFlushEvery is how often a thread applies its stores' flush policy
// between commits: the time bound of a store that gets no records is
// checked at this granularity.
const idleFlushEvery = time.Second

// reportDurable sends a store's durable lag to the hooks that take it.
func (t *streamThread) reportDurable(task kstreams.TaskID, ts *taskStore, now time.Time) {
	dh, ok := t.s.hks.(DurabilityHooks)
	if !ok {
		return
	}
	if d, ok := state.AsDurable(ts.store); ok {
		dh.OnStoreDurableLag(task, ts.spec.Name, d.DurableLag(now))
	}
}

// maybeFlushIdle lets the flush policy of every running and standby store act between
// commits, at most once per idleFlushEvery: a store whose last commit is
// not on disk and that gets no more records is flushed once its time bound
// passes, so its durable offset stays inside the changelog's retention.
func (t *streamThread) maybeFlushIdle(now time.Time) error {
	if now.Sub(t.lastIdleFlush) < idleFlushEvery {
		return nil
	}
	t.lastIdleFlush = now
	for _, a := range t.tasks {
		if !a.running() {
			continue
		}
		if err := t.flushIdle(a.id, a.stores, now); err != nil {
			return err
		}
	}
	// A standby's stores are written only when records come: one that
	// gets none is flushed by the time bound too.
	for _, sb := range t.standbys {
		if err := t.flushIdle(sb.id, sb.stores, now); err != nil {
			return err
		}
	}
	return nil
}

func (t *streamThread) flushIdle(task kstreams.TaskID, stores []*taskStore, now time.Time) error {
	for _, ts := range stores {
		d, ok := state.AsDurable(ts.store)
		if !ok {
			continue
		}
		if err := d.MaybeFlush(now); err != nil {
			return fmt.Errorf("streams: task %s: flushing store %s: %w", task, ts.spec.Name, err)
		}
		t.reportDurable(task, ts, now)
	}
	return nil
}
