package streams

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/stoatflow/stoatflow/compat"
	"github.com/stoatflow/stoatflow/kstreams"

	"github.com/stoatflow/stoatflow/kstreams/serde"
	"github.com/stoatflow/stoatflow/state"
	"github.com/stoatflow/stoatflow/state/rocksdb"
)

// taskStore is one store of a task: the transactional state store, the
// byte-level view the task's processors use, and its changelog partition.
type taskStore struct {
	spec      *kstreams.StoreSpec
	task      kstreams.TaskID
	dir       string // task directory
	store     state.Store
	bytes     kstreams.StateStore
	changelog *state.TopicPartition // nil when logging is disabled
}

type storeKey struct {
	name      string
	partition int32
}

// openStores opens every store of a task's sub-topology under its task
// directory. A store whose files are corrupted is deleted and opened empty:
// it restores in full from its changelog, and only it.
func (t *streamThread) openStores(id kstreams.TaskID) ([]*taskStore, error) {
	st := t.s.topo.Subtopologies()[id.Subtopology]
	if len(st.Stores) == 0 {
		return nil, nil
	}
	dir, err := t.s.dir.TaskDir(state.TaskDirName(id.Subtopology, int(id.Partition)))
	if err != nil {
		return nil, err
	}
	var out []*taskStore
	for _, spec := range st.Stores {
		ts, err := t.openStore(id, dir, spec)
		if errors.Is(err, state.ErrCorrupted) {
			t.log.Warn("store files are corrupted; deleting them and restoring the store from its changelog",
				"task", id.String(), "store", spec.Name, "err", err)
			if rmErr := os.RemoveAll(storePath(dir, spec)); rmErr != nil {
				err = fmt.Errorf("%w; removing it failed too: %v", err, rmErr)
			} else {
				ts, err = t.openStore(id, dir, spec)
			}
		}
		if err != nil {
			closeStores(out)
			return nil, fmt.Errorf("streams: task %s: opening store %s: %w", id, spec.Name, err)
		}
		out = append(out, ts)
	}
	return out, nil
}

func storePath(taskDir string, spec *kstreams.StoreSpec) string {
	if spec.Kind == kstreams.KeyValueStoreKind || spec.Kind == kstreams.VersionedStoreKind {
		return state.KeyValueDir(taskDir, spec.Name)
	}
	return state.SegmentedDir(taskDir, spec.Name)
}

func (t *streamThread) openStore(id kstreams.TaskID, dir string, spec *kstreams.StoreSpec) (*taskStore, error) {
	ts := &taskStore{spec: spec, task: id, dir: dir, changelog: t.s.storeChangelog(spec, id.Partition)}
	rocks := rocksdb.Options{WriteBufferBytes: t.s.cfg.WriteBufferBytes(spec.Name), Flush: t.flushPolicy(spec, ts.changelog)}
	persistent := t.s.storePersistent(spec)
	switch spec.Kind {
	case kstreams.KeyValueStoreKind:
		o := state.KeyValueOptions{Name: spec.Name, Timestamped: spec.Timestamped, Budget: t.budget}
		var kv state.KeyValueStore
		var err error
		switch {
		case spec.LRU:
			kv, err = state.NewInMemoryLRUKeyValue(state.LRUOptions{Name: spec.Name, MaxEntries: spec.MaxCacheSize, Budget: t.budget})
		case persistent:
			kv, err = rocksdb.OpenKeyValue(dir, o, rocks)
		default:
			kv = state.NewInMemoryKeyValue(o)
		}
		if err != nil {
			return nil, err
		}
		ts.store, ts.bytes = kv, kv
	case kstreams.WindowStoreKind:
		o := state.WindowOptions{Name: spec.Name, RetentionMs: spec.Retention, Timestamped: spec.Timestamped, RetainDuplicates: spec.RetainDuplicates, TimeOrdered: spec.TimeOrdered, Budget: t.budget}
		var ws state.WindowStore
		var err error
		if persistent {
			ws, err = rocksdb.OpenWindow(dir, o, rocks)
		} else {
			ws, err = state.NewInMemoryWindow(o)
		}
		if err != nil {
			return nil, err
		}
		ts.store, ts.bytes = ws, kstreams.WindowBytes(ws)
	case kstreams.VersionedStoreKind:
		o := state.VersionedOptions{Name: spec.Name, HistoryRetentionMs: spec.Retention, SegmentIntervalMs: spec.SegmentInterval, Budget: t.budget}
		var vs state.VersionedKeyValueStore
		var err error
		if persistent {
			vs, err = rocksdb.OpenVersioned(dir, o, rocks)
		} else {
			vs, err = state.NewInMemoryVersioned(o)
		}
		if err != nil {
			return nil, err
		}
		ts.store, ts.bytes = vs, vs
	default:
		o := state.SessionOptions{Name: spec.Name, RetentionMs: spec.Retention, Budget: t.budget}
		var ss state.SessionStore
		var err error
		if persistent {
			ss, err = rocksdb.OpenSession(dir, o, rocks)
		} else {
			ss, err = state.NewInMemorySession(o)
		}
		if err != nil {
			return nil, err
		}
		ts.store, ts.bytes = ss, kstreams.SessionBytes(ss)
	}
	return ts, nil
}

