// Package rocksdb opens package state's stores on RocksDB, through grocksdb
// (cgo): key-value and timestamped key-value, window, session and versioned
// stores whose committed data is a RocksDB database in the task directory,
// laid out as Kafka Streams lays out its stores. The stores' semantics
// (overlay, isolation, expiry, versions) are package state's; this package
// is the engine under them (state.Engine), its durability and its flush
// policy. Packages that use only in-memory stores need not import it, and
// build without cgo.
//
//	kv, err := rocksdb.OpenKeyValue(taskDir, state.KeyValueOptions{Name: "counts", Budget: threadBudget}, rocksdb.Options{})
//	win, err := rocksdb.OpenWindow(taskDir, state.WindowOptions{Name: "w", RetentionMs: 86_400_000}, rocksdb.Options{})
//	ses, err := rocksdb.OpenSession(taskDir, state.SessionOptions{Name: "s", RetentionMs: 86_400_000}, rocksdb.Options{})
//	ver, err := rocksdb.OpenVersioned(taskDir, state.VersionedOptions{Name: "v", HistoryRetentionMs: 86_400_000}, rocksdb.Options{})
//
// The layout on disk and what is durable when are in the documentation of
// package state.
package rocksdb

import (
	"strconv"
	"strings"
	"sync"

	"github.com/linxGnu/grocksdb"

	"github.com/stoatflow/stoatflow/state"
)

// DefaultWriteBufferBytes is the memtable size of a RocksDB store's data
// column families unless Options says otherwise.
const DefaultWriteBufferBytes = 16 << 20

// Options tunes a RocksDB store.
type Options struct {
	// WriteBufferBytes is the memtable size of the store, for each column
	// family and for all of them together (RocksDB's write_buffer_size and
	// db_write_buffer_size); 0 means DefaultWriteBufferBytes (16 MiB). Without a WAL, data committed
	// since the last memtable flush is replayed from the changelog after a
	// crash, so a small buffer gives a quiet store a short replay.
	// compat fills it from stoatflow.store.<name>.rocksdb.write-buffer-bytes,
	// else stoatflow.rocksdb.write-buffer-bytes.
	WriteBufferBytes int64
	// ConfigSetter, when set, is called with the store name and the options
	// before the store opens: the counterpart of Kafka Streams'
	// rocksdb.config.setter. atomic_flush is forced on afterwards, since the
	// commit protocol depends on it.
	ConfigSetter func(storeName string, opts *grocksdb.Options)
	// Flush bounds how far the durable offsets may trail the committed
	// ones (see state.FlushPolicy); the zero policy leaves flushing to
	// RocksDB. compat fills it from stoatflow.rocksdb.flush.max-lag-records
	// and stoatflow.rocksdb.flush.max-lag-ms and their per-store overrides.
	Flush state.FlushPolicy
}

// BlockCacheBytes is the capacity of the LRU block cache that every RocksDB
// store of the process shares (Kafka Streams gives each store 50 MiB of its
// own). A ConfigSetter may give a store a table factory of its own.
const BlockCacheBytes = 50 << 20

var blockCache = sync.OnceValue(func() *grocksdb.Cache { return grocksdb.NewLRUCache(BlockCacheBytes) })

// NewTableOptions returns the table options every RocksDB store opens with,
// as Kafka Streams' RocksDBStore: a bloom filter (10 bits per key), so that
// reading a key the store lacks (every first occurrence of a key in an
// aggregation) rarely touches a data block, and 4 KiB blocks in the
// process's shared LRU cache (BlockCacheBytes). The caller destroys them
// after the database that uses them closes.
func NewTableOptions() *grocksdb.BlockBasedTableOptions {
	bbto := grocksdb.NewDefaultBlockBasedTableOptions()
	bbto.SetBlockCache(blockCache())
	bbto.SetFilterPolicy(grocksdb.NewBloomFilter(10))
	bbto.SetBlockSize(4 << 10)
	return bbto
}

