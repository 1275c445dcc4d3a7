package kstreamstest

import (
	"cmp"
	"slices"

	"github.com/stoatflow/stoatflow/kstreams/serde"
)

// windowStore is an in-memory window store with Kafka's InMemoryWindowStore
// retention: stream time is the largest window start put, and windows that
// start at or before stream time minus retention are dropped on put and
// hidden from fetches.
type windowStore struct {
	name       string
	retention  int64
	streamTime int64
	data       map[string]map[int64][]byte
	expired    int64
}

func newWindowStore(name string, retention int64) *windowStore {
	return &windowStore{name: name, retention: retention, streamTime: -1 << 63, data: map[string]map[int64][]byte{}}
}

func (s *windowStore) Name() string { return s.name }

func (s *windowStore) live(start int64) bool {
	return s.streamTime == -1<<63 || start > s.streamTime-s.retention
}

func (s *windowStore) Put(key []byte, start int64, value []byte) error {
	s.streamTime = max(s.streamTime, start)
	if !s.live(start) {
		s.expired++
		return nil
	}
	m := s.data[string(key)]
	if value == nil {
		delete(m, start)
		return nil
	}
	if m == nil {
		m = map[int64][]byte{}
		s.data[string(key)] = m
	}
	m[start] = append([]byte(nil), value...)
	return nil
}

func (s *windowStore) Fetch(key []byte, start int64) ([]byte, error) {
	if !s.live(start) {
		return nil, nil
	}
	return s.data[string(key)][start], nil
}

func (s *windowStore) FetchRange(key []byte, from, to int64, fn func(int64, []byte) bool) error {
	m := s.data[string(key)]
	starts := make([]int64, 0, len(m))
	for st := range m {
		if st >= from && st <= to && s.live(st) {
			starts = append(starts, st)
		}
	}
	slices.Sort(starts)
	for _, st := range starts {
		if !fn(st, m[st]) {
			break
		}
	}
	return nil
}

// sessionStore is an in-memory session store with Kafka's
// InMemorySessionStore retention (stream time = largest session end put).
type sessionStore struct {
	name       string
	retention  int64
	streamTime int64
	data       map[string]map[serde.Window][]byte
}

func newSessionStore(name string, retention int64) *sessionStore {
	return &sessionStore{name: name, retention: retention, streamTime: -1 << 63, data: map[string]map[serde.Window][]byte{}}
}

func (s *sessionStore) Name() string { return s.name }

func (s *sessionStore) live(end int64) bool {
	return s.streamTime == -1<<63 || end > s.streamTime-s.retention
}

func (s *sessionStore) FindSessions(key []byte, earliestEnd, latestStart int64, fn func(serde.Window, []byte) bool) error {
	m := s.data[string(key)]
	var ws []serde.Window
	for w := range m {
		if w.End >= earliestEnd && w.Start <= latestStart && s.live(w.End) {
			ws = append(ws, w)
		}
	}
	slices.SortFunc(ws, func(a, b serde.Window) int {
		return cmp.Or(cmp.Compare(a.End, b.End), cmp.Compare(a.Start, b.Start))
	})
	for _, w := range ws {
		if !fn(w, m[w]) {
			break
		}
	}
	return nil
}

func (s *sessionStore) Put(key []byte, w serde.Window, value []byte) error {
	s.streamTime = max(s.streamTime, w.End)
	if !s.live(w.End) {
		return nil
	}
	if value == nil {
		return s.Remove(key, w)
	}
	m := s.data[string(key)]
	if m == nil {
		m = map[serde.Window][]byte{}
		s.data[string(key)] = m
	}
	m[w] = append([]byte(nil), value...)
	return nil
}

func (s *sessionStore) Remove(key []byte, w serde.Window) error {
	delete(s.data[string(key)], w)
	return nil
}
