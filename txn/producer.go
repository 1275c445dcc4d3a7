package txn

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/stoatflow/stoatflow/internal/failpoint"
	"github.com/stoatflow/stoatflow/internal/groupoffsets"
)

// Error classes, checked with errors.Is.
var (
	// ErrFenced: another producer with the same transactional.id (a newer
	// instance of this thread, after a rebalance) took over. The thread's
	// tasks have migrated: drop every overlay, close the tasks without
	// committing, and rejoin. Kafka Streams calls this TaskMigratedException.
	ErrFenced = errors.New("txn: producer fenced by a newer instance")
	// ErrAbortable: the epoch failed (under exactly_once_v2 its transaction
	// must be aborted); the producer stays usable. Overlays are dropped and
	// the tasks rewind to their last committed offsets.
	ErrAbortable = errors.New("txn: epoch failed and was abandoned (under exactly_once_v2 its transaction aborted)")
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

// classify maps a franz-go or Kafka error onto StoatFlow's error classes.
// A context that ended is no class of its own: the caller knows why it
// ended.
func classify(op string, err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return &Error{Op: op, Err: err}
	}
	switch {
	case errors.Is(err, kerr.ProducerFenced), errors.Is(err, kerr.InvalidProducerEpoch),
		errors.Is(err, kerr.TransactionalIDAuthorizationFailed), errors.Is(err, kerr.FencedInstanceID),
		// The coordinator forgot the producer id (it expired): as Kafka
		// Streams does, a new producer takes over the tasks.
		errors.Is(err, kerr.InvalidProducerIDMapping), errors.Is(err, kerr.UnknownProducerID):
		return &Error{Op: op, Class: ErrFenced, Err: err}
	case errors.Is(err, kerr.TransactionAbortable), errors.Is(err, kgo.ErrRecordTimeout),
		errors.Is(err, kgo.ErrRecordRetries), errors.Is(err, kgo.ErrAborting),
		errors.Is(err, kerr.OperationNotAttempted), errors.Is(err, kerr.InvalidTxnState),
		errors.Is(err, kerr.ConcurrentTransactions),
		// The group moved on (a rebalance completed, the coordinator forgot
		// this member, or moved): the offsets cannot be committed in this
		// generation. The epoch aborts and the rebalance reassigns.
		errors.Is(err, kerr.IllegalGeneration), errors.Is(err, kerr.UnknownMemberID),
		errors.Is(err, kerr.RebalanceInProgress), errors.Is(err, kerr.StaleMemberEpoch),
		errors.Is(err, kerr.CoordinatorNotAvailable), errors.Is(err, kerr.CoordinatorLoadInProgress),
		errors.Is(err, kerr.NotCoordinator), errors.Is(err, kerr.UnknownServerError),
		errors.Is(err, kerr.RequestTimedOut), errors.Is(err, kerr.MessageTooLarge),
		errors.Is(err, kerr.RecordListTooLarge), errors.Is(err, kerr.UnknownTopicOrPartition),
		errors.Is(err, kerr.NotLeaderForPartition), errors.Is(err, kerr.NotEnoughReplicas),
		errors.Is(err, kerr.NotEnoughReplicasAfterAppend):
		// A record that timed out (the broker was away longer than
		// delivery.timeout.ms, bounded by transaction.timeout.ms under
		// exactly_once_v2) aborts the epoch: the tasks rewind and retry,
		// as Kafka Streams retries a timed-out send by re-initialising
		// the task, instead of stopping the application.
		return &Error{Op: op, Class: ErrAbortable, Err: err}
	case errors.Is(err, kerr.ClusterAuthorizationFailed), errors.Is(err, kerr.TopicAuthorizationFailed),
		errors.Is(err, kerr.GroupAuthorizationFailed), errors.Is(err, kerr.UnsupportedVersion),
		errors.Is(err, kerr.UnsupportedForMessageFormat), errors.Is(err, kgo.ErrClientClosed):
		return &Error{Op: op, Class: ErrFatal, Err: err}
	}
	return &Error{Op: op, Err: err}
}

// TopicPartition names a partition records were written to.
type TopicPartition struct {
	Topic     string
	Partition int32
}

// Offset is a consumed position to commit: the next offset to read of one
// input partition, with the metadata committed alongside it.
type Offset struct {
	Topic     string
	Partition int32
	Offset    int64
	Metadata  string
}

// GroupMetadata is what the group coordinator checks of an offset commit
// (KIP-447): a commit of a member that left, or of an older generation, is
// refused, so a zombie cannot commit.
type GroupMetadata struct {
	Group      string
	MemberID   string
	Generation int32
	InstanceID *string
}

// Header is a record header.
type Header struct {
	Key   string
	Value []byte
}

