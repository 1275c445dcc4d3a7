// Package serde holds StoatFlow's serializers and deserializers, byte-identical
// to Kafka's org.apache.kafka.common.serialization.Serdes and to Kafka Streams'
// windowed serdes.
//
// Byte-identical holds on every input, not only on valid ones: the String and
// UUID serdes read malformed UTF-8 as Java does (each malformed sequence one
// U+FFFD), the UUID serde accepts Java's lenient UUID forms and writes the
// canonical one, and every deserializer fails where Kafka's does, with
// Kafka's message. testdata/jvm-serdes.txt holds the JVM's answers, recorded
// by integration.TestBuiltinSerdesMatchJVM, which compares about a million
// inputs with Kafka 4.4's serdes.
//
// A Serde[T] never sees Kafka's null: the topology maps a nil value to nil bytes
// and nil bytes to a nil value before a serde is called (see Erase). Called
// directly with nil data, a deserializer returns T's zero value.
package serde

import (
	"errors"
	"fmt"
)

// Serde serializes and deserializes values of type T for a topic.
type Serde[T any] interface {
	Serialize(topic string, v T) ([]byte, error)
	Deserialize(topic string, b []byte) (T, error)
}

// ErrSerialization is the class of every encoding and decoding failure, the
// counterpart of Kafka's SerializationException. Check with errors.Is.
var ErrSerialization = errors.New("serde: serialization error")

// ErrUnavailable is the class of (de)serialization failures whose cause is a
// service the serde needs that did not answer (a schema registry that is
// down), not the data: the same call may succeed later. A record whose
// output a serde could not write for this reason is not handed to an
// exception handler: the runtime aborts the epoch and processes it again
// once the service answers. Check with errors.Is.
var ErrUnavailable = errors.New("serde: a service the serde needs is unavailable")

// SerializationError carries Kafka's message for a failed (de)serialization.
type SerializationError struct {
	Msg string
}

// Error returns Kafka's message.
func (e *SerializationError) Error() string { return e.Msg }

// Is reports that every SerializationError is an ErrSerialization.
func (e *SerializationError) Is(target error) bool { return target == ErrSerialization }

func serErr(format string, args ...any) error {
	return &SerializationError{Msg: fmt.Sprintf(format, args...)}
}

// Untyped is a Serde with its type erased, as the topology uses it at sources,
// sinks and stores. A nil value serializes to nil bytes (Kafka's null) and nil
// bytes deserialize to a nil value, without calling the typed serde.
type Untyped interface {
	SerializeAny(topic string, v any) ([]byte, error)
	DeserializeAny(topic string, b []byte) (any, error)
}

// Erase turns a typed serde into an Untyped one.
func Erase[T any](s Serde[T]) Untyped {
	if s == nil {
		return nil
	}
	if u, ok := any(s).(Untyped); ok {
		return u
	}
	return erased[T]{s}
}

type erased[T any] struct{ s Serde[T] }

func (e erased[T]) SerializeAny(topic string, v any) ([]byte, error) {
	if v == nil {
		return nil, nil
	}
	t, ok := v.(T)
	if !ok {
		var zero T
		return nil, serErr("value of type %T cannot be serialized by a serde for %T (topic %s)", v, zero, topic)
	}
	return e.s.Serialize(topic, t)
}

func (e erased[T]) inner() any { return e.s }

func (e erased[T]) DeserializeAny(topic string, b []byte) (any, error) {
	if b == nil {
		return nil, nil
	}
	return e.s.Deserialize(topic, b)
}

// Typed returns the typed serde behind u if u came from Erase of a Serde[T],
// or u itself when it also implements Serde[T].
func Typed[T any](u Untyped) (Serde[T], bool) {
	switch s := u.(type) {
	case erased[T]:
		return s.s, true
	case Serde[T]:
		return s, true
	}
	return nil, false
}
