package assignment

import (
	"encoding/binary"
	"errors"
	"fmt"
	"unicode/utf16"
	"unicode/utf8"
)

// The classes of decode failure; a *DecodeError wraps one of them.
var (
	// ErrTruncated: the input ends before a field, or a count promises more
	// elements than the bytes left can hold.
	ErrTruncated = errors.New("assignment: truncated")
	// ErrMalformed: a field holds a value Kafka Streams refuses (a negative
	// count, a null where none is allowed, bad modified UTF-8, an unknown
	// topic index, an inconsistent latestSupportedVersion).
	ErrMalformed = errors.New("assignment: malformed")
	// ErrUnsupportedVersion: the version is not one Kafka Streams 4.4 reads.
	ErrUnsupportedVersion = errors.New("assignment: unsupported version")
)

// ErrNotEncodable is wrapped by every encode failure: a value the version
// cannot carry, or a string too long for its length prefix.
var ErrNotEncodable = errors.New("assignment: not encodable")

// DecodeError is a failure to decode SubscriptionInfo or AssignmentInfo
// bytes: which message, at which version, at which byte offset, reading
// which field, and why.
type DecodeError struct {
	Message string // "SubscriptionInfo" or "AssignmentInfo"
	Version int32  // the version read; meaningless when Field is "version"
	Field   string // the field being read, e.g. "taskOffsetSums"
	Offset  int    // the byte offset where the field's failing part starts
	Reason  string // e.g. "truncated", "negative count -1"
	Err     error  // ErrTruncated, ErrMalformed or ErrUnsupportedVersion
}

func (e *DecodeError) Error() string {
	if e.Field == "version" {
		return fmt.Sprintf("assignment: decode %s: %s at byte %d reading %s", e.Message, e.Reason, e.Offset, e.Field)
	}
	return fmt.Sprintf("assignment: decode %s v%d: %s at byte %d reading %s", e.Message, e.Version, e.Reason, e.Offset, e.Field)
}

// Unwrap returns the failure's class.
func (e *DecodeError) Unwrap() error { return e.Err }

// EncodeError is a value that cannot be encoded at its version.
type EncodeError struct {
	Message string // "SubscriptionInfo" or "AssignmentInfo"
	Version int32
	Field   string
	Reason  string
}

func (e *EncodeError) Error() string {
	return fmt.Sprintf("assignment: encode %s v%d: %s: %s", e.Message, e.Version, e.Field, e.Reason)
}

// Unwrap returns ErrNotEncodable.
func (e *EncodeError) Unwrap() error { return ErrNotEncodable }

// maxArrayLength is the longest array Kafka's generated message readers
// accept (SubscriptionInfoData refuses more than a million elements).
const maxArrayLength = 1_000_000

// reader reads big-endian fields with a sticky error: after the first
// failure every read returns zero, and err says where it went wrong.
type reader struct {
	b       []byte
	off     int
	message string
	version int32
	err     *DecodeError
}

func (r *reader) fail(field string, at int, cause error, format string, args ...any) {
	if r.err != nil {
		return
	}
	r.err = &DecodeError{Message: r.message, Version: r.version, Field: field, Offset: at,
		Reason: fmt.Sprintf(format, args...), Err: cause}
}

func (r *reader) left() int { return len(r.b) - r.off }

// take returns the next n bytes, or nil after failing the read of field.
func (r *reader) take(field string, n int) []byte {
	if r.err != nil {
		return nil
	}
	if n < 0 || n > r.left() {
		r.fail(field, r.off, ErrTruncated, "truncated")
		return nil
	}
	p := r.b[r.off : r.off+n : r.off+n]
	r.off += n
	return p
}

func (r *reader) int8(field string) int8 {
	p := r.take(field, 1)
	if p == nil {
		return 0
	}
	return int8(p[0])
}

func (r *reader) int16(field string) int16 {
	p := r.take(field, 2)
	if p == nil {
		return 0
	}
	return int16(binary.BigEndian.Uint16(p))
}

func (r *reader) int32(field string) int32 {
	p := r.take(field, 4)
	if p == nil {
		return 0
	}
	return int32(binary.BigEndian.Uint32(p))
}

