package streams

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/stoatflow/stoatflow/compat"
	"github.com/stoatflow/stoatflow/internal/assignment"
	"github.com/stoatflow/stoatflow/internal/streamsgroup"
	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/state"
	"github.com/stoatflow/stoatflow/txn"
)

type tpKey struct {
	topic     string
	partition int32
}

// partQueue buffers the fetched records of one input partition of a task.
type partQueue struct {
	tp   tpKey
	recs []*kgo.Record
	// next is the offset to commit: one past the last processed record, -1
	// before any.
	next int64
	// partTime is the task's partition time of this partition (the largest
	// extracted timestamp), committed in the offset metadata;
	// committedPartTime is the one committed with committed.
	partTime          int64
	committedPartTime int64
	dirty             bool
	committed         int64 // the last committed offset, -1 before any
	purged            int64 // records before this offset were deleted (repartition topics)
	// headTs caches the extracted timestamp of the record at offset
	// headOff (valid when headKnown), which picks the next partition.
	headTs, headOff int64
	headKnown       bool
	// logStart and end are the partition's log start offset and its
	// fetchable end (the last stable offset under read_committed, else the
	// high watermark), from the latest fetch or, for a partition no fetch
	// returned records for yet, from a ListOffsets at assignment; wmKnown
	// says whether they are known.
	logStart, end int64
	wmKnown       bool
	// openTxnAt is the last stable offset an assignment found the partition
	// to end at, before a transaction still open, -1 when none was: the
	// loop says in the log when reading passes it.
	openTxnAt int64
	// startAt is the group's committed offset read at assignment (or at a
	// rewind), where the consumer starts reading; -1 when there is none.
	startAt int64
	// delivered is one past the last record the consumer delivered,
	// transaction markers included (the main consumer keeps them so that
	// this is its fetch position), -1 when unknown (before a fetch, after
	// a rewind): with no record buffered, data the consumer has still to
	// deliver lies between it and end.
	delivered int64
	// idleDeadline is when, under a positive max.task.idle.ms, the task
	// stops waiting for this partition while it is empty and caught up
	// (readyAfterIdle); zero while it has records or lags.
	idleDeadline time.Time
	// full is set while the partition is paused because its queue went
	// over buffered.records.per.partition (backpressure.go).
	full bool
}

// storeCommits are the task's stores as the committer commits or aborts
// them.
func (a *activeTask) storeCommits() []txn.StoreCommit {
	out := make([]txn.StoreCommit, 0, len(a.stores))
	for _, ts := range a.stores {
		sc := txn.StoreCommit{Store: ts.store, Partition: ts.task.Partition, Changelog: ts.changelog}
		if ts.spec.SourceChangelog != "" {
			sc.SourceOffset = a.sourceOffset(*ts.changelog)
		}
		out = append(out, sc)
	}
	return out
}

// queueFor is the task's queue of input partition tp, nil if tp is none
// of the task's.
func (a *activeTask) queueFor(tp state.TopicPartition) *partQueue {
	for _, q := range a.queues {
		if q.tp.topic == tp.Topic && q.tp.partition == tp.Partition {
			return q
		}
	}
	return nil
}

// startAt is the group's committed offset of tp as the task was opened
// with it, -1 for none.
func (a *activeTask) startAt(tp state.TopicPartition) int64 {
	if q := a.queueFor(tp); q != nil {
		return q.startAt
	}
	return -1
}

// sourceOffset is the offset a store whose changelog is its source topic
// (reuse.ktable.source.topics) records at a commit: the last offset of tp
// the task processed (the one before the offset it commits), as Kafka
// Streams checkpoints consumed offsets for such a store; nil before any.
func (a *activeTask) sourceOffset(tp state.TopicPartition) *int64 {
	switch q := a.queueFor(tp); {
	case q == nil:
	case q.next > 0:
		return state.Offset(q.next - 1)
	case q.committed > 0:
		return state.Offset(q.committed - 1)
	}
	return nil
}

