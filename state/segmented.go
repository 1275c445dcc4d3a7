package state

import (
	"encoding/binary"
	"fmt"
	"math"
	"path/filepath"
	"sync/atomic"
)

// segStore holds what window and session stores share: the core over a
// segmented base, the observed stream time and segment expiry.
//
// A segment covers interval milliseconds of segment time (window start for
// window stores, session end for session stores). Stream time is the largest
// segment time seen; data older than stream time minus retention is hidden
// from reads at once and dropped, a whole segment at a time, by the next
// commit.
type segStore struct {
	c         *core
	interval  int64
	retention int64
	// liveLag is what liveFrom adds to stream time minus the retention:
	// 1, or 0 for a time-ordered window store (WindowOptions.TimeOrdered).
	liveLag int64
	// observed is the stream time of the owner's writes; committedTime the
	// stream time as of the last commit. math.MinInt64 until the first write.
	observed      atomic.Int64
	committedTime atomic.Int64
}

// SegmentedDir returns the directory of a persistent window or session
// store: <taskDir>/<name>, where Kafka Streams keeps the store's segments.
func SegmentedDir(taskDir, name string) string { return filepath.Join(taskDir, name) }

func openSegStore(name string, b Engine, retention, interval int64, budget *Budget) (*segStore, error) {
	if retention < 0 || interval <= 0 {
		b.Close()
		return nil, fmt.Errorf("%w: store %q: retention %d ms, segment interval %d ms", ErrInvalidArgument, name, retention, interval)
	}
	c, err := newCore(name, b, true, budget)
	if err != nil {
		b.Close()
		return nil, err
	}
	s := &segStore{c: c, interval: interval, retention: retention, liveLag: 1}
	st := int64(math.MinInt64)
	if raw, ok, err := b.Meta(streamTimeKey); err != nil {
		b.Close()
		return nil, err
	} else if ok && len(raw) == 8 {
		st = int64(binary.BigEndian.Uint64(raw))
	}
	s.observed.Store(st)
	s.committedTime.Store(st)
	// A crash between the flush and the drop of an expired segment leaves
	// the segment behind; drop it now.
	if drop := s.expiredSegments(st); len(drop) > 0 {
		if err := b.Apply(&Batch{Drop: drop, DropNow: true}); err != nil {
			b.Close()
			return nil, err
		}
	}
	return s, nil
}

// minLiveSegment is the lowest segment still live at stream time st.
func (s *segStore) minLiveSegment(st int64) int64 {
	if st == math.MinInt64 {
		return math.MinInt64
	}
	return segmentID(st-s.retention, s.interval)
}

// liveFrom is the lowest segment time reads show at stream time st.
func (s *segStore) liveFrom(st int64) int64 {
	if st == math.MinInt64 {
		return math.MinInt64
	}
	return st - s.retention + s.liveLag
}

func (s *segStore) streamTime(iso IsolationLevel) int64 {
	if iso == ReadCommitted {
		return s.committedTime.Load()
	}
	return s.observed.Load()
}

func (s *segStore) expiredSegments(st int64) []int64 {
	minLive := s.minLiveSegment(st)
	if minLive == math.MinInt64 {
		return nil
	}
	v, err := s.c.base.View()
	if err != nil {
		return nil
	}
	defer v.Release()
	var drop []int64
	for _, id := range v.Segments() {
		if id < minLive {
			drop = append(drop, id)
		}
	}
	return drop
}

// observe advances stream time to t and reports whether t is still live.
func (s *segStore) observe(t int64) bool {
	if t > s.observed.Load() {
		s.observed.Store(t)
	}
	return t >= s.liveFrom(s.observed.Load())
}

func (s *segStore) put(t int64, key, value []byte) error {
	if err := s.c.check(); err != nil {
		return err
	}
	if !s.observe(t) {
		return nil // expired, as Kafka Streams drops it
	}
	seg := segmentID(t, s.interval)
	if value == nil {
		return s.c.del(seg, key)
	}
	return s.c.put(seg, key, value)
}

func (s *segStore) commit(offsets map[TopicPartition]*int64) error {
	st := s.observed.Load()
	meta := map[string][]byte{}
	if st != math.MinInt64 {
		meta[streamTimeKey] = binary.BigEndian.AppendUint64(nil, uint64(st))
	}
	if err := s.c.commit(offsets, meta, s.expiredSegments(st), s.minLiveSegment(st)); err != nil {
		return err
	}
	s.committedTime.Store(st)
	return nil
}

func (s *segStore) rollback() {
	s.c.rollback()
	s.observed.Store(s.committedTime.Load())
}

func (s *segStore) applyChangelog(recs []ChangelogRecord, tp TopicPartition, lastOffset int64, segTime func([]byte) (int64, error), value func(ChangelogRecord) []byte) error {
	if err := s.c.check(); err != nil {
		return err
	}
	writes := make([]Write, 0, len(recs))
	for _, r := range recs {
		t, err := segTime(r.Key)
		if err != nil {
			return storeErr(s.c.name, "restore", err)
		}
		if !s.observe(t) {
			continue
		}
		w := Write{Segment: segmentID(t, s.interval), Key: r.Key}
		if r.Value == nil {
			w.Tombstone = true
		} else {
			w.Value = value(r)
		}
		writes = append(writes, w)
	}
	st := s.observed.Load()
	meta := map[string][]byte{}
	if st != math.MinInt64 {
		meta[streamTimeKey] = binary.BigEndian.AppendUint64(nil, uint64(st))
	}
	minLive := s.minLiveSegment(st)
	kept := writes[:0]
	for _, w := range writes {
		if w.Segment >= minLive {
			kept = append(kept, w)
		}
	}
	cb := &Batch{Writes: kept, Offsets: map[TopicPartition]*int64{tp: &lastOffset}, Meta: meta, Drop: s.expiredSegments(st)}
	if err := s.c.base.Apply(cb); err != nil {
		return storeErr(s.c.name, "restore", err)
	}
	if s.c.ov.Len() == 0 {
		s.committedTime.Store(st)
	}
	return nil
}

// segIter adapts a merged iterator to decoded window or session entries,
// filtering out keys a byte range cannot exclude.
type segIter struct {
	m      *mergeIter
	accept func(storedKey []byte) bool
}

func (it *segIter) Next() bool {
	for it.m.Next() {
		if it.accept(it.m.Key()) {
			return true
		}
	}
	return false
}

func (it *segIter) Err() error   { return it.m.Err() }
func (it *segIter) Close() error { return it.m.Close() }