// Column family names as Kafka Streams uses them.
const (
	defaultCF     = "default"
	timestampedCF = "keyValueWithTimestamp"
)

// OpenKeyValue opens (or creates) a RocksDB key-value store in
// state.KeyValueDir(taskDir, name): its data in column family "default", or
// "keyValueWithTimestamp" when o.Timestamped. Files that cannot be read
// give an error matching state.ErrCorrupted.
func OpenKeyValue(taskDir string, o state.KeyValueOptions, ro Options) (state.KeyValueStore, error) {
	b, err := openKeyValueBase(taskDir, o, ro)
	if err != nil {
		return nil, err
	}
	return state.OpenKeyValue(b, o)
}

func openKeyValueBase(taskDir string, o state.KeyValueOptions, ro Options) (*rocksBase, error) {
	cf := defaultCF
	if o.Timestamped {
		cf = timestampedCF
	}
	return openRocksBase(o.Name, state.KeyValueDir(taskDir, o.Name), map[int64]string{0: cf}, nil, nil, ro)
}

// OpenWindow opens (or creates) a RocksDB window store in
// state.SegmentedDir(taskDir, name): one database, one column family per
// segment.
func OpenWindow(taskDir string, o state.WindowOptions, ro Options) (state.WindowStore, error) {
	b, err := openWindowBase(taskDir, o, ro)
	if err != nil {
		return nil, err
	}
	return state.OpenWindow(b, o)
}

func openWindowBase(taskDir string, o state.WindowOptions, ro Options) (*rocksBase, error) {
	iv := o.Interval()
	return openRocksBase(o.Name, state.SegmentedDir(taskDir, o.Name), nil, segmentCFName(o.Name, iv), parseSegmentCFName(o.Name, iv), ro)
}

// OpenSession opens (or creates) a RocksDB session store in
// state.SegmentedDir(taskDir, name), segmented by session end.
func OpenSession(taskDir string, o state.SessionOptions, ro Options) (state.SessionStore, error) {
	iv := o.Interval()
	b, err := openRocksBase(o.Name, state.SegmentedDir(taskDir, o.Name), nil, segmentCFName(o.Name, iv), parseSegmentCFName(o.Name, iv), ro)
	if err != nil {
		return nil, err
	}
	return state.OpenSession(b, o)
}

// OpenVersioned opens (or creates) a RocksDB versioned store in
// state.KeyValueDir(taskDir, name), one database as Kafka Streams keeps it:
// column family <name>.latest for the latest versions, and one column
// family per segment of older versions, by the time they stopped being
// valid.
func OpenVersioned(taskDir string, o state.VersionedOptions, ro Options) (state.VersionedKeyValueStore, error) {
	iv := o.Interval()
	segName := segmentCFName(o.Name, iv)
	parse := parseSegmentCFName(o.Name, iv)
	latest := o.Name + ".latest"
	b, err := openRocksBase(o.Name, state.KeyValueDir(taskDir, o.Name), map[int64]string{state.VersionedLatestSegment: latest},
		segName, func(n string) (int64, bool) {
			if n == latest {
				return state.VersionedLatestSegment, true
			}
			return parse(n)
		}, ro)
	if err != nil {
		return nil, err
	}
	return state.OpenVersioned(b, o)
}

// segmentCFName names a segment's column family as Kafka Streams names a
// segment's RocksDB directory: <store>.<segmentId * interval>.
func segmentCFName(store string, interval int64) func(int64) string {
	return func(seg int64) string { return store + "." + strconv.FormatInt(seg*interval, 10) }
}

func parseSegmentCFName(store string, interval int64) func(string) (int64, bool) {
	return func(name string) (int64, bool) {
		rest, ok := strings.CutPrefix(name, store+".")
		if !ok {
			return 0, false
		}
		start, err := strconv.ParseInt(rest, 10, 64)
		if err != nil || start%interval != 0 {
			return 0, false
		}
		return start / interval, true
	}
}
