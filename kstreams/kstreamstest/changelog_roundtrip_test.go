package kstreamstest

import (
	"fmt"
	"math"
	"math/rand"
	"slices"
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/serde"
	"github.com/stoatflow/stoatflow/state"
)

// lastSeen keeps each key's latest value in a plain key-value store (name,
// "last" if empty) and deletes it on "reset". With read set it first reads
// key "a", which in an LRU map makes "a" the most recently used.
type lastSeen struct {
	name  string
	read  bool
	store *kstreams.KeyValueStore
}

func (p *lastSeen) Init(ctx kstreams.ProcessorContext) error {
	if p.name == "" {
		p.name = "last"
	}
	s, err := ctx.StateStore(p.name)
	if err != nil {
		return err
	}
	p.store = s.(*kstreams.KeyValueStore)
	return nil
}

func (p *lastSeen) Process(r kstreams.Record) error {
	if p.read {
		if _, _, err := p.store.Get("a"); err != nil {
			return err
		}
	}
	if r.Value == "reset" {
		return p.store.Delete(r.Key)
	}
	return p.store.Put(r.Key, r.Value)
}

func (p *lastSeen) Close() error { return nil }

// TestChangelogRestoresWhatTheWritePathStored runs every kind of store the
// DSL writes (plain and timestamped key-value, an LRU map, timestamped
// window, session)
// through random input, then restores a fresh store of each task from the
// changelog records the task wrote. The restored store must hold the same
// bytes as the one the task wrote to: the write path (kstreams' store views)
// and restore (state's ApplyChangelog) agree on every changelog format.
func TestChangelogRestoresWhatTheWritePathStored(t *testing.T) {
	for _, caching := range []bool{false, true} {
		t.Run(fmt.Sprintf("caching=%v", caching), func(t *testing.T) {
			str := serde.String{}
			b := kstreams.NewStreamsBuilder()
			last := kstreams.KeyValueStoreBuilder[string, string]("last", str, str)
			recent := kstreams.KeyValueStoreBuilder[string, string]("recent", str, str).InMemoryLRU(3)
			if caching {
				last, recent = last.WithCachingEnabled(), recent.WithCachingEnabled()
			}
			b.AddStateStore(last)
			b.AddStateStore(recent)
			in := kstreams.Stream(b, []string{"in"}, kstreams.ConsumedWith[string, string](str, str))
			kstreams.Process[string, string](in, func() kstreams.Processor { return &lastSeen{} }, "", "last")
			kstreams.Process[string, string](in, func() kstreams.Processor { return &lastSeen{name: "recent", read: true} }, "", "recent")
			g := in.GroupByKey()
			g.Count(kstreams.MaterializedAs[string, int64]("counts"))
			kstreams.WindowedBy(g, kstreams.TimeWindowsOfSizeAndGrace(10*time.Second, 5*time.Second)).
				Count(kstreams.MaterializedAs[string, int64]("windows"))
			kstreams.WindowedBySession(g, kstreams.SessionWindowsOfInactivityGapAndGrace(3*time.Second, 2*time.Second)).
				Count(kstreams.MaterializedAs[string, int64]("sessions"))
			topo, err := b.Build()
			if err != nil {
				t.Fatal(err)
			}
			d, err := New(topo, Config{ApplicationID: "app", Partitions: 2, Caching: caching, CacheMaxBytes: 200})
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close()
			rng := rand.New(rand.NewSource(12))
			ts := int64(1_000)
			for range 400 {
				ts += rng.Int63n(2_000) - 300
				v := []string{"x", "yy", "reset", "", "zzz", "w"}[rng.Intn(6)]
				if err := d.Pipe("in", []byte(string(rune('a'+rng.Intn(8)))), []byte(v), max(ts, 0)); err != nil {
					t.Fatal(err)
				}
			}

			checked := 0
			for id, stores := range d.stores {
				for name, s := range stores {
					spec, _ := topo.Store(name)
					var recs []state.ChangelogRecord
					for _, r := range d.Changelog(name) {
						if r.Partition == id.Partition {
							recs = append(recs, state.ChangelogRecord{Key: r.Key, Value: r.Value, Timestamp: r.Timestamp})
						}
					}
					orig, restored := dumpAndRestore(t, spec, s, recs)
					if len(orig) == 0 {
						t.Fatalf("task %s store %s is empty: the test exercises nothing", id, name)
					}
					if !slices.Equal(orig, restored) {
						t.Errorf("task %s store %s:\nwritten  %q\nrestored %q", id, name, orig, restored)
					}
					checked++
				}
			}
			if checked != 10 {
				t.Fatalf("checked %d task stores, want 5 stores on 2 partitions", checked)
			}
		})
	}
}

