package kstreams

import (
	"bytes"
	"fmt"
	"slices"

	"github.com/stoatflow/stoatflow/kstreams/serde"
	"github.com/stoatflow/stoatflow/state"
)

// StoreEntry is one entry of a key-value store, as a Processor API store
// view holds it.
type StoreEntry = KeyValue[any, any]

// KeyValueIterator walks entries of a key-value store in the order of
// their serialized keys (reversed for the reverse scans), as Kafka's
// KeyValueIterator does. It sees the store as it was when it was opened:
// the processor may put and delete while it iterates. Close it when done.
//
//	it, err := store.All()
//	if err != nil { return err }
//	defer it.Close()
//	for it.Next() { kv := it.Entry(); ... }
//	return it.Err()
type KeyValueIterator struct {
	next  func() (StoreEntry, bool, error)
	close func() error
	cur   StoreEntry
	err   error
	done  bool
}

// Next moves to the next entry; it is false at the end or on an error.
func (i *KeyValueIterator) Next() bool {
	if i.done || i.next == nil {
		return false
	}
	e, ok, err := i.next()
	if err != nil || !ok {
		i.err, i.done = err, true
		return false
	}
	i.cur = e
	return true
}

// Entry is the entry Next moved to.
func (i *KeyValueIterator) Entry() StoreEntry { return i.cur }

// Err is the error that ended the iteration, if one did.
func (i *KeyValueIterator) Err() error { return i.err }

// Close releases the iterator; it is safe to call twice.
func (i *KeyValueIterator) Close() error {
	i.done = true
	if i.close == nil {
		return nil
	}
	c := i.close
	i.close = nil
	return c()
}

// bytesIterator is a KeyValueIterator over a store iterator, decode
// turning each entry's bytes into the processor's values.
func bytesIterator(it state.Iterator, decode func(k, v []byte) (StoreEntry, error)) *KeyValueIterator {
	return &KeyValueIterator{close: it.Close, next: func() (StoreEntry, bool, error) {
		if !it.Next() {
			return StoreEntry{}, false, it.Err()
		}
		e, err := decode(it.Key(), it.Value())
		return e, err == nil, err
	}}
}

// scanBounds serializes a range's bounds (a nil bound is open) and reports
// whether the range is empty because from sorts after to, which Kafka
// Streams answers with an empty iterator and a warning.
func (s *storeBase) scanBounds(from, to any) (lo, hi []byte, empty bool, err error) {
	if from != nil {
		if lo, err = s.keyBytes(from); err != nil {
			return nil, nil, false, err
		}
	}
	if to != nil {
		if hi, err = s.keyBytes(to); err != nil {
			return nil, nil, false, err
		}
	}
	return lo, hi, lo != nil && hi != nil && bytes.Compare(lo, hi) > 0, nil
}

// decodeKey turns a stored key's bytes into the processor's key.
func (s *storeBase) decodeKey(kb []byte) (any, error) {
	key, err := s.key.DeserializeAny(s.topic, kb)
	if err != nil {
		return nil, fmt.Errorf("kstreams: store %s: key: %w", s.name, err)
	}
	return key, nil
}

// prefixBytes is a scan's prefix as prefixSerde writes it.
func (s *storeBase) prefixBytes(prefix any, prefixSerde serde.Untyped) ([]byte, error) {
	pb, err := prefixSerde.SerializeAny(s.topic, prefix)
	if err != nil {
		return nil, fmt.Errorf("kstreams: store %s: prefix: %w", s.name, err)
	}
	return pb, nil
}

// decodeKV turns a plain store's bytes into an entry.
func (s *KeyValueStore) decodeKV(k, v []byte) (StoreEntry, error) {
	key, err := s.decodeKey(k)
	if err != nil {
		return StoreEntry{}, err
	}
	val, err := s.val.DeserializeAny(s.topic, v)
	if err != nil {
		return StoreEntry{}, fmt.Errorf("kstreams: store %s: value: %w", s.name, err)
	}
	return StoreEntry{Key: key, Value: val}, nil
}

// iterator iterates the store's entries that open gives; with a record
// cache, merged with the cache's entries whose serialized keys in accepts.
func (s *KeyValueStore) iterator(open func() (state.Iterator, error), in func(kb []byte) bool, reverse bool) (*KeyValueIterator, error) {
	it, err := open()
	if err != nil {
		return nil, fmt.Errorf("kstreams: store %s: %w", s.name, err)
	}
	if s.cache == nil {
		return bytesIterator(it, s.decodeKV), nil
	}
	return s.mergeCache(it, in, reverse, s.decodeKV, func(e *cacheEntry) StoreEntry {
		return StoreEntry{Key: e.keyVal, Value: e.value}
	}), nil
}

