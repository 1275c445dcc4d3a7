package streams

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/stoatflow/stoatflow/internal/assignment"
	"github.com/stoatflow/stoatflow/internal/failpoint"
	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/txn"
)

// rebalanceErr is the fatal error a rebalance left, if any.
func (t *streamThread) rebalanceErr() error {
	if t.cbErr != nil {
		return t.cbErr
	}
	if err := t.resetErr.Load(); err != nil {
		return *err
	}
	return nil
}

// assignedCallback is franz-go's OnPartitionsAssigned. Under the stream
// protocol (cooperative) parts are only the partitions added by this
// rebalance; under the range protocol of older StoatFlow releases (eager,
// kept for rolling upgrades) every assignment follows the revocation of
// everything, so parts are all of them.
func (t *streamThread) assignedCallback(_ context.Context, _ *kgo.Client, parts map[string][]int32) {
	t.inRebalance(func() error { return t.onAssigned(parts) })
}

// revokedCallback is franz-go's OnPartitionsRevoked (lost false) and
// OnPartitionsLost (lost true), with the partitions given up.
func (t *streamThread) revokedCallback(parts map[string][]int32, lost bool) {
	t.inRebalance(func() error { return t.onRevoked(parts, lost) })
}

// inRebalance runs one rebalance callback's work once the thread has
// joined, unless it is closing or an earlier callback failed; a failure
// (the failpoint's included) is kept in cbErr for the loop to return.
func (t *streamThread) inRebalance(work func() error) {
	<-t.joined
	if t.closing.Load() || t.cbErr != nil {
		return
	}
	t.inCallback = true
	defer func() { t.inCallback = false }()
	if err := failpoint.Hit(failpoint.RebalanceCallback); err != nil {
		t.cbErr = err
		return
	}
	if err := work(); err != nil {
		t.cbErr = err
	}
}

