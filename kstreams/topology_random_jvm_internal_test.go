package kstreams

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestRandomTopologiesMatchKafkaStreams44 interprets the random DSL programs
// of testdata/jvmcapture/random (written by gen.py, which also wrote their
// Java twin) and compares Describe with what Kafka Streams 4.4.0 printed for
// the twin. The programs mix branching, renaming, repartitioning and
// windowed aggregations, so they exercise the naming counter and the
// TreeSet/HashMap ordering of the description on larger graphs.
func TestRandomTopologiesMatchKafkaStreams44(t *testing.T) {
	specs, _ := filepath.Glob(filepath.Join("testdata", "jvmcapture", "random", "*.spec"))
	if len(specs) == 0 {
		t.Fatal("no random programs")
	}
	for _, specPath := range specs {
		name := strings.TrimSuffix(filepath.Base(specPath), ".spec")
		t.Run(name, func(t *testing.T) {
			spec, err := os.ReadFile(specPath)
			if err != nil {
				t.Fatal(err)
			}
			want, err := os.ReadFile(strings.TrimSuffix(specPath, ".spec") + ".describe.txt")
			if err != nil {
				t.Fatal(err)
			}
			b := interpret(t, string(spec))
			topo, err := b.Build()
			var got string
			if err != nil {
				got = "ERROR " + err.Error() + "\n"
			} else {
				got = topo.Describe().String()
			}
			if got != string(want) {
				t.Errorf("program:\n%s\ngot\n%s\nkafka streams 4.4.0\n%s", spec, got, want)
			}
		})
	}
}

// asStrings retypes a stream for the interpreter; the topology is only
// described, never run, so the value types do not matter.
func asStrings[K, V any](s *KStream[K, V]) *KStream[string, string] {
	return &KStream[string, string]{b: s.b, name: s.name, key: s.key, val: s.val, repartitionRequired: s.repartitionRequired}
}

func interpret(t *testing.T, spec string) *StreamsBuilder {
	b := NewStreamsBuilder()
	vars := map[string]*KStream[string, string]{}
	named := func(n string) []Named {
		if n == "" {
			return nil
		}
		return []Named{Named(n)}
	}
	for _, line := range strings.Split(strings.TrimSpace(spec), "\n") {
		f := strings.Fields(line)
		arg := func(i int) string {
			if i < len(f) {
				return f[i]
			}
			return ""
		}
		switch {
		case f[0] == "to":
			vars[f[1]].To(f[2], Produced[string, string]{Name: arg(3)})
		case f[0] == "foreach":
			vars[f[1]].Foreach(func(string, string) {}, named(arg(2))...)
		case f[2] == "merge":
			vars[f[0]] = vars[f[3]].Merge(vars[f[4]], named(arg(5))...)
		case f[2] == "stream":
			vars[f[0]] = Stream[string, string](b, strings.Split(f[3], ","))
		case len(f) >= 5 && strings.HasPrefix(arg(5), "grouped="):
			kind, by, src := f[2], f[3], vars[f[4]]
			kv := map[string]string{}
			for _, p := range f[5:] {
				k, v, _ := strings.Cut(p, "=")
				kv[k] = v
			}
			var g *KGroupedStream[string, string]
			grouped := Grouped[string, string]{Name: kv["grouped"]}
			if by == "key" {
				g = src.GroupByKey(grouped)
			} else {
				g = GroupBy(src, func(_, v string) string { return v }, grouped)
			}
			var countOpts []AggOption[string, int64]
			var reduceOpts []AggOption[string, string]
			if kv["named"] != "" {
				countOpts = append(countOpts, Named(kv["named"]))
				reduceOpts = append(reduceOpts, Named(kv["named"]))
			}
			if kv["store"] != "" || kv["anon"] == "1" || (kind == "reduce" && kv["named"] != "") {
				countOpts = append(countOpts, Materialized[string, int64]{Name: kv["store"]})
				reduceOpts = append(reduceOpts, Materialized[string, string]{Name: kv["store"]})
			}
			switch kind {
			case "count":
				vars[f[0]] = asStrings(g.Count(countOpts...).ToStream())
			case "reduce":
				vars[f[0]] = asStrings(g.Reduce(func(x, _ string) string { return x }, reduceOpts...).ToStream())
			case "windowed":
				vars[f[0]] = asStrings(WindowedBy(g, TimeWindowsOfSizeWithNoGrace(10*time.Millisecond)).Count(countOpts...).ToStream())
			case "session":
				vars[f[0]] = asStrings(WindowedBySession(g, SessionWindowsOfInactivityGapWithNoGrace(10*time.Millisecond)).Count(countOpts...).ToStream())
			default:
				t.Fatalf("unknown aggregation %q", kind)
			}
		default:
			op, src, n := f[2], vars[f[3]], named(arg(4))
			id := func(v string) string { return v }
			switch op {
			case "filter":
				vars[f[0]] = src.Filter(func(string, string) bool { return true }, n...)
			case "filterNot":
				vars[f[0]] = src.FilterNot(func(string, string) bool { return false }, n...)
			case "mapValues":
				vars[f[0]] = MapValues(src, id, n...)
			case "map":
				vars[f[0]] = Map(src, func(k, v string) (string, string) { return k, v }, n...)
			case "flatMap":
				vars[f[0]] = FlatMap(src, func(k, v string) []KeyValue[string, string] { return []KeyValue[string, string]{{k, v}} }, n...)
			case "flatMapValues":
				vars[f[0]] = FlatMapValues(src, func(v string) []string { return []string{v} }, n...)
			case "selectKey":
				vars[f[0]] = SelectKey(src, func(_, v string) string { return v }, n...)
			case "peek":
				vars[f[0]] = src.Peek(func(string, string) {}, n...)
			default:
				t.Fatalf("unknown op %q", op)
			}
		}
	}
	return b
}
