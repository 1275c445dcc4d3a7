package serde

import (
	"encoding/binary"
	"math"
	"unicode/utf8"
)

// String is Kafka's StringSerde with its default UTF-8 encoding.
//
// Deserialize reads bytes as Java's new String(bytes, UTF_8) does: each
// malformed UTF-8 sequence becomes one U+FFFD, with Java's rule for where a
// malformed sequence ends (see javautf8.go). So a String-serde topology writes
// back, and partitions by, the same replaced bytes Kafka Streams does. Valid
// UTF-8 takes a fast path: one check, one copy.
//
// Serialize writes a Go string as the Java String it stands for: a valid one
// as it is, one with invalid UTF-8 as Java would decode its bytes.
type String struct{}

// Serialize returns the UTF-8 bytes of v, malformed sequences replaced.
func (String) Serialize(_ string, v string) ([]byte, error) {
	if utf8.ValidString(v) {
		return []byte(v), nil
	}
	return javaReplaceMalformed([]byte(v)), nil
}

// Deserialize returns b as a string, malformed sequences replaced as Java does.
func (String) Deserialize(_ string, b []byte) (string, error) { return javaDecodeUTF8(b), nil }

// Long is Kafka's LongSerde: 8 bytes, big-endian two's complement.
type Long struct{}

// Serialize encodes v in 8 big-endian bytes.
func (Long) Serialize(_ string, v int64) ([]byte, error) {
	return binary.BigEndian.AppendUint64(make([]byte, 0, 8), uint64(v)), nil
}

// Deserialize decodes exactly 8 big-endian bytes.
func (Long) Deserialize(_ string, b []byte) (int64, error) {
	if b == nil {
		return 0, nil
	}
	if len(b) != 8 {
		return 0, serErr("Size of data received by LongDeserializer is not 8")
	}
	return int64(binary.BigEndian.Uint64(b)), nil
}

// Integer is Kafka's IntegerSerde: 4 bytes, big-endian two's complement.
type Integer struct{}

// Serialize encodes v in 4 big-endian bytes.
func (Integer) Serialize(_ string, v int32) ([]byte, error) {
	return binary.BigEndian.AppendUint32(make([]byte, 0, 4), uint32(v)), nil
}

// Deserialize decodes exactly 4 big-endian bytes.
func (Integer) Deserialize(_ string, b []byte) (int32, error) {
	if b == nil {
		return 0, nil
	}
	if len(b) != 4 {
		return 0, serErr("Size of data received by IntegerDeserializer is not 4")
	}
	return int32(binary.BigEndian.Uint32(b)), nil
}

// Short is Kafka's ShortSerde: 2 bytes, big-endian.
type Short struct{}

// Serialize encodes v in 2 big-endian bytes.
func (Short) Serialize(_ string, v int16) ([]byte, error) {
	return binary.BigEndian.AppendUint16(make([]byte, 0, 2), uint16(v)), nil
}

// Deserialize decodes exactly 2 big-endian bytes.
func (Short) Deserialize(_ string, b []byte) (int16, error) {
	if b == nil {
		return 0, nil
	}
	if len(b) != 2 {
		return 0, serErr("Size of data received by ShortDeserializer is not 2")
	}
	return int16(binary.BigEndian.Uint16(b)), nil
}

// Double is Kafka's DoubleSerde: IEEE 754 binary64, big-endian.
type Double struct{}

// Serialize encodes the IEEE 754 bits of v in 8 big-endian bytes. Every NaN
// is written as 0x7ff8000000000000, as Java's Double.doubleToLongBits does.
func (Double) Serialize(_ string, v float64) ([]byte, error) {
	bits := math.Float64bits(v)
	if v != v {
		bits = 0x7ff8000000000000
	}
	return binary.BigEndian.AppendUint64(make([]byte, 0, 8), bits), nil
}

// Deserialize decodes exactly 8 big-endian bytes. Kafka's message names no class here.
func (Double) Deserialize(_ string, b []byte) (float64, error) {
	if b == nil {
		return 0, nil
	}
	if len(b) != 8 {
		return 0, serErr("Size of data received by Deserializer is not 8")
	}
	return math.Float64frombits(binary.BigEndian.Uint64(b)), nil
}

// Float is Kafka's FloatSerde: IEEE 754 binary32, big-endian.
type Float struct{}

// Serialize encodes the IEEE 754 bits of v in 4 big-endian bytes; NaN
// payloads are kept, as Java's Float.floatToRawIntBits does.
func (Float) Serialize(_ string, v float32) ([]byte, error) {
	return binary.BigEndian.AppendUint32(make([]byte, 0, 4), math.Float32bits(v)), nil
}

// Deserialize decodes exactly 4 big-endian bytes.
func (Float) Deserialize(_ string, b []byte) (float32, error) {
	if b == nil {
		return 0, nil
	}
	if len(b) != 4 {
		return 0, serErr("Size of data received by Deserializer is not 4")
	}
	return math.Float32frombits(binary.BigEndian.Uint32(b)), nil
}

// Boolean is Kafka's BooleanSerde: one byte, 0x01 true, 0x00 false.
type Boolean struct{}