// Producer is one stream thread's producer. Under exactly_once_v2 it is
// transactional: the first Send of an epoch begins a transaction and Commit
// ends it together with the consumed offsets. Every delivered record's offset
// is tracked per partition, so after a commit the runtime knows the last
// changelog offset each store must record.
//
// Send, Flush, Commit and Abort are called by the owning stream thread only.
type Producer struct {
	cl       *kgo.Client
	eos      bool
	inTxn    bool
	outcome  Outcome // of the last commit whose answer was lost
	closeMu  sync.Once
	closeErr error
	closed   atomic.Bool
	// promise is the one delivery callback of every record.
	promise func(*kgo.Record, error)
	ids     topicIDs
	// life is the context of every record: franz-go fails a buffered
	// record whose context ends, and a record must outlive the wait of the
	// Send that buffered it. Close ends it.
	life     context.Context
	stopLife context.CancelFunc
	// maxBuffered is the client's MaxBufferedRecords: Send waits for room
	// below it itself, so that only its ctx bounds the wait.
	maxBuffered int
	// batchBytes is batch.size when records linger (BatchBytes), else -1.
	// franz-go cuts a batch only at max.request.size, so a lingering
	// partition would otherwise hold its records until linger.ms or the
	// epoch's flush, and the commit would wait for all of them at once:
	// Send counts each partition's bytes since the last send (lingering,
	// owner thread only) and sends what is buffered once one reaches
	// batchBytes, as the Java producer sends a full batch.
	batchBytes int
	lingering  map[TopicPartition]int

	// maxRequest is max.request.size (kgo.ProducerBatchMaxBytes): Send
	// refuses a larger record before it enters the epoch, as the Java
	// producer's send does.
	maxRequest int

	mu struct {
		sync.Mutex
		pending int
		idle    chan struct{} // closed when pending drops to 0
		// err is the epoch's first delivery error (a record's, or the
		// buffer staying full); failed lists the records that failed, up
		// to maxFailed, for TakeFailed.
		err       error
		failed    []Failed
		delivered int // records delivered in the epoch
		offsets   map[TopicPartition]int64
	}
}

// maxFailed bounds the failed records an epoch keeps: past it the epoch's
// error stands for the rest.
const maxFailed = 10000

// Failed is a record that was not written, with its error.
type Failed struct {
	Topic      string
	Partition  int32
	Key, Value []byte
	Timestamp  int64
	Headers    []Header
	// Origin is the Tag of the Origin the record was sent with; nil for
	// one sent without.
	Origin any
	Err    error
}

// Origin tags the records of one writer (a task), so that a record that
// fails can be traced back to it (Failed.Origin). It becomes the records'
// context in franz-go, one that never ends: Close still fails whatever is
// buffered. A writer keeps one and passes it with every record (SendFrom).
type Origin struct{ Tag any }

// Deadline reports no deadline.
func (*Origin) Deadline() (time.Time, bool) { return time.Time{}, false }

// Done returns nil: an Origin never ends.
func (*Origin) Done() <-chan struct{} { return nil }

// Err returns nil.
func (*Origin) Err() error { return nil }

// Value returns nil.
func (*Origin) Value(any) any { return nil }

// RecordTooLargeError is a record Send refused before sending it: its
// size as the Java producer estimates it is over max.request.size. It
// matches kerr.MessageTooLarge.
type RecordTooLargeError struct {
	Size, Max int
}

func (e *RecordTooLargeError) Error() string {
	return fmt.Sprintf("The message is %d bytes when serialized which is larger than %d, which is the value of the max.request.size configuration.", e.Size, e.Max)
}

// Is makes the error match kerr.MessageTooLarge.
func (e *RecordTooLargeError) Is(target error) bool { return target == kerr.MessageTooLarge }

// ProducerOpt configures a Producer beyond its franz-go options.
type ProducerOpt func(*Producer)

// BatchBytes is the Java producer's batch.size: while records linger
// (kgo.ProducerLinger above zero), a partition that has buffered n bytes is
// sent at once instead of waiting out the linger; 0 sends every record at
// once, as batch.size=0 does. Without it, or with n below zero, records
// wait out the linger (or the next Flush).
func BatchBytes(n int) ProducerOpt { return func(p *Producer) { p.batchBytes = n } }

