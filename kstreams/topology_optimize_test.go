package kstreams_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/serde"
)

// optimizeCases are topologies from Kafka's RepartitionOptimizingTest,
// StreamsGraphTest and KStreamKStreamSelfJoinTest, and more that
// merge.repartition.topics and single.store.self.join treat in their own
// ways. testdata/optimize holds what Kafka Streams 4.4's describe() prints
// for each, built with topology.optimization=none and all (or the exception
// it throws); the test builds the same topology and optimizes it.
var optimizeCases = map[string]func(b *kstreams.StreamsBuilder){
	// RepartitionOptimizingTest: four repartitions below one map, two of
	// them behind a filter (one a join's), merged into one.
	"repartition-optimizing": func(b *kstreams.StreamsBuilder) {
		s := serde.String{}
		src := kstreams.Stream(b, []string{"input"}, kstreams.Consumed[string, string]{Name: "sourceStream", KeySerde: s, ValueSerde: s})
		mapped := kstreams.Map(src, func(k, v string) (string, string) { return strings.ToUpper(k), v }, kstreams.Named("source-map"))
		kstreams.Process[string, string](kstreams.MapValues(mapped.Filter(func(k, _ string) bool { return k == "B" }, kstreams.Named("process-filter")),
			strings.ToUpper, kstreams.Named("process-mapValues")), func() kstreams.Processor { return nil }, "process")
		counts := mapped.GroupByKey(kstreams.Grouped[string, string]{Name: "count-groupByKey"}).
			Count(kstreams.Named("count"), kstreams.Materialized[string, int64]{Name: "count-store", KeySerde: s, ValueSerde: serde.Long{}}).
			ToStream(kstreams.Named("count-toStream"))
		counts.To("count-topic", kstreams.Produced[string, int64]{Name: "count-to", KeySerde: s, ValueSerde: serde.Long{}})
		kstreams.Aggregate(mapped.GroupByKey(kstreams.Grouped[string, string]{Name: "aggregate-groupByKey"}),
			func() int32 { return 0 }, func(_ string, v string, a int32) int32 { return a + int32(len(v)) },
			kstreams.Named("aggregate"), kstreams.Materialized[string, int32]{Name: "aggregate-store", KeySerde: s, ValueSerde: serde.Integer{}}).
			ToStream(kstreams.Named("aggregate-toStream")).
			To("aggregation-topic", kstreams.Produced[string, int32]{Name: "reduce-to", KeySerde: s, ValueSerde: serde.Integer{}})
		mapped.Filter(func(string, string) bool { return true }, kstreams.Named("reduce-filter")).
			Peek(func(string, string) {}, kstreams.Named("reduce-peek")).
			GroupByKey(kstreams.Grouped[string, string]{Name: "reduce-groupByKey"}).
			Reduce(func(a, v string) string { return a + v }, kstreams.Named("reducer"), kstreams.MaterializedAs[string, string]("reduce-store")).
			ToStream(kstreams.Named("reduce-toStream")).To("reduce-topic", kstreams.ProducedWith[string, string](s, s))
		kstreams.Join(mapped.Filter(func(k, _ string) bool { return k == "A" }, kstreams.Named("join-filter")), counts,
			func(v string, c int64) string { return v }, kstreams.JoinWindowsOfTimeDifferenceWithNoGrace(5*time.Second),
			kstreams.StreamJoined[string, string, int64]{Name: "join", KeySerde: s, ValueSerde: s, OtherValueSerde: serde.Long{}}).
			To("joined-topic", kstreams.Produced[string, string]{Name: "join-to"})
	},
	// StreamsGraphTest.shouldBeAbleToProcessNestedMultipleKeyChangingNodes
	"nested": func(b *kstreams.StreamsBuilder) {
		changed := kstreams.SelectKey(kstreams.Stream[string, string](b, []string{"inputTopic"}), func(_, v string) string { return v[:5] })
		changed.GroupByKey(kstreams.Grouped[string, string]{Name: "count-repartition"}).Count(kstreams.MaterializedAs[string, int64]("count-store")).
			ToStream().To("count-topic", kstreams.ProducedWith[string, int64](serde.String{}, serde.Long{}))
		windowed := kstreams.WindowedBy(changed.GroupByKey(kstreams.Grouped[string, string]{Name: "windowed-repartition"}), kstreams.TimeWindowsOfSizeWithNoGrace(5*time.Second)).
			Count(kstreams.MaterializedAs[string, int64]("windowed-count-store")).ToStream()
		kstreams.Map(windowed, func(k kstreams.Windowed[string], v int64) (string, int64) { return k.Key, v }).
			To("windowed-count", kstreams.ProducedWith[string, int64](serde.String{}, serde.Long{}))
	},
	// StreamsGraphTest.shouldNotOptimizeWithValueOrKeyChangingOperatorsAfterInitialKeyChange
	"value-change": func(b *kstreams.StreamsBuilder) {
		m := kstreams.SelectKey(kstreams.Stream[string, string](b, []string{"input"}), func(k, v string) string { return k + v })
		kstreams.MapValues(m, strings.ToUpper).GroupByKey().Count().ToStream().To("output")
		kstreams.WindowedBy(kstreams.FlatMapValues(m, strings.Fields).GroupByKey(), kstreams.TimeWindowsOfSizeWithNoGrace(5*time.Second)).
			Count().ToStream().To("windowed-output")
	},
	// StreamsGraphTest.shouldNotOptimizeWhenRepartitionOperationIsDone
	"repartition-op": func(b *kstreams.StreamsBuilder) {
		m := kstreams.SelectKey(kstreams.Stream[string, string](b, []string{"input"}), func(k, v string) string { return k + v })
		m.Repartition().GroupByKey().Count().ToStream().To("output")
		kstreams.WindowedBy(m.Repartition().GroupByKey(), kstreams.TimeWindowsOfSizeWithNoGrace(5*time.Second)).Count().ToStream().To("windowed-output")
	},
	// StreamsGraphTest.shouldOptimizeSeveralMergeNodesWithCommonKeyChangingParent
	"merge-nodes": func(b *kstreams.StreamsBuilder) {
		i := serde.Integer{}
		p := kstreams.SelectKey(kstreams.Stream(b, []string{"input_topic"}, kstreams.ConsumedWith[int32, int32](i, i)), func(k, v int32) int32 { return k + v })
		add := func(n int32) func(int32) int32 { return func(v int32) int32 { return v + n } }
		kstreams.MapValues(p, add(1)).Merge(kstreams.MapValues(p, add(2))).Merge(kstreams.MapValues(p, add(3))).To("output_topic")
	},
	// Two key changers merged, then grouped twice.
	"merged-keychangers": func(b *kstreams.StreamsBuilder) {
		a := kstreams.SelectKey(kstreams.Stream[string, string](b, []string{"a"}), func(_, v string) string { return v })
		c := kstreams.Map(kstreams.Stream[string, string](b, []string{"b"}), func(k, v string) (string, string) { return v, k })
		m := a.Merge(c)
		m.GroupByKey().Count().ToStream().To("out-count")
		m.Filter(func(string, string) bool { return true }).GroupByKey().Reduce(func(x, y string) string { return x + y }).ToStream().To("out-reduce")
	},
	// Two repartitions behind one filter: Kafka Streams fails to build it.
	"shared-child": func(b *kstreams.StreamsBuilder) {
		f := kstreams.SelectKey(kstreams.Stream[string, string](b, []string{"input"}), func(_, v string) string { return v }).
			Filter(func(string, string) bool { return true })
		f.GroupByKey().Count().ToStream().To("out-count")
		f.GroupByKey().Reduce(func(x, y string) string { return x + y }).ToStream().To("out-reduce")
	},
	// A stream-table join, a grouping and a toTable below one selectKey.
	"join-and-group": func(b *kstreams.StreamsBuilder) {
		t := kstreams.Table[string, string](b, "table", kstreams.Consumed[string, string]{})
		s := kstreams.SelectKey(kstreams.Stream[string, string](b, []string{"input"}), func(_, v string) string { return v })
		kstreams.StreamTableLeftJoin(s, t, func(_ string, v string, o *string) string { return v }).To("out-join")
		s.GroupByKey(kstreams.Grouped[string, string]{Name: "grouped"}).Count().ToStream().To("out-count")
		s.ToTable(kstreams.Named("totable"), kstreams.MaterializedAs[string, string]("totable-store")).ToStream().To("out-table")
	},
	// A cogroup of a selectKey'd and a groupBy'd stream.
	"cogroup": func(b *kstreams.StreamsBuilder) {
		g1 := kstreams.SelectKey(kstreams.Stream[string, string](b, []string{"one"}), func(_, v string) string { return v }).
			GroupByKey(kstreams.Grouped[string, string]{Name: "one"})
		g2 := kstreams.GroupBy(kstreams.Stream[string, string](b, []string{"two"}), func(_, v string) string { return v }, kstreams.Grouped[string, string]{Name: "two"})
		c := kstreams.CogroupWith(kstreams.Cogroup(g1, func(_ string, v, a string) string { return a + v }), g2, func(_ string, v, a string) string { return a + v })
		c.Aggregate(func() string { return "" }).ToStream().To("out")
	},
	// KStreamKStreamSelfJoinTest's topology: a stream joined with itself.
	"self-inner": func(b *kstreams.StreamsBuilder) {
		s := kstreams.Stream[string, string](b, []string{"input"})
		kstreams.Join(s, s, func(x, y string) string { return x + y }, kstreams.JoinWindowsOfTimeDifferenceWithNoGrace(10*time.Second)).To("out")
	},
	"self-inner-named": func(b *kstreams.StreamsBuilder) {
		s := kstreams.Stream[string, string](b, []string{"input"}).Filter(func(string, string) bool { return true })
		kstreams.Join(s, s, func(x, y string) string { return x + y }, kstreams.JoinWindowsOfTimeDifferenceAndGrace(10*time.Second, 5*time.Second),
			kstreams.StreamJoined[string, string, string]{Name: "self", StoreName: "self-store"}).To("out")
	},
	// Kafka Streams rewrites a left or outer self-join too.
	"self-left": func(b *kstreams.StreamsBuilder) {
		s := kstreams.Stream[string, string](b, []string{"input"})
		kstreams.LeftJoin(s, s, func(x string, y *string) string { return x }, kstreams.JoinWindowsOfTimeDifferenceWithNoGrace(10*time.Second)).To("out")
	},
	"self-outer": func(b *kstreams.StreamsBuilder) {
		s := kstreams.Stream[string, string](b, []string{"input"})
		kstreams.OuterJoin(s, s, func(x, y *string) string { return "" }, kstreams.JoinWindowsOfTimeDifferenceWithNoGrace(10*time.Second)).To("out")
	},
	// A re-keyed self-join: one repartition (merged first), then one store.
	"self-keychanged": func(b *kstreams.StreamsBuilder) {
		s := kstreams.SelectKey(kstreams.Stream[string, string](b, []string{"input"}), func(_, v string) string { return v })
		kstreams.Join(s, s, func(x, y string) string { return x + y }, kstreams.JoinWindowsOfTimeDifferenceWithNoGrace(10*time.Second)).To("out")
	},
	// StreamsGraphTest.shouldNotThrowNPEWithMergeNodes (KAFKA-9739): key
	// changers under a merge, a suppress, a left join and branches.
	"kafka-9739": func(b *kstreams.StreamsBuilder) {
		s := serde.String{}
		c := kstreams.ConsumedWith[string, string](s, s)
		lengths := func(_ string, v, a string) string { return a + fmt.Sprint(len(v)) }
		none := func(string, string) []kstreams.KeyValue[string, string] { return nil }
		forward := kstreams.ProcessorFunc(func(ctx kstreams.ProcessorContext, r kstreams.Record) error { return ctx.Forward(r) }).Supplier()
		retry := kstreams.FlatMap(kstreams.Aggregate(kstreams.Process[string, string](kstreams.Stream(b, []string{"retryTopic"}, c), forward, "").
			GroupByKey(kstreams.Grouped[string, string]{KeySerde: s, ValueSerde: s}), func() string { return "" }, lengths,
			kstreams.Materialized[string, string]{KeySerde: s, ValueSerde: s}).
			Suppress(kstreams.UntilTimeLimit(500*time.Second, kstreams.MaxBytes(64_000_000))).ToStream(), none)
		idTable := kstreams.Aggregate(kstreams.FlatMap(kstreams.Stream(b, []string{"id-table-topic"}, c), none).Peek(func(string, string) {}).
			GroupByKey(kstreams.Grouped[string, string]{KeySerde: s, ValueSerde: s}), func() string { return "" }, lengths,
			kstreams.Materialized[string, string]{KeySerde: s, ValueSerde: s})
		joined := kstreams.StreamTableLeftJoin(kstreams.MapValues(kstreams.Stream(b, []string{"internal-topic-command"}, c).Peek(func(string, string) {}),
			func(v string) string { return v }).Merge(retry), idTable, func(_ string, v string, o *string) string { return v },
			kstreams.JoinedWith[string, string](s, s))
		same := func(k, v string) (string, string) { return k, v }
		joined.Split().
			Branch(func(_, v string) bool { return v == "some-value" }, kstreams.Branched[string, string]{Consumer: func(ks *kstreams.KStream[string, string]) {
				kstreams.Map(ks, same).Peek(func(string, string) {}).To("external-command", kstreams.ProducedWith[string, string](s, s))
			}}).
			DefaultBranch(kstreams.Branched[string, string]{Consumer: func(ks *kstreams.KStream[string, string]) {
				kstreams.MapValues(ks.Filter(func(string, string) bool { return true }).Peek(func(string, string) {}), func(v string) string { return v }).
					To("dlq-topic", kstreams.ProducedWith[string, string](s, s))
				kstreams.Map(ks, same).To("retryTopic", kstreams.ProducedWith[string, string](s, s))
			}})
	},
	// process() is no key changer in Kafka Streams 4.4 by default.
	"process-keychange": func(b *kstreams.StreamsBuilder) {
		p := kstreams.Process[string, string](kstreams.Stream[string, string](b, []string{"input"}), func() kstreams.Processor { return nil }, "")
		p.GroupByKey().Count().ToStream().To("out")
		p.Filter(func(string, string) bool { return true }).GroupByKey().Count().ToStream().To("out2")
	},
}