// onAssigned creates the tasks of the assigned partitions: co-partitioned
// partitions p of a sub-topology's source topics form task <sub>_<p>. It
// opens their stores and starts restoring them; the task's input stays
// paused until its stores are restored.
func (t *streamThread) onAssigned(assigned map[string][]int32) error {
	select {
	case t.s.assigned <- struct{}{}:
	default:
	}
	var standbys map[kstreams.TaskID]bool // none under the range protocol
	if t.member != nil {
		standbys = maps.Clone(t.memberStandbys)
	} else if t.assignor != nil {
		ma, err := t.assignor.lastAssignment()
		if err != nil {
			return err
		}
		if ma != nil {
			// Every task the leader named is checked against this
			// topology before any store opens.
			if _, err := t.checkAssignment(ma); err != nil {
				return err
			}
			if ma.Info.ErrorCode != assignment.ErrorNone {
				return nil
			}
			if standbys, err = t.wantedStandbys(ma.Info); err != nil {
				return err
			}
		}
	}
	var parts []tpKey
	for topic, ps := range assigned {
		for _, p := range ps {
			parts = append(parts, tpKey{topic, p})
		}
	}
	byTask := map[kstreams.TaskID][]tpKey{}
	var mine []tpKey
	for _, tp := range parts {
		sub, ok, err := t.sources.Subtopology(tp.topic)
		if err != nil {
			return err
		}
		if !ok {
			continue
		}
		if err := t.checkTaskCount(sub, tp); err != nil {
			return err
		}
		id := kstreams.TaskID{Subtopology: sub, Partition: tp.partition}
		if a := t.byTP[tp]; a != nil && a.id == id {
			// Already this thread's: franz-go may hand a partition
			// again, when its metadata learns the topic only after the
			// assignment that gave it (a repartition topic just
			// created). The running task keeps it; reopening would
			// replay what it processed since its last commit.
			continue
		}
		byTask[id] = append(byTask[id], tp)
		mine = append(mine, tp)
	}
	for id := range byTask {
		delete(standbys, id) // a leader never makes a task both here
	}
	t.closeDroppedStandbys(standbys, byTask)
	// A running task that gains a partition (a new topic its pattern
	// source matches) reopens with all of them, after a commit.
	var grown []*activeTask
	for id := range byTask {
		if a := t.tasks[id]; a != nil {
			grown = append(grown, a)
		}
	}
	if len(grown) > 0 {
		if err := t.maybeCommit(true); err != nil {
			return err
		}
		for _, a := range grown {
			for _, q := range a.queues {
				byTask[a.id] = append(byTask[a.id], q.tp)
				mine = append(mine, q.tp)
			}
			t.closeTasks([]*activeTask{a}, false)
		}
	}
	// The committed offsets first: under exactly_once_v2 a transaction
	// still open (of an instance stopped mid-transaction) holds them, and
	// the same transaction holds records of the changelogs; the restores
	// below read the changelogs' ends only once it is done, or they would
	// stop short of what it may still commit.
	var committed []committedOffset
	if len(mine) > 0 {
		var err error
		if committed, err = t.committedOffsets(mine); err != nil {
			return fmt.Errorf("reading the committed partition times: %w", err)
		}
	}
	if t.member != nil {
		if err := t.consumeAssigned(mine, committed); err != nil {
			return err
		}
	}
	// Pauses outlive assignments in franz-go: onRevoked resumes what it
	// gives up, and the tasks kept keep their pauses (a restore's, a full
	// queue's, the instance's, which syncPause lifts from every running
	// task at Resume). A new task's partitions are paused below while it
	// restores, and while the instance is paused: a Resume that comes
	// before the next round then finds them with the others.
	pause := map[string][]int32{}
	startAt := map[tpKey]int64{}
	for _, c := range committed {
		startAt[c.tp] = c.offset
	}
	for id, tps := range byTask {
		a, err := t.openTask(id, tps, startAt)
		if err != nil {
			return err
		}
		t.tasks[id] = a
		for _, tp := range tps {
			t.byTP[tp] = a
		}
		if a.restoring > 0 || t.fetchPaused {
			for _, tp := range tps {
				pause[tp.topic] = append(pause[tp.topic], tp.partition)
			}
		}
	}
	t.assigned = len(t.tasks)
	t.hadAssignment = true
	if len(pause) > 0 {
		t.consumer.PauseFetchPartitions(pause)
	}
	if err := t.openStandbys(standbys); err != nil {
		return err
	}
	// Each partition starts at its committed partition time, as in Kafka
	// Streams: the extractors see it, and a task's stream time starts there.
	if len(mine) > 0 {
		for _, p := range committed {
			t.restorePartitionTime(p)
		}
		t.initWatermarks(mine)
	}
	ids := make([]string, 0, len(byTask))
	for id := range byTask {
		ids = append(ids, id.String())
	}
	slices.Sort(ids)
	t.log.Info("partitions assigned", "tasks", ids, "partitions", len(parts), "tasks_kept", len(t.tasks)-len(byTask),
		"standby_tasks", len(t.standbys))
	t.assignRestorer()
	t.publishOffsetSums()
	t.s.threadReady(t.idx, t.caughtUp())
	if t.s.act != nil {
		t.s.act.OnRebalance(t.idx)
	}
	return nil
}

// checkTaskCount fails an assignment that makes sub-topology sub need more
// tasks than its changelogs have partitions: a topic its pattern matched
// only after the start, with more partitions than those it matched then.
// Kafka Streams fails the same topology on the same check of its internal
// topics.
func (t *streamThread) checkTaskCount(sub int, tp tpKey) error {
	n, ok := t.s.taskCounts[sub]
	if !ok || int(tp.partition) < n || len(t.s.topo.SourcePatterns(sub)) == 0 {
		return nil
	}
	for _, st := range t.s.topo.Subtopologies()[sub].Stores {
		if st.Logging {
			return fmt.Errorf("streams: topic %s, which a pattern source of sub-topology %d matches, has a partition %d, "+
				"but the sub-topology's changelogs were created with %d partitions at the start: reset the application "+
				"(delete its internal topics and state) to run it with the topics its patterns match now", tp.topic, sub, tp.partition, n)
		}
	}
	return nil
}

// watermarksWait bounds the ListOffsets of a new assignment.
const watermarksWait = 10 * time.Second

