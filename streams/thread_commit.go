package streams

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"

	"github.com/stoatflow/stoatflow/txn"
)

// commitTimeout bounds one commit. A commit is not cut short by Close, only
// by its deadline: an interrupted commit turns into an abort and a replay.
const commitTimeout = time.Minute

// commitRequested takes the running tasks' commit requests (a processor's
// Commit): one of them commits every task of the thread, as Kafka Streams
// commits on a user's request.
func (t *streamThread) commitRequested() bool {
	requested := t.commitFirst
	t.commitFirst = false
	for _, a := range t.tasks {
		if a.running() && a.task.TakeCommitRequest() {
			requested = true
		}
	}
	return requested
}

// maybeCommit ends the epoch when the barrier says so, or always when
// force is set (revocation, shutdown).
func (t *streamThread) maybeCommit(force bool) error {
	now := time.Now()
	trigger, due := t.barrier.Due(now)
	if t.commitRequested() && !due {
		trigger, due = txn.TriggerRequested, true
	}
	if force {
		trigger, due = txn.TriggerRequested, true
	}
	if !due {
		return nil
	}
	var offsets []txn.Offset
	var stores []txn.StoreCommit
	dirty := false
	for _, a := range t.tasks {
		if !a.running() {
			continue
		}
		// Record caches forward and changelog what they hold, inside this
		// epoch's transaction.
		if err := a.task.Flush(); err != nil {
			if u := asUnavailable(err, fmt.Sprintf("task %s, cache flush", a.id)); u != nil {
				return u
			}
			return fmt.Errorf("streams: task %s: flushing caches: %w", a.id, err)
		}
		md, mdChanged := a.task.ProcessorMetadata()
		for _, q := range a.queues {
			off := q.next
			if q.next < 0 || !q.dirty {
				// Changed processor metadata goes to every input partition
				// of the task, as Kafka Streams commits it.
				if off = max(q.committed, q.startAt); !mdChanged || off < 0 {
					continue
				}
			}
			offsets = append(offsets, txn.Offset{Topic: q.tp.topic, Partition: q.tp.partition,
				Offset: off, Metadata: encodeCommitMetadata(q.partTime, md)})
			dirty = true
		}
		stores = append(stores, a.storeCommits()...)
	}
	if !dirty && !t.producer.InTransaction() && t.budget.Total() == 0 {
		// Nothing to commit: what a punctuator sent to a captured topic
		// is all the epoch wrote.
		t.deliverCaptured()
		t.barrier.Next(now)
		t.committedTasks(force)
		return nil
	}
	ctx, cancel := context.WithTimeout(t.s.abortCtx, commitTimeout)
	defer cancel()
	done := t.doing("committing")
	stats, err := t.committer.Commit(ctx, trigger, offsets, stores)
	done()
	t.s.hks.OnCommit(t.idx, stats, err)
	// The next epoch is timed from this commit's start, as Kafka Streams
	// times commit.interval.ms: commits come every interval, not every
	// interval plus the commit's own duration.
	t.barrier.Next(now)
	if stats.Outcome == txn.OutcomeCommitted {
		t.log.Warn("the commit was sent and its answer lost; the group's committed offsets show it committed, so the stores commit too",
			"trigger", trigger)
	}
	if err == nil {
		t.unavailable = 0
		t.committedTasks(force)
		t.deliverCaptured()
		for _, a := range t.tasks {
			if a.running() {
				if md, changed := a.task.ProcessorMetadata(); changed {
					a.metadata = maps.Clone(md)
					a.task.MetadataCommitted()
				}
			}
			for _, q := range a.queues {
				if q.dirty {
					q.committed, q.committedPartTime = q.next, q.partTime
				}
				q.dirty = false
				if t.s.act != nil {
					t.reportLag(q)
				}
			}
			if a.running() {
				for _, ts := range a.stores {
					t.s.hks.OnStoreUncommittedBytes(a.id, ts.spec.Name, ts.store.ApproximateNumUncommittedBytes())
					t.reportDurable(a.id, ts, now)
				}
			}
		}
		t.s.hks.OnThreadUncommittedBytes(t.idx, t.budget.Total())
		t.maybePurge()
		return nil
	}
	var sce *txn.StoreCommitError
	switch {
	case errors.As(err, &sce):
		return err
	case errors.Is(err, txn.ErrAbortable) || errors.Is(err, txn.ErrFenced):
		if t.s.cfg.ExactlyOnce() {
			t.log.Warn("commit failed; transaction aborted, tasks rewind to their last commit", "err", err)
		} else {
			// No transaction under at_least_once: the epoch's output may be
			// partly written, and is written again after the rewind.
			t.log.Warn("commit failed; tasks rewind to their last commit and reprocess from it", "err", err)
		}
		return t.rewind(errors.Is(err, txn.ErrFenced))
	default:
		return err
	}
}

// committedTasks clears the commitNeeded of the tasks a commit just
// committed, counting them in the summary unless a revocation or the
// shutdown forced the commit, as Kafka Streams counts only its loop's
// commits.
func (t *streamThread) committedTasks(force bool) {
	for _, a := range t.tasks {
		if a.commitNeeded && a.running() {
			a.commitNeeded = false
			if !force {
				t.summary.committed++
			}
		}
	}
}

// reportLag reports an input partition's lag from the end offset of its
// latest fetch, without a broker round trip.
func (t *streamThread) reportLag(q *partQueue) {
	if !q.wmKnown {
		return
	}
	hi := q.end
	pos := q.committed
	if q.next > pos {
		pos = q.next
	}
	if pos < 0 {
		return
	}
	t.s.act.OnRecordsLag(t.idx, q.tp.topic, q.tp.partition, max(0, hi-pos))
}

// maybePurge deletes the records of repartition topics that every task
// reading them has committed, every repartition.purge.interval.ms, as Kafka
// Streams does: repartition topics are never compacted and would otherwise
// keep everything forever (retention.ms=-1).
func (t *streamThread) maybePurge() {
	if len(t.repartition) == 0 || time.Since(t.lastPurge) < t.s.cfg.RepartitionPurgeInterval {
		return
	}
	t.lastPurge = time.Now()
	del := kadm.Offsets{}
	queues := map[tpKey]*partQueue{}
	for _, a := range t.tasks {
		for _, q := range a.queues {
			if t.repartition[q.tp.topic] && q.committed > q.purged {
				del.Add(kadm.Offset{Topic: q.tp.topic, Partition: q.tp.partition, At: q.committed, LeaderEpoch: -1})
				queues[q.tp] = q
			}
		}
	}
	if len(del) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(t.ctx, 10*time.Second)
	defer cancel()
	res, err := kadm.NewClient(t.producer.Client()).DeleteRecords(ctx, del)
	if err != nil {
		t.log.Warn("purging repartition topics", "err", err)
		return
	}
	res.Each(func(r kadm.DeleteRecordsResponse) {
		if r.Err != nil {
			t.log.Warn("purging repartition partition", "topic", r.Topic, "partition", r.Partition, "err", r.Err)
			return
		}
		if q := queues[tpKey{r.Topic, r.Partition}]; q != nil {
			q.purged = q.committed
		}
	})
}
