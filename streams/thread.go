package streams

import (
	"context"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/stoatflow/stoatflow/compat"
	"github.com/stoatflow/stoatflow/internal/failpoint"
	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/serde"
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
	restoring int       // stores still restoring
	idleSince time.Time // when the task began waiting for an empty partition
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
	s           *KafkaStreams
	idx         int
	log         *slog.Logger
	sources     *kstreams.SourceIndex // decorated source topic → sub-topology
	repartition map[string]bool       // decorated repartition topics this thread reads
	lastPurge   time.Time
	// lastIdleFlush is when maybeFlushIdle last ran.
	lastIdleFlush time.Time

	consumer  *kgo.Client // nil until run joins the group
	restorer  *kgo.Client
	producer  *txn.Producer
	committer *txn.Committer
	// production answers records the thread's tasks could not write
	// (production.exception.handler).
	production kstreams.ProductionExceptionHandler
	barrier    txn.Barrier
	budget     *state.Budget

	tasks     map[kstreams.TaskID]*activeTask
	byTP      map[tpKey]*activeTask
	restores  map[state.TopicPartition]*restoreState
	partCount map[string]int
	cbErr     error // an error inside the rebalance callback, fatal
	// resetErr is set when partitions without a committed offset have no
	// reset policy (startOffsets, on the group's goroutine): fatal.
	resetErr atomic.Pointer[error]
	assigned int // tasks in the current assignment
	// restoring are the changelog partitions the restore consumer reads.
	restoring map[state.TopicPartition]bool
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
	threadState
}