// storeChangelog is the changelog partition of a store of task partition
// p: its source topic's partition for a source table that reuses it
// (reuse.ktable.source.topics), else its changelog topic's; nil for a store
// without logging.
func (s *KafkaStreams) storeChangelog(spec *kstreams.StoreSpec, p int32) *state.TopicPartition {
	switch {
	case spec.SourceChangelog != "":
		return &state.TopicPartition{Topic: spec.SourceChangelog, Partition: p}
	case spec.Logging:
		return &state.TopicPartition{Topic: kstreams.ChangelogTopic(s.cfg.ApplicationID, spec.Name), Partition: p}
	}
	return nil
}

// storePersistent reports whether a store is a RocksDB store, whose state
// outlives its task's close.
func (s *KafkaStreams) storePersistent(spec *kstreams.StoreSpec) bool {
	return !spec.LRU && spec.Type.Resolve(dslStoreType(s.cfg.DSLStore)) == kstreams.RocksDB
}

// flushPolicy is a store's configured flush policy, its time bound
// tightened to half its changelog's retention: the broker deletes a
// segment of a delete-policy changelog once its records are retention.ms
// old, and a durable offset older than the log start means a restore in
// full.
func (t *streamThread) flushPolicy(spec *kstreams.StoreSpec, changelog *state.TopicPartition) state.FlushPolicy {
	maxRecords, maxLag := t.s.cfg.FlushPolicy(spec.Name)
	p := state.FlushPolicy{MaxLagRecords: maxRecords, MaxLag: maxLag}
	if changelog == nil {
		return p
	}
	if r := changelogRetention(t.s.topo, t.s.cfg, changelog.Topic); r > 0 && (p.MaxLag == 0 || r/2 < p.MaxLag) {
		p.MaxLag = r / 2
	}
	return p
}

// changelogRetention returns the retention.ms a changelog topic is created
// with when its cleanup policy deletes, else 0.
func changelogRetention(topo *kstreams.Topology, cfg *compat.Config, topic string) time.Duration {
	itc := kstreams.InternalTopicsConfig{
		ApplicationID: cfg.ApplicationID,
		WindowStoreChangelogAdditionalRetentionMs: cfg.WindowstoreChangelogAdditionalRetention.Milliseconds(),
		TopicConfigs: cfg.TopicConfigs,
	}
	for _, it := range topo.InternalTopics(itc) {
		if it.Name != topic {
			continue
		}
		if !strings.Contains(it.Configs["cleanup.policy"], "delete") {
			return 0
		}
		ms, err := strconv.ParseInt(it.Configs["retention.ms"], 10, 64)
		if err != nil || ms <= 0 {
			return 0
		}
		return time.Duration(ms) * time.Millisecond
	}
	return 0
}

func closeStores(stores []*taskStore) {
	for _, ts := range stores {
		ts.store.Close()
	}
}

// registerStore makes a running task's store visible to interactive
// queries.
func (s *KafkaStreams) registerStore(ts *taskStore) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.mu.stores[storeKey{ts.spec.Name, ts.task.Partition}] = ts
}

func (s *KafkaStreams) unregisterStore(ts *taskStore) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.mu.stores[storeKey{ts.spec.Name, ts.task.Partition}] == ts {
		delete(s.mu.stores, storeKey{ts.spec.Name, ts.task.Partition})
	}
}

// LocalStore is a store partition this instance hosts, for interactive
// queries.
type LocalStore struct {
	Name      string
	Partition int32
	Kind      kstreams.StoreKind
	// Store is a state.KeyValueStore, state.WindowStore or
	// state.SessionStore; use its ReadOnly(isolation) view from query
	// goroutines.
	Store state.Store
	// Global marks a global store: one store holding every partition of
	// its topic, so any key is read from it (Partition is -1).
	Global bool
}

// LocalStores returns the running store partitions named name hosted here.
func (s *KafkaStreams) LocalStores(name string) []LocalStore {
	s.mu.Lock()
	defer s.mu.Unlock()
	if ls, ok := s.localGlobalLocked(name); ok {
		return []LocalStore{ls}
	}
	var out []LocalStore
	for k, ts := range s.mu.stores {
		if k.name == name {
			out = append(out, LocalStore{Name: k.name, Partition: k.partition, Kind: ts.spec.Kind, Store: ts.store})
		}
	}
	return out
}

// DefaultSerde returns the serde a default.key.serde or default.value.serde
// setting names, or nil when it is unset: the serde the runtime gives
// stores and nodes that name none. Schema Registry serdes need the
// registry settings too: DefaultSerdes builds them.
func DefaultSerde(s compat.Serde) (serde.Untyped, error) {
	if s.IsSchemaRegistry() {
		return nil, fmt.Errorf("streams: %s needs the schema registry settings: use DefaultSerdes", s)
	}
	return serdeFor(s)
}
