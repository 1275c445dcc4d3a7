package state

import (
	"bytes"
	"encoding/binary"
	"testing"
)

func FuzzWindowKeyRoundTrip(f *testing.F) {
	f.Add([]byte("key"), int64(1000), int32(0))
	f.Add([]byte{}, int64(-1), int32(0x7fffffff))
	f.Fuzz(func(t *testing.T, key []byte, ws int64, seq int32) {
		b := EncodeWindowKey(key, ws, seq)
		if len(b) != len(key)+12 || !bytes.Equal(b[len(key)+8:], binary.BigEndian.AppendUint32(nil, uint32(seq))) {
			t.Fatalf("layout %x", b)
		}
		k, w, s, err := DecodeWindowKey(b)
		if err != nil || !bytes.Equal(k, key) || w != ws || s != seq {
			t.Fatalf("round trip: %q %d %d %v", k, w, s, err)
		}
	})
}

func FuzzDecodeWindowKey(f *testing.F) {
	f.Add([]byte("k\x00\x00\x00\x00\x00\x00\x03\xe8\x00\x00\x00\x01"))
	f.Add([]byte{1, 2})
	f.Fuzz(func(t *testing.T, b []byte) {
		k, w, s, err := DecodeWindowKey(b)
		if err != nil {
			if len(b) >= 12 {
				t.Fatal(err)
			}
			return
		}
		if !bytes.Equal(EncodeWindowKey(k, w, s), b) {
			t.Fatalf("re-encode of %x differs", b)
		}
	})
}

func FuzzSessionKeyRoundTrip(f *testing.F) {
	f.Add([]byte("user"), int64(10), int64(20))
	f.Fuzz(func(t *testing.T, key []byte, start, end int64) {
		b := EncodeSessionKey(key, start, end)
		// End comes before start, as in Kafka Streams' SessionKeySchema.
		if int64(binary.BigEndian.Uint64(b[len(key):])) != end {
			t.Fatalf("end not first: %x", b)
		}
		k, s, e, err := DecodeSessionKey(b)
		if err != nil || !bytes.Equal(k, key) || s != start || e != end {
			t.Fatalf("round trip: %q %d %d %v", k, s, e, err)
		}
	})
}

func FuzzDecodeSessionKey(f *testing.F) {
	f.Add(make([]byte, 16))
	f.Fuzz(func(t *testing.T, b []byte) {
		k, s, e, err := DecodeSessionKey(b)
		if err != nil {
			if len(b) >= 16 {
				t.Fatal(err)
			}
			return
		}
		if !bytes.Equal(EncodeSessionKey(k, s, e), b) {
			t.Fatalf("re-encode of %x differs", b)
		}
	})
}

func FuzzTimestampedRoundTrip(f *testing.F) {
	f.Add(int64(5), []byte("v"))
	f.Fuzz(func(t *testing.T, ts int64, v []byte) {
		b := EncodeTimestamped(ts, v)
		gts, gv, err := DecodeTimestamped(b)
		if err != nil || gts != ts || !bytes.Equal(gv, v) {
			t.Fatalf("round trip: %d %q %v", gts, gv, err)
		}
		e, err := TimestampedChangelog([]byte("k"), b, 0)
		if err != nil || e.Timestamp != ts || !bytes.Equal(e.Value, v) {
			t.Fatalf("changelog: %+v %v", e, err)
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

func TestChangelogFormatsMatchKafkaStreams(t *testing.T) {
	// keyBytes ++ int64 windowStart ++ int32 seq, big-endian.
	eq(t, EncodeWindowKey([]byte{0xAB}, 0x0102030405060708, 0x0A0B0C0D),
		[]byte{0xAB, 1, 2, 3, 4, 5, 6, 7, 8, 0x0A, 0x0B, 0x0C, 0x0D})
	// keyBytes ++ int64 end ++ int64 start.
	eq(t, EncodeSessionKey([]byte{0xAB}, 1, 2), []byte{0xAB, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 1})
	e, _ := WindowChangelog([]byte("k"), 100, 0, EncodeTimestamped(7, []byte("v")), true, 99)
	eq(t, []any{e.Key, string(e.Value), e.Timestamp}, []any{EncodeWindowKey([]byte("k"), 100, 0), "v", 7})
	e, _ = WindowChangelog([]byte("k"), 100, 3, []byte("v"), false, 99)
	eq(t, e.Timestamp, 99)
	e = SessionChangelog([]byte("k"), 1, 2, nil, 5)
	eq(t, []any{e.Value == nil, e.Timestamp}, []any{true, 5})
	e = VersionedChangelog([]byte("k"), []byte("v"), 42)
	eq(t, e.Timestamp, 42)
	eq(t, TopicPartition{Topic: "app-store-changelog", Partition: 7}.String(), "app-store-changelog-7")
	raw, _ := Position{"t": {1: 2}}.MarshalBinary()
	eq(t, raw, []byte{0, 0, 0, 0, 1, 0, 0, 0, 1, 't', 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 2})
}
