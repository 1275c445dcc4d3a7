package kstreams_test

import (
	"slices"
	"testing"

	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/serde"
)

// TestStoreSourceTopicsFollowTheFirstConnectedProcessor: as Kafka Streams'
// sourceTopicsForStore, a store's topics are those upstream of the first
// processor connected to it: a joined table's store keeps its own topic,
// not the stream's that its join also reads; a count behind a repartition
// reads the repartition topic; a merge gives both topics; a global store
// and an unknown one have none.
func TestStoreSourceTopicsFollowTheFirstConnectedProcessor(t *testing.T) {
	b := kstreams.NewStreamsBuilder()
	str := kstreams.ConsumedWith[string, string](serde.String{}, serde.String{})
	tbl := kstreams.Table(b, "table-in", str, kstreams.MaterializedAs[string, string]("table-store"))
	s := kstreams.Stream(b, []string{"stream-in"}, str)
	kstreams.StreamTableJoin(s, tbl, func(_, v, tv string) string { return v + tv }).To("joined")
	kstreams.GroupBy(s, func(_, v string) string { return v }).Count(kstreams.MaterializedAs[string, int64]("counts"))
	other := kstreams.Stream(b, []string{"other-in"}, str)
	s.Merge(other).GroupByKey().Count(kstreams.MaterializedAs[string, int64]("merged"))
	kstreams.GlobalTable(b, "global-in", str, kstreams.MaterializedAs[string, string]("global-store"))
	topo, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	for store, want := range map[string][]kstreams.TopicRef{
		"table-store": {{Name: "table-in"}},
		"counts":      {{Name: "counts-repartition", Internal: true}},
		"merged":      {{Name: "stream-in"}, {Name: "other-in"}},
	} {
		got, ok := topo.StoreSourceTopics(store)
		if !ok || !slices.Equal(got, want) {
			t.Errorf("StoreSourceTopics(%s) = %v %v, want %v", store, got, ok, want)
		}
	}
	for _, store := range []string{"global-store", "no-such-store"} {
		if got, ok := topo.StoreSourceTopics(store); ok {
			t.Errorf("StoreSourceTopics(%s) = %v, want none", store, got)
		}
	}
}
