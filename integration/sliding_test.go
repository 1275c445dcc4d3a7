package integration

import (
	"path/filepath"
	"testing"

	"github.com/stoatflow/stoatflow/examples/slidingcount"
	"github.com/stoatflow/stoatflow/internal/testkafka"
	"github.com/stoatflow/stoatflow/kstreams/kstreamstest"
	"github.com/stoatflow/stoatflow/kstreams/serde"
)

// TestSlidingWindowsMatchKafkaStreams: a count and a reduce over sliding
// windows (ten seconds, five of grace) on both engines: records in and out
// of order, a record that creates right windows for earlier ones, a late
// record past the grace period, a null value and a null key (both dropped).
// Compared: output per partition (time-windowed keys), both changelogs,
// internal topics and describe(). The expected counts come from the same
// topology on the test driver; the comparison is with Kafka Streams. Run
// twice: emitting every update, and with emitStrategy(onWindowClose)
// (slidingcountfinal), each window once with its final result.
func TestSlidingWindowsMatchKafkaStreams(t *testing.T) {
	t.Parallel()
	for _, name := range []string{slidingcount.Name, slidingcount.FinalName} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			slidingDifferential(t, name)
		})
	}
}

// slidingDifferential runs one of the sliding topologies on the events of
// TestSlidingWindowsMatchKafkaStreams; its in-process run gives the counts.
func slidingDifferential(t *testing.T, app string) {
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	a, b, x := str("a"), str("b"), str("x")
	events := []tombstoneEvent{
		{a, str("1"), 1}, {a, str("2"), 2}, {b, str("3"), 3}, {a, str("4"), 5}, {a, str("5"), 14},
		{a, str("6"), 9},  // out of order: joins windows on both sides
		{a, str("7"), 30}, // stream time 30 s: windows ending before 25 s are closed
		{a, str("8"), 8},  // late: its window [8, 18] is closed, dropped
		{b, str("9"), 31}, {a, nil, 32}, {nil, x, 33}, {a, str("10"), 35}, {b, str("11"), 36},
	}
	build := topology(t, app)
	topo, err := build(map[string]string{"input": "in", "output": "out"})
	if err != nil {
		t.Fatal(err)
	}
	d, err := kstreamstest.New(topo, kstreamstest.Config{ApplicationID: "model",
		DefaultKeySerde: serde.Erase[string](serde.String{}), DefaultValueSerde: serde.Erase[string](serde.String{})})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	var recs []testkafka.Record
	for _, e := range events {
		r := e.record()
		recs = append(recs, r)
		if err := d.Pipe("in", r.Key, r.Value, r.Timestamp.UnixMilli()); err != nil {
			t.Fatal(err)
		}
	}
	outputs := len(d.Records("out"))
	counts, values := len(d.Changelog(slidingcount.CountsStore)), len(d.Changelog(slidingcount.ValuesStore))
	if outputs < 10 || len(d.Dropped()) != 6 {
		t.Fatalf("the input must make windows and drop three records in each aggregation: %d outputs, dropped %+v", outputs, d.Dropped())
	}
	runDifferential(t, diffCase{
		app: app, props: filepath.Join(root, "examples", "slidingcount", "streams.properties"),
		input: recs, outputs: outputs,
		changelogs: map[string]int{slidingcount.CountsStore + "-changelog": counts, slidingcount.ValuesStore + "-changelog": values},
	})
}
