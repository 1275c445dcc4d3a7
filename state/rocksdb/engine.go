package rocksdb

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/linxGnu/grocksdb"

	"github.com/stoatflow/stoatflow/state"
)

const offsetsCF = "offsets"

// rocksBase is the RocksDB engine of a store (a state.Engine): one database
// with column families "default", "offsets" and one per data segment.
type rocksBase struct {
	name, path string
	segName    func(seg int64) string
	parseSeg   func(cf string) (int64, bool)

	db      *grocksdb.DB
	opts    *grocksdb.Options
	offOpts *grocksdb.Options
	bbto    *grocksdb.BlockBasedTableOptions
	wo      *grocksdb.WriteOptions
	ro      *grocksdb.ReadOptions
	offsets *grocksdb.ColumnFamilyHandle
	// defaultCF is RocksDB's "default" family, which every database has.
	defaultCF *grocksdb.ColumnFamilyHandle
	handles   []*grocksdb.ColumnFamilyHandle // every handle ever opened, destroyed on close
	writerMu  sync.Mutex                     // serializes Apply and MaybeFlush

	// Guarded by writerMu: see pendingDrop.
	dropEpoch uint64
	pending   []pendingDrop
	// dur tracks what is on disk and applies the flush policy.
	dur durability

	mu struct {
		sync.RWMutex
		closed bool
		segs   map[int64]*grocksdb.ColumnFamilyHandle
		iters  map[*rocksIter]struct{}
		views  map[*rocksView]struct{}
	}
}

var (
	_ state.Engine  = (*rocksBase)(nil)
	_ state.Durable = (*rocksBase)(nil)
)

