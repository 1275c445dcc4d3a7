package state

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
)

// Put return codes, as Kafka Streams' VersionedKeyValueStore defines them.
const (
	// PutValidToUndefined: the record is the latest version of its key.
	PutValidToUndefined int64 = -1
	// PutNotPut: the record was older than the history retention and
	// dropped.
	PutNotPut int64 = math.MinInt64
)

// VersionedRecord is one version of a key.
type VersionedRecord struct {
	Value     []byte
	Timestamp int64 // valid from
	// ValidTo is the timestamp of the next version; HasValidTo is false for
	// the latest version.
	ValidTo    int64
	HasValidTo bool
}

// ReadOnlyVersionedStore is the read side of a versioned store.
type ReadOnlyVersionedStore interface {
	// Get returns the latest version of key, or nil if it is absent or
	// deleted.
	Get(key []byte) (*VersionedRecord, error)
	// GetAsOf returns the version of key valid at asOf, or nil. Timestamps
	// older than stream time minus the history retention have no answer
	// (nil).
	GetAsOf(key []byte, asOf int64) (*VersionedRecord, error)
	// Versions returns the versions of key valid at some time in [from,
	// to] (both inclusive), deletions left out, by timestamp ascending or
	// descending: Kafka's MultiVersionedKeyQuery. History older than the
	// retention is not returned; a range wholly older than it can still
	// find the latest version.
	Versions(key []byte, from, to int64, ascending bool) ([]VersionedRecord, error)
}

// VersionedKeyValueStore is a transactional versioned key-value store.
type VersionedKeyValueStore interface {
	Store
	ReadOnlyVersionedStore
	// Put adds a version of key valid from ts (a nil value deletes) and
	// returns its validTo, PutValidToUndefined or PutNotPut.
	Put(key, value []byte, ts int64) (int64, error)
	// Delete adds a tombstone at ts and returns the version it replaced at
	// ts, if any.
	Delete(key []byte, ts int64) (*VersionedRecord, error)
	ReadOnly(IsolationLevel) ReadOnlyVersionedStore
}

// VersionedOptions configures a versioned store.
type VersionedOptions struct {
	Name               string
	HistoryRetentionMs int64
	// SegmentIntervalMs defaults to SegmentInterval(HistoryRetentionMs).
	SegmentIntervalMs int64
	Budget            *Budget
}

// Interval returns the segment interval of older versions in
// milliseconds: SegmentIntervalMs, or SegmentInterval(HistoryRetentionMs)
// when it is not set.
func (o VersionedOptions) Interval() int64 {
	if o.SegmentIntervalMs > 0 {
		return o.SegmentIntervalMs
	}
	return SegmentInterval(o.HistoryRetentionMs)
}

// VersionedLatestSegment is the segment in which a versioned store keeps
// each key's latest version; it never expires. Older versions are in the
// segment of the time they stopped being valid.
const VersionedLatestSegment int64 = math.MaxInt64

// OpenVersioned returns a versioned store over e: the latest versions in
// segment VersionedLatestSegment, older versions in one segment per
// o.Interval() of the time they stopped being valid. The store owns e: its
// Close closes e, and so does a failed OpenVersioned. Package state/rocksdb
// opens RocksDB versioned stores.
func OpenVersioned(e Engine, o VersionedOptions) (VersionedKeyValueStore, error) {
	s, err := openSegStore(o.Name, e, o.HistoryRetentionMs, o.Interval(), o.Budget)
	if err != nil {
		return nil, err
	}
	return &versionedStore{s: s}, nil
}

// NewInMemoryVersioned returns an in-memory versioned store.
func NewInMemoryVersioned(o VersionedOptions) (VersionedKeyValueStore, error) {
	return OpenVersioned(newMemBase(), o)
}

type versionedStore struct {
	s *segStore
}

var (
	_ VersionedKeyValueStore = (*versionedStore)(nil)
	_ PositionTracker        = (*versionedStore)(nil)
)

