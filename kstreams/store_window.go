package kstreams

import (
	"bytes"
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/stoatflow/stoatflow/internal/storeformat"
	"github.com/stoatflow/stoatflow/state"
)

// WindowStore is the typed view of a plain (untimestamped) window store,
// Kafka's WindowStore<K, V> of Stores.windowStoreBuilder: values under
// (key, window start). A store that retains duplicates (a stream-stream
// join's, which keeps every record of one side under its timestamp) adds
// a value at every put; one that does not keeps one value per window, and
// a nil value deletes it.
//
// Its changelog layer counts puts on its own, as Kafka's
// ChangeLoggingWindowBytesStore does: every put, a null value included,
// takes the next sequence number for the changelog key, while the store
// below gives sequence numbers only to the values it keeps. A restore
// writes the changelog keys as they are.
//
// With a record cache (WithCachingEnabled, on a store that keeps no
// duplicates), puts wait in the cache until the task flushes it (at each
// commit, or when the cache evicts a written entry), as with Kafka's
// caching window store: a flush writes every written window to the store
// and its changelog, a deletion of a window the store never had included,
// in the order of their last puts, each logged with the timestamp of the
// record that put it. Reads see the cache over the store. A flushed window
// stays in the cache until the cache evicts it, so reads still find it
// after the store has dropped it for its age (or never kept it, when it
// was put older than the retention).
type WindowStore struct {
	storeBase
	inner WindowBytesStore
	dups  bool
	seq   int32
	// segment is the width, in milliseconds of window start, of the
	// segments the store's Kafka twin keeps its windows in, which orders
	// FetchAll: max(retention/2, 60 s) for a persistent store, 1 for an
	// in-memory one (ordered by start alone).
	segment int64
}

// newWindowStore returns the view of a plain window store of spec s.
func newWindowStore(base storeBase, inner WindowBytesStore, s *StoreSpec) *WindowStore {
	segment := state.SegmentInterval(s.Retention)
	if s.Type == InMemory {
		segment = 1
	}
	v := &WindowStore{storeBase: base, inner: inner, dups: s.RetainDuplicates, segment: segment}
	v.setupFlush(v.flushWrite)
	return v
}

// Put stores value under key's window starting at ts (WindowStore.put); a
// nil value deletes the window, or, in a store retaining duplicates, is
// logged and otherwise ignored. With a record cache the put waits in the
// cache, whatever its age.
func (s *WindowStore) Put(key, value any, ts int64) error {
	kb, err := s.keyBytes(key)
	if err != nil {
		return err
	}
	if s.cache != nil {
		return s.putCached(string(windowKey(kb, ts)), &cacheEntry{keyVal: key, kb: kb, start: ts, value: value}, 0)
	}
	return s.write(kb, ts, value)
}

// flushWrite writes a flushed cache entry. A Processor API store has no
// flush listener in Kafka, so every written window reaches the store and
// its changelog, a deletion of an absent window included.
func (s *WindowStore) flushWrite(e *cacheEntry) (bool, error) {
	return true, s.write(e.kb, e.start, e.value)
}

// write puts value (nil: deletes) under key's window in the store and logs
// it with the timestamp of the record being processed (at a flush, the
// record that put it).
func (s *WindowStore) write(kb []byte, start int64, value any) error {
	var vb []byte
	if value != nil {
		var err error
		if vb, err = s.valueBytes(value); err != nil {
			return err
		}
	}
	if err := s.inner.Put(kb, start, vb); err != nil {
		return err
	}
	var seq int32
	if s.dups {
		s.seq = (s.seq + 1) & math.MaxInt32
		seq = s.seq
	}
	return s.logChange(storeformat.AppendWindowKey(make([]byte, 0, len(kb)+storeformat.WindowKeySuffix), kb, start, seq), vb, s.now())
}

// Fetch returns the value of key's window starting at start
// (WindowStore.fetch(key, time)); with a record cache, the cache's value
// (a cached deletion finds nothing) before the store's. A store retaining
// duplicates finds nothing here: read it with FetchRange. (Kafka's
// fetch(key, time) finds there only the store's last put since it opened,
// when that put was to this window.)
func (s *WindowStore) Fetch(key any, start int64) (value any, ok bool, err error) {
	kb, err := s.keyBytes(key)
	if err != nil {
		return nil, false, err
	}
	if s.cache != nil {
		if e, ok := s.cache.get(string(windowKey(kb, start))); ok {
			return e.value, e.value != nil, nil
		}
	}
	b, err := s.inner.Fetch(kb, start)
	if err != nil || b == nil {
		return nil, false, err
	}
	if value, err = s.val.DeserializeAny(s.topic, b); err != nil {
		return nil, false, fmt.Errorf("kstreams: store %s: value: %w", s.name, err)
	}
	return value, true, nil
}

// storedWindow is one window a read found: in the store (vb, the value's
// bytes) or in the record cache (value, with cached set).
type storedWindow struct {
	kb     []byte
	start  int64
	vb     []byte
	value  any
	cached bool
	gone   bool // deleted by the cache
}

// decode returns the window's value as the processor sees it.
func (s *WindowStore) decode(w storedWindow) (any, error) {
	if w.cached {
		return w.value, nil
	}
	v, err := s.val.DeserializeAny(s.topic, w.vb)
	if err != nil {
		return nil, fmt.Errorf("kstreams: store %s: value: %w", s.name, err)
	}
	return v, nil
}

