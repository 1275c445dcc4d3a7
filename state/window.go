package state

import (
	"bytes"
	"math"
)

// WindowIterator walks window entries. Key, WindowStart and Value are valid
// until the next call to Next.
type WindowIterator interface {
	Next() bool
	Key() []byte
	WindowStart() int64
	Value() []byte
	Err() error
	Close() error
}

// ReadOnlyWindowStore is the read side of a window store. Time bounds are
// inclusive window starts; a nil key bound is open. Results come in segment
// order, then key order within a segment; backward reverses it.
type ReadOnlyWindowStore interface {
	// Fetch returns the value of key's window starting at windowStart, or
	// nil.
	Fetch(key []byte, windowStart int64) ([]byte, error)
	// FetchRange returns key's windows starting in [from, to].
	FetchRange(key []byte, from, to int64, backward bool) (WindowIterator, error)
	// FetchKeys returns the windows of keys in [keyFrom, keyTo] starting in
	// [from, to].
	FetchKeys(keyFrom, keyTo []byte, from, to int64, backward bool) (WindowIterator, error)
	// FetchAll returns every window starting in [from, to].
	FetchAll(from, to int64, backward bool) (WindowIterator, error)
}

// WindowStore is a transactional window store. Timestamped window stores
// hold values as storeformat.AppendTimestamped lays them out (timestamp ++
// value).
type WindowStore interface {
	Store
	ReadOnlyWindowStore
	// Put writes key's window at windowStart; a nil value deletes it
	// (ignored when the store retains duplicates, as in Kafka Streams).
	Put(key, value []byte, windowStart int64) error
	// LastSeq returns the sequence number the last Put used (always 0
	// unless the store retains duplicates); the changelog key of that put
	// is the window store key of (key, windowStart, LastSeq()).
	LastSeq() int32
	ReadOnly(IsolationLevel) ReadOnlyWindowStore
}

// WindowOptions configures a window store.
type WindowOptions struct {
	Name        string
	RetentionMs int64
	// SegmentIntervalMs defaults to SegmentInterval(RetentionMs).
	SegmentIntervalMs int64
	// RetainDuplicates keeps every put under its own sequence number, for
	// stream-stream join stores.
	RetainDuplicates bool
	Timestamped      bool
	// TimeOrdered keeps windows live one millisecond longer: from stream
	// time minus the retention, not minus the retention plus one. Kafka
	// Streams' time-ordered window store (the store of an aggregation with
	// emitStrategy(onWindowClose)) does, so that a window is still there
	// when the record that closes it is processed, even with a retention
	// of size plus grace.
	TimeOrdered bool
	Budget      *Budget
}

// Interval returns the segment interval in milliseconds:
// SegmentIntervalMs, or SegmentInterval(RetentionMs) when it is not set.
func (o WindowOptions) Interval() int64 {
	if o.SegmentIntervalMs > 0 {
		return o.SegmentIntervalMs
	}
	return SegmentInterval(o.RetentionMs)
}

// OpenWindow returns a window store over e, one segment of e per
// o.Interval() of window starts. The store owns e: its Close closes e, and
// so does a failed OpenWindow. Package state/rocksdb opens RocksDB window
// stores.
func OpenWindow(e Engine, o WindowOptions) (WindowStore, error) {
	s, err := openSegStore(o.Name, e, o.RetentionMs, o.Interval(), o.Budget)
	if err != nil {
		return nil, err
	}
	if o.TimeOrdered {
		s.liveLag = 0
	}
	return &windowStore{s: s, o: o}, nil
}

// NewInMemoryWindow returns an in-memory window store.
func NewInMemoryWindow(o WindowOptions) (WindowStore, error) {
	return OpenWindow(newMemBase(), o)
}

type windowStore struct {
	s   *segStore
	o   WindowOptions
	seq int32
}

var (
	_ WindowStore     = (*windowStore)(nil)
	_ PositionTracker = (*windowStore)(nil)
)

func (w *windowStore) Name() string     { return w.s.c.name }
func (w *windowStore) Persistent() bool { return w.s.c.base.Persistent() }
func (w *windowStore) Commit(offsets map[TopicPartition]*int64) error {
	return w.s.commit(offsets)
}
func (w *windowStore) Rollback() { w.s.rollback() }
func (w *windowStore) CommittedOffset(tp TopicPartition) (int64, bool, error) {
	return w.s.c.committedOffset(tp)
}
func (w *windowStore) ApproximateNumUncommittedBytes() int64 { return w.s.c.uncommittedBytes() }
func (w *windowStore) Close() error                          { return w.s.c.close() }
func (w *windowStore) UpdatePosition(topic string, partition int32, offset int64) {
	w.s.c.updatePosition(topic, partition, offset)
}
func (w *windowStore) Position(iso IsolationLevel) Position { return w.s.c.position(iso) }

func (w *windowStore) ApplyChangelog(recs []ChangelogRecord, tp TopicPartition, lastOffset int64) error {
	return w.s.applyChangelog(recs, tp, lastOffset, func(k []byte) (int64, error) {
		_, ws, _, err := splitWindowKey(k)
		return ws, err
	}, func(r ChangelogRecord) []byte {
		if w.o.Timestamped {
			return restoredTimestamped(r)
		}
		return r.Value
	})
}

