package streams

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/stoatflow/stoatflow/internal/failpoint"
	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/state"
)

// restoreBatch is how many changelog records go into one store write batch
// during restore.
const restoreBatch = 4096

// restoreState is one store's read of its changelog: an active task's
// restore in progress, which ends at the changelog's end, or a standby
// task's read, which goes on for as long as the standby is assigned.
type restoreState struct {
	task *activeTask // nil for a standby's read
	// standby is the standby whose store this reads, nil for a restore.
	standby *standbyTask
	ts      *taskStore
	tp      state.TopicPartition
	start   int64
	// end is, for a restore, the changelog's end when it began (an upper
	// bound); for a standby, the end its restore consumer last saw.
	end  int64
	full bool
	// sourced marks a store whose changelog is its source topic
	// (reuse.ktable.source.topics). A restore's end is then the group's
	// committed offset, fixed, and records at or past it are the task's to
	// process, not the restore's to apply; a standby applies records only
	// below limit, the group's committed offset as last read.
	sourced bool
	// openTxn marks a restore whose changelog held an open transaction
	// of an earlier owner past end when it began: records another owner
	// committed after it may follow, so the restore ends only once the
	// transaction is gone (aborted at its timeout) and end has caught up
	// with the high watermark. txnChecked is when that was last asked.
	openTxn    bool
	txnChecked time.Time
	limit      int64
	// atLimit is set once a read of a source topic fetched a record at
	// or past its bound: a restore ends there, a standby waits for its
	// limit to move.
	atLimit bool
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
	start, full, err := t.resumeFrom(a.id, ts, lo, hi)
	if err != nil {
		return false, err
	}
	if !full {
		t.committer.SetChangelogOffset(tp, start-1)
	}
	t.s.hks.OnRestoreStart(ts.spec.Name, tp, start, hi, full)
	openTxn := false
	if !sourced {
		openTxn = t.noteOpenChangelogTxn(ts.spec.Name, tp, hi)
	}
	if start >= hi && !openTxn {
		t.s.hks.OnRestoreEnd(ts.spec.Name, tp, 0)
		return false, nil
	}
	t.log.Info("restoring store", "store", ts.spec.Name, "task", a.id.String(), "changelog", tp.String(),
		"from", start, "to", hi, "records_to_go", hi-start, "full", full)
	now := time.Now()
	t.restores[tp] = &restoreState{task: a, ts: ts, tp: tp, start: start, end: hi, full: full, sourced: sourced, openTxn: openTxn,
		last: -1, pos: -1, began: now, logged: now}
	return true, nil
}

// resumeFrom is where a store catches up with its changelog from: its
// committed offset + 1, or, with no offset or one older than the
// changelog's log start lo, the log start, the store emptied first (only
// it); full reports the latter.
func (t *streamThread) resumeFrom(id kstreams.TaskID, ts *taskStore, lo, hi int64) (start int64, full bool, err error) {
	off, ok, err := ts.store.CommittedOffset(*ts.changelog)
	if err != nil {
		return 0, false, err
	}
	switch {
	case ok && off+1 >= lo:
		return off + 1, false, nil
	case ok:
		// The retention guard's report: the flush policy keeps a durable
		// offset within half the changelog's retention, so this means the
		// store was closed or its task elsewhere for longer than that.
		t.log.Warn("store offset is older than its changelog's log start; restoring the store in full",
			"store", ts.spec.Name, "task", id.String(), "changelog", ts.changelog.String(), "offset", off, "log_start", lo,
			"records_to_replay", hi-lo)
		if err := t.reopenEmpty(ts); err != nil {
			return 0, false, err
		}
	}
	return lo, true, nil
}

