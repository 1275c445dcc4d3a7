package kstreams

import (
	"bytes"
	"fmt"

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
	it     state.Iterator
	decode func(k, v []byte) (StoreEntry, error)
	cur    StoreEntry
	err    error
}

// Next moves to the next entry; it is false at the end or on an error.
func (i *KeyValueIterator) Next() bool {
	if i.err != nil || i.it == nil || !i.it.Next() {
		return false
	}
	if i.cur, i.err = i.decode(i.it.Key(), i.it.Value()); i.err != nil {
		return false
	}
	return true
}

// Entry is the entry Next moved to.
func (i *KeyValueIterator) Entry() StoreEntry { return i.cur }

// Err is the error that ended the iteration, if one did.
func (i *KeyValueIterator) Err() error {
	if i.err != nil || i.it == nil {
		return i.err
	}
	return i.it.Err()
}

// Close releases the iterator; it is safe to call twice.
func (i *KeyValueIterator) Close() error {
	if i.it == nil {
		return nil
	}
	err := i.it.Close()
	i.it = nil
	return err
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

// decodeKV turns a plain store's bytes into an entry.
func (s *KeyValueStore) decodeKV(k, v []byte) (StoreEntry, error) {
	key, err := s.key.DeserializeAny(s.topic, k)
	if err != nil {
		return StoreEntry{}, fmt.Errorf("kstreams: store %s: key: %w", s.name, err)
	}
	val, err := s.val.DeserializeAny(s.topic, v)
	if err != nil {
		return StoreEntry{}, fmt.Errorf("kstreams: store %s: value: %w", s.name, err)
	}
	return StoreEntry{Key: key, Value: val}, nil
}

func (s *KeyValueStore) iterator(open func() (state.Iterator, error)) (*KeyValueIterator, error) {
	it, err := open()
	if err != nil {
		return nil, fmt.Errorf("kstreams: store %s: %w", s.name, err)
	}
	return &KeyValueIterator{it: it, decode: s.decodeKV}, nil
}

// Range iterates the entries with keys from from to to, both included, in
// ascending order of their serialized keys; a nil bound is open. A from
// that sorts after to gives no entries, as in Kafka Streams.
func (s *KeyValueStore) Range(from, to any) (*KeyValueIterator, error) {
	lo, hi, empty, err := s.scanBounds(from, to)
	if err != nil || empty {
		return &KeyValueIterator{}, err
	}
	return s.iterator(func() (state.Iterator, error) { return s.inner.Range(lo, hi) })
}

// ReverseRange is Range in descending order.
func (s *KeyValueStore) ReverseRange(from, to any) (*KeyValueIterator, error) {
	lo, hi, empty, err := s.scanBounds(from, to)
	if err != nil || empty {
		return &KeyValueIterator{}, err
	}
	return s.iterator(func() (state.Iterator, error) { return s.inner.ReverseRange(lo, hi) })
}

// All iterates every entry in ascending order of the serialized keys.
func (s *KeyValueStore) All() (*KeyValueIterator, error) {
	return s.iterator(s.inner.All)
}

// ReverseAll iterates every entry in descending order.
func (s *KeyValueStore) ReverseAll() (*KeyValueIterator, error) {
	return s.iterator(func() (state.Iterator, error) { return s.inner.ReverseRange(nil, nil) })
}

// PrefixScan iterates the entries whose serialized keys start with prefix
// as prefixSerde writes it: Kafka's prefixScan(prefix, prefixKeySerializer).
func (s *KeyValueStore) PrefixScan(prefix any, prefixSerde serde.Untyped) (*KeyValueIterator, error) {
	pb, err := prefixSerde.SerializeAny(s.topic, prefix)
	if err != nil {
		return nil, fmt.Errorf("kstreams: store %s: prefix: %w", s.name, err)
	}
	return s.iterator(func() (state.Iterator, error) { return s.inner.PrefixScan(pb) })
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
func (s *KeyValueStore) PutAll(entries []StoreEntry) error {
	for _, e := range entries {
		if err := s.Put(e.Key, e.Value); err != nil {
			return err
		}
	}
	return nil
}

// ApproximateNumEntries is the store's estimate of its entry count.
func (s *KeyValueStore) ApproximateNumEntries() (int64, error) {
	return s.inner.ApproximateNumEntries()
}
