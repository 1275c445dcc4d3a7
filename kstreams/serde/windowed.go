package serde

import (
	"errors"

	"github.com/stoatflow/stoatflow/internal/storeformat"
)

// Window is a time window [Start, End) in epoch milliseconds. Session windows
// are closed intervals [Start, End].
type Window struct {
	Start int64
	End   int64
}

// Windowed is a key with the window it belongs to, Kafka Streams' Windowed<K>.
type Windowed[K any] struct {
	Key    K
	Window Window
}

// TimeWindowed is Kafka Streams' TimeWindowedSerde: the inner key's bytes
// followed by the window start as an 8-byte big-endian long. The window end is
// not written; Deserialize rebuilds it as start + WindowSize (Long.MAX_VALUE on
// overflow), so WindowSize must be the size of the windows written.
type TimeWindowed[K any] struct {
	Inner      Serde[K]
	WindowSize int64
}

// Serialize writes key bytes ++ int64 window start.
func (s TimeWindowed[K]) Serialize(topic string, v Windowed[K]) ([]byte, error) {
	kb, err := s.Inner.Serialize(topic, v.Key)
	if err != nil {
		return nil, err
	}
	return storeformat.AppendTimeWindowedKey(make([]byte, 0, len(kb)+storeformat.TimeWindowedSuffix), kb, v.Window.Start), nil
}

// Deserialize reads key bytes ++ int64 window start. Empty input is null,
// as Kafka's TimeWindowedDeserializer reads it: the zero Windowed here, nil
// from DeserializeAny.
func (s TimeWindowed[K]) Deserialize(topic string, b []byte) (Windowed[K], error) {
	var w Windowed[K]
	if len(b) == 0 {
		return w, nil
	}
	kb, start, err := SplitTimeWindowed(b)
	if err != nil {
		return w, err
	}
	k, err := s.Inner.Deserialize(topic, kb)
	if err != nil {
		return w, err
	}
	return Windowed[K]{Key: k, Window: Window{Start: start, End: storeformat.WindowEnd(start, s.WindowSize)}}, nil
}

// SerializeAny is Serialize for untyped use; nil is null.
func (s TimeWindowed[K]) SerializeAny(topic string, v any) ([]byte, error) {
	return serializeWindowedAny(topic, v, s.Serialize)
}

// DeserializeAny is Deserialize for untyped use: null and empty input are nil.
func (s TimeWindowed[K]) DeserializeAny(topic string, b []byte) (any, error) {
	return deserializeWindowedAny(topic, b, s.Deserialize)
}

// SerializeBaseKey returns the inner key's bytes without the window: what
// Kafka's WindowedStreamPartitioner hashes to pick a partition.
func (s TimeWindowed[K]) SerializeBaseKey(topic string, v any) ([]byte, error) {
	w, ok := v.(Windowed[K])
	if !ok {
		return nil, serErr("value of type %T is not a windowed key", v)
	}
	return s.Inner.Serialize(topic, w.Key)
}

// SessionWindowed is Kafka Streams' SessionWindowedSerde: the inner key's
// bytes, then the session end, then its start, each an 8-byte big-endian long
// (end before start, as SessionKeySchema writes them).
type SessionWindowed[K any] struct {
	Inner Serde[K]
}

// Serialize writes key bytes ++ int64 end ++ int64 start.
func (s SessionWindowed[K]) Serialize(topic string, v Windowed[K]) ([]byte, error) {
	kb, err := s.Inner.Serialize(topic, v.Key)
	if err != nil {
		return nil, err
	}
	return storeformat.AppendSessionKey(make([]byte, 0, len(kb)+storeformat.SessionKeySuffix), kb, v.Window.Start, v.Window.End), nil
}

// Deserialize reads key bytes ++ int64 end ++ int64 start. Empty input is
// null, as Kafka's SessionWindowedDeserializer reads it.
func (s SessionWindowed[K]) Deserialize(topic string, b []byte) (Windowed[K], error) {
	var w Windowed[K]
	if len(b) == 0 {
		return w, nil
	}
	kb, win, err := SplitSessionWindowed(b)
	if err != nil {
		return w, err
	}
	k, err := s.Inner.Deserialize(topic, kb)
	if err != nil {
		return w, err
	}
	return Windowed[K]{Key: k, Window: win}, nil
}

// SerializeAny is Serialize for untyped use; nil is null.
func (s SessionWindowed[K]) SerializeAny(topic string, v any) ([]byte, error) {
	return serializeWindowedAny(topic, v, s.Serialize)
}

// DeserializeAny is Deserialize for untyped use: null and empty input are nil.
func (s SessionWindowed[K]) DeserializeAny(topic string, b []byte) (any, error) {
	return deserializeWindowedAny(topic, b, s.Deserialize)
}

func serializeWindowedAny[K any](topic string, v any, ser func(string, Windowed[K]) ([]byte, error)) ([]byte, error) {
	if v == nil {
		return nil, nil
	}
	w, ok := v.(Windowed[K])
	if !ok {
		return nil, serErr("value of type %T cannot be serialized by a serde for %T (topic %s)", v, w, topic)
	}
	return ser(topic, w)
}

func deserializeWindowedAny[K any](topic string, b []byte, de func(string, []byte) (Windowed[K], error)) (any, error) {
	if len(b) == 0 {
		return nil, nil
	}
	return de(topic, b)
}

// SerializeBaseKey returns the inner key's bytes without the window.
func (s SessionWindowed[K]) SerializeBaseKey(topic string, v any) ([]byte, error) {
	w, ok := v.(Windowed[K])
	if !ok {
		return nil, serErr("value of type %T is not a windowed key", v)
	}
	return s.Inner.Serialize(topic, w.Key)
}

// BaseKeySerializer is implemented by windowed key serdes (Kafka's
// WindowedSerializer): the key's bytes without its window, which sinks hash
// to pick a partition so that all windows of a key land together.
type BaseKeySerializer interface {
	SerializeBaseKey(topic string, v any) ([]byte, error)
}

// BaseKey serializes v's base key if s is a windowed serde; ok is false otherwise.
func BaseKey(s Untyped, topic string, v any) (b []byte, ok bool, err error) {
	var bk BaseKeySerializer
	switch t := s.(type) {
	case BaseKeySerializer:
		bk = t
	case interface{ inner() any }:
		bk, _ = t.inner().(BaseKeySerializer)
	}
	if bk == nil || v == nil {
		return nil, false, nil
	}
	b, err = bk.SerializeBaseKey(topic, v)
	return b, true, err
}

// SplitTimeWindowed splits TimeWindowedSerde bytes into the inner key's
// bytes and the window start, with Kafka's error for short input. The
// layout is internal/storeformat's.
func SplitTimeWindowed(b []byte) (key []byte, start int64, err error) {
	key, start, err = storeformat.SplitTimeWindowedKey(b)
	if errors.Is(err, storeformat.ErrShort) {
		err = serErr("Size of data received by TimeWindowedDeserializer is shorter than 8")
	}
	return key, start, err
}

// SplitSessionWindowed splits SessionWindowedSerde bytes into the inner
// key's bytes and the session window, with Kafka's error for short input.
// The layout is internal/storeformat's.
func SplitSessionWindowed(b []byte) (key []byte, w Window, err error) {
	key, w.Start, w.End, err = storeformat.SplitSessionKey(b)
	if errors.Is(err, storeformat.ErrShort) {
		err = serErr("Size of data received by SessionWindowedDeserializer is shorter than 16")
	}
	return key, w, err
}
