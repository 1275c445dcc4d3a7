package streams

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"

	"github.com/stoatflow/stoatflow/internal/assignment"
	"github.com/stoatflow/stoatflow/internal/failpoint"
	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/state"
)

// StandbyHooks is an optional extension of Hooks: the runtime calls it for
// standby tasks (warm-up replicas included) when its Hooks also implement
// it.
type StandbyHooks interface {
	// OnStandbyUpdate reports records changelog records that a standby
	// task applied to one of its stores in one store write (0 when the
	// standby opens), and lag, the records of the store's changelog it has
	// still to read after them, from the end its restore consumer last saw.
	OnStandbyUpdate(thread int, task kstreams.TaskID, store string, records int, lag int64)
	// OnStandbyClosed reports a standby task that thread closed or made
	// active.
	OnStandbyClosed(thread int, task kstreams.TaskID)
}

// standbyTask is a replica of a task that runs elsewhere, Kafka Streams'
// StandbyTask (a warm-up replica is one too): the task's stores, opened in
// its task directory as the active task opens them, kept up to date from
// their changelogs by the thread's restore consumer, and processing
// nothing. Its reads never end: a standby lags its changelogs by at most
// what the consumer fetched and the thread has not applied yet.
type standbyTask struct {
	id     kstreams.TaskID
	stores []*taskStore
	// reads are the reads of the logged stores' changelogs, one per store.
	reads []*restoreState
}

// standbyLimitEvery is how often a standby reading a source topic
// (reuse.ktable.source.topics) asks the group for its committed offsets
// while it waits at its bound, as Kafka Streams' changelog reader updates
// its standbys' limit offsets every commit.interval.ms.
func (t *streamThread) standbyLimitEvery() time.Duration {
	return max(t.s.cfg.CommitInterval, 100*time.Millisecond)
}

// wantedStandbys are the standby tasks of an assignment (its warm-ups
// included), checked against this topology: a task of a sub-topology this
// topology does not have fails the assignment, as an active one does. A
// task whose sub-topology has no logged store has nothing to replicate and
// is left out.
func (t *streamThread) wantedStandbys(info *assignment.AssignmentInfo) (map[kstreams.TaskID]bool, error) {
	subs := t.s.topo.Subtopologies()
	want := map[kstreams.TaskID]bool{}
	var wrong []string
	for id := range info.StandbyTasks {
		kid := kstreams.TaskID{Subtopology: int(id.Subtopology), Partition: id.Partition}
		switch {
		case id.NamedTopology != "":
			wrong = append(wrong, fmt.Sprintf("standby task %s (named topologies are not supported)", id))
		case id.Subtopology < 0 || int(id.Subtopology) >= len(subs):
			wrong = append(wrong, fmt.Sprintf("standby task %s (this topology has %d sub-topologies)", id, len(subs)))
		case id.Partition < 0 || (t.s.taskCounts[kid.Subtopology] > 0 && int(id.Partition) >= t.s.taskCounts[kid.Subtopology] &&
			len(t.s.topo.SourcePatterns(kid.Subtopology)) == 0):
			wrong = append(wrong, fmt.Sprintf("standby task %s (sub-topology %d has %d tasks)", id, kid.Subtopology, t.s.taskCounts[kid.Subtopology]))
		default:
			for _, spec := range subs[kid.Subtopology].Stores {
				if t.s.storeChangelog(spec, kid.Partition) != nil {
					want[kid] = true
					break
				}
			}
		}
	}
	if len(wrong) > 0 {
		slices.Sort(wrong)
		return nil, fmt.Errorf("%w: the group's leader assigned standby tasks that this instance's topology does not have: %v; "+
			"the application's instances run different topologies", ErrTaskAssignment, wrong)
	}
	return want, nil
}

// closeDroppedStandbys closes the standbys an assignment no longer names
// (their directories stay for a later assignment), before anything opens:
// another thread of the instance may have been given their tasks. A
// standby the assignment makes active here stays open for openTask.
func (t *streamThread) closeDroppedStandbys(want map[kstreams.TaskID]bool, active map[kstreams.TaskID][]tpKey) {
	var closed []string
	for id, sb := range t.standbys {
		if want[id] || active[id] != nil {
			continue
		}
		t.closeStandby(sb, false)
		closed = append(closed, id.String())
	}
	if len(closed) > 0 {
		slices.Sort(closed)
		t.log.Info("standby tasks closed; their state stays on disk", "tasks", closed)
	}
}