// activeTask is a task this thread owns: its processors, stores and input
// buffers.
type activeTask struct {
	id   kstreams.TaskID
	task *kstreams.Task
	// out is the task's collector; its origin tags the task's records.
	out       collector
	stores    []*taskStore
	queues    []*partQueue
	restoring int // stores still restoring
	// commitFirst marks a task that moved in after the thread's first
	// assignment and has processed nothing yet: its first record ends the
	// thread's epoch at once rather than at the commit interval, so that
	// a task that moved between instances writes output as soon as it can.
	// (At start-up the commit interval applies from the first record, as
	// in Kafka Streams.)
	commitFirst bool
	idleSince   time.Time // when the task began waiting for an empty partition
	// commitNeeded is set when the task processes a record or runs a
	// punctuator, and cleared by the thread's next commit (Kafka's
	// StreamTask.commitNeeded), which counts it in the summary.
	commitNeeded bool
	// metadata is the processors' metadata as last committed (Kafka
	// Streams' ProcessorMetadata): read from the committed offsets' metadata,
	// the largest value per key over the task's partitions, then what the
	// task's own commits carried. A rebuilt task starts from it.
	metadata map[string]int64
}

func (a *activeTask) running() bool { return a.restoring == 0 && a.task != nil }

// streamThread is one of num.stream.threads: a main consumer in the
// application's group, a restore consumer, a producer, and the tasks the
// group assigned it. The thread's loop runs on its own goroutine; franz-go
// runs the rebalance callbacks on its own, but only while the loop waits in
// PollRecords (see run): the tasks are never touched by two goroutines at
// once.
type streamThread struct {
	// commitFirst is set when a task processed its first record since it
	// moved in (activeTask.commitFirst): the next maybeCommit commits.
	commitFirst bool
	// hadAssignment is set once the thread's first assignment opened its
	// tasks.
	hadAssignment bool
	s             *KafkaStreams
	idx           int
	log           *slog.Logger
	sources       *kstreams.SourceIndex // decorated source topic → sub-topology
	repartition   map[string]bool       // decorated repartition topics this thread reads
	lastPurge     time.Time
	// lastIdleFlush is when maybeFlushIdle last ran.
	lastIdleFlush time.Time

	consumer *kgo.Client // nil until run joins the group
	// assignor is the main consumer's side of Kafka Streams' assignor.
	assignor *streamAssignor
	// member is the thread's member of the streams group under
	// group.protocol=streams (nil under classic, where assignor is set):
	// nextBeat is when it heartbeats next, memberStandbys the standby and
	// warm-up tasks of the target being reconciled, memberJoined whether
	// the thread has run an assignment since it joined, memberStatuses
	// the group's statuses last logged (thread_member.go).
	member    *streamsgroup.Member
	memberCfg streamsgroup.Config
	nextBeat  time.Time
	// unreleasedSince is when the thread's member first found its static
	// instance id held by an earlier run's member (zero: not waiting).
	unreleasedSince time.Time
	memberStandbys  map[kstreams.TaskID]bool
	memberJoined    bool
	memberStatuses  []streamsgroup.Status
	// heartbeatErr is the retriable heartbeat error last logged, and
	// heartbeatFailures the heartbeats failed since the last that went
	// through; pushErr and pushFailures the same for the pushes of the
	// topology description, and descriptionDeclined whether the thread
	// logged that topology.description.push.enabled=false keeps the
	// description the group asked for from it.
	heartbeatErr        string
	heartbeatFailures   int
	pushErr             string
	pushFailures        int
	descriptionDeclined bool
	// topicsMissingSince is when the group first reported missing source
	// topics (zero: none missing).
	topicsMissingSince time.Time
	// offsetSums are the thread's tasks with their offset sums, published
	// by the thread for the subscription its consumer sends at a join;
	// sumsMoved says a standby or restore wrote since sumsPublished.
	offsetSums    atomic.Pointer[map[assignment.TaskID]int64]
	sumsMoved     bool
	sumsPublished time.Time
	restorer      *kgo.Client
	producer      *txn.Producer
	committer     *txn.Committer
	// production answers records the thread's tasks could not write
	// (production.exception.handler).
	production kstreams.ProductionExceptionHandler
	barrier    txn.Barrier
	budget     *state.Budget

	tasks    map[kstreams.TaskID]*activeTask
	byTP     map[tpKey]*activeTask
	restores map[state.TopicPartition]*restoreState
	// standbys are the standby tasks (warm-ups included) the group gave
	// this thread, and standbyReads their stores' changelog reads.
	standbys     map[kstreams.TaskID]*standbyTask
	standbyReads map[state.TopicPartition]*restoreState
	// waiting are the tasks, active or standby, whose directory another
	// thread of the instance (or the cleaner) held when they were
	// assigned: they open once it lets them go (openWaiting).
	waiting map[kstreams.TaskID]bool
	// lastLimitRefresh is when refreshStandbyLimits last read the
	// group's committed offsets, lastStandbyPoll when standbyStep last
	// polled the restore consumer.
	lastLimitRefresh, lastStandbyPoll time.Time
	partCount                         map[string]int
	cbErr                             error // an error inside the rebalance callback, fatal
	// resetErr is set when partitions without a committed offset have no
	// reset policy (startOffsets, on the group's goroutine): fatal.
	resetErr atomic.Pointer[error]
	assigned int // tasks in the current assignment
	// restoring are the changelog partitions the restore consumer reads,
	// with the read each was added for; restorerPaused are those of
	// standbys it does not fetch while an active task restores.
	restoring      map[state.TopicPartition]*restoreState
	restorerPaused map[state.TopicPartition]bool
	// sticky is, per sink topic, the partition records with a null key go
	// to, and the bytes sent there since it was chosen.
	sticky map[string]*stickyPartition
	// captured are the records of the open epoch a Capture keeps, handed
	// to it when the epoch commits and dropped when it aborts.
	captured []CapturedRecord
	// inCallback is set while a rebalance callback runs the thread's code.
	inCallback bool
	// unavailable counts the epochs aborted in a row because a serde's
	// service did not answer; a commit resets it.
	unavailable int
	// closing is set before the main consumer closes: the revocation that
	// leaving the group runs finds the tasks closed already.
	closing atomic.Bool
	// fetchPaused says whether syncPause paused the running tasks'
	// partitions for the instance's Pause.
	fetchPaused bool
	// stop ends the thread's own run (RemoveStreamThread) and done closes
	// when it has stopped, both set by runThread under the instance's lock;
	// removed marks a thread being removed.
	stop    context.CancelCauseFunc
	done    chan struct{}
	removed atomic.Bool
	// joined is closed once the thread has stored its main consumer: a
	// callback can come before the thread's first poll, as the consumer
	// joins the group when it is created, and waits for it.
	joined chan struct{}

	// ctx is the context of the thread's waits: the run context while it
	// processes (Close interrupts them), the abort context once it shuts
	// down (only the shutdown deadline does).
	ctx context.Context
	// summary counts what the thread did since its last summary line.
	summary threadSummary
	threadState
}