// NewProducer creates a producer from franz-go options. eos selects
// exactly_once_v2; then opts must carry kgo.TransactionalID, and Init must be
// called before the first Send. Records go to the partition Send names: the
// producer appends kgo.ManualPartitioner.
func NewProducer(opts []kgo.Opt, eos bool, popts ...ProducerOpt) (*Producer, error) {
	all := append(append([]kgo.Opt(nil), opts...), kgo.RecordPartitioner(kgo.ManualPartitioner()))
	cl, err := kgo.NewClient(all...)
	if err != nil {
		return nil, &Error{Op: "create", Class: ErrFatal, Err: err}
	}
	p := &Producer{cl: cl, eos: eos, batchBytes: -1}
	for _, o := range popts {
		o(p)
	}
	p.life, p.stopLife = context.WithCancel(context.Background())
	if linger, _ := cl.OptValue(kgo.ProducerLinger).(time.Duration); linger <= 0 {
		p.batchBytes = -1 // nothing lingers: franz-go sends as soon as it can
	}
	if p.batchBytes >= 0 {
		p.lingering = map[TopicPartition]int{}
	}
	p.maxBuffered = 50000
	if n, ok := cl.OptValue(kgo.MaxBufferedRecords).(int64); ok && n > 0 {
		p.maxBuffered = int(n)
	} else if n, ok := cl.OptValue(kgo.MaxBufferedRecords).(int); ok && n > 0 {
		p.maxBuffered = n
	}
	p.maxRequest = 1000012 // franz-go's default
	if n, ok := cl.OptValue(kgo.ProducerBatchMaxBytes).(int32); ok && n > 0 {
		p.maxRequest = int(n)
	}
	p.mu.offsets = map[TopicPartition]int64{}
	p.promise = p.done
	return p, nil
}

// Init registers the transactional.id with the coordinator (InitProducerId),
// fencing any older producer with the same id and aborting its open
// transaction.
func (p *Producer) Init(ctx context.Context) error {
	if p.closed.Load() {
		return closedError("init")
	}
	if !p.eos {
		return nil
	}
	// A broker that is not reachable yet (starting, restarting) fails the
	// request at once; the coordinator may be loading. Both pass: retry
	// until ctx ends, unless Kafka's answer is final.
	backoff := 50 * time.Millisecond
	for {
		_, _, err := p.cl.ProducerID(ctx)
		if err == nil {
			return nil
		}
		var ke *kerr.Error
		if (errors.As(err, &ke) && !ke.Retriable) || ctx.Err() != nil {
			return classify("init", withCause(ctx, err))
		}
		if werr := sleep(ctx, backoff); werr != nil {
			return classify("init", fmt.Errorf("%w; gave up: %w", err, werr))
		}
		backoff = min(2*backoff, time.Second)
	}
}

// withCause adds ctx's cause to an error that ctx's end caused: franz-go
// returns only the context's error.
func withCause(ctx context.Context, err error) error {
	if err == nil || ctx.Err() == nil {
		return err
	}
	if cause := context.Cause(ctx); cause != ctx.Err() {
		return fmt.Errorf("%w; gave up: %w", err, cause)
	}
	return err
}

func closedError(op string) error { return fmt.Errorf("txn: %s: %w", op, ErrClosed) }

func (p *Producer) begin() error {
	if err := p.cl.BeginTransaction(); err != nil {
		return classify("begin", err)
	}
	p.inTxn = true
	return nil
}

// Send writes one record to partition (which must be set: the caller
// chooses partitions). Under exactly_once_v2 it begins the epoch's
// transaction if none is open. While the producer's buffer is full Send
// waits for room until ctx ends; the record then fails, and with it the
// epoch's next Flush.
func (p *Producer) Send(ctx context.Context, topic string, partition int32, key, value []byte, timestamp int64, headers []Header) error {
	return p.SendFrom(ctx, nil, topic, partition, key, value, timestamp, headers)
}

// SendFrom is Send with the writer's Origin, which a failed record carries
// (TakeFailed). A record larger than max.request.size (as the Java producer
// estimates it) is not sent: it fails at once with a *RecordTooLargeError,
// without touching the epoch's transaction.
func (p *Producer) SendFrom(ctx context.Context, origin *Origin, topic string, partition int32, key, value []byte, timestamp int64, headers []Header) error {
	if p.closed.Load() {
		return closedError("send")
	}
	if partition < 0 {
		return &Error{Op: "send", Err: fmt.Errorf("record for %s has no partition", topic)}
	}
	if p.eos && !p.inTxn {
		if err := p.begin(); err != nil {
			return err
		}
	}
	if size := recordSizeUpperBound(key, value, headers); size > p.maxRequest {
		p.failBeforeSend(Failed{Topic: topic, Partition: partition, Key: key, Value: value, Timestamp: timestamp,
			Headers: headers, Err: &RecordTooLargeError{Size: size, Max: p.maxRequest}}, origin)
		return nil
	}
	r := &kgo.Record{Topic: topic, Partition: partition, Key: key, Value: value}
	if origin != nil {
		r.Context = origin
	}
	if timestamp >= 0 {
		r.Timestamp = unixMilli(timestamp)
	}
	if len(headers) > 0 {
		r.Headers = make([]kgo.RecordHeader, len(headers))
		for i, h := range headers {
			r.Headers[i] = kgo.RecordHeader{Key: h.Key, Value: h.Value}
		}
	}
	if err := p.waitRoom(ctx); err != nil {
		return err
	}
	p.mu.Lock()
	if p.mu.pending == 0 {
		p.mu.idle = make(chan struct{})
	}
	p.mu.pending++
	p.mu.Unlock()
	p.cl.Produce(p.life, r, p.promise)
	if p.batchBytes >= 0 {
		p.countLingering(TopicPartition{topic, partition}, len(key)+len(value))
	}
	return nil
}

