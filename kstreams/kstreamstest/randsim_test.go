package kstreamstest_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/kstreamstest"
	"github.com/stoatflow/stoatflow/kstreams/serde"
)

// TestRandomAggregationsMatchKafkaStreams44 pipes the random inputs of
// testdata/jvmcapture/randsim (out-of-order timestamps, late records, several
// keys) through a count per key, per time window (tumbling or hopping, with
// grace) or per session, and compares every output and changelog record with
// what Kafka Streams 4.4.0's TopologyTestDriver wrote (RandSim.java).
func TestRandomAggregationsMatchKafkaStreams44(t *testing.T) {
	specs, _ := filepath.Glob(filepath.Join("..", "testdata", "jvmcapture", "randsim", "*.spec"))
	if len(specs) == 0 {
		t.Fatal("no scenarios")
	}
	for _, path := range specs {
		for _, caching := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/caching=%v", strings.TrimSuffix(filepath.Base(path), ".spec"), caching), func(t *testing.T) {
				spec, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				want, err := os.ReadFile(capture(strings.TrimSuffix(path, ".spec"), caching))
				if err != nil {
					t.Fatal(err)
				}
				lines := strings.Split(strings.TrimSpace(string(spec)), "\n")
				h := strings.Fields(lines[0])
				ms := func(i int) time.Duration {
					n, err := strconv.Atoi(h[i])
					if err != nil {
						t.Fatal(err)
					}
					return time.Duration(n) * time.Millisecond
				}
				b := kstreams.NewStreamsBuilder()
				g := stringStream(b, "in").GroupByKey()
				counts := kstreams.MaterializedAs[string, int64]("counts")
				switch h[0] {
				case "time":
					kstreams.WindowedBy(g, kstreams.TimeWindowsOfSizeAndGrace(ms(1), ms(3)).AdvanceBy(ms(2))).Count(counts).ToStream().
						To("out", kstreams.ProducedWith[kstreams.Windowed[string], int64](serde.TimeWindowed[string]{Inner: serde.String{}, WindowSize: ms(1).Milliseconds()}, serde.Long{}))
				case "session":
					kstreams.WindowedBySession(g, kstreams.SessionWindowsOfInactivityGapAndGrace(ms(1), ms(2))).Count(counts).ToStream().
						To("out", kstreams.ProducedWith[kstreams.Windowed[string], int64](serde.SessionWindowed[string]{Inner: serde.String{}}, serde.Long{}))
				default:
					g.Count(counts).ToStream().To("out", kstreams.ProducedWith[string, int64](serde.String{}, serde.Long{}))
				}
				d := build(t, b, kstreamstest.Config{ApplicationID: "app", Caching: caching})
				for _, l := range lines[1:] {
					f := strings.Fields(l)
					ts, err := strconv.ParseInt(f[1], 10, 64)
					if err != nil {
						t.Fatal(err)
					}
					pipe(t, d, "in", f[0], "v", ts)
				}
				if got := transcript(d, []string{"out", "app-counts-changelog"}); got != string(want) {
					t.Errorf("scenario %s\n--- got ---\n%s--- kafka streams ---\n%s", spec, got, want)
				}
			})
		}
	}
}