// Put writes a window. With RetainDuplicates each put gets the next
// sequence number, so its changelog key is the window store key of (key,
// windowStart, LastSeq()).
func (w *windowStore) Put(key, value []byte, windowStart int64) error {
	if key == nil {
		return ErrInvalidArgument
	}
	var seq int32
	if w.o.RetainDuplicates {
		if value == nil {
			return w.s.c.check()
		}
		w.seq = (w.seq + 1) & math.MaxInt32
		seq = w.seq
	}
	return w.s.put(windowStart, windowKey(key, windowStart, seq), value)
}

func (w *windowStore) LastSeq() int32 {
	if !w.o.RetainDuplicates {
		return 0
	}
	return w.seq
}

func (w *windowStore) ReadOnly(iso IsolationLevel) ReadOnlyWindowStore {
	return windowView{w: w, iso: iso}
}

func (w *windowStore) Fetch(key []byte, ws int64) ([]byte, error) {
	return windowView{w: w}.Fetch(key, ws)
}
func (w *windowStore) FetchRange(key []byte, from, to int64, backward bool) (WindowIterator, error) {
	return windowView{w: w}.FetchRange(key, from, to, backward)
}
func (w *windowStore) FetchKeys(keyFrom, keyTo []byte, from, to int64, backward bool) (WindowIterator, error) {
	return windowView{w: w}.FetchKeys(keyFrom, keyTo, from, to, backward)
}
func (w *windowStore) FetchAll(from, to int64, backward bool) (WindowIterator, error) {
	return windowView{w: w}.FetchAll(from, to, backward)
}

type windowView struct {
	w   *windowStore
	iso IsolationLevel
}

func (v windowView) Fetch(key []byte, ws int64) ([]byte, error) {
	s := v.w.s
	if ws < s.liveFrom(s.streamTime(v.iso)) {
		return nil, s.c.check()
	}
	val, ok, err := s.c.get(v.iso, segmentID(ws, s.interval), windowKey(key, ws, 0))
	if err != nil || !ok {
		return nil, err
	}
	if val == nil {
		val = []byte{}
	}
	return val, nil
}

func (v windowView) iter(lo, hi []byte, from, to int64, backward bool, keyOK func([]byte) bool) (WindowIterator, error) {
	s := v.w.s
	live := s.liveFrom(s.streamTime(v.iso))
	if from < live {
		from = live
	}
	if from > to {
		return &emptyWindowIter{}, s.c.check()
	}
	m, err := s.c.iter(scan{
		iso: v.iso, segLo: segmentID(from, s.interval), segHi: segmentID(to, s.interval),
		lo: lo, hi: hi, reverse: backward, liveFrom: math.MinInt64,
	})
	if err != nil {
		return nil, err
	}
	it := &windowIter{}
	it.segIter = segIter{m: m, accept: func(sk []byte) bool {
		k, ws, _, err := splitWindowKey(sk)
		if err != nil || ws < from || ws > to || !keyOK(k) {
			return false
		}
		it.key, it.ws = k, ws
		return true
	}}
	return it, nil
}

func (v windowView) FetchRange(key []byte, from, to int64, backward bool) (WindowIterator, error) {
	lo := windowKey(key, max(from, 0), 0)
	if from < 0 {
		lo = key
	}
	hi := successor(windowKey(key, to, -1))
	return v.iter(lo, hi, from, to, backward, func(k []byte) bool { return bytes.Equal(k, key) })
}

func (v windowView) FetchKeys(keyFrom, keyTo []byte, from, to int64, backward bool) (WindowIterator, error) {
	if keyFrom != nil && keyTo != nil && bytes.Compare(keyFrom, keyTo) > 0 {
		return &emptyWindowIter{}, v.w.s.c.check()
	}
	return v.iter(keyFrom, nil, from, to, backward, func(k []byte) bool {
		return (keyFrom == nil || bytes.Compare(k, keyFrom) >= 0) && (keyTo == nil || bytes.Compare(k, keyTo) <= 0)
	})
}

func (v windowView) FetchAll(from, to int64, backward bool) (WindowIterator, error) {
	return v.iter(nil, nil, from, to, backward, func([]byte) bool { return true })
}

type windowIter struct {
	segIter
	key []byte
	ws  int64
}

func (it *windowIter) Key() []byte        { return it.key }
func (it *windowIter) WindowStart() int64 { return it.ws }
func (it *windowIter) Value() []byte      { return it.m.Value() }

type emptyWindowIter struct{}

func (*emptyWindowIter) Next() bool         { return false }
func (*emptyWindowIter) Key() []byte        { return nil }
func (*emptyWindowIter) WindowStart() int64 { return 0 }
func (*emptyWindowIter) Value() []byte      { return nil }
func (*emptyWindowIter) Err() error         { return nil }
func (*emptyWindowIter) Close() error       { return nil }
