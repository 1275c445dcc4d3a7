package streams

import (
	"context"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"github.com/stoatflow/stoatflow/kstreams"
	"log/slog"
	"slices"
	"time"

	"github.com/confluentinc/confluent-kafka-go/v2/kafka"

	"github.com/stoatflow/stoatflow/compat"
	"github.com/stoatflow/stoatflow/internal/failpoint"
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
	recs []*kafka.Message
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
}

// activeTask is a task this thread owns: its processors, stores and input
// buffers.
type activeTask struct {
	id        kstreams.TaskID
	task      *kstreams.Task
	stores    []*taskStore
	queues    []*partQueue
	restoring int       // stores still restoring
	idleSince time.Time // when the task began waiting for an empty partition
}

func (a *activeTask) running() bool { return a.restoring == 0 && a.task != nil }

// streamThread is one of num.stream.threads: a main consumer in the
// application's group, a restore consumer, a producer, and the tasks the
// group assigned it. Everything but the rebalance callback runs on its own
// goroutine, and librdkafka calls that callback from Poll on it too.
type streamThread struct {
	s           *KafkaStreams
	idx         int
	log         *slog.Logger
	topicSub    map[string]int // decorated source topic → sub-topology
	topics      []string
	repartition map[string]bool // decorated repartition topics this thread reads
	lastPurge   time.Time

	consumer  *kafka.Consumer
	restorer  *kafka.Consumer
	producer  *txn.Producer
	committer *txn.Committer
	barrier   txn.Barrier
	budget    *state.Budget

	tasks     map[kstreams.TaskID]*activeTask
	byTP      map[tpKey]*activeTask
	restores  map[state.TopicPartition]*restoreState
	partCount map[string]int
	cbErr     error // an error inside the rebalance callback, fatal
	assigned  int   // tasks in the current assignment
	// leaving is set once run has returned and the thread closes its
	// clients, which poll the main consumer and so run the rebalance
	// callback still; an assignment delivered then is not taken up (see
	// rebalance).
	leaving    bool
	subscribed bool // the main consumer subscribed (leaveGroup has work)
	rebalances int  // rebalance events handed to the callback

	// ctx is the context of the thread's waits: the run context while it
	// processes (Close interrupts them), the abort context once it shuts
	// down (only the shutdown deadline does).
	ctx context.Context
	threadState
}

func configMap(m map[string]string) *kafka.ConfigMap {
	c := kafka.ConfigMap{}
	for k, v := range m {
		c[k] = v
	}
	return &c
}

func newStreamThread(s *KafkaStreams, idx int, _ map[int]int) (*streamThread, error) {
	t := &streamThread{
		s: s, idx: idx, log: s.log.With("thread", idx),
		topicSub: map[string]int{},
		tasks:    map[kstreams.TaskID]*activeTask{}, byTP: map[tpKey]*activeTask{},
		restores:    map[state.TopicPartition]*restoreState{},
		budget:      &state.Budget{},
		partCount:   map[string]int{},
		repartition: map[string]bool{},
	}
	for _, st := range s.topo.Subtopologies() {
		for _, src := range st.Sources {
			name := src.Decorated(s.cfg.ApplicationID)
			t.topicSub[name] = st.ID
			t.topics = append(t.topics, name)
			if src.Internal {
				t.repartition[name] = true
			}
		}
	}
	slices.Sort(t.topics)
	cfg := s.cfg
	var err error
	mc := cfg.MainConsumerConfig(s.processID, idx)
	if t.consumer, err = kafka.NewConsumer(configMap(mc)); err != nil {
		return nil, fmt.Errorf("main consumer: %w", err)
	}
	rc := cfg.RestoreConsumerConfig(s.processID, idx)
	if t.restorer, err = kafka.NewConsumer(configMap(rc)); err != nil {
		t.consumer.Close()
		return nil, fmt.Errorf("restore consumer: %w", err)
	}
	pc := kafka.ConfigMap{}
	for k, v := range cfg.ProducerConfig(s.processID, idx) {
		pc[k] = v
	}
	if t.producer, err = txn.NewProducer(pc, cfg.ExactlyOnce()); err != nil {
		t.consumer.Close()
		t.restorer.Close()
		return nil, fmt.Errorf("producer: %w", err)
	}
	t.committer = &txn.Committer{Producer: t.producer, Consumer: t.consumer, EOS: cfg.ExactlyOnce()}
	hasGlobal := false
	t.barrier = txn.Barrier{
		Interval:       cfg.CommitInterval,
		MaxUncommitted: cfg.UncommittedBytesPerThread(cfg.NumStreamThreads, hasGlobal),
		Uncommitted:    t.budget.Total,
	}
	return t, nil
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
	t.leaveGroup(ctx)
	t.consumer.Close()
}

