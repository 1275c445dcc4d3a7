package kstreams

import (
	"fmt"
	"time"

	"github.com/stoatflow/stoatflow/kstreams/serde"
	"github.com/stoatflow/stoatflow/state"
)

// Put return codes of a versioned store, Kafka's VersionedKeyValueStore
// constants: a put returns the validTo of the version it wrote, or one of
// these.
const (
	// PutReturnCodeValidToUndefined: the version is the key's latest
	// (PUT_RETURN_CODE_VALID_TO_UNDEFINED, also PUT_RETURN_CODE_IS_LATEST).
	PutReturnCodeValidToUndefined = state.PutValidToUndefined
	// PutReturnCodeNotPut: the version was older than the history retention
	// and was dropped (PUT_RETURN_CODE_NOT_PUT).
	PutReturnCodeNotPut = state.PutNotPut
)

// VersionedBytesStore is a byte-level versioned key-value store, as the
// state package's versioned stores provide it: each put adds a version valid
// from its timestamp until the next version's.
type VersionedBytesStore interface {
	StateStore
	Put(key, value []byte, ts int64) (int64, error)
	Get(key []byte) (*state.VersionedRecord, error)
	GetAsOf(key []byte, asOf int64) (*state.VersionedRecord, error)
	Delete(key []byte, ts int64) (*state.VersionedRecord, error)
}

// VersionedStoreSupplier is Kafka's RocksDbVersionedKeyValueBytesStoreSupplier:
// a versioned store's name, how long old versions stay readable (and
// out-of-order writes are accepted), and the size of the segments that hold
// them. Build one with PersistentVersionedKeyValueStore.
type VersionedStoreSupplier struct {
	Name               string
	HistoryRetentionMs int64
	SegmentIntervalMs  int64
	err                error
}

// PersistentVersionedKeyValueStore is Stores.persistentVersionedKeyValueStore:
// a RocksDB versioned store keeping history for historyRetention. An
// optional segmentInterval sizes its segments; without one the interval is
// Kafka's default for the retention. Kafka's checks apply when the store is
// used: the retention must not be negative, the interval must be positive.
func PersistentVersionedKeyValueStore(name string, historyRetention time.Duration, segmentInterval ...time.Duration) VersionedStoreSupplier {
	s := VersionedStoreSupplier{Name: name, HistoryRetentionMs: historyRetention.Milliseconds()}
	switch {
	case s.HistoryRetentionMs < 0:
		s.err = errIllegalArgument("historyRetention cannot be negative")
	case len(segmentInterval) > 0:
		s.SegmentIntervalMs = segmentInterval[0].Milliseconds()
		if s.SegmentIntervalMs < 1 {
			s.err = errIllegalArgument("segmentInterval cannot be zero or negative")
		}
	default:
		s.SegmentIntervalMs = defaultVersionedSegmentInterval(s.HistoryRetentionMs)
	}
	return s
}

// defaultVersionedSegmentInterval is the segment interval Kafka's versioned
// store supplier picks for a history retention.
func defaultVersionedSegmentInterval(retention int64) int64 {
	switch {
	case retention <= 60_000:
		return max(retention/3, 2_000)
	case retention <= 300_000:
		return max(retention/5, 20_000)
	case retention <= 3_600_000:
		return max(retention/12, 60_000)
	}
	return max(retention/24, 300_000)
}

// MaterializedAsVersioned is Materialized.as(VersionedBytesStoreSupplier):
// the table or aggregation is kept in the versioned store s. A versioned
// store has no record cache (Kafka Streams does not cache one either), and
// reads of the table see its latest versions; a stream–table join reads the
// version valid at each stream record's timestamp. Tables over a versioned
// store follow Kafka Streams' versioned semantics: an out-of-order update
// is stored as history and forwarded, but re-groupings and table–table joins
// downstream skip it.
func MaterializedAsVersioned[K, V any](s VersionedStoreSupplier) Materialized[K, V] {
	return Materialized[K, V]{Name: s.Name, versioned: &s}
}