func newStreamThread(s *KafkaStreams, idx int) (*streamThread, error) {
	t := &streamThread{
		s: s, idx: idx, log: s.log.With("thread", idx),
		sources: s.topo.SourceIndex(s.cfg.ApplicationID),
		tasks:   map[kstreams.TaskID]*activeTask{}, byTP: map[tpKey]*activeTask{},
		restores: map[state.TopicPartition]*restoreState{},
		standbys: map[kstreams.TaskID]*standbyTask{}, standbyReads: map[state.TopicPartition]*restoreState{},
		waiting:   map[kstreams.TaskID]bool{},
		restoring: map[state.TopicPartition]*restoreState{}, restorerPaused: map[state.TopicPartition]bool{},
		sticky:      map[string]*stickyPartition{},
		budget:      &state.Budget{},
		partCount:   map[string]int{},
		repartition: map[string]bool{},
	}
	for _, st := range s.topo.Subtopologies() {
		for _, src := range st.Sources {
			if src.Internal {
				t.repartition[src.Decorated(s.cfg.ApplicationID)] = true
			}
		}
	}
	cfg := s.cfg
	ropts, err := cfg.RestoreConsumerOptions(s.processID, idx)
	if err != nil {
		return nil, fmt.Errorf("restore consumer: %w", err)
	}
	// Transaction markers come through, so the restore sees its position
	// pass them: the end of a changelog (its last stable offset) is often
	// one past a marker.
	// A changelog offset that is out of range is an error, never a silent
	// jump (Java's auto.offset.reset=none for the restore consumer).
	ropts = append(ropts, kgo.KeepControlRecords(), kgo.ConsumeResetOffset(kgo.NoResetOffset()))
	ropts = append(ropts, t.s.clientObservers(t.log, "restore-consumer")...)
	if t.restorer, err = kgo.NewClient(ropts...); err != nil {
		return nil, fmt.Errorf("restore consumer: %w", err)
	}
	if t.producer, err = t.newProducer(); err != nil {
		t.restorer.Close()
		return nil, fmt.Errorf("producer: %w", err)
	}
	t.production = s.newProduction()
	if c, ok := t.production.(kstreams.Configurable); ok {
		if err := c.Configure(s.appConfigs); err != nil {
			t.restorer.Close()
			t.producer.Close(context.Background())
			return nil, fmt.Errorf("configuring the production exception handler: %w", err)
		}
	}
	t.committer = &txn.Committer{Producer: t.producer, Group: cfg.ApplicationID, EOS: cfg.ExactlyOnce(), OnFailed: t.sendFailed}
	if id := cfg.GroupInstanceID(idx); id != "" {
		t.committer.InstanceID = &id
	}
	hasGlobal := len(s.topo.GlobalStores()) > 0
	t.barrier = txn.Barrier{
		Interval:       cfg.CommitInterval,
		MaxUncommitted: cfg.UncommittedBytesPerThread(cfg.NumStreamThreads, hasGlobal),
		Uncommitted:    t.budget.Total,
	}
	return t, nil
}