// openRocksBase opens or creates the database at path. fixed lists data
// column families that always exist (seg → name); segName and parseSeg map
// further segments to column family names and back (nil for key-value
// stores).
func openRocksBase(name, path string, fixed map[int64]string, segName func(int64) string, parseSeg func(string) (int64, bool), ro Options) (_ *rocksBase, err error) {
	corrupt := func(err error) error { return storeFault(name, path, "open", err, true) }
	// 0777 less the umask, as the JVM's RocksDBStore creates its
	// directory (Files.createDirectories).
	if err := os.MkdirAll(path, 0o777); err != nil {
		return nil, storeFault(name, path, "open", err, false)
	}
	fresh, err := isFreshDir(path)
	if err != nil {
		return nil, corrupt(err)
	}

	opts := grocksdb.NewDefaultOptions()
	opts.SetCreateIfMissing(true)
	opts.SetCreateIfMissingColumnFamilies(true)
	opts.SetInfoLogLevel(grocksdb.WarnInfoLogLevel)
	opts.SetKeepLogFileNum(2)
	wb := ro.WriteBufferBytes
	if wb <= 0 {
		wb = DefaultWriteBufferBytes
	}
	opts.SetWriteBufferSize(uint64(wb))
	// The same bound for all column families together: a segmented store
	// spreads writes over many families, none of which might fill alone,
	// and without a flush neither the durable offset advances nor expired
	// segments are dropped.
	opts.SetDbWriteBufferSize(uint64(wb))
	// Kafka Streams' table options, and no compression, which would cost
	// CPU on every flush and compaction for small values.
	bbto := NewTableOptions()
	opts.SetBlockBasedTableFactory(bbto)
	opts.SetCompression(grocksdb.NoCompression)
	if ro.ConfigSetter != nil {
		ro.ConfigSetter(name, opts)
	}
	opts.SetAtomicFlush(true)
	offOpts := grocksdb.NewDefaultOptions()
	offOpts.SetWriteBufferSize(1 << 20)
	offOpts.SetCompression(grocksdb.NoCompression)

	b := &rocksBase{name: name, path: path, segName: segName, parseSeg: parseSeg, opts: opts, offOpts: offOpts, bbto: bbto}
	defer func() {
		if err != nil {
			opts.Destroy()
			offOpts.Destroy()
			bbto.Destroy()
		}
	}()

	want := map[string]bool{"default": true, offsetsCF: true}
	for _, n := range fixed {
		want[n] = true
	}
	if !fresh {
		names, lerr := grocksdb.ListColumnFamilies(opts, path)
		if lerr != nil {
			return nil, corrupt(lerr)
		}
		for _, n := range names {
			want[n] = true
		}
	}
	names := make([]string, 0, len(want))
	for n := range want {
		names = append(names, n)
	}
	sort.Strings(names)
	cfOpts := make([]*grocksdb.Options, len(names))
	for i, n := range names {
		cfOpts[i] = opts
		if n == offsetsCF {
			cfOpts[i] = offOpts
		}
	}
	// Opening writes a new manifest and options file. On a volume with
	// no room for them the RocksDB build the project links aborts the
	// process on an assertion instead of returning the error: the open
	// is refused before it starts.
	if free, ok := freeBytes(path); ok && free < minOpenSpace {
		return nil, &state.VolumeError{Store: name, Path: path, Op: "open",
			Err: fmt.Errorf("the volume has %d bytes free, fewer than the %d a store needs to open", free, minOpenSpace)}
	}
	db, handles, oerr := grocksdb.OpenDbColumnFamilies(opts, path, names, cfOpts)
	if oerr != nil {
		return nil, storeFault(name, path, "open", oerr, !fresh && !isLockError(oerr))
	}
	b.db = db
	b.handles = handles
	b.mu.segs = map[int64]*grocksdb.ColumnFamilyHandle{}
	b.mu.iters = map[*rocksIter]struct{}{}
	b.mu.views = map[*rocksView]struct{}{}
	byName := map[string]*grocksdb.ColumnFamilyHandle{}
	for i, n := range names {
		byName[n] = handles[i]
	}
	b.offsets = byName[offsetsCF]
	b.defaultCF = byName["default"]
	for seg, n := range fixed {
		b.mu.segs[seg] = byName[n]
	}
	if parseSeg != nil {
		for n, h := range byName {
			if seg, ok := parseSeg(n); ok {
				b.mu.segs[seg] = h
			}
		}
	}
	b.wo = grocksdb.NewDefaultWriteOptions()
	b.wo.DisableWAL(true)
	b.ro = grocksdb.NewDefaultReadOptions()
	if !fresh {
		// Touch the offsets so that a store whose files open but cannot be
		// read fails here, as corrupted, rather than at its first query.
		it := db.NewIteratorCF(b.ro, b.offsets)
		for it.SeekToFirst(); it.Valid(); it.Next() {
		}
		ierr := it.Err()
		it.Close()
		if ierr != nil {
			// The deferred cleanup destroys the options.
			b.opts, b.offOpts = nil, nil
			b.closeLocked()
			return nil, corrupt(ierr)
		}
	}
	b.dropEpoch = b.durableDropEpoch()
	if err := b.initDurability(ro.Flush); err != nil {
		b.opts, b.offOpts = nil, nil
		b.closeLocked()
		return nil, corrupt(err)
	}
	return b, nil
}

// minOpenSpace is the free space a store needs on its volume to open:
// RocksDB 7.8 opened a store with 8 KiB free and aborted with 4 KiB.
const minOpenSpace = 64 << 10

// isFreshDir reports whether path holds no database yet. A directory with
// files but no CURRENT is a damaged database, not a fresh one.
func isFreshDir(path string) (bool, error) {
	entries, err := os.ReadDir(path)
	if err != nil {
		return false, err
	}
	if len(entries) == 0 {
		return true, nil
	}
	if _, err := os.Stat(filepath.Join(path, "CURRENT")); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return false, fmt.Errorf("database files present but CURRENT is missing")
		}
		return false, err
	}
	return false, nil
}

// isLockError reports RocksDB's failure to take the database's LOCK file:
// the store is open elsewhere, which is not corruption.
func isLockError(err error) bool {
	s := err.Error()
	return strings.Contains(s, "/LOCK") || strings.Contains(s, "lock hold by") || strings.Contains(s, "While lock file")
}

// volumeFaults are what the file system says, in RocksDB's status text or
// an os error's, when a store's directory cannot be used as it is: its
// files are sound, and deleting them would not help.
var volumeFaults = []string{
	"No space left on device",
	"Disk quota exceeded",
	"Read-only file system",
	"Permission denied",
	"Operation not permitted",
	"Too many open files",
}

