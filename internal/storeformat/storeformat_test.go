package storeformat

import (
	"bytes"
	"errors"
	"math"
	"testing"
)

// TestLayoutsMatchKafkaStreams pins each layout to the bytes Kafka Streams
// writes (reference §4 and §5): big-endian, window start before the
// sequence number, session end before its start.
func TestLayoutsMatchKafkaStreams(t *testing.T) {
	cases := []struct {
		name      string
		got, want []byte
	}{
		{"timestamped", AppendTimestamped(nil, 0x0102030405060708, []byte("v")), []byte{1, 2, 3, 4, 5, 6, 7, 8, 'v'}},
		{"timestamped empty", AppendTimestamped(nil, -1, []byte{}), bytes.Repeat([]byte{0xff}, 8)},
		{"window key", AppendWindowKey(nil, []byte{0xAB}, 0x0102030405060708, 0x0A0B0C0D),
			[]byte{0xAB, 1, 2, 3, 4, 5, 6, 7, 8, 0x0A, 0x0B, 0x0C, 0x0D}},
		{"window key seq 0", AppendWindowKey(nil, []byte("k"), 5, 0), []byte{'k', 0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0, 0}},
		{"session key", AppendSessionKey(nil, []byte{0xAB}, 1, 2), []byte{0xAB, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 1}},
		{"time-windowed key", AppendTimeWindowedKey(nil, []byte("a"), 256), []byte{'a', 0, 0, 0, 0, 0, 0, 1, 0}},
		{"appends to dst", AppendWindowKey([]byte("pre"), nil, 0, 1), []byte{'p', 'r', 'e', 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1}},
	}
	for _, c := range cases {
		if !bytes.Equal(c.got, c.want) {
			t.Errorf("%s: got %x want %x", c.name, c.got, c.want)
		}
	}
}

func TestShortInputIsErrShort(t *testing.T) {
	if _, _, err := SplitTimestamped(make([]byte, 7)); !errors.Is(err, ErrShort) {
		t.Errorf("timestamped: %v", err)
	}
	if _, _, _, err := SplitWindowKey(make([]byte, 11)); !errors.Is(err, ErrShort) {
		t.Errorf("window key: %v", err)
	}
	if _, _, _, err := SplitSessionKey(make([]byte, 15)); !errors.Is(err, ErrShort) {
		t.Errorf("session key: %v", err)
	}
	if _, _, err := SplitTimeWindowedKey(make([]byte, 7)); !errors.Is(err, ErrShort) {
		t.Errorf("time-windowed key: %v", err)
	}
	_, _, _, err := SplitWindowKey([]byte{1, 2, 3})
	if want := "storeformat: input too short: window store key of 3 bytes is shorter than 12"; err == nil || err.Error() != want {
		t.Errorf("message %q, want %q", err, want)
	}
}

// Kafka Streams rebuilds a window end as start + size and, when that is
// negative, Long.MAX_VALUE (WindowKeySchema.timeWindowForSize).
func TestWindowEndSaturatesLikeKafka(t *testing.T) {
	for _, c := range []struct{ start, size, want int64 }{
		{1000, 100, 1100},
		{0, math.MaxInt64, math.MaxInt64},
		{1, math.MaxInt64, math.MaxInt64},
		{math.MaxInt64 - 5, 10, math.MaxInt64},
		{-100, 10, math.MaxInt64},
	} {
		if got := WindowEnd(c.start, c.size); got != c.want {
			t.Errorf("WindowEnd(%d, %d) = %d, want %d", c.start, c.size, got, c.want)
		}
	}
}

// Each decoder must split every input of its fixed size or more, and what
// it splits must encode back to the same bytes; shorter input is ErrShort.
func FuzzSplitTimestamped(f *testing.F) {
	f.Add([]byte{0, 0, 0, 0, 0, 0, 0, 5, 'v'})
	f.Add([]byte{1})
	f.Fuzz(func(t *testing.T, b []byte) {
		ts, raw, err := SplitTimestamped(b)
		if checkShort(t, b, TimestampSize, err) {
			return
		}
		if out := AppendTimestamped(nil, ts, raw); !bytes.Equal(out, b) {
			t.Fatalf("%x -> (%d, %x) -> %x", b, ts, raw, out)
		}
	})
}

