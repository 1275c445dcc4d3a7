package kstreams

import (
	"bytes"
	"cmp"
	"fmt"
	"slices"

	"github.com/stoatflow/stoatflow/internal/storeformat"
	"github.com/stoatflow/stoatflow/kstreams/serde"
)

// Change is the value a KTable forwards downstream: the new value and, when
// an operator asked for it, the old one. Either may be nil.
type Change struct {
	New, Old any
	// notLatest marks an update of a versioned table that is not the key's
	// latest version (an out-of-order record): Kafka's Change.isLatest false.
	notLatest bool
}

// storeBase holds what every typed store view shares.
type storeBase struct {
	name     string
	key, val serde.Untyped
	topic    string // changelog topic, also the topic the serdes see
	log      ChangelogWriter
	now      func() int64 // timestamp of the record being processed
	setNow   func(int64)
	headers  func() []Header
	cache    *storeCache // nil: writes go straight to the store
	// origin and setOrigin read and set the task's record metadata, which
	// a cache entry keeps for its flush; nil in views without a task.
	origin    func() (RecordMetadata, bool)
	setOrigin func(RecordMetadata, bool)
}

// stamp records where the record that writes a cache entry came from.
func (s *storeBase) stamp(e *cacheEntry) *cacheEntry {
	if s.origin != nil {
		e.origin, e.hasOrigin = s.origin()
	}
	return e
}

// Name returns the store name.
func (s *storeBase) Name() string { return s.name }

func (s *storeBase) logChange(key, value []byte, ts int64) error {
	if s.log == nil {
		return nil
	}
	return s.log.LogChange(s.name, key, value, ts)
}

func (s *storeBase) keyBytes(key any) ([]byte, error) {
	kb, err := s.key.SerializeAny(s.topic, key)
	if err != nil {
		return nil, fmt.Errorf("kstreams: store %s: key: %w", s.name, err)
	}
	return kb, nil
}

// valueBytes serializes a value to store.
func (s *storeBase) valueBytes(value any) ([]byte, error) {
	b, err := s.val.SerializeAny(s.topic, value)
	if err != nil {
		return nil, fmt.Errorf("kstreams: store %s: value: %w", s.name, err)
	}
	return b, nil
}

// putCached is every view's write through its record cache: e, a write
// of the record being processed, goes into the cache under k, dirty and
// stamped with the record's timestamp, headers and origin. extra is what
// the store keeps beyond the value's bytes (a timestamp), for the cache's
// byte budget.
func (s *storeBase) putCached(k string, e *cacheEntry, extra int) error {
	n := 0
	if e.value != nil {
		b, err := s.valueBytes(e.value)
		if err != nil {
			return err
		}
		n = len(b)
	}
	e.ctxTs, e.headers = s.now(), s.headers()
	return s.cache.put(k, s.stamp(e), true, n+extra)
}

// flushOld sets e.old, the old value a table forwards with a flushed
// entry, to what the store held before the flush: old, read from the store
// (timestamp ++ value when timestamped), where existed. It returns false
// when the flush has nothing to write: a deletion of what the store does
// not hold.
func (s *storeBase) flushOld(e *cacheEntry, existed bool, old []byte, timestamped bool) (bool, error) {
	if !existed && e.value == nil {
		return false, nil
	}
	e.old = nil
	if old == nil {
		return true, nil
	}
	if timestamped {
		var err error
		if _, old, err = s.splitTimestamped(old); err != nil {
			return false, err
		}
	}
	v, err := s.val.DeserializeAny(s.topic, old)
	if err != nil {
		return false, fmt.Errorf("kstreams: store %s: old value: %w", s.name, err)
	}
	e.old = v
	return true, nil
}

// The byte layouts below are internal/storeformat's, which restore (state's
// ApplyChangelog) and interactive queries use too: a timestamped value is
// stored as timestamp ++ value and logged as the value alone with the
// timestamp as record timestamp; window and session stores log under their
// store keys.

func timestamped(ts int64, raw []byte) []byte {
	return storeformat.AppendTimestamped(make([]byte, 0, storeformat.TimestampSize+len(raw)), ts, raw)
}

func (s *storeBase) splitTimestamped(b []byte) (int64, []byte, error) {
	ts, raw, err := storeformat.SplitTimestamped(b)
	if err != nil {
		return 0, nil, fmt.Errorf("kstreams: store %s: %w", s.name, err)
	}
	return ts, raw, nil
}