// volumeFault reports an error of the store's volume or directory rather
// than of its files (volumeFaults).
func volumeFault(err error) bool {
	for _, errno := range []error{syscall.ENOSPC, syscall.EDQUOT, syscall.EROFS, syscall.EACCES, syscall.EPERM, syscall.EMFILE, syscall.ENFILE} {
		if errors.Is(err, errno) {
			return true
		}
	}
	s := err.Error()
	for _, f := range volumeFaults {
		if strings.Contains(s, f) {
			return true
		}
	}
	return false
}

// storeFault is the error of op failing on store name at path: a
// VolumeError when the store's volume or directory is at fault, else a
// CorruptionError when its files are (files), else a StoreError.
func storeFault(name, path, op string, err error, files bool) error {
	switch {
	case volumeFault(err):
		return &state.VolumeError{Store: name, Path: path, Op: op, Err: err}
	case files:
		return &state.CorruptionError{Store: name, Path: path, Err: err}
	}
	return storeErr(name, op, err)
}

// classify turns a RocksDB error into a VolumeError when the store's
// volume or directory is at fault, a CorruptionError when its files are.
func (b *rocksBase) classify(op string, err error) error {
	if err == nil {
		return nil
	}
	s := err.Error()
	files := strings.Contains(s, "Corruption") || strings.Contains(s, "No such file") || strings.Contains(s, "IO error")
	return storeFault(b.name, b.path, op, err, files)
}

func (b *rocksBase) Persistent() bool { return true }

func (b *rocksBase) Get(seg int64, key []byte) ([]byte, bool, error) {
	b.mu.RLock()
	defer b.mu.RUnlock()
	if b.mu.closed {
		return nil, false, state.ErrClosed
	}
	cf := b.mu.segs[seg]
	if cf == nil {
		return nil, false, nil
	}
	return b.getCF(b.ro, cf, key)
}

func (b *rocksBase) getCF(ro *grocksdb.ReadOptions, cf *grocksdb.ColumnFamilyHandle, key []byte) ([]byte, bool, error) {
	// GetCF costs two cgo calls (get, free), as a raw RocksDB get does; a
	// pinned get would cost three.
	sl, err := b.db.GetCF(ro, cf, key)
	if err != nil {
		return nil, false, b.classify("get", err)
	}
	defer sl.Free()
	if !sl.Exists() {
		return nil, false, nil
	}
	d := sl.Data()
	v := make([]byte, len(d))
	copy(v, d)
	return v, true, nil
}

func (b *rocksBase) CommittedOffset(tp state.TopicPartition) (int64, bool, error) {
	v, ok, err := b.Meta(tp.String())
	if err != nil || !ok {
		return 0, false, err
	}
	if len(v) != 8 {
		return 0, false, &state.CorruptionError{Store: b.name, Path: b.path, Err: fmt.Errorf("offset of %s has %d bytes, want 8", tp, len(v))}
	}
	return int64(binary.BigEndian.Uint64(v)), true, nil
}

func (b *rocksBase) Meta(key string) ([]byte, bool, error) {
	b.mu.RLock()
	defer b.mu.RUnlock()
	if b.mu.closed {
		return nil, false, state.ErrClosed
	}
	return b.getCF(b.ro, b.offsets, []byte(key))
}

func (b *rocksBase) ApproximateNumEntries() (int64, error) {
	b.mu.RLock()
	defer b.mu.RUnlock()
	if b.mu.closed {
		return 0, state.ErrClosed
	}
	var n int64
	for _, cf := range b.mu.segs {
		if v, ok := b.db.GetIntPropertyCF("rocksdb.estimate-num-keys", cf); ok {
			n += int64(v)
		}
	}
	return n, nil
}

