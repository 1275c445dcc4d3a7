package state

import (
	"encoding/binary"
	"fmt"
)

// EncodeTimestamped returns the stored form of a timestamped value: the
// 8-byte big-endian timestamp followed by the raw value, as Kafka Streams'
// ValueAndTimestampSerializer writes it.
func EncodeTimestamped(ts int64, value []byte) []byte {
	b := make([]byte, 8+len(value))
	binary.BigEndian.PutUint64(b, uint64(ts))
	copy(b[8:], value)
	return b
}

// DecodeTimestamped splits a stored timestamped value into its timestamp
// and raw value. The changelog carries the raw value with the timestamp as
// the record timestamp.
func DecodeTimestamped(b []byte) (ts int64, value []byte, err error) {
	if len(b) < 8 {
		return 0, nil, fmt.Errorf("%w: timestamped value of %d bytes, want at least 8", ErrInvalidArgument, len(b))
	}
	return int64(binary.BigEndian.Uint64(b)), b[8:], nil
}

// EncodeWindowKey returns Kafka Streams' window store key: the key bytes,
// the window start as int64 and the sequence number as int32, big-endian
// (WindowKeySchema.toStoreKeyBinary). It is both the changelog key and the
// stored key.
func EncodeWindowKey(key []byte, windowStart int64, seq int32) []byte {
	b := make([]byte, 0, len(key)+12)
	b = append(b, key...)
	b = binary.BigEndian.AppendUint64(b, uint64(windowStart))
	return binary.BigEndian.AppendUint32(b, uint32(seq))
}

// DecodeWindowKey splits a window store key.
func DecodeWindowKey(b []byte) (key []byte, windowStart int64, seq int32, err error) {
	if len(b) < 12 {
		return nil, 0, 0, fmt.Errorf("%w: window key of %d bytes, want at least 12", ErrInvalidArgument, len(b))
	}
	n := len(b) - 12
	return b[:n], int64(binary.BigEndian.Uint64(b[n:])), int32(binary.BigEndian.Uint32(b[n+8:])), nil
}

// EncodeSessionKey returns Kafka Streams' session key: the key bytes, then
// the session end and the session start as int64 big-endian, end first
// (SessionKeySchema.toBinary).
func EncodeSessionKey(key []byte, start, end int64) []byte {
	b := make([]byte, 0, len(key)+16)
	b = append(b, key...)
	b = binary.BigEndian.AppendUint64(b, uint64(end))
	return binary.BigEndian.AppendUint64(b, uint64(start))
}

// DecodeSessionKey splits a session key.
func DecodeSessionKey(b []byte) (key []byte, start, end int64, err error) {
	if len(b) < 16 {
		return nil, 0, 0, fmt.Errorf("%w: session key of %d bytes, want at least 16", ErrInvalidArgument, len(b))
	}
	n := len(b) - 16
	return b[:n], int64(binary.BigEndian.Uint64(b[n+8:])), int64(binary.BigEndian.Uint64(b[n:])), nil
}

// ChangelogEntry is a record to produce to a store's changelog topic.
type ChangelogEntry struct {
	Key       []byte
	Value     []byte // nil: tombstone
	Timestamp int64
}

// KeyValueChangelog returns the changelog record of a plain key-value write
// made at record timestamp ts.
func KeyValueChangelog(key, value []byte, ts int64) ChangelogEntry {
	return ChangelogEntry{Key: key, Value: value, Timestamp: ts}
}

// TimestampedChangelog returns the changelog record of a timestamped
// key-value write: the raw value, with the stored timestamp as record
// timestamp. For a delete (stored == nil) the record timestamp is ctxTs.
func TimestampedChangelog(key, stored []byte, ctxTs int64) (ChangelogEntry, error) {
	if stored == nil {
		return ChangelogEntry{Key: key, Timestamp: ctxTs}, nil
	}
	ts, v, err := DecodeTimestamped(stored)
	if err != nil {
		return ChangelogEntry{}, err
	}
	return ChangelogEntry{Key: key, Value: v, Timestamp: ts}, nil
}

// WindowChangelog returns the changelog record of a window store write.
// For a timestamped window store, stored is ts ++ value and the record
// carries the stored timestamp; otherwise ctxTs.
func WindowChangelog(key []byte, windowStart int64, seq int32, stored []byte, timestamped bool, ctxTs int64) (ChangelogEntry, error) {
	e := ChangelogEntry{Key: EncodeWindowKey(key, windowStart, seq), Value: stored, Timestamp: ctxTs}
	if timestamped && stored != nil {
		ts, v, err := DecodeTimestamped(stored)
		if err != nil {
			return ChangelogEntry{}, err
		}
		e.Value, e.Timestamp = v, ts
	}
	return e, nil
}

// SessionChangelog returns the changelog record of a session store write.
func SessionChangelog(key []byte, start, end int64, agg []byte, ctxTs int64) ChangelogEntry {
	return ChangelogEntry{Key: EncodeSessionKey(key, start, end), Value: agg, Timestamp: ctxTs}
}

// VersionedChangelog returns the changelog record of a versioned store
// write: the raw value (nil for a delete) with the version timestamp.
func VersionedChangelog(key, value []byte, validFrom int64) ChangelogEntry {
	return ChangelogEntry{Key: key, Value: value, Timestamp: validFrom}
}

// segmentID returns the segment of a timestamp for interval.
func segmentID(ts, interval int64) int64 {
	if ts < 0 {
		return (ts - interval + 1) / interval
	}
	return ts / interval
}

// SegmentInterval returns Kafka Streams' default segment interval for a
// retention period: max(retention/2, 60000) ms.
func SegmentInterval(retentionMs int64) int64 {
	return max(retentionMs/2, 60000)
}
