package streams_test

import (
	"strings"
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/examples/versioned"
	"github.com/stoatflow/stoatflow/internal/testkafka"
	"github.com/stoatflow/stoatflow/state"
	"github.com/stoatflow/stoatflow/streams"
)

// TestKfakeVersionedTableRestoresItsHistory: the versioned table of the
// versioned example keeps an out-of-order update as history; an instance
// on an empty state directory restores every version from the changelog,
// its interactive queries see them (as of a time and over a range), and a
// late stream record joins the version valid at its time.
func TestKfakeVersionedTableRestoresItsHistory(t *testing.T) {
	_, addr := startBroker(t)
	createTopics(t, addr, 1, "events", "table", "out")
	args := map[string]string{"input": "events", "table": "table", "output": "out"}
	build := func() *streams.KafkaStreams {
		topo, err := versioned.Build(args)
		if err != nil {
			t.Fatal(err)
		}
		return startApp(t, topo, appConfig(t, addr, "versioned", t.TempDir()))
	}
	base := time.Now().Add(-time.Minute).Truncate(time.Second)
	at := func(sec int) time.Time { return base.Add(time.Duration(sec) * time.Second) }
	ks := build()
	testkafka.Produce(t, addr,
		testkafka.Record{Topic: "table", Key: []byte("k"), Value: []byte("t20"), Timestamp: at(20)},
		testkafka.Record{Topic: "table", Key: []byte("k"), Value: []byte("t5"), Timestamp: at(5)})
	time.Sleep(time.Second) // the table first: a task picks by timestamp only among the records fetched
	testkafka.Produce(t, addr, testkafka.Record{Topic: "events", Key: []byte("k"), Value: []byte("a"), Timestamp: at(10)})
	if _, err := testkafka.ReadCommitted(addr, "out", 1, 30*time.Second, time.Second); err != nil {
		t.Fatal(err)
	}
	closeApp(t, ks)

	ks = build() // a new state directory: every version comes back from the changelog
	defer closeApp(t, ks)
	stores := ks.LocalStores(versioned.Store)
	if len(stores) != 1 {
		t.Fatalf("LocalStores(%s) = %+v", versioned.Store, stores)
	}
	vs, ok := stores[0].Store.(state.VersionedKeyValueStore)
	if !ok {
		t.Fatalf("store is a %T", stores[0].Store)
	}
	ro := vs.ReadOnly(state.ReadCommitted)
	r, err := ro.GetAsOf([]byte("k"), at(7).UnixMilli())
	if err != nil || r == nil || string(r.Value) != "t5" || !r.HasValidTo || r.ValidTo != at(20).UnixMilli() {
		t.Fatalf("GetAsOf(7 s) = %+v, %v", r, err)
	}
	all, err := ro.Versions([]byte("k"), 0, at(30).UnixMilli(), true)
	if err != nil || len(all) != 2 || string(all[0].Value) != "t5" || string(all[1].Value) != "t20" {
		t.Fatalf("Versions = %+v, %v", all, err)
	}
	testkafka.Produce(t, addr, testkafka.Record{Topic: "events", Key: []byte("k"), Value: []byte("late"), Timestamp: at(6)})
	got, err := testkafka.ReadCommitted(addr, "out", 2, 30*time.Second, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	var values []string
	for _, r := range got {
		values = append(values, string(r.Value))
	}
	if want := "left:a+t5 left:late+t5"; strings.Join(values, " ") != want {
		t.Fatalf("output %q, want %q", strings.Join(values, " "), want)
	}
}