func FuzzSplitWindowKey(f *testing.F) {
	f.Add([]byte("k\x00\x00\x00\x00\x00\x00\x03\xe8\x00\x00\x00\x01"))
	f.Add([]byte{1, 2})
	f.Fuzz(func(t *testing.T, b []byte) {
		key, start, seq, err := SplitWindowKey(b)
		if checkShort(t, b, WindowKeySuffix, err) {
			return
		}
		if out := AppendWindowKey(nil, key, start, seq); !bytes.Equal(out, b) {
			t.Fatalf("%x -> (%x, %d, %d) -> %x", b, key, start, seq, out)
		}
	})
}

func FuzzSplitSessionKey(f *testing.F) {
	f.Add([]byte("k\x00\x00\x00\x00\x00\x00\x00\x09\x00\x00\x00\x00\x00\x00\x00\x05"))
	f.Add(make([]byte, 15))
	f.Fuzz(func(t *testing.T, b []byte) {
		key, start, end, err := SplitSessionKey(b)
		if checkShort(t, b, SessionKeySuffix, err) {
			return
		}
		if out := AppendSessionKey(nil, key, start, end); !bytes.Equal(out, b) {
			t.Fatalf("%x -> (%x, %d, %d) -> %x", b, key, start, end, out)
		}
	})
}

func FuzzSplitTimeWindowedKey(f *testing.F) {
	f.Add([]byte("k\x00\x00\x00\x00\x00\x00\x00\x05"))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, b []byte) {
		key, start, err := SplitTimeWindowedKey(b)
		if checkShort(t, b, TimeWindowedSuffix, err) {
			return
		}
		if out := AppendTimeWindowedKey(nil, key, start); !bytes.Equal(out, b) {
			t.Fatalf("%x -> (%x, %d) -> %x", b, key, start, out)
		}
	})
}

// FuzzAppendRoundTrip encodes arbitrary fields with every layout and
// decodes them back.
func FuzzAppendRoundTrip(f *testing.F) {
	f.Add([]byte("key"), int64(1000), int64(2000), int32(0))
	f.Add([]byte{}, int64(-1), int64(math.MinInt64), int32(math.MaxInt32))
	f.Fuzz(func(t *testing.T, key []byte, a, b int64, seq int32) {
		if ts, raw, err := SplitTimestamped(AppendTimestamped(nil, a, key)); err != nil || ts != a || !bytes.Equal(raw, key) {
			t.Fatalf("timestamped: %d %x %v", ts, raw, err)
		}
		if k, start, s, err := SplitWindowKey(AppendWindowKey(nil, key, a, seq)); err != nil || start != a || s != seq || !bytes.Equal(k, key) {
			t.Fatalf("window key: %x %d %d %v", k, start, s, err)
		}
		if k, start, end, err := SplitSessionKey(AppendSessionKey(nil, key, a, b)); err != nil || start != a || end != b || !bytes.Equal(k, key) {
			t.Fatalf("session key: %x %d %d %v", k, start, end, err)
		}
		if k, start, err := SplitTimeWindowedKey(AppendTimeWindowedKey(nil, key, a)); err != nil || start != a || !bytes.Equal(k, key) {
			t.Fatalf("time-windowed key: %x %d %v", k, start, err)
		}
	})
}

// checkShort fails unless err is ErrShort exactly when b is shorter than
// min, and reports whether b was short.
func checkShort(t *testing.T, b []byte, min int, err error) bool {
	t.Helper()
	if len(b) < min {
		if !errors.Is(err, ErrShort) {
			t.Fatalf("%d bytes: %v, want ErrShort", len(b), err)
		}
		return true
	}
	if err != nil {
		t.Fatalf("%x: %v", b, err)
	}
	return false
}