func (t *streamThread) newProducer() (*txn.Producer, error) {
	popts, err := t.s.cfg.ProducerOptions(t.s.processID, t.idx)
	if err != nil {
		return nil, err
	}
	popts = append(popts, t.s.clientObservers(t.log, "producer")...)
	return txn.NewProducer(popts, t.s.cfg.ExactlyOnce(), txn.BatchBytes(t.s.cfg.ProducerBatchBytes))
}

// newConsumer creates the main consumer, which joins the group at once (a
// callback that comes before the thread's first poll waits for joined). Its
// rebalance callbacks are gated by BlockRebalanceOnPoll: franz-go runs one
// only while no poll is held, and a poll that returns holds until the next
// AllowRebalance. The loop allows rebalances only right before it polls, so
// a callback runs only while the loop waits in PollRecords, and PollRecords
// returns only after it: the callback runs the thread's code on franz-go's
// goroutine as if on the thread's, ordered by franz-go's poll lock.
func (t *streamThread) newConsumer() error {
	mopts, err := t.s.cfg.MainConsumerOptions(t.s.processID, t.idx)
	if err != nil {
		return fmt.Errorf("main consumer: %w", err)
	}
	// Transaction markers are kept (and skipped in handle) so that the
	// thread knows the consumer's position: ready waits for fetchable data,
	// not for markers no poll would ever deliver.
	// A topology with a pattern source subscribes by regular expressions,
	// as Kafka Streams subscribes by one pattern: franz-go matches them
	// against the cluster's topics (internal ones left out) at every
	// metadata refresh, and a new topic that matches joins the
	// subscription with a rebalance.
	subscription, regex := t.sources.Subscription()
	if regex {
		mopts = append(mopts, kgo.ConsumeRegex())
	}
	t.assignor = newStreamAssignor(t.s, t)
	mopts = append(mopts, kgo.ConsumeTopics(subscription...), groupBalancers(t.assignor), kgo.BlockRebalanceOnPoll(), kgo.KeepControlRecords(),
		kgo.OnPartitionsAssigned(t.assignedCallback), kgo.AdjustFetchOffsetsFn(t.startOffsets),
		kgo.OnPartitionsRevoked(func(_ context.Context, _ *kgo.Client, ps map[string][]int32) { t.revokedCallback(ps, false) }),
		kgo.OnPartitionsLost(func(_ context.Context, _ *kgo.Client, ps map[string][]int32) { t.revokedCallback(ps, true) }))
	mopts = append(mopts, t.s.clientObservers(t.log, "main-consumer")...)
	t.joined = make(chan struct{})
	cl, err := kgo.NewClient(mopts...)
	if err != nil {
		return fmt.Errorf("main consumer: %w", err)
	}
	t.consumer = cl
	t.committer.Consumer = cl
	close(t.joined)
	return nil
}

// closeClients closes the thread's clients; ctx bounds the producer's abort
// of an open transaction.
func (t *streamThread) closeClients(ctx context.Context) {
	defer t.doing("closing its clients")()
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := t.producer.Close(ctx); err != nil {
		t.log.Warn("closing the producer", "err", err)
	}
	if t.member != nil {
		// A streams group's member leaves with its own heartbeat; its
		// consumer is in no group.
		t.closing.Store(true)
		t.leaveMemberGroup(ctx)
		t.consumer.Close()
	} else if t.consumer != nil {
		t.closing.Store(true)
		// Leaving the group runs the revocation, which finds no task.
		t.consumer.CloseAllowingRebalance()
		if t.s.leaveOnClose.Load() {
			t.leaveGroup(ctx)
		}
	}
	t.restorer.Close()
}