func (v *versionedStore) Name() string     { return v.s.c.name }
func (v *versionedStore) Persistent() bool { return v.s.c.base.Persistent() }
func (v *versionedStore) Commit(offsets map[TopicPartition]*int64) error {
	return v.s.commit(offsets)
}
func (v *versionedStore) Rollback() { v.s.rollback() }
func (v *versionedStore) CommittedOffset(tp TopicPartition) (int64, bool, error) {
	return v.s.c.committedOffset(tp)
}
func (v *versionedStore) ApproximateNumUncommittedBytes() int64 { return v.s.c.uncommittedBytes() }
func (v *versionedStore) Close() error                          { return v.s.c.close() }
func (v *versionedStore) UpdatePosition(topic string, partition int32, offset int64) {
	v.s.c.updatePosition(topic, partition, offset)
}
func (v *versionedStore) Position(iso IsolationLevel) Position { return v.s.c.position(iso) }

// ErrUncommittedWrites is returned by a versioned store's ApplyChangelog
// while the store holds uncommitted writes.
var ErrUncommittedWrites = errors.New("state: store has uncommitted writes")

// ApplyChangelog replays changelog records (value nil: delete) through the
// versioning logic and commits them with the offset in one batch. The
// store must hold no uncommitted writes.
func (v *versionedStore) ApplyChangelog(recs []ChangelogRecord, tp TopicPartition, lastOffset int64) error {
	if v.s.c.ov.Len() > 0 {
		return storeErr(v.s.c.name, "restore", ErrUncommittedWrites)
	}
	for _, r := range recs {
		if _, err := v.Put(r.Key, r.Value, r.Timestamp); err != nil {
			v.Rollback()
			return err
		}
	}
	return v.s.commit(map[TopicPartition]*int64{tp: &lastOffset})
}

func (v *versionedStore) ReadOnly(iso IsolationLevel) ReadOnlyVersionedStore {
	return versionedView{v: v, iso: iso}
}

func (v *versionedStore) Get(key []byte) (*VersionedRecord, error) {
	return versionedView{v: v}.Get(key)
}

func (v *versionedStore) GetAsOf(key []byte, asOf int64) (*VersionedRecord, error) {
	return versionedView{v: v}.GetAsOf(key, asOf)
}

func (v *versionedStore) Versions(key []byte, from, to int64, ascending bool) ([]VersionedRecord, error) {
	return versionedView{v: v}.Versions(key, from, to, ascending)
}

// version is one version of a key as stored. Latest versions live in the
// latest segment under the key; older ones in the segment of their validTo
// under key ++ validTo. Both store validFrom ++ tombstone flag ++ value.
type version struct {
	from, to  int64 // to == math.MaxInt64 for the latest
	value     []byte
	tombstone bool
}

func encodeLatest(from int64, value []byte, tombstone bool) []byte {
	b := make([]byte, 0, 9+len(value))
	b = binary.BigEndian.AppendUint64(b, uint64(from))
	if tombstone {
		return append(b, 1)
	}
	return append(append(b, 0), value...)
}

func decodeLatest(b []byte) (version, error) {
	if len(b) < 9 {
		return version{}, fmt.Errorf("%w: latest version of %d bytes", ErrInvalidArgument, len(b))
	}
	return version{from: int64(binary.BigEndian.Uint64(b)), to: math.MaxInt64, tombstone: b[8] == 1, value: b[9:]}, nil
}

func historyKey(key []byte, to int64) []byte {
	return binary.BigEndian.AppendUint64(append(make([]byte, 0, len(key)+8), key...), uint64(to))
}