func newStreamThread(s *KafkaStreams, idx int) (*streamThread, error) {
	t := &streamThread{
		s: s, idx: idx, log: s.log.With("thread", idx),
		sources: s.topo.SourceIndex(s.cfg.ApplicationID),
		tasks:   map[kstreams.TaskID]*activeTask{}, byTP: map[tpKey]*activeTask{},
		restores:    map[state.TopicPartition]*restoreState{},
		restoring:   map[state.TopicPartition]bool{},
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
	if id := cfg.GroupInstanceID(s.processID, idx); id != "" {
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
	mopts = append(mopts, kgo.ConsumeTopics(subscription...), kgo.Balancers(newAppBalancer(t.s)), kgo.BlockRebalanceOnPoll(), kgo.KeepControlRecords(),
		kgo.OnPartitionsAssigned(t.assignedCallback), kgo.AdjustFetchOffsetsFn(t.startOffsets),
		kgo.OnPartitionsRevoked(func(_ context.Context, _ *kgo.Client, _ map[string][]int32) { t.revokedCallback(false) }),
		kgo.OnPartitionsLost(func(_ context.Context, _ *kgo.Client, _ map[string][]int32) { t.revokedCallback(true) }))
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
	t.restorer.Close()
	if t.consumer != nil {
		t.closing.Store(true)
		// Leaving the group runs the revocation, which finds no task.
		t.consumer.CloseAllowingRebalance()
	}
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
	if err := t.awaitForeignMembers(ctx); err != nil {
		return err
	}
	if err := t.newConsumer(); err != nil {
		return err
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
	for {
		if ctx.Err() != nil {
			return t.shutdown()
		}
		wait := t.s.cfg.PollTimeout
		if t.buffered() || len(t.restores) > 0 {
			wait = time.Millisecond // take what is buffered, do not wait
		}
		pctx, cancel := context.WithTimeout(ctx, wait)
		pollStart := time.Now()
		// From here until PollRecords returns, a rebalance callback may run
		// the thread's code: the loop touches nothing meanwhile.
		t.consumer.AllowRebalance()
		fs := t.consumer.PollRecords(pctx, maxPoll)
		cancel()
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
		if len(t.restores) > 0 {
			if err := t.restoreStep(ctx); err != nil {
				return err
			}
		}
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
	}
}

// handle buffers a poll's records in their tasks' queues and notes each
// partition's watermarks. It returns the number of records polled.
func (t *streamThread) handle(fs kgo.Fetches) (int, error) {
	polled := 0
	for _, f := range fs {
		for _, ft := range f.Topics {
			for i := range ft.Partitions {
				p := &ft.Partitions[i]
				if p.Err != nil {
					if err := t.fetchError(ft.Topic, p.Partition, p.Err); err != nil {
						return polled, err
					}
					continue
				}
				tp := tpKey{ft.Topic, p.Partition}
				a := t.byTP[tp]
				if a == nil {
					continue // a record of a partition revoked meanwhile
				}
				for _, q := range a.queues {
					if q.tp != tp {
						continue
					}
					q.noteWatermarks(p, t.s.cfg.ExactlyOnce())
					if q.openTxnAt >= 0 && q.wmKnown && q.end > q.openTxnAt {
						t.log.Info("the transaction open on an input partition is done; reading on", "topic", tp.topic,
							"partition", tp.partition, "last_stable_offset", q.end)
						q.openTxnAt = -1
					}
					for _, r := range p.Records {
						// A rewind drops what was fetched before it; a record
						// below the rewound position is from before.
						if q.next >= 0 && r.Offset < q.next {
							continue
						}
						q.delivered = max(q.delivered, r.Offset+1)
						if r.Attrs.IsControl() {
							continue // a transaction marker: no record to process
						}
						q.recs = append(q.recs, r)
						polled++
					}
				}
			}
		}
	}
	return polled, nil
}

// fetchError handles a poll's error: a closed client or a fatal error stops
// the thread; the others franz-go retries itself, and are logged.
func (t *streamThread) fetchError(topic string, partition int32, err error) error {
	switch {
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return nil // the poll's own wait ended
	case errors.Is(err, kgo.ErrClientClosed):
		return fmt.Errorf("main consumer: %w", err)
	case errors.Is(err, kerr.TopicAuthorizationFailed), errors.Is(err, kerr.GroupAuthorizationFailed),
		errors.Is(err, kerr.ClusterAuthorizationFailed):
		return fmt.Errorf("main consumer: %s [%d]: %w", topic, partition, err)
	}
	t.log.Warn("main consumer", "topic", topic, "partition", partition, "err", err)
	return nil
}

// noteWatermarks keeps a fetch's watermarks of q's partition.
func (q *partQueue) noteWatermarks(p *kgo.FetchPartition, readCommitted bool) {
	end := p.HighWatermark
	if readCommitted && p.LastStableOffset >= 0 {
		end = p.LastStableOffset
	}
	if end < 0 {
		return
	}
	q.end, q.logStart, q.wmKnown = end, max(p.LogStartOffset, 0), true
}

func (t *streamThread) buffered() bool {
	now := time.Now()
	for _, a := range t.tasks {
		if a.running() && t.ready(a, now) {
			return true
		}
	}
	return false
}

// unknownLagWait bounds how long a task waits for a partition whose
// watermarks no fetch or listing has given yet (just assigned) under
// max.task.idle.ms=0.
const unknownLagWait = time.Second

// ready reports whether a task may process its buffered records now, as
// Kafka Streams decides it: at once when every input partition has a record
// buffered (so the one with the smallest timestamp goes first); otherwise,
// with max.task.idle.ms < 0 at once; with 0 only when no empty partition
// has records on the broker not fetched yet; with a positive value after
// the task waited that long for its empty partitions.
func (t *streamThread) ready(a *activeTask, now time.Time) bool {
	empty, full := 0, 0
	for _, q := range a.queues {
		if len(q.recs) == 0 {
			empty++
		} else {
			full++
		}
	}
	if full == 0 {
		return false
	}
	if empty == 0 || t.s.cfg.MaxTaskIdle < 0 {
		a.idleSince = time.Time{}
		return true
	}
	if a.idleSince.IsZero() {
		a.idleSince = now
	}
	waited := now.Sub(a.idleSince)
	if idle := t.s.cfg.MaxTaskIdle; idle > 0 {
		return waited >= idle
	}
	for _, q := range a.queues {
		if len(q.recs) > 0 {
			continue
		}
		lo, hi := q.logStart, q.end
		if !q.wmKnown {
			if waited < unknownLagWait {
				return false // not fetched yet: its lag is unknown
			}
			continue
		}
		if hi <= lo {
			continue // nothing on the broker to wait for
		}
		// The consumer's position: past what it delivered (markers
		// included), else where it starts reading.
		pos, known := q.next, q.next >= 0
		switch {
		case known:
		case q.committed >= 0:
			pos, known = q.committed, true
		case q.startAt >= 0:
			pos, known = q.startAt, true
		default:
			// No committed offset: the reset policy decides; earliest
			// starts at the log start, latest and by_duration at an
			// offset not known here.
			policy, _ := t.resetPolicy(q.tp.topic)
			known = policy == "earliest"
		}
		pos = max(pos, lo)
		if q.delivered >= 0 {
			pos, known = max(pos, q.delivered), true
		}
		// As Kafka Streams: wait for as long as the broker holds data the
		// consumer has not delivered. Transaction markers are delivered
		// too, so the position always reaches the end.
		if pos < hi && (known || waited < unknownLagWait) {
			return false
		}
	}
	return true
}

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

// resetPolicy is where a partition of topic without a committed offset
// starts: as its source's offset reset policy says, else as
// auto.offset.reset does (Kafka Streams' StreamThread.resetOffsets).
func (t *streamThread) resetPolicy(topic string) (policy string, d time.Duration) {
	if r, ok := t.sources.OffsetReset(topic); ok {
		return r.Policy()
	}
	return t.s.cfg.AutoOffsetReset(), 0
}

// startOffsets is franz-go's AdjustFetchOffsetsFn: the group's committed
// offsets stand; a partition without one starts where its reset policy
// says (by_duration at the first record since now minus the duration).
// Partitions whose policy is none leave Kafka Streams' error for the loop.
func (t *streamThread) startOffsets(_ context.Context, offsets map[string]map[int32]kgo.Offset) (map[string]map[int32]kgo.Offset, error) {
	var none []string
	now := time.Now()
	for topic, parts := range offsets {
		for p, o := range parts {
			if o.EpochOffset().Offset >= 0 {
				continue // committed
			}
			switch policy, d := t.resetPolicy(topic); policy {
			case "earliest":
				parts[p] = kgo.NewOffset().AtStart()
			case "latest":
				parts[p] = kgo.NewOffset().AtEnd()
			case "by_duration":
				parts[p] = kgo.NewOffset().AfterMilli(now.Add(-d).UnixMilli())
			default:
				if !slices.Contains(none, topic) {
					none = append(none, topic)
				}
			}
		}
	}
	if err := noResetPolicy(none); err != nil {
		err = fmt.Errorf("streams: %w", err)
		t.resetErr.Store(&err)
	}
	return offsets, nil
}

// noResetPolicy is Kafka Streams' error for the topics whose partitions
// have no committed offset and no reset policy, or nil for none.
func noResetPolicy(topics []string) error {
	if len(topics) == 0 {
		return nil
	}
	slices.Sort(topics)
	return errors.New(kstreams.NoValidOffsetMessage(strings.Join(topics, ",")))
}

// assignedCallback is franz-go's OnPartitionsAssigned (eager protocol:
// every assignment follows the revocation of everything).
func (t *streamThread) assignedCallback(_ context.Context, _ *kgo.Client, parts map[string][]int32) {
	t.inRebalance(func() error { return t.onAssigned(parts) })
}

// revokedCallback is franz-go's OnPartitionsRevoked (lost false) and
// OnPartitionsLost (lost true).
func (t *streamThread) revokedCallback(lost bool) {
	t.inRebalance(func() error { return t.onRevoked(lost) })
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
		byTask[id] = append(byTask[id], tp)
		mine = append(mine, tp)
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
	// Pauses outlive assignments in franz-go: what an earlier assignment
	// paused is resumed, and what restores now is paused below.
	if paused := t.consumer.PauseFetchPartitions(nil); len(paused) > 0 {
		t.consumer.ResumeFetchPartitions(paused)
	}
	t.fetchPaused = false // the next process pauses the new tasks' partitions if the instance is paused
	pause := map[string][]int32{}
	t.assigned = len(byTask)
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
		if a.restoring > 0 {
			for _, tp := range tps {
				pause[tp.topic] = append(pause[tp.topic], tp.partition)
			}
		}
	}
	if len(pause) > 0 {
		t.consumer.PauseFetchPartitions(pause)
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
	t.log.Info("partitions assigned", "tasks", ids, "partitions", len(parts))
	if err := t.assignRestorer(); err != nil {
		return err
	}
	t.s.threadReady(t.idx, len(t.restores) == 0)
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

// onRevoked commits everything processed (under exactly_once_v2 the open
// transaction, while this member's generation is still valid) and closes
// every task. When the assignment was lost (the member was kicked out of
// the group), nothing can be committed: the tasks close dirty.
func (t *streamThread) onRevoked(lost bool) error {
	if len(t.tasks) == 0 {
		return nil
	}
	t.s.threadReady(t.idx, false)
	if lost {
		t.log.Warn("assignment lost; closing tasks without committing")
		t.closeAllDirty()
		return nil
	}
	if err := t.maybeCommit(true); err != nil {
		t.closeAllDirty()
		return err
	}
	t.closeAllClean()
	t.log.Info("partitions revoked; tasks closed")
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
	a := &activeTask{id: id}
	a.out = collector{t: t, origin: &txn.Origin{Tag: a}}
	for _, tp := range tps {
		at, ok := startAt[tp]
		if !ok {
			at = -1
		}
		a.queues = append(a.queues, &partQueue{tp: tp, next: -1, partTime: -1, committedPartTime: -1, committed: -1, purged: -1, openTxnAt: -1, startAt: at, delivered: -1})
	}
	stores, err := t.openStores(id)
	if err != nil {
		return nil, err
	}
	a.stores = stores
	for _, ts := range stores {
		needs, err := t.planRestore(a, ts)
		if err != nil {
			closeStores(stores)
			return nil, err
		}
		if needs {
			a.restoring++
		}
	}
	if a.restoring == 0 {
		if err := t.startTask(a); err != nil {
			closeStores(stores)
			return nil, err
		}
	}
	return a, nil
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
	task, err := t.s.topo.NewTask(kstreams.TaskConfig{
		ApplicationID: cfg.ApplicationID, AppConfigs: t.s.appConfigs, Subtopology: a.id.Subtopology, Partition: a.id.Partition,
		DefaultKeySerde: keySerde, DefaultValueSerde: valSerde,
		Stores: byName, Output: a.out, GlobalStores: t.s.globalViews(),
		ProductionExceptionHandler:        t.production,
		CacheMaxBytes:                     t.cacheShare(),
		OnDroppedRecord:                   func(p, reason string) { t.s.hks.OnDroppedRecord(a.id, p, reason) },
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

func serdeFor(s compat.Serde) (serde.Untyped, error) {
	if s == compat.SerdeUnset {
		return nil, nil
	}
	return serde.ByClassName(s.String())
}

// collector sends a task's sink and changelog records through the thread's
// producer. Sink records without a fixed partition go where Kafka's default
// partitioner puts their partition key; records with a null key go to one
// partition of the topic until about a batch (stickyBatchBytes) went there,
// then to another chosen at random, as the Java producer's sticky
// partitioner spreads them.
type collector struct {
	t      *streamThread
	origin *txn.Origin // Tag: the *activeTask
}

// stickyBatchBytes is how many bytes of null-key records go to one
// partition before the next is chosen: the Java producer's default
// batch.size, the unit its sticky partitioner switches at.
const stickyBatchBytes = 16384

type stickyPartition struct {
	partition int32
	bytes     int
}

func (c collector) Send(r kstreams.ProducerRecord) error {
	var hs []txn.Header
	for _, h := range r.Headers {
		hs = append(hs, txn.Header{Key: h.Key, Value: h.Value})
	}
	partition := r.Partition
	if partition < 0 {
		n, err := c.t.partitions(r.Topic)
		if err != nil {
			return err
		}
		if r.PartitionKey != nil {
			partition = kstreams.DefaultPartition(r.PartitionKey, n)
		} else {
			partition = c.t.stickyPartition(r.Topic, n, len(r.Key)+len(r.Value))
		}
	}
	if cp := c.t.s.capture; cp != nil && cp.Topics(r.Topic) {
		c.t.captured = append(c.t.captured, CapturedRecord{Topic: r.Topic, Partition: partition, Key: r.Key, Value: r.Value,
			Timestamp: time.UnixMilli(r.Timestamp), Headers: r.Headers})
		return nil
	}
	return c.t.producer.SendFrom(c.t.ctx, c.origin, r.Topic, partition, r.Key, r.Value, r.Timestamp, hs)
}

// deliverCaptured hands the committed epoch's captured records to the
// Capture.
func (t *streamThread) deliverCaptured() {
	if len(t.captured) == 0 {
		return
	}
	recs := t.captured
	t.captured = nil
	t.s.capture.Deliver(recs)
}

// Partitions implements kstreams.PartitionCounter for sinks with a
// StreamPartitioner.
func (c collector) Partitions(topic string) (int, error) { return c.t.partitions(topic) }

// stickyPartition picks the partition of a null-key record of size bytes.
func (t *streamThread) stickyPartition(topic string, n, size int) int32 {
	sp := t.sticky[topic]
	if sp == nil || sp.bytes >= stickyBatchBytes || int(sp.partition) >= n {
		next := int32(rand.IntN(n))
		if sp != nil && n > 1 && next == sp.partition {
			next = (next + 1) % int32(n)
		}
		sp = &stickyPartition{partition: next}
		t.sticky[topic] = sp
	}
	sp.bytes += size
	return sp.partition
}

// sinkMetadataWait bounds the metadata look-up of a sink topic on the
// processing path.
const sinkMetadataWait = 10 * time.Second

// missingSinkWait is how long a sink topic the metadata does not show is
// looked up again before it counts as missing.
const missingSinkWait = 3 * time.Second

// partitions returns a topic's partition count, from metadata cached for
// the thread's lifetime (a partition count change needs a restart, as in
// Kafka Streams).
func (t *streamThread) partitions(topic string) (int, error) {
	if n, ok := t.partCount[topic]; ok {
		return n, nil
	}
	defer t.doing("reading the metadata of sink topic " + topic)()
	var n int
	// A topic created a moment ago (a repartition topic this instance
	// created at start) can still be unknown to the broker that answers:
	// a missing topic is looked up again for a while before it counts as
	// missing.
	for wait := time.Now().Add(missingSinkWait); ; {
		var err error
		if n, err = topicPartitions(t.ctx, t.producer.Client(), topic, "sink", sinkMetadataWait); err != nil {
			return 0, fmt.Errorf("streams: %w", err)
		}
		if n > 0 || time.Now().After(wait) || t.ctx.Err() != nil {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if n == 0 {
		return 0, fmt.Errorf("streams: sink topic %s is missing (create it before starting the application)", topic)
	}
	t.partCount[topic] = n
	return n, nil
}

// process runs buffered records through the running tasks, picking within a
// task the partition whose next record has the smallest timestamp.
func (t *streamThread) process() error {
	if t.syncPause() {
		return nil
	}
	now := time.Now()
	for _, a := range t.tasks {
		if !a.running() || !t.ready(a, now) {
			continue
		}
		a.idleSince = time.Time{}
		processed, began := 0, time.Now()
		for {
			var q *partQueue
			for _, c := range a.queues {
				if len(c.recs) == 0 {
					continue
				}
				if q == nil || t.headTimestamp(a, c) < t.headTimestamp(a, q) {
					q = c
				}
			}
			if q == nil {
				break
			}
			m := q.recs[0]
			q.recs[0] = nil
			q.recs = q.recs[1:]
			if err := t.processOne(a, q, m); err != nil {
				return err
			}
			processed++
			if len(q.recs) == 0 && len(a.queues) > 1 && !t.ready(a, time.Now()) {
				break // a partition ran dry: wait for it as max.task.idle.ms says
			}
		}
		if processed > 0 && t.s.act != nil {
			t.s.act.OnProcess(t.idx, a.id, processed, time.Since(began))
		}
		if _, err := a.task.PunctuateStreamTime(); err != nil {
			if err := t.handlePunctuateError(a, "stream-time", err); err != nil {
				return err
			}
		}
		for _, ts := range a.stores {
			t.s.hks.OnStoreUncommittedBytes(a.id, ts.spec.Name, ts.store.ApproximateNumUncommittedBytes())
		}
	}
	for _, a := range t.tasks {
		if a.running() {
			if _, err := a.task.PunctuateWallClock(now); err != nil {
				if err := t.handlePunctuateError(a, "wall-clock", err); err != nil {
					return err
				}
			}
		}
	}
	t.s.hks.OnThreadUncommittedBytes(t.idx, t.budget.Total())
	return nil
}

// recordTimestamp is a fetched record's own timestamp, -1 when it has none.
func recordTimestamp(m *kgo.Record) int64 {
	if m.Timestamp.IsZero() {
		return -1
	}
	return m.Timestamp.UnixMilli()
}

func recordHeaders(m *kgo.Record) []kstreams.Header {
	var hs []kstreams.Header
	for _, h := range m.Headers {
		hs = append(hs, kstreams.Header{Key: h.Key, Value: h.Value})
	}
	return hs
}

// headTimestamp is the timestamp the task's extractor gives q's next record,
// which orders a task's partitions as Kafka Streams orders them: by
// extracted timestamp, not the record's own. It is computed once per head
// record; q's partition time, which it may depend on, changes only when q's
// head is processed.
func (t *streamThread) headTimestamp(a *activeTask, q *partQueue) int64 {
	m := q.recs[0]
	off := m.Offset
	if !q.headKnown || q.headOff != off {
		q.headTs = a.task.PeekTimestamp(q.tp.topic, q.tp.partition, off, m.Key, m.Value, recordTimestamp(m), recordHeaders(m))
		q.headOff, q.headKnown = off, true
	}
	return q.headTs
}

func (t *streamThread) processOne(a *activeTask, q *partQueue, m *kgo.Record) error {
	off := m.Offset
	err := a.task.Process(q.tp.topic, q.tp.partition, off, m.Key, m.Value, recordTimestamp(m), recordHeaders(m))
	if err != nil {
		if u := asUnavailable(err, fmt.Sprintf("%s-%d@%d", q.tp.topic, q.tp.partition, off)); u != nil {
			return u
		}
		if err := t.handleProcessError(a, q, m, err); err != nil {
			return err
		}
	}
	q.next = off + 1
	q.partTime = a.task.PartitionTime(q.tp.topic)
	q.dirty = true
	return nil
}

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

// handleProcessError applies the configured exception handler: continue
// (skip and count the record, optionally to the dead-letter queue) or fail
// with an error naming topic, partition and offset.
func (t *streamThread) handleProcessError(a *activeTask, q *partQueue, m *kgo.Record, err error) error {
	cfg := t.s.cfg
	// An extractor's failure is not a processing error: as in Kafka
	// Streams, no exception handler can skip it.
	var te *kstreams.TimestampExtractionError
	var he *kstreams.HandlerError
	if errors.As(err, &te) || errors.As(err, &he) {
		return err
	}
	var de *kstreams.DeserializationError
	deser := errors.As(err, &de)
	cont := false
	reason := "processing-error"
	if deser {
		reason = "deserialization-error"
		cont = cfg.DeserializationExceptionHandler == compat.DeserializationLogAndContinue
	} else {
		cont = cfg.ProcessingExceptionHandler == compat.ProcessingLogAndContinue
	}
	where := fmt.Sprintf("%s-%d@%d", q.tp.topic, q.tp.partition, m.Offset)
	var pe *kstreams.PanicError
	if errors.As(err, &pe) {
		// The error names the panic; its stack goes to the log only.
		t.log.Error("processor panicked", "task", a.id.String(), "processor", pe.Processor, "record", where,
			"panic", fmt.Sprint(pe.Value), "stack", string(pe.Stack))
	}
	if !cont {
		handler := cfg.ProcessingExceptionHandler.String()
		if deser {
			handler = cfg.DeserializationExceptionHandler.String()
		}
		return fmt.Errorf("%w (record %s; handler %s stops the application: fix or remove the record, "+
			"or choose a LogAndContinue handler to skip it)", err, where, handler)
	}
	t.log.Warn("skipping record", "reason", reason, "record", where, "err", err)
	t.s.hks.OnDroppedRecord(a.id, "", reason)
	if dlq := cfg.DeadLetterQueueTopic; dlq != "" {
		hs := make([]kstreams.Header, len(m.Headers))
		for i, h := range m.Headers {
			hs[i] = kstreams.Header{Key: h.Key, Value: h.Value}
		}
		ctx := kstreams.ErrorHandlerContext{Topic: q.tp.topic, Partition: q.tp.partition, Offset: m.Offset, Headers: hs,
			TaskID: a.id, Timestamp: recordTimestamp(m), SourceRawKey: m.Key, SourceRawValue: m.Value}
		// The record's own key picks the partition, as the Java producer's
		// default partitioner does; a null key the sticky partition.
		if err := a.out.Send(kstreams.DeadLetterQueueRecord(dlq, m.Key, m.Value, ctx, err)); err != nil {
			return fmt.Errorf("dead-letter queue %s: %w", dlq, err)
		}
	}
	return nil
}

// handlePunctuateError applies processing.exception.handler to a failed (or
// panicking) punctuator, as Kafka Streams does since KIP-1033: continue
// (logged; there is no record to skip or send to a dead-letter queue) or
// stop the application.
func (t *streamThread) handlePunctuateError(a *activeTask, clock string, err error) error {
	if u := asUnavailable(err, fmt.Sprintf("task %s, %s punctuation", a.id, clock)); u != nil {
		return u
	}
	var pe *kstreams.PanicError
	if errors.As(err, &pe) {
		t.log.Error("punctuator panicked", "task", a.id.String(), "processor", pe.Processor,
			"panic", fmt.Sprint(pe.Value), "stack", string(pe.Stack))
	}
	handler := t.s.cfg.ProcessingExceptionHandler
	if handler == compat.ProcessingLogAndContinue {
		t.log.Warn("punctuation failed; continuing", "task", a.id.String(), "clock", clock, "err", err)
		return nil
	}
	return fmt.Errorf("streams: task %s: %s punctuation: %w (handler %s stops the application; "+
		"choose LogAndContinueProcessingExceptionHandler to go on)", a.id, clock, err, handler)
}

// commitTimeout bounds one commit. A commit is not cut short by Close, only
// by its deadline: an interrupted commit turns into an abort and a replay.
const commitTimeout = time.Minute

// commitRequested takes the running tasks' commit requests (a processor's
// Commit): one of them commits every task of the thread, as Kafka Streams
// commits on a user's request.
func (t *streamThread) commitRequested() bool {
	requested := false
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
	if err == nil {
		t.unavailable = 0
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
	return nil
}

// resetOffsets resolves the reset policy of partitions without a
// committed offset (resetPolicy): their log start (earliest, Kafka Streams'
// default), their end (latest), or the first offset since now minus the
// duration (by_duration). A partition whose policy is none is Kafka
// Streams' error.
func (t *streamThread) resetOffsets(parts []tpKey) (map[tpKey]int64, error) {
	type policyKey struct {
		policy string
		d      time.Duration
	}
	byPolicy := map[policyKey][]string{}
	var none []string
	for _, tp := range parts {
		policy, d := t.resetPolicy(tp.topic)
		k := policyKey{policy, d}
		switch {
		case policy != "earliest" && policy != "latest" && policy != "by_duration":
			if !slices.Contains(none, tp.topic) {
				none = append(none, tp.topic)
			}
		case !slices.Contains(byPolicy[k], tp.topic):
			byPolicy[k] = append(byPolicy[k], tp.topic)
		}
	}
	if err := noResetPolicy(none); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(t.ctx, watermarksWait)
	defer cancel()
	adm := kadm.NewClient(t.consumer)
	out := map[tpKey]int64{}
	for k, names := range byPolicy {
		var listed kadm.ListedOffsets
		var err error
		switch k.policy {
		case "latest":
			listed, err = t.listEnds(ctx, adm, names)
		case "by_duration":
			listed, err = adm.ListOffsetsAfterMilli(ctx, time.Now().Add(-k.d).UnixMilli(), names...)
		default:
			listed, err = adm.ListStartOffsets(ctx, names...)
		}
		if err != nil {
			return nil, err
		}
		for _, tp := range parts {
			if !slices.Contains(names, tp.topic) {
				continue
			}
			o, ok := listed.Lookup(tp.topic, tp.partition)
			if !ok || o.Err != nil {
				return nil, fmt.Errorf("%s [%d]: no offset listed: %v", tp.topic, tp.partition, o.Err)
			}
			out[tp] = o.Offset
		}
	}
	return out, nil
}

// committedOffsetsWait bounds how long a rewind waits for the group's
// committed offsets: the group coordinator may be loading or moving (after a
// broker restart, typically), which passes; the thread does not poll
// meanwhile, so the bound stays well under max.poll.interval.ms' default.
const committedOffsetsWait = 2 * time.Minute

// committedOffset is a partition's committed offset (-1 for none) and its
// metadata.
type committedOffset struct {
	tp       tpKey
	offset   int64
	metadata string
}

// committedOffsets reads the group's committed offsets of parts (under
// exactly_once_v2 stable ones only: a transaction still completing makes
// the broker answer later, never with the offset before it), retrying until
// committedOffsetsWait has passed or the thread's context ends, unless the
// error is final.
func (t *streamThread) committedOffsets(parts []tpKey) ([]committedOffset, error) {
	defer t.doing("reading the group's committed offsets")()
	deadline := time.Now().Add(committedOffsetsWait)
	topics := map[string]bool{}
	for _, tp := range parts {
		topics[tp.topic] = true
	}
	names := make([]string, 0, len(topics))
	for n := range topics {
		names = append(names, n)
	}
	adm := kadm.NewClient(t.consumer)
	began := time.Now()
	var unstableSince time.Time
	for {
		ctx, cancel := context.WithTimeout(t.ctx, min(10*time.Second, max(time.Until(deadline), time.Millisecond)))
		if t.s.cfg.ExactlyOnce() {
			ctx = kadm.RequireStable(ctx)
		}
		resp, err := adm.FetchOffsetsForTopics(ctx, t.s.cfg.ApplicationID, names...)
		cancel()
		var out []committedOffset
		if err == nil {
			for _, tp := range parts {
				c := committedOffset{tp: tp, offset: -1}
				if o, ok := resp.Lookup(tp.topic, tp.partition); ok {
					// A partition can fail on its own (an offset commit of
					// a transaction that is still completing:
					// UNSTABLE_OFFSET_COMMIT); its offset is then no offset
					// at all, never "from the start".
					if o.Err != nil {
						err = fmt.Errorf("%s [%d]: %w", tp.topic, tp.partition, o.Err)
						break
					}
					c.offset, c.metadata = o.At, o.Metadata
				}
				out = append(out, c)
			}
		}
		if err == nil {
			if !unstableSince.IsZero() {
				t.log.Info("the open transaction holding the group's offsets has completed; taking them over",
					"group", t.s.cfg.ApplicationID, "waited", time.Since(unstableSince).Round(time.Millisecond))
			}
			return out, nil
		}
		if t.ctx.Err() != nil {
			return nil, fmt.Errorf("committed offsets: %w; gave up: %w", err, context.Cause(t.ctx))
		}
		unstable := errors.Is(err, kerr.UnstableOffsetCommit)
		var ke *kerr.Error
		if errors.As(err, &ke) && !ke.Retriable && !unstable {
			return nil, fmt.Errorf("committed offsets: %w", err)
		}
		if time.Now().After(deadline) {
			if unstable {
				return nil, fmt.Errorf("committed offsets: still held by an open transaction after %v (a transactional producer "+
					"stopped mid-transaction and its transaction.timeout.ms is longer than that; wait for the broker to abort it, "+
					"then start again): %w", time.Since(began).Round(time.Second), err)
			}
			return nil, fmt.Errorf("committed offsets: %w", err)
		}
		switch {
		case unstable && unstableSince.IsZero():
			// Under exactly_once_v2 the offsets come with the transaction
			// that consumed them: an instance of the application (Kafka
			// Streams or StoatFlow, with its own transactional.id) that
			// stopped mid-transaction leaves offsets pending that are
			// neither committed nor aborted yet. Taking the older ones
			// would replay what that transaction may still commit; so
			// nothing is consumed until the coordinator completes it, or
			// aborts it once its transaction.timeout.ms has passed.
			unstableSince = time.Now()
			t.log.Warn("waiting for an open transaction that holds the group's offset commits: nothing is consumed until "+
				"it completes, or the broker aborts it when its transaction.timeout.ms has passed (an instance of the "+
				"application stopped mid-transaction)", "group", t.s.cfg.ApplicationID, "topics", names, "err", err)
		case unstable:
			t.log.Debug("offset commits still held by an open transaction", "group", t.s.cfg.ApplicationID,
				"waited", time.Since(unstableSince).Round(time.Second))
		default:
			t.log.Warn("reading committed offsets; retrying", "err", err)
		}
		select {
		case <-t.ctx.Done():
			return nil, fmt.Errorf("committed offsets: %w; gave up: %w", err, context.Cause(t.ctx))
		case <-time.After(time.Second):
		}
	}
}

// restorePartitionTime sets a partition's time from its committed offset's
// metadata, as Kafka Streams initializes a task's partition times; without
// metadata the partition time is unknown.
func (t *streamThread) restorePartitionTime(p committedOffset) {
	a := t.byTP[p.tp]
	if a == nil {
		return
	}
	ts := int64(-1)
	if p.offset >= 0 && p.metadata != "" {
		if v, md, ok := decodeCommitMetadata(p.metadata); ok {
			ts = v
			a.metadata = kstreams.MergeMetadata(a.metadata, md)
		}
	}
	for _, q := range a.queues {
		if q.tp == p.tp {
			q.partTime, q.committedPartTime, q.startAt = ts, ts, p.offset
		}
	}
	if a.task != nil {
		a.task.SetPartitionTime(p.tp.topic, ts)
		a.task.MergeProcessorMetadata(a.metadata)
	}
}

// decodeCommitMetadata reads committed-offset metadata written by
// encodeCommitMetadata or by Kafka Streams (TopicPartitionMetadata): magic
// byte 1 and the partition time, or magic byte 2, the partition time and
// the processor metadata (a count, then per entry the key's length, the
// key in UTF-8 and the value, all big-endian), none when nothing follows
// the time.
func decodeCommitMetadata(md string) (int64, map[string]int64, bool) {
	b, err := base64.StdEncoding.DecodeString(md)
	if err != nil || len(b) < 9 || (b[0] != 1 && b[0] != 2) {
		return 0, nil, false
	}
	ts := int64(binary.BigEndian.Uint64(b[1:9]))
	rest := b[9:]
	if b[0] == 1 || len(rest) == 0 {
		return ts, nil, true
	}
	// Kafka Streams keeps the partition time when the processor metadata
	// after it is unreadable; so does this, with no processor metadata.
	bad := func() (int64, map[string]int64, bool) { return ts, nil, true }
	if len(rest) < 4 {
		return bad()
	}
	n := int(int32(binary.BigEndian.Uint32(rest)))
	rest = rest[4:]
	if n < 0 || n > len(rest)/12 {
		return bad()
	}
	out := make(map[string]int64, n)
	for range n {
		if len(rest) < 4 {
			return bad()
		}
		kl := int(int32(binary.BigEndian.Uint32(rest)))
		rest = rest[4:]
		if kl < 0 || len(rest) < kl+8 {
			return bad()
		}
		out[string(rest[:kl])] = int64(binary.BigEndian.Uint64(rest[kl:]))
		rest = rest[kl+8:]
	}
	return ts, out, true
}

// encodeCommitMetadata is Kafka Streams' committed-offset metadata
// (TopicPartitionMetadata, magic byte 2): base64 of the magic byte, the
// partition time and the processor metadata (nothing when there is none),
// so a JVM instance taking over the group reads both back. Keys are written
// in sorted order (Kafka Streams writes its map's order; readers do not
// depend on it).
func encodeCommitMetadata(partTime int64, md map[string]int64) string {
	b := make([]byte, 9, 9+len(md)*24)
	b[0] = 2
	binary.BigEndian.PutUint64(b[1:], uint64(partTime))
	if len(md) > 0 {
		b = binary.BigEndian.AppendUint32(b, uint32(len(md)))
		for _, k := range slices.Sorted(maps.Keys(md)) {
			b = binary.BigEndian.AppendUint32(b, uint32(len(k)))
			b = append(b, k...)
			b = binary.BigEndian.AppendUint64(b, uint64(md[k]))
		}
	}
	return base64.StdEncoding.EncodeToString(b)
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

func (t *streamThread) closeAllClean() {
	for id, a := range t.tasks {
		t.closeTask(a, false)
		delete(t.tasks, id)
	}
	t.byTP = map[tpKey]*activeTask{}
	t.dropRestores()
}

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

func (t *streamThread) closeTask(a *activeTask, dirty bool) {
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
}