// overlay puts the record cache's windows accepted by in over the store's
// windows: a cached window replaces the store's of the same key and start,
// and a cached deletion removes it, as Kafka's caching window store merges
// them. A store with a cache keeps no duplicates, so each (key, start) is
// there once.
func (s *WindowStore) overlay(ws []storedWindow, entries func(yield func(*cacheEntry) bool), in func(e *cacheEntry) bool) []storedWindow {
	at := make(map[string]int, len(ws))
	for i, w := range ws {
		at[string(windowKey(w.kb, w.start))] = i
	}
	deleted := false
	for e := range entries {
		if !in(e) {
			continue
		}
		i, found := at[e.k]
		switch {
		case e.value == nil && found:
			ws[i].gone, deleted = true, true
		case e.value == nil:
		case found:
			ws[i] = storedWindow{kb: e.kb, start: e.start, value: e.value, cached: true}
		default:
			at[e.k] = len(ws)
			ws = append(ws, storedWindow{kb: e.kb, start: e.start, value: e.value, cached: true})
		}
	}
	if deleted {
		ws = slices.DeleteFunc(ws, func(w storedWindow) bool { return w.gone })
	}
	return ws
}

// FetchAll calls fn with the key, window start and value of every window
// with start in [from, to] (WindowStore.fetchAll), in the order Kafka's
// store iterates them: a persistent store's by segment (window starts in
// blocks of max(retention/2, 60 s)), then by serialized key and start
// within a segment; an in-memory store's by start, then serialized key;
// the puts of one window of a store retaining duplicates in the order
// they were made. With a record cache, the cache's windows are merged in:
// its values over the store's, its deletions hiding the store's windows.
func (s *WindowStore) FetchAll(from, to int64, fn func(key any, start int64, value any) error) error {
	var all []storedWindow
	if err := s.inner.FetchAll(from, to, func(kb []byte, start int64, vb []byte) bool {
		all = append(all, storedWindow{kb: slices.Clone(kb), start: start, vb: slices.Clone(vb)})
		return true
	}); err != nil {
		return err
	}
	if s.cache != nil {
		all = s.overlay(all, func(yield func(*cacheEntry) bool) {
			for _, el := range s.cache.entries {
				if !yield(el.Value.(*cacheEntry)) {
					return
				}
			}
		}, func(e *cacheEntry) bool { return e.start >= from && e.start <= to })
	}
	slices.SortStableFunc(all, func(a, b storedWindow) int { return s.compareWindows(a.kb, a.start, b.kb, b.start) })
	for _, w := range all {
		k, err := s.decodeKey(w.kb)
		if err != nil {
			return err
		}
		v, err := s.decode(w)
		if err != nil {
			return err
		}
		if err := fn(k, w.start, v); err != nil {
			return err
		}
	}
	return nil
}

// compareWindows orders two windows as FetchAll gives them. Within a
// segment a persistent store orders its keys as stored, key ++ start, so
// a key that is a prefix of another sorts by the start's bytes.
func (s *WindowStore) compareWindows(akb []byte, as int64, bkb []byte, bs int64) int {
	if s.segment <= 1 {
		return cmp.Or(cmp.Compare(as, bs), bytes.Compare(akb, bkb))
	}
	// Kafka's segment id is start / interval, rounded toward zero as Go's
	// division is.
	if c := cmp.Compare(as/s.segment, bs/s.segment); c != 0 {
		return c
	}
	return bytes.Compare(windowKey(akb, as), windowKey(bkb, bs))
}

// FetchRange calls fn with the start and value of every window of key with
// a start in [from, to] (WindowStore.fetch(key, from, to)), in start order
// (puts of one start in the order they were made). With a record cache,
// the cache's windows of key are merged in, whatever their age: its values
// over the store's, its deletions hiding the store's windows.
func (s *WindowStore) FetchRange(key any, from, to int64, fn func(ts int64, value any) error) error {
	kb, err := s.keyBytes(key)
	if err != nil {
		return err
	}
	if s.cache != nil {
		return s.fetchRangeCached(kb, from, to, fn)
	}
	var ferr error
	err = s.inner.FetchRange(kb, from, to, func(ts int64, b []byte) bool {
		v, err := s.val.DeserializeAny(s.topic, b)
		if err != nil {
			ferr = fmt.Errorf("kstreams: store %s: value: %w", s.name, err)
			return false
		}
		ferr = fn(ts, v)
		return ferr == nil
	})
	if err != nil {
		return err
	}
	return ferr
}

// fetchRangeCached is FetchRange over the store and the record cache; the
// windows are read before fn sees the first, so fn may put.
func (s *WindowStore) fetchRangeCached(kb []byte, from, to int64, fn func(ts int64, value any) error) error {
	var ws []storedWindow
	if err := s.inner.FetchRange(kb, from, to, func(start int64, vb []byte) bool {
		ws = append(ws, storedWindow{kb: kb, start: start, vb: slices.Clone(vb)})
		return true
	}); err != nil {
		return err
	}
	ws = s.overlay(ws, func(yield func(*cacheEntry) bool) {
		for _, e := range s.cache.keys[string(kb)] {
			if !yield(e) {
				return
			}
		}
	}, func(e *cacheEntry) bool { return e.start >= from && e.start <= to })
	slices.SortStableFunc(ws, func(a, b storedWindow) int { return cmp.Compare(a.start, b.start) })
	for _, w := range ws {
		v, err := s.decode(w)
		if err != nil {
			return err
		}
		if err := fn(w.start, v); err != nil {
			return err
		}
	}
	return nil
}
