package state

import (
	"encoding/binary"
	"sort"
	"sync"

	"github.com/stoatflow/stoatflow/internal/overlay"
)

// base is the committed layer under a store's overlay: a RocksDB database or
// an in-memory table. Data lives in segments; key-value stores use segment 0
// only, window and session stores one segment per time interval.
type base interface {
	persistent() bool
	// get reads the latest committed value of key in seg. A commit is
	// applied atomically, so a single get never sees half of one.
	get(seg int64, key []byte) ([]byte, bool, error)
	// view returns a consistent snapshot of the committed data.
	view() (baseView, error)
	// apply writes a commit batch atomically.
	apply(b *commitBatch) error
	committedOffset(tp TopicPartition) (int64, bool, error)
	// meta reads a committed store-internal value kept beside the offsets.
	meta(key string) ([]byte, bool, error)
	approxEntries() (int64, error)
	close() error
}

// baseView is a consistent read-only snapshot of a base.
type baseView interface {
	// segments returns the segment ids holding data, ascending.
	segments() []int64
	get(seg int64, key []byte) ([]byte, bool, error)
	// iter walks keys in [lo, hi) of seg; nil bounds are open.
	iter(seg int64, lo, hi []byte, reverse bool) rawIter
	release()
}

// rawIter is the minimal iterator a base gives back.
type rawIter interface {
	next() bool
	key() []byte
	value() []byte
	err() error
	close()
}

// segWrite is one overlay entry bound for segment seg.
type segWrite struct {
	seg int64
	e   overlay.Entry
}

// commitBatch is everything one commit writes, applied all or nothing.
type commitBatch struct {
	writes []segWrite
	// offsets as in Store.Commit; clearOffsets removes every offset first.
	offsets      map[TopicPartition]*int64
	clearOffsets bool
	position     []byte            // nil: unchanged
	meta         map[string][]byte // store-internal values beside the offsets
	drop         []int64           // segments to drop entirely
	// dropNow drops at once: the durable state itself expired the segments.
	dropNow bool
}

// Meta keys kept in the offsets column family beside the changelog offsets.
const (
	positionKey   = "position"
	streamTimeKey = "stoatflow.observed-stream-time"
)

// memBase is the committed table of an in-memory store: one sorted map per
// segment behind a read-write lock, so a commit is applied under the write
// lock and a view is taken under the read lock.
type memBase struct {
	mu struct {
		sync.RWMutex
		segs   map[int64]*overlay.Map
		meta   map[string][]byte
		closed bool
	}
}

func newMemBase() *memBase {
	b := &memBase{}
	b.mu.segs = map[int64]*overlay.Map{}
	b.mu.meta = map[string][]byte{}
	return b
}

func (b *memBase) persistent() bool { return false }

func (b *memBase) get(seg int64, key []byte) ([]byte, bool, error) {
	b.mu.RLock()
	defer b.mu.RUnlock()
	if b.mu.closed {
		return nil, false, ErrClosed
	}
	m := b.mu.segs[seg]
	if m == nil {
		return nil, false, nil
	}
	e, ok := m.Get(key)
	return e.Value, ok, nil
}

func (b *memBase) view() (baseView, error) {
	b.mu.RLock()
	defer b.mu.RUnlock()
	if b.mu.closed {
		return nil, ErrClosed
	}
	v := &memView{segs: make(map[int64]*overlay.Snapshot, len(b.mu.segs))}
	for id, m := range b.mu.segs {
		v.segs[id] = m.Snapshot()
		v.ids = append(v.ids, id)
	}
	sort.Slice(v.ids, func(i, j int) bool { return v.ids[i] < v.ids[j] })
	return v, nil
}

func (b *memBase) apply(cb *commitBatch) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.mu.closed {
		return ErrClosed
	}
	for _, id := range cb.drop {
		delete(b.mu.segs, id)
	}
	for _, w := range cb.writes {
		m := b.mu.segs[w.seg]
		if m == nil {
			if w.e.Tombstone {
				continue
			}
			m = overlay.New()
			b.mu.segs[w.seg] = m
		}
		if w.e.Tombstone {
			m.Remove(w.e.Key)
		} else {
			m.Put(w.e.Key, w.e.Value)
		}
	}
	for k, v := range cb.meta {
		b.mu.meta[k] = v
	}
	// In-memory stores restore in full after a restart, so offsets and the
	// position are not kept.
	return nil
}

func (b *memBase) committedOffset(TopicPartition) (int64, bool, error) { return 0, false, nil }

func (b *memBase) meta(key string) ([]byte, bool, error) {
	b.mu.RLock()
	defer b.mu.RUnlock()
	v, ok := b.mu.meta[key]
	return v, ok, nil
}

func (b *memBase) approxEntries() (int64, error) {
	b.mu.RLock()
	defer b.mu.RUnlock()
	var n int64
	for _, m := range b.mu.segs {
		n += int64(m.Len())
	}
	return n, nil
}

func (b *memBase) close() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.mu.closed = true
	b.mu.segs = nil
	return nil
}

type memView struct {
	ids  []int64
	segs map[int64]*overlay.Snapshot
}

func (v *memView) segments() []int64 { return v.ids }

func (v *memView) get(seg int64, key []byte) ([]byte, bool, error) {
	s := v.segs[seg]
	if s == nil {
		return nil, false, nil
	}
	e, ok := s.Get(key)
	return e.Value, ok, nil
}

func (v *memView) iter(seg int64, lo, hi []byte, reverse bool) rawIter {
	s := v.segs[seg]
	if s == nil {
		return emptyIter{}
	}
	return &memIter{it: s.Iter(lo, hi, reverse)}
}

func (v *memView) release() {}

type memIter struct {
	it *overlay.Iterator
	e  overlay.Entry
}

func (m *memIter) next() bool {
	if !m.it.Next() {
		return false
	}
	m.e = m.it.Entry()
	return true
}
func (m *memIter) key() []byte   { return m.e.Key }
func (m *memIter) value() []byte { return m.e.Value }
func (m *memIter) err() error    { return nil }
func (m *memIter) close()        {}

type emptyIter struct{}

func (emptyIter) next() bool    { return false }
func (emptyIter) key() []byte   { return nil }
func (emptyIter) value() []byte { return nil }
func (emptyIter) err() error    { return nil }
func (emptyIter) close()        {}

// segPrefix encodes a segment id so that byte order is numeric order.
func segPrefix(seg int64) []byte {
	return binary.BigEndian.AppendUint64(make([]byte, 0, 8), uint64(seg)^(1<<63))
}

func decodeSegPrefix(b []byte) int64 {
	return int64(binary.BigEndian.Uint64(b) ^ (1 << 63))
}
