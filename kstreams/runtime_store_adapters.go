// For the runtime only (see "For the runtime" in the package documentation):
// the state package's stores as the byte stores a task is given.

package kstreams

import (
	"fmt"

	"github.com/stoatflow/stoatflow/kstreams/serde"
	"github.com/stoatflow/stoatflow/state"
)

// WindowBytes serves a state.WindowStore as the WindowBytesStore the DSL's
// window processors use. Close closes the store; Unwrap() state.Store
// returns it.
func WindowBytes(s state.WindowStore) WindowBytesStore { return windowBytes{s} }

// SessionBytes serves a state.SessionStore as a SessionBytesStore. Close
// closes the store; Unwrap() state.Store returns it.
func SessionBytes(s state.SessionStore) SessionBytesStore { return sessionBytes{s} }

type windowBytes struct{ s state.WindowStore }

func (w windowBytes) Name() string { return w.s.Name() }
func (w windowBytes) Close() error { return w.s.Close() }

// Unwrap returns the state store behind the adapter.
func (w windowBytes) Unwrap() state.Store { return w.s }

func (w windowBytes) Put(key []byte, windowStart int64, value []byte) error {
	return w.s.Put(key, value, windowStart)
}

func (w windowBytes) Fetch(key []byte, windowStart int64) ([]byte, error) {
	return w.s.Fetch(key, windowStart)
}

func (w windowBytes) FetchRange(key []byte, from, to int64, fn func(int64, []byte) bool) error {
	it, err := w.s.FetchRange(key, from, to, false)
	if err != nil {
		return err
	}
	defer it.Close()
	for it.Next() {
		if !fn(it.WindowStart(), it.Value()) {
			break
		}
	}
	return it.Err()
}

func (w windowBytes) FetchAll(from, to int64, fn func([]byte, int64, []byte) bool) error {
	it, err := w.s.FetchAll(from, to, false)
	if err != nil {
		return err
	}
	defer it.Close()
	for it.Next() {
		if !fn(it.Key(), it.WindowStart(), it.Value()) {
			break
		}
	}
	return it.Err()
}

type sessionBytes struct{ s state.SessionStore }

func (w sessionBytes) Name() string { return w.s.Name() }
func (w sessionBytes) Close() error { return w.s.Close() }

// Unwrap returns the state store behind the adapter.
func (w sessionBytes) Unwrap() state.Store { return w.s }

func (w sessionBytes) FindSessions(key []byte, earliestEnd, latestStart int64, fn func(serde.Window, []byte) bool) error {
	it, err := w.s.FindSessions(key, earliestEnd, latestStart, false)
	if err != nil {
		return err
	}
	defer it.Close()
	for it.Next() {
		if !fn(serde.Window{Start: it.Start(), End: it.End()}, it.Value()) {
			break
		}
	}
	return it.Err()
}

func (w sessionBytes) Put(key []byte, win serde.Window, value []byte) error {
	return w.s.Put(key, win.Start, win.End, value)
}

func (w sessionBytes) Remove(key []byte, win serde.Window) error {
	return w.s.Remove(key, win.Start, win.End)
}

// GlobalKeyValueBytes is the byte store a stream task reads a global
// key-value store through: ro is the store's read-only view (the runtime's
// at READ_UNCOMMITTED, so a task sees the global thread's latest writes, as
// in Kafka Streams). Writes fail with ErrGlobalStoreReadOnly.
func GlobalKeyValueBytes(name string, ro state.ReadOnlyKeyValueStore) KeyValueBytesStore {
	return globalKV{name: name, ReadOnlyKeyValueStore: ro}
}

type globalKV struct {
	name string
	state.ReadOnlyKeyValueStore
}

func (s globalKV) Name() string                  { return s.name }
func (s globalKV) Put([]byte, []byte) error      { return s.readOnly() }
func (s globalKV) Delete([]byte) ([]byte, error) { return nil, s.readOnly() }

func (s globalKV) readOnly() error {
	return fmt.Errorf("%w: store %s is written by the global thread only; a stream task can read it", ErrGlobalStoreReadOnly, s.name)
}