func (b *rocksBase) Apply(cb *state.Batch) error {
	b.writerMu.Lock()
	defer b.writerMu.Unlock()
	if err := b.createSegments(cb); err != nil {
		return err
	}
	b.mu.RLock()
	defer b.mu.RUnlock()
	if b.mu.closed {
		return state.ErrClosed
	}
	wb := grocksdb.NewWriteBatch()
	defer wb.Destroy()
	// offEntries counts the entries the batch writes into the offsets
	// family, which tell when it is durable (see durability).
	var offEntries int64
	for _, w := range cb.Writes {
		cf := b.mu.segs[w.Segment]
		if cf == nil {
			continue // a tombstone for a segment that never existed
		}
		if w.Tombstone {
			wb.DeleteCF(cf, w.Key)
		} else {
			wb.PutCF(cf, w.Key, w.Value)
		}
	}
	if cb.ClearOffsets {
		it := b.db.NewIteratorCF(b.ro, b.offsets)
		for it.SeekToFirst(); it.Valid(); it.Next() {
			k := it.Key().Data()
			if !strings.HasPrefix(string(k), state.MetaKeyPrefix) && !strings.HasPrefix(string(k), dropMarkerPrefix) {
				wb.DeleteCF(b.offsets, append([]byte(nil), k...))
				offEntries++
			}
		}
		err := it.Err()
		it.Close()
		if err != nil {
			return b.classify("commit", err)
		}
	}
	for tp, off := range cb.Offsets {
		offEntries++
		if off == nil {
			wb.DeleteCF(b.offsets, []byte(tp.String()))
			continue
		}
		wb.PutCF(b.offsets, []byte(tp.String()), binary.BigEndian.AppendUint64(nil, uint64(*off)))
	}
	if cb.Position != nil {
		wb.PutCF(b.offsets, []byte(state.PositionKey), cb.Position)
		offEntries++
	}
	for k, v := range cb.Meta {
		wb.PutCF(b.offsets, []byte(k), v)
		offEntries++
	}
	var dropping []*grocksdb.ColumnFamilyHandle
	for _, seg := range cb.Drop {
		if cf := b.mu.segs[seg]; cf != nil {
			dropping = append(dropping, cf)
		}
	}
	epoch := b.dropEpoch
	if len(dropping) > 0 && !cb.DropNow {
		// A marker in the offsets family tells when this batch is durable:
		// see durableDropEpoch.
		if epoch > 0 {
			wb.DeleteCF(b.offsets, dropMarker(epoch))
			offEntries++
		}
		epoch++
		wb.PutCF(b.offsets, dropMarker(epoch), nil)
		offEntries++
	}
	if err := b.db.Write(b.wo, wb); err != nil {
		return b.classify("commit", err)
	}
	b.dropEpoch = epoch
	if err := b.recordLocked(cb, offEntries, time.Now()); err != nil {
		return err
	}
	if len(dropping) == 0 && len(b.pending) == 0 {
		return nil
	}
	b.mu.RUnlock()
	err := b.dropSegments(cb.Drop, dropping, epoch, cb.DropNow)
	b.mu.RLock()
	return err
}