// countLingering adds a record's bytes to its partition's and sends what
// is buffered once the partition holds a batch's worth.
func (p *Producer) countLingering(tp TopicPartition, n int) {
	n += p.lingering[tp]
	if n < p.batchBytes {
		p.lingering[tp] = n
		return
	}
	clear(p.lingering) // every partition's records go out
	// franz-go's Flush ends the linger of every partition and starts
	// sending; on an ended context it returns at once, and the records
	// produced after it linger again. Waiting it out instead would send
	// every record produced meanwhile at once, in batches of a few records,
	// until all are acknowledged.
	_ = p.cl.Flush(ended)
}

// ended is a context that has ended.
var ended = func() context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	return ctx
}()

// waitRoom waits until the producer's buffer has room for a record, or ctx
// ends: then the Send fails, and the epoch cannot commit.
func (p *Producer) waitRoom(ctx context.Context) error {
	for {
		p.mu.Lock()
		full := p.mu.pending >= p.maxBuffered
		idle := p.mu.idle
		p.mu.Unlock()
		if !full {
			return nil
		}
		if ctx.Err() != nil {
			err := fmt.Errorf("the producer's buffer stayed full (%d records; the broker takes records slower than they come): %w",
				p.maxBuffered, context.Cause(ctx))
			p.mu.Lock()
			if p.mu.err == nil {
				p.mu.err = err
			}
			p.mu.Unlock()
			return &Error{Op: "send", Err: err}
		}
		// Deliveries come back a batch at a time: look again soon.
		t := time.NewTimer(time.Millisecond)
		select {
		case <-ctx.Done():
		case <-idle:
		case <-t.C:
		}
		t.Stop()
	}
}

// InTransaction reports whether a transaction is open.
func (p *Producer) InTransaction() bool { return p.inTxn }

// done is every record's promise.
func (p *Producer) done(r *kgo.Record, err error) {
	tp := TopicPartition{Topic: r.Topic, Partition: r.Partition}
	offset := r.Offset
	p.mu.Lock()
	defer p.mu.Unlock()
	if err != nil {
		if p.mu.err == nil {
			p.mu.err = err
		}
		if len(p.mu.failed) < maxFailed && !errors.Is(err, kgo.ErrAborting) {
			f := Failed{Topic: r.Topic, Partition: r.Partition, Key: r.Key, Value: r.Value, Timestamp: r.Timestamp.UnixMilli(), Err: err}
			for _, h := range r.Headers {
				f.Headers = append(f.Headers, Header{Key: h.Key, Value: h.Value})
			}
			if o, ok := r.Context.(*Origin); ok {
				f.Origin = o.Tag
			}
			p.mu.failed = append(p.mu.failed, f)
		}
	}
	if err == nil {
		p.mu.delivered++
		if offset >= 0 {
			if cur, ok := p.mu.offsets[tp]; !ok || offset > cur {
				p.mu.offsets[tp] = offset
			}
		}
	}
	p.mu.pending--
	if p.mu.pending == 0 {
		close(p.mu.idle)
	}
}

// failBeforeSend records a record that failed before it was sent.
func (p *Producer) failBeforeSend(f Failed, origin *Origin) {
	if origin != nil {
		f.Origin = origin.Tag
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.mu.err == nil {
		p.mu.err = f.Err
	}
	if len(p.mu.failed) < maxFailed {
		p.mu.failed = append(p.mu.failed, f)
	}
}

// TakeFailed returns the records of the epoch that failed, in the order
// their failures came, and forgets them and the epoch's error, so that the
// epoch can still commit: the caller has decided to go on without them
// (a production exception handler's RESUME). It returns nil when the
// epoch's error is not a record's (the buffer stayed full, the producer
// closed) or when more records failed than were kept: then the epoch
// cannot commit.
func (p *Producer) TakeFailed() []Failed {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.mu.failed) == 0 || len(p.mu.failed) >= maxFailed || p.mu.err != p.mu.failed[0].Err {
		return nil
	}
	out := p.mu.failed
	p.mu.failed, p.mu.err = nil, nil
	return out
}

// recordSizeUpperBound is the Java producer's estimate of a record's size
// in a batch of its own, uncompressed (AbstractRecords'
// estimateSizeInBytesUpperBound for magic 2): the batch header, the
// record's largest overhead, then key, value and headers with their
// lengths.
func recordSizeUpperBound(key, value []byte, headers []Header) int {
	const batchHeader, maxRecordOverhead = 61, 21
	bytesOf := func(b []byte) int {
		if b == nil {
			return 1 // varint -1
		}
		return varintSize(len(b)) + len(b)
	}
	n := batchHeader + maxRecordOverhead + bytesOf(key) + bytesOf(value) + varintSize(len(headers))
	for _, h := range headers {
		n += varintSize(len(h.Key)) + len(h.Key) + bytesOf(h.Value)
	}
	return n
}

