package state

import (
	"bytes"
	"encoding/binary"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/stoatflow/stoatflow/internal/invariants"
	"github.com/stoatflow/stoatflow/internal/overlay"
)

// core is what every store is built on: an overlay of uncommitted writes
// over an Engine of committed data, its base. Writes come from one
// goroutine (the owning stream thread); reads may come from any.
type core struct {
	name      string
	base      Engine
	segmented bool // overlay keys carry an 8-byte segment prefix
	ov        *overlay.Map
	budget    *Budget
	closed    atomic.Bool

	posMu     sync.Mutex
	pending   Position // position of uncommitted writes
	committed Position
}

func newCore(name string, b Engine, segmented bool, budget *Budget) (*core, error) {
	c := &core{name: name, base: b, segmented: segmented, ov: overlay.New(), budget: budget, pending: Position{}, committed: Position{}}
	if raw, ok, err := b.Meta(PositionKey); err != nil {
		return nil, err
	} else if ok {
		p, err := UnmarshalPosition(raw)
		if err != nil {
			return nil, &CorruptionError{Store: name, Err: err}
		}
		c.committed = p
	}
	return c, nil
}

// segPrefix encodes a segment id so that byte order is numeric order.
func segPrefix(seg int64) []byte {
	return binary.BigEndian.AppendUint64(make([]byte, 0, 8), uint64(seg)^(1<<63))
}

func decodeSegPrefix(b []byte) int64 {
	return int64(binary.BigEndian.Uint64(b) ^ (1 << 63))
}

func (c *core) ovKey(seg int64, key []byte) []byte {
	if !c.segmented {
		return key
	}
	k := make([]byte, 0, 8+len(key))
	k = append(k, segPrefix(seg)...)
	return append(k, key...)
}

func (c *core) check() error {
	if c.closed.Load() {
		return ErrClosed
	}
	return nil
}

func (c *core) put(seg int64, key, value []byte) error {
	if err := c.check(); err != nil {
		return err
	}
	c.budget.Add(c.ov.Put(c.ovKey(seg, key), value))
	return nil
}

func (c *core) del(seg int64, key []byte) error {
	if err := c.check(); err != nil {
		return err
	}
	c.budget.Add(c.ov.Delete(c.ovKey(seg, key)))
	return nil
}

func (c *core) get(iso IsolationLevel, seg int64, key []byte) ([]byte, bool, error) {
	if err := c.check(); err != nil {
		return nil, false, err
	}
	if iso == ReadUncommitted {
		if e, ok := c.ov.Get(c.ovKey(seg, key)); ok {
			if e.Tombstone {
				return nil, false, nil
			}
			return e.Value, true, nil
		}
	}
	v, ok, err := c.base.Get(seg, key)
	return v, ok, storeErr(c.name, "get", err)
}

// updatePosition records that uncommitted writes reflect topic-partition up
// to offset.
func (c *core) updatePosition(topic string, partition int32, offset int64) {
	c.posMu.Lock()
	defer c.posMu.Unlock()
	c.pending.Update(topic, partition, offset)
}

func (c *core) position(iso IsolationLevel) Position {
	c.posMu.Lock()
	defer c.posMu.Unlock()
	p := c.committed.Copy()
	if iso == ReadUncommitted {
		p.Merge(c.pending)
	}
	return p
}

func (c *core) uncommittedBytes() int64 { return c.ov.Bytes() }