// openStandbys opens the assignment's standbys this thread does not have
// yet.
func (t *streamThread) openStandbys(want map[kstreams.TaskID]bool) error {
	var opened []string
	for _, id := range slices.SortedFunc(maps.Keys(want), compareTaskIDs) {
		if t.standbys[id] != nil || t.tasks[id] != nil {
			continue
		}
		if err := t.openStandby(id); err != nil {
			return err
		}
		opened = append(opened, id.String())
	}
	if len(opened) > 0 {
		t.log.Info("standby tasks opened", "tasks", opened)
	}
	return nil
}

// openStandby opens a standby task: its stores, as an active task opens
// them, each read from its changelog from its committed offset. While
// another thread of the instance has the task open, or the cleaner holds
// its directory, it waits for it (openWaiting).
func (t *streamThread) openStandby(id kstreams.TaskID) error {
	sb := &standbyTask{id: id}
	t.standbys[id] = sb
	if !t.s.member.claimTask(wireTaskID(id), t) {
		t.waiting[id] = true
		t.log.Info("standby task waits for another thread of this instance, or the state directory's cleaner, to let its directory go", "task", id.String())
		return nil
	}
	stores, err := t.openStores(id)
	if err != nil {
		delete(t.standbys, id)
		t.s.member.releaseTask(wireTaskID(id), t, 0, false)
		return err
	}
	return t.startStandby(sb, stores)
}

// startStandby starts the changelog reads of a standby over its open
// stores.
func (t *streamThread) startStandby(sb *standbyTask, stores []*taskStore) error {
	sb.stores = stores
	for _, ts := range stores {
		if ts.changelog != nil {
			// The plan may empty the store, which replaces ts.store:
			// it is registered once it stays.
			rs, err := t.planStandbyRead(sb, ts)
			if err != nil {
				t.closeStandby(sb, true)
				return err
			}
			sb.reads = append(sb.reads, rs)
			t.standbyReads[rs.tp] = rs
			t.reportStandby(rs, 0)
		}
		t.s.registerStandby(ts)
	}
	return nil
}

// planStandbyRead decides where a standby's store reads its changelog
// from, as a restore does (planRestore): its committed offset + 1, or the
// log start when it has none or an older one (the store emptied first).
// A store whose changelog is its source topic reads it only up to the
// group's committed offset, which moves as the active task commits, as
// Kafka Streams' standbys do: past it lie records the active task has not
// processed yet.
func (t *streamThread) planStandbyRead(sb *standbyTask, ts *taskStore) (*restoreState, error) {
	tp := *ts.changelog
	done := t.doing("reading the watermarks of changelog " + tp.String())
	lo, hi, err := t.changelogWatermarks(tp)
	done()
	if err != nil {
		return nil, fmt.Errorf("streams: watermarks of changelog %s: %w", tp, err)
	}
	start, full, err := t.resumeFrom(sb.id, ts, lo, hi)
	if err != nil {
		return nil, err
	}
	now := time.Now()
	rs := &restoreState{standby: sb, ts: ts, tp: tp, start: start, end: hi, full: full,
		sourced: ts.spec.SourceChangelog != "", last: -1, pos: -1, began: now, logged: now}
	if rs.sourced {
		rs.limit = -1
		if limits, err := t.committedSourceOffsets([]state.TopicPartition{tp}); err == nil {
			if l, ok := limits[tp]; ok {
				rs.limit = l
			}
		}
		rs.atLimit = rs.limit <= rs.start
	}
	t.log.Debug("standby store reads its changelog", "store", ts.spec.Name, "task", sb.id.String(), "changelog", tp.String(),
		"from", start, "records_behind", max(hi-start, 0), "full", full)
	return rs, nil
}

