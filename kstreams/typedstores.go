package kstreams

import (
	"encoding/binary"
	"fmt"

	"github.com/stoatflow/stoatflow/kstreams/serde"
)

// Change is the value a KTable forwards downstream: the new value and, when
// an operator asked for it, the old one. Either may be nil.
type Change struct {
	New, Old any
}

// storeBase holds what every typed store view shares.
type storeBase struct {
	name     string
	key, val serde.Untyped
	topic    string // changelog topic, also the topic the serdes see
	log      ChangelogWriter
	now      func() int64 // timestamp of the record being processed
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

func withTimestamp(ts int64, raw []byte) []byte {
	out := binary.BigEndian.AppendUint64(make([]byte, 0, 8+len(raw)), uint64(ts))
	return append(out, raw...)
}

func splitTimestamp(b []byte) (int64, []byte, error) {
	if len(b) < 8 {
		return 0, nil, fmt.Errorf("kstreams: timestamped value of %d bytes is shorter than its 8-byte timestamp", len(b))
	}
	return int64(binary.BigEndian.Uint64(b[:8])), b[8:], nil
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
	b, err := s.inner.Get(kb)
	if err != nil || b == nil {
		return nil, 0, false, err
	}
	ts, raw, err := splitTimestamp(b)
	if err != nil {
		return nil, 0, false, err
	}
	v, err := s.val.DeserializeAny(s.topic, raw)
	if err != nil {
		return nil, 0, false, err
	}
	return v, ts, true, nil
}

// Put stores value with timestamp ts; a nil value deletes key.
func (s *TimestampedKeyValueStore) Put(key, value any, ts int64) error {
	kb, err := s.keyBytes(key)
	if err != nil {
		return err
	}
	if value == nil {
		if _, err := s.inner.Delete(kb); err != nil {
			return err
		}
		return s.logChange(kb, nil, s.now())
	}
	raw, err := s.val.SerializeAny(s.topic, value)
	if err != nil {
		return fmt.Errorf("kstreams: store %s: value: %w", s.name, err)
	}
	if err := s.inner.Put(kb, withTimestamp(ts, raw)); err != nil {
		return err
	}
	return s.logChange(kb, raw, ts)
}

// KeyValueStore is the typed view of a plain key-value store (added with
// AddStateStore): values alone, changelogged with the timestamp of the
// record being processed.
type KeyValueStore struct {
	storeBase
	inner KeyValueBytesStore
}

// Get returns the value under key; ok is false if absent.
func (s *KeyValueStore) Get(key any) (value any, ok bool, err error) {
	kb, err := s.keyBytes(key)
	if err != nil {
		return nil, false, err
	}
	b, err := s.inner.Get(kb)
	if err != nil || b == nil {
		return nil, false, err
	}
	v, err := s.val.DeserializeAny(s.topic, b)
	return v, err == nil, err
}

// Put stores value under key; a nil value deletes key.
func (s *KeyValueStore) Put(key, value any) error {
	kb, err := s.keyBytes(key)
	if err != nil {
		return err
	}
	if value == nil {
		return s.Delete(key)
	}
	vb, err := s.val.SerializeAny(s.topic, value)
	if err != nil {
		return fmt.Errorf("kstreams: store %s: value: %w", s.name, err)
	}
	if err := s.inner.Put(kb, vb); err != nil {
		return err
	}
	return s.logChange(kb, vb, s.now())
}

// Delete removes key.
func (s *KeyValueStore) Delete(key any) error {
	kb, err := s.keyBytes(key)
	if err != nil {
		return err
	}
	if _, err := s.inner.Delete(kb); err != nil {
		return err
	}
	return s.logChange(kb, nil, s.now())
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
	b, err := s.inner.Fetch(kb, start)
	if err != nil || b == nil {
		return nil, 0, false, err
	}
	ts, raw, err := splitTimestamp(b)
	if err != nil {
		return nil, 0, false, err
	}
	v, err := s.val.DeserializeAny(s.topic, raw)
	if err != nil {
		return nil, 0, false, err
	}
	return v, ts, true, nil
}

// Put stores value with timestamp ts in key's window starting at start.
func (s *TimestampedWindowStore) Put(key any, start int64, value any, ts int64) error {
	kb, err := s.keyBytes(key)
	if err != nil {
		return err
	}
	var raw, stored []byte
	if value != nil {
		raw, err = s.val.SerializeAny(s.topic, value)
		if err != nil {
			return fmt.Errorf("kstreams: store %s: value: %w", s.name, err)
		}
		stored = withTimestamp(ts, raw)
	} else {
		ts = s.now()
	}
	if err := s.inner.Put(kb, start, stored); err != nil {
		return err
	}
	return s.logChange(serde.AppendWindowKey(nil, kb, start, 0), raw, ts)
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
	return out, err
}

// Put stores the aggregate of key's session w.
func (s *SessionStore) Put(key any, w Window, value any) error {
	kb, err := s.keyBytes(key)
	if err != nil {
		return err
	}
	if value == nil {
		return s.Remove(key, w)
	}
	raw, err := s.val.SerializeAny(s.topic, value)
	if err != nil {
		return fmt.Errorf("kstreams: store %s: value: %w", s.name, err)
	}
	if err := s.inner.Put(kb, w, raw); err != nil {
		return err
	}
	return s.logChange(serde.AppendSessionKey(nil, kb, w), raw, s.now())
}

// Remove deletes key's session w.
func (s *SessionStore) Remove(key any, w Window) error {
	kb, err := s.keyBytes(key)
	if err != nil {
		return err
	}
	if err := s.inner.Remove(kb, w); err != nil {
		return err
	}
	return s.logChange(serde.AppendSessionKey(nil, kb, w), nil, s.now())
}