// decodeTimestamped decodes a stored timestamp ++ value.
func (s *storeBase) decodeTimestamped(b []byte) (any, int64, error) {
	ts, raw, err := s.splitTimestamped(b)
	if err != nil {
		return nil, 0, err
	}
	v, err := s.val.DeserializeAny(s.topic, raw)
	if err != nil {
		return nil, 0, err
	}
	return v, ts, nil
}

// windowKey is the window store key of the DSL's window stores, which keep
// no duplicates: sequence number 0.
func windowKey(kb []byte, start int64) []byte {
	return storeformat.AppendWindowKey(make([]byte, 0, len(kb)+storeformat.WindowKeySuffix), kb, start, 0)
}

func sessionKey(kb []byte, w Window) []byte {
	return storeformat.AppendSessionKey(make([]byte, 0, len(kb)+storeformat.SessionKeySuffix), kb, w.Start, w.End)
}

// TimestampedKeyValueStore is the typed view of a DSL key-value store: values
// with their timestamps, stored as Kafka's ValueAndTimestamp bytes (8-byte
// timestamp ++ value) and changelogged as the raw value with the timestamp as
// record timestamp.
type TimestampedKeyValueStore struct {
	storeBase
	inner KeyValueBytesStore
}

// Get returns the value and timestamp under key; ok is false if absent.
func (s *TimestampedKeyValueStore) Get(key any) (value any, ts int64, ok bool, err error) {
	kb, err := s.keyBytes(key)
	if err != nil {
		return nil, 0, false, err
	}
	if s.cache != nil {
		if e, ok := s.cache.get(string(kb)); ok {
			return e.value, e.ts, e.value != nil, nil
		}
	}
	b, err := s.inner.Get(kb)
	if err != nil || b == nil {
		return nil, 0, false, err
	}
	v, ts, err := s.decodeTimestamped(b)
	if err != nil {
		return nil, 0, false, err
	}
	if s.cache != nil { // a read fills the cache with a clean entry, as in Kafka
		if err := s.cache.put(string(kb), &cacheEntry{keyVal: key, kb: kb, value: v, ts: ts}, false, len(b)); err != nil {
			return nil, 0, false, err
		}
	}
	return v, ts, true, nil
}

// Put stores value with timestamp ts; a nil value deletes key.
func (s *TimestampedKeyValueStore) Put(key, value any, ts int64) error {
	kb, err := s.keyBytes(key)
	if err != nil {
		return err
	}
	if s.cache != nil {
		return s.putCached(string(kb), &cacheEntry{keyVal: key, kb: kb, value: value, ts: ts}, storeformat.TimestampSize)
	}
	return s.write(kb, value, ts)
}

func (s *TimestampedKeyValueStore) flushWrite(e *cacheEntry) (bool, error) {
	old, err := s.inner.Get(e.kb)
	if err != nil {
		return false, err
	}
	if write, err := s.flushOld(e, old != nil, old, true); !write {
		return false, err
	}
	return true, s.write(e.kb, e.value, e.ts)
}

func (s *TimestampedKeyValueStore) write(kb []byte, value any, ts int64) error {
	if value == nil {
		if _, err := s.inner.Delete(kb); err != nil {
			return err
		}
		return s.logChange(kb, nil, s.now())
	}
	raw, err := s.valueBytes(value)
	if err != nil {
		return err
	}
	if err := s.inner.Put(kb, timestamped(ts, raw)); err != nil {
		return err
	}
	return s.logChange(kb, raw, ts)
}

// KeyValueStore is the typed view of a plain key-value store (added with
// AddStateStore): values alone, changelogged with the timestamp of the
// record being processed. With a record cache (WithCachingEnabled), writes
// wait in the cache until the task flushes it, and reads the cache answers
// do not reach the store, as with Kafka's caching store.
type KeyValueStore struct {
	storeBase
	inner KeyValueBytesStore
}

// evictingStore is a byte store that may evict an entry to make room for a
// put (state.LRUKeyValueStore, Stores.lruMap's store): the view logs a
// tombstone for the evicted key before the put's own record, as Kafka's
// changelogging store does from the eviction listener it installs.
type evictingStore interface {
	PutEvicting(key, value []byte) (evicted []byte, err error)
}