// varintSize is the length of n as a zig-zag varint.
func varintSize(n int) int {
	v := uint64(uint32((n << 1) ^ (n >> 31)))
	size := 1
	for v >= 0x80 {
		v >>= 7
		size++
	}
	return size
}

// Flush sends everything buffered and waits for every delivery. It returns
// the epoch's first delivery error, classified.
func (p *Producer) Flush(ctx context.Context) error {
	if p.closed.Load() {
		return closedError("flush")
	}
	// An epoch whose buffer stayed full cannot commit: say so at once. One
	// with failed records waits for the rest, so that TakeFailed has them
	// all.
	p.mu.Lock()
	err, recordFailed := p.mu.err, len(p.mu.failed) > 0
	p.mu.Unlock()
	if err != nil && !recordFailed {
		return p.deliveryError(err)
	}
	if err := p.cl.Flush(ctx); err != nil {
		p.mu.Lock()
		pending, derr := p.mu.pending, p.mu.err
		p.mu.Unlock()
		if derr != nil {
			// The record that failed is what held the flush up.
			return p.deliveryError(derr)
		}
		return &Error{Op: "flush", Err: fmt.Errorf("%d records undelivered: %w", pending, withCause(ctx, err))}
	}
	p.waitIdle(ctx)
	p.mu.Lock()
	pending := 0
	err, pending = p.mu.err, p.mu.pending
	p.mu.Unlock()
	if err != nil {
		return p.deliveryError(err)
	}
	if pending > 0 {
		return &Error{Op: "flush", Err: fmt.Errorf("%d records undelivered: %w", pending, context.Cause(ctx))}
	}
	return nil
}

// deliveryError classifies a failed delivery. A record that failed because
// the send's context ended (the buffer stayed full) says so; the epoch
// cannot commit without it.
func (p *Producer) deliveryError(err error) error {
	var te *Error
	if errors.As(err, &te) {
		return err
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		// The producer closed under its records.
		return &Error{Op: "send", Err: fmt.Errorf("record not delivered: %w", err)}
	}
	e := classify("send", err)
	if p.eos && errors.As(e, &te) && te.Class == nil {
		// Any failed record of a transaction dooms it: franz-go refuses
		// to commit it.
		te.Class = ErrAbortable
	}
	return e
}

// CommitTransaction ends the epoch under exactly_once_v2: it flushes, adds
// the consumed offsets (the next offset to read per input partition) to the
// transaction with the consumer's group metadata, and commits. Without an
// open transaction and without offsets it does nothing.
//
// When the epoch wrote no record, there is no data the offsets must be
// atomic with: they are committed to the group directly, still carrying the
// member id and generation, so a zombie is refused as in a transaction.
func (p *Producer) CommitTransaction(ctx context.Context, offsets []Offset, group GroupMetadata) error {
	if p.closed.Load() {
		return closedError("commit")
	}
	if !p.eos {
		return &Error{Op: "commit", Err: errors.New("not a transactional producer")}
	}
	if !p.inTxn && len(offsets) == 0 {
		return nil
	}
	if err := p.Flush(ctx); err != nil {
		return err
	}
	p.mu.Lock()
	wrote := p.mu.delivered > 0
	p.mu.Unlock()
	if len(offsets) > 0 {
		if wrote {
			if err := p.sendOffsets(ctx, offsets, group); err != nil {
				return beforeCommit(ctx, err)
			}
		} else if err := commitOffsets(ctx, p.cl, &p.ids, offsets, group); err != nil {
			return beforeCommit(ctx, err)
		}
	}
	if err := failpoint.Hit(failpoint.AfterSendOffsets); err != nil {
		return &Error{Op: "send-offsets", Class: ErrAbortable, Err: err}
	}
	if p.inTxn {
		if err := p.cl.EndTransaction(ctx, kgo.TryCommit); err != nil {
			err = withCause(ctx, err)
			if !wrote || len(offsets) == 0 || !outcomeUnknown(ctx, err) {
				return classify("commit", err)
			}
			if err := p.resolveCommit(ctx, offsets, group, err); err != nil {
				return err
			}
		}
	}
	p.inTxn = false
	p.mu.Lock()
	p.mu.delivered = 0
	p.mu.Unlock()
	return nil
}

// beforeCommit classifies a failure of an exactly_once_v2 epoch before its
// commit was sent: one of no class of its own (a broken connection, a
// retriable error that outlived franz-go's retries, the commit's deadline)
// aborts the epoch, which is always safe then, where it would otherwise
// stop the thread: nothing of the epoch can have committed. A cancelled
// context (a shutdown) keeps no class.
func beforeCommit(ctx context.Context, err error) error {
	var te *Error
	if errors.As(err, &te) && te.Class == nil && !errors.Is(ctx.Err(), context.Canceled) {
		te.Class = ErrAbortable
	}
	return err
}

