// Package storeformat owns the byte layouts Kafka Streams gives store keys,
// store values and the windowed keys of topics. Every layout is written and
// read here and nowhere else: kstreams' store views (the write path),
// state's stores and their ApplyChangelog (the store layout and restore),
// kstreams/serde's windowed serdes and sidecar/internal/httpapi (interactive
// queries) all call these functions, so the bytes a task writes to a
// changelog are the bytes restore reads back. Numbers are big-endian, as
// Java's ByteBuffer writes them.
//
//	timestamped value  int64 timestamp ++ value             ValueAndTimestampSerializer
//	window store key   key ++ int64 start ++ int32 seqnum   WindowKeySchema.toStoreKeyBinary
//	session key        key ++ int64 end ++ int64 start      SessionKeySchema.toBinary, SessionWindowedSerializer
//	time-windowed key  key ++ int64 start                   TimeWindowedSerializer (WindowKeySchema.toBinary)
//
// Changelog records (Kafka Streams' ChangeLogging*BytesStore) follow from
// these: a key-value or versioned store logs its key and value; a
// timestamped store logs the value without its timestamp prefix and carries
// the timestamp as the record timestamp, so restore rebuilds the stored
// value with AppendTimestamped(record timestamp, record value); a window
// store logs under its window store key and a session store under its
// session key, which are also the keys the stores keep.
package storeformat

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

// ErrShort is returned for bytes shorter than the fixed part of their
// layout. Callers wrap it in their own error class (state's
// ErrInvalidArgument, serde's SerializationError).
var ErrShort = errors.New("storeformat: input too short")

func short(what string, n, want int) error {
	return fmt.Errorf("%w: %s of %d bytes is shorter than %d", ErrShort, what, n, want)
}

// Sizes of the fixed parts of the layouts.
const (
	TimestampSize      = 8
	WindowKeySuffix    = 12 // int64 start ++ int32 seqnum
	SessionKeySuffix   = 16 // int64 end ++ int64 start
	TimeWindowedSuffix = 8  // int64 start
)

// AppendTimestamped appends a timestamped store's value, ts ++ raw, to dst.
func AppendTimestamped(dst []byte, ts int64, raw []byte) []byte {
	dst = binary.BigEndian.AppendUint64(dst, uint64(ts))
	return append(dst, raw...)
}

// SplitTimestamped splits a timestamped store's value into its timestamp and
// raw value; raw aliases b.
func SplitTimestamped(b []byte) (ts int64, raw []byte, err error) {
	if len(b) < TimestampSize {
		return 0, nil, short("timestamped value", len(b), TimestampSize)
	}
	return int64(binary.BigEndian.Uint64(b)), b[TimestampSize:], nil
}

// AppendWindowKey appends a window store key, key ++ start ++ seqnum, to
// dst: the key window stores keep and log to their changelog. seqnum is 0
// unless the store retains duplicates.
func AppendWindowKey(dst, key []byte, start int64, seqnum int32) []byte {
	dst = append(dst, key...)
	dst = binary.BigEndian.AppendUint64(dst, uint64(start))
	return binary.BigEndian.AppendUint32(dst, uint32(seqnum))
}

// SplitWindowKey splits a window store key; key aliases b.
func SplitWindowKey(b []byte) (key []byte, start int64, seqnum int32, err error) {
	if len(b) < WindowKeySuffix {
		return nil, 0, 0, short("window store key", len(b), WindowKeySuffix)
	}
	n := len(b) - WindowKeySuffix
	return b[:n], int64(binary.BigEndian.Uint64(b[n:])), int32(binary.BigEndian.Uint32(b[n+8:])), nil
}

// AppendSessionKey appends a session key, key ++ end ++ start (end first),
// to dst: the key session stores keep and log, and the bytes of
// SessionWindowedSerde.
func AppendSessionKey(dst, key []byte, start, end int64) []byte {
	dst = append(dst, key...)
	dst = binary.BigEndian.AppendUint64(dst, uint64(end))
	return binary.BigEndian.AppendUint64(dst, uint64(start))
}

// SplitSessionKey splits a session key; key aliases b.
func SplitSessionKey(b []byte) (key []byte, start, end int64, err error) {
	if len(b) < SessionKeySuffix {
		return nil, 0, 0, short("session key", len(b), SessionKeySuffix)
	}
	n := len(b) - SessionKeySuffix
	return b[:n], int64(binary.BigEndian.Uint64(b[n+8:])), int64(binary.BigEndian.Uint64(b[n:])), nil
}

// AppendTimeWindowedKey appends a time-windowed key, key ++ start, to dst:
// the bytes of TimeWindowedSerde, which leaves the window end out.
func AppendTimeWindowedKey(dst, key []byte, start int64) []byte {
	dst = append(dst, key...)
	return binary.BigEndian.AppendUint64(dst, uint64(start))
}

// SplitTimeWindowedKey splits a time-windowed key; key aliases b. The window
// end is not in the bytes: WindowEnd rebuilds it from the window size.
func SplitTimeWindowedKey(b []byte) (key []byte, start int64, err error) {
	if len(b) < TimeWindowedSuffix {
		return nil, 0, short("time-windowed key", len(b), TimeWindowedSuffix)
	}
	n := len(b) - TimeWindowedSuffix
	return b[:n], int64(binary.BigEndian.Uint64(b[n:])), nil
}