// commit writes the overlay, the offsets, the position and meta in one
// batch, then empties the overlay.
// Writes to segments below minSeg (expired by stream time) are discarded.
func (c *core) commit(offsets map[TopicPartition]*int64, meta map[string][]byte, drop []int64, minSeg int64) error {
	if err := c.check(); err != nil {
		return err
	}
	snap := c.ov.Snapshot()
	cb := &Batch{Offsets: offsets, ClearOffsets: len(offsets) == 0, Meta: meta, Drop: drop}
	cb.Writes = make([]Write, 0, snap.Len())
	snap.Ascend(nil, nil, func(e overlay.Entry) bool {
		w := Write{Key: e.Key, Value: e.Value, Tombstone: e.Tombstone}
		if c.segmented {
			w.Segment = decodeSegPrefix(e.Key)
			w.Key = e.Key[8:]
			if w.Segment < minSeg {
				return true
			}
		}
		cb.Writes = append(cb.Writes, w)
		return true
	})
	c.posMu.Lock()
	pos := c.committed.Copy()
	pos.Merge(c.pending)
	c.posMu.Unlock()
	if !cb.ClearOffsets {
		raw, _ := pos.MarshalBinary()
		cb.Position = raw
	}
	if err := c.base.Apply(cb); err != nil {
		return storeErr(c.name, "commit", err)
	}
	c.posMu.Lock()
	c.committed = pos
	c.pending = Position{}
	c.posMu.Unlock()
	if invariants.Enabled {
		c.checkNoWriteDuring("commit", snap)
	}
	c.budget.Add(c.ov.Reset())
	if invariants.Enabled {
		c.checkOverlayEmpty("commit")
	}
	return nil
}

func (c *core) rollback() {
	c.budget.Add(c.ov.Reset())
	c.posMu.Lock()
	c.pending = Position{}
	c.posMu.Unlock()
	if invariants.Enabled {
		c.checkOverlayEmpty("rollback")
	}
}

func (c *core) applyChangelog(writes []Write, tp TopicPartition, lastOffset int64, meta map[string][]byte) error {
	if err := c.check(); err != nil {
		return err
	}
	if invariants.Enabled {
		c.checkRestoreOffset(tp, lastOffset)
	}
	cb := &Batch{Writes: writes, Offsets: map[TopicPartition]*int64{tp: &lastOffset}, Meta: meta}
	return storeErr(c.name, "restore", c.base.Apply(cb))
}

func (c *core) committedOffset(tp TopicPartition) (int64, bool, error) {
	if err := c.check(); err != nil {
		return 0, false, err
	}
	o, ok, err := c.base.CommittedOffset(tp)
	return o, ok, storeErr(c.name, "committed offset", err)
}

func (c *core) close() error {
	if c.closed.Swap(true) {
		return nil
	}
	c.budget.Add(c.ov.Reset())
	return storeErr(c.name, "close", c.base.Close())
}

// scan describes a merged iteration: segments segLo..segHi (ignored for
// unsegmented stores), and in each, keys in [lo, hi).
type scan struct {
	iso          IsolationLevel
	segLo, segHi int64
	lo, hi       []byte
	reverse      bool
	// liveFrom hides segments below it (expired by stream time but not yet
	// dropped).
	liveFrom int64
}

// iter returns a merged iterator over overlay and base.
func (c *core) iter(s scan) (*mergeIter, error) {
	if err := c.check(); err != nil {
		return nil, err
	}
	m := &mergeIter{c: c, s: s}
	// The overlay snapshot comes first: a commit racing with this call then
	// lands either before the base view (overlay and base agree) or after it
	// (the snapshot still holds the writes).
	if s.iso == ReadUncommitted && c.ov.Len() > 0 {
		m.ov = c.ov.Snapshot()
	}
	v, err := c.base.View()
	if err != nil {
		return nil, storeErr(c.name, "iterate", err)
	}
	m.view = v
	if !c.segmented {
		m.segs = []int64{0}
	} else {
		m.segs = c.segmentsIn(v, m.ov, s)
	}
	return m, nil
}

// segmentsIn lists the segments in the scan's range that base or overlay
// hold, in iteration order.
func (c *core) segmentsIn(v EngineView, ov *overlay.Snapshot, s scan) []int64 {
	lo := s.segLo
	if s.liveFrom > lo {
		lo = s.liveFrom
	}
	set := map[int64]bool{}
	for _, id := range v.Segments() {
		if id >= lo && id <= s.segHi {
			set[id] = true
		}
	}
	if ov != nil {
		next := lo
		for next <= s.segHi {
			var found bool
			var id int64
			ov.Ascend(segPrefix(next), nil, func(e overlay.Entry) bool {
				id, found = decodeSegPrefix(e.Key), true
				return false
			})
			if !found || id > s.segHi {
				break
			}
			set[id] = true
			if id == 1<<63-1 {
				break
			}
			next = id + 1
		}
	}
	out := make([]int64, 0, len(set))
	for id := range set {
		out = append(out, id)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	if s.reverse {
		for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
			out[i], out[j] = out[j], out[i]
		}
	}
	return out
}

