package kstreams

import (
	"errors"
	"time"
)

// Header is a record header.
type Header struct {
	Key   string
	Value []byte
}

// Record is a record flowing between processors. A nil Key or Value is Kafka's
// null. Keys and values are the typed Go values of the DSL (string, int64,
// Windowed[K], ...); serdes turn them into bytes at sources, sinks and stores.
type Record struct {
	Key       any
	Value     any
	Timestamp int64
	Headers   []Header
}

// RecordMetadata is the origin of the record being processed.
type RecordMetadata struct {
	Topic     string
	Partition int32
	Offset    int64
}

// TaskID names a task: its sub-topology and partition ("0_1").
type TaskID struct {
	Subtopology int
	Partition   int32
}

// String formats the id as Kafka does: <subtopology>_<partition>.
func (id TaskID) String() string {
	return itoa(id.Subtopology) + "_" + itoa(int(id.Partition))
}

// Processor is one node of the Processor API. Init is called once before the
// first record, Close once at the end. A processor is owned by one task and is
// never called concurrently.
type Processor interface {
	Init(ctx ProcessorContext) error
	Process(r Record) error
	Close() error
}

// ProcessorContext is a processor's view of its task.
type ProcessorContext interface {
	// Forward sends r to every child of the current processor.
	Forward(r Record) error
	// ForwardTo sends r to the named child only.
	ForwardTo(child string, r Record) error
	ProcessingContext
}

// ProcessingContext is what the context of every kind of processor gives
// besides forwarding, Kafka's ProcessingContext: ProcessorContext,
// FixedKeyProcessorContext, TypedContext and TypedFixedKeyContext are it
// with a Forward of their records.
type ProcessingContext interface {
	// StateStore returns a store connected to the current processor.
	StateStore(name string) (StateStore, error)
	// RecordMetadata is the topic, partition and offset of the input record
	// being processed; ok is false outside of Process (e.g. punctuation).
	RecordMetadata() (md RecordMetadata, ok bool)
	// StreamTime is the task's stream time: the largest record timestamp it
	// has processed, or -1 before any.
	StreamTime() int64
	TaskID() TaskID
	ApplicationID() string
	// AppConfigs is the application's configuration (Kafka's
	// appConfigs()): every property as given, the application's own keys
	// among them, with every Kafka Streams key at its effective value
	// (compat.Config.AppConfigs). The map is the caller's.
	AppConfigs() map[string]string
	// AppConfigsWithPrefix is the part of AppConfigs whose keys start with
	// prefix, the prefix cut off (Kafka's appConfigsWithPrefix).
	AppConfigsWithPrefix(prefix string) map[string]string
	// RecordDropped counts a record the processor skipped (Kafka's
	// dropped-records sensor), with the reason.
	RecordDropped(reason string)
	// Schedule calls fn every interval of stream time or wall-clock time
	// (Kafka's ProcessorContext.schedule). fn runs with this processor's
	// context: what it forwards goes to the processor's children, stamped
	// with the punctuation time.
	Schedule(interval time.Duration, typ PunctuationType, fn func(ts int64) error) (Cancellable, error)
	// Commit asks for a commit once the current record or punctuation is
	// done (Kafka's ProcessorContext.commit): the thread commits after the
	// batch it is processing instead of waiting for commit.interval.ms.
	// Under exactly_once_v2 that ends the thread's transaction.
	Commit()
}

// ProcessorFunc adapts a function to a stateless Processor.
type ProcessorFunc func(ctx ProcessorContext, r Record) error

type funcProcessor struct {
	ctx ProcessorContext
	fn  ProcessorFunc
}

func (p *funcProcessor) Init(ctx ProcessorContext) error { p.ctx = ctx; return nil }
func (p *funcProcessor) Process(r Record) error          { return p.fn(p.ctx, r) }
func (p *funcProcessor) Close() error                    { return nil }

// Supplier returns a processor supplier whose processors call fn: the
// supplier AddProcessor and Process take.
func (fn ProcessorFunc) Supplier() func() Processor { return stateless(fn) }

func stateless(fn ProcessorFunc) func() Processor {
	return func() Processor { return &funcProcessor{fn: fn} }
}

// ErrStoreNotConnected is returned by StateStore for a store the processor
// has no access to.
var ErrStoreNotConnected = errors.New("kstreams: state store not connected to processor")

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	neg := i < 0
	if neg {
		i = -i
	}
	var b [20]byte
	p := len(b)
	for i > 0 {
		p--
		b[p] = byte('0' + i%10)
		i /= 10
	}
	if neg {
		p--
		b[p] = '-'
	}
	return string(b[p:])
}
