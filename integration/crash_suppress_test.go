package integration

import (
	"fmt"
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/serde"
)

// suppressCrashName counts records per key in 100 ms tumbling windows
// without grace (store "counts"), writes every count to "raw" and each
// window's final count, suppressed until the window closes (buffer
// "final-store"), to "output". Both as Kafka's time-windowed key and a
// Long.
const suppressCrashName = "suppresscrash"

// buildSuppressCrash builds the suppressCrashName topology.
func buildSuppressCrash(args map[string]string) (*kstreams.Topology, error) {
	b := kstreams.NewStreamsBuilder()
	events := kstreams.Stream[string, string](b, []string{args["input"]})
	counts := kstreams.WindowedBy(events.GroupByKey(), kstreams.TimeWindowsOfSizeWithNoGrace(100*time.Millisecond)).
		Count(kstreams.MaterializedAs[string, int64]("counts"))
	produced := kstreams.ProducedWith[kstreams.Windowed[string], int64](serde.TimeWindowed[string]{Inner: serde.String{}, WindowSize: 100}, serde.Long{})
	counts.ToStream().To(args["raw"], produced)
	counts.Suppress(kstreams.UntilWindowCloses(kstreams.Unbounded()).WithName("final")).ToStream().To(args["output"], produced)
	return b.Build()
}

var suppressCrashWorkload = crashWorkload{
	name: "suppress", topology: suppressCrashName, example: "suppress", outputs: []string{"output", "raw"},
	storeOutput: map[string]string{"counts": "raw"}, unqueried: []string{"final-store"},
	partitions: 2, stepMs: 5, perRound: 10, perTick: 10,
	input: func(i int) (string, string) { return fmt.Sprintf("key-%d", crashKey(i, 8)), "v" },
}

// TestCrashSuppressExactlyOnce is the crash test of a suppression: its
// in-memory buffer comes back from its changelog after every kill, and
// every closed window's final count is in the output exactly once, none
// lost and none twice, beside every intermediate count.
func TestCrashSuppressExactlyOnce(t *testing.T) {
	r := newCrashRun(t, suppressCrashWorkload, "exactly_once_v2", nil)
	r.runKills(crashWorkloadKills(t, defaultCrashKills))
}
