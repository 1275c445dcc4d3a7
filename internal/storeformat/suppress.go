package storeformat

import (
	"encoding/binary"
	"fmt"
	"unicode/utf16"
)

// The suppress buffer (Kafka Streams' InMemoryTimeOrderedKeyValueChangeBuffer)
// logs each buffered key under its serialized key, with a record header
// "v" = {3} and this value (format version 3, BufferValue.serialize then the
// buffer time):
//
//	record context  int64 timestamp ++ int64 offset ++ int32 len ++ topic
//	                ++ int32 partition ++ int32 nHeaders
//	                ++ { int32 len ++ key ++ int32 len (-1: null) ++ value }*
//	prior value     int32 len (-1: null) ++ bytes
//	old value       int32 len (-1: null, -2: equal to the prior value) ++ bytes
//	new value       int32 len (-1: null) ++ bytes
//	buffer time     int64
//
// A key that leaves the buffer is logged as a tombstone without headers.

// BufferFormatHeader is the record header of a suppress buffer changelog
// record and BufferFormatV3 its value, the only format Kafka Streams 4.4
// writes.
const (
	BufferFormatHeader = "v"
	BufferFormatV3     = byte(3)
)

const (
	bufferNull      = -1
	bufferDuplicate = -2
)

// RecordHeader is one header of a buffered record's context; a nil Value is
// Java's null.
type RecordHeader struct {
	Key   string
	Value []byte
}

// RecordContext is the context Kafka Streams keeps with a buffered record
// (ProcessorRecordContext): where the record that last updated the key came
// from, its timestamp and its headers.
type RecordContext struct {
	Timestamp int64
	Offset    int64
	Topic     string
	Partition int32
	Headers   []RecordHeader
}

// MemoryEstimate is ProcessorRecordContext.residentMemorySizeEstimate: the
// topic and header keys count in UTF-16 code units, as Java's
// String.toCharArray().length.
func (c RecordContext) MemoryEstimate() int64 {
	n := int64(8 + 8 + 4 + javaChars(c.Topic))
	for _, h := range c.Headers {
		n += int64(javaChars(h.Key) + len(h.Value))
	}
	return n
}

func javaChars(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}

// BufferValue is one buffered key's value: the value the key had before it
// entered the buffer (Prior), the old and new values of its latest update,
// and that update's record context.
type BufferValue struct {
	Prior, Old, New []byte
	Context         RecordContext
}

// MemoryEstimate is BufferValue.residentMemorySizeEstimate: an old value
// equal to the prior value is counted once, as Kafka shares the array.
func (v BufferValue) MemoryEstimate() int64 {
	n := int64(len(v.Prior) + len(v.New))
	if v.Old != nil && !bytesEqualNullable(v.Prior, v.Old) {
		n += int64(len(v.Old))
	}
	return n + v.Context.MemoryEstimate()
}

// bytesEqualNullable is Java's Arrays.equals: two nulls are equal, null
// differs from an empty array.
func bytesEqualNullable(a, b []byte) bool {
	if (a == nil) != (b == nil) || len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func appendNullable(dst, b []byte) []byte {
	if b == nil {
		return binary.BigEndian.AppendUint32(dst, uint32(0xFFFFFFFF))
	}
	dst = binary.BigEndian.AppendUint32(dst, uint32(len(b)))
	return append(dst, b...)
}

// AppendBufferValue appends the version 3 changelog value of a buffered key,
// v then the buffer time, to dst.
func AppendBufferValue(dst []byte, v BufferValue, bufferTime int64) []byte {
	c := v.Context
	dst = binary.BigEndian.AppendUint64(dst, uint64(c.Timestamp))
	dst = binary.BigEndian.AppendUint64(dst, uint64(c.Offset))
	dst = binary.BigEndian.AppendUint32(dst, uint32(len(c.Topic)))
	dst = append(dst, c.Topic...)
	dst = binary.BigEndian.AppendUint32(dst, uint32(c.Partition))
	dst = binary.BigEndian.AppendUint32(dst, uint32(len(c.Headers)))
	for _, h := range c.Headers {
		dst = binary.BigEndian.AppendUint32(dst, uint32(len(h.Key)))
		dst = append(dst, h.Key...)
		dst = appendNullable(dst, h.Value)
	}
	dst = appendNullable(dst, v.Prior)
	switch {
	case v.Old == nil:
		dst = binary.BigEndian.AppendUint32(dst, uint32(0xFFFFFFFF))
	case bytesEqualNullable(v.Prior, v.Old):
		dst = binary.BigEndian.AppendUint32(dst, uint32(0xFFFFFFFE))
	default:
		dst = appendNullable(dst, v.Old)
	}
	dst = appendNullable(dst, v.New)
	return binary.BigEndian.AppendUint64(dst, uint64(bufferTime))
}

type reader struct {
	b   []byte
	err error
}

func (r *reader) take(n int, what string) []byte {
	if r.err != nil {
		return nil
	}
	if n < 0 || len(r.b) < n {
		r.err = short(what, len(r.b), n)
		return nil
	}
	out := r.b[:n:n]
	r.b = r.b[n:]
	return out
}

func (r *reader) int32(what string) int32 {
	b := r.take(4, what)
	if b == nil {
		return 0
	}
	return int32(binary.BigEndian.Uint32(b))
}

func (r *reader) int64(what string) int64 {
	b := r.take(8, what)
	if b == nil {
		return 0
	}
	return int64(binary.BigEndian.Uint64(b))
}

func (r *reader) nullable(n int32, what string) []byte {
	switch {
	case r.err != nil:
		return nil
	case n == bufferNull:
		return nil
	case n < 0:
		r.err = fmt.Errorf("storeformat: %s has the invalid length %d", what, n)
		return nil
	}
	return append([]byte{}, r.take(int(n), what)...)
}

// SplitBufferValue reads a version 3 suppress buffer changelog value back
// into the buffered value and its buffer time.
func SplitBufferValue(b []byte) (v BufferValue, bufferTime int64, err error) {
	r := &reader{b: b}
	c := &v.Context
	c.Timestamp = r.int64("buffer value context timestamp")
	c.Offset = r.int64("buffer value context offset")
	c.Topic = string(r.take(int(r.int32("buffer value topic length")), "buffer value topic"))
	c.Partition = r.int32("buffer value partition")
	n := r.int32("buffer value header count")
	if r.err == nil && n > 0 {
		if int(n) > len(r.b)/8 {
			return v, 0, fmt.Errorf("storeformat: buffer value claims %d headers in %d bytes", n, len(r.b))
		}
		c.Headers = make([]RecordHeader, 0, n)
		for i := int32(0); i < n && r.err == nil; i++ {
			k := string(r.take(int(r.int32("buffer value header key length")), "buffer value header key"))
			hv := r.nullable(r.int32("buffer value header value length"), "buffer value header value")
			c.Headers = append(c.Headers, RecordHeader{Key: k, Value: hv})
		}
	}
	v.Prior = r.nullable(r.int32("buffer value prior length"), "buffer value prior value")
	switch old := r.int32("buffer value old length"); {
	case r.err != nil:
	case old == bufferDuplicate:
		v.Old = v.Prior
	default:
		v.Old = r.nullable(old, "buffer value old value")
	}
	v.New = r.nullable(r.int32("buffer value new length"), "buffer value new value")
	bufferTime = r.int64("buffer value buffer time")
	if r.err == nil && len(r.b) != 0 {
		r.err = fmt.Errorf("storeformat: buffer value has %d bytes after its buffer time", len(r.b))
	}
	if r.err != nil {
		return BufferValue{}, 0, r.err
	}
	return v, bufferTime, nil
}
