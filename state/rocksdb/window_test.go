package rocksdb

import (
	"fmt"
	"testing"

	"github.com/linxGnu/grocksdb"

	"github.com/stoatflow/stoatflow/state"
)

// TestExpiredSegmentFamiliesDroppedOnceDurable checks that expired segment
// column families are dropped after a flush made their expiry durable, and
// not before (see pendingDrop).
func TestExpiredSegmentFamiliesDroppedOnceDurable(t *testing.T) {
	task := t.TempDir()
	o := state.WindowOptions{Name: "w", RetentionMs: 2_000, SegmentIntervalMs: 1_000}
	ro := Options{WriteBufferBytes: 64 << 10}
	rb, err := openWindowBase(task, o, ro)
	if err != nil {
		t.Fatal(err)
	}
	s, err := state.OpenWindow(rb, o)
	if err != nil {
		t.Fatal(err)
	}
	val := make([]byte, 1000)
	for n := int64(0); n < 300; n++ {
		for k := 0; k < 5; k++ {
			if err := s.Put([]byte(fmt.Sprintf("k%d", k)), val, n*1000); err != nil {
				t.Fatal(err)
			}
		}
		commit(t, s, n)
	}
	rb.writerMu.Lock()
	pending := len(rb.pending)
	rb.writerMu.Unlock()
	// ~5 KB per commit against a 64 KiB buffer: a flush every dozen
	// commits, so few drops can be waiting.
	if pending > 30 {
		t.Fatalf("%d segment drops still pending after 300 commits", pending)
	}
	s.Close()
	s, err = OpenWindow(task, o, ro)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	names, err := grocksdb.ListColumnFamilies(grocksdb.NewDefaultOptions(), state.SegmentedDir(task, "w"))
	if err != nil {
		t.Fatal(err)
	}
	// default, offsets and the live segments (2 s retention, 1 s segments).
	if len(names) > 6 {
		t.Fatalf("column families after reopen: %v", names)
	}
}
