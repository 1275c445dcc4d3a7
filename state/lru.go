package state

import (
	"fmt"
	"math"
	"sync"

	"github.com/stoatflow/stoatflow/internal/invariants"
	"github.com/stoatflow/stoatflow/internal/lruorder"
)

// LRUKeyValueStore is the store of Kafka Streams' Stores.lruMap: an
// in-memory key-value store that holds at most MaxEntries entries. A put
// that makes it hold more evicts the least recently used entry; a Get that
// finds its key and every put use the key, scans and ReadOnly views do not
// (Kafka's MemoryNavigableLRUCache scans a copy of its map).
//
// It is transactional like every store of this package, and keeps two
// recency orders. The owner's reads and writes see the live store, whose
// order counts every use, as Kafka Streams' running store does. The
// committed data is ordered by each key's last committed write, which is
// the order a restore from the changelog rebuilds: Kafka Streams keeps no
// recency in the changelog, and its store, after an aborted transaction
// under exactly_once_v2, is wiped and restored from it. Rollback therefore
// leaves the store as Kafka Streams' would be after the abort, and
// ApplyChangelog replays records as Kafka's restore does, evicting without
// logging when a record makes the store hold too many. This holds as long
// as the owner logs every eviction PutEvicting reports as a tombstone
// before the put that caused it, as Kafka's changelogging store does; then
// a replay of the changelog never has to evict.
type LRUKeyValueStore interface {
	KeyValueStore
	// PutEvicting is Put (a nil value deletes) that reports the key the put
	// evicted, nil when none: the put's own key when MaxEntries is 0. Put
	// evicts the same way without saying so.
	PutEvicting(key, value []byte) (evicted []byte, err error)
	// MaxEntries is the most entries the store holds.
	MaxEntries() int
}

// LRUOptions configures an LRU key-value store.
type LRUOptions struct {
	Name string
	// MaxEntries is how many entries the store may hold (Stores.lruMap's
	// maxCacheSize); it must not be negative.
	MaxEntries int
	// Budget, if set, receives this store's uncommitted-byte changes.
	Budget *Budget
}

// NewInMemoryLRUKeyValue returns an LRU key-value store. Like every
// in-memory store it keeps no offsets: after a restart it restores in full.
func NewInMemoryLRUKeyValue(o LRUOptions) (LRUKeyValueStore, error) {
	if o.MaxEntries < 0 {
		return nil, fmt.Errorf("%w: store %s: maxCacheSize cannot be negative", ErrInvalidArgument, o.Name)
	}
	c, err := newCore(o.Name, newMemBase(), false, o.Budget)
	if err != nil {
		return nil, err
	}
	s := &lruStore{kvStore: &kvStore{c: c}, max: o.MaxEntries}
	s.mu.live, s.mu.committed, s.mu.written = lruorder.New(), lruorder.New(), lruorder.New()
	return s, nil
}

// lruStore keeps the data in a core, as kvStore does, and the recency
// orders beside it. The orders hold exactly the keys the data holds: live
// those of the overlay over the base, committed those of the base.
type lruStore struct {
	*kvStore
	max int

	mu struct {
		sync.Mutex
		// live is the order the owner's uses make; its eldest key is the
		// next to be evicted.
		live *lruorder.Order
		// committed orders the base's keys by their last committed write.
		committed *lruorder.Order
		// written holds the keys written since the last commit, by their
		// last write (put, delete or eviction).
		written *lruorder.Order
	}
}

var (
	_ LRUKeyValueStore = (*lruStore)(nil)
	_ PositionTracker  = (*lruStore)(nil)
)

func (s *lruStore) MaxEntries() int { return s.max }

// Get returns key's value and, when it has one, makes key the most
// recently used.
func (s *lruStore) Get(key []byte) ([]byte, error) {
	v, err := kvView{c: s.c}.Get(key)
	if err != nil || v == nil {
		return v, err
	}
	s.mu.Lock()
	s.mu.live.Touch(string(key))
	s.mu.Unlock()
	return v, nil
}

func (s *lruStore) Put(key, value []byte) error {
	_, err := s.PutEvicting(key, value)
	return err
}

func (s *lruStore) PutEvicting(key, value []byte) ([]byte, error) {
	if key == nil {
		return nil, ErrInvalidArgument
	}
	if value == nil {
		_, err := s.Delete(key)
		return nil, err
	}
	if err := s.c.put(0, key, value); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	k := string(key)
	s.mu.live.Use(k)
	s.mu.written.Use(k)
	if s.mu.live.Len() <= s.max {
		return nil, nil
	}
	eldest, _ := s.mu.live.Eldest()
	if err := s.c.del(0, []byte(eldest)); err != nil {
		return nil, err
	}
	s.mu.live.Remove(eldest)
	s.mu.written.Use(eldest)
	return []byte(eldest), nil
}

