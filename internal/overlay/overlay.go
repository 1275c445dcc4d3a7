// Package overlay holds a sorted map of byte keys to values or tombstones,
// the buffer in which a transactional store keeps its uncommitted writes and
// the table an in-memory store keeps its committed data in.
//
// A Map has one writer and any number of readers. Readers take a Snapshot,
// which is a lazy copy-on-write clone of the tree: taking one costs O(1) and
// later writes to the Map never show through it.
package overlay

import (
	"bytes"
	"sync"

	"github.com/google/btree"
)

// Entry is one key of a Map: a value, or a tombstone that hides the key in
// whatever lies below the overlay.
type Entry struct {
	Key       []byte
	Value     []byte
	Tombstone bool
}

// Size is the entry's share of the Map's byte count: the key plus the value.
func (e Entry) Size() int64 { return int64(len(e.Key) + len(e.Value)) }

func less(a, b Entry) bool { return bytes.Compare(a.Key, b.Key) < 0 }

// degree keeps nodes around two cache lines of items wide, which measured
// best for 16-byte keys with 100-byte values.
const degree = 16

// Map is a sorted key → value-or-tombstone map that counts the bytes it
// buffers. Writes must come from one goroutine at a time; Get, Snapshot, Len
// and Bytes may be called from any goroutine.
type Map struct {
	mu struct {
		sync.RWMutex
		tree  *btree.BTreeG[Entry]
		bytes int64
	}
}

// New returns an empty Map.
func New() *Map {
	m := &Map{}
	m.mu.tree = btree.NewG(degree, less)
	return m
}

// own copies key and value into one allocation so that the map never shares
// memory with its caller and each entry costs a single heap object.
func own(key, value []byte) ([]byte, []byte) {
	buf := make([]byte, len(key)+len(value))
	copy(buf, key)
	copy(buf[len(key):], value)
	k := buf[:len(key):len(key)]
	if value == nil {
		return k, nil
	}
	return k, buf[len(key):]
}

// Put sets key to value (a nil value is stored as an empty value, not a
// tombstone) and returns the change in buffered bytes.
func (m *Map) Put(key, value []byte) int64 {
	k, v := own(key, value)
	if v == nil {
		v = []byte{}
	}
	return m.set(Entry{Key: k, Value: v})
}

// Delete records a tombstone for key and returns the change in buffered bytes.
func (m *Map) Delete(key []byte) int64 {
	k, _ := own(key, nil)
	return m.set(Entry{Key: k, Tombstone: true})
}

// Remove forgets key entirely (neither value nor tombstone) and returns the
// change in buffered bytes.
func (m *Map) Remove(key []byte) int64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	old, ok := m.mu.tree.Delete(Entry{Key: key})
	if !ok {
		return 0
	}
	m.mu.bytes -= old.Size()
	return -old.Size()
}

func (m *Map) set(e Entry) int64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	delta := e.Size()
	if old, ok := m.mu.tree.ReplaceOrInsert(e); ok {
		delta -= old.Size()
	}
	m.mu.bytes += delta
	return delta
}

// Get returns key's entry, if the map holds one.
func (m *Map) Get(key []byte) (Entry, bool) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.mu.tree.Get(Entry{Key: key})
}

// Len returns the number of entries, tombstones included.
func (m *Map) Len() int {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.mu.tree.Len()
}

// Bytes returns the sum of key and value lengths over all entries: the exact
// number of bytes buffered, with an overwritten entry counted once.
func (m *Map) Bytes() int64 {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.mu.bytes
}

// Reset empties the map and returns the change in buffered bytes (zero or
// negative). Snapshots taken before keep their contents.
func (m *Map) Reset() int64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	delta := -m.mu.bytes
	m.mu.tree = btree.NewG(degree, less)
	m.mu.bytes = 0
	return delta
}

// Snapshot returns an immutable view of the map as it is now.
func (m *Map) Snapshot() *Snapshot {
	// Clone writes the tree's copy-on-write context, so it needs the
	// exclusive lock even though it changes no entry.
	m.mu.Lock()
	defer m.mu.Unlock()
	return &Snapshot{tree: m.mu.tree.Clone()}
}

// Snapshot is a read-only point-in-time copy of a Map, safe to use from any
// goroutine.
type Snapshot struct {
	tree *btree.BTreeG[Entry]
}

// Len returns the number of entries in the snapshot.
func (s *Snapshot) Len() int { return s.tree.Len() }

// Get returns key's entry in the snapshot.
func (s *Snapshot) Get(key []byte) (Entry, bool) { return s.tree.Get(Entry{Key: key}) }

// Ascend calls fn for each entry with lo <= key < hi in ascending order (nil
// lo: from the first key, nil hi: to the last) until fn returns false.
func (s *Snapshot) Ascend(lo, hi []byte, fn func(Entry) bool) {
	switch {
	case lo == nil && hi == nil:
		s.tree.Ascend(fn)
	case lo == nil:
		s.tree.AscendLessThan(Entry{Key: hi}, fn)
	case hi == nil:
		s.tree.AscendGreaterOrEqual(Entry{Key: lo}, fn)
	default:
		s.tree.AscendRange(Entry{Key: lo}, Entry{Key: hi}, fn)
	}
}

// Descend calls fn for each entry with lo <= key < hi in descending order
// until fn returns false.
func (s *Snapshot) Descend(lo, hi []byte, fn func(Entry) bool) {
	visit := func(e Entry) bool {
		if lo != nil && bytes.Compare(e.Key, lo) < 0 {
			return false
		}
		if hi != nil && bytes.Compare(e.Key, hi) >= 0 {
			return true
		}
		return fn(e)
	}
	if hi == nil {
		s.tree.Descend(visit)
		return
	}
	s.tree.DescendLessOrEqual(Entry{Key: hi}, visit)
}

// Iterator walks a snapshot's entries in [lo, hi) in batches, so that a
// pull-style caller never holds a callback open.
type Iterator struct {
	snap    *Snapshot
	lo, hi  []byte
	reverse bool
	buf     []Entry
	pos     int
	done    bool
	started bool
}

const iterBatch = 64

// Iter returns an iterator over entries with lo <= key < hi, ascending or
// descending.
func (s *Snapshot) Iter(lo, hi []byte, reverse bool) *Iterator {
	return &Iterator{snap: s, lo: lo, hi: hi, reverse: reverse}
}

// Next advances to the next entry and reports whether there is one.
func (it *Iterator) Next() bool {
	if it.pos+1 < len(it.buf) {
		it.pos++
		return true
	}
	if it.done {
		it.buf, it.pos = nil, 0
		return false
	}
	it.fill()
	it.pos = 0
	return len(it.buf) > 0
}

func (it *Iterator) fill() {
	var last []byte
	if it.started && len(it.buf) > 0 {
		last = it.buf[len(it.buf)-1].Key
	}
	it.started = true
	it.buf = it.buf[:0]
	collect := func(e Entry) bool {
		if last != nil && bytes.Equal(e.Key, last) {
			return true
		}
		it.buf = append(it.buf, e)
		return len(it.buf) < iterBatch
	}
	if it.reverse {
		hi := it.hi
		if last != nil {
			// Descend is inclusive of hi's successor bound handling: pass
			// last as the exclusive upper bound.
			hi = last
		}
		it.snap.Descend(it.lo, hi, collect)
	} else {
		lo := it.lo
		if last != nil {
			lo = last
		}
		it.snap.Ascend(lo, it.hi, collect)
	}
	if len(it.buf) < iterBatch {
		it.done = true
	}
}

// Entry returns the current entry.
func (it *Iterator) Entry() Entry { return it.buf[it.pos] }
