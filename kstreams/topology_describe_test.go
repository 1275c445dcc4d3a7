package kstreams_test

import (
	"flag"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/serde"
)

var update = flag.Bool("update", false, "rewrite testdata/*.describe.txt from the current output (never testdata/kafka/ or testdata/jvm/)")

func words(v string) []string { return strings.Fields(strings.ToLower(v)) }

// wordCount is Kafka's WordCountDemo: stream → flatMapValues → groupBy(value) → count → toStream → to.
func wordCount(opts ...kstreams.AggOption[string, int64]) *kstreams.StreamsBuilder {
	b := kstreams.NewStreamsBuilder()
	src := kstreams.Stream(b, []string{"streams-plaintext-input"}, kstreams.ConsumedWith[string, string](serde.String{}, serde.String{}))
	ws := kstreams.FlatMapValues(src, words)
	counts := kstreams.GroupBy(ws, func(_, w string) string { return w }).Count(opts...)
	counts.ToStream().To("streams-wordcount-output", kstreams.ProducedWith[string, int64](serde.String{}, serde.Long{}))
	return b
}

var describeCases = map[string]func() *kstreams.StreamsBuilder{
	"ktable-ops": func() *kstreams.StreamsBuilder {
		b := kstreams.NewStreamsBuilder()
		t := kstreams.Table(b, "tin", kstreams.ConsumedWith[string, string](serde.String{}, serde.String{}))
		f := t.Filter(func(string, string) bool { return true }).
			FilterNot(func(string, string) bool { return false }, kstreams.MaterializedAs[string, string]("not-store"))
		m := kstreams.MapTableValues(f, func(string, string) int32 { return 1 }, kstreams.Named("mv"))
		m2 := kstreams.MapTableValues(m, func(string, int32) string { return "x" },
			kstreams.Materialized[string, string]{KeySerde: serde.String{}, ValueSerde: serde.String{}})
		m2.Filter(func(string, string) bool { return true }, kstreams.Named("f2")).ToStream().To("tout")
		t2 := kstreams.Table(b, "tin2", kstreams.Consumed[string, string]{}, kstreams.MaterializedAs[string, string]("src-store"))
		kstreams.MapTableValues(t2, func(_, v string) string { return v }, kstreams.MaterializedAs[string, string]("mv-store")).
			ToStream(kstreams.Named("ts")).To("tout2")
		return b
	},
	"totable": func() *kstreams.StreamsBuilder {
		b := kstreams.NewStreamsBuilder()
		s := kstreams.Stream(b, []string{"sin"}, kstreams.ConsumedWith[string, string](serde.String{}, serde.String{}))
		s.ToTable().ToStream().To("sout1")
		byValue := func(_, v string) string { return v }
		kstreams.SelectKey(s, byValue).ToTable(kstreams.Named("keyed"), kstreams.MaterializedAs[string, string]("keyed-store")).
			Filter(func(string, string) bool { return true }, kstreams.MaterializedAs[string, string]("f-store")).ToStream().To("sout2")
		kstreams.SelectKey(s, byValue).ToTable().ToStream().To("sout3")
		return b
	},
	"wordcount": func() *kstreams.StreamsBuilder { return wordCount() },
	"wordcount-materialized": func() *kstreams.StreamsBuilder {
		return wordCount(kstreams.MaterializedAs[string, int64]("counts-store"))
	},
	"stateless": func() *kstreams.StreamsBuilder {
		b := kstreams.NewStreamsBuilder()
		src := kstreams.Stream[string, string](b, []string{"input"})
		f := src.Filter(func(_, v string) bool { return v != "" }).FilterNot(func(k, _ string) bool { return k == "skip" })
		m := kstreams.Map(f, func(k, v string) (string, int) { return v, len(k) })
		mv := kstreams.MapValues(m, func(n int) string { return strings.Repeat("x", n) }, kstreams.Named("to-x"))
		mv.Peek(func(string, string) {}).To("output")
		mv.Foreach(func(string, string) {})
		return b
	},
	"windowed-count": func() *kstreams.StreamsBuilder {
		b := kstreams.NewStreamsBuilder()
		src := kstreams.Stream(b, []string{"clicks"}, kstreams.ConsumedWith[string, string](serde.String{}, serde.String{}))
		keyed := kstreams.SelectKey(src, func(_, v string) string { return v })
		w := kstreams.WindowedBy(keyed.GroupByKey(), kstreams.TimeWindowsOfSizeAndGrace(time.Minute, 10*time.Second).AdvanceBy(30*time.Second))
		w.Count().ToStream().To("clicks-per-minute")
		return b
	},
	"session-count": func() *kstreams.StreamsBuilder {
		b := kstreams.NewStreamsBuilder()
		src := kstreams.Stream(b, []string{"events"}, kstreams.ConsumedWith[string, string](serde.String{}, serde.String{}))
		g := kstreams.GroupBy(src, func(_, v string) string { return v }, kstreams.Grouped[string, string]{Name: "by-user"})
		kstreams.WindowedBySession(g, kstreams.SessionWindowsOfInactivityGapWithNoGrace(5*time.Minute)).
			Count(kstreams.MaterializedAs[string, int64]("sessions")).ToStream(kstreams.Named("sessions-out")).To("session-counts")
		return b
	},
	"table-source": func() *kstreams.StreamsBuilder {
		b := kstreams.NewStreamsBuilder()
		kstreams.Table(b, "users", kstreams.ConsumedWith[string, string](serde.String{}, serde.String{})).ToStream().To("users-out")
		kstreams.Table(b, "prices", kstreams.Consumed[string, string]{Name: "prices-source"},
			kstreams.MaterializedAs[string, string]("prices-store")).ToStream().To("prices-out")
		return b
	},
	"reduce-aggregate": func() *kstreams.StreamsBuilder {
		b := kstreams.NewStreamsBuilder()
		src := kstreams.Stream[string, string](b, []string{"a", "b"})
		g := src.GroupByKey()
		g.Reduce(func(x, y string) string { return x + y }).ToStream().To("reduced")
		kstreams.Aggregate(g, func() int64 { return 0 }, func(_, v string, a int64) int64 { return a + int64(len(v)) },
			kstreams.Named("agg"), kstreams.Materialized[string, int64]{ValueSerde: serde.Long{}, LoggingDisabled: true}).
			ToStream().To("lengths")
		return b
	},
	"multi-topic": func() *kstreams.StreamsBuilder {
		b := kstreams.NewStreamsBuilder()
		kstreams.Stream[string, string](b, []string{"topic-z", "topic-a", "t10", "t2", "orders", "Payments", "x", "y", "zz", "alpha",
			"beta", "gamma", "delta", "epsilon", "eta", "theta", "iota", "kappa"}).To("out")
		return b
	},
	"branches": func() *kstreams.StreamsBuilder {
		b := kstreams.NewStreamsBuilder()
		src := kstreams.Stream(b, []string{"in"}, kstreams.ConsumedWith[string, string](serde.String{}, serde.String{}))
		id := func(v string) string { return v }
		yes := func(string, string) bool { return true }
		kstreams.MapValues(src.Filter(yes), id).To("o1")
		src.FilterNot(yes).To("o2")
		p := src.Peek(func(string, string) {})
		kstreams.MapValues(kstreams.SelectKey(p, func(_, v string) string { return v }), id).Filter(yes).
			GroupByKey(kstreams.Grouped[string, string]{Name: "grp"}).Count(kstreams.Named("cnt")).ToStream().
			To("o3", kstreams.ProducedWith[string, int64](serde.String{}, serde.Long{}))
		kstreams.FlatMap(p, func(k, v string) []kstreams.KeyValue[string, string] {
			return []kstreams.KeyValue[string, string]{{Key: k, Value: v}}
		}).To("o4")
		kstreams.Map(p, func(k, v string) (string, string) { return k, v }).Peek(func(string, string) {}).Peek(func(string, string) {}).To("o5")
		src.Foreach(func(string, string) {})
		kstreams.FlatMapValues(src, func(v string) []string { return []string{v} }).To("o6")
		return b
	},
	"windowed-variants": func() *kstreams.StreamsBuilder {
		b := kstreams.NewStreamsBuilder()
		g := kstreams.Stream(b, []string{"in"}, kstreams.ConsumedWith[string, string](serde.String{}, serde.String{})).GroupByKey()
		concat := func(x, y string) string { return x + y }
		kstreams.WindowedBy(g, kstreams.TimeWindowsOfSizeWithNoGrace(5*time.Second)).Reduce(concat).ToStream().To("w-reduce")
		kstreams.WindowedAggregate(kstreams.WindowedBy(g, kstreams.TimeWindowsOfSizeWithNoGrace(5*time.Second)),
			func() string { return "" }, func(_, v, agg string) string { return agg + v },
			kstreams.Named("w-agg"), kstreams.MaterializedAs[string, string]("w-agg-store")).ToStream().To("w-agg")
		kstreams.WindowedBySession(g, kstreams.SessionWindowsOfInactivityGapWithNoGrace(5*time.Second)).Reduce(concat).ToStream().To("s-reduce")
		kstreams.SessionAggregate(kstreams.WindowedBySession(g, kstreams.SessionWindowsOfInactivityGapWithNoGrace(5*time.Second)),
			func() string { return "" }, func(_, v, agg string) string { return agg + v }, func(_, x, y string) string { return x + y }).
			ToStream().To("s-agg")
		return b
	},
	"merge": func() *kstreams.StreamsBuilder {
		b := kstreams.NewStreamsBuilder()
		x := kstreams.Stream[string, string](b, []string{"x"})
		y := kstreams.Stream[string, string](b, []string{"y"})
		z := kstreams.SelectKey(kstreams.Stream[string, string](b, []string{"z"}), func(_, v string) string { return v })
		m := x.Filter(func(string, string) bool { return true }).Merge(y).Merge(z, "m2")
		m.Peek(func(string, string) {}).To("out")
		m.GroupByKey().Count().ToStream().To("counts")
		x.Merge(y).To("xy")
		return b
	},
	"split": func() *kstreams.StreamsBuilder {
		b := kstreams.NewStreamsBuilder()
		m := kstreams.Stream[string, string](b, []string{"in"}).Split().
			Branch(func(_, v string) bool { return strings.HasPrefix(v, "a") }).
			Branch(func(_, v string) bool { return strings.HasPrefix(v, "b") }, kstreams.Branched[string, string]{Name: "bee"}).
			Branch(func(_, v string) bool { return strings.HasPrefix(v, "c") }, kstreams.Branched[string, string]{
				Function: func(s *kstreams.KStream[string, string]) *kstreams.KStream[string, string] {
					return kstreams.MapValues(s, func(v string) string { return v + "!" })
				}}).
			DefaultBranch()
		for _, name := range slices.Sorted(maps.Keys(m)) {
			m[name].To("out-" + name)
		}
		return b
	},
	"split-named": func() *kstreams.StreamsBuilder {
		b := kstreams.NewStreamsBuilder()
		m := kstreams.Stream[string, string](b, []string{"in"}).Split("s-").
			Branch(func(_, v string) bool { return strings.HasPrefix(v, "a") }).
			Branch(func(_, v string) bool { return strings.HasPrefix(v, "b") }, kstreams.Branched[string, string]{Name: "bee"}).
			Branch(func(_, v string) bool { return strings.HasPrefix(v, "c") }, kstreams.Branched[string, string]{
				Consumer: func(s *kstreams.KStream[string, string]) { s.To("c-out") }}).
			NoDefaultBranch()
		for _, name := range slices.Sorted(maps.Keys(m)) {
			m[name].To("out-" + name)
		}
		kstreams.Stream[string, string](b, []string{"x"}).Split().DefaultBranch(kstreams.Branched[string, string]{Name: "d"})
		kstreams.Stream[string, string](b, []string{"y"}).Filter(func(string, string) bool { return true }).To("y-out")
		return b
	},
	"merged-sources": func() *kstreams.StreamsBuilder {
		b := kstreams.NewStreamsBuilder()
		kstreams.Stream[string, string](b, []string{"a"}).Filter(func(string, string) bool { return true }).To("x")
		kstreams.Stream[string, string](b, []string{"b"}).To("z")
		kstreams.MapValues(kstreams.Stream[string, string](b, []string{"a"}), func(v string) string { return v }).To("y")
		return b
	},
	"two-repartitions": func() *kstreams.StreamsBuilder {
		b := kstreams.NewStreamsBuilder()
		keyed := kstreams.SelectKey(kstreams.Stream(b, []string{"in"}, kstreams.ConsumedWith[string, string](serde.String{}, serde.String{})),
			func(_, v string) string { return v })
		keyed.GroupByKey().Count().ToStream().To("c1")
		keyed.GroupByKey().Reduce(func(x, y string) string { return x + y }).ToStream().To("c2")
		kstreams.MapValues(keyed, func(v string) string { return v }).GroupByKey(kstreams.Grouped[string, string]{Name: "named-repartition"}).
			Count().ToStream().To("c3")
		return b
	},
}

