package suppress

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/kstreamstest"
	"github.com/stoatflow/stoatflow/kstreams/serde"
)

var args = map[string]string{"input": "suppress-input", "output": "suppress-output"}

// TestDescribeMatchesKafkaStreams compares describe() with what Kafka
// Streams 4.4 printed for the twins (stoatflow-reference APP --describe
// --arg input=suppress-input --arg output=suppress-output).
func TestDescribeMatchesKafkaStreams(t *testing.T) {
	for name, build := range map[string]func(map[string]string) (*kstreams.Topology, error){
		FinalName: BuildFinal, TimeLimitName: BuildTimeLimit, BytesName: BuildBytes,
	} {
		topo, err := build(args)
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(filepath.Join("testdata", name+".describe.txt"))
		if err != nil {
			t.Fatal(err)
		}
		if got := topo.Describe().String(); got != string(want) {
			t.Errorf("%s: describe() differs from Kafka Streams 4.4:\n--- got\n%s--- want\n%s", name, got, want)
		}
	}
}

type event struct {
	key, value string
	ms         int64
}

func run(t *testing.T, build func(map[string]string) (*kstreams.Topology, error), events []event) []string {
	t.Helper()
	topo, err := build(args)
	if err != nil {
		t.Fatal(err)
	}
	d, err := kstreamstest.New(topo, kstreamstest.Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	in := kstreamstest.NewInputTopic(d, args["input"], serde.String{}, serde.String{})
	for _, e := range events {
		if err := in.Pipe(e.key, e.value, e.ms); err != nil {
			t.Fatal(err)
		}
	}
	out, err := kstreamstest.ReadOutput(d, args["output"], serde.String{}, serde.String{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range out {
		got = append(got, r.Key+"="+r.Value)
	}
	return got
}

func TestFinalEmitsOneCountPerClosedWindow(t *testing.T) {
	got := run(t, BuildFinal, []event{{"a", "x", 1000}, {"a", "x", 4000}, {"a", "x", 12000}, {"a", "x", 30000}})
	// The session [1,4] closes at 11 s (its end plus gap and grace), so the
	// record at 12 s emits it; the one at 30 s closes the windows [0,10)
	// and [10,20) (at 15 s and 25 s) and the session [12,12] (at 19 s).
	// What contains 30 s stays open.
	want := []string{"s:a@1000/4000=2", "t:a@0=2", "t:a@10000=1", "s:a@12000/12000=1"}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("got %v, want %v", got, want)
			break
		}
	}
}

func TestTimeLimitEmitsTheOldestKeyWhenFull(t *testing.T) {
	got := run(t, BuildTimeLimit, []event{{"a", "1", 1}, {"b", "2", 2}, {"a", "3", 3}, {"c", "4", 4}, {"d", "5", 5}})
	if len(got) != 1 || got[0] != "a=3" {
		t.Errorf("got %v, want [a=3]", got)
	}
}
