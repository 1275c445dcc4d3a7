package state

import (
	"bytes"
	"errors"
	"math"
	"testing"
)

// Kafka's changelog records, written out byte for byte (reference §4), are
// what ApplyChangelog must read: the key layouts are WindowKeySchema's
// (key ++ int64 start ++ int32 seqnum) and SessionKeySchema's (key ++ int64
// end ++ int64 start), and a timestamped store's record carries the value
// without its timestamp, which is the record timestamp.
func TestRestoreReadsKafkaChangelogRecords(t *testing.T) {
	kv := NewInMemoryKeyValue(KeyValueOptions{Name: "kv", Timestamped: true})
	defer kv.Close()
	if err := kv.ApplyChangelog([]ChangelogRecord{{Key: []byte("k"), Value: []byte("v"), Timestamp: 0x0102}}, changelogTP, 0); err != nil {
		t.Fatal(err)
	}
	got, _ := kv.Get([]byte("k"))
	eq(t, got, []byte{0, 0, 0, 0, 0, 0, 1, 2, 'v'})

	plain := NewInMemoryKeyValue(KeyValueOptions{Name: "plain"})
	defer plain.Close()
	if err := plain.ApplyChangelog([]ChangelogRecord{{Key: []byte("k"), Value: []byte("v"), Timestamp: 9}}, changelogTP, 0); err != nil {
		t.Fatal(err)
	}
	got, _ = plain.Get([]byte("k"))
	eq(t, got, []byte("v"))

	ws, err := NewInMemoryWindow(WindowOptions{Name: "w", RetentionMs: 1 << 40, Timestamped: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	windowRec := []byte{0xAB, 0, 0, 0, 0, 0, 0, 0x03, 0xe8, 0, 0, 0, 0} // key 0xAB, start 1000, seqnum 0
	if err := ws.ApplyChangelog([]ChangelogRecord{{Key: windowRec, Value: []byte("v"), Timestamp: 7}}, changelogTP, 0); err != nil {
		t.Fatal(err)
	}
	got, _ = ws.Fetch([]byte{0xAB}, 1000)
	eq(t, got, []byte{0, 0, 0, 0, 0, 0, 0, 7, 'v'})
	eq(t, windowKey([]byte{0xAB}, 1000, 0), windowRec)

	ss, err := NewInMemorySession(SessionOptions{Name: "s", RetentionMs: 1 << 40})
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	sessionRec := []byte{0xAB, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 1} // key 0xAB, end 2, start 1
	if err := ss.ApplyChangelog([]ChangelogRecord{{Key: sessionRec, Value: []byte("agg"), Timestamp: 5}}, changelogTP, 0); err != nil {
		t.Fatal(err)
	}
	got, _ = ss.FetchSession([]byte{0xAB}, 1, 2)
	eq(t, got, []byte("agg"))
	eq(t, sessionKey([]byte{0xAB}, 1, 2), sessionRec)

	vs, err := NewInMemoryVersioned(VersionedOptions{Name: "v", HistoryRetentionMs: 1 << 40})
	if err != nil {
		t.Fatal(err)
	}
	defer vs.Close()
	if err := vs.ApplyChangelog([]ChangelogRecord{{Key: []byte("k"), Value: []byte("v"), Timestamp: 42}}, changelogTP, 0); err != nil {
		t.Fatal(err)
	}
	eq(t, fmtRec(vs.Get([]byte("k"))), "v[42,)")

	eq(t, TopicPartition{Topic: "app-store-changelog", Partition: 7}.String(), "app-store-changelog-7")
	raw, _ := Position{"t": {1: 2}}.MarshalBinary()
	eq(t, raw, []byte{0, 0, 0, 0, 1, 0, 0, 0, 1, 't', 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 2})
}

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
		err = s.ApplyChangelog([]ChangelogRecord{{Key: key, Value: value, Timestamp: ts}}, changelogTP, 0)
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
		err = s.ApplyChangelog([]ChangelogRecord{{Key: key, Value: value}}, changelogTP, 0)
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
		switch b[8] {
		case 0:
			eq(t, encodeLatest(v.from, v.value, v.tombstone), b)
		case 1:
			eq(t, encodeLatest(v.from, v.value, v.tombstone), b[:9])
		}
	})
}

func FuzzPositionDecode(f *testing.F) {
	p := Position{"in": {0: 5, 3: 9}, "other": {1: -1}}
	raw, _ := p.MarshalBinary()
	f.Add(raw)
	f.Add(append(raw, 0, 0, 0, 0))
	f.Add([]byte{0, 0xff, 0xff, 0xff, 0xff})
	f.Fuzz(func(t *testing.T, b []byte) {
		p, err := UnmarshalPosition(b)
		if err != nil {
			return
		}
		again, _ := p.MarshalBinary()
		q, err := UnmarshalPosition(again)
		if err != nil {
			t.Fatal(err)
		}
		if len(q) != len(p) {
			t.Fatalf("round trip changed %v to %v", p, q)
		}
	})
}
