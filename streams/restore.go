package streams

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/stoatflow/stoatflow/internal/failpoint"
	"github.com/stoatflow/stoatflow/state"
)

// restoreBatch is how many changelog records go into one store write batch
// during restore.
const restoreBatch = 4096

// restoreState is one store's restore in progress.
type restoreState struct {
	task  *activeTask
	ts    *taskStore
	tp    state.TopicPartition
	start int64
	end   int64 // the changelog's end when restore began (an upper bound)
	full  bool
	// sourced marks a store whose changelog is its source topic
	// (reuse.ktable.source.topics): end is the group's committed offset,
	// fixed, and records at or past it are the task's to process, not the
	// restore's to apply.
	sourced bool
	applied int64
	last    int64 // offset of the last record applied
	// pos is the offset of the last record read, transaction markers
	// included: the restore reads on from pos+1, and ends at the end. A
	// store's offset is never a marker's: it is the last changelog record
	// whose effect the store holds.
	pos    int64
	batch  []state.ChangelogRecord
	began  time.Time
	logged time.Time
	// idle is the time the restore consumer polled without a record of
	// this changelog since its last one.
	idle time.Duration
}

// restoreStallWait is how long the restore consumer polls without a record
// of a changelog below its end before the restore counts as complete, once
// the broker confirmed the end has not moved. The end is the changelog's
// last stable offset, and the restore consumer sees transaction markers, so
// the last offset before the end is normally a record it gets; but
// compaction can remove the tail (a tombstone past delete.retention.ms) and
// an aborted transaction's records are never delivered, and franz-go does
// not expose a consumer's position past them. Only time spent polling
// counts, so a slow commit between polls never ends a restore early.
const restoreStallWait = 5 * time.Second

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
	done := t.doing("reading the watermarks of changelog " + tp.String())
	lo, hi, err := t.changelogWatermarks(tp)
	done()
	if err != nil {
		return false, fmt.Errorf("streams: watermarks of changelog %s: %w", tp, err)
	}
	sourced := ts.spec.SourceChangelog != ""
	if sourced {
		// Kafka Streams restores a table from its source topic up to the
		// group's committed offset, and with none, not at all: the task
		// then reads the topic from where auto.offset.reset says.
		hi = min(hi, max(a.startAt(tp), lo))
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
		// The retention guard's report: the flush policy keeps a durable
		// offset within half the changelog's retention, so this means the
		// store was closed or its task elsewhere for longer than that.
		t.log.Warn("store offset is older than its changelog's log start; restoring the store in full",
			"store", ts.spec.Name, "task", a.id.String(), "offset", off, "log_start", lo, "records_to_replay", hi-lo)
		if err := t.reopenEmpty(ts); err != nil {
			return false, err
		}
	}
	t.s.hks.OnRestoreStart(ts.spec.Name, tp, start, hi, full)
	if !sourced {
		t.noteOpenChangelogTxn(ts.spec.Name, tp, hi)
	}
	if start >= hi {
		t.s.hks.OnRestoreEnd(ts.spec.Name, tp, 0)
		return false, nil
	}
	t.log.Info("restoring store", "store", ts.spec.Name, "task", a.id.String(), "changelog", tp.String(),
		"from", start, "to", hi, "records_to_go", hi-start, "full", full)
	now := time.Now()
	t.restores[tp] = &restoreState{task: a, ts: ts, tp: tp, start: start, end: hi, full: full, sourced: sourced, last: -1, pos: -1, began: now, logged: now}
	return true, nil
}