// VersionedKeyValueStoreBuilder is Stores.versionedKeyValueStoreBuilder over
// s, for AddStateStore: a VersionedKeyValueStore in the processor.
func VersionedKeyValueStoreBuilder[K, V any](s VersionedStoreSupplier, k serde.Serde[K], v serde.Serde[V]) StoreBuilder {
	return StoreBuilder{Name: s.Name, Kind: VersionedStoreKind, KeySerde: serde.Erase(k), ValueSerde: serde.Erase(v),
		RetentionMs: s.HistoryRetentionMs, SegmentIntervalMs: s.SegmentIntervalMs, versionedErr: s.err}
}

// versionedStoreSpec is the spec of a DSL versioned store.
func versionedStoreSpec(s *VersionedStoreSupplier, noLog bool, logCfg map[string]string, key, val serdeSpec) *StoreSpec {
	return &StoreSpec{Name: s.Name, Kind: VersionedStoreKind, Type: RocksDB, Logging: !noLog, LogConfig: logCfg,
		Retention: s.HistoryRetentionMs, SegmentInterval: s.SegmentIntervalMs, key: key, val: val}
}

// storeSpec is the spec of the key-value store m gives a table or an
// aggregation: versioned when m was made with MaterializedAsVersioned,
// else timestamped.
func (m Materialized[K, V]) storeSpec(name string, key, val serdeSpec) (*StoreSpec, error) {
	if m.versioned != nil {
		if m.versioned.err != nil {
			return nil, m.versioned.err
		}
		return versionedStoreSpec(m.versioned, m.LoggingDisabled, m.LogConfig, key, val), nil
	}
	return kvStoreSpec(name, m.StoreType, m.LoggingDisabled, m.LogConfig, m.CachingDisabled, key, val), nil
}

// isVersioned reports whether m names a versioned store.
func (m Materialized[K, V]) isVersioned() bool { return m.versioned != nil }

// VersionedRecord is one version of a key, Kafka's VersionedRecord: its
// value, the timestamp it is valid from and, unless it is the latest
// version, the timestamp it is valid to (exclusive).
type VersionedRecord struct {
	Value      any
	Timestamp  int64
	ValidTo    int64
	HasValidTo bool
}

// VersionedKeyValueStore is the typed view of a versioned store
// (VersionedKeyValueStoreBuilder, or a table materialized with
// MaterializedAsVersioned). Its changelog carries each put as written: the
// key, the value (null for a delete) and the version's timestamp as record
// timestamp, as Kafka's ChangeLoggingVersionedKeyValueBytesStore writes it.
type VersionedKeyValueStore struct {
	storeBase
	inner VersionedBytesStore
}

// Put adds value as the version of key valid from ts; a nil value deletes
// the key from ts on. It returns the version's validTo, or
// PutReturnCodeValidToUndefined when it is the latest, or
// PutReturnCodeNotPut when ts is older than the history retention allows.
func (s *VersionedKeyValueStore) Put(key, value any, ts int64) (int64, error) {
	if key == nil {
		return PutReturnCodeNotPut, fmt.Errorf("kstreams: store %s: key cannot be null", s.name)
	}
	kb, err := s.keyBytes(key)
	if err != nil {
		return PutReturnCodeNotPut, err
	}
	var raw []byte
	if value != nil {
		if raw, err = s.valueBytes(value); err != nil {
			return PutReturnCodeNotPut, err
		}
	}
	code, err := s.inner.Put(kb, raw, ts)
	if err != nil {
		return PutReturnCodeNotPut, err
	}
	return code, s.logChange(kb, raw, ts)
}

// Delete adds a tombstone for key at ts and returns the version it
// replaced there, if any.
func (s *VersionedKeyValueStore) Delete(key any, ts int64) (*VersionedRecord, error) {
	if key == nil {
		return nil, fmt.Errorf("kstreams: store %s: key cannot be null", s.name)
	}
	kb, err := s.keyBytes(key)
	if err != nil {
		return nil, err
	}
	prev, err := s.inner.Delete(kb, ts)
	if err != nil {
		return nil, err
	}
	if err := s.logChange(kb, nil, ts); err != nil {
		return nil, err
	}
	return s.record(prev)
}

