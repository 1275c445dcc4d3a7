package state

import (
	"sort"
	"sync"

	"github.com/stoatflow/stoatflow/internal/overlay"
)

// memBase is the in-memory engine: one sorted map per segment behind a
// read-write lock, so a batch is applied under the write lock and a view is
// taken under the read lock. It keeps no offsets and no position: an
// in-memory store restores in full after a restart.
type memBase struct {
	mu struct {
		sync.RWMutex
		segs   map[int64]*overlay.Map
		meta   map[string][]byte
		closed bool
	}
}

var _ Engine = (*memBase)(nil)

func newMemBase() *memBase {
	b := &memBase{}
	b.mu.segs = map[int64]*overlay.Map{}
	b.mu.meta = map[string][]byte{}
	return b
}

func (b *memBase) Persistent() bool { return false }

func (b *memBase) Get(seg int64, key []byte) ([]byte, bool, error) {
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

func (b *memBase) View() (EngineView, error) {
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

func (b *memBase) Apply(cb *Batch) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.mu.closed {
		return ErrClosed
	}
	for _, id := range cb.Drop {
		delete(b.mu.segs, id)
	}
	for _, w := range cb.Writes {
		m := b.mu.segs[w.Segment]
		if m == nil {
			if w.Tombstone {
				continue
			}
			m = overlay.New()
			b.mu.segs[w.Segment] = m
		}
		if w.Tombstone {
			m.Remove(w.Key)
		} else {
			m.Put(w.Key, w.Value)
		}
	}
	for k, v := range cb.Meta {
		b.mu.meta[k] = v
	}
	// In-memory stores restore in full after a restart, so offsets and the
	// position are not kept.
	return nil
}

func (b *memBase) CommittedOffset(TopicPartition) (int64, bool, error) { return 0, false, nil }

func (b *memBase) Meta(key string) ([]byte, bool, error) {
	b.mu.RLock()
	defer b.mu.RUnlock()
	v, ok := b.mu.meta[key]
	return v, ok, nil
}

func (b *memBase) ApproximateNumEntries() (int64, error) {
	b.mu.RLock()
	defer b.mu.RUnlock()
	var n int64
	for _, m := range b.mu.segs {
		n += int64(m.Len())
	}
	return n, nil
}

func (b *memBase) Close() error {
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

func (v *memView) Segments() []int64 { return v.ids }

func (v *memView) Iter(seg int64, lo, hi []byte, reverse bool) EngineIterator {
	s := v.segs[seg]
	if s == nil {
		return emptyIter{}
	}
	return &memIter{it: s.Iter(lo, hi, reverse)}
}

func (v *memView) Release() {}

type memIter struct {
	it *overlay.Iterator
	e  overlay.Entry
}

func (m *memIter) Next() bool {
	if !m.it.Next() {
		return false
	}
	m.e = m.it.Entry()
	return true
}
func (m *memIter) Key() []byte   { return m.e.Key }
func (m *memIter) Value() []byte { return m.e.Value }
func (m *memIter) Err() error    { return nil }
func (m *memIter) Close()        {}

type emptyIter struct{}

func (emptyIter) Next() bool    { return false }
func (emptyIter) Key() []byte   { return nil }
func (emptyIter) Value() []byte { return nil }
func (emptyIter) Err() error    { return nil }
func (emptyIter) Close()        {}
