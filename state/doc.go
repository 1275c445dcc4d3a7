// Package state holds StoatFlow's state stores: key-value, timestamped
// key-value, window, session and versioned, each on RocksDB and in memory.
// Every store is transactional: writes wait in an overlay that the owner's
// reads see and reach the committed data, the store's Engine, only on
// Commit, together with the changelog offsets. Keys and values are bytes;
// typed wrappers live in kstreams.
//
// This package holds the stores' semantics (overlay, isolation, expiry,
// versions, the LRU map), the in-memory engine and the flush policy's
// types, and needs no cgo. The RocksDB engine, which does (grocksdb), is
// package state/rocksdb: a program that only uses in-memory stores, such
// as a test of kstreams' test driver, builds with CGO_ENABLED=0.
//
// # Opening stores
//
// A Directory is <state.dir>/<application.id>: Lock it once per process,
// read ProcessID, and get a task's directory with TaskDir(TaskDirName(sub,
// partition)) or GlobalDir. Then open RocksDB stores in the task directory
// with package state/rocksdb:
//
//	kv, err := rocksdb.OpenKeyValue(taskDir, state.KeyValueOptions{Name: "counts", Budget: threadBudget}, rocksdb.Options{})
//	win, err := rocksdb.OpenWindow(taskDir, state.WindowOptions{Name: "w", RetentionMs: 86_400_000}, rocksdb.Options{})
//	ses, err := rocksdb.OpenSession(taskDir, state.SessionOptions{Name: "s", RetentionMs: 86_400_000}, rocksdb.Options{})
//	ver, err := rocksdb.OpenVersioned(taskDir, state.VersionedOptions{Name: "v", HistoryRetentionMs: 86_400_000}, rocksdb.Options{})
//
// and NewInMemoryKeyValue, NewInMemoryWindow, NewInMemorySession,
// NewInMemoryVersioned for in-memory stores. OpenKeyValue, OpenWindow,
// OpenSession and OpenVersioned build a store over any Engine. NewInMemoryLRUKeyValue is
// Kafka Streams' Stores.lruMap: an in-memory key-value store that evicts
// its least recently used entry when full, and whose order after a
// rollback is the one a restore from the changelog gives (LRUKeyValueStore).
//
// The stream threads of a process share its Directory, as Kafka Streams'
// share its StateDirectory: LockTask gives a task directory to one owner at
// a time, TouchTask marks when a thread let one go, CleanRemovedTasks
// deletes the task directories nobody holds that were last modified longer
// ago than a delay (state.cleanup.delay.ms), and PurgeOutdatedTasks deletes
// at start-up those older than a maximum age (state.cleanup.dir.max.age.ms).
//
// # Commit, rollback, restore
//
// After the Kafka transaction (or the at-least-once offset commit) has
// succeeded, the stream thread calls Commit(map[TopicPartition]*int64{
// changelogTP: state.Offset(lastChangelogOffset)}) on each store. On abort
// or fencing it calls Rollback. CommittedOffset tells the restorer where to
// resume (offset+1); ApplyChangelog writes restored records straight into
// the committed data with the offset, in one batch. The contract of Commit
// is Kafka's StateStore.commit: an empty map removes every committed offset
// (the corruption wipe), a nil value removes one partition's offset.
//
// # Engines
//
// An Engine is the committed layer under the overlay: segments of ordered
// byte keys, and beside them the changelog offsets, the position and
// store-internal values, all written by one Batch per commit or restore
// batch, all or nothing. A commit gathers the overlay, the offsets and the
// position into one Batch (core.commit); the engine applies it atomically.
// The in-memory engine (memBase) applies it under its write lock and keeps
// no offsets; the RocksDB engine (state/rocksdb) writes it as one
// WriteBatch. Durability is a capability: an engine that implements Durable
// (RocksDB) has its lag reported and its flush policy run through the
// stores over it.
//
// # Layout on disk
//
// Key-value and timestamped key-value stores are one RocksDB database at
// <taskDir>/rocksdb/<store>, as Kafka Streams keeps them: data in column
// family "default" (plain) or "keyValueWithTimestamp" (values prefixed with
// their 8-byte timestamp), and column family "offsets" holding
// `<topic>-<partition>` → 8-byte big-endian offset and `position` (Kafka's
// PositionSerde v0), as KIP-1035 lays it out. No `status` key is written:
// a transactional store never needs one.
//
// Window and session stores are ONE RocksDB database at <taskDir>/<store>
// with one column family per segment, named as Kafka Streams names its
// segment directories, <store>.<segmentId*segmentInterval>, plus
// "offsets". Kafka Streams opens one database per segment; StoatFlow does
// not, because the commit protocol needs the data of every segment and the
// offset to be written by one WriteBatch and flushed together (atomic_flush
// only spans the column families of one database). With separate databases
// the offset could become durable while a segment's memtable was still
// unflushed, breaking invariant I1. Segment interval is
// max(retention/2, 60000) ms as Kafka's. Versioned stores are one database
// at <taskDir>/rocksdb/<store> (as Kafka's): column family <store>.latest
// for each key's latest version (validFrom ++ tombstone flag ++ value) and
// one column family per segment of older versions, keyed by key ++ validTo.
//
// The observed stream time of segmented stores is committed beside the
// offsets (key stoatflow.observed-stream-time), so that expiry survives a
// restart.
//
// # Record formats and their owners
//
// Each format Kafka Streams gives a store's bytes is coded once, and the
// write path, restore and interactive queries call the same code:
//
//   - Byte layouts (timestamped value ts ++ value, window store key key ++
//     start ++ seqnum, session key key ++ end ++ start, time-windowed key
//     key ++ start, and the window end rebuilt from a start) belong to
//     internal/storeformat. kstreams' store views write them and log them,
//     this package keeps and restores them, kstreams/serde's windowed serdes
//     and the HTTP layer read them.
//   - Changelog records (reference §4): a plain key-value store logs (key,
//     value) at the processed record's timestamp, a versioned store at the
//     version's timestamp; a timestamped key-value or window store logs the
//     value without its timestamp and the timestamp as record timestamp;
//     window and session stores log under their store keys. kstreams' store views
//     (TimestampedKeyValueStore, KeyValueStore, TimestampedWindowStore,
//     SessionStore) write them; each store's ApplyChangelog reads them back.
//   - The versioned store's own rows (validFrom ++ tombstone flag ++ value,
//     older versions under key ++ validTo), segment column family names and
//     the segment prefix of segmented keys belong to this package alone:
//     they never leave the store.
//   - Topic names: kstreams.ChangelogTopic owns <application.id>-<store>-
//     changelog, which tasks, the runtime's restore, the test driver and
//     the HTTP layer's serde calls use; TopicRef.Decorated owns the
//     application-id prefix of repartition topics; TopicPartition.String
//     the <topic>-<partition> keys of the offsets column family; Position
//     Kafka's PositionSerde v0.
//
// # Durability (invariants I1, I2, I6)
//
// RocksDB runs without a WAL and with atomic_flush, so the data column
// families and "offsets" reach disk together: after a crash the store holds
// exactly some earlier commit's data and that commit's offset, never a torn
// batch and never an offset ahead of its data (state/rocksdb's
// TestCrashConsistency kills a writer process with SIGKILL hundreds of
// times per store type). Commits
// since the last memtable flush are lost and replayed from the changelog;
// rocksdb.Options.WriteBufferBytes (16 MiB by default; compat fills it from
// stoatflow.rocksdb.write-buffer-bytes and
// stoatflow.store.<name>.rocksdb.write-buffer-bytes) bounds that replay.
// Uncommitted writes live only in the overlay, so nothing of an aborted
// transaction is ever on disk.
//
// Expired segments leave the store's view with the commit that expired them
// (that batch also writes the new stream time), but their column families
// are dropped only once that batch is durable: a family drop is durable at
// once, and dropping early could leave, after a crash, an older offset under
// which the segment is still live but gone. RocksDB 7.8's C API has no atomic
// flush of several families, so the store observes durability through a
// marker key with a growing epoch written into "offsets" by each expiring
// batch (rocksBase.dropSegments in state/rocksdb). db_write_buffer_size is
// set to the same bound as each family's buffer, so writes spread over many
// segments still trigger (atomic) flushes. At open, segments that the durable stream time
// expired are dropped at once. Close does not flush family by family (that
// would not be atomic); RocksDB's shutdown flushes all families atomically.
// The crash test's window-expiry variant kills writers while segments
// expire.
//
// # Isolation and concurrency (I5)
//
// One goroutine writes (the owning stream thread); any goroutine may read.
// ReadOnly(ReadUncommitted) views read through the overlay; ReadOnly(
// ReadCommitted) views read committed data only. Point reads are atomic
// because a commit is one WriteBatch (RocksDB) or applied under the base's
// write lock (memory); iterators read a RocksDB snapshot or a copy-on-write
// clone of the in-memory tables. A read-uncommitted iterator clones the
// overlay before it takes the base snapshot, so a racing commit shows
// either before (overlay and base agree) or after (the clone still holds
// the writes) — never half of it (TestConcurrentReadersNeverSeeHalfCommit,
// run with -race).
//
// Lock order: in state/rocksdb, rocksBase.writerMu → rocksBase.mu →
// rocksIter.mu; here, memBase.mu → overlay.Map's lock; core.posMu is a
// leaf.
//
// # Accounting
//
// ApproximateNumUncommittedBytes is exact: the key and value bytes in the
// overlay, an overwritten key counted once (window and session keys include
// their 8-byte segment prefix). Each store reports changes to an optional
// *Budget, whose Total is one atomic load, for the thread's commit trigger
// and the stoatflow_store_uncommitted_bytes gauges.
//
// # Corruption
//
// A store whose files are missing or unreadable fails to open (or to read)
// with a *CorruptionError matching ErrCorrupted and naming the store and
// its path; the engine wipes that store alone and restores it. A directory
// with files but no CURRENT counts as corrupted, not as new.
//
// A store whose volume is full or read-only, or whose directory the
// process may not write, fails with a *VolumeError matching ErrVolume,
// never ErrCorrupted: its files are sound and are kept.
package state
