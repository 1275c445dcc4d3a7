package storeformat

import (
	"bytes"
	"encoding/hex"
	"errors"
	"testing"
)

// Kafka's Murmur3Test.testMurmur3_128 (seed 123).
func TestMurmur3Hash128KafkaVectors(t *testing.T) {
	cases := []struct {
		in   string
		want ValueHash
	}{
		{"21", ValueHash{5857341059704281894, -5288187638297930763}},
		{"foobar", ValueHash{-351361463397418609, 8959716011862540668}},
		{"a-little-bit-long-string", ValueHash{8836256500583638442, -198172363548498523}},
		{"a-little-bit-longer-string", ValueHash{1838346159335108511, 8794688210320490705}},
		{"lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8", ValueHash{-4024021876037397259, -1482317706335141238}},
		{"abc", ValueHash{1489494923063836066, -5440978547625122829}},
	}
	for _, c := range cases {
		if got := Murmur3Hash128Seed([]byte(c.in), 123); got != c.want {
			t.Errorf("hash128(%q, seed 123) = %v, want %v", c.in, got, c.want)
		}
	}
}

// Murmur3.hash128(data) with its default seed, as Kafka Streams 4.4's jar
// computes it, over every tail length class.
func TestMurmur3Hash128DefaultSeed(t *testing.T) {
	cases := []struct {
		in   []byte
		want ValueHash
	}{
		{[]byte(""), ValueHash{-7122613646888064702, -8341524471658347240}},
		{[]byte("21"), ValueHash{-1045175892060202657, -6196245913608550939}},
		{[]byte("foobar"), ValueHash{-1926091222759195742, 2201308245896195406}},
		{[]byte("a-little-bit-long-string"), ValueHash{5417698818280943022, 3147161311007288976}},
		{[]byte("a-little-bit-longer-string"), ValueHash{-9104688182850110877, 769208487401143056}},
		{[]byte("lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8"), ValueHash{-4021448441249083453, 6290205124114177547}},
		{[]byte("abc"), ValueHash{-8302830256874342818, -1638537471643095488}},
		{[]byte("0123456789abcdef"), ValueHash{1904622552327088487, -2893518741649893711}},
		{[]byte("0123456789abcdefg"), ValueHash{-6253751916947851771, -5841899321478313166}},
		{[]byte("value1|x"), ValueHash{-2154366059216988915, 8003638864375085114}},
		{[]byte{0xFF, 0xAA, 0x00, 0x19}, ValueHash{-3955359579171119721, -1701350710745563829}},
	}
	for _, c := range cases {
		if got := Murmur3Hash128(c.in); got != c.want {
			t.Errorf("hash128(%x) = %v, want %v", c.in, got, c.want)
		}
	}
}

func mustHex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// The bytes of SubscriptionWrapperSerdeTest's wrappers (primary key
// "originalKey", hash of ff aa 00 19, partition 10) as Kafka Streams 4.4's
// serializer writes them, for every instruction, with and without a hash.
func TestSubscriptionLayout(t *testing.T) {
	h := Murmur3Hash128([]byte{0xFF, 0xAA, 0x00, 0x19})
	cases := []struct {
		s    Subscription
		want string
	}{
		{Subscription{Version: 1, Instruction: DeleteKeyNoPropagate, Hash: &h, PrimaryKey: []byte("originalKey"), PrimaryPartition: 10, HasPartition: true},
			"0100c91bbd6b4c911d97e863968aefa6fd4b6f726967696e616c4b65790000000a"},
		{Subscription{Version: 1, Instruction: DeleteKeyNoPropagate, PrimaryKey: []byte("originalKey"), PrimaryPartition: 10, HasPartition: true},
			"81006f726967696e616c4b65790000000a"},
		{Subscription{Version: 1, Instruction: DeleteKeyAndPropagate, Hash: &h, PrimaryKey: []byte("originalKey"), PrimaryPartition: 10, HasPartition: true},
			"0101c91bbd6b4c911d97e863968aefa6fd4b6f726967696e616c4b65790000000a"},
		{Subscription{Version: 1, Instruction: DeleteKeyAndPropagate, PrimaryKey: []byte("originalKey"), PrimaryPartition: 10, HasPartition: true},
			"81016f726967696e616c4b65790000000a"},
		{Subscription{Version: 1, Instruction: PropagateNullIfNoFKValAvailable, Hash: &h, PrimaryKey: []byte("originalKey"), PrimaryPartition: 10, HasPartition: true},
			"0102c91bbd6b4c911d97e863968aefa6fd4b6f726967696e616c4b65790000000a"},
		{Subscription{Version: 1, Instruction: PropagateNullIfNoFKValAvailable, PrimaryKey: []byte("originalKey"), PrimaryPartition: 10, HasPartition: true},
			"81026f726967696e616c4b65790000000a"},
		{Subscription{Version: 1, Instruction: PropagateOnlyIfFKValAvailable, Hash: &h, PrimaryKey: []byte("originalKey"), PrimaryPartition: 10, HasPartition: true},
			"0103c91bbd6b4c911d97e863968aefa6fd4b6f726967696e616c4b65790000000a"},
		{Subscription{Version: 1, Instruction: PropagateOnlyIfFKValAvailable, PrimaryKey: []byte("originalKey"), PrimaryPartition: 10, HasPartition: true},
			"81036f726967696e616c4b65790000000a"},
		{Subscription{Version: 0, Instruction: DeleteKeyAndPropagate, Hash: &h, PrimaryKey: []byte("originalKey")},
			"0001c91bbd6b4c911d97e863968aefa6fd4b6f726967696e616c4b6579"},
	}
	for _, c := range cases {
		got, err := AppendSubscription(nil, c.s)
		if err != nil {
			t.Fatal(err)
		}
		if want := mustHex(t, c.want); !bytes.Equal(got, want) {
			t.Errorf("%v: got %x, want %x", c.s.Instruction, got, want)
		}
		back, err := DecodeSubscription(got)
		if err != nil {
			t.Fatal(err)
		}
		if back.Version != c.s.Version || back.Instruction != c.s.Instruction || (back.Hash == nil) != (c.s.Hash == nil) ||
			(back.Hash != nil && *back.Hash != *c.s.Hash) || !bytes.Equal(back.PrimaryKey, c.s.PrimaryKey) ||
			back.HasPartition != c.s.HasPartition || back.PrimaryPartition != c.s.PrimaryPartition {
			t.Errorf("round trip of %+v gave %+v", c.s, back)
		}
	}
}

