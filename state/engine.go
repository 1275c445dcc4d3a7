package state

// Engine is the committed layer under a store's overlay: what Commit and
// ApplyChangelog write, and what reads find below the uncommitted writes.
// This package has the in-memory engine (NewInMemoryKeyValue and the other
// NewInMemory constructors); package state/rocksdb has the RocksDB one. The
// store semantics (the overlay, isolation, segment expiry, versions) are
// this package's, on any engine.
//
// Data lives in segments, each an ordered map of byte keys: a key-value
// store uses segment 0 only, window and session stores one segment per
// time interval, versioned stores VersionedLatestSegment and one segment
// per interval of older versions. Beside the data an engine may keep the
// changelog offsets, the position and store-internal values (Meta), which
// the same batches write.
//
// A store applies one batch at a time, from its owner's goroutine or at
// open; Get, View and the views' iterators may run on any goroutine at
// once with Apply, and see each batch whole or not at all.
//
// An engine whose data survives a restart may implement Durable: the
// stores over it then report its lag and pass MaybeFlush on to it.
type Engine interface {
	// Persistent reports whether the data survives a restart.
	Persistent() bool
	// Get reads the latest committed value of key in seg.
	Get(seg int64, key []byte) (value []byte, ok bool, err error)
	// View returns a consistent snapshot of the committed data. The
	// caller releases it.
	View() (EngineView, error)
	// Apply writes a batch, all of it or nothing.
	Apply(b *Batch) error
	// CommittedOffset returns tp's offset as the last batch that set it
	// left it; ok is false when there is none, always for an engine that
	// keeps no offsets.
	CommittedOffset(tp TopicPartition) (offset int64, ok bool, err error)
	// Meta reads a value a batch wrote into Batch.Meta, or its Position
	// under PositionKey; ok is false when there is none.
	Meta(key string) (value []byte, ok bool, err error)
	// ApproximateNumEntries estimates the entries of every segment.
	ApproximateNumEntries() (int64, error)
	// Close releases the engine; Get, View and Apply fail with ErrClosed
	// afterwards. Safe to call twice.
	Close() error
}

// EngineView is a consistent read-only snapshot of an engine.
type EngineView interface {
	// Segments returns the ids of the segments holding data, ascending.
	Segments() []int64
	// Iter walks the keys in [lo, hi) of seg, in reverse order when
	// reverse is set; a nil bound is open. A segment the view does not
	// hold gives an empty iterator.
	Iter(seg int64, lo, hi []byte, reverse bool) EngineIterator
	// Release frees the snapshot; safe to call twice.
	Release()
}

// EngineIterator walks the entries of one segment of an EngineView. Key and
// Value are valid until the next call to Next.
type EngineIterator interface {
	Next() bool
	Key() []byte
	Value() []byte
	// Err returns the error that ended the iteration, if any.
	Err() error
	Close()
}

// Batch is everything one commit or restore batch writes, applied all or
// nothing.
type Batch struct {
	// Writes are applied in order: a later write of a key wins. A write to
	// a segment the engine does not hold yet creates it.
	Writes []Write
	// Offsets as in Store.Commit: a nil value removes that partition's
	// offset.
	Offsets map[TopicPartition]*int64
	// ClearOffsets removes every offset and the position before the batch
	// applies; Meta values stay.
	ClearOffsets bool
	// Position is the store's encoded Position, kept under PositionKey;
	// nil leaves it as it is.
	Position []byte
	// Meta holds store-internal values to keep beside the offsets, keys
	// starting with MetaKeyPrefix.
	Meta map[string][]byte
	// Drop lists segments to drop whole. They leave the engine's views with
	// the batch; an engine whose drops are durable before its batches may
	// delete their data only once the batch is durable.
	Drop []int64
	// DropNow deletes Drop's data at once: the durable state itself
	// expired those segments (a store drops them so at open).
	DropNow bool
}

// Write is one entry of a Batch: a key's new value in a segment, or its
// removal.
type Write struct {
	Segment    int64
	Key, Value []byte
	Tombstone  bool
}

// Keys of the values an engine keeps beside the changelog offsets, whose
// keys are TopicPartition.String's `<topic>-<partition>`.
const (
	// PositionKey is where Batch.Position is kept, the key of Kafka
	// Streams' offsets column family (KIP-1035).
	PositionKey = "position"
	// MetaKeyPrefix starts every key of Batch.Meta, so that an engine tells
	// them from offsets.
	MetaKeyPrefix = "stoatflow."
)

// streamTimeKey holds a segmented store's observed stream time.
const streamTimeKey = MetaKeyPrefix + "observed-stream-time"
