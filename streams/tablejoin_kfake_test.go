package streams_test

import (
	"maps"
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/examples/joins"
	"github.com/stoatflow/stoatflow/internal/testkafka"
	"github.com/stoatflow/stoatflow/state"
)

// TestKfakeTableJoinResultIsQueryable: the result of a table-table join
// materialized under a name is a store like any other: both tables' rows
// (keyed, so co-partitioned over two partitions) join on the runtime, and
// the result store answers at both isolation levels with the joined rows,
// a deleted partner's row gone.
func TestKfakeTableJoinResultIsQueryable(t *testing.T) {
	_, addr := startBroker(t)
	createTopics(t, addr, 2, "left", "right", "out")
	topo, err := joins.BuildTableTable(map[string]string{"input": "left", "right": "right", "output": "out"})
	if err != nil {
		t.Fatal(err)
	}
	ks := startApp(t, topo, appConfig(t, addr, "tablejoin", t.TempDir()))
	base := time.UnixMilli(1_700_000_000_000)
	rec := func(topic, k, v string, sec int) testkafka.Record {
		r := testkafka.Record{Topic: topic, Partition: testkafka.AnyPartition, Key: []byte(k), Timestamp: base.Add(time.Duration(sec) * time.Second)}
		if v != "" {
			r.Value = []byte(v)
		}
		return r
	}
	testkafka.Produce(t, addr,
		rec("left", "k1", "a1", 1), rec("left", "k2", "a2", 2), rec("left", "k3", "a3", 3), rec("left", "k4", "a4", 4))
	testkafka.Produce(t, addr,
		rec("right", "k1", "b1", 5), rec("right", "k2", "b2", 6), rec("right", "k3", "b3", 7), rec("right", "k5", "b5", 8),
		rec("right", "k3", "", 9))
	testkafka.Produce(t, addr, rec("left", "k1", "a1x", 10))
	want := map[string]string{"k1": "inner:a1x+b1", "k2": "inner:a2+b2"}
	for _, iso := range []state.IsolationLevel{state.ReadCommitted, state.ReadUncommitted} {
		var got map[string]string
		waitFor(t, time.Minute, "the join result store at "+iso.String(), func() bool {
			got = map[string]string{}
			for _, ls := range ks.LocalStores(joins.InnerStore) {
				it, err := ls.Store.(state.KeyValueStore).ReadOnly(iso).All()
				if err != nil {
					t.Fatal(err)
				}
				for it.Next() {
					got[string(it.Key())] = string(it.Value()[8:]) // timestamp ++ value
				}
				if err := it.Err(); err != nil {
					t.Fatal(err)
				}
				it.Close()
			}
			return maps.Equal(got, want)
		})
	}
	closeApp(t, ks)
}