// committedSourceOffsets reads the group's committed offsets of source
// partitions: the bounds of the standbys that read them.
func (t *streamThread) committedSourceOffsets(tps []state.TopicPartition) (map[state.TopicPartition]int64, error) {
	var topics []string
	for _, tp := range tps {
		if !slices.Contains(topics, tp.Topic) {
			topics = append(topics, tp.Topic)
		}
	}
	ctx, cancel := context.WithTimeout(t.ctx, 5*time.Second)
	defer cancel()
	resp, err := kadm.NewClient(t.consumer).FetchOffsetsForTopics(ctx, t.s.cfg.ApplicationID, topics...)
	if err != nil {
		return nil, err
	}
	out := map[state.TopicPartition]int64{}
	for _, tp := range tps {
		if o, ok := resp.Lookup(tp.Topic, tp.Partition); ok && o.Err == nil && o.At >= 0 {
			out[tp] = o.At
		}
	}
	return out, nil
}

// refreshStandbyLimits moves the bounds of the standbys that wait at the
// group's committed offset of their source topic, at most once per
// standbyLimitEvery.
func (t *streamThread) refreshStandbyLimits(now time.Time) {
	if now.Sub(t.lastLimitRefresh) < t.standbyLimitEvery() {
		return
	}
	var waiting []state.TopicPartition
	for tp, rs := range t.standbyReads {
		if rs.sourced && rs.atLimit {
			waiting = append(waiting, tp)
		}
	}
	if len(waiting) == 0 {
		return
	}
	t.lastLimitRefresh = now
	limits, err := t.committedSourceOffsets(waiting)
	if err != nil {
		t.log.Debug("reading the committed offsets that bound standbys of source tables", "err", err)
		return
	}
	moved := false
	for _, tp := range waiting {
		rs := t.standbyReads[tp]
		if l, ok := limits[tp]; ok && l > rs.limit {
			rs.limit = l
			if rs.limit > rs.next() {
				rs.atLimit, moved = false, true
			}
		}
	}
	if moved {
		t.assignRestorer()
	}
}

// standbyPollEvery is how often the loop polls the restore consumer for
// its standbys when it has no records buffered: a fetch's errors come only
// through a poll.
const standbyPollEvery = 100 * time.Millisecond

// standbyStep applies what the restore consumer fetched for the thread's
// standbys: the loop calls it every round while no active task restores
// (standbys wait while one does, as in Kafka Streams). It polls when
// records are buffered, or at least every standbyPollEvery, so that a
// round of the loop that processes records does not wait on it.
func (t *streamThread) standbyStep(ctx context.Context, now time.Time) error {
	if t.restorer.BufferedFetchRecords() > 0 || now.Sub(t.lastStandbyPoll) >= standbyPollEvery {
		t.lastStandbyPoll = now
		if _, err := t.readChangelogs(ctx, time.Millisecond); err != nil {
			return err
		}
	}
	t.refreshStandbyLimits(now)
	return nil
}

// flushStandby writes a standby store's batch with its offset in one store
// write, as a restore writes its batches: a standby stopped at any moment
// holds data at or behind its offset, never ahead of it.
func (t *streamThread) flushStandby(rs *restoreState) error {
	if len(rs.batch) == 0 {
		return nil
	}
	n := len(rs.batch)
	if h := t.s.standbyBatch; h != nil {
		if err := h(rs.standby.id, rs.ts.spec.Name); err != nil {
			return err
		}
	}
	if err := rs.ts.store.ApplyChangelog(rs.batch, rs.tp, rs.last); err != nil {
		return fmt.Errorf("streams: standby task %s: updating store %s from %s at offset %d: %w", rs.standby.id, rs.ts.spec.Name, rs.tp, rs.last, err)
	}
	rs.batch = rs.batch[:0]
	rs.applied += int64(n)
	t.sumsMoved = true
	t.reportStandby(rs, n)
	return failpoint.Hit(failpoint.StandbyMid)
}

// reportStandby sends a standby store's update and lag to the hooks that
// take them.
func (t *streamThread) reportStandby(rs *restoreState, n int) {
	if t.s.sbh != nil {
		t.s.sbh.OnStandbyUpdate(t.idx, rs.standby.id, rs.ts.spec.Name, n, rs.lag())
	}
}

// lag is what a standby's read has still to apply of what it knows of
// its changelog: up to the end the consumer last saw, or the group's
// committed offset for a source topic.
func (rs *restoreState) lag() int64 {
	end := rs.end
	if rs.sourced {
		end = min(end, rs.limit)
	}
	return max(end-rs.next(), 0)
}