// Get returns the value under key; ok is false if absent.
func (s *KeyValueStore) Get(key any) (value any, ok bool, err error) {
	kb, err := s.keyBytes(key)
	if err != nil {
		return nil, false, err
	}
	if s.cache != nil {
		if e, ok := s.cache.get(string(kb)); ok {
			return e.value, e.value != nil, nil
		}
	}
	b, err := s.inner.Get(kb)
	if err != nil || b == nil {
		return nil, false, err
	}
	v, err := s.val.DeserializeAny(s.topic, b)
	if err != nil {
		return nil, false, err
	}
	if s.cache != nil { // a read fills the cache with a clean entry, as in Kafka
		if err := s.cache.put(string(kb), &cacheEntry{keyVal: key, kb: kb, value: v}, false, len(b)); err != nil {
			return nil, false, err
		}
	}
	return v, true, nil
}

// Put stores value under key; a nil value deletes key.
func (s *KeyValueStore) Put(key, value any) error {
	kb, err := s.keyBytes(key)
	if err != nil {
		return err
	}
	if s.cache != nil {
		return s.putCached(string(kb), &cacheEntry{keyVal: key, kb: kb, value: value}, 0)
	}
	return s.write(kb, value)
}

// Delete removes key.
func (s *KeyValueStore) Delete(key any) error {
	if s.cache != nil {
		// Kafka's caching store reads the old value first, through the
		// cache, which can use the key in the store below.
		if _, _, err := s.Get(key); err != nil {
			return err
		}
		return s.Put(key, nil)
	}
	kb, err := s.keyBytes(key)
	if err != nil {
		return err
	}
	return s.write(kb, nil)
}

// flushWrite writes a flushed cache entry. A Processor API store has no
// flush listener in Kafka, so every dirty entry reaches the store and its
// changelog, a deletion of an absent key included.
func (s *KeyValueStore) flushWrite(e *cacheEntry) (bool, error) {
	return true, s.write(e.kb, e.value)
}

// write puts value (nil: deletes) under the serialized key in the store
// and logs it, after the tombstone of an entry the put evicted.
func (s *KeyValueStore) write(kb []byte, value any) error {
	vb, err := s.apply(kb, value)
	if err != nil {
		return err
	}
	return s.logChange(kb, vb, s.now())
}

// apply writes value (nil: deletes) under the serialized key in the store
// and returns its bytes, nil for a deletion, without logging them; the
// tombstone of an entry the put evicted is logged at once, as Kafka's
// eviction listener logs it.
func (s *KeyValueStore) apply(kb []byte, value any) ([]byte, error) {
	if value == nil {
		_, err := s.inner.Delete(kb)
		return nil, err
	}
	vb, err := s.valueBytes(value)
	if err != nil {
		return nil, err
	}
	ev, ok := s.inner.(evictingStore)
	if !ok {
		return vb, s.inner.Put(kb, vb)
	}
	evicted, err := ev.PutEvicting(kb, vb)
	if err == nil && evicted != nil {
		err = s.logChange(evicted, nil, s.now())
	}
	return vb, err
}

// TimestampedWindowStore is the typed view of a DSL window store: values
// with timestamps under (key, window start). The changelog key is Kafka's
// window store key (key ++ start ++ seqnum 0).
type TimestampedWindowStore struct {
	storeBase
	inner WindowBytesStore
}

// Fetch returns the value and timestamp of key's window starting at start.
func (s *TimestampedWindowStore) Fetch(key any, start int64) (value any, ts int64, ok bool, err error) {
	kb, err := s.keyBytes(key)
	if err != nil {
		return nil, 0, false, err
	}
	if s.cache != nil {
		if e, ok := s.cache.get(string(windowKey(kb, start))); ok {
			return e.value, e.ts, e.value != nil, nil
		}
	}
	b, err := s.inner.Fetch(kb, start)
	if err != nil || b == nil {
		return nil, 0, false, err
	}
	v, ts, err := s.decodeTimestamped(b)
	if err != nil {
		return nil, 0, false, err
	}
	return v, ts, true, nil
}

// TimestampedWindow is one window of a key in a TimestampedWindowStore.
type TimestampedWindow struct {
	Start     int64
	Value     any
	Timestamp int64
}