// noteOpenChangelogTxn says in the log when a changelog ends at an open
// transaction: only the task's owner writes its changelog, and this thread
// owns the task now, so the transaction is one an earlier owner (Kafka
// Streams or StoatFlow) left when it stopped mid-transaction. The thread
// read the group's offsets stable before it planned the restores, so a
// transaction that was committing has completed by now; one still open is
// aborted once its timeout passes, and the restore stops before it.
func (t *streamThread) noteOpenChangelogTxn(store string, tp state.TopicPartition, lso int64) {
	if !t.s.cfg.ExactlyOnce() {
		return
	}
	ctx, cancel := context.WithTimeout(t.ctx, changelogWatermarksWait)
	defer cancel()
	ends, err := kadm.NewClient(t.restorer).ListEndOffsets(ctx, tp.Topic)
	if err != nil {
		return
	}
	if hw, ok := ends.Lookup(tp.Topic, tp.Partition); ok && hw.Err == nil && hw.Offset > lso {
		t.log.Warn("changelog ends at an open transaction that an earlier owner of the task left: restoring up to it; "+
			"the broker aborts it when its transaction.timeout.ms has passed", "store", store, "changelog", tp.String(),
			"last_stable_offset", lso, "high_watermark", hw.Offset)
	}
}

// changelogWatermarks returns a changelog partition's log start offset and
// its end as a read_committed reader sees it: the last stable offset, past
// which nothing is readable yet.
func (t *streamThread) changelogWatermarks(tp state.TopicPartition) (lo, hi int64, err error) {
	ctx, cancel := context.WithTimeout(t.ctx, changelogWatermarksWait)
	defer cancel()
	adm := kadm.NewClient(t.restorer)
	var s, e kadm.ListedOffset
	// The partition is looked up within the retries: a changelog created a
	// moment ago can still be missing from a broker's metadata (no such
	// partition, or UNKNOWN_TOPIC_OR_PARTITION) until it propagates.
	err = retryRequest(ctx, func(ctx context.Context) error {
		starts, err := adm.ListStartOffsets(ctx, tp.Topic)
		if err != nil {
			return err
		}
		ends, err := adm.ListCommittedOffsets(ctx, tp.Topic)
		if err != nil {
			return err
		}
		var ok1, ok2 bool
		s, ok1 = starts.Lookup(tp.Topic, tp.Partition)
		e, ok2 = ends.Lookup(tp.Topic, tp.Partition)
		switch {
		case !ok1 || !ok2:
			return fmt.Errorf("no such partition (is the changelog topic %s there?)", tp.Topic)
		case s.Err != nil:
			return s.Err
		case e.Err != nil:
			return e.Err
		}
		return nil
	})
	if err != nil {
		return 0, 0, err
	}
	return s.Offset, e.Offset, nil
}