func (r *reader) int64(field string) int64 {
	p := r.take(field, 8)
	if p == nil {
		return 0
	}
	return int64(binary.BigEndian.Uint64(p))
}

// count reads an int32 element count and checks it against the bytes left,
// each element taking at least minSize bytes, so no loop or allocation
// outgrows the input. It returns -1 on failure.
func (r *reader) count(field string, minSize int) int {
	at := r.off
	n := r.int32(field)
	if r.err != nil {
		return -1
	}
	switch {
	case n < 0:
		r.fail(field, at, ErrMalformed, "negative count %d", n)
		return -1
	case int64(n)*int64(minSize) > int64(r.left()):
		r.fail(field, r.off, ErrTruncated, "truncated: count %d needs %d bytes, %d left", n, int64(n)*int64(minSize), r.left())
		return -1
	}
	return int(n)
}

// arrayCount reads the length of a non-nullable array of Kafka's message
// encoding, with the generated readers' limits.
func (r *reader) arrayCount(field string, minSize int) int {
	at := r.off
	n := r.count(field, minSize)
	if n > maxArrayLength {
		r.fail(field, at, ErrMalformed, "array of %d elements is longer than %d", n, maxArrayLength)
		return -1
	}
	return n
}

// bytes reads a non-nullable int32-length byte array (Kafka's "bytes").
func (r *reader) bytes(field string) []byte {
	at := r.off
	n := r.int32(field)
	if r.err != nil {
		return nil
	}
	if n < 0 {
		r.fail(field, at, ErrMalformed, "non-nullable bytes serialized as null (length %d)", n)
		return nil
	}
	return r.take(field, int(n))
}

// nullableString reads an int16-length string of Kafka's classic encoding;
// null (negative length) reads as "". The bytes are kept as written.
func (r *reader) nullableString(field string) string {
	n := r.int16(field)
	if r.err != nil || n < 0 {
		return ""
	}
	return string(r.take(field, int(n)))
}

// utf reads a string written by Java's DataOutputStream.writeUTF: a uint16
// byte length, then modified UTF-8, decoded as DataInputStream.readUTF
// decodes it. Unpaired surrogates become U+FFFD, since a Go string holds
// Unicode text, not UTF-16.
func (r *reader) utf(field string) string {
	n := r.int16(field)
	start := r.off
	p := r.take(field, int(uint16(n)))
	if p == nil {
		return ""
	}
	ascii := true
	for _, c := range p {
		if c >= 0x80 {
			ascii = false
			break
		}
	}
	if ascii {
		return string(p)
	}
	units := make([]uint16, 0, len(p))
	for i := 0; i < len(p); {
		c := p[i]
		switch c >> 4 {
		case 0, 1, 2, 3, 4, 5, 6, 7:
			units = append(units, uint16(c))
			i++
		case 12, 13:
			if i+2 > len(p) {
				r.fail(field, start+i, ErrMalformed, "malformed modified UTF-8: partial character at end")
				return ""
			}
			c2 := p[i+1]
			if c2&0xC0 != 0x80 {
				r.fail(field, start+i+1, ErrMalformed, "malformed modified UTF-8: byte 0x%02x is no continuation", c2)
				return ""
			}
			units = append(units, uint16(c&0x1F)<<6|uint16(c2&0x3F))
			i += 2
		case 14:
			if i+3 > len(p) {
				r.fail(field, start+i, ErrMalformed, "malformed modified UTF-8: partial character at end")
				return ""
			}
			c2, c3 := p[i+1], p[i+2]
			if c2&0xC0 != 0x80 || c3&0xC0 != 0x80 {
				r.fail(field, start+i+1, ErrMalformed, "malformed modified UTF-8: bytes 0x%02x 0x%02x are no continuations", c2, c3)
				return ""
			}
			units = append(units, uint16(c&0x0F)<<12|uint16(c2&0x3F)<<6|uint16(c3&0x3F))
			i += 3
		default:
			r.fail(field, start+i, ErrMalformed, "malformed modified UTF-8: byte 0x%02x starts no character", c)
			return ""
		}
	}
	return string(utf16.Decode(units))
}

