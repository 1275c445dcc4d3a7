package overlay

import (
	"fmt"
	"testing"
)

func keys(it *Iterator) []string {
	var out []string
	for it.Next() {
		out = append(out, string(it.Entry().Key))
	}
	return out
}

func TestIteratorCrossesBatches(t *testing.T) {
	m := New()
	for i := 0; i < 500; i++ {
		m.Put([]byte(fmt.Sprintf("k%04d", i)), []byte("v"))
	}
	s := m.Snapshot()
	if got := keys(s.Iter(nil, nil, false)); len(got) != 500 || got[0] != "k0000" || got[499] != "k0499" {
		t.Fatalf("forward: %d %v", len(got), got[:3])
	}
	got := keys(s.Iter([]byte("k0100"), []byte("k0300"), true))
	if len(got) != 200 || got[0] != "k0299" || got[199] != "k0100" {
		t.Fatalf("reverse: %d %v", len(got), got[:3])
	}
}

func TestSnapshotIgnoresLaterWrites(t *testing.T) {
	m := New()
	m.Put([]byte("a"), []byte("1"))
	s := m.Snapshot()
	m.Put([]byte("a"), []byte("2"))
	m.Delete([]byte("b"))
	m.Reset()
	e, ok := s.Get([]byte("a"))
	if !ok || string(e.Value) != "1" || s.Len() != 1 {
		t.Fatalf("snapshot changed: %v %v", e, ok)
	}
}

func TestBytesExactOnOverwrite(t *testing.T) {
	m := New()
	if d := m.Put([]byte("key"), []byte("value")); d != 8 {
		t.Fatal(d)
	}
	if d := m.Put([]byte("key"), []byte("v")); d != -4 {
		t.Fatal(d)
	}
	if d := m.Delete([]byte("key")); d != -1 {
		t.Fatal(d)
	}
	if m.Bytes() != 3 {
		t.Fatal(m.Bytes())
	}
	if d := m.Remove([]byte("key")); d != -3 || m.Bytes() != 0 {
		t.Fatal(d, m.Bytes())
	}
}

func TestPutCopiesCallerBytes(t *testing.T) {
	m := New()
	k, v := []byte("k"), []byte("v")
	m.Put(k, v)
	k[0], v[0] = 'x', 'x'
	e, ok := m.Get([]byte("k"))
	if !ok || string(e.Value) != "v" {
		t.Fatal(e, ok)
	}
}