// endUnchanged reports whether the broker, asked now, confirms rs's end: a
// broker that does not answer confirms nothing, and a moved end (records
// written since the restore began) is the new end to reach.
func (t *streamThread) endUnchanged(rs *restoreState) bool {
	if rs.sourced {
		return true // the committed offset, which does not move
	}
	_, hi, err := t.changelogWatermarks(rs.tp)
	if err != nil {
		rs.idle = 0
		return false
	}
	if hi != rs.end {
		rs.end, rs.idle = hi, 0
		return false
	}
	return true
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
// restoring: one that starts is read from its next offset, one that ended
// (or whose task left) is dropped, the others read on.
func (t *streamThread) assignRestorer() error {
	add := map[string]map[int32]kgo.Offset{}
	for tp, rs := range t.restores {
		if t.restoring[tp] {
			continue
		}
		if add[tp.Topic] == nil {
			add[tp.Topic] = map[int32]kgo.Offset{}
		}
		add[tp.Topic][tp.Partition] = kgo.NewOffset().At(rs.next())
		t.restoring[tp] = true
	}
	remove := map[string][]int32{}
	for tp := range t.restoring {
		if t.restores[tp] == nil {
			remove[tp.Topic] = append(remove[tp.Topic], tp.Partition)
			delete(t.restoring, tp)
		}
	}
	if len(remove) > 0 {
		t.restorer.RemoveConsumePartitions(remove)
	}
	if len(add) > 0 {
		t.restorer.AddConsumePartitions(add)
	}
	return nil
}

// next is the offset the restore reads next.
func (rs *restoreState) next() int64 {
	if rs.pos >= 0 {
		return rs.pos + 1
	}
	return rs.start
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
	_ = t.assignRestorer()
}

// restoreStep reads changelog records for about 100 ms and applies them in
// batches, each batch with its offset in one store write.
func (t *streamThread) restoreStep(ctx context.Context) error {
	until := time.Now().Add(100 * time.Millisecond)
	for time.Now().Before(until) && len(t.restores) > 0 && ctx.Err() == nil {
		pctx, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
		polledAt := time.Now()
		fs := t.restorer.PollRecords(pctx, restoreBatch)
		cancel()
		polled := time.Since(polledAt)
		got := map[*restoreState]bool{}
		var fatal error
		fs.EachError(func(topic string, partition int32, err error) {
			switch {
			case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
			case errors.Is(err, kerr.OffsetOutOfRange), errors.Is(err, kgo.ErrClientClosed),
				errors.Is(err, kerr.TopicAuthorizationFailed):
				// The changelog's records were deleted under the restore
				// (Java's auto.offset.reset=none): the store cannot catch up.
				if fatal == nil {
					fatal = fmt.Errorf("streams: restore consumer: %s [%d]: %w", topic, partition, err)
				}
			default:
				t.log.Warn("restore consumer", "topic", topic, "partition", partition, "err", err)
			}
		})
		if fatal != nil {
			return fatal
		}
		var ended []*restoreState
		for _, r := range fs.Records() {
			rs := t.restores[state.TopicPartition{Topic: r.Topic, Partition: r.Partition}]
			if rs == nil || r.Offset < rs.next() {
				continue // dropped meanwhile, or fetched before a re-read
			}
			if rs.sourced && r.Offset >= rs.end {
				if !slices.Contains(ended, rs) {
					ended = append(ended, rs)
				}
				continue // the task processes it
			}
			switch {
			case r.Attrs.IsControl():
			case rs.sourced && r.Key == nil:
				// A table drops a null-key record; its store never held it.
				rs.last = r.Offset
			default:
				ts := int64(-1)
				if !r.Timestamp.IsZero() {
					ts = r.Timestamp.UnixMilli()
				}
				rs.batch = append(rs.batch, state.ChangelogRecord{Key: r.Key, Value: r.Value, Timestamp: ts})
				rs.last = r.Offset
			}
			rs.pos, rs.idle = r.Offset, 0
			got[rs] = true
			if len(rs.batch) >= restoreBatch {
				if err := t.flushRestore(rs); err != nil {
					return err
				}
			}
			if rs.pos+1 >= rs.end && !slices.Contains(ended, rs) {
				ended = append(ended, rs)
			}
		}
		for _, rs := range t.restores {
			if got[rs] || slices.Contains(ended, rs) {
				continue
			}
			rs.idle += polled
			if rs.idle > restoreStallWait && t.endUnchanged(rs) {
				t.log.Warn("restore got no record for a while below the changelog's end; the records left are compacted away or aborted, the store is complete",
					"store", rs.ts.spec.Name, "changelog", rs.tp.String(), "next", rs.next(), "end", rs.end)
				ended = append(ended, rs)
			}
		}
		for _, rs := range ended {
			if err := t.finishRestore(rs); err != nil {
				return err
			}
		}
	}
	for _, rs := range t.restores {
		if err := t.flushRestore(rs); err != nil {
			return err
		}
		if time.Since(rs.logged) > 5*time.Second {
			rs.logged = time.Now()
			rate := float64(rs.applied) / time.Since(rs.began).Seconds()
			left := rs.end - rs.next()
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
		resume := map[string][]int32{}
		for _, q := range a.queues {
			resume[q.tp.topic] = append(resume[q.tp.topic], q.tp.partition)
		}
		if !t.fetchPaused {
			t.consumer.ResumeFetchPartitions(resume)
		}
		t.publishOffsetSums()
	}
	if err := t.assignRestorer(); err != nil {
		return err
	}
	if len(t.restores) == 0 {
		t.s.threadReady(t.idx, true)
	}
	return nil
}