// Outcome is what became of a commit whose answer was lost (CommitStats.Outcome).
type Outcome string

const (
	// OutcomeAnswered: the coordinator answered the commit, or no commit was sent.
	OutcomeAnswered Outcome = ""
	// OutcomeCommitted: the answer was lost and the group's committed
	// offsets showed that the transaction committed.
	OutcomeCommitted Outcome = "committed"
	// OutcomeAborted: the answer was lost and the transaction did not commit.
	OutcomeAborted Outcome = "aborted"
)

// resolveTimeout bounds how long a commit whose answer was lost waits to
// learn its outcome: longer than transaction.timeout.ms, after which the
// coordinator aborts a transaction still open.
const resolveTimeout = 2 * time.Minute

// outcomeUnknown reports whether an EndTxn(commit) that failed with err may
// have committed all the same: its request may have reached the
// coordinator and its answer been lost (a broken connection, a deadline,
// a retriable error that outlived franz-go's retries, UNKNOWN_SERVER_ERROR).
// A definitive answer (fenced, an invalid state) and a commit franz-go did
// not attempt (OPERATION_NOT_ATTEMPTED) are not; nor is one the caller
// cancelled, which stops the thread anyway.
func outcomeUnknown(ctx context.Context, err error) bool {
	if errors.Is(ctx.Err(), context.Canceled) || errors.Is(err, kgo.ErrClientClosed) {
		return false
	}
	var ke *kerr.Error
	if errors.As(err, &ke) {
		return ke.Retriable || ke.Code == kerr.UnknownServerError.Code
	}
	return true
}

// resolveCommit finds out what became of a transaction whose commit was
// sent without an answer. Stores must commit exactly when the transaction
// did: taking a committed epoch for an aborted one would rewind the tasks
// over stores that lack what the changelog and the output hold (and count
// the epoch's input twice); the other way round, the stores would hold
// writes no output does.
//
// EndTransaction(TryAbort) after an unconfirmed commit makes franz-go
// reload the producer id: InitProducerId bumps the epoch, and the
// coordinator aborts the transaction if it is still open, while one that
// committed stays committed. The group's committed offsets, read with
// require_stable (which waits while a transaction holds them), then tell:
// the transaction committed exactly when they are this epoch's offsets,
// which it alone could have written while this member held their
// partitions. Nil means it committed; an ErrAbortable error that it did
// not; ErrFatal that the outcome stayed unknown (the abort was fenced or
// failed for good, or the offsets could not be read within
// resolveTimeout): the thread then stops, and a restart restores the
// stores from their changelogs.
func (p *Producer) resolveCommit(ctx context.Context, offsets []Offset, group GroupMetadata, cause error) error {
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), resolveTimeout)
	defer cancel()
	stop := context.AfterFunc(ctx, func() {
		if errors.Is(ctx.Err(), context.Canceled) {
			cancel() // a shutdown, not the commit's deadline
		}
	})
	defer stop()
	p.inTxn = false
	if err := p.cl.EndTransaction(rctx, kgo.TryAbort); err != nil {
		if e := classify("commit", err); errors.Is(e, ErrFenced) || errors.Is(e, ErrFatal) {
			// Fenced or broken before the outcome is known: the
			// transaction may have committed, so rolling the stores
			// back (as a fence does) could lose its writes. Stop;
			// a restart restores the stores from their changelogs.
			return &Error{Op: "commit", Class: ErrFatal,
				Err: fmt.Errorf("the commit was sent and its answer lost (%w); its outcome is unknown: aborting it failed: %w", cause, err)}
		}
		// A transient failure: the open transaction, if any, is aborted
		// by the coordinator within transaction.timeout.ms, which the
		// stable read below waits out.
	}
	committed, err := stableOffsets(rctx, p.cl, group.Group, offsets)
	if err != nil {
		return &Error{Op: "commit", Class: ErrFatal,
			Err: fmt.Errorf("the commit was sent and its answer lost (%w); its outcome is unknown: reading group %s's committed offsets: %w", cause, group.Group, err)}
	}
	for _, o := range offsets {
		c, ok := committed[o.Topic][o.Partition]
		if !ok || c.Offset != o.Offset || c.Metadata != o.Metadata {
			p.outcome = OutcomeAborted
			return &Error{Op: "commit", Class: ErrAbortable,
				Err: fmt.Errorf("the commit was sent and its answer lost (%w); the group's committed offsets show it did not commit (%s [%d] at %d, the epoch's %d)",
					cause, o.Topic, o.Partition, c.Offset, o.Offset)}
		}
	}
	p.outcome = OutcomeCommitted
	return nil
}

