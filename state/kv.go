package state

import (
	"bytes"
	"math"
	"path/filepath"
)

// KeyValue is one key and its value.
type KeyValue struct {
	Key, Value []byte
}

// ReadOnlyKeyValueStore is the read side of a key-value store. Returned
// byte slices belong to the store: do not modify them. Ranges include both
// ends; a nil bound is open.
type ReadOnlyKeyValueStore interface {
	// Get returns key's value, or nil when the key is absent (a present
	// empty value is a non-nil empty slice).
	Get(key []byte) ([]byte, error)
	Range(from, to []byte) (Iterator, error)
	ReverseRange(from, to []byte) (Iterator, error)
	PrefixScan(prefix []byte) (Iterator, error)
	All() (Iterator, error)
	ApproximateNumEntries() (int64, error)
}

// KeyValueStore is a transactional byte key-value store. Timestamped stores
// are key-value stores whose values are an 8-byte big-endian timestamp
// followed by the raw value (storeformat.AppendTimestamped).
type KeyValueStore interface {
	Store
	ReadOnlyKeyValueStore
	// Put sets key to value; a nil value deletes the key.
	Put(key, value []byte) error
	// PutIfAbsent puts value unless key has one, and returns the value key
	// had (nil if none).
	PutIfAbsent(key, value []byte) ([]byte, error)
	PutAll(entries []KeyValue) error
	// Delete removes key and returns the value it had.
	Delete(key []byte) ([]byte, error)
	// DeleteRange removes every key in [from, to].
	DeleteRange(from, to []byte) error
	// ReadOnly returns a view at the given isolation level, safe to use
	// from any goroutine.
	ReadOnly(IsolationLevel) ReadOnlyKeyValueStore
}

// PositionTracker is implemented by every store: the runtime reports the
// input offset each write reflects, and IQ reads the position.
type PositionTracker interface {
	UpdatePosition(topic string, partition int32, offset int64)
	Position(IsolationLevel) Position
}

// KeyValueOptions configures a key-value store.
type KeyValueOptions struct {
	Name string
	// Timestamped selects the timestamped layout (values prefixed with
	// their timestamp, in RocksDB the column family keyValueWithTimestamp)
	// and the matching changelog conversion.
	Timestamped bool
	// Budget, if set, receives this store's uncommitted-byte changes.
	Budget *Budget
}

// KeyValueDir returns the directory of a persistent key-value store in a
// task directory, as Kafka Streams lays it out: <taskDir>/rocksdb/<name>.
func KeyValueDir(taskDir, name string) string {
	return filepath.Join(taskDir, "rocksdb", name)
}

// OpenKeyValue returns a key-value store over e, which keeps its data in
// segment 0. The store owns e: its Close closes e, and so does a failed
// OpenKeyValue. Package state/rocksdb opens RocksDB key-value stores.
func OpenKeyValue(e Engine, o KeyValueOptions) (KeyValueStore, error) {
	c, err := newCore(o.Name, e, false, o.Budget)
	if err != nil {
		e.Close()
		return nil, err
	}
	return &kvStore{c: c, timestamped: o.Timestamped}, nil
}

// NewInMemoryKeyValue returns an in-memory key-value store. It keeps no
// offsets: after a restart it restores in full.
func NewInMemoryKeyValue(o KeyValueOptions) KeyValueStore {
	c, _ := newCore(o.Name, newMemBase(), false, o.Budget)
	return &kvStore{c: c, timestamped: o.Timestamped}
}

type kvStore struct {
	c           *core
	timestamped bool
}

var (
	_ KeyValueStore   = (*kvStore)(nil)
	_ PositionTracker = (*kvStore)(nil)
)

func (s *kvStore) Name() string     { return s.c.name }
func (s *kvStore) Persistent() bool { return s.c.base.Persistent() }
func (s *kvStore) Rollback()        { s.c.rollback() }
func (s *kvStore) Close() error     { return s.c.close() }
func (s *kvStore) Commit(offsets map[TopicPartition]*int64) error {
	return s.c.commit(offsets, nil, nil, math.MinInt64)
}
func (s *kvStore) CommittedOffset(tp TopicPartition) (int64, bool, error) {
	return s.c.committedOffset(tp)
}
func (s *kvStore) ApproximateNumUncommittedBytes() int64 { return s.c.uncommittedBytes() }
func (s *kvStore) UpdatePosition(topic string, partition int32, offset int64) {
	s.c.updatePosition(topic, partition, offset)
}
func (s *kvStore) Position(iso IsolationLevel) Position { return s.c.position(iso) }

func (s *kvStore) ApplyChangelog(records []ChangelogRecord, tp TopicPartition, lastOffset int64) error {
	writes := make([]Write, 0, len(records))
	for _, r := range records {
		w := Write{Key: r.Key}
		switch {
		case r.Value == nil:
			w.Tombstone = true
		case s.timestamped:
			w.Value = restoredTimestamped(r)
		default:
			w.Value = r.Value
		}
		writes = append(writes, w)
	}
	return s.c.applyChangelog(writes, tp, lastOffset, nil)
}

