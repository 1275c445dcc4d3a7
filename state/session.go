package state

import (
	"bytes"
	"math"
)

// SessionIterator walks sessions. Its slices are valid until the next call
// to Next.
type SessionIterator interface {
	Next() bool
	Key() []byte
	Start() int64
	End() int64
	Value() []byte
	Err() error
	Close() error
}

// ReadOnlySessionStore is the read side of a session store.
type ReadOnlySessionStore interface {
	// FetchSession returns the aggregate of key's session [start, end], or
	// nil.
	FetchSession(key []byte, start, end int64) ([]byte, error)
	// FindSessions returns key's sessions that end at or after
	// earliestSessionEnd and start at or before latestSessionStart.
	FindSessions(key []byte, earliestSessionEnd, latestSessionStart int64, backward bool) (SessionIterator, error)
	// FindSessionsRange is FindSessions for every key in [keyFrom, keyTo]
	// (nil bounds open).
	FindSessionsRange(keyFrom, keyTo []byte, earliestSessionEnd, latestSessionStart int64, backward bool) (SessionIterator, error)
}

// SessionStore is a transactional session store.
type SessionStore interface {
	Store
	ReadOnlySessionStore
	// Put writes key's session [start, end]; a nil aggregate removes it.
	Put(key []byte, start, end int64, agg []byte) error
	// Remove deletes key's session [start, end].
	Remove(key []byte, start, end int64) error
	ReadOnly(IsolationLevel) ReadOnlySessionStore
}

// SessionOptions configures a session store.
type SessionOptions struct {
	Name        string
	RetentionMs int64
	// SegmentIntervalMs defaults to SegmentInterval(RetentionMs).
	SegmentIntervalMs int64
	Budget            *Budget
}

// Interval returns the segment interval in milliseconds:
// SegmentIntervalMs, or SegmentInterval(RetentionMs) when it is not set.
func (o SessionOptions) Interval() int64 {
	if o.SegmentIntervalMs > 0 {
		return o.SegmentIntervalMs
	}
	return SegmentInterval(o.RetentionMs)
}

// OpenSession returns a session store over e, one segment of e per
// o.Interval() of session ends. The store owns e: its Close closes e, and
// so does a failed OpenSession. Package state/rocksdb opens RocksDB session
// stores.
func OpenSession(e Engine, o SessionOptions) (SessionStore, error) {
	s, err := openSegStore(o.Name, e, o.RetentionMs, o.Interval(), o.Budget)
	if err != nil {
		return nil, err
	}
	return &sessionStore{s: s}, nil
}

// NewInMemorySession returns an in-memory session store.
func NewInMemorySession(o SessionOptions) (SessionStore, error) {
	return OpenSession(newMemBase(), o)
}

type sessionStore struct {
	s *segStore
}

var (
	_ SessionStore    = (*sessionStore)(nil)
	_ PositionTracker = (*sessionStore)(nil)
)

func (ss *sessionStore) Name() string     { return ss.s.c.name }
func (ss *sessionStore) Persistent() bool { return ss.s.c.base.Persistent() }
func (ss *sessionStore) Commit(offsets map[TopicPartition]*int64) error {
	return ss.s.commit(offsets)
}
func (ss *sessionStore) Rollback() { ss.s.rollback() }
func (ss *sessionStore) CommittedOffset(tp TopicPartition) (int64, bool, error) {
	return ss.s.c.committedOffset(tp)
}
func (ss *sessionStore) ApproximateNumUncommittedBytes() int64 { return ss.s.c.uncommittedBytes() }
func (ss *sessionStore) Close() error                          { return ss.s.c.close() }
func (ss *sessionStore) UpdatePosition(topic string, partition int32, offset int64) {
	ss.s.c.updatePosition(topic, partition, offset)
}
func (ss *sessionStore) Position(iso IsolationLevel) Position { return ss.s.c.position(iso) }

func (ss *sessionStore) ApplyChangelog(recs []ChangelogRecord, tp TopicPartition, lastOffset int64) error {
	return ss.s.applyChangelog(recs, tp, lastOffset, func(k []byte) (int64, error) {
		_, _, end, err := splitSessionKey(k)
		return end, err
	}, func(r ChangelogRecord) []byte { return r.Value })
}