// latestOnly returns the versions a put or lookup at ts needs: just the
// latest when ts is at or after it (the in-order common case), else all.
func (v *versionedStore) latestOnly(iso IsolationLevel, key []byte, ts int64) ([]version, error) {
	raw, ok, err := v.s.c.get(iso, VersionedLatestSegment, key)
	if err != nil {
		return nil, err
	}
	if !ok {
		// Older versions may still exist without a latest only if the
		// latest was dropped, which never happens; a missing latest means
		// the key is new.
		return nil, nil
	}
	l, err := decodeLatest(raw)
	if err != nil {
		return nil, err
	}
	if l.from <= ts {
		l.value = append([]byte(nil), l.value...)
		return []version{l}, nil
	}
	return v.versions(iso, key)
}

// versions returns every stored version of key, oldest first.
func (v *versionedStore) versions(iso IsolationLevel, key []byte) ([]version, error) {
	c := v.s.c
	var out []version
	m, err := c.iter(scan{iso: iso, segLo: math.MinInt64, segHi: VersionedLatestSegment - 1, lo: key, hi: prefixEnd(key), liveFrom: math.MinInt64})
	if err != nil {
		return nil, err
	}
	for m.Next() {
		k := m.Key()
		if len(k) != len(key)+8 || !bytes.Equal(k[:len(key)], key) {
			continue
		}
		ver, err := decodeLatest(m.Value())
		if err != nil {
			m.Close()
			return nil, err
		}
		ver.to = int64(binary.BigEndian.Uint64(k[len(key):]))
		ver.value = append([]byte(nil), ver.value...)
		out = append(out, ver)
	}
	if err := m.Err(); err != nil {
		m.Close()
		return nil, err
	}
	m.Close()
	sort.Slice(out, func(i, j int) bool { return out[i].from < out[j].from })
	raw, ok, err := c.get(iso, VersionedLatestSegment, key)
	if err != nil {
		return nil, err
	}
	if ok {
		l, err := decodeLatest(raw)
		if err != nil {
			return nil, err
		}
		out = append(out, l)
	}
	return out, nil
}

func (v *versionedStore) Put(key, value []byte, ts int64) (int64, error) {
	if key == nil {
		return PutNotPut, ErrInvalidArgument
	}
	if err := v.s.c.check(); err != nil {
		return PutNotPut, err
	}
	s := v.s
	if ts > s.observed.Load() {
		s.observed.Store(ts)
	}
	if ts < s.liveFrom(s.observed.Load())-1 {
		return PutNotPut, nil
	}
	old, err := v.latestOnly(ReadUncommitted, key, ts)
	if err != nil {
		return PutNotPut, err
	}
	next := insertVersion(old, ts, value)
	if err := v.writeDiff(key, old, next); err != nil {
		return PutNotPut, err
	}
	for _, nv := range next {
		if nv.from == ts {
			if nv.to == math.MaxInt64 {
				return PutValidToUndefined, nil
			}
			return nv.to, nil
		}
	}
	// A tombstone inserted in the past leaves a gap, not a version.
	return PutValidToUndefined, nil
}

// insertVersion returns the versions after adding (ts, value); value nil is
// a tombstone, kept as a version so that an earlier out-of-order put still
// ends where the delete happened. The new version lasts until the next later
// version; a version that ts falls inside ends at ts.
func insertVersion(old []version, ts int64, value []byte) []version {
	newTo := int64(math.MaxInt64)
	for _, o := range old {
		if o.from > ts && o.from < newTo {
			newTo = o.from
		}
	}
	out := make([]version, 0, len(old)+1)
	for _, o := range old {
		switch {
		case o.from == ts:
			continue
		case o.from < ts && ts < o.to:
			o.to = ts
		}
		out = append(out, o)
	}
	out = append(out, version{from: ts, to: newTo, value: value, tombstone: value == nil})
	sort.Slice(out, func(i, j int) bool { return out[i].from < out[j].from })
	return out
}

