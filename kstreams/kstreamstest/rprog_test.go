package kstreamstest_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/kstreamstest"
	"github.com/stoatflow/stoatflow/kstreams/serde"
)

// TestRandomProgramsMatchKafkaStreams44 runs the random programs of
// testdata/jvmcapture/rprog (branches, merges, key changes, repartitioned
// counts and reduces) with their random input, and compares every record of
// every topic written (sinks, repartition topics, changelogs) with what Kafka
// Streams 4.4.0's TopologyTestDriver wrote for the Java twin (gen.py writes
// both).
func TestRandomProgramsMatchKafkaStreams44(t *testing.T) {
	specs, _ := filepath.Glob(filepath.Join("..", "testdata", "jvmcapture", "rprog", "*.spec"))
	if len(specs) == 0 {
		t.Fatal("no programs")
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
				b := kstreams.NewStreamsBuilder()
				vars := map[string]*kstreams.KStream[string, string]{}
				var inputs [][]string
				for _, line := range strings.Split(strings.TrimSpace(string(spec)), "\n") {
					f := strings.Fields(line)
					switch {
					case f[0] == "input":
						inputs = append(inputs, f[1:])
					case f[0] == "to":
						vars[f[1]].To(f[2])
					case f[0] == "countKey":
						vars[f[2]].GroupByKey().Count().ToStream().To(f[1], kstreams.ProducedWith[string, int64](serde.String{}, serde.Long{}))
					case f[0] == "countBy":
						kstreams.GroupBy(vars[f[2]], func(_, x string) string { return x[:1] }).Count().ToStream().
							To(f[1], kstreams.ProducedWith[string, int64](serde.String{}, serde.Long{}))
					case f[0] == "reduce":
						vars[f[2]].GroupByKey().Reduce(func(x, y string) string { return x + y }).ToStream().To(f[1])
					case f[2] == "stream":
						vars[f[0]] = kstreams.Stream(b, []string{f[3]}, kstreams.ConsumedWith[string, string](serde.String{}, serde.String{}))
					case f[2] == "merge":
						vars[f[0]] = vars[f[3]].Merge(vars[f[4]])
					default:
						s := vars[f[3]]
						switch f[2] {
						case "filter":
							vars[f[0]] = s.Filter(func(_, x string) bool { return len(x)%2 == 0 })
						case "filterNot":
							vars[f[0]] = s.FilterNot(func(_, x string) bool { return strings.HasPrefix(x, "b") })
						case "mapValues":
							vars[f[0]] = kstreams.MapValues(s, func(x string) string { return x + "m" })
						case "map":
							vars[f[0]] = kstreams.Map(s, func(k, x string) (string, string) { return x, k })
						case "flatMap":
							vars[f[0]] = kstreams.FlatMap(s, func(k, x string) []kstreams.KeyValue[string, string] {
								return []kstreams.KeyValue[string, string]{{Key: k + "1", Value: x}, {Key: x, Value: k}}
							})
						case "flatMapValues":
							vars[f[0]] = kstreams.FlatMapValues(s, func(x string) []string { return []string{x, x + "f"} })
						case "selectKey":
							vars[f[0]] = kstreams.SelectKey(s, func(_, x string) string { return x[:1] })
						case "peek":
							vars[f[0]] = s.Peek(func(string, string) {})
						default:
							t.Fatalf("unknown op %q", f[2])
						}
					}
				}
				d := build(t, b, kstreamstest.Config{ApplicationID: "app", Caching: caching,
					DefaultKeySerde: serde.Erase[string](serde.String{}), DefaultValueSerde: serde.Erase[string](serde.String{})})
				for _, in := range inputs {
					ts, err := strconv.ParseInt(in[3], 10, 64)
					if err != nil {
						t.Fatal(err)
					}
					pipe(t, d, in[0], in[1], in[2], ts)
				}
				if got := transcript(d, d.Topics()); got != string(want) {
					t.Errorf("program\n%s\n--- got ---\n%s--- kafka streams ---\n%s", spec, got, want)
				}
			})
		}
	}
}
