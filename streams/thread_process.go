package streams

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/stoatflow/stoatflow/compat"
	"github.com/stoatflow/stoatflow/internal/streamsgroup"
	"github.com/stoatflow/stoatflow/kstreams"
)

// handle buffers a poll's records in their tasks' queues and notes each
// partition's watermarks; a partition whose queue it fills past
// buffered.records.per.partition stops being fetched (backpressure.go). It
// returns the number of records polled.
func (t *streamThread) handle(fs kgo.Fetches) (int, error) {
	polled := 0
	var full map[string][]int32
	defer func() {
		if len(full) > 0 {
			t.consumer.PauseFetchPartitions(full)
		}
	}()
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
					t.pauseIfFull(q, &full)
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
	case errors.Is(err, kerr.InconsistentGroupProtocol):
		// The classic join of a group the coordinator keeps as another
		// type while it has members (a streams group), or whose members
		// share no assignor with this one. Kafka Streams' consumer
		// fails the thread on it; retrying only fails again.
		group := t.s.cfg.ApplicationID
		return fmt.Errorf("main consumer: joining group %s: %w: the coordinator keeps the group under another protocol or with members of another assignor: %s",
			group, err, streamsgroup.SwitchProtocolHint(group, "classic"))
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
// Kafka Streams' PartitionGroup.readyToProcess decides it: at once when every
// input partition has a record buffered (so the one with the smallest
// timestamp goes first); otherwise, with max.task.idle.ms < 0 at once; with
// 0 only when no empty partition has records on the broker not fetched yet;
// with a positive value once, beyond that, each empty partition has stayed
// caught up for max.task.idle.ms (readyAfterIdle).
func (t *streamThread) ready(a *activeTask, now time.Time) bool {
	empty, full := 0, 0
	for _, q := range a.queues {
		if len(q.recs) == 0 {
			empty++
		} else {
			full++
		}
	}
	if empty == 0 || t.s.cfg.MaxTaskIdle < 0 {
		a.idleSince = time.Time{}
		for _, q := range a.queues {
			q.idleDeadline = time.Time{}
		}
		return full > 0
	}
	if idle := t.s.cfg.MaxTaskIdle; idle > 0 {
		return t.readyAfterIdle(a, now, idle, full > 0)
	}
	if full == 0 {
		return false
	}
	if a.idleSince.IsZero() {
		a.idleSince = now
	}
	waited := now.Sub(a.idleSince)
	for _, q := range a.queues {
		if len(q.recs) == 0 && t.lagging(q, waited) {
			return false
		}
	}
	return true
}

// readyAfterIdle is ready under a positive max.task.idle.ms, as Kafka
// Streams decides it: an empty partition holds the task back while it has
// records on the broker not delivered yet, and then until its idle deadline,
// max.task.idle.ms after the thread first found it caught up. The deadline
// stays until the partition has records or lags again, so that a task that
// went on without it does not wait anew at each round (with a partition
// paused for its full queue, it would process a queue's worth per
// max.task.idle.ms).
func (t *streamThread) readyAfterIdle(a *activeTask, now time.Time, idle time.Duration, queued bool) bool {
	// The deadlines start even while the task holds no record, as in
	// Kafka Streams; the wait for unknown watermarks only once it does.
	var waited time.Duration
	if queued {
		if a.idleSince.IsZero() {
			a.idleSince = now
		}
		waited = now.Sub(a.idleSince)
	}
	for _, q := range a.queues {
		if len(q.recs) > 0 {
			q.idleDeadline = time.Time{}
			continue
		}
		if t.lagging(q, waited) {
			q.idleDeadline = time.Time{}
			return false
		}
		if q.idleDeadline.IsZero() {
			q.idleDeadline = now.Add(idle)
		}
		if now.Before(q.idleDeadline) {
			return false
		}
	}
	return queued
}

// lagging reports whether empty queue q's partition may have records on the
// broker that the consumer has not delivered, the task having waited for
// it as long as waited: a partition whose watermarks or position are not
// known yet counts as lagging for up to unknownLagWait.
func (t *streamThread) lagging(q *partQueue, waited time.Duration) bool {
	lo, hi := q.logStart, q.end
	if !q.wmKnown {
		return waited < unknownLagWait // not fetched yet: its lag is unknown
	}
	if hi <= lo {
		return false // nothing on the broker to wait for
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
	return pos < hi && (known || waited < unknownLagWait)
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
		if processed > 0 {
			t.summary.records += int64(processed)
			a.commitNeeded = true
			if t.s.act != nil {
				t.s.act.OnProcess(t.idx, a.id, processed, time.Since(began))
			}
		}
		ran, err := a.task.PunctuateStreamTime()
		if ran {
			t.summary.punctuators++
			a.commitNeeded = true
		}
		if err != nil {
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
			ran, err := a.task.PunctuateWallClock(now)
			if ran {
				t.summary.punctuators++
				a.commitNeeded = true
			}
			if err != nil {
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
	if a.commitFirst {
		a.commitFirst, t.commitFirst = false, true
	}
	q.partTime = a.task.PartitionTime(q.tp.topic)
	q.dirty = true
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
	if deser {
		t.summary.skipped++ // Kafka Streams drops it before its task processes it
	}
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
