package storeformat

import (
	"bytes"
	"errors"
	"testing"
)

// The shared outer-join store's bytes, as Kafka Streams'
// TimestampedKeyAndJoinSideSerializer, LeftOrRightValueSerializer and
// ListSerializer (over Serdes.ByteArray, VARIABLE_SIZE) write them.
func TestJoinSideKeyAndValueLayout(t *testing.T) {
	k := AppendJoinSideKey(nil, 0x0102030405060708, true, []byte("ab"))
	if want := []byte{1, 2, 3, 4, 5, 6, 7, 8, 1, 'a', 'b'}; !bytes.Equal(k, want) {
		t.Fatalf("key %x, want %x", k, want)
	}
	ts, left, key, err := SplitJoinSideKey(k)
	if err != nil || ts != 0x0102030405060708 || !left || string(key) != "ab" {
		t.Fatalf("split %d %v %q %v", ts, left, key, err)
	}
	r := AppendJoinSideKey(nil, 5, false, nil)
	if want := []byte{0, 0, 0, 0, 0, 0, 0, 5, 0}; !bytes.Equal(r, want) {
		t.Fatalf("right key %x", r)
	}
	// Right sorts before left at one timestamp, as the store iterates.
	if bytes.Compare(AppendJoinSideKey(nil, 5, false, []byte("z")), AppendJoinSideKey(nil, 5, true, []byte("a"))) >= 0 {
		t.Error("a right key must sort before a left key of the same timestamp")
	}
	v := AppendJoinSideValue(nil, false, []byte("x"))
	if !bytes.Equal(v, []byte{0, 'x'}) {
		t.Fatalf("value %x", v)
	}
	if l, raw, err := SplitJoinSideValue(v); err != nil || l || string(raw) != "x" {
		t.Fatalf("split value %v %q %v", l, raw, err)
	}
	if _, _, _, err := SplitJoinSideKey([]byte{1, 2}); !errors.Is(err, ErrShort) {
		t.Errorf("short key: %v", err)
	}
	if _, _, err := SplitJoinSideValue(nil); !errors.Is(err, ErrShort) {
		t.Errorf("short value: %v", err)
	}
}

func TestValueListLayout(t *testing.T) {
	b := AppendValueList(nil, [][]byte{[]byte("ab"), {}, nil})
	want := []byte{1, 0, 0, 0, 3, 0, 0, 0, 2, 'a', 'b', 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff}
	if !bytes.Equal(b, want) {
		t.Fatalf("list %x, want %x", b, want)
	}
	got, err := SplitValueList(b)
	if err != nil || len(got) != 3 || string(got[0]) != "ab" || got[1] == nil || len(got[1]) != 0 || got[2] != nil {
		t.Fatalf("split %q %v", got, err)
	}
	for _, bad := range [][]byte{
		{1, 0, 0},                        // short header
		{0, 0, 0, 0, 1, 0, 0, 0, 1, 'a'}, // constant-size strategy
		{1, 0, 0, 0, 1, 0, 0, 0, 5, 'a'}, // entry longer than the rest
		{1, 0, 0, 0, 0, 'x'},             // trailing bytes
		{1, 0xff, 0xff, 0xff, 0xff},      // negative count
	} {
		if _, err := SplitValueList(bad); err == nil {
			t.Errorf("SplitValueList(%x) accepted", bad)
		}
	}
}

func FuzzSplitValueList(f *testing.F) {
	f.Add(AppendValueList(nil, [][]byte{[]byte("a"), nil}))
	f.Fuzz(func(t *testing.T, b []byte) {
		vs, err := SplitValueList(b)
		if err != nil {
			return
		}
		if again := AppendValueList(nil, vs); !bytes.Equal(again, b) {
			t.Fatalf("round trip %x → %x", b, again)
		}
	})
}
