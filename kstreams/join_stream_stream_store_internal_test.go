package kstreams

import (
	"testing"

	"github.com/stoatflow/stoatflow/kstreams/serde"
	"github.com/stoatflow/stoatflow/state"
)

// TestOuterJoinSharedStoreScanSeesOnlyItsEntriesInMemory is
// TestOuterJoinSharedStoreScanSeesOnlyItsEntries (ssjoin_store_rocksdb_test.go)
// on the in-memory engine, for builds without cgo.
func TestOuterJoinSharedStoreScanSeesOnlyItsEntriesInMemory(t *testing.T) {
	kv := state.NewInMemoryKeyValue(state.KeyValueOptions{Name: "shared"})
	defer kv.Close()
	testOuterJoinSharedStoreScan(t, kv)
}

// testOuterJoinSharedStoreScan drives the shared outer-join store over kv:
// uncommitted writes over committed ones, the store's changelog offset and
// position written by commits; a scan must see the join's entries and
// nothing else, every value decoding as a value list.
func testOuterJoinSharedStoreScan(t *testing.T, kv state.KeyValueStore) {
	t.Helper()
	str := serde.Erase[string](serde.String{})
	var logged int
	s := &outerJoinStore{storeBase: storeBase{name: "shared", key: str, val: str, topic: "app-shared-changelog",
		log: logFunc(func() { logged++ }), now: func() int64 { return 0 }}, inner: kv, right: str}
	tp := state.TopicPartition{Topic: "app-shared-changelog", Partition: 0}
	if err := s.Append("k", 10, true, "L1"); err != nil {
		t.Fatal(err)
	}
	if err := s.Append("k", 10, true, "L2"); err != nil {
		t.Fatal(err)
	}
	if pt, ok := kv.(state.PositionTracker); ok {
		pt.UpdatePosition("in", 0, 41)
	}
	if err := kv.Commit(map[state.TopicPartition]*int64{tp: state.Offset(1)}); err != nil {
		t.Fatal(err)
	}
	if err := s.Append("j", 5, false, "R1"); err != nil { // uncommitted, over committed data
		t.Fatal(err)
	}
	if pt, ok := kv.(state.PositionTracker); ok {
		pt.UpdatePosition("in", 0, 42)
	}
	entries, err := s.All()
	if err != nil {
		t.Fatalf("scan: %v", err)
	}
	var got []string
	for _, e := range entries {
		got = append(got, e.key.(string)+"="+e.value.(string))
	}
	if len(got) != 3 || got[0] != "j=R1" || got[1] != "k=L1" || got[2] != "k=L2" {
		t.Fatalf("scan %v, want j=R1 (ts 5, right) then k's two left values", got)
	}
	if err := s.DeleteIfPresent("k", 10, true); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteIfPresent("k", 10, true); err != nil { // absent now: no write, no log
		t.Fatal(err)
	}
	if err := kv.Commit(map[state.TopicPartition]*int64{tp: state.Offset(4)}); err != nil {
		t.Fatal(err)
	}
	if entries, err = s.All(); err != nil || len(entries) != 1 {
		t.Fatalf("after delete: %v %v", entries, err)
	}
	if logged != 4 { // three appends and one tombstone
		t.Errorf("%d changelog records, want 4", logged)
	}
}

type logFunc func()

func (f logFunc) LogChange(string, []byte, []byte, int64) error { f(); return nil }