// leaveGroup removes the thread's static member from the group once its
// consumer is closed, for a Close that leaves the group: a closed static
// member stays in the group until its session times out, so that a
// restart takes its tasks back without a rebalance (a dynamic member
// leaves as its consumer closes).
func (t *streamThread) leaveGroup(ctx context.Context) {
	id := t.s.cfg.GroupInstanceID(t.idx)
	if id == "" {
		return
	}
	resp, err := kadm.NewClient(t.restorer).LeaveGroup(ctx, kadm.LeaveGroup(t.s.cfg.ApplicationID).InstanceIDs(id))
	if err == nil {
		err = resp.Error()
	}
	if err != nil {
		t.log.Warn("leaving the group failed; the thread's tasks move when its session times out (session.timeout.ms)",
			"group.instance.id", id, "err", err)
		return
	}
	t.log.Info("left the group", "group.instance.id", id)
}

// run is the thread's loop: poll, restore, process, commit. ctx ends when
// the thread is to stop; a wait that the shutdown interrupted is not an
// error of the thread: its tasks close without committing.
func (t *streamThread) run(ctx context.Context) (err error) {
	t.ctx = ctx
	defer func() {
		if err != nil && interrupted(err) && ctx.Err() != nil {
			t.log.Warn("shutdown interrupted a wait; tasks close without committing, a restart replays their changelogs", "err", err)
			err = nil
			t.closeAllDirty()
		} else if err != nil {
			t.closeAllDirty()
		}
		t.closeStandbys(err != nil)
		t.closeClients(t.s.abortCtx)
	}()
	ictx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	done := t.doing("initializing the transactional producer")
	err = t.producer.Init(ictx)
	done()
	cancel()
	if err != nil {
		return err
	}
	t.barrier.Start(time.Now())
	if t.s.cfg.GroupProtocol == compat.GroupProtocolStreams {
		if err := t.newMemberConsumer(); err != nil {
			return err
		}
	} else {
		if err := t.awaitForeignMembers(ctx); err != nil {
			return err
		}
		if err := t.newConsumer(); err != nil {
			return err
		}
	}
	// Take the poll hold before touching anything: a rebalance that began
	// as the consumer joined finishes first.
	done = t.doing("joining the group")
	expired, cancelExpired := context.WithCancel(ctx)
	cancelExpired()
	t.consumer.PollRecords(expired, 1)
	done()
	if err := t.rebalanceErr(); err != nil {
		return err
	}
	maxPoll := t.s.cfg.MaxPollRecords
	t.summary.started = time.Now()
	for {
		if ctx.Err() != nil {
			return t.shutdown()
		}
		wait := t.s.cfg.PollTimeout
		if t.buffered() || len(t.restores) > 0 {
			wait = time.Millisecond // take what is buffered, do not wait
		}
		if t.member != nil {
			if err := t.memberStep(ctx, time.Now()); err != nil {
				return err
			}
			wait = t.memberWait(wait)
		}
		t.resumeDrained()
		pctx, cancel := context.WithTimeout(ctx, wait)
		pollStart := time.Now()
		// From here until PollRecords returns, a rebalance callback may run
		// the thread's code: the loop touches nothing meanwhile.
		t.consumer.AllowRebalance()
		fs := t.consumer.PollRecords(pctx, maxPoll)
		cancel()
		t.summary.polls++
		if err := t.rebalanceErr(); err != nil {
			return err
		}
		polled, err := t.handle(fs)
		if err != nil {
			return err
		}
		if polled > 0 && t.s.act != nil {
			t.s.act.OnPoll(t.idx, polled, time.Since(pollStart))
		}
		if len(t.waiting) > 0 {
			if err := t.openWaiting(); err != nil {
				return err
			}
		}
		if len(t.restores) > 0 {
			if err := t.restoreStep(ctx); err != nil {
				return err
			}
		} else if len(t.standbyReads) > 0 {
			if err := t.standbyStep(ctx, time.Now()); err != nil {
				return err
			}
		}
		t.maybePublishOffsetSums(time.Now())
		done := t.doing("processing records")
		err = t.process()
		done()
		if err == nil {
			err = t.maybeCommit(false)
		}
		var u *unavailableError
		if errors.As(err, &u) {
			err = t.retryEpoch(ctx, u)
		}
		if err != nil {
			return err
		}
		if err := t.maybeFlushIdle(time.Now()); err != nil {
			return err
		}
		t.maybeRequestRebalance(time.Now())
		t.maybeLogSummary(time.Now())
	}
}

// shutdown commits, closes every task cleanly and leaves the group. From
// here on only the shutdown deadline cuts the thread's waits short.
func (t *streamThread) shutdown() error {
	t.ctx = t.s.abortCtx
	defer t.doing("committing and closing its tasks")()
	if err := t.maybeCommit(true); err != nil {
		t.closeAllDirty()
		return err
	}
	t.closeAllClean()
	return nil
}