// mergeIter merges overlay entries over base entries segment by segment;
// overlay wins on equal keys and its tombstones hide base entries.
type mergeIter struct {
	c    *core
	s    scan
	ov   *overlay.Snapshot
	view EngineView
	segs []int64
	si   int // index of the current segment + 1

	seg     int64
	oi      *overlay.Iterator
	oOK     bool
	oe      overlay.Entry
	bi      EngineIterator
	bOK     bool
	started bool

	key, value  []byte
	curSeg      int64
	pendingBase bool
	err         error
	closed      bool
}

func (m *mergeIter) openSeg() bool {
	if m.bi != nil {
		m.bi.Close()
		m.bi = nil
	}
	if m.si >= len(m.segs) {
		return false
	}
	m.seg = m.segs[m.si]
	m.si++
	m.bi = m.view.Iter(m.seg, m.s.lo, m.s.hi, m.s.reverse)
	m.bOK = m.bi.Next()
	m.oi, m.oOK = nil, false
	if m.ov != nil {
		var lo, hi []byte
		if m.c.segmented {
			p := segPrefix(m.seg)
			lo = append(append([]byte{}, p...), m.s.lo...)
			if m.s.hi != nil {
				hi = append(append([]byte{}, p...), m.s.hi...)
			} else if m.seg != 1<<63-1 {
				hi = segPrefix(m.seg + 1)
			}
		} else {
			lo, hi = m.s.lo, m.s.hi
		}
		m.oi = m.ov.Iter(lo, hi, m.s.reverse)
		m.advanceOverlay()
	}
	return true
}

func (m *mergeIter) advanceOverlay() {
	m.oOK = m.oi.Next()
	if m.oOK {
		m.oe = m.oi.Entry()
		if m.c.segmented {
			m.oe.Key = m.oe.Key[8:]
		}
	}
}

// Next advances to the next visible entry.
func (m *mergeIter) Next() bool {
	if m.closed || m.err != nil {
		return false
	}
	if !m.started {
		m.started = true
		if !m.openSeg() {
			return false
		}
	}
	if m.pendingBase {
		m.pendingBase = false
		m.bOK = m.bi.Next()
	}
	for {
		if !m.oOK && !m.bOK {
			if err := m.bi.Err(); err != nil {
				m.err = storeErr(m.c.name, "iterate", err)
				return false
			}
			if !m.openSeg() {
				return false
			}
			continue
		}
		useOverlay := false
		switch {
		case !m.bOK:
			useOverlay = true
		case m.oOK:
			cmp := bytes.Compare(m.oe.Key, m.bi.Key())
			if m.s.reverse {
				cmp = -cmp
			}
			if cmp == 0 {
				m.bOK = m.bi.Next()
				useOverlay = true
			} else {
				useOverlay = cmp < 0
			}
		}
		if useOverlay {
			e := m.oe
			m.advanceOverlay()
			if e.Tombstone {
				continue
			}
			m.key, m.value, m.curSeg = e.Key, e.Value, m.seg
			return true
		}
		m.key, m.value, m.curSeg = m.bi.Key(), m.bi.Value(), m.seg
		// The base iterator reuses its buffers; advance it lazily.
		m.pendingBase = true
		return true
	}
}

// Key returns the current key (without segment prefix).
func (m *mergeIter) Key() []byte { return m.key }

// Value returns the current value.
func (m *mergeIter) Value() []byte { return m.value }

// Err returns the error that ended the iteration, if any.
func (m *mergeIter) Err() error { return m.err }

// Close releases the iterator; safe to call twice.
func (m *mergeIter) Close() error {
	if m.closed {
		return nil
	}
	m.closed = true
	if m.bi != nil {
		m.bi.Close()
		m.bi = nil
	}
	m.view.Release()
	return nil
}
