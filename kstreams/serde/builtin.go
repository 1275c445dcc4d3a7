package serde

import (
	"encoding/binary"
	"math"
)

// String is Kafka's StringSerde with its default UTF-8 encoding. Go strings
// are written as they are; invalid UTF-8 is not rewritten.
type String struct{}

// Serialize returns the bytes of v.
func (String) Serialize(_ string, v string) ([]byte, error) { return []byte(v), nil }

// Deserialize returns b as a string.
func (String) Deserialize(_ string, b []byte) (string, error) { return string(b), nil }

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
// UUIDSerde writes it (UTF-8 of java.util.UUID.toString()).
type UUIDValue string

// UUID is Kafka's UUIDSerde.
type UUID struct{}

// Serialize writes the text form.
func (UUID) Serialize(_ string, v UUIDValue) ([]byte, error) { return []byte(v), nil }

// Deserialize checks the canonical 8-4-4-4-12 hex form.
func (UUID) Deserialize(_ string, b []byte) (UUIDValue, error) {
	if b == nil {
		return "", nil
	}
	if !validUUID(b) {
		return "", serErr("Error parsing data into UUID")
	}
	return UUIDValue(b), nil
}

func validUUID(b []byte) bool {
	if len(b) != 36 {
		return false
	}
	for i, c := range b {
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
				return false
			}
		}
	}
	return true
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
