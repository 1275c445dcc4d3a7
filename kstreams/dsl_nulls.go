package kstreams

import (
	"reflect"

	"github.com/stoatflow/stoatflow/kstreams/serde"
)

// canHoldNil reports whether T's zero value is nil, so that a nil T can stand
// for Kafka's null: pointers, slices, maps, interfaces, channels, functions.
func canHoldNil[T any]() bool {
	switch reflect.TypeFor[T]().Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Map, reflect.Interface, reflect.Chan, reflect.Func:
		return true
	}
	return false
}

// nullable turns the nil of a pointer, slice or map into Kafka's null (an
// untyped nil), which a typed nil inside an interface would not be.
func nullable(v any) any {
	if v == nil {
		return nil
	}
	switch rv := reflect.ValueOf(v); rv.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Map, reflect.Interface, reflect.Chan, reflect.Func:
		if rv.IsNil() {
			return nil
		}
	}
	return v
}

// as converts a record field to T. Kafka's null becomes T's zero value, so
// callers that hand values to user functions go through a valueArg, which
// never fabricates a value for a T that cannot hold nil.
func as[T any](v any) T {
	if v == nil {
		var zero T
		return zero
	}
	return v.(T)
}

// valueView is how a Nullable view sees the records of the stream it was
// taken from: the records keep their own values (a string stays a string, so
// the stream's serdes still apply), and box turns one into the view's
// pointer at each user function; unbox turns what a function returns back
// into a record value. A nil *valueView is the identity.
type valueView struct {
	box   func(raw any) any
	unbox func(v any) any
}

func (w *valueView) boxed(raw any) any {
	if w == nil {
		return raw
	}
	return w.box(raw)
}

func (w *valueView) unboxed(v any) any {
	if w == nil {
		return nullable(v)
	}
	return w.unbox(v)
}

// wrap adapts a serde a user gave for the view's type (serde.Nullable of the
// base serde, say) to the records, which hold the base values.
func (w *valueView) wrap(u serde.Untyped) serde.Untyped {
	if w == nil || u == nil {
		return u
	}
	return viewSerde{inner: u, view: w}
}

type viewSerde struct {
	inner serde.Untyped
	view  *valueView
}

func (s viewSerde) SerializeAny(topic string, v any) ([]byte, error) {
	if v == nil {
		return nil, nil
	}
	return s.inner.SerializeAny(topic, s.view.box(v))
}

func (s viewSerde) DeserializeAny(topic string, b []byte) (any, error) {
	v, err := s.inner.DeserializeAny(topic, b)
	if err != nil {
		return nil, err
	}
	return s.view.unbox(v), nil
}

// valueArg hands record values to a user function over V. ok is false for a
// null that V cannot hold (a string, an int64, a struct): the caller then
// decides what a tombstone does without fabricating V's zero value.
func valueArg[V any](view *valueView) func(raw any) (v V, ok bool) {
	holdsNil := canHoldNil[V]()
	return func(raw any) (V, bool) {
		raw = view.boxed(raw)
		if raw == nil && !holdsNil {
			var zero V
			return zero, false
		}
		return as[V](raw), true
	}
}

// resultKey is the record key a key-computing function's result becomes
// (Map, FlatMap, SelectKey, GroupBy): Kafka's null only when the result is a
// nil of a type that can hold one (a pointer, slice, map or interface), never
// because it is its type's zero value. Over string keys "" is a key, as Java's
// "" is, whatever key the record came with: a function over a K that cannot
// hold nil, handed a null key as K's zero value, cannot tell it from a real
// one, so a topology that must keep a null key through a key function reads
// its keys as pointers (serde.Nullable) and returns nil.
func resultKey(result any) any { return nullable(result) }

// Nullable is the view of s in which a value is a *V, nil for Kafka's null:
// the way to tell a tombstone from an empty value in a predicate or mapper
// over a value type that cannot hold nil (Java's v == null). It adds no
// processor: the records, their serdes and describe() stay those of s.
//
//	live := kstreams.Nullable(s).Filter(func(_ string, v *string) bool { return v != nil })
//
// A serde given to an operator of the view is one for *V, such as
// serde.Nullable(serde.String{}); without one, the stream's own applies.
func Nullable[K, V any](s *KStream[K, V]) *KStream[K, *V] {
	prev := s.view
	view := &valueView{
		box: func(raw any) any {
			raw = prev.boxed(raw)
			if raw == nil {
				return nil
			}
			v := as[V](raw)
			return &v
		},
		unbox: func(v any) any {
			p, _ := v.(*V)
			if p == nil {
				return nil
			}
			return prev.unboxed(*p)
		},
	}
	return &KStream[K, *V]{b: s.b, name: s.name, key: s.key, val: s.val, repartitionRequired: s.repartitionRequired, view: view}
}