// leaveGroupWait bounds how long leaveGroup waits for the rebalance events
// of the unsubscribe.
const leaveGroupWait = 5 * time.Second

// leaveGroup unsubscribes the main consumer and polls it until it holds no
// partition and has handed every rebalance event to the callback, before
// Consumer.Close. Consumer.Close dispatches an event still queued (an
// assignment that arrived after the last poll, typically) even after the
// consumer group has terminated, and the assign call such an event needs,
// the callback's or confluent-kafka-go's own, then waits forever for the
// group to answer (librdkafka issue 4884). While the group is up, it
// answers. Records polled here are dropped: the partitions' next owner
// reads them again from the committed offsets.
func (t *streamThread) leaveGroup(ctx context.Context) {
	if !t.subscribed {
		return
	}
	if err := t.consumer.Unsubscribe(); err != nil {
		t.log.Warn("unsubscribing the main consumer", "err", err)
		return
	}
	ctx, cancel := context.WithTimeout(ctx, leaveGroupWait)
	defer cancel()
	for ctx.Err() == nil {
		before := t.rebalances
		if ev := t.consumer.Poll(100); ev != nil || t.rebalances != before {
			continue
		}
		parts, err := t.consumer.Assignment()
		if err != nil || len(parts) == 0 {
			return
		}
	}
	t.log.Warn("the main consumer still had a rebalance under way when closing", "err", context.Cause(ctx))
}