// utf16Chars reads a named topology as ConsumerProtocolUtils writes it: an
// int32 count of UTF-16 code units and the units. Kafka reads a count of
// zero or less as no name, and so does this.
func (r *reader) utf16Chars(field string) string {
	n := r.int32(field)
	if r.err != nil || n <= 0 {
		return ""
	}
	p := r.take(field, 2*int(n))
	if p == nil {
		return ""
	}
	units := make([]uint16, n)
	for i := range units {
		units[i] = binary.BigEndian.Uint16(p[2*i:])
	}
	return string(utf16.Decode(units))
}

func appendInt16(b []byte, v int16) []byte { return binary.BigEndian.AppendUint16(b, uint16(v)) }
func appendInt32(b []byte, v int32) []byte { return binary.BigEndian.AppendUint32(b, uint32(v)) }
func appendInt64(b []byte, v int64) []byte { return binary.BigEndian.AppendUint64(b, uint64(v)) }

// appendBytes appends Kafka's non-nullable "bytes": int32 length and data.
func appendBytes(b []byte, p []byte) []byte {
	return append(appendInt32(b, int32(len(p))), p...)
}

// modifiedUTF8Len is the length of s in Java's modified UTF-8.
func modifiedUTF8Len(s string) int {
	n := 0
	for _, c := range s {
		switch {
		case c == 0:
			n += 2
		case c < 0x80:
			n++
		case c < 0x800:
			n += 2
		case c <= 0xFFFF:
			n += 3
		default:
			n += 6 // two surrogates of three bytes each
		}
	}
	return n
}

// appendUTF appends s as DataOutputStream.writeUTF writes it. Bytes of s
// that are not UTF-8 are written as U+FFFD. It reports false when the
// encoding is longer than 65535 bytes, which writeUTF refuses.
func appendUTF(b []byte, s string) ([]byte, bool) {
	n := modifiedUTF8Len(s)
	if n > 0xFFFF {
		return b, false
	}
	b = binary.BigEndian.AppendUint16(b, uint16(n))
	for _, c := range s {
		switch {
		case c == 0:
			b = append(b, 0xC0, 0x80)
		case c < 0x80:
			b = append(b, byte(c))
		case c <= 0xFFFF:
			b = appendUTF16Unit(b, uint16(c))
		default:
			hi, lo := utf16.EncodeRune(c)
			b = appendUTF16Unit(appendUTF16Unit(b, uint16(hi)), uint16(lo))
		}
	}
	return b, true
}

// appendUTF16Unit appends one UTF-16 code unit of 0x80 or above as modified
// UTF-8 (two or three bytes).
func appendUTF16Unit(b []byte, u uint16) []byte {
	if u < 0x800 {
		return append(b, 0xC0|byte(u>>6), 0x80|byte(u&0x3F))
	}
	return append(b, 0xE0|byte(u>>12), 0x80|byte(u>>6&0x3F), 0x80|byte(u&0x3F))
}

// appendUTF16Chars appends a named topology as int32 count + UTF-16 code
// units (DataOutputStream.writeChars), or int32 0 for none.
func appendUTF16Chars(b []byte, s string) []byte {
	units := utf16.Encode([]rune(s))
	b = appendInt32(b, int32(len(units)))
	for _, u := range units {
		b = binary.BigEndian.AppendUint16(b, u)
	}
	return b
}

// compareJava compares two strings as Java's String.compareTo does: by
// UTF-16 code units, which differs from Go's byte order only between a
// supplementary character and one from U+E000 to U+FFFF.
func compareJava(a, b string) int {
	for a != "" && b != "" {
		ra, na := utf8.DecodeRuneInString(a)
		rb, nb := utf8.DecodeRuneInString(b)
		if ra != rb {
			return cmpInt(utf16Key(ra), utf16Key(rb))
		}
		a, b = a[na:], b[nb:]
	}
	return cmpInt(len(a), len(b))
}

// utf16Key orders a rune by its first UTF-16 code unit, keeping the order
// of supplementary characters among themselves.
func utf16Key(r rune) int {
	if r >= 0x10000 {
		hi, _ := utf16.EncodeRune(r)
		return int(hi)<<16 | int(r&0xFFFF)
	}
	return int(r) << 16
}

func cmpInt(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