// dumpAndRestore lists the committed content of s, and of a fresh store of
// the same kind after ApplyChangelog(recs).
func dumpAndRestore(t *testing.T, spec *kstreams.StoreSpec, s kstreams.StateStore, recs []state.ChangelogRecord) (orig, restored []string) {
	t.Helper()
	if u, ok := s.(interface{ Unwrap() state.Store }); ok {
		s = u.Unwrap()
	}
	tp := state.TopicPartition{Topic: "restore", Partition: 0}
	switch spec.Kind {
	case kstreams.KeyValueStoreKind:
		fresh := state.NewInMemoryKeyValue(state.KeyValueOptions{Name: spec.Name, Timestamped: spec.Timestamped})
		if spec.LRU {
			var err error
			if fresh, err = state.NewInMemoryLRUKeyValue(state.LRUOptions{Name: spec.Name, MaxEntries: spec.MaxCacheSize}); err != nil {
				t.Fatal(err)
			}
		}
		defer fresh.Close()
		if err := fresh.ApplyChangelog(recs, tp, int64(len(recs))); err != nil {
			t.Fatal(err)
		}
		return dumpKV(t, s.(state.KeyValueStore)), dumpKV(t, fresh)
	case kstreams.WindowStoreKind:
		fresh, err := state.NewInMemoryWindow(state.WindowOptions{Name: spec.Name, RetentionMs: spec.Retention, Timestamped: spec.Timestamped})
		if err != nil {
			t.Fatal(err)
		}
		defer fresh.Close()
		if err := fresh.ApplyChangelog(recs, tp, int64(len(recs))); err != nil {
			t.Fatal(err)
		}
		return dumpWindows(t, s.(state.WindowStore)), dumpWindows(t, fresh)
	default:
		fresh, err := state.NewInMemorySession(state.SessionOptions{Name: spec.Name, RetentionMs: spec.Retention})
		if err != nil {
			t.Fatal(err)
		}
		defer fresh.Close()
		if err := fresh.ApplyChangelog(recs, tp, int64(len(recs))); err != nil {
			t.Fatal(err)
		}
		return dumpSessions(t, s.(state.SessionStore)), dumpSessions(t, fresh)
	}
}

func dumpKV(t *testing.T, s state.KeyValueStore) []string {
	it, err := s.ReadOnly(state.ReadCommitted).All()
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	var out []string
	for it.Next() {
		out = append(out, fmt.Sprintf("%x=%x", it.Key(), it.Value()))
	}
	if err := it.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// dumpWindows lists every window, each also read back by Fetch, which
// finds only the key layout the DSL's stores use (sequence number 0).
func dumpWindows(t *testing.T, s state.WindowStore) []string {
	ro := s.ReadOnly(state.ReadCommitted)
	it, err := ro.FetchAll(0, math.MaxInt64, false)
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	var out []string
	for it.Next() {
		fetched, err := ro.Fetch(it.Key(), it.WindowStart())
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, fmt.Sprintf("%x@%d=%x fetch=%x", it.Key(), it.WindowStart(), it.Value(), fetched))
	}
	if err := it.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// dumpSessions lists every session, each also read back by FetchSession.
func dumpSessions(t *testing.T, s state.SessionStore) []string {
	ro := s.ReadOnly(state.ReadCommitted)
	it, err := ro.FindSessionsRange(nil, nil, 0, math.MaxInt64, false)
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	var out []string
	for it.Next() {
		fetched, err := ro.FetchSession(it.Key(), it.Start(), it.End())
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, fmt.Sprintf("%x[%d,%d]=%x fetch=%x", it.Key(), it.Start(), it.End(), it.Value(), fetched))
	}
	if err := it.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}
