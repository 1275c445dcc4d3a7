package kstreams

import "time"

const prefixProcessValues = "KSTREAM-PROCESSVALUES-"

// FixedKeyRecord is the record a FixedKeyProcessor receives and forwards
// (Kafka's FixedKeyRecord): its value, timestamp and headers can change,
// its key cannot, so a stream after ProcessValues needs no repartitioning
// that the stream before it did not.
type FixedKeyRecord struct {
	key       any
	Value     any // nil is Kafka's null
	Timestamp int64
	Headers   []Header
}

// Key returns the record's key (nil is Kafka's null).
func (r FixedKeyRecord) Key() any { return r.key }

// WithValue returns the record with value v: FixedKeyRecord.withValue.
func (r FixedKeyRecord) WithValue(v any) FixedKeyRecord { r.Value = v; return r }

// WithTimestamp returns the record with timestamp ts.
func (r FixedKeyRecord) WithTimestamp(ts int64) FixedKeyRecord { r.Timestamp = ts; return r }

// WithHeaders returns the record with headers h.
func (r FixedKeyRecord) WithHeaders(h []Header) FixedKeyRecord { r.Headers = h; return r }

// FixedKeyProcessor is a Processor API node that keeps each record's key:
// Kafka's FixedKeyProcessor.
type FixedKeyProcessor interface {
	Init(ctx FixedKeyProcessorContext) error
	Process(r FixedKeyRecord) error
	Close() error
}

// FixedKeyProcessorContext is what a FixedKeyProcessor sees of its task:
// ProcessorContext, with forwarding of FixedKeyRecords only.
type FixedKeyProcessorContext interface {
	// Forward sends r to every child of the processor.
	Forward(r FixedKeyRecord) error
	// ForwardTo sends r to the named child only.
	ForwardTo(child string, r FixedKeyRecord) error
	StateStore(name string) (StateStore, error)
	RecordMetadata() (md RecordMetadata, ok bool)
	StreamTime() int64
	TaskID() TaskID
	ApplicationID() string
	AppConfigs() map[string]string
	AppConfigsWithPrefix(prefix string) map[string]string
	RecordDropped(reason string)
	Schedule(interval time.Duration, typ PunctuationType, fn func(ts int64) error) (Cancellable, error)
	// Commit asks for a commit, as ProcessorContext.Commit.
	Commit()
}

// ProcessValues adds a Processor API node that transforms values and keeps
// keys: KStream.processValues. The processor receives K keys and V values
// and forwards VR values (VR comes first so that K and V are inferred:
// ProcessValues[int64](s, ...)); it can use the stores it names, added with
// AddStateStore. Unlike Process, it does not mark the stream for
// repartitioning; like it, a name given is taken as it is, and the value
// serde is not inherited.
func ProcessValues[VR, K, V any](s *KStream[K, V], supplier func() FixedKeyProcessor, named Named, stores ...string) *KStream[K, VR] {
	if supplier == nil {
		s.b.fail(errIllegalArgument("processorSupplier can't be null"))
		return derive[K, V, K, VR](s, s.name, s.key, serdeSpec{}, s.repartitionRequired)
	}
	name := string(named)
	s.b.fail(validateName(name))
	if name == "" {
		name = s.b.newProcessorName(prefixProcessValues)
	}
	s.b.addNode(&nodeSpec{name: name, kind: ProcessorNode, preds: []string{s.name},
		supplier: func() Processor { return &fixedKeyAdapter{p: supplier()} }})
	for _, st := range stores {
		s.b.fail(s.b.topo.connectStore(name, st))
	}
	return derive[K, V, K, VR](s, name, s.key, serdeSpec{}, s.repartitionRequired)
}

// fixedKeyAdapter runs a FixedKeyProcessor as a Processor.
type fixedKeyAdapter struct{ p FixedKeyProcessor }

func (a *fixedKeyAdapter) Init(ctx ProcessorContext) error { return a.p.Init(fixedKeyContext{ctx}) }

func (a *fixedKeyAdapter) Process(r Record) error {
	return a.p.Process(FixedKeyRecord{key: r.Key, Value: r.Value, Timestamp: r.Timestamp, Headers: r.Headers})
}

func (a *fixedKeyAdapter) Close() error { return a.p.Close() }

type fixedKeyContext struct{ ctx ProcessorContext }

func (c fixedKeyContext) record(r FixedKeyRecord) Record {
	return Record{Key: r.key, Value: r.Value, Timestamp: r.Timestamp, Headers: r.Headers}
}

func (c fixedKeyContext) Forward(r FixedKeyRecord) error { return c.ctx.Forward(c.record(r)) }
func (c fixedKeyContext) ForwardTo(child string, r FixedKeyRecord) error {
	return c.ctx.ForwardTo(child, c.record(r))
}
func (c fixedKeyContext) StateStore(name string) (StateStore, error) { return c.ctx.StateStore(name) }
func (c fixedKeyContext) RecordMetadata() (RecordMetadata, bool)     { return c.ctx.RecordMetadata() }
func (c fixedKeyContext) StreamTime() int64                          { return c.ctx.StreamTime() }
func (c fixedKeyContext) TaskID() TaskID                             { return c.ctx.TaskID() }
func (c fixedKeyContext) ApplicationID() string                      { return c.ctx.ApplicationID() }
func (c fixedKeyContext) AppConfigs() map[string]string              { return c.ctx.AppConfigs() }
func (c fixedKeyContext) AppConfigsWithPrefix(prefix string) map[string]string {
	return c.ctx.AppConfigsWithPrefix(prefix)
}
func (c fixedKeyContext) RecordDropped(reason string) { c.ctx.RecordDropped(reason) }
func (c fixedKeyContext) Commit()                     { c.ctx.Commit() }
func (c fixedKeyContext) Schedule(interval time.Duration, typ PunctuationType, fn func(ts int64) error) (Cancellable, error) {
	return c.ctx.Schedule(interval, typ, fn)
}