// run is the thread's loop: poll, restore, process, commit. ctx ends when
// the thread is to stop; a wait that the shutdown interrupted is not an
// error of the thread: its tasks close without committing.
func (t *streamThread) run(ctx context.Context) (err error) {
	t.ctx = ctx
	defer func() {
		t.leaving = true
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
	if err := t.consumer.SubscribeTopics(t.topics, t.rebalance); err != nil {
		return fmt.Errorf("subscribe %v: %w", t.topics, err)
	}
	t.subscribed = true
	t.barrier.Start(time.Now())
	maxPoll := t.s.cfg.MaxPollRecords
	for {
		if ctx.Err() != nil {
			return t.shutdown()
		}
		timeout := int(t.s.cfg.PollTimeout.Milliseconds())
		if t.buffered() || len(t.restores) > 0 {
			timeout = 0
		}
		polled, pollStart := 0, time.Now()
		for n := 0; n < maxPoll; n++ {
			ev := t.consumer.Poll(timeout)
			if t.cbErr != nil {
				return t.cbErr
			}
			if ev == nil {
				break
			}
			timeout = 0
			if _, ok := ev.(*kafka.Message); ok {
				polled++
			}
			if err := t.handle(ev); err != nil {
				return err
			}
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
		err := t.process()
		done()
		if err != nil {
			return err
		}
		if err := t.maybeCommit(false); err != nil {
			return err
		}
	}
}

func (t *streamThread) handle(ev kafka.Event) error {
	switch e := ev.(type) {
	case *kafka.Message:
		tp := tpKey{*e.TopicPartition.Topic, e.TopicPartition.Partition}
		a := t.byTP[tp]
		if a == nil {
			return nil // a record of a partition revoked meanwhile
		}
		for _, q := range a.queues {
			if q.tp == tp {
				q.recs = append(q.recs, e)
			}
		}
	case kafka.Error:
		if e.IsFatal() {
			return fmt.Errorf("main consumer: %w", e)
		}
		t.log.Warn("main consumer", "err", e)
	}
	return nil
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

// unknownLagWait bounds how long a task waits for a partition whose fetch
// position the consumer does not know yet (just assigned) under
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
		lo, hi, err := t.consumer.GetWatermarkOffsets(q.tp.topic, q.tp.partition)
		if err != nil || hi < 0 {
			if waited < unknownLagWait {
				return false // not fetched yet: its lag is unknown
			}
			continue
		}
		if hi <= lo {
			continue // nothing on the broker to wait for
		}
		pos := q.next
		if pos < 0 {
			pos = max(q.committed, lo)
		}
		if pos < hi && waited < unknownLagWait {
			return false // fetchable data the consumer has not delivered yet
		}
	}
	return true
}

// rebalance is librdkafka's rebalance callback (eager protocol: every
// assignment is preceded by the revocation of everything).
func (t *streamThread) rebalance(c *kafka.Consumer, ev kafka.Event) error {
	t.rebalances++
	if err := failpoint.Hit(failpoint.RebalanceCallback); err != nil {
		t.cbErr = err
		return err
	}
	switch e := ev.(type) {
	case kafka.AssignedPartitions:
		if t.leaving || t.ctx.Err() != nil {
			// The thread is stopping: it leaves the group, so it opens no
			// task for this assignment (as a Kafka Streams thread, whose
			// consumer's close only revokes). Opening one would wait for
			// the partitions' committed offsets, which librdkafka does not
			// fetch once the consumer closes, and the final commit is past
			// already: the wait would only hold up Close until its deadline.
			t.log.Info("partitions assigned while stopping; not taken up", "partitions", len(e.Partitions))
			return c.Unassign()
		}
		if err := t.onAssigned(e.Partitions); err != nil {
			t.cbErr = err
			return err
		}
	case kafka.RevokedPartitions:
		lost := c.AssignmentLost()
		if err := t.onRevoked(lost); err != nil {
			t.cbErr = err
		}
		return c.Unassign()
	}
	return nil
}

// onAssigned creates the tasks of the assigned partitions: co-partitioned
// partitions p of a sub-topology's source topics form task <sub>_<p>. It
// opens their stores and starts restoring them; the task's input stays
// paused until its stores are restored.
func (t *streamThread) onAssigned(parts []kafka.TopicPartition) error {
	byTask := map[kstreams.TaskID][]tpKey{}
	for _, p := range parts {
		tp := tpKey{*p.Topic, p.Partition}
		sub, ok := t.topicSub[tp.topic]
		if !ok {
			continue
		}
		id := kstreams.TaskID{Subtopology: sub, Partition: tp.partition}
		byTask[id] = append(byTask[id], tp)
	}
	var pause []kafka.TopicPartition
	t.assigned = len(byTask)
	for id, tps := range byTask {
		a, err := t.openTask(id, tps)
		if err != nil {
			return err
		}
		t.tasks[id] = a
		for _, tp := range tps {
			t.byTP[tp] = a
		}
		if a.restoring > 0 {
			for _, tp := range tps {
				pause = append(pause, kafka.TopicPartition{Topic: &tp.topic, Partition: tp.partition})
			}
		}
	}
	// Each partition starts at its committed partition time, as in Kafka
	// Streams: the extractors see it, and a task's stream time starts there.
	var mine []kafka.TopicPartition
	for _, p := range parts {
		if t.byTP[tpKey{*p.Topic, p.Partition}] != nil {
			mine = append(mine, kafka.TopicPartition{Topic: p.Topic, Partition: p.Partition})
		}
	}
	if len(mine) > 0 {
		committed, err := t.committedOffsets(mine)
		if err != nil {
			return fmt.Errorf("reading the committed partition times: %w", err)
		}
		for _, p := range committed {
			t.restorePartitionTime(p)
		}
	}
	ids := make([]string, 0, len(byTask))
	for id := range byTask {
		ids = append(ids, id.String())
	}
	slices.Sort(ids)
	t.log.Info("partitions assigned", "tasks", ids, "partitions", len(parts))
	if err := t.consumer.Assign(parts); err != nil {
		return fmt.Errorf("assign: %w", err)
	}
	if len(pause) > 0 {
		if err := t.consumer.Pause(pause); err != nil {
			return fmt.Errorf("pause restoring partitions: %w", err)
		}
	}
	if err := t.assignRestorer(); err != nil {
		return err
	}
	t.s.threadReady(t.idx, len(t.restores) == 0)
	if t.s.act != nil {
		t.s.act.OnRebalance(t.idx)
	}
	return nil
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

// openTask opens a task's stores and instantiates its processors.
func (t *streamThread) openTask(id kstreams.TaskID, tps []tpKey) (*activeTask, error) {
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
	for _, tp := range tps {
		a.queues = append(a.queues, &partQueue{tp: tp, next: -1, partTime: -1, committedPartTime: -1, committed: -1, purged: -1})
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
	keySerde, err := serdeFor(cfg.DefaultKeySerde)
	if err != nil {
		return err
	}
	valSerde, err := serdeFor(cfg.DefaultValueSerde)
	if err != nil {
		return err
	}
	task, err := t.s.topo.NewTask(kstreams.TaskConfig{
		ApplicationID: cfg.ApplicationID, Subtopology: a.id.Subtopology, Partition: a.id.Partition,
		DefaultKeySerde: keySerde, DefaultValueSerde: valSerde,
		Stores: byName, Output: collector{t},
		CacheMaxBytes:             t.cacheShare(),
		OnDroppedRecord:           func(p, reason string) { t.s.hks.OnDroppedRecord(a.id, p, reason) },
		DefaultTimestampExtractor: timestampExtractor(cfg.TimestampExtractor),
		Logger:                    t.log,
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
	return total / int64(t.s.cfg.NumStreamThreads) / int64(max(1, t.assigned))
}

func serdeFor(s compat.Serde) (serde.Untyped, error) {
	if s == compat.SerdeUnset {
		return nil, nil
	}
	return serde.ByClassName(s.String())
}

// collector sends a task's sink and changelog records through the thread's
// producer. Sink records without a fixed partition go where Kafka's default
// partitioner puts their partition key; records with a null key are spread
// by librdkafka.
type collector struct{ t *streamThread }

func (c collector) Send(r kstreams.ProducerRecord) error {
	var hs []kafka.Header
	for _, h := range r.Headers {
		hs = append(hs, kafka.Header{Key: h.Key, Value: h.Value})
	}
	partition := r.Partition
	if partition < 0 && r.PartitionKey != nil {
		n, err := c.t.partitions(r.Topic)
		if err != nil {
			return err
		}
		partition = kstreams.DefaultPartition(r.PartitionKey, n)
	}
	return c.t.producer.Send(c.t.ctx, r.Topic, partition, r.Key, r.Value, r.Timestamp, hs)
}

// sinkMetadataWait bounds the metadata look-up of a sink topic on the
// processing path.
const sinkMetadataWait = 10 * time.Second

// partitions returns a topic's partition count, from metadata cached for
// the thread's lifetime (a partition count change needs a restart, as in
// Kafka Streams).
func (t *streamThread) partitions(topic string) (int, error) {
	if n, ok := t.partCount[topic]; ok {
		return n, nil
	}
	defer t.doing("reading the metadata of sink topic " + topic)()
	md, err := metadata(t.ctx, t.producer.Client(), topic, "sink", sinkMetadataWait)
	if err != nil {
		return 0, fmt.Errorf("streams: %w", err)
	}
	tm := md.Topics[topic]
	if tm.Error.Code() != kafka.ErrNoError || len(tm.Partitions) == 0 {
		return 0, fmt.Errorf("streams: sink topic %s is missing: %v (create it before starting the application)", topic, tm.Error)
	}
	t.partCount[topic] = len(tm.Partitions)
	return len(tm.Partitions), nil
}

// process runs buffered records through the running tasks, picking within a
// task the partition whose next record has the smallest timestamp.
func (t *streamThread) process() error {
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
func recordTimestamp(m *kafka.Message) int64 {
	if m.Timestamp.IsZero() {
		return -1
	}
	return m.Timestamp.UnixMilli()
}

func recordHeaders(m *kafka.Message) []kstreams.Header {
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
	off := int64(m.TopicPartition.Offset)
	if !q.headKnown || q.headOff != off {
		q.headTs = a.task.PeekTimestamp(q.tp.topic, q.tp.partition, off, m.Key, m.Value, recordTimestamp(m), recordHeaders(m))
		q.headOff, q.headKnown = off, true
	}
	return q.headTs
}

func (t *streamThread) processOne(a *activeTask, q *partQueue, m *kafka.Message) error {
	off := int64(m.TopicPartition.Offset)
	err := a.task.Process(q.tp.topic, q.tp.partition, off, m.Key, m.Value, recordTimestamp(m), recordHeaders(m))
	if err != nil {
		if err := t.handleProcessError(a, q, m, err); err != nil {
			return err
		}
	}
	q.next = off + 1
	q.partTime = a.task.PartitionTime(q.tp.topic)
	q.dirty = true
	return nil
}

// handleProcessError applies the configured exception handler: continue
// (skip and count the record, optionally to the dead-letter queue) or fail
// with an error naming topic, partition and offset.
func (t *streamThread) handleProcessError(a *activeTask, q *partQueue, m *kafka.Message, err error) error {
	cfg := t.s.cfg
	// An extractor's failure is not a processing error: as in Kafka
	// Streams, no exception handler can skip it.
	var te *kstreams.TimestampExtractionError
	if errors.As(err, &te) {
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
	where := fmt.Sprintf("%s-%d@%d", q.tp.topic, q.tp.partition, m.TopicPartition.Offset)
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
		hs := append([]kafka.Header(nil), m.Headers...)
		hs = append(hs,
			kafka.Header{Key: "__streams.errors.exception", Value: []byte(fmt.Sprintf("%T", errors.Unwrap(err)))},
			kafka.Header{Key: "__streams.errors.message", Value: []byte(err.Error())},
			kafka.Header{Key: "__streams.errors.topic", Value: []byte(q.tp.topic)},
			kafka.Header{Key: "__streams.errors.partition", Value: []byte(fmt.Sprint(q.tp.partition))},
			kafka.Header{Key: "__streams.errors.offset", Value: []byte(fmt.Sprint(int64(m.TopicPartition.Offset)))},
		)
		ts := int64(-1)
		if !m.Timestamp.IsZero() {
			ts = m.Timestamp.UnixMilli()
		}
		if err := t.producer.Send(t.ctx, dlq, -1, m.Key, m.Value, ts, hs); err != nil {
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

// maybeCommit ends the epoch when the barrier says so, or always when
// force is set (revocation, shutdown).
func (t *streamThread) maybeCommit(force bool) error {
	now := time.Now()
	trigger, due := t.barrier.Due(now)
	if force {
		trigger, due = txn.TriggerRequested, true
	}
	if !due {
		return nil
	}
	var offsets []kafka.TopicPartition
	var stores []txn.StoreCommit
	dirty := false
	for _, a := range t.tasks {
		if !a.running() {
			continue
		}
		// Record caches forward and changelog what they hold, inside this
		// epoch's transaction.
		if err := a.task.Flush(); err != nil {
			return fmt.Errorf("streams: task %s: flushing caches: %w", a.id, err)
		}
		for _, q := range a.queues {
			if q.next < 0 || !q.dirty {
				continue
			}
			topic := q.tp.topic
			md := encodeCommitMetadata(q.partTime)
			offsets = append(offsets, kafka.TopicPartition{Topic: &topic, Partition: q.tp.partition,
				Offset: kafka.Offset(q.next), Metadata: &md})
			dirty = true
		}
		for _, ts := range a.stores {
			stores = append(stores, txn.StoreCommit{Store: ts.store, Partition: ts.task.Partition, Changelog: ts.changelog})
		}
	}
	if !dirty && !t.producer.InTransaction() && t.budget.Total() == 0 {
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
		for _, a := range t.tasks {
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
		t.log.Warn("commit failed; transaction aborted, tasks rewind to their last commit", "err", err)
		return t.rewind(errors.Is(err, txn.ErrFenced))
	default:
		return err
	}
}

// reportLag reports an input partition's lag from the consumer's cached
// end offset, without a broker round trip.
func (t *streamThread) reportLag(q *partQueue) {
	_, hi, err := t.consumer.GetWatermarkOffsets(q.tp.topic, q.tp.partition)
	if err != nil || hi < 0 {
		return
	}
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
	var del []kafka.TopicPartition
	queues := map[tpKey]*partQueue{}
	for _, a := range t.tasks {
		for _, q := range a.queues {
			if t.repartition[q.tp.topic] && q.committed > q.purged {
				topic := q.tp.topic
				del = append(del, kafka.TopicPartition{Topic: &topic, Partition: q.tp.partition, Offset: kafka.Offset(q.committed)})
				queues[q.tp] = q
			}
		}
	}
	if len(del) == 0 {
		return
	}
	admin, err := kafka.NewAdminClientFromProducer(t.producer.Client())
	if err != nil {
		t.log.Warn("purging repartition topics", "err", err)
		return
	}
	defer admin.Close()
	ctx, cancel := context.WithTimeout(t.ctx, 10*time.Second)
	defer cancel()
	res, err := admin.DeleteRecords(ctx, del)
	if err != nil {
		t.log.Warn("purging repartition topics", "err", err)
		return
	}
	for _, r := range res.DeleteRecordsResults {
		tp := r.TopicPartition
		if tp.Error != nil {
			t.log.Warn("purging repartition partition", "topic", *tp.Topic, "partition", tp.Partition, "err", tp.Error)
			continue
		}
		if q := queues[tpKey{*tp.Topic, tp.Partition}]; q != nil {
			q.purged = q.committed
		}
	}
}

// rewind restarts every running task from its last committed input
// offsets after an aborted epoch: processors are rebuilt over the stores
// (whose overlays the committer dropped), buffers emptied, and the
// partitions re-assigned at their committed offsets.
func (t *streamThread) rewind(fenced bool) error {
	if fenced {
		defer t.doing("replacing its fenced producer")()
		ctx, cancel := context.WithTimeout(t.ctx, time.Minute)
		defer cancel()
		_ = t.producer.Close(ctx) // fenced: the abort fails, the broker has aborted already
		pc := kafka.ConfigMap{}
		for k, v := range t.s.cfg.ProducerConfig(t.s.processID, t.idx) {
			pc[k] = v
		}
		p, err := txn.NewProducer(pc, t.s.cfg.ExactlyOnce())
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
	var parts, fetch []kafka.TopicPartition
	for _, a := range t.tasks {
		for _, q := range a.queues {
			topic := q.tp.topic
			if q.committed >= 0 && !fenced {
				parts = append(parts, kafka.TopicPartition{Topic: &topic, Partition: q.tp.partition, Offset: kafka.Offset(q.committed)})
			} else {
				fetch = append(fetch, kafka.TopicPartition{Topic: &topic, Partition: q.tp.partition})
			}
			// Partition time goes back with the offset (the replayed records
			// must see the partition time they saw the first time).
			q.recs, q.next, q.dirty, q.partTime, q.headKnown = nil, -1, false, q.committedPartTime, false
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
	if len(fetch) > 0 {
		committed, err := t.committedOffsets(fetch)
		if err != nil {
			return fmt.Errorf("reading committed offsets to rewind: %w", err)
		}
		for i := range committed {
			if committed[i].Offset < 0 {
				committed[i].Offset = kafka.OffsetBeginning
			}
			t.restorePartitionTime(committed[i])
		}
		parts = append(parts, committed...)
	}
	if len(parts) == 0 {
		return nil
	}
	if err := t.consumer.Assign(parts); err != nil {
		return fmt.Errorf("rewinding: %w", err)
	}
	var pause []kafka.TopicPartition
	for _, p := range parts {
		if a := t.byTP[tpKey{*p.Topic, p.Partition}]; a != nil && !a.running() {
			pause = append(pause, p)
		}
	}
	if len(pause) > 0 {
		return t.consumer.Pause(pause)
	}
	return nil
}

// committedOffsetsWait bounds how long a rewind waits for the group's
// committed offsets: the group coordinator may be loading or moving (after a
// broker restart, typically), which passes; the thread does not poll
// meanwhile, so the bound stays well under max.poll.interval.ms' default.
const committedOffsetsWait = 2 * time.Minute

// committedOffsets reads the group's committed offsets of parts, retrying
// until committedOffsetsWait has passed or the thread's context ends, unless
// the error is fatal.
func (t *streamThread) committedOffsets(parts []kafka.TopicPartition) ([]kafka.TopicPartition, error) {
	defer t.doing("reading the group's committed offsets")()
	deadline := time.Now().Add(committedOffsetsWait)
	for {
		var committed []kafka.TopicPartition
		err := sliced(t.ctx, "committed offsets", min(10*time.Second, time.Until(deadline)), func(ms int) error {
			var err error
			committed, err = t.consumer.Committed(parts, ms)
			return err
		})
		if err == nil {
			// A partition can fail on its own (an offset commit of a
			// transaction that is still completing: UNSTABLE_OFFSET_COMMIT);
			// its offset is then no offset at all, never "from the start".
			for _, p := range committed {
				if p.Error != nil {
					err = fmt.Errorf("%s [%d]: %w", *p.Topic, p.Partition, p.Error)
					break
				}
			}
		}
		if err == nil {
			return committed, nil
		}
		var ke kafka.Error
		if (errors.As(err, &ke) && ke.IsFatal()) || interrupted(err) || time.Now().After(deadline) {
			return nil, err
		}
		t.log.Warn("reading committed offsets to rewind; retrying", "err", err)
		select {
		case <-t.ctx.Done():
			return nil, fmt.Errorf("%w; gave up: %w", err, context.Cause(t.ctx))
		case <-time.After(time.Second):
		}
	}
}

// restorePartitionTime sets a partition's time from its committed offset's
// metadata, as Kafka Streams initializes a task's partition times; without
// metadata the partition time is unknown.
func (t *streamThread) restorePartitionTime(p kafka.TopicPartition) {
	a := t.byTP[tpKey{*p.Topic, p.Partition}]
	if a == nil {
		return
	}
	ts := int64(-1)
	if p.Metadata != nil {
		if v, ok := decodeCommitMetadata(*p.Metadata); ok {
			ts = v
		}
	}
	for _, q := range a.queues {
		if q.tp.topic == *p.Topic && q.tp.partition == p.Partition {
			q.partTime, q.committedPartTime = ts, ts
		}
	}
	if a.task != nil {
		a.task.SetPartitionTime(*p.Topic, ts)
	}
}

// decodeCommitMetadata reads the partition time from committed-offset
// metadata written by encodeCommitMetadata or by Kafka Streams (magic byte 1
// or 2, the latter followed by processor metadata).
func decodeCommitMetadata(md string) (int64, bool) {
	b, err := base64.StdEncoding.DecodeString(md)
	if err != nil || len(b) < 9 || (b[0] != 1 && b[0] != 2) {
		return 0, false
	}
	return int64(binary.BigEndian.Uint64(b[1:9])), true
}

// encodeCommitMetadata is Kafka Streams' committed-offset metadata: base64
// of magic byte 1 and the partition time, so a JVM instance taking over the
// group reads the partition time back.
func encodeCommitMetadata(partTime int64) string {
	var b [9]byte
	b[0] = 1
	binary.BigEndian.PutUint64(b[1:], uint64(partTime))
	return base64.StdEncoding.EncodeToString(b[:])
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
