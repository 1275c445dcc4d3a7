package txn

import (
	"github.com/stoatflow/stoatflow/internal/invariants"
	"github.com/stoatflow/stoatflow/state"
)

// The assertions below run only under the invariants build tag (see
// internal/invariants). They check how the commit protocol drives the
// stores, which the stores themselves cannot know.

// checkStoreCommit runs before sc's store commits with offs, after the Kafka
// commit succeeded; taken are the changelog offsets the epoch's records got.
//
// A store's durable offset must never be ahead of its data: the offset it
// records is the last changelog record whose effect it holds. So the store
// holds uncommitted writes exactly when its changelog got records this epoch
// (each write of a logged store sends one record); the offset never moves
// back and is never dropped while the store has one.
func checkStoreCommit(sc StoreCommit, offs map[state.TopicPartition]*int64, taken map[TopicPartition]int64) {
	if sc.Changelog == nil {
		return
	}
	tp := *sc.Changelog
	name := sc.Store.Name()
	pending := sc.Store.ApproximateNumUncommittedBytes()
	last, advanced := taken[TopicPartition{Topic: tp.Topic, Partition: tp.Partition}]
	off := offs[tp]
	switch {
	case sc.SourceOffset != nil:
		// The changelog is a source topic: nothing is produced to it, and
		// the offset is the input's.
	case pending > 0 && off == nil:
		invariants.Failf("txn: store %s commits %d uncommitted bytes without an offset for its changelog %s: its data would be ahead of its offset",
			name, pending, tp)
	case pending > 0 && !advanced:
		invariants.Failf("txn: store %s commits %d uncommitted bytes at changelog %s offset %d, but the epoch sent that changelog no record: its data would be ahead of its offset",
			name, pending, tp, *off)
	case advanced && pending == 0 && isKeyValue(sc.Store):
		// Window, session and versioned stores drop writes to expired
		// segments after logging them, as Kafka Streams' do; a key-value
		// store keeps every write it logged.
		invariants.Failf("txn: key-value store %s holds no uncommitted write, but its changelog %s got records up to offset %d this epoch: its offset would be ahead of its data",
			name, tp, last)
	case advanced && (off == nil || *off < last):
		invariants.Failf("txn: store %s commits changelog %s at offset %v, below the epoch's last changelog record %d", name, tp, off, last)
	}
	durable, ok, err := sc.Store.CommittedOffset(tp)
	if err != nil || !ok {
		return // in-memory stores keep no offset; a read error surfaces in Commit
	}
	if off == nil {
		invariants.Failf("txn: store %s would drop its changelog %s offset %d while keeping its data", name, tp, durable)
	}
	if *off < durable {
		invariants.Failf("txn: store %s: changelog %s offset moves back from %d to %d", name, tp, durable, *off)
	}
}

func isKeyValue(s state.Store) bool {
	_, ok := s.(state.KeyValueStore)
	return ok
}

// checkOverlaysEmpty runs after a commit or an abort: every store's overlay
// is empty, so the thread's share of statestore.uncommitted.max.bytes is back
// to zero.
func checkOverlaysEmpty(after string, stores []StoreCommit) {
	for _, sc := range stores {
		if n := sc.Store.ApproximateNumUncommittedBytes(); n != 0 {
			invariants.Failf("txn: store %s still holds %d uncommitted bytes after the %s", sc.Store.Name(), n, after)
		}
	}
}