// noteOpenChangelogTxn reports, and says in the log, whether a changelog
// holds an open transaction past its last stable offset lso: only the
// task's owner writes its changelog, and this thread owns the task now, so
// the transaction is one an earlier owner (Kafka Streams or StoatFlow)
// left when it stopped mid-transaction. The broker aborts it once its
// timeout passes. A later owner may have committed records after it (the
// task moved on before the abort), and the group's offsets this task
// resumes from include what those records hold: the restore waits for the
// transaction to go and reads them too.
func (t *streamThread) noteOpenChangelogTxn(store string, tp state.TopicPartition, lso int64) bool {
	if !t.s.cfg.ExactlyOnce() {
		return false
	}
	ctx, cancel := context.WithTimeout(t.ctx, changelogWatermarksWait)
	defer cancel()
	ends, err := kadm.NewClient(t.restorer).ListEndOffsets(ctx, tp.Topic)
	if err != nil {
		return false
	}
	if hw, ok := ends.Lookup(tp.Topic, tp.Partition); ok && hw.Err == nil && hw.Offset > lso {
		t.log.Warn("changelog holds an open transaction that an earlier owner of the task left: the restore reads up to it, "+
			"then waits until it ends (fenced at once when its process is no longer in the group, else aborted by the broker after its transaction.timeout.ms) "+
			"and reads what later owners committed after it",
			"store", store, "changelog", tp.String(), "last_stable_offset", lso, "high_watermark", hw.Offset)
		_, _ = t.s.fenceAbandoned(t.ctx, t.restorer, "changelog "+tp.String())
		return true
	}
	return false
}

