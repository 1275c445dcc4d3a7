package kstreams

import (
	"github.com/stoatflow/stoatflow/kstreams/serde"
	"github.com/stoatflow/stoatflow/state"
)

// StateStore is any store a task holds. The runtime backs these interfaces
// with the state package's transactional stores; kstreams only needs the
// byte-level operations below.
type StateStore interface {
	Name() string
}

// KeyValueBytesStore is a byte-level key-value store: the subset of
// state.KeyValueStore the DSL and the Processor API use, so the state
// package's transactional stores back it as they are. A nil value from Get
// means absent; Put with a nil value deletes; ranges include both ends and
// nil bounds are open. Iterators see the store as it was when they were
// opened, so a processor may write while it iterates.
type KeyValueBytesStore interface {
	StateStore
	state.ReadOnlyKeyValueStore
	Put(key, value []byte) error
	Delete(key []byte) ([]byte, error)
}

// WindowBytesStore is a byte-level window store: values under (key, window
// start). A nil value deletes. Retention is the store's business: a put for a
// window older than its retention is dropped, and fetches skip expired windows.
type WindowBytesStore interface {
	StateStore
	Put(key []byte, windowStart int64, value []byte) error
	Fetch(key []byte, windowStart int64) ([]byte, error)
	// FetchRange calls fn for key's windows with start in [from, to], ascending.
	FetchRange(key []byte, from, to int64, fn func(windowStart int64, value []byte) bool) error
	// FetchAll calls fn for every window with start in [from, to], in any
	// order.
	FetchAll(from, to int64, fn func(key []byte, windowStart int64, value []byte) bool) error
}

// SessionBytesStore is a byte-level session store.
type SessionBytesStore interface {
	StateStore
	// FindSessions calls fn for key's sessions with end >= earliestEnd and
	// start <= latestStart, ordered by end then start.
	FindSessions(key []byte, earliestEnd, latestStart int64, fn func(w serde.Window, value []byte) bool) error
	Put(key []byte, w serde.Window, value []byte) error
	Remove(key []byte, w serde.Window) error
}

// ChangelogWriter receives the changelog records stores write, in Kafka's
// changelog formats (reference §4): the runtime sends them to
// <application.id>-<store>-changelog at the task's partition.
type ChangelogWriter interface {
	LogChange(store string, key, value []byte, timestamp int64) error
}
