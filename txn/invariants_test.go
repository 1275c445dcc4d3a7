//go:build invariants

package txn

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

// offsetStore is a key-value store with a durable offset, as a RocksDB one
// keeps it.
type offsetStore struct {
	state.KeyValueStore
	durable *int64
}

func (s offsetStore) CommittedOffset(state.TopicPartition) (int64, bool, error) {
	if s.durable == nil {
		return 0, false, nil
	}
	return *s.durable, true, nil
}

func TestInvariantStoreOffsetNeverAheadOfData(t *testing.T) {
	tp := state.TopicPartition{Topic: "app-counts-changelog", Partition: 3}
	ktp := TopicPartition{Topic: tp.Topic, Partition: tp.Partition}
	fresh := func(durable *int64, writes int) StoreCommit {
		kv := state.NewInMemoryKeyValue(state.KeyValueOptions{Name: "counts"})
		for i := 0; i < writes; i++ {
			if err := kv.Put([]byte{byte('a' + i)}, []byte("1")); err != nil {
				t.Fatal(err)
			}
		}
		return StoreCommit{Store: offsetStore{KeyValueStore: kv, durable: durable}, Changelog: &tp}
	}
	offs := func(o *int64) map[state.TopicPartition]*int64 { return map[state.TopicPartition]*int64{tp: o} }

	// What the committer does: writes, records up to 12, offset 12.
	checkStoreCommit(fresh(state.Offset(9), 2), offs(state.Offset(12)), map[TopicPartition]int64{ktp: 12})
	// Nothing written, nothing sent: the offset stays.
	checkStoreCommit(fresh(state.Offset(9), 0), offs(state.Offset(9)), nil)

	wantInvariantPanic(t, "store counts commits 2 uncommitted bytes without an offset for its changelog app-counts-changelog-3", func() {
		checkStoreCommit(fresh(nil, 1), offs(nil), nil)
	})
	wantInvariantPanic(t, "epoch sent that changelog no record", func() {
		checkStoreCommit(fresh(state.Offset(9), 1), offs(state.Offset(9)), nil)
	})
	wantInvariantPanic(t, "its changelog app-counts-changelog-3 got records up to offset 12 this epoch: its offset would be ahead of its data", func() {
		checkStoreCommit(fresh(state.Offset(9), 0), offs(state.Offset(12)), map[TopicPartition]int64{ktp: 12})
	})
	wantInvariantPanic(t, "below the epoch's last changelog record 12", func() {
		checkStoreCommit(fresh(state.Offset(9), 1), offs(state.Offset(11)), map[TopicPartition]int64{ktp: 12})
	})
	wantInvariantPanic(t, "changelog app-counts-changelog-3 offset moves back from 20 to 12", func() {
		checkStoreCommit(fresh(state.Offset(20), 1), offs(state.Offset(12)), map[TopicPartition]int64{ktp: 12})
	})
	wantInvariantPanic(t, "would drop its changelog app-counts-changelog-3 offset 9", func() {
		checkStoreCommit(fresh(state.Offset(9), 0), offs(nil), nil)
	})
	wantInvariantPanic(t, "store counts still holds 2 uncommitted bytes after the commit", func() {
		checkOverlaysEmpty("commit", []StoreCommit{fresh(nil, 1)})
	})

	var c Committer
	c.SetChangelogOffset(tp, 5)
	c.SetChangelogOffset(tp, 5)
	wantInvariantPanic(t, "changelog app-counts-changelog-3: known committed offset moves back from 5 to 4", func() {
		c.SetChangelogOffset(tp, 4)
	})
}