func TestTopologyOptimizationMatchesKafkaStreams(t *testing.T) {
	for name, build := range optimizeCases {
		for _, opt := range []string{"none", "all"} {
			t.Run(name+"/"+opt, func(t *testing.T) {
				want, err := os.ReadFile(filepath.Join("testdata", "optimize", name+"."+opt+".txt"))
				if err != nil {
					t.Fatal(err)
				}
				b := kstreams.NewStreamsBuilder()
				build(b)
				topo, err := b.Build()
				if err != nil {
					t.Fatal(err)
				}
				if opt == "all" {
					topo, err = topo.Optimize([]string{kstreams.OptimizeReuseKTableSourceTopics, kstreams.OptimizeMergeRepartitionTopics, kstreams.OptimizeSingleStoreSelfJoin})
				}
				if strings.HasPrefix(string(want), "EXCEPTION ") {
					if err == nil {
						t.Fatalf("Kafka Streams fails this topology (%s), StoatFlow optimized it:\n%s", strings.TrimSpace(string(want)), topo.Describe())
					}
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				if got := topo.Describe().String(); got != string(want) {
					t.Errorf("describe() differs from Kafka Streams'\n--- Kafka Streams\n%s\n--- StoatFlow\n%s", want, got)
				}
			})
		}
	}
}

// merge.repartition.topics puts the merged repartition's source in the place
// of each source it replaces in the joins' co-partitionings, as Kafka's
// maybeUpdateCopartitionSourceGroups does, and leaves the unoptimized
// topology's alone: RepartitionOptimizingTest's join, of its left side's
// repartition with the count's, becomes a co-partitioning of the merged
// topic with itself.
func TestCopartitionSourcesFollowMergedRepartitions(t *testing.T) {
	b := kstreams.NewStreamsBuilder()
	optimizeCases["repartition-optimizing"](b)
	topo, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	optimized, err := topo.Optimize([]string{kstreams.OptimizeMergeRepartitionTopics})
	if err != nil {
		t.Fatal(err)
	}
	show := func(groups [][]kstreams.CopartitionSource) string {
		var out []string
		for _, g := range groups {
			var nodes []string
			for _, src := range g {
				var topics []string
				for _, tp := range src.Topics {
					topics = append(topics, tp.Name)
				}
				nodes = append(nodes, src.Node+"("+strings.Join(topics, ",")+")")
			}
			out = append(out, "["+strings.Join(nodes, " ")+"]")
		}
		return strings.Join(out, " ")
	}
	for _, c := range []struct {
		topo *kstreams.Topology
		want string
	}{
		{optimized, "[count-groupByKey-repartition-source(count-groupByKey-repartition)]"},
		{topo, "[join-left-repartition-source(join-left-repartition) count-groupByKey-repartition-source(count-groupByKey-repartition)]"},
	} {
		if got := show(c.topo.CopartitionSources()); got != c.want {
			t.Errorf("co-partition sources %s, want %s", got, c.want)
		}
	}
}
