package kstreams

import (
	"errors"
	"fmt"
	"os"

	"github.com/stoatflow/stoatflow/kstreams/serde"
	"github.com/stoatflow/stoatflow/state"
)

// taskStore is one store of a task: the transactional state store, the
// byte-level view the task's processors use, and its changelog partition.
type taskStore struct {
	spec      *StoreSpec
	task      TaskID
	dir       string // task directory
	store     state.Store
	bytes     StateStore
	changelog *state.TopicPartition // nil when logging is disabled
}

type storeKey struct {
	name      string
	partition int32
}

// openStores opens every store of a task's sub-topology under its task
// directory. A store whose files are corrupted is deleted and opened empty:
// it restores in full from its changelog, and only it.
func (t *streamThread) openStores(id TaskID) ([]*taskStore, error) {
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
			return nil, fmt.Errorf("kstreams: task %s: opening store %s: %w", id, spec.Name, err)
		}
		out = append(out, ts)
	}
	return out, nil
}

func storePath(taskDir string, spec *StoreSpec) string {
	if spec.Kind == KeyValueStoreKind {
		return state.KeyValueDir(taskDir, spec.Name)
	}
	return state.SegmentedDir(taskDir, spec.Name)
}

func (t *streamThread) openStore(id TaskID, dir string, spec *StoreSpec) (*taskStore, error) {
	rocks := state.RocksDBOptions{WriteBufferBytes: t.s.cfg.WriteBufferBytes(spec.Name)}
	ts := &taskStore{spec: spec, task: id, dir: dir}
	if spec.Logging {
		ts.changelog = &state.TopicPartition{Topic: ChangelogTopic(t.s.cfg.ApplicationID, spec.Name), Partition: id.Partition}
	}
	persistent := spec.Type == RocksDB
	switch spec.Kind {
	case KeyValueStoreKind:
		o := state.KeyValueOptions{Name: spec.Name, Timestamped: spec.Timestamped, Budget: t.budget, RocksDB: rocks}
		var kv state.KeyValueStore
		var err error
		if persistent {
			kv, err = state.OpenRocksDBKeyValue(dir, o)
		} else {
			kv = state.NewInMemoryKeyValue(o)
		}
		if err != nil {
			return nil, err
		}
		ts.store, ts.bytes = kv, kv
	case WindowStoreKind:
		o := state.WindowOptions{Name: spec.Name, RetentionMs: spec.Retention, Timestamped: spec.Timestamped, Budget: t.budget, RocksDB: rocks}
		var ws state.WindowStore
		var err error
		if persistent {
			ws, err = state.OpenRocksDBWindow(dir, o)
		} else {
			ws, err = state.NewInMemoryWindow(o)
		}
		if err != nil {
			return nil, err
		}
		ts.store, ts.bytes = ws, windowBytes{ws}
	default:
		o := state.SessionOptions{Name: spec.Name, RetentionMs: spec.Retention, Budget: t.budget, RocksDB: rocks}
		var ss state.SessionStore
		var err error
		if persistent {
			ss, err = state.OpenRocksDBSession(dir, o)
		} else {
			ss, err = state.NewInMemorySession(o)
		}
		if err != nil {
			return nil, err
		}
		ts.store, ts.bytes = ss, sessionBytes{ss}
	}
	return ts, nil
}

func closeStores(stores []*taskStore) {
	for _, ts := range stores {
		ts.store.Close()
	}
}

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
	Kind      StoreKind
	// Store is a state.KeyValueStore, state.WindowStore or
	// state.SessionStore; use its ReadOnly(isolation) view from query
	// goroutines.
	Store state.Store
}

// LocalStores returns the running store partitions named name hosted here.
func (s *KafkaStreams) LocalStores(name string) []LocalStore {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []LocalStore
	for k, ts := range s.mu.stores {
		if k.name == name {
			out = append(out, LocalStore{Name: k.name, Partition: k.partition, Kind: ts.spec.Kind, Store: ts.store})
		}
	}
	return out
}