func (b *rocksBase) createSegments(cb *state.Batch) error {
	var missing []int64
	b.mu.RLock()
	if b.mu.closed {
		b.mu.RUnlock()
		return state.ErrClosed
	}
	for _, w := range cb.Writes {
		if !w.Tombstone && b.mu.segs[w.Segment] == nil {
			missing = append(missing, w.Segment)
		}
	}
	b.mu.RUnlock()
	if len(missing) == 0 {
		return nil
	}
	if b.segName == nil {
		return storeErr(b.name, "commit", fmt.Errorf("%w: segment %d on an unsegmented store", state.ErrInvalidArgument, missing[0]))
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, seg := range missing {
		if b.mu.segs[seg] != nil {
			continue
		}
		h, err := b.db.CreateColumnFamily(b.opts, b.segName(seg))
		if err != nil {
			return b.classify("create segment", err)
		}
		b.handles = append(b.handles, h)
		b.mu.segs[seg] = h
	}
	return nil
}

// Dropping a segment's column family is not part of a WriteBatch and is
// durable at once, while the batch that expired the segment (new stream time,
// new offset) is durable only after the next memtable flush. Dropping the
// family before then could leave, after a crash, an offset and stream time
// under which the segment is still live but gone: I1 broken. So an expired
// segment leaves the store's view at once but its family is dropped only when
// its batch is durable. The C API of RocksDB 7.8 offers no atomic flush of
// several column families, so durability is observed: each batch that expires
// segments writes a marker key with a growing epoch into the offsets family,
// and once a live table file of that family has the marker as its largest key,
// an atomic flush carried the batch to disk.
type pendingDrop struct {
	cf    *grocksdb.ColumnFamilyHandle
	epoch uint64
}

// dropMarkerPrefix sorts after every topic-partition key (topic names are
// ASCII) and after "position" and the stoatflow.* keys.
const dropMarkerPrefix = "\xff\xffstoatflow.segment-drop."

func dropMarker(epoch uint64) []byte {
	return binary.BigEndian.AppendUint64([]byte(dropMarkerPrefix), epoch)
}

// durableDropEpoch returns the highest drop marker epoch on disk.
func (b *rocksBase) durableDropEpoch() uint64 {
	var e uint64
	for _, f := range b.db.GetLiveFilesMetaData() {
		if f.ColumnFamilyName != offsetsCF {
			continue
		}
		k := f.LargestKey
		if len(k) == len(dropMarkerPrefix)+8 && strings.HasPrefix(string(k), dropMarkerPrefix) {
			e = max(e, binary.BigEndian.Uint64(k[len(dropMarkerPrefix):]))
		}
	}
	return e
}

// dropSegments takes expired segments out of the view and drops the column
// families whose expiring batch is durable (all of them when now is set: at
// open, the durable stream time itself expired them).
func (b *rocksBase) dropSegments(segs []int64, cfs []*grocksdb.ColumnFamilyHandle, epoch uint64, now bool) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, seg := range segs {
		delete(b.mu.segs, seg)
	}
	for _, cf := range cfs {
		b.pending = append(b.pending, pendingDrop{cf: cf, epoch: epoch})
	}
	durable := epoch
	if !now {
		durable = b.durableDropEpoch()
	}
	kept := b.pending[:0]
	for _, p := range b.pending {
		if p.epoch > durable {
			kept = append(kept, p)
			continue
		}
		// Open iterators may still read a dropped family; its handle is
		// destroyed on close.
		if err := b.db.DropColumnFamily(p.cf); err != nil {
			return b.classify("drop segment", err)
		}
	}
	b.pending = kept
	return nil
}

func (b *rocksBase) View() (state.EngineView, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.mu.closed {
		return nil, state.ErrClosed
	}
	snap := b.db.NewSnapshot()
	ro := grocksdb.NewDefaultReadOptions()
	ro.SetSnapshot(snap)
	v := &rocksView{b: b, snap: snap, ro: ro, segs: make(map[int64]*grocksdb.ColumnFamilyHandle, len(b.mu.segs))}
	for id, cf := range b.mu.segs {
		v.segs[id] = cf
		v.ids = append(v.ids, id)
	}
	sort.Slice(v.ids, func(i, j int) bool { return v.ids[i] < v.ids[j] })
	b.mu.views[v] = struct{}{}
	return v, nil
}

func (b *rocksBase) Close() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.mu.closed {
		return nil
	}
	// No explicit flush: a per-family flush is not atomic across families.
	// With the WAL off, RocksDB's shutdown flushes every family in one
	// atomic flush.
	b.closeLocked()
	return nil
}

func (b *rocksBase) closeLocked() {
	b.mu.closed = true
	for it := range b.mu.iters {
		it.release()
	}
	b.mu.iters = nil
	for v := range b.mu.views {
		b.db.ReleaseSnapshot(v.snap)
	}
	b.mu.views = nil
	for _, h := range b.handles {
		h.Destroy()
	}
	b.handles = nil
	b.db.Close()
	if b.opts != nil {
		b.opts.Destroy()
		b.offOpts.Destroy()
		b.bbto.Destroy()
	}
	if b.wo != nil {
		b.wo.Destroy()
		b.ro.Destroy()
	}
}

type rocksView struct {
	b    *rocksBase
	snap *grocksdb.Snapshot
	ro   *grocksdb.ReadOptions
	ids  []int64
	segs map[int64]*grocksdb.ColumnFamilyHandle
	once sync.Once
}

