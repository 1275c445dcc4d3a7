package rocksdb

import (
	"testing"

	"github.com/stoatflow/stoatflow/state"
)

// TestReadCommittedOffsetLeavesTheStoreUnlocked: the offset a closed store
// committed is read from its files, as often as asked, while its owner opens
// it again and after: the read takes no lock and holds nothing open.
func TestReadCommittedOffsetLeavesTheStoreUnlocked(t *testing.T) {
	taskDir := t.TempDir()
	path := state.KeyValueDir(taskDir, "kv")
	if _, ok, err := ReadCommittedOffset(path, changelogTP); err != nil || ok {
		t.Fatalf("no store yet: ok %v, err %v; want neither", ok, err)
	}
	s, err := OpenKeyValue(taskDir, state.KeyValueOptions{Name: "kv"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	put(t, s, "a", "1")
	commit(t, s, 41)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		off, ok, err := ReadCommittedOffset(path, changelogTP)
		if err != nil || !ok || off != 41 {
			t.Fatalf("ReadCommittedOffset = %d, %v, %v; want 41", off, ok, err)
		}
	}
	other := state.TopicPartition{Topic: changelogTP.Topic, Partition: changelogTP.Partition + 1}
	if _, ok, err := ReadCommittedOffset(path, other); err != nil || ok {
		t.Fatalf("offset of a partition the store never had: ok %v, err %v; want neither", ok, err)
	}
	s, err = OpenKeyValue(taskDir, state.KeyValueOptions{Name: "kv"}, Options{})
	if err != nil {
		t.Fatalf("reopening after the reads: %v", err)
	}
	defer s.Close()
	if off, ok, err := ReadCommittedOffset(path, changelogTP); err != nil || !ok || off != 41 {
		t.Fatalf("ReadCommittedOffset of an open store = %d, %v, %v; want 41", off, ok, err)
	}
}