// Range iterates the entries with keys from from to to, both included, in
// ascending order of their serialized keys; a nil bound is open. A from
// that sorts after to gives no entries, as in Kafka Streams. With a record
// cache, the cache's entries take the place of the store's, and a key the
// cache deleted is left out, as Kafka's caching store merges them.
func (s *KeyValueStore) Range(from, to any) (*KeyValueIterator, error) {
	return s.rangeScan(from, to, false)
}

// ReverseRange is Range in descending order.
func (s *KeyValueStore) ReverseRange(from, to any) (*KeyValueIterator, error) {
	return s.rangeScan(from, to, true)
}

func (s *KeyValueStore) rangeScan(from, to any, reverse bool) (*KeyValueIterator, error) {
	lo, hi, empty, err := s.scanBounds(from, to)
	if err != nil || empty {
		return &KeyValueIterator{}, err
	}
	scan := s.inner.Range
	if reverse {
		scan = s.inner.ReverseRange
	}
	return s.iterator(func() (state.Iterator, error) { return scan(lo, hi) }, inRange(lo, hi), reverse)
}

// inRange accepts the serialized keys from lo to hi, both included; a nil
// bound is open.
func inRange(lo, hi []byte) func(kb []byte) bool {
	return func(kb []byte) bool {
		return (lo == nil || bytes.Compare(kb, lo) >= 0) && (hi == nil || bytes.Compare(kb, hi) <= 0)
	}
}

// All iterates every entry in ascending order of the serialized keys.
func (s *KeyValueStore) All() (*KeyValueIterator, error) {
	return s.iterator(s.inner.All, inRange(nil, nil), false)
}

// ReverseAll iterates every entry in descending order.
func (s *KeyValueStore) ReverseAll() (*KeyValueIterator, error) {
	return s.iterator(func() (state.Iterator, error) { return s.inner.ReverseRange(nil, nil) }, inRange(nil, nil), true)
}

// PrefixScan iterates the entries whose serialized keys start with prefix
// as prefixSerde writes it: Kafka's prefixScan(prefix, prefixKeySerializer).
func (s *KeyValueStore) PrefixScan(prefix any, prefixSerde serde.Untyped) (*KeyValueIterator, error) {
	pb, err := s.prefixBytes(prefix, prefixSerde)
	if err != nil {
		return nil, err
	}
	return s.iterator(func() (state.Iterator, error) { return s.inner.PrefixScan(pb) },
		func(kb []byte) bool { return bytes.HasPrefix(kb, pb) }, false)
}

// PutIfAbsent stores value unless key has a value, and returns the value
// key had (nil if none): Kafka's putIfAbsent. Only a write is changelogged.
func (s *KeyValueStore) PutIfAbsent(key, value any) (old any, err error) {
	old, ok, err := s.Get(key)
	if err != nil || ok {
		return old, err
	}
	return nil, s.Put(key, value)
}

// PutAll stores each entry in turn, as Put does; a nil value deletes.
// Without a record cache the entries' changelog records follow all the
// writes, as Kafka's changelogging store logs a putAll: the tombstones of
// the entries the writes evicted come first.
func (s *KeyValueStore) PutAll(entries []StoreEntry) error {
	if s.cache != nil {
		for _, e := range entries {
			if err := s.Put(e.Key, e.Value); err != nil {
				return err
			}
		}
		return nil
	}
	logs := make([][2][]byte, 0, len(entries))
	for _, e := range entries {
		kb, err := s.keyBytes(e.Key)
		if err != nil {
			return err
		}
		vb, err := s.apply(kb, e.Value)
		if err != nil {
			return err
		}
		logs = append(logs, [2][]byte{kb, vb})
	}
	for _, l := range logs {
		if err := s.logChange(l[0], l[1], s.now()); err != nil {
			return err
		}
	}
	return nil
}

// ApproximateNumEntries is the store's estimate of its entry count.
func (s *KeyValueStore) ApproximateNumEntries() (int64, error) {
	return s.inner.ApproximateNumEntries()
}

// ValueAndTimestamp is a value of a timestamped key-value store with its
// timestamp: Kafka's ValueAndTimestamp. The scans of a
// TimestampedKeyValueStore give it as each entry's Value.
type ValueAndTimestamp struct {
	Value     any
	Timestamp int64
}

// Range iterates the entries with keys from from to to, both included, in
// ascending order of their serialized keys; a nil bound is open. With a
// record cache, the cache's entries (dirty or not) take the place of the
// store's, and a key the cache deleted is left out, as Kafka's caching
// store merges them.
func (s *TimestampedKeyValueStore) Range(from, to any) (*KeyValueIterator, error) {
	return s.rangeScan(from, to, false)
}

// ReverseRange is Range in descending order.
func (s *TimestampedKeyValueStore) ReverseRange(from, to any) (*KeyValueIterator, error) {
	return s.rangeScan(from, to, true)
}

