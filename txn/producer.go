package txn

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/confluentinc/confluent-kafka-go/v2/kafka"

	"github.com/stoatflow/stoatflow/internal/failpoint"
)

// Error classes, checked with errors.Is.
var (
	// ErrFenced: another producer with the same transactional.id (a newer
	// instance of this thread, after a rebalance) took over. The thread's
	// tasks have migrated: drop every overlay, close the tasks without
	// committing, and rejoin. Kafka Streams calls this TaskMigratedException.
	ErrFenced = errors.New("txn: producer fenced by a newer instance")
	// ErrAbortable: the transaction failed and must be aborted; the producer
	// stays usable. Overlays are dropped and the tasks rewind to their last
	// committed offsets.
	ErrAbortable = errors.New("txn: transaction failed and was aborted")
	// ErrFatal: the producer cannot be used any more.
	ErrFatal = errors.New("txn: fatal producer error")
	// ErrClosed is returned by every call on a Producer after Close.
	ErrClosed = errors.New("txn: producer closed")
)

// Error is a producer or transaction failure with its class.
type Error struct {
	Op    string // "send", "flush", "commit", "abort", "init", "send-offsets"
	Class error  // ErrFenced, ErrAbortable, ErrFatal or nil (retriable/other)
	Err   error
}

func (e *Error) Error() string {
	if e.Class != nil {
		return fmt.Sprintf("txn: %s: %v (%v)", e.Op, e.Err, e.Class)
	}
	return fmt.Sprintf("txn: %s: %v", e.Op, e.Err)
}

func (e *Error) Unwrap() []error {
	if e.Class == nil {
		return []error{e.Err}
	}
	return []error{e.Class, e.Err}
}

// classify maps a librdkafka error onto StoatFlow's error classes.
func classify(op string, err error) error {
	if err == nil {
		return nil
	}
	var ke kafka.Error
	if !errors.As(err, &ke) {
		return &Error{Op: op, Err: err}
	}
	switch ke.Code() {
	case kafka.ErrFenced, kafka.ErrProducerFenced, kafka.ErrInvalidProducerEpoch,
		kafka.ErrTransactionalIDAuthorizationFailed:
		return &Error{Op: op, Class: ErrFenced, Err: err}
	}
	switch {
	case ke.TxnRequiresAbort(), ke.Code() == kafka.ErrMsgTimedOut:
		// A record that timed out (the broker was away longer than
		// delivery.timeout.ms, bounded by transaction.timeout.ms under
		// exactly_once_v2) aborts the epoch: the tasks rewind and retry,
		// as Kafka Streams retries a timed-out send by re-initialising
		// the task, instead of stopping the application.
		return &Error{Op: op, Class: ErrAbortable, Err: err}
	case ke.IsFatal():
		return &Error{Op: op, Class: ErrFatal, Err: err}
	}
	return &Error{Op: op, Err: err}
}

// TopicPartition names a partition records were written to.
type TopicPartition struct {
	Topic     string
	Partition int32
}

// Producer is one stream thread's producer. Under exactly_once_v2 it is
// transactional: the first Send of an epoch begins a transaction and Commit
// ends it together with the consumed offsets. Every delivered record's offset
// is tracked per partition, so after a commit the runtime knows the last
// changelog offset each store must record.
//
// Send, Flush, Commit and Abort are called by the owning stream thread only.
type Producer struct {
	p        *kafka.Producer
	eos      bool
	inTxn    bool
	topics   map[string]*string // one string per topic, shared by its messages
	stop     chan struct{}
	wg       sync.WaitGroup
	closeMu  sync.Once
	closeErr error
	closed   atomic.Bool

	mu struct {
		sync.Mutex
		pending int
		idle    chan struct{} // closed when pending drops to 0
		err     error         // first delivery error of the epoch
		offsets map[TopicPartition]int64
	}
}

// NewProducer creates a producer from a librdkafka configuration. eos
// selects exactly_once_v2; then cfg must carry transactional.id, and Init
// must be called before the first Send.
func NewProducer(cfg kafka.ConfigMap, eos bool) (*Producer, error) {
	conf := kafka.ConfigMap{}
	for k, v := range cfg {
		conf[k] = v
	}
	// Delivery reports come through the producer's one event channel: a
	// per-message delivery channel would cost a map entry per record in
	// confluent-kafka-go. No key, value or headers are copied back.
	conf["go.delivery.reports"] = true
	conf["go.delivery.report.fields"] = "none"
	// A channel of 16 bytes per slot, every slot touched as reports cycle
	// through it: the default of a million slots would hold 16 MiB.
	if _, set := conf["go.events.channel.size"]; !set {
		conf["go.events.channel.size"] = 16384
	}
	// ProduceChannel() is never used; its default buffer is 8 MiB.
	conf["go.produce.channel.size"] = 1
	p, err := kafka.NewProducer(&conf)
	if err != nil {
		return nil, classify("create", err)
	}
	pr := &Producer{p: p, eos: eos, topics: map[string]*string{}, stop: make(chan struct{})}
	pr.mu.offsets = map[TopicPartition]int64{}
	pr.wg.Add(1)
	go pr.events()
	return pr, nil
}

