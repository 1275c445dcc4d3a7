package kstreams_test

import (
	"testing"

	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/serde"
)

// DSL stores without a Materialized store type leave the engine to
// dsl.store.suppliers.class; an explicit one, and every Processor API
// store, keep their own.
func TestStoreTypeLeftToTheDSLDefault(t *testing.T) {
	b := kstreams.NewStreamsBuilder()
	src := kstreams.Stream(b, []string{"in"}, kstreams.ConsumedWith[string, string](serde.String{}, serde.String{}))
	src.GroupByKey().Count(kstreams.MaterializedAs[string, int64]("plain"))
	src.GroupByKey().Count(kstreams.Materialized[string, int64]{Name: "explicit", StoreType: kstreams.RocksDB})
	b.AddStateStore(kstreams.KeyValueStoreBuilder[string, string]("papi", serde.String{}, serde.String{}))
	topo, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string][2]kstreams.StoreType{
		"plain":    {kstreams.DefaultStore, kstreams.InMemory},
		"explicit": {kstreams.RocksDB, kstreams.RocksDB},
		"papi":     {kstreams.RocksDB, kstreams.RocksDB},
	} {
		s, ok := topo.Store(name)
		if !ok {
			t.Fatalf("no store %s", name)
		}
		if s.Type != want[0] || s.Type.Resolve(kstreams.InMemory) != want[1] {
			t.Errorf("store %s: type %v resolving to %v under in-memory DSL stores, want %v and %v",
				name, s.Type, s.Type.Resolve(kstreams.InMemory), want[0], want[1])
		}
	}
	if got := kstreams.DefaultStore.Resolve(kstreams.DefaultStore); got != kstreams.RocksDB {
		t.Errorf("DefaultStore.Resolve(DefaultStore) = %v, want RocksDB", got)
	}
}