func (ss *sessionStore) Put(key []byte, start, end int64, agg []byte) error {
	if key == nil || end < start {
		return ErrInvalidArgument
	}
	return ss.s.put(end, sessionKey(key, start, end), agg)
}

func (ss *sessionStore) Remove(key []byte, start, end int64) error {
	return ss.Put(key, start, end, nil)
}

func (ss *sessionStore) ReadOnly(iso IsolationLevel) ReadOnlySessionStore {
	return sessionView{ss: ss, iso: iso}
}

func (ss *sessionStore) FetchSession(key []byte, start, end int64) ([]byte, error) {
	return sessionView{ss: ss}.FetchSession(key, start, end)
}
func (ss *sessionStore) FindSessions(key []byte, earliestEnd, latestStart int64, backward bool) (SessionIterator, error) {
	return sessionView{ss: ss}.FindSessions(key, earliestEnd, latestStart, backward)
}
func (ss *sessionStore) FindSessionsRange(keyFrom, keyTo []byte, earliestEnd, latestStart int64, backward bool) (SessionIterator, error) {
	return sessionView{ss: ss}.FindSessionsRange(keyFrom, keyTo, earliestEnd, latestStart, backward)
}

type sessionView struct {
	ss  *sessionStore
	iso IsolationLevel
}

func (v sessionView) FetchSession(key []byte, start, end int64) ([]byte, error) {
	s := v.ss.s
	if end < s.liveFrom(s.streamTime(v.iso)) {
		return nil, s.c.check()
	}
	val, ok, err := s.c.get(v.iso, segmentID(end, s.interval), sessionKey(key, start, end))
	if err != nil || !ok {
		return nil, err
	}
	if val == nil {
		val = []byte{}
	}
	return val, nil
}

func (v sessionView) find(lo, hi []byte, earliestEnd, latestStart int64, backward bool, keyOK func([]byte) bool) (SessionIterator, error) {
	s := v.ss.s
	live := s.liveFrom(s.streamTime(v.iso))
	if earliestEnd < live {
		earliestEnd = live
	}
	m, err := s.c.iter(scan{
		iso: v.iso, segLo: segmentID(earliestEnd, s.interval), segHi: math.MaxInt64,
		lo: lo, hi: hi, reverse: backward, liveFrom: math.MinInt64,
	})
	if err != nil {
		return nil, err
	}
	it := &sessionIter{}
	it.segIter = segIter{m: m, accept: func(sk []byte) bool {
		k, start, end, err := splitSessionKey(sk)
		if err != nil || end < earliestEnd || start > latestStart || !keyOK(k) {
			return false
		}
		it.key, it.start, it.end = k, start, end
		return true
	}}
	return it, nil
}

func (v sessionView) FindSessions(key []byte, earliestEnd, latestStart int64, backward bool) (SessionIterator, error) {
	lo := key
	if earliestEnd >= 0 {
		lo = sessionKey(key, 0, earliestEnd)
	}
	hi := prefixEnd(key)
	return v.find(lo, hi, earliestEnd, latestStart, backward, func(k []byte) bool { return bytes.Equal(k, key) })
}

func (v sessionView) FindSessionsRange(keyFrom, keyTo []byte, earliestEnd, latestStart int64, backward bool) (SessionIterator, error) {
	if keyFrom != nil && keyTo != nil && bytes.Compare(keyFrom, keyTo) > 0 {
		return &sessionIter{segIter: segIter{m: nil}}, v.ss.s.c.check()
	}
	return v.find(keyFrom, nil, earliestEnd, latestStart, backward, func(k []byte) bool {
		return (keyFrom == nil || bytes.Compare(k, keyFrom) >= 0) && (keyTo == nil || bytes.Compare(k, keyTo) <= 0)
	})
}

type sessionIter struct {
	segIter
	key        []byte
	start, end int64
}

func (it *sessionIter) Next() bool {
	if it.m == nil {
		return false
	}
	return it.segIter.Next()
}
func (it *sessionIter) Key() []byte  { return it.key }
func (it *sessionIter) Start() int64 { return it.start }
func (it *sessionIter) End() int64   { return it.end }
func (it *sessionIter) Value() []byte {
	return it.m.Value()
}
func (it *sessionIter) Err() error {
	if it.m == nil {
		return nil
	}
	return it.m.Err()
}
func (it *sessionIter) Close() error {
	if it.m == nil {
		return nil
	}
	return it.m.Close()
}