// Init registers the transactional.id with the coordinator, fencing any
// older producer with the same id and aborting its open transaction.
func (p *Producer) Init(ctx context.Context) error {
	if p.closed.Load() {
		return closedError("init")
	}
	if !p.eos {
		return nil
	}
	return classify("init", retry(ctx, p.p.InitTransactions))
}

func closedError(op string) error { return fmt.Errorf("txn: %s: %w", op, ErrClosed) }

// callSlice bounds one call of a transactional API inside retry. librdkafka
// takes only a context's deadline as the call's timeout and never looks at
// its cancellation, so a long call is made of short ones: a call that times
// out is resumed by the next (librdkafka documents these calls as
// resumable), and ctx is checked in between.
const callSlice = time.Second

// retry calls a transactional API until it succeeds, fails with an error
// librdkafka does not mark retriable (those that abort the transaction or
// are fatal among them), or ctx ends. A coordinator that is loading or
// moving after a broker restart, or a connection that dropped, makes these
// calls fail retriably; librdkafka leaves the retry to the application.
// Each call gets at most callSlice, and one call is made even when ctx has
// ended; when ctx ends first, the last error is returned together with ctx's
// cause.
func retry(ctx context.Context, call func(context.Context) error) error {
	backoff := 50 * time.Millisecond
	for {
		sctx, cancel := context.WithTimeout(ctx, callSlice)
		err := call(sctx)
		cancel()
		var ke kafka.Error
		if err == nil || !errors.As(err, &ke) || !ke.IsRetriable() || ke.TxnRequiresAbort() || ke.IsFatal() {
			return err
		}
		if ctx.Err() != nil {
			return fmt.Errorf("%w; gave up: %w", err, context.Cause(ctx))
		}
		if ke.Code() == kafka.ErrTimedOut {
			backoff = 0 // the slice ran out: resume at once
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%w; gave up: %w", err, context.Cause(ctx))
		case <-time.After(backoff):
		}
		backoff = min(max(2*backoff, 50*time.Millisecond), time.Second)
	}
}

// Send writes one record. Under exactly_once_v2 it begins the epoch's
// transaction if none is open. partition -1 lets the partitioner choose
// (murmur2 of the key, as Java's default partitioner). While librdkafka's
// queue is full Send waits for room until ctx ends; the record then fails,
// and with it the epoch's next Flush.
func (p *Producer) Send(ctx context.Context, topic string, partition int32, key, value []byte, timestamp int64, headers []kafka.Header) error {
	if p.closed.Load() {
		return closedError("send")
	}
	if p.eos && !p.inTxn {
		if err := p.p.BeginTransaction(); err != nil {
			return classify("begin", err)
		}
		p.inTxn = true
	}
	tp, ok := p.topics[topic]
	if !ok {
		tp = &topic
		p.topics[topic] = tp
	}
	msg := &kafka.Message{
		TopicPartition: kafka.TopicPartition{Topic: tp, Partition: partition},
		Key:            key,
		Value:          value,
		Headers:        headers,
	}
	if timestamp >= 0 {
		msg.Timestamp = time.UnixMilli(timestamp)
	}
	p.mu.Lock()
	if p.mu.pending == 0 {
		p.mu.idle = make(chan struct{})
	}
	p.mu.pending++
	p.mu.Unlock()
	for {
		err := p.p.Produce(msg, nil)
		if err == nil {
			return nil
		}
		var ke kafka.Error
		if errors.As(err, &ke) && ke.Code() == kafka.ErrQueueFull {
			if ctx.Err() != nil {
				err = fmt.Errorf("librdkafka's queue stayed full (queue.buffering.max.messages / "+
					"queue.buffering.max.kbytes; the broker takes records slower than they come): %w", context.Cause(ctx))
				p.done(TopicPartition{}, -1, err)
				return &Error{Op: "send", Err: err}
			}
			// Let librdkafka drain its queue; the stream thread has nothing
			// better to do than wait for room.
			p.p.Flush(100)
			continue
		}
		p.done(TopicPartition{}, -1, err)
		return classify("send", err)
	}
}

// InTransaction reports whether a transaction is open.
func (p *Producer) InTransaction() bool { return p.inTxn }

func (p *Producer) done(tp TopicPartition, offset int64, err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if err != nil && p.mu.err == nil {
		p.mu.err = err
	}
	if err == nil && offset >= 0 {
		if cur, ok := p.mu.offsets[tp]; !ok || offset > cur {
			p.mu.offsets[tp] = offset
		}
	}
	p.mu.pending--
	if p.mu.pending == 0 {
		close(p.mu.idle)
	}
}

// events reads the producer's event channel: a delivery report per record
// (the offset it got, or its error); errors and statistics are dropped, as
// their effects reach the thread through the next call.
func (p *Producer) events() {
	defer p.wg.Done()
	for {
		select {
		case ev, ok := <-p.p.Events():
			if !ok {
				return
			}
			if m, isMsg := ev.(*kafka.Message); isMsg {
				tp := TopicPartition{Topic: *m.TopicPartition.Topic, Partition: m.TopicPartition.Partition}
				p.done(tp, int64(m.TopicPartition.Offset), m.TopicPartition.Error)
			}
		case <-p.stop:
			return
		}
	}
}