func describe(t *testing.T, b *kstreams.StreamsBuilder) string {
	t.Helper()
	topo, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return topo.Describe().String()
}

func TestDescribeGolden(t *testing.T) {
	for name, build := range describeCases {
		t.Run(name, func(t *testing.T) {
			got := describe(t, build())
			path := filepath.Join("testdata", name+".describe.txt")
			if *update {
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if got != string(want) {
				t.Errorf("describe mismatch for %s\n--- got ---\n%s\n--- want ---\n%s", name, got, want)
			}
		})
	}
}

// TestDescribeMatchesKafkaStreams44 compares every case with the text the
// real Kafka Streams 4.4.0 prints for the same topology, captured by
// testdata/jvmcapture/Check.java (see the README there). These files are
// never rewritten by -update.
func TestDescribeMatchesKafkaStreams44(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "jvmcapture", "*.describe.txt"))
	if len(files) != len(describeCases) {
		t.Errorf("%d captured descriptions for %d cases", len(files), len(describeCases))
	}
	for name, build := range describeCases {
		t.Run(name, func(t *testing.T) {
			want, err := os.ReadFile(filepath.Join("testdata", "jvmcapture", name+".describe.txt"))
			if err != nil {
				t.Fatal(err)
			}
			if got := describe(t, build()); got != string(want) {
				t.Errorf("got\n%s\nkafka streams 4.4.0\n%s", got, want)
			}
		})
	}
}

// TestDescribeMatchesJVMCapture compares with the description captured from a
// real Kafka Streams 4.4 run of the word count twin, once that file exists.
func TestDescribeMatchesJVMCapture(t *testing.T) {
	want, err := os.ReadFile(filepath.Join("testdata", "jvm", "wordcount.describe.txt"))
	if os.IsNotExist(err) {
		t.Skip("testdata/jvm/wordcount.describe.txt not captured yet")
	}
	if err != nil {
		t.Fatal(err)
	}
	if got := describe(t, wordCount()); got != string(want) {
		t.Errorf("describe differs from the JVM capture\n--- got ---\n%s\n--- jvm ---\n%s", got, want)
	}
}
