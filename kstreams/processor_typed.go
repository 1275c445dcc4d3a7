package kstreams

// TypedRecord is a Record with typed key and value. For a type that can
// hold nil (pointer, slice, map, interface) nil is Kafka's null, both ways.
// For one that cannot (string, int64, a struct), KeyNull and ValueNull mark
// a null, with Key or Value left at its zero value: a tombstone is never
// mistaken for "" or 0. Forward sends a null for a set flag or a nil value.
type TypedRecord[K, V any] struct {
	Key       K
	Value     V
	Timestamp int64
	Headers   []Header
	KeyNull   bool
	ValueNull bool
}

// TypedProcessor is a Processor with typed input and output records.
type TypedProcessor[KIn, VIn, KOut, VOut any] interface {
	Init(ctx TypedContext[KOut, VOut]) error
	Process(r TypedRecord[KIn, VIn]) error
	Close() error
}

// TypedContext is the ProcessorContext of a TypedProcessor: it forwards
// typed records.
type TypedContext[KOut, VOut any] interface {
	Forward(r TypedRecord[KOut, VOut]) error
	ProcessingContext
}

// Typed adapts a TypedProcessor supplier to the untyped Processor API.
func Typed[KIn, VIn, KOut, VOut any](supplier func() TypedProcessor[KIn, VIn, KOut, VOut]) func() Processor {
	return typed(supplier, nil)
}

func typed[KIn, VIn, KOut, VOut any](supplier func() TypedProcessor[KIn, VIn, KOut, VOut], view *valueView) func() Processor {
	key, val := valueArg[KIn](nil), valueArg[VIn](view)
	return func() Processor { return &typedAdapter[KIn, VIn, KOut, VOut]{p: supplier(), key: key, val: val} }
}

// ProcessTyped is Process for a TypedProcessor; all types are inferred. On a
// Nullable view the processor receives the view's pointers.
func ProcessTyped[K, V, KR, VR any](s *KStream[K, V], supplier func() TypedProcessor[K, V, KR, VR], named Named, stores ...string) *KStream[KR, VR] {
	return Process[KR, VR](s, typed(supplier, s.view), named, stores...)
}

type typedAdapter[KIn, VIn, KOut, VOut any] struct {
	p   TypedProcessor[KIn, VIn, KOut, VOut]
	key func(any) (KIn, bool)
	val func(any) (VIn, bool)
}

func (a *typedAdapter[KIn, VIn, KOut, VOut]) Init(ctx ProcessorContext) error {
	return a.p.Init(typedContext[KOut, VOut]{ctx})
}

func (a *typedAdapter[KIn, VIn, KOut, VOut]) Process(r Record) error {
	k, kok := a.key(r.Key)
	v, vok := a.val(r.Value)
	return a.p.Process(TypedRecord[KIn, VIn]{Key: k, Value: v, Timestamp: r.Timestamp, Headers: r.Headers,
		KeyNull: r.Key == nil || !kok, ValueNull: r.Value == nil || !vok})
}

func (a *typedAdapter[KIn, VIn, KOut, VOut]) Close() error { return a.p.Close() }

type typedContext[K, V any] struct{ ProcessorContext }

func (c typedContext[K, V]) Forward(r TypedRecord[K, V]) error {
	out := Record{Key: nullable(r.Key), Value: nullable(r.Value), Timestamp: r.Timestamp, Headers: r.Headers}
	if r.KeyNull {
		out.Key = nil
	}
	if r.ValueNull {
		out.Value = nil
	}
	return c.ProcessorContext.Forward(out)
}