// All iterates every entry in ascending order of the serialized keys.
func (s *TimestampedKeyValueStore) All() (*KeyValueIterator, error) {
	return s.rangeScan(nil, nil, false)
}

// ReverseAll iterates every entry in descending order.
func (s *TimestampedKeyValueStore) ReverseAll() (*KeyValueIterator, error) {
	return s.rangeScan(nil, nil, true)
}

// PrefixScan iterates the entries whose serialized keys start with prefix
// as prefixSerde writes it.
func (s *TimestampedKeyValueStore) PrefixScan(prefix any, prefixSerde serde.Untyped) (*KeyValueIterator, error) {
	pb, err := s.prefixBytes(prefix, prefixSerde)
	if err != nil {
		return nil, err
	}
	it, err := s.inner.PrefixScan(pb)
	if err != nil {
		return nil, fmt.Errorf("kstreams: store %s: %w", s.name, err)
	}
	return s.merged(it, func(kb []byte) bool { return bytes.HasPrefix(kb, pb) }, false), nil
}

func (s *TimestampedKeyValueStore) rangeScan(from, to any, reverse bool) (*KeyValueIterator, error) {
	lo, hi, empty, err := s.scanBounds(from, to)
	if err != nil || empty {
		return &KeyValueIterator{}, err
	}
	var it state.Iterator
	if reverse {
		it, err = s.inner.ReverseRange(lo, hi)
	} else {
		it, err = s.inner.Range(lo, hi)
	}
	if err != nil {
		return nil, fmt.Errorf("kstreams: store %s: %w", s.name, err)
	}
	return s.merged(it, inRange(lo, hi), reverse), nil
}

// merged iterates the store's entries (it), values with their timestamps,
// merged with the record cache's entries whose keys in accepts.
func (s *TimestampedKeyValueStore) merged(it state.Iterator, in func(kb []byte) bool, reverse bool) *KeyValueIterator {
	decode := func(kb, b []byte) (StoreEntry, error) {
		key, err := s.decodeKey(kb)
		if err != nil {
			return StoreEntry{}, err
		}
		ts, raw, err := s.splitTimestamped(b)
		if err != nil {
			return StoreEntry{}, err
		}
		v, err := s.val.DeserializeAny(s.topic, raw)
		if err != nil {
			return StoreEntry{}, fmt.Errorf("kstreams: store %s: value: %w", s.name, err)
		}
		return StoreEntry{Key: key, Value: ValueAndTimestamp{Value: v, Timestamp: ts}}, nil
	}
	return s.mergeCache(it, in, reverse, decode, func(e *cacheEntry) StoreEntry {
		return StoreEntry{Key: e.keyVal, Value: ValueAndTimestamp{Value: e.value, Timestamp: e.ts}}
	})
}

// mergeCache iterates the store's entries (it, turned into entries by
// decode) and the record cache's entries whose keys in accepts (turned into
// entries by fromCache), in key order (descending when reverse); a key in
// both comes from the cache, and a cached deletion hides the store's entry.
// The cache's entries are taken when the iteration opens, as the store's
// are.
func (s *storeBase) mergeCache(it state.Iterator, in func(kb []byte) bool, reverse bool,
	decode func(kb, b []byte) (StoreEntry, error), fromCache func(e *cacheEntry) StoreEntry) *KeyValueIterator {
	var cached []*cacheEntry
	if s.cache != nil {
		for _, el := range s.cache.entries {
			if e := el.Value.(*cacheEntry); in(e.kb) {
				cached = append(cached, e)
			}
		}
		slices.SortFunc(cached, func(a, b *cacheEntry) int {
			if reverse {
				return bytes.Compare(b.kb, a.kb)
			}
			return bytes.Compare(a.kb, b.kb)
		})
	}
	var headKey, headVal []byte // the store's next entry, read ahead
	storeDone := false
	next := func() (StoreEntry, bool, error) {
		for {
			if headKey == nil && !storeDone {
				if it.Next() {
					headKey, headVal = bytes.Clone(it.Key()), bytes.Clone(it.Value())
				} else {
					storeDone = true
					if err := it.Err(); err != nil {
						return StoreEntry{}, false, err
					}
				}
			}
			if len(cached) == 0 && headKey == nil {
				return StoreEntry{}, false, nil
			}
			if len(cached) > 0 {
				c := cached[0]
				order := 0
				if headKey != nil {
					order = bytes.Compare(c.kb, headKey)
					if reverse {
						order = -order
					}
				}
				if headKey == nil || order <= 0 {
					cached = cached[1:]
					if order == 0 {
						headKey = nil // the cache's entry stands for the store's
					}
					if c.value == nil {
						continue // deleted in the cache
					}
					return fromCache(c), true, nil
				}
			}
			e, err := decode(headKey, headVal)
			headKey = nil
			return e, err == nil, err
		}
	}
	return &KeyValueIterator{next: next, close: it.Close}
}
