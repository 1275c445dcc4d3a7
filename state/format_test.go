package state

import (
	"bytes"
	"errors"
	"math"
	"testing"
)

// fuzzTP is the changelog partition of the fuzzed restores.
var fuzzTP = TopicPartition{Topic: "app-kv-changelog", Partition: 3}

// FuzzWindowApplyChangelog restores one arbitrary changelog record into a
// timestamped window store: a key too short for the window store layout is
// an invalid argument, anything else is kept under its window (the store
// serves sequence number 0) as record timestamp ++ value.
func FuzzWindowApplyChangelog(f *testing.F) {
	f.Add([]byte("k\x00\x00\x00\x00\x00\x00\x03\xe8\x00\x00\x00\x00"), []byte("v"), int64(5))
	f.Add([]byte("k\x00\x00\x00\x00\x00\x00\x03\xe8\x00\x00\x00\x07"), []byte{}, int64(-1))
	f.Add([]byte{1, 2}, []byte("v"), int64(0))
	f.Fuzz(func(t *testing.T, key, value []byte, ts int64) {
		s, err := NewInMemoryWindow(WindowOptions{Name: "w", RetentionMs: math.MaxInt64 / 4, Timestamped: true})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		err = s.ApplyChangelog([]ChangelogRecord{{Key: key, Value: value, Timestamp: ts}}, fuzzTP, 0)
		if len(key) < 12 {
			if !errors.Is(err, ErrInvalidArgument) {
				t.Fatalf("key %x: %v", key, err)
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		k, start, seq, err := splitWindowKey(key)
		if err != nil || !bytes.Equal(windowKey(k, start, seq), key) {
			t.Fatalf("key %x does not re-encode: %v", key, err)
		}
		if seq != 0 || start < 0 {
			return
		}
		got, err := s.Fetch(k, start)
		if err != nil {
			t.Fatal(err)
		}
		want := append([]byte{byte(ts >> 56), byte(ts >> 48), byte(ts >> 40), byte(ts >> 32), byte(ts >> 24), byte(ts >> 16), byte(ts >> 8), byte(ts)}, value...)
		if !bytes.Equal(got, want) {
			t.Fatalf("fetch %x@%d = %x, want %x", k, start, got, want)
		}
	})
}

// FuzzSessionApplyChangelog restores one arbitrary changelog record into a
// session store: a key too short for the session layout is an invalid
// argument, anything else is the session it names.
func FuzzSessionApplyChangelog(f *testing.F) {
	f.Add([]byte("k\x00\x00\x00\x00\x00\x00\x00\x02\x00\x00\x00\x00\x00\x00\x00\x01"), []byte("agg"))
	f.Add(make([]byte, 15), []byte("agg"))
	f.Fuzz(func(t *testing.T, key, value []byte) {
		s, err := NewInMemorySession(SessionOptions{Name: "s", RetentionMs: math.MaxInt64 / 4})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		err = s.ApplyChangelog([]ChangelogRecord{{Key: key, Value: value}}, fuzzTP, 0)
		if len(key) < 16 {
			if !errors.Is(err, ErrInvalidArgument) {
				t.Fatalf("key %x: %v", key, err)
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		k, start, end, err := splitSessionKey(key)
		if err != nil || !bytes.Equal(sessionKey(k, start, end), key) {
			t.Fatalf("key %x does not re-encode: %v", key, err)
		}
		if end < 0 {
			return
		}
		got, err := s.FetchSession(k, start, end)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, value) {
			t.Fatalf("session %x [%d,%d] = %x, want %x", k, start, end, got, value)
		}
	})
}

// FuzzDecodeLatest decodes arbitrary bytes as a versioned store's stored
// version (validFrom ++ tombstone flag ++ value): anything of 9 bytes or
// more decodes, and the canonical forms encode back to the same bytes.
func FuzzDecodeLatest(f *testing.F) {
	f.Add(encodeLatest(10, []byte("v"), false))
	f.Add(encodeLatest(-1, nil, true))
	f.Add([]byte{1, 2, 3})
	f.Fuzz(func(t *testing.T, b []byte) {
		v, err := decodeLatest(b)
		if len(b) < 9 {
			if !errors.Is(err, ErrInvalidArgument) {
				t.Fatalf("%x: %v", b, err)
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		want := b
		if b[8] == 1 {
			want = b[:9]
		}
		if b[8] <= 1 && !bytes.Equal(encodeLatest(v.from, v.value, v.tombstone), want) {
			t.Fatalf("%x decodes to %+v, which encodes to %x", b, v, encodeLatest(v.from, v.value, v.tombstone))
		}
	})
}