// Serialize encodes v in one byte.
func (Boolean) Serialize(_ string, v bool) ([]byte, error) {
	if v {
		return []byte{1}, nil
	}
	return []byte{0}, nil
}

// Deserialize accepts exactly one byte, 0x00 or 0x01.
func (Boolean) Deserialize(_ string, b []byte) (bool, error) {
	if b == nil {
		return false, nil
	}
	if len(b) != 1 {
		return false, serErr("Size of data received by BooleanDeserializer is not 1")
	}
	switch b[0] {
	case 0:
		return false, nil
	case 1:
		return true, nil
	}
	return false, serErr("Unexpected byte received by BooleanDeserializer: %d", int8(b[0]))
}

// ByteArray is Kafka's ByteArraySerde: bytes as they are.
type ByteArray struct{}

// Serialize returns v unchanged.
func (ByteArray) Serialize(_ string, v []byte) ([]byte, error) { return v, nil }

// Deserialize returns b unchanged.
func (ByteArray) Deserialize(_ string, b []byte) ([]byte, error) { return b, nil }

// ByteBufferValue is the Go form of a java.nio.ByteBuffer: the bytes
// Kafka's ByteBufferSerializer writes (the buffer from position zero to its
// limit) and ByteBufferDeserializer wraps.
type ByteBufferValue []byte

// ByteBuffer is Kafka's ByteBufferSerde: bytes as they are.
type ByteBuffer struct{}

// Serialize returns v unchanged.
func (ByteBuffer) Serialize(_ string, v ByteBufferValue) ([]byte, error) { return []byte(v), nil }

// Deserialize returns b unchanged.
func (ByteBuffer) Deserialize(_ string, b []byte) (ByteBufferValue, error) {
	return ByteBufferValue(b), nil
}

// BytesValue is the Go form of Kafka's org.apache.kafka.common.utils.Bytes.
type BytesValue []byte

// Bytes is Kafka's BytesSerde: bytes as they are.
type Bytes struct{}

// Serialize returns v unchanged.
func (Bytes) Serialize(_ string, v BytesValue) ([]byte, error) { return []byte(v), nil }

// Deserialize returns b unchanged.
func (Bytes) Deserialize(_ string, b []byte) (BytesValue, error) { return BytesValue(b), nil }

// VoidValue is the only Go value of Kafka's Void type; it always encodes as null.
type VoidValue struct{}

// Void is Kafka's VoidSerde: only null is allowed.
type Void struct{}

// Serialize always yields null bytes.
func (Void) Serialize(_ string, _ VoidValue) ([]byte, error) { return nil, nil }

// Deserialize accepts only null data.
func (Void) Deserialize(_ string, b []byte) (VoidValue, error) {
	if b != nil {
		return VoidValue{}, serErr("Data should be null for a VoidDeserializer.")
	}
	return VoidValue{}, nil
}

// UUIDValue is a UUID in its canonical 36-character text form, as Kafka's
// UUIDSerde writes it (UTF-8 of java.util.UUID.toString(): lower-case hex,
// 8-4-4-4-12).
type UUIDValue string

// UUID is Kafka's UUIDSerde. Deserialize accepts what Kafka's does, the
// lenient forms of Java's UUID.fromString included (upper-case or fullwidth
// digits, short groups, a '+' before a group), and returns the canonical
// form, so a record read and written back carries the bytes Kafka Streams
// writes. Serialize reads v by the same rules: a UUIDValue need not be
// canonical, but it must be a UUID.
type UUID struct{}

// Serialize writes the canonical text form of v.
func (UUID) Serialize(topic string, v UUIDValue) ([]byte, error) {
	u, ok := javaUUID(javaUTF16([]byte(v)))
	if !ok {
		return nil, serErr("Error serializing %q as a UUID for topic %s: java.util.UUID.fromString does not accept it", string(v), topic)
	}
	return []byte(formatUUID(u)), nil
}

// Deserialize parses b as Kafka's UUIDDeserializer does and returns the
// canonical form.
func (UUID) Deserialize(_ string, b []byte) (UUIDValue, error) {
	if b == nil {
		return "", nil
	}
	u, ok := javaUUID(javaUTF16(b))
	if !ok {
		return "", serErr("Error parsing data into UUID")
	}
	return UUIDValue(formatUUID(u)), nil
}

// Nullable wraps a serde so that a nil *T is Kafka's null: the form typed
// code uses for nullable keys and values.
func Nullable[T any](s Serde[T]) Serde[*T] { return nullableSerde[T]{s} }

type nullableSerde[T any] struct{ s Serde[T] }

func (n nullableSerde[T]) Serialize(topic string, v *T) ([]byte, error) {
	if v == nil {
		return nil, nil
	}
	return n.s.Serialize(topic, *v)
}

func (n nullableSerde[T]) Deserialize(topic string, b []byte) (*T, error) {
	if b == nil {
		return nil, nil
	}
	v, err := n.s.Deserialize(topic, b)
	if err != nil {
		return nil, err
	}
	return &v, nil
}
