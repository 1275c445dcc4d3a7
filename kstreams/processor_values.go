package kstreams

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
	ProcessingContext
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

// fixedKeyContext is the context of a FixedKeyProcessor: its adapter's,
// forwarding FixedKeyRecords.
type fixedKeyContext struct{ ProcessorContext }

func (c fixedKeyContext) record(r FixedKeyRecord) Record {
	return Record{Key: r.key, Value: r.Value, Timestamp: r.Timestamp, Headers: r.Headers}
}

func (c fixedKeyContext) Forward(r FixedKeyRecord) error {
	return c.ProcessorContext.Forward(c.record(r))
}

func (c fixedKeyContext) ForwardTo(child string, r FixedKeyRecord) error {
	return c.ProcessorContext.ForwardTo(child, c.record(r))
}