// initWatermarks reads the log start and end of newly assigned partitions:
// a fetch reports them only for a partition it returns records of, and a
// task deciding whether to wait for an empty partition (max.task.idle.ms)
// needs them. A failure leaves them unknown, which the task treats as not
// fetched yet.
func (t *streamThread) initWatermarks(parts []tpKey) {
	topics := map[string]bool{}
	for _, tp := range parts {
		topics[tp.topic] = true
	}
	names := make([]string, 0, len(topics))
	for n := range topics {
		names = append(names, n)
	}
	ctx, cancel := context.WithTimeout(t.ctx, watermarksWait)
	defer cancel()
	adm := kadm.NewClient(t.consumer)
	starts, err := adm.ListStartOffsets(ctx, names...)
	if err != nil {
		t.log.Debug("listing start offsets of the assignment", "err", err)
		return
	}
	ends, err := t.listEnds(ctx, adm, names)
	if err != nil {
		t.log.Debug("listing end offsets of the assignment", "err", err)
		return
	}
	var hws kadm.ListedOffsets
	if t.s.cfg.ExactlyOnce() {
		if hws, err = adm.ListEndOffsets(ctx, names...); err != nil {
			t.log.Debug("listing high watermarks of the assignment", "err", err)
		}
	}
	var open []string
	for _, tp := range parts {
		a := t.byTP[tp]
		lo, ok1 := starts.Lookup(tp.topic, tp.partition)
		hi, ok2 := ends.Lookup(tp.topic, tp.partition)
		if a == nil || !ok1 || !ok2 || lo.Err != nil || hi.Err != nil {
			continue
		}
		hw, ok := hws.Lookup(tp.topic, tp.partition)
		openTxn := ok && hw.Err == nil && hw.Offset > hi.Offset
		if openTxn {
			open = append(open, fmt.Sprintf("%s-%d (last stable offset %d, high watermark %d)", tp.topic, tp.partition, hi.Offset, hw.Offset))
		}
		for _, q := range a.queues {
			if q.tp == tp && !q.wmKnown {
				q.logStart, q.end, q.wmKnown = lo.Offset, hi.Offset, true
			}
			if q.tp == tp && openTxn {
				q.openTxnAt = hi.Offset
			}
		}
	}
	if len(open) > 0 {
		slices.Sort(open)
		// Info, not Warn: another thread's transaction, open while it
		// processes, is the common case of a rebalance.
		t.log.Info("waiting for an open transaction on input partitions: read_committed reads them only up to its "+
			"first record until it completes, or the broker aborts it when its transaction.timeout.ms has passed "+
			"(another instance's transaction, or one an instance stopped mid-transaction left)", "partitions", open)
	}
}

// listEnds lists the fetchable end of topics' partitions: the last stable
// offset under exactly_once_v2 (read_committed), else the high watermark.
func (t *streamThread) listEnds(ctx context.Context, adm *kadm.Client, topics []string) (kadm.ListedOffsets, error) {
	if t.s.cfg.ExactlyOnce() {
		return adm.ListCommittedOffsets(ctx, topics...)
	}
	return adm.ListEndOffsets(ctx, topics...)
}

// onRevoked gives up the tasks of the revoked partitions: it commits
// everything processed (under exactly_once_v2 the thread's one open
// transaction holds every task's records, so all of it commits, as Kafka
// Streams commits every task at a revocation, while this member's
// generation is still valid), then closes only those tasks; the others go
// on with their stores open. A cooperative member is called with nothing
// revoked at the start of every rebalance: it keeps processing. When the
// assignment was lost (the member was kicked out of the group), nothing
// can be committed: every task closes dirty.
func (t *streamThread) onRevoked(revoked map[string][]int32, lost bool) error {
	if len(t.tasks) == 0 {
		return nil
	}
	if lost {
		t.s.threadReady(t.idx, false)
		t.log.Warn("assignment lost; closing tasks without committing")
		t.closeAllDirty()
		t.publishOffsetSums()
		return nil
	}
	var gone []*activeTask
	seen := map[*activeTask]bool{}
	for topic, ps := range revoked {
		for _, p := range ps {
			if a := t.byTP[tpKey{topic, p}]; a != nil && !seen[a] {
				seen[a] = true
				gone = append(gone, a)
			}
		}
	}
	if len(gone) == 0 {
		return nil
	}
	t.s.threadReady(t.idx, false)
	if err := t.maybeCommit(true); err != nil {
		t.closeAllDirty()
		return err
	}
	// A task the new assignment gives back to this thread as a standby
	// keeps its stores (the assignment is read before the revocation).
	var standbys map[kstreams.TaskID]bool
	if t.member != nil {
		standbys = t.memberStandbys
	} else if t.assignor != nil {
		if ma, _ := t.assignor.lastAssignment(); ma != nil && ma.Info.ErrorCode == assignment.ErrorNone {
			standbys, _ = t.wantedStandbys(ma.Info)
		}
	}
	var closing, demoted []*activeTask
	ids := make([]string, 0, len(gone))
	for _, a := range gone {
		ids = append(ids, a.id.String())
		if standbys[a.id] {
			demoted = append(demoted, a)
		} else {
			closing = append(closing, a)
		}
	}
	slices.Sort(ids)
	t.closeTasks(closing, false)
	for _, a := range demoted {
		if err := t.demoteToStandby(a); err != nil {
			return err
		}
	}
	t.assignRestorer()
	if len(revoked) > 0 {
		t.consumer.ResumeFetchPartitions(revoked)
	}
	t.assigned = len(t.tasks)
	t.publishOffsetSums()
	t.log.Info("partitions revoked; tasks closed", "tasks", ids, "tasks_kept", len(t.tasks), "became_standby", len(demoted))
	t.s.threadReady(t.idx, t.caughtUp())
	return nil
}

