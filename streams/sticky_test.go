package streams

import "testing"

// Null-key records stay on one partition until about a batch went there,
// then move to another, always within the topic's partitions.
func TestStickyPartitionSwitchesAfterABatch(t *testing.T) {
	th := &streamThread{sticky: map[string]*stickyPartition{}}
	const n = 6
	first := th.stickyPartition("out", n, 100)
	sent := 100
	for sent+100 <= stickyBatchBytes {
		if p := th.stickyPartition("out", n, 100); p != first {
			t.Fatalf("partition changed from %d to %d after %d bytes, below a batch", first, p, sent)
		}
		sent += 100
	}
	// The record that passes the batch size still goes there; the next moves.
	th.stickyPartition("out", n, 100)
	next := th.stickyPartition("out", n, 100)
	if next == first {
		t.Fatalf("partition %d kept after %d bytes, past a batch", first, sent+200)
	}
	seen := map[int32]bool{}
	for range 2000 {
		p := th.stickyPartition("out", n, 1000)
		if p < 0 || p >= n {
			t.Fatalf("partition %d outside [0,%d)", p, n)
		}
		seen[p] = true
	}
	if len(seen) < n-1 {
		t.Errorf("null-key records reached %d of %d partitions over 2 MB", len(seen), n)
	}
	if p := th.stickyPartition("one", 1, 1<<20); p != 0 {
		t.Errorf("single-partition topic: partition %d", p)
	}
}
