package streams

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/confluentinc/confluent-kafka-go/v2/kafka"

	"github.com/stoatflow/stoatflow/internal/failpoint"
	"github.com/stoatflow/stoatflow/state"
)

// restoreBatch is how many changelog records go into one store write batch
// during restore.
const restoreBatch = 4096

// restoreState is one store's restore in progress.
type restoreState struct {
	task    *activeTask
	ts      *taskStore
	tp      state.TopicPartition
	start   int64
	end     int64 // the changelog's end when restore began (an upper bound)
	full    bool
	applied int64
	last    int64 // offset of the last record applied
	batch   []state.ChangelogRecord
	began   time.Time
	logged  time.Time
}

// changelogWatermarksWait bounds the watermark look-up of one changelog
// when a task opens (in the rebalance callback).
const changelogWatermarksWait = 30 * time.Second

// planRestore decides how a store catches up with its changelog: from its
// committed offset + 1, or in full when it has no offset or its offset is
// older than the changelog's log start (then the store is emptied first,
// and only that store). It reports whether there is anything to replay.
func (t *streamThread) planRestore(a *activeTask, ts *taskStore) (bool, error) {
	if ts.changelog == nil {
		return false, nil
	}
	tp := *ts.changelog
	var lo, hi int64
	done := t.doing("reading the watermarks of changelog " + tp.String())
	err := sliced(t.ctx, "watermarks of changelog "+tp.String(), changelogWatermarksWait, func(ms int) error {
		var err error
		lo, hi, err = t.restorer.QueryWatermarkOffsets(tp.Topic, tp.Partition, ms)
		return err
	})
	done()
	if err != nil {
		return false, fmt.Errorf("streams: %w", err)
	}
	off, ok, err := ts.store.CommittedOffset(tp)
	if err != nil {
		return false, err
	}
	start, full := lo, true
	switch {
	case ok && off+1 >= lo:
		start, full = off+1, false
		t.committer.SetChangelogOffset(tp, off)
	case ok:
		t.log.Warn("store offset is older than its changelog's log start; restoring the store in full",
			"store", ts.spec.Name, "task", a.id.String(), "offset", off, "log_start", lo)
		if err := t.reopenEmpty(ts); err != nil {
			return false, err
		}
	}
	t.s.hks.OnRestoreStart(ts.spec.Name, tp, start, hi, full)
	if start >= hi {
		t.s.hks.OnRestoreEnd(ts.spec.Name, tp, 0)
		return false, nil
	}
	t.log.Info("restoring store", "store", ts.spec.Name, "task", a.id.String(), "changelog", tp.String(),
		"from", start, "to", hi, "records_to_go", hi-start, "full", full)
	now := time.Now()
	t.restores[tp] = &restoreState{task: a, ts: ts, tp: tp, start: start, end: hi, full: full, last: -1, began: now, logged: now}
	return true, nil
}

// reopenEmpty deletes a store's files and opens it empty.
func (t *streamThread) reopenEmpty(ts *taskStore) error {
	ts.store.Close()
	if err := os.RemoveAll(storePath(ts.dir, ts.spec)); err != nil {
		return fmt.Errorf("streams: emptying store %s: %w", ts.spec.Name, err)
	}
	fresh, err := t.openStore(ts.task, ts.dir, ts.spec)
	if err != nil {
		return err
	}
	ts.store, ts.bytes = fresh.store, fresh.bytes
	return nil
}

// assignRestorer points the restore consumer at every changelog still
// restoring, each at its next offset.
func (t *streamThread) assignRestorer() error {
	if len(t.restores) == 0 {
		return t.restorer.Unassign()
	}
	parts := make([]kafka.TopicPartition, 0, len(t.restores))
	for _, rs := range t.restores {
		topic := rs.tp.Topic
		next := rs.start
		if rs.last >= 0 {
			next = rs.last + 1
		}
		parts = append(parts, kafka.TopicPartition{Topic: &topic, Partition: rs.tp.Partition, Offset: kafka.Offset(next)})
	}
	if err := t.restorer.Assign(parts); err != nil {
		return fmt.Errorf("streams: assigning changelogs to the restore consumer: %w", err)
	}
	return nil
}

func (t *streamThread) dropRestores() {
	if len(t.restores) == 0 {
		return
	}
	for tp, rs := range t.restores {
		if err := t.flushRestore(rs); err != nil {
			t.log.Warn("restore batch lost on close; the next start replays it", "store", rs.ts.spec.Name, "err", err)
		}
		delete(t.restores, tp)
	}
	_ = t.restorer.Unassign()
}