// resetRead empties the store a standby or a restore reads and reads its
// changelog from the log start again: the records it was to read next are
// gone (retention deleted them while it lagged, an operator deleted them,
// or the topic was recreated), as Kafka Streams wipes a corrupted task's
// state and restores it from scratch.
func (t *streamThread) resetRead(rs *restoreState) error {
	if rs.standby != nil {
		t.log.Warn("the changelog no longer holds the records a standby was to read next; emptying the standby's store and reading its changelog from the log start",
			"store", rs.ts.spec.Name, "task", rs.standby.id.String(), "changelog", rs.tp.String(), "next", rs.next())
		t.s.unregisterStandby(rs.ts)
	} else {
		t.log.Warn("the changelog no longer holds the records a restore was to read next; emptying the store and restoring it in full from the log start",
			"store", rs.ts.spec.Name, "task", rs.task.id.String(), "changelog", rs.tp.String(), "next", rs.next())
	}
	rs.batch = rs.batch[:0]
	if err := t.reopenEmpty(rs.ts); err != nil {
		return err
	}
	if rs.standby != nil {
		t.s.registerStandby(rs.ts)
	}
	lo, hi, err := t.changelogWatermarks(rs.tp)
	if err != nil {
		return fmt.Errorf("streams: watermarks of changelog %s: %w", rs.tp, err)
	}
	rs.start, rs.end, rs.pos, rs.last, rs.full, rs.idle = lo, hi, -1, -1, true, 0
	t.sumsMoved = true
	t.dropRestorerPartition(rs.tp)
	t.assignRestorer()
	return nil
}

// promoteStandby turns a standby into the stores of the active task that
// replaces it: the stores stay open as they are (Kafka Streams' TaskManager
// recycles a standby into an active task), what the standby read and did
// not write yet is written, and the active task's restore replays only the
// changelogs' tails past their offsets. The thread keeps the task's
// directory.
func (t *streamThread) promoteStandby(sb *standbyTask) ([]*taskStore, error) {
	for _, rs := range sb.reads {
		if err := t.flushStandby(rs); err != nil {
			return nil, err
		}
		delete(t.standbyReads, rs.tp)
	}
	for _, ts := range sb.stores {
		t.s.unregisterStandby(ts)
	}
	delete(t.standbys, sb.id)
	if t.s.sbh != nil {
		t.s.sbh.OnStandbyClosed(t.idx, sb.id)
	}
	t.log.Info("standby task becomes active with its stores open", "task", sb.id.String())
	if err := failpoint.Hit(failpoint.StandbyPromote); err != nil {
		return nil, err
	}
	return sb.stores, nil
}

// demoteToStandby turns an active task the group gave back to this thread
// as a standby into that standby, once its revocation's commit has run:
// its processors close, its stores stay open with what they committed, and
// their changelogs are read on from their offsets (Kafka Streams'
// TaskManager recycles an active task into a standby).
func (t *streamThread) demoteToStandby(a *activeTask) error {
	if a.task != nil {
		if err := a.task.Close(); err != nil {
			t.log.Warn("closing task", "task", a.id.String(), "err", err)
		}
		a.task = nil
	}
	for _, ts := range a.stores {
		t.s.unregisterStore(ts)
		t.s.hks.OnStoreUncommittedBytes(a.id, ts.spec.Name, 0)
		if ts.changelog != nil {
			t.committer.ForgetChangelog(*ts.changelog)
		}
	}
	for tp, rs := range t.restores {
		if rs.task != a {
			continue
		}
		if err := t.flushRestore(rs); err != nil {
			return err
		}
		delete(t.restores, tp)
	}
	delete(t.tasks, a.id)
	for _, q := range a.queues {
		if t.byTP[q.tp] == a {
			delete(t.byTP, q.tp)
		}
	}
	sb := &standbyTask{id: a.id}
	t.standbys[a.id] = sb
	t.log.Info("active task becomes a standby with its stores open", "task", a.id.String())
	if err := failpoint.Hit(failpoint.StandbyDemote); err != nil {
		return err
	}
	if t.waiting[a.id] {
		return nil // it never had its directory: the standby waits for it instead
	}
	return t.startStandby(sb, a.stores)
}

