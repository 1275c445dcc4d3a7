package kstreamstest

import (
	"fmt"
	"testing"

	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/serde"
	"github.com/stoatflow/stoatflow/state"
)

// TestLRUMapRestoresTheChangelogsOrder: a store of Stores.lruMap restored
// from the changelog its task wrote holds the same entries, ordered by
// their last write, whatever the task's reads made of the order; the task's
// own store takes that order when it rolls back, as Kafka Streams' store
// takes it when an aborted task is restored. Until then it keeps the
// order its reads made, as Kafka's running store does. The order shows in
// which keys new puts evict.
func TestLRUMapRestoresTheChangelogsOrder(t *testing.T) {
	str := serde.String{}
	run := func(t *testing.T) (*Driver, state.LRUKeyValueStore) {
		t.Helper()
		topo := kstreams.NewTopology()
		probe := kstreams.ProcessorFunc(func(ctx kstreams.ProcessorContext, r kstreams.Record) error {
			st, err := ctx.StateStore("lru")
			if err != nil {
				return err
			}
			kv := st.(*kstreams.KeyValueStore)
			if r.Value == "get" {
				_, _, err := kv.Get(r.Key)
				return err
			}
			return kv.Put(r.Key, r.Value)
		})
		for _, err := range []error{topo.AddSource("source", kstreams.SourceSerdes[string, string](str, str), "in"),
			topo.AddProcessor("probe", probe.Supplier(), "source"),
			topo.AddStateStore(kstreams.KeyValueStoreBuilder[string, string]("lru", str, str).InMemoryLRU(3), "probe")} {
			if err != nil {
				t.Fatal(err)
			}
		}
		d, err := New(topo, Config{ApplicationID: "app"})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = d.Close() })
		for i, kv := range [][2]string{{"a", "1"}, {"b", "2"}, {"c", "3"}, {"a", "get"}, {"d", "4"}, {"c", "get"}, {"a", "get"}, {"c", "5"}, {"d", "get"}} {
			if err := d.Pipe("in", []byte(kv[0]), []byte(kv[1]), int64(i)); err != nil {
				t.Fatal(err)
			}
		}
		return d, d.stores[kstreams.TaskID{}]["lru"].(state.LRUKeyValueStore)
	}
	evictions := func(t *testing.T, s state.LRUKeyValueStore) []string {
		t.Helper()
		var out []string
		for _, k := range []string{"x", "y", "z"} {
			ev, err := s.PutEvicting([]byte(k), []byte("new"))
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, string(ev))
		}
		return out
	}
	entries := func(t *testing.T, s state.KeyValueStore) string {
		t.Helper()
		it, err := s.ReadOnly(state.ReadCommitted).All()
		if err != nil {
			t.Fatal(err)
		}
		defer it.Close()
		var out []string
		for it.Next() {
			out = append(out, string(it.Key())+"="+string(it.Value()))
		}
		return fmt.Sprint(out)
	}

	// Writes: a b c, d (evicting b), c; reads moved a, then d last.
	t.Run("running", func(t *testing.T) {
		_, live := run(t)
		if got := fmt.Sprint(evictions(t, live)); got != "[a c d]" {
			t.Errorf("the running store evicts %s, want [a c d]", got)
		}
	})
	t.Run("restored and rolled back", func(t *testing.T) {
		d, live := run(t)
		restored, err := state.NewInMemoryLRUKeyValue(state.LRUOptions{Name: "lru", MaxEntries: 3})
		if err != nil {
			t.Fatal(err)
		}
		defer restored.Close()
		var recs []state.ChangelogRecord
		for _, r := range d.Changelog("lru") {
			recs = append(recs, state.ChangelogRecord{Key: r.Key, Value: r.Value, Timestamp: r.Timestamp})
		}
		if err := restored.ApplyChangelog(recs, state.TopicPartition{Topic: "app-lru-changelog"}, int64(len(recs)-1)); err != nil {
			t.Fatal(err)
		}
		if got, want := entries(t, restored), entries(t, live); got != want {
			t.Fatalf("restored %s, the task's store %s", got, want)
		}
		live.Rollback()
		for name, s := range map[string]state.LRUKeyValueStore{"restored": restored, "rolled back": live} {
			if got := fmt.Sprint(evictions(t, s)); got != "[a d c]" {
				t.Errorf("the %s store evicts %s, want [a d c] (the order of the last writes)", name, got)
			}
		}
	})
}