func (s *kvStore) Put(key, value []byte) error {
	if key == nil {
		return ErrInvalidArgument
	}
	if value == nil {
		return s.c.del(0, key)
	}
	return s.c.put(0, key, value)
}

func (s *kvStore) PutIfAbsent(key, value []byte) ([]byte, error) {
	old, err := s.Get(key)
	if err != nil || old != nil {
		return old, err
	}
	return nil, s.Put(key, value)
}

func (s *kvStore) PutAll(entries []KeyValue) error {
	for _, e := range entries {
		if err := s.Put(e.Key, e.Value); err != nil {
			return err
		}
	}
	return nil
}

func (s *kvStore) Delete(key []byte) ([]byte, error) {
	old, err := s.Get(key)
	if err != nil {
		return nil, err
	}
	return old, s.c.del(0, key)
}

func (s *kvStore) DeleteRange(from, to []byte) error {
	it, err := s.Range(from, to)
	if err != nil {
		return err
	}
	var keys [][]byte
	for it.Next() {
		keys = append(keys, append([]byte(nil), it.Key()...))
	}
	if err := it.Err(); err != nil {
		it.Close()
		return err
	}
	it.Close()
	for _, k := range keys {
		if err := s.c.del(0, k); err != nil {
			return err
		}
	}
	return nil
}

func (s *kvStore) ReadOnly(iso IsolationLevel) ReadOnlyKeyValueStore {
	return kvView{c: s.c, iso: iso}
}

func (s *kvStore) Get(key []byte) ([]byte, error) { return kvView{c: s.c}.Get(key) }
func (s *kvStore) Range(from, to []byte) (Iterator, error) {
	return kvView{c: s.c}.Range(from, to)
}
func (s *kvStore) ReverseRange(from, to []byte) (Iterator, error) {
	return kvView{c: s.c}.ReverseRange(from, to)
}
func (s *kvStore) PrefixScan(prefix []byte) (Iterator, error) {
	return kvView{c: s.c}.PrefixScan(prefix)
}
func (s *kvStore) All() (Iterator, error) { return kvView{c: s.c}.All() }
func (s *kvStore) ApproximateNumEntries() (int64, error) {
	return kvView{c: s.c}.ApproximateNumEntries()
}

// kvView reads a key-value store at one isolation level.
type kvView struct {
	c   *core
	iso IsolationLevel
}

func (v kvView) Get(key []byte) ([]byte, error) {
	val, ok, err := v.c.get(v.iso, 0, key)
	if err != nil || !ok {
		return nil, err
	}
	if val == nil {
		val = []byte{}
	}
	return val, nil
}

// successor returns the smallest key greater than k.
func successor(k []byte) []byte {
	return append(append(make([]byte, 0, len(k)+1), k...), 0)
}

// prefixEnd returns the smallest key greater than every key with prefix p,
// or nil when there is none.
func prefixEnd(p []byte) []byte {
	end := append([]byte(nil), p...)
	for i := len(end) - 1; i >= 0; i-- {
		if end[i] != 0xff {
			end[i]++
			return end[:i+1]
		}
	}
	return nil
}

func (v kvView) scan(lo, hi []byte, reverse bool) (Iterator, error) {
	if lo != nil && hi != nil && bytes.Compare(lo, hi) >= 0 {
		return emptyIterator{}, v.c.check()
	}
	m, err := v.c.iter(scan{iso: v.iso, lo: lo, hi: hi, reverse: reverse})
	if err != nil {
		return nil, err
	}
	return m, nil
}

func (v kvView) rangeBounds(from, to []byte) ([]byte, []byte) {
	var hi []byte
	if to != nil {
		hi = successor(to)
	}
	return from, hi
}

func (v kvView) Range(from, to []byte) (Iterator, error) {
	lo, hi := v.rangeBounds(from, to)
	return v.scan(lo, hi, false)
}

func (v kvView) ReverseRange(from, to []byte) (Iterator, error) {
	lo, hi := v.rangeBounds(from, to)
	return v.scan(lo, hi, true)
}

func (v kvView) PrefixScan(prefix []byte) (Iterator, error) {
	return v.scan(prefix, prefixEnd(prefix), false)
}

func (v kvView) All() (Iterator, error) { return v.scan(nil, nil, false) }

func (v kvView) ApproximateNumEntries() (int64, error) {
	if err := v.c.check(); err != nil {
		return 0, err
	}
	n, err := v.c.base.ApproximateNumEntries()
	return n, storeErr(v.c.name, "approximate entries", err)
}

type emptyIterator struct{}

func (emptyIterator) Next() bool    { return false }
func (emptyIterator) Key() []byte   { return nil }
func (emptyIterator) Value() []byte { return nil }
func (emptyIterator) Err() error    { return nil }
func (emptyIterator) Close() error  { return nil }