// writeDiff stages the writes that turn old into next.
func (v *versionedStore) writeDiff(key []byte, old, next []version) error {
	c := v.s.c
	type slot struct {
		seg int64
		k   string
	}
	loc := func(ver version) (slot, []byte) {
		if ver.to == math.MaxInt64 {
			return slot{VersionedLatestSegment, string(key)}, encodeLatest(ver.from, ver.value, ver.tombstone)
		}
		return slot{segmentID(ver.to, v.s.interval), string(historyKey(key, ver.to))}, encodeLatest(ver.from, ver.value, ver.tombstone)
	}
	want := map[slot][]byte{}
	for _, nv := range next {
		sl, val := loc(nv)
		want[sl] = val
	}
	have := map[slot][]byte{}
	for _, ov := range old {
		sl, val := loc(ov)
		have[sl] = val
	}
	for sl := range have {
		if _, ok := want[sl]; !ok {
			if err := c.del(sl.seg, []byte(sl.k)); err != nil {
				return err
			}
		}
	}
	for sl, val := range want {
		if hv, ok := have[sl]; ok && bytes.Equal(hv, val) {
			continue
		}
		if err := c.put(sl.seg, []byte(sl.k), val); err != nil {
			return err
		}
	}
	return nil
}

func (v *versionedStore) Delete(key []byte, ts int64) (*VersionedRecord, error) {
	prev, err := v.GetAsOf(key, ts)
	if err != nil {
		return nil, err
	}
	if _, err := v.Put(key, nil, ts); err != nil {
		return nil, err
	}
	return prev, nil
}

type versionedView struct {
	v   *versionedStore
	iso IsolationLevel
}

func (vv versionedView) Get(key []byte) (*VersionedRecord, error) {
	raw, ok, err := vv.v.s.c.get(vv.iso, VersionedLatestSegment, key)
	if err != nil || !ok {
		return nil, err
	}
	l, err := decodeLatest(raw)
	if err != nil || l.tombstone {
		return nil, err
	}
	return &VersionedRecord{Value: append([]byte{}, l.value...), Timestamp: l.from}, nil
}

func (vv versionedView) GetAsOf(key []byte, asOf int64) (*VersionedRecord, error) {
	s := vv.v.s
	if asOf < s.liveFrom(s.streamTime(vv.iso))-1 {
		return nil, s.c.check()
	}
	vers, err := vv.v.latestOnly(vv.iso, key, asOf)
	if err != nil {
		return nil, err
	}
	for _, ver := range vers {
		if ver.from <= asOf && asOf < ver.to {
			if ver.tombstone {
				return nil, nil
			}
			r := &VersionedRecord{Value: append([]byte{}, ver.value...), Timestamp: ver.from}
			if ver.to != math.MaxInt64 {
				r.ValidTo, r.HasValidTo = ver.to, true
			}
			return r, nil
		}
	}
	return nil, nil
}

func (vv versionedView) Versions(key []byte, from, to int64, ascending bool) ([]VersionedRecord, error) {
	if from > to {
		return nil, nil
	}
	s := vv.v.s
	var vers []version
	var err error
	if bound := s.liveFrom(s.streamTime(vv.iso)); to < bound-1 {
		// As Kafka's store: only the latest version can answer a range
		// older than the history retention.
		vers, err = vv.v.latestOnly(vv.iso, key, math.MaxInt64)
	} else {
		vers, err = vv.v.versions(vv.iso, key)
		vers = slices.DeleteFunc(vers, func(ver version) bool { return ver.to != math.MaxInt64 && ver.to <= bound-1 })
	}
	if err != nil {
		return nil, err
	}
	var out []VersionedRecord
	for _, ver := range vers { // oldest first
		if ver.tombstone || ver.from > to || ver.to <= from {
			continue
		}
		r := VersionedRecord{Value: append([]byte{}, ver.value...), Timestamp: ver.from}
		if ver.to != math.MaxInt64 {
			r.ValidTo, r.HasValidTo = ver.to, true
		}
		out = append(out, r)
	}
	if !ascending {
		slices.Reverse(out)
	}
	return out, nil
}