// stableOffsets reads group's committed offsets of the partitions of
// offsets with require_stable, asking again while a transaction holds
// them (UNSTABLE_OFFSET_COMMIT) or the coordinator is away, until ctx ends.
// Only those partitions are asked for: another instance's open
// transaction holding offsets of the group's other partitions does not
// hold the answer up.
func stableOffsets(ctx context.Context, cl *kgo.Client, group string, offsets []Offset) (groupoffsets.Offsets, error) {
	parts := map[string][]int32{}
	for _, o := range offsets {
		parts[o.Topic] = append(parts[o.Topic], o.Partition)
	}
	for {
		resp, err := groupoffsets.Fetch(ctx, cl, group, parts, true)
		if err == nil {
			err = resp.Err()
		}
		if err == nil {
			return resp, nil
		}
		if errors.Is(err, kerr.GroupIDNotFound) {
			// A group that never committed (some coordinators answer so
			// where Kafka's answers no offset).
			return groupoffsets.Offsets{}, nil
		}
		var ke *kerr.Error
		if errors.As(err, &ke) && !ke.Retriable && !errors.Is(err, kerr.UnstableOffsetCommit) {
			return nil, err
		}
		if serr := sleep(ctx, 200*time.Millisecond); serr != nil {
			return nil, fmt.Errorf("%w (last error: %w)", serr, err)
		}
	}
}

// TakeOutcome returns what became of the last commit whose answer was lost
// (OutcomeAnswered when none was), and forgets it.
func (p *Producer) TakeOutcome() Outcome {
	o := p.outcome
	p.outcome = OutcomeAnswered
	return o
}

// sendOffsets adds the group's offsets partition to the transaction
// (AddOffsetsToTxn) and writes the offsets into it (TxnOffsetCommit, with
// the member id, generation and instance id of KIP-447).
func (p *Producer) sendOffsets(ctx context.Context, offsets []Offset, group GroupMetadata) error {
	id, epoch, err := p.cl.ProducerID(ctx)
	if err != nil {
		return classify("send-offsets", withCause(ctx, err))
	}
	txnID := p.transactionalID()
	add := kmsg.NewPtrAddOffsetsToTxnRequest()
	add.TransactionalID, add.ProducerID, add.ProducerEpoch, add.Group = txnID, id, epoch, group.Group
	for {
		resp, err := add.RequestWith(ctx, p.cl)
		if err != nil {
			return classify("send-offsets", withCause(ctx, err))
		}
		err = kerr.ErrorForCode(resp.ErrorCode)
		if errors.Is(err, kerr.ConcurrentTransactions) && ctx.Err() == nil {
			// The previous transaction's markers are still being written.
			if werr := sleep(ctx, concurrentTxnBackoff); werr == nil {
				continue
			}
		}
		if err != nil {
			return classify("send-offsets", withCause(ctx, err))
		}
		break
	}
	req := kmsg.NewPtrTxnOffsetCommitRequest()
	req.TransactionalID, req.Group, req.ProducerID, req.ProducerEpoch = txnID, group.Group, id, epoch
	req.Generation, req.MemberID, req.InstanceID = group.Generation, group.MemberID, group.InstanceID
	ids, err := p.ids.lookup(ctx, p.cl, offsets)
	if err != nil {
		return classify("send-offsets", withCause(ctx, err))
	}
	req.Topics = txnTopics(offsets, ids)
	resp, err := req.RequestWith(ctx, p.cl)
	if err != nil {
		return classify("send-offsets", withCause(ctx, err))
	}
	for _, t := range resp.Topics {
		for _, pt := range t.Partitions {
			if err := kerr.ErrorForCode(pt.ErrorCode); err != nil {
				if errors.Is(err, kerr.UnknownTopicID) {
					p.ids.forget()
				}
				return classify("send-offsets", fmt.Errorf("%s [%d]: %w", topicName(t.Topic, t.TopicID, ids), pt.Partition, err))
			}
		}
	}
	return nil
}

func txnTopics(offsets []Offset, ids map[string][16]byte) []kmsg.TxnOffsetCommitRequestTopic {
	idx := map[string]int{}
	var out []kmsg.TxnOffsetCommitRequestTopic
	for _, o := range offsets {
		i, ok := idx[o.Topic]
		if !ok {
			i = len(out)
			idx[o.Topic] = i
			t := kmsg.NewTxnOffsetCommitRequestTopic()
			t.Topic, t.TopicID = o.Topic, ids[o.Topic]
			out = append(out, t)
		}
		pt := kmsg.NewTxnOffsetCommitRequestTopicPartition()
		pt.Partition, pt.Offset, pt.LeaderEpoch = o.Partition, o.Offset, -1
		md := o.Metadata
		pt.Metadata = &md
		out[i].Partitions = append(out[i].Partitions, pt)
	}
	return out
}

