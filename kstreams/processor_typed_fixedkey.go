package kstreams

// TypedFixedKeyRecord is a FixedKeyRecord with a typed key and value: the
// key cannot change; the value, timestamp and headers can. Nulls follow
// TypedRecord: for a type that cannot hold nil, KeyNull and ValueNull mark
// a null, and Forward sends a null for a set ValueNull or a nil value.
type TypedFixedKeyRecord[K, V any] struct {
	key       K
	keyNull   bool
	raw       any // the key as the stream holds it, forwarded unchanged
	Value     V
	Timestamp int64
	Headers   []Header
	ValueNull bool
}

// Key returns the record's key.
func (r TypedFixedKeyRecord[K, V]) Key() K { return r.key }

// KeyNull says the key is Kafka's null.
func (r TypedFixedKeyRecord[K, V]) KeyNull() bool { return r.keyNull }

// WithValue returns the record with value v, now of type VR (Java's
// FixedKeyRecord.withValue); it clears ValueNull.
func WithValue[VR, K, V any](r TypedFixedKeyRecord[K, V], v VR) TypedFixedKeyRecord[K, VR] {
	return TypedFixedKeyRecord[K, VR]{key: r.key, keyNull: r.keyNull, raw: r.raw, Value: v, Timestamp: r.Timestamp, Headers: r.Headers}
}

// TypedFixedKeyProcessor is a FixedKeyProcessor with typed records: it
// receives K keys and VIn values and forwards VOut values.
type TypedFixedKeyProcessor[K, VIn, VOut any] interface {
	Init(ctx TypedFixedKeyContext[K, VOut]) error
	Process(r TypedFixedKeyRecord[K, VIn]) error
	Close() error
}

// TypedFixedKeyContext is the context of a TypedFixedKeyProcessor: it
// forwards typed fixed-key records.
type TypedFixedKeyContext[K, V any] interface {
	Forward(r TypedFixedKeyRecord[K, V]) error
	ForwardTo(child string, r TypedFixedKeyRecord[K, V]) error
	ProcessingContext
}

// ProcessValuesTyped is ProcessValues for a TypedFixedKeyProcessor; all
// types are inferred. On a Nullable view the processor receives the view's
// pointers.
func ProcessValuesTyped[K, V, VR any](s *KStream[K, V], supplier func() TypedFixedKeyProcessor[K, V, VR], named Named, stores ...string) *KStream[K, VR] {
	if supplier == nil {
		return ProcessValues[VR](s, nil, named, stores...)
	}
	key, val := valueArg[K](nil), valueArg[V](s.view)
	return ProcessValues[VR](s, func() FixedKeyProcessor {
		return &typedFixedKeyAdapter[K, V, VR]{p: supplier(), key: key, val: val}
	}, named, stores...)
}

type typedFixedKeyAdapter[K, VIn, VOut any] struct {
	p   TypedFixedKeyProcessor[K, VIn, VOut]
	key func(any) (K, bool)
	val func(any) (VIn, bool)
}

func (a *typedFixedKeyAdapter[K, VIn, VOut]) Init(ctx FixedKeyProcessorContext) error {
	return a.p.Init(typedFixedKeyContext[K, VOut]{ctx})
}

func (a *typedFixedKeyAdapter[K, VIn, VOut]) Process(r FixedKeyRecord) error {
	k, kok := a.key(r.key)
	v, vok := a.val(r.Value)
	return a.p.Process(TypedFixedKeyRecord[K, VIn]{key: k, keyNull: r.key == nil || !kok, raw: r.key,
		Value: v, Timestamp: r.Timestamp, Headers: r.Headers, ValueNull: r.Value == nil || !vok})
}

func (a *typedFixedKeyAdapter[K, VIn, VOut]) Close() error { return a.p.Close() }

type typedFixedKeyContext[K, V any] struct{ FixedKeyProcessorContext }

func (c typedFixedKeyContext[K, V]) record(r TypedFixedKeyRecord[K, V]) FixedKeyRecord {
	out := FixedKeyRecord{key: r.raw, Value: nullable(r.Value), Timestamp: r.Timestamp, Headers: r.Headers}
	if r.ValueNull {
		out.Value = nil
	}
	return out
}

func (c typedFixedKeyContext[K, V]) Forward(r TypedFixedKeyRecord[K, V]) error {
	return c.FixedKeyProcessorContext.Forward(c.record(r))
}

func (c typedFixedKeyContext[K, V]) ForwardTo(child string, r TypedFixedKeyRecord[K, V]) error {
	return c.FixedKeyProcessorContext.ForwardTo(child, c.record(r))
}