// FetchRange returns key's windows with start in [from, to], ascending by
// start: the store's windows with the cache's writes over them (a cached
// deletion hides a window), as Kafka's caching window store merges them.
func (s *TimestampedWindowStore) FetchRange(key any, from, to int64) ([]TimestampedWindow, error) {
	kb, err := s.keyBytes(key)
	if err != nil {
		return nil, err
	}
	var out []TimestampedWindow
	var ferr error
	err = s.inner.FetchRange(kb, from, to, func(start int64, b []byte) bool {
		w, err := s.window(start, b)
		if err != nil {
			ferr = err
			return false
		}
		out = append(out, w)
		return true
	})
	if err == nil {
		err = ferr
	}
	if err != nil || s.cache == nil {
		return out, err
	}
	cached := s.cache.keys[string(kb)]
	if len(cached) == 0 {
		return out, nil
	}
	for _, e := range cached {
		if e.start < from || e.start > to {
			continue
		}
		i, found := slices.BinarySearchFunc(out, e.start, func(w TimestampedWindow, t int64) int { return cmp.Compare(w.Start, t) })
		switch {
		case e.value == nil && found:
			out = slices.Delete(out, i, i+1)
		case e.value == nil:
		case found:
			out[i] = TimestampedWindow{Start: e.start, Value: e.value, Timestamp: e.ts}
		default:
			out = slices.Insert(out, i, TimestampedWindow{Start: e.start, Value: e.value, Timestamp: e.ts})
		}
	}
	return out, nil
}

// window decodes a stored window: timestamp ++ value.
func (s *TimestampedWindowStore) window(start int64, b []byte) (TimestampedWindow, error) {
	v, ts, err := s.decodeTimestamped(b)
	if err != nil {
		return TimestampedWindow{}, err
	}
	return TimestampedWindow{Start: start, Value: v, Timestamp: ts}, nil
}

// KeyedWindow is one window of a TimestampedWindowStore with its key.
type KeyedWindow struct {
	Key any
	TimestampedWindow
	kb []byte
}

// FetchAll returns every window with start in [from, to], ordered by start,
// then by serialized key: the store's windows with the cache's writes over
// them, in the order Kafka Streams' time-ordered window store (the store of
// an aggregation with EmitOnWindowClose) iterates them.
func (s *TimestampedWindowStore) FetchAll(from, to int64) ([]KeyedWindow, error) {
	byKey := map[string]int{}
	var out []KeyedWindow
	var ferr error
	err := s.inner.FetchAll(from, to, func(kb []byte, start int64, b []byte) bool {
		w, err := s.window(start, b)
		if err != nil {
			ferr = err
			return false
		}
		k, err := s.key.DeserializeAny(s.topic, kb)
		if err != nil {
			ferr = fmt.Errorf("kstreams: store %s: key: %w", s.name, err)
			return false
		}
		kb = slices.Clone(kb)
		byKey[string(windowKey(kb, start))] = len(out)
		out = append(out, KeyedWindow{Key: k, TimestampedWindow: w, kb: kb})
		return true
	})
	if err == nil {
		err = ferr
	}
	if err != nil {
		return nil, err
	}
	if s.cache != nil {
		deleted := map[int]bool{}
		for _, entries := range s.cache.keys {
			for _, e := range entries {
				if e.start < from || e.start > to {
					continue
				}
				i, found := byKey[string(windowKey(e.kb, e.start))]
				switch {
				case e.value == nil && found:
					deleted[i] = true
				case e.value == nil:
				case found:
					out[i].Value, out[i].Timestamp = e.value, e.ts
					delete(deleted, i)
				default:
					byKey[string(windowKey(e.kb, e.start))] = len(out)
					out = append(out, KeyedWindow{Key: e.keyVal, TimestampedWindow: TimestampedWindow{Start: e.start, Value: e.value, Timestamp: e.ts}, kb: e.kb})
				}
			}
		}
		if len(deleted) > 0 {
			kept := out[:0]
			for i, w := range out {
				if !deleted[i] {
					kept = append(kept, w)
				}
			}
			out = kept
		}
	}
	slices.SortFunc(out, func(a, b KeyedWindow) int {
		if c := cmp.Compare(a.Start, b.Start); c != 0 {
			return c
		}
		return bytes.Compare(a.kb, b.kb)
	})
	return out, nil
}

// Put stores value with timestamp ts in key's window starting at start.
func (s *TimestampedWindowStore) Put(key any, start int64, value any, ts int64) error {
	kb, err := s.keyBytes(key)
	if err != nil {
		return err
	}
	if s.cache != nil {
		return s.putCached(string(windowKey(kb, start)), &cacheEntry{keyVal: key, kb: kb, start: start, value: value, ts: ts},
			storeformat.TimestampSize)
	}
	return s.write(kb, start, value, ts)
}