// Get returns the latest version of key, or nil if the key is absent or
// deleted.
func (s *VersionedKeyValueStore) Get(key any) (*VersionedRecord, error) {
	kb, err := s.keyBytes(key)
	if err != nil {
		return nil, err
	}
	r, err := s.inner.Get(kb)
	if err != nil {
		return nil, err
	}
	return s.record(r)
}

// GetAsOf returns the version of key valid at asOf, or nil: none was, or
// asOf lies further back than the history retention.
func (s *VersionedKeyValueStore) GetAsOf(key any, asOf int64) (*VersionedRecord, error) {
	kb, err := s.keyBytes(key)
	if err != nil {
		return nil, err
	}
	r, err := s.inner.GetAsOf(kb, asOf)
	if err != nil {
		return nil, err
	}
	return s.record(r)
}

func (s *VersionedKeyValueStore) record(r *state.VersionedRecord) (*VersionedRecord, error) {
	if r == nil {
		return nil, nil
	}
	v, err := s.val.DeserializeAny(s.topic, r.Value)
	if err != nil {
		return nil, fmt.Errorf("kstreams: store %s: value: %w", s.name, err)
	}
	return &VersionedRecord{Value: v, Timestamp: r.Timestamp, ValidTo: r.ValidTo, HasValidTo: r.HasValidTo}, nil
}

// The table operators' side of the store (tableKV).

func (s *VersionedKeyValueStore) latest(key any) (any, int64, bool, error) {
	r, err := s.Get(key)
	if err != nil || r == nil {
		return nil, 0, false, err
	}
	return r.Value, r.Timestamp, true, nil
}

func (s *VersionedKeyValueStore) putTable(key, value any, ts int64) (stored, latest bool, err error) {
	code, err := s.Put(key, value, ts)
	if err != nil {
		return false, false, err
	}
	return code != PutReturnCodeNotPut, code == PutReturnCodeValidToUndefined, nil
}

// tableKV is the store a table operator or an aggregation writes its rows
// to: a timestamped key-value store, or a versioned one (Kafka's
// KeyValueStoreWrapper). latest reads the key's current row; putTable
// writes one and says whether it was stored at all and whether it is the
// key's latest row (an out-of-order write to a versioned store is not).
type tableKV interface {
	StateStore
	latest(key any) (value any, ts int64, ok bool, err error)
	putTable(key, value any, ts int64) (stored, latest bool, err error)
	Caching() bool
	onFlush(fn func(e *cacheEntry) error)
}

func (s *TimestampedKeyValueStore) latest(key any) (any, int64, bool, error) { return s.Get(key) }

func (s *TimestampedKeyValueStore) putTable(key, value any, ts int64) (bool, bool, error) {
	return true, true, s.Put(key, value, ts)
}

// openTableKV opens a table operator's store: timestamped or versioned.
func openTableKV(ctx ProcessorContext, name string) (tableKV, error) {
	s, err := ctx.StateStore(name)
	if err != nil {
		return nil, err
	}
	t, ok := s.(tableKV)
	if !ok {
		return nil, fmt.Errorf("kstreams: store %s is a %T, not a table's key-value store", name, s)
	}
	return t, nil
}

// materializedSpec is the key-value store spec m gives a table or an
// aggregation; a bad versioned supplier fails the build.
func materializedSpec[K, V any](b *StreamsBuilder, m Materialized[K, V], name string, key, val serdeSpec) *StoreSpec {
	s, err := m.storeSpec(name, key, val)
	if err != nil {
		b.fail(err)
		return kvStoreSpec(name, m.StoreType, m.LoggingDisabled, m.LogConfig, m.CachingDisabled, key, val)
	}
	return s
}

// outOfOrderVersionedJoin is why a table join skips an out-of-order update
// of a versioned table, in Kafka Streams' words.
const outOfOrderVersionedJoin = "Skipping out-of-order record from versioned table while performing table-table join."