// restoreStep reads changelog records for about 100 ms and applies them in
// batches, each batch with its offset in one store write.
func (t *streamThread) restoreStep(ctx context.Context) error {
	until := time.Now().Add(100 * time.Millisecond)
	for time.Now().Before(until) && len(t.restores) > 0 && ctx.Err() == nil {
		ev := t.restorer.Poll(50)
		switch e := ev.(type) {
		case *kafka.Message:
			rs := t.restores[state.TopicPartition{Topic: *e.TopicPartition.Topic, Partition: e.TopicPartition.Partition}]
			if rs == nil {
				continue
			}
			ts := int64(-1)
			if !e.Timestamp.IsZero() {
				ts = e.Timestamp.UnixMilli()
			}
			rs.batch = append(rs.batch, state.ChangelogRecord{Key: e.Key, Value: e.Value, Timestamp: ts})
			rs.last = int64(e.TopicPartition.Offset)
			if len(rs.batch) >= restoreBatch {
				if err := t.flushRestore(rs); err != nil {
					return err
				}
			}
		case kafka.PartitionEOF:
			rs := t.restores[state.TopicPartition{Topic: *e.Topic, Partition: e.Partition}]
			if rs == nil {
				continue
			}
			if err := t.finishRestore(rs); err != nil {
				return err
			}
		case kafka.Error:
			if e.IsFatal() || e.Code() == kafka.ErrAutoOffsetReset {
				return fmt.Errorf("streams: restore consumer: %w", e)
			}
			t.log.Warn("restore consumer", "err", e)
		}
	}
	for _, rs := range t.restores {
		if err := t.flushRestore(rs); err != nil {
			return err
		}
		if time.Since(rs.logged) > 5*time.Second {
			rs.logged = time.Now()
			rate := float64(rs.applied) / time.Since(rs.began).Seconds()
			left := rs.end - rs.last - 1
			eta := time.Duration(0)
			if rate > 0 {
				eta = time.Duration(float64(left)/rate) * time.Second
			}
			t.log.Info("restoring", "store", rs.ts.spec.Name, "changelog", rs.tp.String(), "restored", rs.applied,
				"records_to_go", left, "records_per_sec", int64(rate), "eta", eta.Round(time.Second).String())
		}
	}
	return nil
}

func (t *streamThread) flushRestore(rs *restoreState) error {
	if len(rs.batch) == 0 {
		return nil
	}
	n := len(rs.batch)
	if err := rs.ts.store.ApplyChangelog(rs.batch, rs.tp, rs.last); err != nil {
		return fmt.Errorf("streams: restoring store %s from %s at offset %d: %w", rs.ts.spec.Name, rs.tp, rs.last, err)
	}
	rs.batch = rs.batch[:0]
	rs.applied += int64(n)
	t.s.hks.OnRestoreBatch(rs.ts.spec.Name, rs.tp, n)
	return failpoint.Hit(failpoint.MidRestore)
}

// finishRestore ends a store's restore; when it was its task's last, the
// task starts processing.
func (t *streamThread) finishRestore(rs *restoreState) error {
	if err := t.flushRestore(rs); err != nil {
		return err
	}
	delete(t.restores, rs.tp)
	if rs.last >= 0 {
		t.committer.SetChangelogOffset(rs.tp, rs.last)
	}
	t.s.hks.OnRestoreEnd(rs.ts.spec.Name, rs.tp, rs.applied)
	t.log.Info("store restored", "store", rs.ts.spec.Name, "changelog", rs.tp.String(), "records", rs.applied,
		"took", time.Since(rs.began).Round(time.Millisecond).String())
	a := rs.task
	a.restoring--
	if a.restoring == 0 {
		if err := t.startTask(a); err != nil {
			return err
		}
		var resume []kafka.TopicPartition
		for _, q := range a.queues {
			topic := q.tp.topic
			resume = append(resume, kafka.TopicPartition{Topic: &topic, Partition: q.tp.partition})
		}
		if err := t.consumer.Resume(resume); err != nil {
			return fmt.Errorf("streams: resuming task %s: %w", a.id, err)
		}
	}
	if err := t.assignRestorer(); err != nil {
		return err
	}
	if len(t.restores) == 0 {
		t.s.threadReady(t.idx, true)
	}
	return nil
}
