package kstreams

import (
	"reflect"
	"time"
)

// TypedRecord is a Record with typed key and value. Kafka's null is the nil
// of a pointer, slice or map type (use serde.Nullable for pointer values).
type TypedRecord[K, V any] struct {
	Key       K
	Value     V
	Timestamp int64
	Headers   []Header
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
	StateStore(name string) (StateStore, error)
	RecordMetadata() (RecordMetadata, bool)
	StreamTime() int64
	TaskID() TaskID
	ApplicationID() string
	RecordDropped(reason string)
	Schedule(interval time.Duration, typ PunctuationType, fn func(ts int64) error) (Cancellable, error)
}

// Typed adapts a TypedProcessor supplier to the untyped Processor API.
func Typed[KIn, VIn, KOut, VOut any](supplier func() TypedProcessor[KIn, VIn, KOut, VOut]) func() Processor {
	return func() Processor { return &typedAdapter[KIn, VIn, KOut, VOut]{p: supplier()} }
}

// ProcessTyped is Process for a TypedProcessor; all types are inferred.
func ProcessTyped[K, V, KR, VR any](s *KStream[K, V], supplier func() TypedProcessor[K, V, KR, VR], named Named, stores ...string) *KStream[KR, VR] {
	return Process[KR, VR](s, Typed(supplier), named, stores...)
}

type typedAdapter[KIn, VIn, KOut, VOut any] struct {
	p TypedProcessor[KIn, VIn, KOut, VOut]
}

func (a *typedAdapter[KIn, VIn, KOut, VOut]) Init(ctx ProcessorContext) error {
	return a.p.Init(typedContext[KOut, VOut]{ctx})
}

func (a *typedAdapter[KIn, VIn, KOut, VOut]) Process(r Record) error {
	return a.p.Process(TypedRecord[KIn, VIn]{Key: as[KIn](r.Key), Value: as[VIn](r.Value), Timestamp: r.Timestamp, Headers: r.Headers})
}

func (a *typedAdapter[KIn, VIn, KOut, VOut]) Close() error { return a.p.Close() }

type typedContext[K, V any] struct{ ProcessorContext }

func (c typedContext[K, V]) Forward(r TypedRecord[K, V]) error {
	return c.ProcessorContext.Forward(Record{Key: nullable(r.Key), Value: nullable(r.Value), Timestamp: r.Timestamp, Headers: r.Headers})
}

// nullable turns the nil of a pointer, slice or map into Kafka's null (an
// untyped nil), which a typed nil inside an interface would not be.
func nullable(v any) any {
	if v == nil {
		return nil
	}
	switch rv := reflect.ValueOf(v); rv.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Map, reflect.Interface:
		if rv.IsNil() {
			return nil
		}
	}
	return v
}