// Flush sends everything buffered and waits for every delivery report. It
// returns the epoch's first delivery error, classified.
func (p *Producer) Flush(ctx context.Context) error {
	if p.closed.Load() {
		return closedError("flush")
	}
	for {
		p.mu.Lock()
		pending, idle, err := p.mu.pending, p.mu.idle, p.mu.err
		p.mu.Unlock()
		if err != nil {
			return p.deliveryError(err)
		}
		if pending == 0 {
			return nil
		}
		// Flush makes librdkafka send now, ignoring linger.ms.
		p.p.Flush(10)
		select {
		case <-idle:
		case <-ctx.Done():
			return &Error{Op: "flush", Err: fmt.Errorf("%d records undelivered: %w", pending, context.Cause(ctx))}
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// deliveryError classifies a failed delivery. A record librdkafka purged
// from its queues failed because of something else: the producer's fatal
// error when there is one (fencing purges the queues), otherwise an abort.
func (p *Producer) deliveryError(err error) error {
	var ke kafka.Error
	if errors.As(err, &ke) && (ke.Code() == kafka.ErrPurgeQueue || ke.Code() == kafka.ErrPurgeInflight) {
		if fatal := p.p.GetFatalError(); fatal != nil {
			return classify("send", fatal)
		}
		return &Error{Op: "send", Class: ErrAbortable, Err: err}
	}
	return classify("send", err)
}

// CommitTransaction ends the epoch under exactly_once_v2: it flushes, adds
// the consumed offsets (the next offset to read per input partition) to the
// transaction with the consumer's group metadata, and commits. Without an
// open transaction and without offsets it does nothing.
func (p *Producer) CommitTransaction(ctx context.Context, offsets []kafka.TopicPartition, group *kafka.ConsumerGroupMetadata) error {
	if p.closed.Load() {
		return closedError("commit")
	}
	if !p.eos {
		return &Error{Op: "commit", Err: errors.New("not a transactional producer")}
	}
	if !p.inTxn {
		if len(offsets) == 0 {
			return nil
		}
		if err := p.p.BeginTransaction(); err != nil {
			return classify("begin", err)
		}
		p.inTxn = true
	}
	if err := p.Flush(ctx); err != nil {
		return err
	}
	if len(offsets) > 0 {
		if err := retry(ctx, func(ctx context.Context) error { return p.p.SendOffsetsToTransaction(ctx, offsets, group) }); err != nil {
			return classify("send-offsets", err)
		}
	}
	if err := failpoint.Hit(failpoint.AfterSendOffsets); err != nil {
		return &Error{Op: "send-offsets", Class: ErrAbortable, Err: err}
	}
	if err := retry(ctx, p.p.CommitTransaction); err != nil {
		return classify("commit", err)
	}
	p.inTxn = false
	return nil
}

// AbortTransaction aborts the open transaction, if any, and forgets the
// epoch's delivery state.
func (p *Producer) AbortTransaction(ctx context.Context) error {
	if p.closed.Load() {
		return closedError("abort")
	}
	defer p.resetEpoch()
	if !p.eos || !p.inTxn {
		return nil
	}
	if err := retry(ctx, p.p.AbortTransaction); err != nil {
		return classify("abort", err)
	}
	p.inTxn = false
	// Purged records report their failure; wait for those reports so the
	// next epoch starts clean.
	p.waitIdle(ctx)
	return nil
}

func (p *Producer) waitIdle(ctx context.Context) {
	for {
		p.mu.Lock()
		pending, idle := p.mu.pending, p.mu.idle
		p.mu.Unlock()
		if pending == 0 {
			return
		}
		select {
		case <-idle:
		case <-ctx.Done():
			return
		}
	}
}

// TakeOffsets returns the offset of the last record delivered to each
// partition since the previous call, and forgets them.
func (p *Producer) TakeOffsets() map[TopicPartition]int64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := p.mu.offsets
	p.mu.offsets = map[TopicPartition]int64{}
	p.mu.err = nil
	return out
}

func (p *Producer) resetEpoch() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.mu.offsets = map[TopicPartition]int64{}
	p.mu.err = nil
}

// Client returns the underlying librdkafka producer, for metadata calls. It
// must not be used after Close.
func (p *Producer) Client() *kafka.Producer { return p.p }

// Close aborts an open transaction (bounded by ctx) and closes the producer;
// every later call returns ErrClosed. It returns the abort's error, if any:
// the broker then aborts the transaction itself when transaction.timeout.ms
// passes. Safe to call twice and concurrently; later calls return what the
// first did.
func (p *Producer) Close(ctx context.Context) error {
	p.closeMu.Do(func() {
		p.closed.Store(true)
		if p.eos && p.inTxn {
			if err := retry(ctx, p.p.AbortTransaction); err != nil {
				p.closeErr = classify("abort", err)
			}
			p.inTxn = false
		}
		close(p.stop)
		p.wg.Wait()
		p.p.Close()
	})
	return p.closeErr
}
