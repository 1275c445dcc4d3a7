//go:build invariants

package state

import (
	"strings"
	"testing"
)

func wantInvariantPanic(t *testing.T, part string, f func()) {
	t.Helper()
	defer func() {
		t.Helper()
		p := recover()
		msg, _ := p.(string)
		if !strings.HasPrefix(msg, "invariant violated: ") || !strings.Contains(msg, part) {
			t.Fatalf("panic = %#v, want an invariant violation naming %q", p, part)
		}
	}()
	f()
}

func TestInvariantBudgetNeverNegative(t *testing.T) {
	var b Budget
	b.Add(10)
	b.Add(-10)
	wantInvariantPanic(t, "budget at -1", func() { b.Add(-1) })
}

func TestInvariantCommitSeesNoConcurrentWrite(t *testing.T) {
	s := NewInMemoryKeyValue(KeyValueOptions{Name: "counts"})
	c := s.(*kvStore).c
	if err := s.Put([]byte("a"), []byte("1")); err != nil {
		t.Fatal(err)
	}
	snap := c.ov.Snapshot()
	c.checkNoWriteDuring("commit", snap) // unchanged: passes
	if err := s.Put([]byte("b"), []byte("2")); err != nil {
		t.Fatal(err)
	}
	wantInvariantPanic(t, "store counts: 2 uncommitted entries", func() { c.checkNoWriteDuring("commit", snap) })
	wantInvariantPanic(t, "store counts: overlay holds 2 entries", func() { c.checkOverlayEmpty("commit") })
	if err := s.Commit(map[TopicPartition]*int64{{Topic: "t", Partition: 0}: Offset(1)}); err != nil {
		t.Fatal(err)
	}
	c.checkOverlayEmpty("commit")
}