// openTask opens a task's stores and instantiates its processors. startAt
// holds the group's committed offsets of the task's partitions (absent or
// -1: none).
func (t *streamThread) openTask(id kstreams.TaskID, tps []tpKey, startAt map[tpKey]int64) (*activeTask, error) {
	slices.SortFunc(tps, func(a, b tpKey) int {
		if a.topic < b.topic {
			return -1
		}
		if a.topic > b.topic {
			return 1
		}
		return 0
	})
	if t.s.act != nil {
		t.s.act.OnTaskOpened(t.idx, id)
	}
	// A task that moves in after the thread's first assignment commits its
	// first record at once (activeTask.commitFirst).
	a := &activeTask{id: id, commitFirst: t.hadAssignment}
	a.out = collector{t: t, origin: &txn.Origin{Tag: a}}
	for _, tp := range tps {
		at, ok := startAt[tp]
		if !ok {
			at = -1
		}
		a.queues = append(a.queues, &partQueue{tp: tp, next: -1, partTime: -1, committedPartTime: -1, committed: -1, purged: -1, openTxnAt: -1, startAt: at, delivered: -1})
	}
	var stores []*taskStore
	switch sb := t.standbys[id]; {
	case sb != nil && t.waiting[id]:
		// The standby never got its directory: the task waits for it
		// instead.
		delete(t.standbys, id)
		a.restoring = 1
		return a, nil
	case sb != nil:
		var err error
		if stores, err = t.promoteStandby(sb); err != nil {
			return nil, err
		}
	case len(t.s.topo.Subtopologies()[id.Subtopology].Stores) == 0:
	case !t.s.member.claimTask(wireTaskID(id), t):
		// Another thread of the instance has the task open (a standby
		// its own callback closes), or the cleaner is deleting its
		// directory: the task opens once it is let go, its partitions
		// paused until then.
		t.log.Info("task waits for another thread of this instance, or the state directory's cleaner, to let its directory go", "task", id.String())
		t.waiting[id] = true
		a.restoring = 1
		return a, nil
	default:
		var err error
		if stores, err = t.openStores(id); err != nil {
			t.s.member.releaseTask(wireTaskID(id), t, 0, false)
			return nil, err
		}
	}
	a.stores = stores
	ready, err := t.planTask(a)
	if err != nil {
		closeStores(stores)
		t.s.member.releaseTask(wireTaskID(id), t, 0, false)
		return nil, err
	}
	if ready {
		if err := t.startTask(a); err != nil {
			closeStores(stores)
			t.s.member.releaseTask(wireTaskID(id), t, 0, false)
			return nil, err
		}
	}
	return a, nil
}

// planTask plans the restore of each of a task's stores from its
// committed offset; it reports whether the task has nothing to restore.
func (t *streamThread) planTask(a *activeTask) (bool, error) {
	for _, ts := range a.stores {
		needs, err := t.planRestore(a, ts)
		if err != nil {
			return false, err
		}
		if needs {
			a.restoring++
		}
	}
	return a.restoring == 0, nil
}

