//go:build cgo

package kstreams

import (
	"testing"

	"github.com/stoatflow/stoatflow/state"
	"github.com/stoatflow/stoatflow/state/rocksdb"
)

// TestOuterJoinSharedStoreScanSeesOnlyItsEntries guards what Kafka Streams
// had to fix in KAFKA-20749: a scan of the shared outer-join store in a
// transactional RocksDB store, with uncommitted writes over committed ones
// and the store's changelog offset and position written by commits, sees
// the join's entries and nothing of the offsets, so every value decodes as
// a value list. RocksDB needs cgo: without it, the in-memory variant runs
// alone.
func TestOuterJoinSharedStoreScanSeesOnlyItsEntries(t *testing.T) {
	kv, err := rocksdb.OpenKeyValue(t.TempDir(), state.KeyValueOptions{Name: "shared"}, rocksdb.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer kv.Close()
	testOuterJoinSharedStoreScan(t, kv)
}
