package serde

import (
	"encoding/binary"
	"math"
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
	out := make([]byte, 0, len(kb)+8)
	out = append(out, kb...)
	return binary.BigEndian.AppendUint64(out, uint64(v.Window.Start)), nil
}

// Deserialize reads key bytes ++ int64 window start.
func (s TimeWindowed[K]) Deserialize(topic string, b []byte) (Windowed[K], error) {
	var w Windowed[K]
	if b == nil {
		return w, nil
	}
	if len(b) < 8 {
		return w, serErr("Size of data received by TimeWindowedDeserializer is shorter than 8")
	}
	k, err := s.Inner.Deserialize(topic, b[:len(b)-8])
	if err != nil {
		return w, err
	}
	start := int64(binary.BigEndian.Uint64(b[len(b)-8:]))
	end := start + s.WindowSize
	if end < 0 {
		end = math.MaxInt64
	}
	return Windowed[K]{Key: k, Window: Window{Start: start, End: end}}, nil
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
	return AppendSessionKey(make([]byte, 0, len(kb)+16), kb, v.Window), nil
}

// Deserialize reads key bytes ++ int64 end ++ int64 start.
func (s SessionWindowed[K]) Deserialize(topic string, b []byte) (Windowed[K], error) {
	var w Windowed[K]
	if b == nil {
		return w, nil
	}
	kb, win, err := SplitSessionKey(b)
	if err != nil {
		return w, err
	}
	k, err := s.Inner.Deserialize(topic, kb)
	if err != nil {
		return w, err
	}
	return Windowed[K]{Key: k, Window: win}, nil
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

// AppendSessionKey appends Kafka's session key layout (key ++ end ++ start) to dst.
func AppendSessionKey(dst, key []byte, w Window) []byte {
	dst = append(dst, key...)
	dst = binary.BigEndian.AppendUint64(dst, uint64(w.End))
	return binary.BigEndian.AppendUint64(dst, uint64(w.Start))
}

// SplitSessionKey splits Kafka's session key layout into key bytes and window.
func SplitSessionKey(b []byte) ([]byte, Window, error) {
	if len(b) < 16 {
		return nil, Window{}, serErr("Size of data received by SessionWindowedDeserializer is shorter than 16")
	}
	n := len(b) - 16
	return b[:n], Window{
		End:   int64(binary.BigEndian.Uint64(b[n : n+8])),
		Start: int64(binary.BigEndian.Uint64(b[n+8:])),
	}, nil
}

// AppendWindowKey appends Kafka's window store key layout
// (key ++ int64 windowStart ++ int32 seqnum) to dst, as written to window
// store changelogs.
func AppendWindowKey(dst, key []byte, windowStart int64, seqnum int32) []byte {
	dst = append(dst, key...)
	dst = binary.BigEndian.AppendUint64(dst, uint64(windowStart))
	return binary.BigEndian.AppendUint32(dst, uint32(seqnum))
}

// SplitWindowKey splits Kafka's window store key layout.
func SplitWindowKey(b []byte) (key []byte, windowStart int64, seqnum int32, err error) {
	if len(b) < 12 {
		return nil, 0, 0, serErr("Size of window store key is shorter than 12")
	}
	n := len(b) - 12
	return b[:n], int64(binary.BigEndian.Uint64(b[n : n+8])), int32(binary.BigEndian.Uint32(b[n+8:])), nil
}