func (v *rocksView) Segments() []int64 { return v.ids }

func (v *rocksView) Iter(seg int64, lo, hi []byte, reverse bool) state.EngineIterator {
	cf := v.segs[seg]
	if cf == nil {
		return emptyIter{}
	}
	b := v.b
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.mu.closed {
		return &errIter{err0: state.ErrClosed}
	}
	it := &rocksIter{b: b, lo: lo, hi: hi, reverse: reverse}
	it.it = b.db.NewIteratorCF(v.ro, cf)
	b.mu.iters[it] = struct{}{}
	return it
}

func (v *rocksView) Release() {
	v.once.Do(func() {
		v.b.mu.Lock()
		defer v.b.mu.Unlock()
		if !v.b.mu.closed {
			delete(v.b.mu.views, v)
			v.b.db.ReleaseSnapshot(v.snap)
		}
		v.ro.Destroy()
	})
}

// rocksIter walks [lo, hi) of one column family. Its mutex guards against a
// concurrent store Close, which releases it.
type rocksIter struct {
	b       *rocksBase
	lo, hi  []byte
	reverse bool

	mu      sync.Mutex
	it      *grocksdb.Iterator
	started bool
	k, v    []byte
	e       error
}

func (r *rocksIter) Next() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.it == nil {
		if r.e == nil {
			r.e = state.ErrClosed
		}
		return false
	}
	if !r.started {
		r.started = true
		switch {
		case !r.reverse && r.lo != nil:
			r.it.Seek(r.lo)
		case !r.reverse:
			r.it.SeekToFirst()
		case r.hi != nil:
			r.it.SeekForPrev(r.hi)
			if r.it.Valid() && string(r.it.Key().Data()) == string(r.hi) {
				r.it.Prev()
			}
		default:
			r.it.SeekToLast()
		}
	} else if r.reverse {
		r.it.Prev()
	} else {
		r.it.Next()
	}
	if !r.it.Valid() {
		if err := r.it.Err(); err != nil {
			r.e = r.b.classify("iterate", err)
		}
		return false
	}
	k := r.it.Key().Data()
	if !r.reverse && r.hi != nil && string(k) >= string(r.hi) {
		return false
	}
	if r.reverse && r.lo != nil && string(k) < string(r.lo) {
		return false
	}
	r.k = append(r.k[:0], k...)
	r.v = append(r.v[:0], r.it.Value().Data()...)
	return true
}

func (r *rocksIter) Key() []byte   { return r.k }
func (r *rocksIter) Value() []byte { return r.v }
func (r *rocksIter) Err() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.e
}

func (r *rocksIter) Close() {
	r.b.mu.Lock()
	if r.b.mu.iters != nil {
		delete(r.b.mu.iters, r)
	}
	r.b.mu.Unlock()
	r.release()
}

// release frees the native iterator; called by Close or by the engine's
// Close (which holds the engine's lock).
func (r *rocksIter) release() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.it != nil {
		r.it.Close()
		r.it = nil
	}
}

type errIter struct{ err0 error }

func (e *errIter) Next() bool    { return false }
func (e *errIter) Key() []byte   { return nil }
func (e *errIter) Value() []byte { return nil }
func (e *errIter) Err() error    { return e.err0 }
func (e *errIter) Close()        {}

type emptyIter struct{}

func (emptyIter) Next() bool    { return false }
func (emptyIter) Key() []byte   { return nil }
func (emptyIter) Value() []byte { return nil }
func (emptyIter) Err() error    { return nil }
func (emptyIter) Close()        {}

// storeErr wraps err as package state wraps the errors of its stores: a
// *state.CorruptionError or *state.StoreError passes unchanged.
func storeErr(store, op string, err error) error {
	if err == nil {
		return nil
	}
	var ce *state.CorruptionError
	var se *state.StoreError
	var ve *state.VolumeError
	if errors.As(err, &ce) || errors.As(err, &se) || errors.As(err, &ve) {
		return err
	}
	return &state.StoreError{Store: store, Op: op, Err: err}
}