// PutIfAbsent is Kafka's: a Get, which uses a present key, then a Put if
// the key had no value. An eviction it causes is not reported: the store
// views use Get and PutEvicting.
func (s *lruStore) PutIfAbsent(key, value []byte) ([]byte, error) {
	old, err := s.Get(key)
	if err != nil || old != nil {
		return old, err
	}
	return nil, s.Put(key, value)
}

func (s *lruStore) PutAll(entries []KeyValue) error {
	for _, e := range entries {
		if err := s.Put(e.Key, e.Value); err != nil {
			return err
		}
	}
	return nil
}

// Delete removes key without using it.
func (s *lruStore) Delete(key []byte) ([]byte, error) {
	if key == nil {
		return nil, ErrInvalidArgument
	}
	old, err := kvView{c: s.c}.Get(key)
	if err != nil {
		return nil, err
	}
	if err := s.c.del(0, key); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.mu.live.Remove(string(key))
	s.mu.written.Use(string(key))
	return old, nil
}

func (s *lruStore) DeleteRange(from, to []byte) error {
	it, err := s.Range(from, to)
	if err != nil {
		return err
	}
	var keys [][]byte
	for it.Next() {
		keys = append(keys, append(make([]byte, 0, len(it.Key())), it.Key()...)) // an empty key stays non-nil
	}
	if err := it.Err(); err != nil {
		it.Close()
		return err
	}
	it.Close()
	for _, k := range keys {
		if _, err := s.Delete(k); err != nil {
			return err
		}
	}
	return nil
}

// ApproximateNumEntries is exact here: the live entry count, as Kafka's
// map size.
func (s *lruStore) ApproximateNumEntries() (int64, error) {
	if err := s.c.check(); err != nil {
		return 0, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return int64(s.mu.live.Len()), nil
}

// Commit applies the overlay and moves the keys written since the last
// commit to the newest end of the committed order, in the order of their
// last writes: the order their changelog records, now committed, give.
func (s *lruStore) Commit(offsets map[TopicPartition]*int64) error {
	if err := s.c.commit(offsets, nil, nil, math.MinInt64); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, k := range s.mu.written.Keys() {
		s.mu.committed.Remove(k)
		if s.mu.live.Contains(k) {
			s.mu.committed.Use(k)
		}
	}
	s.mu.written.Clear()
	if invariants.Enabled && s.mu.committed.Len() != s.mu.live.Len() {
		invariants.Failf("state: LRU store %s holds %d keys after a commit, its committed order %d", s.c.name, s.mu.live.Len(), s.mu.committed.Len())
	}
	return nil
}

// Rollback drops the uncommitted writes and the uses since the last
// commit: the live order becomes the committed one, the order a restore
// from the changelog gives.
func (s *lruStore) Rollback() {
	s.c.rollback()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.mu.live = s.mu.committed.Clone()
	s.mu.written.Clear()
}

// ApplyChangelog replays records in order as Kafka's restore does: a
// record puts its key as the most recently used (a tombstone deletes it),
// and a put that makes the store hold more than MaxEntries evicts the
// eldest without a changelog record. The store must have no uncommitted
// writes, as before its task runs.
func (s *lruStore) ApplyChangelog(records []ChangelogRecord, tp TopicPartition, lastOffset int64) error {
	if invariants.Enabled && s.c.ov.Len() > 0 {
		invariants.Failf("state: LRU store %s restores with %d uncommitted writes", s.c.name, s.c.ov.Len())
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	writes := make([]Write, 0, len(records))
	for _, r := range records {
		w := Write{Key: r.Key}
		k := string(r.Key)
		if r.Value == nil {
			w.Tombstone = true
			s.mu.committed.Remove(k)
			writes = append(writes, w)
			continue
		}
		w.Value = r.Value
		writes = append(writes, w)
		s.mu.committed.Use(k)
		if s.mu.committed.Len() > s.max {
			eldest, _ := s.mu.committed.Eldest()
			s.mu.committed.Remove(eldest)
			writes = append(writes, Write{Key: []byte(eldest), Tombstone: true})
		}
	}
	if err := s.c.applyChangelog(writes, tp, lastOffset, nil); err != nil {
		return err
	}
	s.mu.live = s.mu.committed.Clone()
	return nil
}

// recency returns the live and committed orders, least recently used
// first, for tests.
func (s *lruStore) recency() (live, committed []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.mu.live.Keys(), s.mu.committed.Keys()
}