// SubscriptionWrapperSerdeTest: a primary key is required; a version above
// the current one is refused; bad bytes give errors, not panics.
func TestSubscriptionRejects(t *testing.T) {
	if _, err := AppendSubscription(nil, Subscription{Version: 1}); err == nil {
		t.Error("a subscription without a primary key was encoded")
	}
	if _, err := AppendSubscription(nil, Subscription{Version: 2, PrimaryKey: []byte("k")}); err == nil {
		t.Error("a version 2 subscription was encoded")
	}
	for _, b := range []string{"", "01", "0204", "0100aa", "810061"} {
		if _, err := DecodeSubscription(mustHex(t, b)); err == nil {
			t.Errorf("DecodeSubscription(%s) succeeded", b)
		}
	}
	if _, err := DecodeSubscription(mustHex(t, "0100")); !errors.Is(err, ErrShort) {
		t.Errorf("short subscription: %v", err)
	}
}

// SubscriptionResponseWrapperSerdeTest's cases, with Kafka Streams 4.4's bytes.
func TestResponseLayout(t *testing.T) {
	h := Murmur3Hash128([]byte{0xFF, 0xAA, 0x00, 0x19})
	cases := []struct {
		r    Response
		want string
	}{
		{Response{Hash: &h, ForeignValue: []byte("foreignValue")}, "00c91bbd6b4c911d97e863968aefa6fd4b666f726569676e56616c7565"},
		{Response{ForeignValue: []byte("foreignValue")}, "80666f726569676e56616c7565"},
		{Response{Hash: &h}, "00c91bbd6b4c911d97e863968aefa6fd4b"},
		{Response{}, "80"},
	}
	for _, c := range cases {
		got := AppendResponse(nil, c.r)
		if want := mustHex(t, c.want); !bytes.Equal(got, want) {
			t.Errorf("got %x, want %x", got, want)
		}
		back, err := DecodeResponse(got)
		if err != nil {
			t.Fatal(err)
		}
		if (back.Hash == nil) != (c.r.Hash == nil) || (back.Hash != nil && *back.Hash != h) || !bytes.Equal(back.ForeignValue, c.r.ForeignValue) ||
			(back.ForeignValue == nil) != (c.r.ForeignValue == nil) {
			t.Errorf("round trip of %+v gave %+v", c.r, back)
		}
	}
	for _, b := range []string{"", "00aa"} {
		if _, err := DecodeResponse(mustHex(t, b)); err == nil {
			t.Errorf("DecodeResponse(%s) succeeded", b)
		}
	}
}

// CombinedKeySchemaTest: a String foreign key and an Integer primary key.
func TestCombinedKeyLayout(t *testing.T) {
	fk, pk := []byte("someForeignKey"), []byte{0, 0, 0, 47}
	got := AppendCombinedKey(nil, fk, pk)
	if want := mustHex(t, "0000000e736f6d65466f726569676e4b65790000002f"); !bytes.Equal(got, want) {
		t.Errorf("combined key %x, want %x", got, want)
	}
	if p := CombinedKeyPrefix(fk); !bytes.Equal(p, mustHex(t, "0000000e736f6d65466f726569676e4b6579")) || !bytes.HasPrefix(got, p) {
		t.Errorf("prefix %x", p)
	}
	f, p, err := SplitCombinedKey(got)
	if err != nil || !bytes.Equal(f, fk) || !bytes.Equal(p, pk) {
		t.Errorf("split: %q %x %v", f, p, err)
	}
	if got := AppendCombinedKey(nil, []byte{}, []byte{0, 0, 0, 0}); !bytes.Equal(got, make([]byte, 8)) {
		t.Errorf("empty foreign key: %x", got)
	}
	for _, b := range []string{"", "000000", "00000005aa"} {
		if _, _, err := SplitCombinedKey(mustHex(t, b)); err == nil {
			t.Errorf("SplitCombinedKey(%s) succeeded", b)
		}
	}
}

func FuzzDecodeFKJoin(f *testing.F) {
	f.Add([]byte{0x01, 0x02, 'k', 0, 0, 0, 1})
	f.Add([]byte{0x80})
	f.Fuzz(func(t *testing.T, b []byte) {
		if s, err := DecodeSubscription(b); err == nil {
			out, err := AppendSubscription(nil, s)
			if err == nil && len(s.PrimaryKey) > 0 && !bytes.Equal(out, b) {
				t.Errorf("subscription %x re-encoded as %x", b, out)
			}
		}
		if r, err := DecodeResponse(b); err == nil && !bytes.Equal(AppendResponse(nil, r), b) {
			t.Errorf("response %x re-encoded differently", b)
		}
		_, _, _ = SplitCombinedKey(b)
	})
}