// WindowEnd returns the end of the time window of size starting at start as
// Kafka Streams rebuilds it (WindowKeySchema.timeWindowForSize): start+size,
// or math.MaxInt64 when that is negative, which is how an overflow shows.
func WindowEnd(start, size int64) int64 {
	end := start + size
	if end < 0 {
		return math.MaxInt64
	}
	return end
}

// The stream-stream outer join's shared store (KSTREAM-OUTERSHARED-...-store,
// Kafka Streams' ListValueStore over TimestampedKeyAndJoinSide keys and
// LeftOrRightValue values) keeps the records that found no partner yet:
//
//	join side key      int64 timestamp ++ byte side (1 left, 0 right) ++ key   TimestampedKeyAndJoinSideSerializer
//	join side value    byte side (1 left, 0 right) ++ value                     LeftOrRightValueSerializer
//	value list         byte 1 ++ int32 n ++ (int32 len ++ bytes)*n              ListSerializer, VARIABLE_SIZE
//
// The key puts the timestamp first, so the store iterates in time order,
// right before left at one timestamp; the store logs the whole list under
// the key at every append, and a tombstone when the key is emitted.

// JoinSideKeyPrefix is the size of the fixed part of a join side key.
const JoinSideKeyPrefix = 9

// AppendJoinSideKey appends a join side key, ts ++ side ++ key, to dst.
func AppendJoinSideKey(dst []byte, ts int64, left bool, key []byte) []byte {
	dst = binary.BigEndian.AppendUint64(dst, uint64(ts))
	dst = append(dst, sideByte(left))
	return append(dst, key...)
}

// SplitJoinSideKey splits a join side key; key aliases b.
func SplitJoinSideKey(b []byte) (ts int64, left bool, key []byte, err error) {
	if len(b) < JoinSideKeyPrefix {
		return 0, false, nil, short("join side key", len(b), JoinSideKeyPrefix)
	}
	return int64(binary.BigEndian.Uint64(b)), b[8] == 1, b[JoinSideKeyPrefix:], nil
}

// AppendJoinSideValue appends a join side value, side ++ value, to dst.
func AppendJoinSideValue(dst []byte, left bool, value []byte) []byte {
	dst = append(dst, sideByte(left))
	return append(dst, value...)
}

// SplitJoinSideValue splits a join side value; value aliases b.
func SplitJoinSideValue(b []byte) (left bool, value []byte, err error) {
	if len(b) < 1 {
		return false, nil, short("join side value", len(b), 1)
	}
	return b[0] == 1, b[1:], nil
}

func sideByte(left bool) byte {
	if left {
		return 1
	}
	return 0
}

// listVariableSize is the strategy byte of Kafka's ListSerializer for an
// inner serde of variable size (SerializationStrategy.VARIABLE_SIZE).
const listVariableSize = 1

// nullListEntry is ListSerde.NULL_ENTRY_VALUE, the length of a null entry.
const nullListEntry = -1

// AppendValueList appends a list of byte values in Kafka's ListSerializer
// layout for a variable-size inner serde; a nil entry is written as null.
func AppendValueList(dst []byte, values [][]byte) []byte {
	dst = append(dst, listVariableSize)
	dst = binary.BigEndian.AppendUint32(dst, uint32(len(values)))
	for _, v := range values {
		if v == nil {
			dst = binary.BigEndian.AppendUint32(dst, uint32(0xFFFFFFFF))
			continue
		}
		dst = binary.BigEndian.AppendUint32(dst, uint32(len(v)))
		dst = append(dst, v...)
	}
	return dst
}

// SplitValueList splits a ListSerializer list of variable-size values; the
// values alias b.
func SplitValueList(b []byte) ([][]byte, error) {
	if len(b) < 5 {
		return nil, short("value list", len(b), 5)
	}
	if b[0] != listVariableSize {
		return nil, fmt.Errorf("storeformat: value list with serialization strategy %d, want %d (variable size)", b[0], listVariableSize)
	}
	n := int(int32(binary.BigEndian.Uint32(b[1:])))
	if n < 0 {
		return nil, fmt.Errorf("storeformat: value list of %d entries", n)
	}
	rest := b[5:]
	out := make([][]byte, 0, min(n, len(rest)/4))
	for i := 0; i < n; i++ {
		if len(rest) < 4 {
			return nil, short("value list entry length", len(rest), 4)
		}
		l := int(int32(binary.BigEndian.Uint32(rest)))
		rest = rest[4:]
		if l == nullListEntry {
			out = append(out, nil)
			continue
		}
		if l < 0 || l > len(rest) {
			return nil, fmt.Errorf("%w: value list entry of %d bytes with %d left", ErrShort, l, len(rest))
		}
		out = append(out, rest[:l:l])
		rest = rest[l:]
	}
	if len(rest) != 0 {
		return nil, fmt.Errorf("storeformat: value list has %d trailing bytes", len(rest))
	}
	return out, nil
}