// startTask builds the task's processors over its (restored) stores.
func (t *streamThread) startTask(a *activeTask) error {
	cfg := t.s.cfg
	byName := map[string]kstreams.StateStore{}
	for _, ts := range a.stores {
		byName[ts.spec.Name] = ts.bytes
	}
	keySerde, err := t.s.defaultSerde(true)
	if err != nil {
		return err
	}
	valSerde, err := t.s.defaultSerde(false)
	if err != nil {
		return err
	}
	onDrop := func(p, reason string) {
		if reason == kstreams.DroppedNegativeTimestamp {
			t.summary.skipped++ // Kafka Streams drops it before its task processes it
		}
		t.s.hks.OnDroppedRecord(a.id, p, reason)
	}
	task, err := t.s.topo.NewTask(kstreams.TaskConfig{
		ApplicationID: cfg.ApplicationID, AppConfigs: t.s.appConfigs, Subtopology: a.id.Subtopology, Partition: a.id.Partition,
		DefaultKeySerde: keySerde, DefaultValueSerde: valSerde,
		Stores: byName, Output: a.out, GlobalStores: t.s.globalViews(),
		ProductionExceptionHandler:        t.production,
		CacheMaxBytes:                     t.cacheShare(),
		OnDroppedRecord:                   onDrop,
		DefaultTimestampExtractor:         timestampExtractor(cfg.TimestampExtractor),
		Logger:                            t.log,
		OuterJoinEmitIntervalMs:           cfg.OuterJoinEmitInterval.Milliseconds(),
		WindowedAggregationEmitIntervalMs: cfg.WindowedAggregationEmitInterval.Milliseconds(),
		ProcessorMetadata:                 a.metadata,
	})
	if err != nil {
		return err
	}
	for _, q := range a.queues {
		if q.partTime >= 0 {
			task.SetPartitionTime(q.tp.topic, q.partTime)
		}
	}
	if err := task.Init(); err != nil {
		return err
	}
	a.task = task
	for _, ts := range a.stores {
		t.s.registerStore(ts)
	}
	return nil
}

// cacheShare is a task's share of statestore.cache.max.bytes: the instance
// budget split over the stream threads, as Kafka Streams splits it, then over
// the tasks the thread was assigned.
func (t *streamThread) cacheShare() int64 {
	total := t.s.cfg.StatestoreCacheMaxBytes
	if total <= 0 {
		return 0
	}
	return total / int64(max(1, len(t.s.liveThreads()))) / int64(max(1, t.assigned))
}

// closeTasks closes some of the thread's tasks and forgets their
// partitions and restores; the others go on.
func (t *streamThread) closeTasks(tasks []*activeTask, dirty bool) {
	for _, a := range tasks {
		t.closeTask(a, dirty)
		delete(t.tasks, a.id)
		for _, q := range a.queues {
			if t.byTP[q.tp] == a {
				delete(t.byTP, q.tp)
			}
		}
		for tp, rs := range t.restores {
			if rs.task != a {
				continue
			}
			if err := t.flushRestore(rs); err != nil {
				t.log.Warn("restore batch lost on close; the next start replays it", "store", rs.ts.spec.Name, "err", err)
			}
			delete(t.restores, tp)
		}
	}
	t.assignRestorer()
}

func (t *streamThread) closeAllClean() {
	for id, a := range t.tasks {
		t.closeTask(a, false)
		delete(t.tasks, id)
	}
	t.byTP = map[tpKey]*activeTask{}
	t.dropRestores()
	t.closeStandbys(false)
}

// closeAllDirty closes every active task without committing; standbys
// stay (a member that lost its assignment keeps them while it rejoins, as
// Kafka Streams' TaskManager.handleLostAll does).
func (t *streamThread) closeAllDirty() {
	t.captured = nil
	for id, a := range t.tasks {
		t.closeTask(a, true)
		delete(t.tasks, id)
	}
	t.byTP = map[tpKey]*activeTask{}
	t.dropRestores()
	if t.producer.InTransaction() {
		defer t.doing("aborting its transaction")()
		ctx, cancel := context.WithTimeout(t.s.abortCtx, 30*time.Second)
		defer cancel()
		_ = t.producer.AbortTransaction(ctx)
	}
}

// closeTask closes an active task, clean or dirty: its stores close with
// what they committed, and its directory stays, its offset sum reported
// from now on when its stores persist (their offsets always match their
// data, a dirty close included).
func (t *streamThread) closeTask(a *activeTask, dirty bool) {
	t.unpauseClosed(a)
	sum, has := offsetSum(a.stores)
	if a.task != nil {
		if err := a.task.Close(); err != nil {
			t.log.Warn("closing task", "task", a.id.String(), "err", err)
		}
	}
	for _, ts := range a.stores {
		t.s.unregisterStore(ts)
		if dirty {
			ts.store.Rollback()
		}
		t.s.hks.OnStoreUncommittedBytes(a.id, ts.spec.Name, 0)
		if ts.changelog != nil {
			t.committer.ForgetChangelog(*ts.changelog)
		}
	}
	closeStores(a.stores)
	if t.waiting[a.id] {
		delete(t.waiting, a.id)
		return
	}
	t.s.member.releaseTask(wireTaskID(a.id), t, sum, has && persistent(a.stores))
}