// closeStandby closes a standby task: what it read and did not write yet
// is written (dropped when dirty), its stores close, and its directory
// stays, its offset sum reported from now on when its stores persist.
func (t *streamThread) closeStandby(sb *standbyTask, dirty bool) {
	for _, rs := range sb.reads {
		if !dirty {
			if err := t.flushStandby(rs); err != nil {
				t.log.Warn("standby batch lost on close; the next read replays it", "store", rs.ts.spec.Name, "err", err)
			}
		}
		if t.standbyReads[rs.tp] == rs {
			delete(t.standbyReads, rs.tp)
		}
	}
	sum, has := offsetSum(sb.stores)
	for _, ts := range sb.stores {
		t.s.unregisterStandby(ts)
	}
	closeStores(sb.stores)
	delete(t.standbys, sb.id)
	if t.waiting[sb.id] {
		delete(t.waiting, sb.id)
	} else {
		t.s.member.releaseTask(wireTaskID(sb.id), t, sum, has && persistent(sb.stores))
	}
	if t.s.sbh != nil {
		t.s.sbh.OnStandbyClosed(t.idx, sb.id)
	}
}

// closeStandbys closes every standby of the thread.
func (t *streamThread) closeStandbys(dirty bool) {
	if len(t.standbys) == 0 {
		return
	}
	for _, sb := range t.standbys {
		t.closeStandby(sb, dirty)
	}
	t.assignRestorer()
}

// openWaiting opens the tasks, active and standby, whose directories
// another thread of the instance had open when this thread was given them,
// once that thread has let them go (in its own rebalance callback), or that
// the cleaner held, once it has deleted them.
func (t *streamThread) openWaiting() error {
	opened := false
	for _, id := range slices.SortedFunc(maps.Keys(t.waiting), compareTaskIDs) {
		if !t.s.member.claimTask(wireTaskID(id), t) {
			continue
		}
		delete(t.waiting, id)
		opened = true
		a, sb := t.tasks[id], t.standbys[id]
		if a == nil && sb == nil {
			t.s.member.releaseTask(wireTaskID(id), t, 0, false)
			continue
		}
		stores, err := t.openStores(id)
		if err != nil {
			t.s.member.releaseTask(wireTaskID(id), t, 0, false)
			return err
		}
		if sb != nil {
			if err := t.startStandby(sb, stores); err != nil {
				return err
			}
			t.log.Info("standby task opened once another thread let it go", "task", id.String())
			continue
		}
		a.stores, a.restoring = stores, 0
		ready, err := t.planTask(a)
		if err != nil {
			return err
		}
		t.log.Info("task opened once another thread let it go", "task", id.String(), "restoring", !ready)
		if ready {
			if err := t.taskRestored(a); err != nil {
				return err
			}
		}
	}
	if !opened {
		return nil
	}
	t.assignRestorer()
	t.publishOffsetSums()
	t.s.threadReady(t.idx, t.caughtUp())
	return nil
}

// caughtUp reports whether every active task of the thread runs: none
// restores or waits for its directory.
func (t *streamThread) caughtUp() bool {
	if len(t.restores) > 0 {
		return false
	}
	for id := range t.waiting {
		if t.tasks[id] != nil {
			return false
		}
	}
	return true
}

// compareTaskIDs orders task ids by sub-topology, then partition.
func compareTaskIDs(a, b kstreams.TaskID) int {
	return cmp.Or(cmp.Compare(a.Subtopology, b.Subtopology), cmp.Compare(a.Partition, b.Partition))
}

// registerStandby keeps a standby's store where the instance's tests find
// it; interactive queries do not read standbys.
func (s *KafkaStreams) registerStandby(ts *taskStore) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.mu.standbys[storeKey{ts.spec.Name, ts.task.Partition}] = ts
}

func (s *KafkaStreams) unregisterStandby(ts *taskStore) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.mu.standbys[storeKey{ts.spec.Name, ts.task.Partition}] == ts {
		delete(s.mu.standbys, storeKey{ts.spec.Name, ts.task.Partition})
	}
}

// standbyStores returns the standby store partitions named name hosted
// here.
func (s *KafkaStreams) standbyStores(name string) []LocalStore {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []LocalStore
	for k, ts := range s.mu.standbys {
		if k.name == name {
			out = append(out, LocalStore{Name: k.name, Partition: k.partition, Kind: ts.spec.Kind, Store: ts.store})
		}
	}
	return out
}