// openTxnGone reports whether a restore that began behind an open
// transaction may end: the transaction is gone (the last stable offset
// has reached the high watermark) and the restore read up to it. It asks
// the broker at most every 200 ms, and moves rs.end to the last stable
// offset it finds.
func (t *streamThread) openTxnGone(rs *restoreState) bool {
	if !rs.openTxn {
		return true
	}
	if time.Since(rs.txnChecked) < 200*time.Millisecond {
		return false
	}
	rs.txnChecked = time.Now()
	ctx, cancel := context.WithTimeout(t.ctx, changelogWatermarksWait)
	defer cancel()
	adm := kadm.NewClient(t.restorer)
	lsos, err := adm.ListCommittedOffsets(ctx, rs.tp.Topic)
	if err != nil {
		return false
	}
	hws, err := adm.ListEndOffsets(ctx, rs.tp.Topic)
	if err != nil {
		return false
	}
	lso, ok1 := lsos.Lookup(rs.tp.Topic, rs.tp.Partition)
	hw, ok2 := hws.Lookup(rs.tp.Topic, rs.tp.Partition)
	if !ok1 || !ok2 || lso.Err != nil || hw.Err != nil {
		return false
	}
	if lso.Offset > rs.end {
		rs.end, rs.idle = lso.Offset, 0
	}
	if hw.Offset > lso.Offset {
		_, _ = t.s.fenceAbandoned(t.ctx, t.restorer, "changelog "+rs.tp.String())
		return false
	}
	rs.openTxn = false
	t.log.Info("the open transaction in the changelog is gone; the restore reads on to its end", "store", rs.ts.spec.Name,
		"changelog", rs.tp.String(), "end", rs.end)
	return rs.next() >= rs.end
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

// assignRestorer points the restore consumer at every changelog read
// going on: the restores of active tasks and the reads of standbys (but a
// standby of a source table at its bound). A read that starts, or a
// partition whose read changed (a standby made active, an active task
// made standby), is read from its next offset; one that ended, or whose
// task left, is dropped; the others read on. Standbys wait while an active
// task restores, as Kafka Streams' changelog reader updates them only once
// no active task restores.
func (t *streamThread) assignRestorer() {
	want := make(map[state.TopicPartition]*restoreState, len(t.restores)+len(t.standbyReads))
	for tp, rs := range t.standbyReads {
		if !rs.atLimit {
			want[tp] = rs
		}
	}
	for tp, rs := range t.restores {
		want[tp] = rs
	}
	remove := map[string][]int32{}
	for tp, rs := range t.restoring {
		if want[tp] != rs {
			remove[tp.Topic] = append(remove[tp.Topic], tp.Partition)
			delete(t.restoring, tp)
		}
	}
	add := map[string]map[int32]kgo.Offset{}
	for tp, rs := range want {
		if t.restoring[tp] != nil {
			continue
		}
		if add[tp.Topic] == nil {
			add[tp.Topic] = map[int32]kgo.Offset{}
		}
		add[tp.Topic][tp.Partition] = kgo.NewOffset().At(rs.next())
		t.restoring[tp] = rs
	}
	// Pauses outlive assignments in franz-go: a partition no standby
	// reads any more is resumed, so that a restore of it later reads.
	resume, pause := map[string][]int32{}, map[string][]int32{}
	for tp := range t.restorerPaused {
		if rs := t.restoring[tp]; rs == nil || rs.standby == nil || len(t.restores) == 0 {
			resume[tp.Topic] = append(resume[tp.Topic], tp.Partition)
			delete(t.restorerPaused, tp)
		}
	}
	if len(t.restores) > 0 {
		for tp, rs := range t.restoring {
			if rs.standby != nil && !t.restorerPaused[tp] {
				pause[tp.Topic] = append(pause[tp.Topic], tp.Partition)
				t.restorerPaused[tp] = true
			}
		}
	}
	if len(remove) > 0 {
		t.restorer.RemoveConsumePartitions(remove)
	}
	if len(resume) > 0 {
		t.restorer.ResumeFetchPartitions(resume)
	}
	if len(add) > 0 {
		t.restorer.AddConsumePartitions(add)
	}
	if len(pause) > 0 {
		t.restorer.PauseFetchPartitions(pause)
	}
}

// dropRestorerPartition stops the restore consumer's read of tp, so that
// the next assignRestorer reads it again from its read's next offset.
func (t *streamThread) dropRestorerPartition(tp state.TopicPartition) {
	if t.restoring[tp] == nil {
		return
	}
	delete(t.restoring, tp)
	t.restorer.RemoveConsumePartitions(map[string][]int32{tp.Topic: {tp.Partition}})
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
	t.assignRestorer()
}

// restoreStep reads changelog records for about 100 ms and applies them in
// batches, each batch with its offset in one store write.
func (t *streamThread) restoreStep(ctx context.Context) error {
	until := time.Now().Add(100 * time.Millisecond)
	for time.Now().Before(until) && len(t.restores) > 0 && ctx.Err() == nil {
		polledAt := time.Now()
		got, err := t.readChangelogs(ctx, 50*time.Millisecond)
		if err != nil {
			return err
		}
		polled := time.Since(polledAt)
		var ended []*restoreState
		for _, rs := range t.restores {
			switch {
			case rs.atLimit:
				ended = append(ended, rs)
			case rs.next() >= rs.end:
				if t.openTxnGone(rs) {
					ended = append(ended, rs)
				}
			case got[rs]:
			default:
				rs.idle += polled
				if rs.idle > restoreStallWait && t.endUnchanged(rs) {
					t.log.Warn("restore got no record for a while below the changelog's end; the records left are compacted away or aborted, the store is complete",
						"store", rs.ts.spec.Name, "changelog", rs.tp.String(), "next", rs.next(), "end", rs.end)
					ended = append(ended, rs)
				}
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

// readChangelogs polls the restore consumer once, waiting at most wait,
// and hands each record to the restore of an active task's store or the
// read of a standby's store it belongs to, in batches of restoreBatch
// records, each written with its offset in one store write. A standby's
// batch is written at the end of the poll, so that it lags its changelog by
// at most what the consumer fetched and the thread did not take yet. It
// returns the reads that got records.
func (t *streamThread) readChangelogs(ctx context.Context, wait time.Duration) (map[*restoreState]bool, error) {
	pctx, cancel := context.WithTimeout(ctx, wait)
	fs := t.restorer.PollRecords(pctx, restoreBatch)
	cancel()
	var fatal error
	var reset []*restoreState
	fs.EachError(func(topic string, partition int32, err error) {
		tp := state.TopicPartition{Topic: topic, Partition: partition}
		switch {
		case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		case errors.Is(err, kerr.OffsetOutOfRange) && t.restores[tp] != nil && !t.restores[tp].sourced:
			reset = append(reset, t.restores[tp])
		case errors.Is(err, kerr.OffsetOutOfRange) && t.standbyReads[tp] != nil && t.restores[tp] == nil:
			reset = append(reset, t.standbyReads[tp])
		case errors.Is(err, kerr.OffsetOutOfRange), errors.Is(err, kgo.ErrClientClosed),
			errors.Is(err, kerr.TopicAuthorizationFailed):
			// A source topic's records were deleted under the restore of
			// a source table (Java's auto.offset.reset=none): the table
			// cannot catch up. A changelog's are reset above.
			if fatal == nil {
				fatal = fmt.Errorf("streams: restore consumer: %s [%d]: %w", topic, partition, err)
			}
		default:
			t.log.Warn("restore consumer", "topic", topic, "partition", partition, "err", err)
		}
	})
	if fatal != nil {
		return nil, fatal
	}
	for _, rs := range reset {
		if err := t.resetRead(rs); err != nil {
			return nil, err
		}
	}
	fs.EachPartition(func(p kgo.FetchTopicPartition) {
		rs := t.standbyReads[state.TopicPartition{Topic: p.Topic, Partition: p.Partition}]
		end := p.HighWatermark
		if p.LastStableOffset >= 0 {
			end = p.LastStableOffset
		}
		if rs != nil && end > rs.end {
			rs.end = end
		}
	})
	got := map[*restoreState]bool{}
	blocked := false
	for _, r := range fs.Records() {
		tp := state.TopicPartition{Topic: r.Topic, Partition: r.Partition}
		rs := t.restores[tp]
		if rs == nil {
			rs = t.standbyReads[tp]
		}
		if rs == nil || rs.atLimit || r.Offset < rs.next() {
			continue // dropped meanwhile, at its bound, or fetched before a re-read
		}
		if rs.sourced && ((rs.standby == nil && r.Offset >= rs.end) || (rs.standby != nil && r.Offset >= rs.limit)) {
			// A restore's end, for the task to process from; a standby's
			// limit, which moves as the active task commits.
			rs.atLimit = true
			blocked = blocked || rs.standby != nil
			continue
		}
		rs.take(r)
		got[rs] = true
		if len(rs.batch) >= restoreBatch {
			if err := t.flushRead(rs); err != nil {
				return nil, err
			}
		}
	}
	for rs := range got {
		if rs.standby != nil {
			if err := t.flushStandby(rs); err != nil {
				return nil, err
			}
		}
	}
	if blocked {
		// What was fetched past the bounds is dropped, and read again from
		// there once they move.
		t.assignRestorer()
	}
	return got, nil
}

// take adds a changelog record to the read's batch: a transaction marker
// only moves its position, and a null-key record of a source topic (which
// a table drops, so its store never held it) moves its offset too.
func (rs *restoreState) take(r *kgo.Record) {
	switch {
	case r.Attrs.IsControl():
	case rs.sourced && r.Key == nil:
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
}

// flushRead writes a read's batch: a restore's or a standby's.
func (t *streamThread) flushRead(rs *restoreState) error {
	if rs.standby != nil {
		return t.flushStandby(rs)
	}
	return t.flushRestore(rs)
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
	t.sumsMoved = true
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
		if err := t.taskRestored(a); err != nil {
			return err
		}
	}
	t.assignRestorer()
	if t.caughtUp() {
		t.s.threadReady(t.idx, true)
	}
	return nil
}

// taskRestored starts a task whose stores have caught up with their
// changelogs: its processors, then its partitions' fetching, which stayed
// paused while it restored.
func (t *streamThread) taskRestored(a *activeTask) error {
	if err := t.startTask(a); err != nil {
		return err
	}
	// A queue filled before the restore (a rewound task) stays paused
	// until processing drains it (backpressure.go).
	if resume := fetchable(a, nil); !t.fetchPaused && len(resume) > 0 {
		t.consumer.ResumeFetchPartitions(resume)
	}
	t.publishOffsetSums()
	return nil
}
