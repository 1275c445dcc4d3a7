package kstreams

import (
	"fmt"

	"github.com/stoatflow/stoatflow/internal/storeformat"
	"github.com/stoatflow/stoatflow/kstreams/serde"
)

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
