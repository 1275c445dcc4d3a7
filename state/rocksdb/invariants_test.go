//go:build invariants

package rocksdb

import (
	"strings"
	"testing"

	"github.com/stoatflow/stoatflow/state"
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

// TestInvariantRestoreMovesOffsetForward: package state's check that a
// restore batch ends past the store's offset, on an engine that keeps
// offsets (the in-memory one does not).
func TestInvariantRestoreMovesOffsetForward(t *testing.T) {
	s, err := OpenKeyValue(t.TempDir(), state.KeyValueOptions{Name: "counts"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	tp := state.TopicPartition{Topic: "app-counts-changelog", Partition: 1}
	rec := []state.ChangelogRecord{{Key: []byte("a"), Value: []byte("1"), Timestamp: 1}}
	if err := s.ApplyChangelog(rec, tp, 7); err != nil {
		t.Fatal(err)
	}
	if err := s.ApplyChangelog(rec, tp, 8); err != nil {
		t.Fatal(err)
	}
	wantInvariantPanic(t, "restore batch of changelog app-counts-changelog-1 ends at offset 8, not past the store's offset 8", func() {
		_ = s.ApplyChangelog(rec, tp, 8)
	})
}
