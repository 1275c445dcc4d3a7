package kstreams

import (
	"bytes"
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/stoatflow/stoatflow/internal/storeformat"
	"github.com/stoatflow/stoatflow/kstreams/serde"
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
type WindowStore struct {
	storeBase
	inner WindowBytesStore
	dups  bool
	seq   int32
}

// Put stores value under key's window starting at ts (WindowStore.put); a
// nil value deletes the window, or, in a store retaining duplicates, is
// logged and otherwise ignored.
func (s *WindowStore) Put(key, value any, ts int64) error {
	kb, err := s.keyBytes(key)
	if err != nil {
		return err
	}
	var vb []byte
	if value != nil {
		if vb, err = s.val.SerializeAny(s.topic, value); err != nil {
			return fmt.Errorf("kstreams: store %s: value: %w", s.name, err)
		}
	}
	if err := s.inner.Put(kb, ts, vb); err != nil {
		return err
	}
	var seq int32
	if s.dups {
		s.seq = (s.seq + 1) & math.MaxInt32
		seq = s.seq
	}
	return s.logChange(storeformat.AppendWindowKey(make([]byte, 0, len(kb)+storeformat.WindowKeySuffix), kb, ts, seq), vb, s.now())
}

// Fetch returns the value of key's window starting at start
// (WindowStore.fetch(key, time)). A store retaining duplicates finds
// nothing here: read it with FetchRange. (Kafka's fetch(key, time) finds
// there only the store's last put since it opened, when that put was to
// this window.)
func (s *WindowStore) Fetch(key any, start int64) (value any, ok bool, err error) {
	kb, err := s.keyBytes(key)
	if err != nil {
		return nil, false, err
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

// FetchAll calls fn with the key, window start and value of every window
// with start in [from, to] (WindowStore.fetchAll), ordered by start, then
// by serialized key, then in the order of the puts.
func (s *WindowStore) FetchAll(from, to int64, fn func(key any, start int64, value any) error) error {
	type window struct {
		kb    []byte
		start int64
		vb    []byte
	}
	var all []window
	if err := s.inner.FetchAll(from, to, func(kb []byte, start int64, vb []byte) bool {
		all = append(all, window{slices.Clone(kb), start, slices.Clone(vb)})
		return true
	}); err != nil {
		return err
	}
	slices.SortStableFunc(all, func(a, b window) int {
		if c := cmp.Compare(a.start, b.start); c != 0 {
			return c
		}
		return bytes.Compare(a.kb, b.kb)
	})
	for _, w := range all {
		k, err := s.key.DeserializeAny(s.topic, w.kb)
		if err != nil {
			return fmt.Errorf("kstreams: store %s: key: %w", s.name, err)
		}
		v, err := s.val.DeserializeAny(s.topic, w.vb)
		if err != nil {
			return fmt.Errorf("kstreams: store %s: value: %w", s.name, err)
		}
		if err := fn(k, w.start, v); err != nil {
			return err
		}
	}
	return nil
}

// FetchRange calls fn with the start and value of every window of key with
// a start in [from, to] (WindowStore.fetch(key, from, to)), in start order
// (puts of one start in the order they were made).
func (s *WindowStore) FetchRange(key any, from, to int64, fn func(ts int64, value any) error) error {
	kb, err := s.keyBytes(key)
	if err != nil {
		return err
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

// outerJoinStore is the view of a left or outer stream-stream join's shared
// store: Kafka Streams' ListValueStore of the records that found no partner
// yet, keyed by (timestamp, side, key), each key holding the list of values
// put under it (storeformat's join side key, join side value and value
// list). Every change logs the key's whole list, or a tombstone.
type outerJoinStore struct {
	storeBase
	inner KeyValueBytesStore
	right serde.Untyped // storeBase.val serializes left values
}

// outerEntry is one value of the shared store.
type outerEntry struct {
	kb    []byte // the store key
	ts    int64
	left  bool
	key   any
	value any
}

func (s *outerJoinStore) sideKey(key any, ts int64, left bool) ([]byte, error) {
	kb, err := s.keyBytes(key)
	if err != nil {
		return nil, err
	}
	return storeformat.AppendJoinSideKey(make([]byte, 0, storeformat.JoinSideKeyPrefix+len(kb)), ts, left, kb), nil
}

// Append adds a value of one side under (key, ts, side).
func (s *outerJoinStore) Append(key any, ts int64, left bool, value any) error {
	sk, err := s.sideKey(key, ts, left)
	if err != nil {
		return err
	}
	vs := s.val
	if !left {
		vs = s.right
	}
	raw, err := vs.SerializeAny(s.topic, value)
	if err != nil {
		return fmt.Errorf("kstreams: store %s: value: %w", s.name, err)
	}
	if raw == nil {
		// LeftOrRightValueSerializer turns a value that serializes to null
		// into null, and a null put deletes the key.
		return s.deleteKey(sk)
	}
	entry := storeformat.AppendJoinSideValue(make([]byte, 0, 1+len(raw)), left, raw)
	old, err := s.inner.Get(sk)
	if err != nil {
		return err
	}
	var list [][]byte
	if old != nil {
		if list, err = storeformat.SplitValueList(old); err != nil {
			return fmt.Errorf("kstreams: store %s: %w", s.name, err)
		}
	}
	nb := storeformat.AppendValueList(nil, append(list, entry))
	if err := s.inner.Put(sk, nb); err != nil {
		return err
	}
	return s.logChange(sk, nb, s.now())
}

// DeleteIfPresent removes the values under (key, ts, side) if there are any:
// Kafka's putIfAbsent(key, null) on the list store, which reads first and
// writes (and logs) only a key it found.
func (s *outerJoinStore) DeleteIfPresent(key any, ts int64, left bool) error {
	sk, err := s.sideKey(key, ts, left)
	if err != nil {
		return err
	}
	old, err := s.inner.Get(sk)
	if err != nil || old == nil {
		return err
	}
	return s.deleteKey(sk)
}

// deleteKey removes a store key blindly and logs the tombstone.
func (s *outerJoinStore) deleteKey(sk []byte) error {
	if _, err := s.inner.Delete(sk); err != nil {
		return err
	}
	return s.logChange(sk, nil, s.now())
}

// All returns every value of the store in store order: by timestamp, right
// before left, then by key bytes; the values of one key in the order they
// were appended.
func (s *outerJoinStore) All() ([]outerEntry, error) {
	it, err := s.inner.Range(nil, nil)
	if err != nil {
		return nil, err
	}
	defer it.Close()
	var out []outerEntry
	for it.Next() {
		sk := append([]byte(nil), it.Key()...)
		ts, _, kb, err := storeformat.SplitJoinSideKey(sk)
		if err != nil {
			return nil, fmt.Errorf("kstreams: store %s: %w", s.name, err)
		}
		key, err := s.key.DeserializeAny(s.topic, kb)
		if err != nil {
			return nil, fmt.Errorf("kstreams: store %s: key: %w", s.name, err)
		}
		list, err := storeformat.SplitValueList(it.Value())
		if err != nil {
			return nil, fmt.Errorf("kstreams: store %s: %w", s.name, err)
		}
		for _, e := range list {
			vLeft, raw, err := storeformat.SplitJoinSideValue(e)
			if err != nil {
				return nil, fmt.Errorf("kstreams: store %s: %w", s.name, err)
			}
			vs := s.val
			if !vLeft {
				vs = s.right
			}
			v, err := vs.DeserializeAny(s.topic, raw)
			if err != nil {
				return nil, fmt.Errorf("kstreams: store %s: value: %w", s.name, err)
			}
			out = append(out, outerEntry{kb: sk, ts: ts, left: vLeft, key: key, value: v})
		}
	}
	return out, it.Err()
}