// CommitOffsets commits offsets to the group outside any transaction
// (at_least_once, or an exactly_once_v2 epoch that wrote nothing), as the
// member and generation of group: a member that left or an older generation
// is refused. cl sends the request to the group's coordinator.
func CommitOffsets(ctx context.Context, cl *kgo.Client, offsets []Offset, group GroupMetadata) error {
	var ids topicIDs
	return commitOffsets(ctx, cl, &ids, offsets, group)
}

func commitOffsets(ctx context.Context, cl *kgo.Client, cache *topicIDs, offsets []Offset, group GroupMetadata) error {
	ids, err := cache.lookup(ctx, cl, offsets)
	if err != nil {
		return classify("commit-offsets", withCause(ctx, err))
	}
	req := kmsg.NewPtrOffsetCommitRequest()
	req.Group, req.Generation, req.MemberID, req.InstanceID = group.Group, group.Generation, group.MemberID, group.InstanceID
	idx := map[string]int{}
	for _, o := range offsets {
		i, ok := idx[o.Topic]
		if !ok {
			i = len(req.Topics)
			idx[o.Topic] = i
			t := kmsg.NewOffsetCommitRequestTopic()
			t.Topic, t.TopicID = o.Topic, ids[o.Topic]
			req.Topics = append(req.Topics, t)
		}
		pt := kmsg.NewOffsetCommitRequestTopicPartition()
		pt.Partition, pt.Offset, pt.LeaderEpoch = o.Partition, o.Offset, -1
		md := o.Metadata
		pt.Metadata = &md
		req.Topics[i].Partitions = append(req.Topics[i].Partitions, pt)
	}
	resp, err := req.RequestWith(ctx, cl)
	if err != nil {
		return classify("commit-offsets", withCause(ctx, err))
	}
	for _, t := range resp.Topics {
		for _, pt := range t.Partitions {
			if err := kerr.ErrorForCode(pt.ErrorCode); err != nil {
				if errors.Is(err, kerr.UnknownTopicID) {
					cache.forget()
				}
				return classify("commit-offsets", fmt.Errorf("%s [%d]: %w", topicName(t.Topic, t.TopicID, ids), pt.Partition, err))
			}
		}
	}
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
	if err := p.abort(ctx); err != nil {
		return err
	}
	p.inTxn = false
	return nil
}

// abort drops every buffered record (their deliveries fail) and ends the
// transaction with an abort.
func (p *Producer) abort(ctx context.Context) error {
	if err := p.cl.AbortBufferedRecords(ctx); err != nil {
		return classify("abort", withCause(ctx, err))
	}
	p.waitIdle(ctx)
	if err := p.cl.EndTransaction(ctx, kgo.TryAbort); err != nil {
		return classify("abort", withCause(ctx, err))
	}
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
	p.mu.err, p.mu.failed = nil, nil
	p.mu.delivered = 0
	return out
}

func (p *Producer) resetEpoch() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.mu.offsets = map[TopicPartition]int64{}
	p.mu.err, p.mu.failed = nil, nil
	p.mu.delivered = 0
}

// Client returns the underlying franz-go client, for metadata and admin
// requests. It must not be used after Close.
func (p *Producer) Client() *kgo.Client { return p.cl }

// Close aborts an open transaction (bounded by ctx) and closes the producer;
// every later call returns ErrClosed. It returns the abort's error, if any:
// the broker then aborts the transaction itself when transaction.timeout.ms
// passes. Safe to call twice and concurrently; later calls return what the
// first did.
func (p *Producer) Close(ctx context.Context) error {
	p.closeMu.Do(func() {
		p.closed.Store(true)
		if p.eos && p.inTxn {
			if err := p.abort(ctx); err != nil {
				p.closeErr = err
			}
			p.inTxn = false
		}
		if !p.eos {
			// Records still buffered cannot be delivered by a closed
			// client; fail them now rather than block.
			_ = p.cl.AbortBufferedRecords(ctx)
		}
		p.stopLife()
		p.cl.Close()
	})
	return p.closeErr
}

// transactionalID is the id the client was configured with.
func (p *Producer) transactionalID() string {
	id, _ := p.cl.OptValue(kgo.TransactionalID).(string)
	return id
}

// concurrentTxnBackoff is the wait before asking again while the
// coordinator still completes the previous transaction.
const concurrentTxnBackoff = 20 * time.Millisecond

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return context.Cause(ctx)
	case <-t.C:
		return nil
	}
}

func unixMilli(ms int64) time.Time { return time.UnixMilli(ms) }

// topicName names a topic of a response, which carries its name or its id.
func topicName(name string, id [16]byte, ids map[string][16]byte) string {
	if name != "" {
		return name
	}
	for n, i := range ids {
		if i == id {
			return n
		}
	}
	return fmt.Sprintf("topic id %x", id)
}
