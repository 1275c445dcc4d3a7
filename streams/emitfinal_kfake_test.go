package streams_test

import (
	"encoding/binary"
	"fmt"
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/internal/testkafka"
	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/serde"
)

// finalCountTopology counts per key in windows of 10 s advancing by 5 with
// 5 s of grace, emitting each window when it closes. The store keeps
// windows a minute: closed windows stay in it, so only the committed close
// time of the last emission keeps a restarted task from emitting them again.
func finalCountTopology(t *testing.T, input, output string) *kstreams.Topology {
	t.Helper()
	b := kstreams.NewStreamsBuilder()
	events := kstreams.Stream[string, string](b, []string{input})
	w := kstreams.WindowedBy(events.GroupByKey(), kstreams.TimeWindowsOfSizeAndGrace(10*time.Second, 5*time.Second).AdvanceBy(5*time.Second))
	counts := w.EmitStrategy(kstreams.EmitOnWindowClose).Count(kstreams.Materialized[string, int64]{Name: "final-counts", Retention: time.Minute})
	keySerde := serde.TimeWindowed[string]{Inner: serde.String{}, WindowSize: 10_000}
	counts.ToStream().To(output, kstreams.ProducedWith[kstreams.Windowed[string], int64](keySerde, serde.Long{}))
	topo, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return topo
}

// TestKfakeEmitOnWindowCloseResumesFromTheCommittedCloseTime: an instance
// stops after emitting some windows; the next one, on a fresh state
// directory, restores the store from the changelog and reads the close
// time of the last emission from the committed offsets' metadata, so the
// output holds every closed window exactly once, with its final count,
// across the restart.
func TestKfakeEmitOnWindowCloseResumesFromTheCommittedCloseTime(t *testing.T) {
	_, addr := startBroker(t)
	createTopics(t, addr, 1, "in", "out")
	base := int64(1_700_000_000_000)
	base -= base % 10_000
	feed := func(from, to int) {
		var recs []testkafka.Record
		for i := from; i < to; i++ {
			recs = append(recs, testkafka.Record{Topic: "in", Partition: 0, Key: []byte(fmt.Sprintf("k%d", i%3)), Value: []byte("x"),
				Timestamp: time.UnixMilli(base + int64(i)*1000)})
		}
		testkafka.Produce(t, addr, recs...)
	}
	// Record i at base + i s, key k(i%3): window [base+5s*j, +10 s) of a
	// key counts the records of that key in it, and is emitted once stream
	// time reaches its end plus 5 s.
	want := map[string]int64{}
	const n = 120
	for i := range n {
		ts := base + int64(i)*1000
		for start := ts - ts%5000 - 5000; start <= ts; start += 5000 {
			if start+10_000 > ts && start+15_000 <= base+int64(n-1)*1000 {
				want[fmt.Sprintf("k%d@%d", i%3, start)]++
			}
		}
	}
	extra := "__emit.interval.ms.kstreams.windowed.aggregation__=0"
	ks := startApp(t, finalCountTopology(t, "in", "out"), appConfig(t, addr, "final", t.TempDir(), extra))
	feed(0, 60)
	first, err := testkafka.ReadCommitted(addr, "out", 1, 30*time.Second, 2*time.Second)
	if err != nil || len(first) == 0 {
		t.Fatalf("the first instance emitted nothing: %v", err)
	}
	closeApp(t, ks)
	ks = startApp(t, finalCountTopology(t, "in", "out"), appConfig(t, addr, "final", t.TempDir(), extra))
	feed(60, n)
	recs, err := testkafka.ReadCommitted(addr, "out", len(want), 30*time.Second, 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	closeApp(t, ks)
	got := map[string]int64{}
	for _, r := range recs {
		key, start, err := serde.SplitTimeWindowed(r.Key)
		if err != nil {
			t.Fatal(err)
		}
		w := fmt.Sprintf("%s@%d", key, start)
		if _, dup := got[w]; dup {
			t.Errorf("window %s emitted twice", w)
		}
		got[w] = int64(binary.BigEndian.Uint64(r.Value))
	}
	for w, c := range want {
		if got[w] != c {
			t.Errorf("window %s: emitted %d, want %d", w, got[w], c)
		}
	}
	if len(got) != len(want) {
		t.Errorf("%d windows emitted, want %d", len(got), len(want))
	}
	t.Logf("%d windows: %d emitted by the first instance, %d after the restart", len(want), len(first), len(recs)-len(first))
}