func (s *TimestampedWindowStore) flushWrite(e *cacheEntry) (bool, error) {
	old, err := s.inner.Fetch(e.kb, e.start)
	if err != nil {
		return false, err
	}
	if write, err := s.flushOld(e, old != nil, old, true); !write {
		return false, err
	}
	return true, s.write(e.kb, e.start, e.value, e.ts)
}

func (s *TimestampedWindowStore) write(kb []byte, start int64, value any, ts int64) error {
	var err error
	var raw, stored []byte
	if value != nil {
		if raw, err = s.valueBytes(value); err != nil {
			return err
		}
		stored = timestamped(ts, raw)
	} else {
		ts = s.now()
	}
	if err := s.inner.Put(kb, start, stored); err != nil {
		return err
	}
	return s.logChange(windowKey(kb, start), raw, ts)
}

// SessionEntry is one session of a key with its aggregate.
type SessionEntry struct {
	Window Window
	Value  any
}

// SessionStore is the typed view of a DSL session store (not timestamped).
// The changelog key is Kafka's session key (key ++ end ++ start), with the
// processed record's timestamp.
type SessionStore struct {
	storeBase
	inner SessionBytesStore
}

// FindSessions returns key's sessions with end >= earliestEnd and start <= latestStart.
func (s *SessionStore) FindSessions(key any, earliestEnd, latestStart int64) ([]SessionEntry, error) {
	kb, err := s.keyBytes(key)
	if err != nil {
		return nil, err
	}
	var out []SessionEntry
	var derr error
	err = s.inner.FindSessions(kb, earliestEnd, latestStart, func(w serde.Window, value []byte) bool {
		if s.cache != nil {
			if _, cached := s.cache.entries[string(sessionKey(kb, w))]; cached {
				return true // the cache has the newer state
			}
		}
		v, err := s.val.DeserializeAny(s.topic, value)
		if err != nil {
			derr = err
			return false
		}
		out = append(out, SessionEntry{Window: w, Value: v})
		return true
	})
	if err == nil {
		err = derr
	}
	if err != nil || s.cache == nil {
		return out, err
	}
	for _, e := range s.cache.keys[string(kb)] {
		if e.value != nil && e.win.End >= earliestEnd && e.win.Start <= latestStart {
			s.cache.get(e.k)
			out = append(out, SessionEntry{Window: e.win, Value: e.value})
		}
	}
	slices.SortFunc(out, func(a, b SessionEntry) int {
		return cmp.Or(cmp.Compare(a.Window.End, b.Window.End), cmp.Compare(a.Window.Start, b.Window.Start))
	})
	return out, nil
}

// Put stores the aggregate of key's session w.
func (s *SessionStore) Put(key any, w Window, value any) error {
	kb, err := s.keyBytes(key)
	if err != nil {
		return err
	}
	if s.cache != nil {
		return s.putCached(string(sessionKey(kb, w)), &cacheEntry{keyVal: key, kb: kb, win: w, value: value}, 0)
	}
	return s.write(kb, w, value, s.now())
}

// Remove deletes key's session w.
func (s *SessionStore) Remove(key any, w Window) error {
	return s.Put(key, w, nil)
}

func (s *SessionStore) flushWrite(e *cacheEntry) (bool, error) {
	existed := false
	var old []byte
	err := s.inner.FindSessions(e.kb, e.win.End, e.win.Start, func(w serde.Window, v []byte) bool {
		if w == e.win {
			existed, old = true, v
		}
		return !existed
	})
	if err != nil {
		return false, err
	}
	if write, err := s.flushOld(e, existed, old, false); !write {
		return false, err
	}
	return true, s.write(e.kb, e.win, e.value, e.ctxTs)
}

func (s *SessionStore) write(kb []byte, w Window, value any, ctxTs int64) error {
	if value == nil {
		if err := s.inner.Remove(kb, w); err != nil {
			return err
		}
		return s.logChange(sessionKey(kb, w), nil, ctxTs)
	}
	raw, err := s.valueBytes(value)
	if err != nil {
		return err
	}
	if err := s.inner.Put(kb, w, raw); err != nil {
		return err
	}
	return s.logChange(sessionKey(kb, w), raw, ctxTs)
}
