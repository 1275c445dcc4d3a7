package kstreams_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/serde"
)

// namingCases port the KIP-1111 tests of Kafka Streams' StreamsBuilderTest
// (shouldThrowWhen... / shouldNotThrowWhen...: group-by and group-by-key
// aggregations, suppression, stream-stream, stream-table, versioned-table
// and global-table joins, repartition(), cogroup), and add operators those
// tests leave out. Each want is the message Kafka Streams 4.4.0 throws for
// the same topology under ensure.explicit.internal.resource.naming=true
// (StreamsBuilder built with a TopologyConfig, then build()), taken from
// the jar, without the line break Kafka ends it with; "" where it builds.
// Kafka's own tests check each list with contains(); these check the whole
// message.
var namingCases = []struct {
	name  string
	build func(b *kstreams.StreamsBuilder)
	want  string
}{
	{"GroupByAggregationWithRepartitionNameAndLoggingEnabled", func(b *kstreams.StreamsBuilder) {
		groupByCount(b, kstreams.Grouped[string, string]{Name: "repartition-name"}, kstreams.Materialized[string, int64]{})
	}, "Invalid topology: Following changelog topic(s) has not been named: KSTREAM-AGGREGATE-STATE-STORE-0000000003-changelog\n" +
		"Following state store(s) has not been named: KSTREAM-AGGREGATE-STATE-STORE-0000000003"},
	{"GroupByAggregationWithRepartitionNameAndLoggingDisabled", func(b *kstreams.StreamsBuilder) {
		groupByCount(b, kstreams.Grouped[string, string]{Name: "repartition-name"}, kstreams.Materialized[string, int64]{LoggingDisabled: true})
	}, "Invalid topology: Following state store(s) has not been named: KSTREAM-AGGREGATE-STATE-STORE-0000000003"},
	{"GroupByAggregationWithMaterializedName", func(b *kstreams.StreamsBuilder) {
		groupByCount(b, kstreams.Grouped[string, string]{}, kstreams.MaterializedAs[string, int64]("materialized-name"))
	}, ""},
	{"GroupByAggregationWithRepartitionNameAndMaterialized", func(b *kstreams.StreamsBuilder) {
		groupByCount(b, kstreams.Grouped[string, string]{Name: "repartition-name"}, kstreams.MaterializedAs[string, int64]("materialized-name"))
	}, ""},
	{"GroupByAggregationWithoutRepartitionNameAndMaterializedName", func(b *kstreams.StreamsBuilder) {
		groupByCount(b, kstreams.Grouped[string, string]{}, kstreams.Materialized[string, int64]{})
	}, "Invalid topology: Following changelog topic(s) has not been named: KSTREAM-AGGREGATE-STATE-STORE-0000000003-changelog\n" +
		"Following state store(s) has not been named: KSTREAM-AGGREGATE-STATE-STORE-0000000003\n" +
		"Following repartition topic(s) has not been named: KSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition"},

	{"GroupByKeyAggregationWithRepartitionNameAndLoggingEnabled", func(b *kstreams.StreamsBuilder) {
		groupByKeyCount(b, kstreams.Grouped[string, string]{Name: "repartition-name"}, kstreams.Materialized[string, int64]{})
	}, "Invalid topology: Following changelog topic(s) has not been named: KSTREAM-AGGREGATE-STATE-STORE-0000000003-changelog\n" +
		"Following state store(s) has not been named: KSTREAM-AGGREGATE-STATE-STORE-0000000003"},
	{"GroupByKeyAggregationWithRepartitionNameAndLoggingDisabled", func(b *kstreams.StreamsBuilder) {
		groupByKeyCount(b, kstreams.Grouped[string, string]{Name: "repartition-name"}, kstreams.Materialized[string, int64]{LoggingDisabled: true})
	}, "Invalid topology: Following state store(s) has not been named: KSTREAM-AGGREGATE-STATE-STORE-0000000003"},
	{"GroupByKeyAggregationWithMaterializedName", func(b *kstreams.StreamsBuilder) {
		groupByKeyCount(b, kstreams.Grouped[string, string]{}, kstreams.MaterializedAs[string, int64]("materialized-name"))
	}, ""},
	{"GroupByKeyAggregationWithRepartitionNameAndMaterializedName", func(b *kstreams.StreamsBuilder) {
		groupByKeyCount(b, kstreams.Grouped[string, string]{Name: "repartition-name"}, kstreams.MaterializedAs[string, int64]("materialized-name"))
	}, ""},
	{"GroupByKeyAggregationWithoutRepartitionNameAndMaterializedName", func(b *kstreams.StreamsBuilder) {
		groupByKeyCount(b, kstreams.Grouped[string, string]{}, kstreams.Materialized[string, int64]{})
	}, "Invalid topology: Following changelog topic(s) has not been named: KSTREAM-AGGREGATE-STATE-STORE-0000000003-changelog\n" +
		"Following state store(s) has not been named: KSTREAM-AGGREGATE-STATE-STORE-0000000003\n" +
		"Following repartition topic(s) has not been named: KSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition"},

	{"SuppressWithSuppressName", func(b *kstreams.StreamsBuilder) { suppressed(b, "suppressed-name", true) }, ""},
	{"SuppressWithoutSuppressName", func(b *kstreams.StreamsBuilder) { suppressed(b, "", true) },
		"Invalid topology: Following changelog topic(s) has not been named: KTABLE-SUPPRESS-STATE-STORE-0000000003-changelog"},
	{"SuppressWithoutSuppressNameAndLoggingDisabled", func(b *kstreams.StreamsBuilder) { suppressed(b, "", false) }, ""},

	{"KStreamKStreamJoinWithRepartitionNameAndLoggingEnabled", func(b *kstreams.StreamsBuilder) {
		streamStreamLeftJoin(b, kstreams.StreamJoined[string, string, string]{Name: "repartition-name"})
	}, "Invalid topology: Following changelog topic(s) has not been named: KSTREAM-JOINTHIS-0000000012-store-changelog, " +
		"KSTREAM-OUTEROTHER-0000000013-store-changelog, KSTREAM-OUTERSHARED-0000000012-store-changelog\n" +
		"Following state store(s) has not been named: KSTREAM-JOINTHIS-0000000012-store, KSTREAM-OUTEROTHER-0000000013-store, " +
		"KSTREAM-OUTERSHARED-0000000012-store"},
	{"KStreamKStreamJoinWithRepartitionNameAndLoggingDisabled", func(b *kstreams.StreamsBuilder) {
		streamStreamLeftJoin(b, kstreams.StreamJoined[string, string, string]{Name: "repartition-name", LoggingDisabled: true})
	}, "Invalid topology: Following state store(s) has not been named: KSTREAM-JOINTHIS-0000000012-store, " +
		"KSTREAM-OUTEROTHER-0000000013-store, KSTREAM-OUTERSHARED-0000000012-store"},
	{"KStreamKStreamJoinWithMaterializedName", func(b *kstreams.StreamsBuilder) {
		streamStreamLeftJoin(b, kstreams.StreamJoined[string, string, string]{StoreName: "store-name"})
	}, "Invalid topology: Following repartition topic(s) has not been named: KSTREAM-KEY-SELECT-0000000002-repartition, " +
		"KSTREAM-KEY-SELECT-0000000003-repartition"},
	{"KStreamKStreamJoinWithRepartitionNameAndMaterializedName", func(b *kstreams.StreamsBuilder) {
		streamStreamLeftJoin(b, kstreams.StreamJoined[string, string, string]{Name: "repartition-name", StoreName: "store-name"})
	}, ""},
	{"KStreamKStreamJoinWithoutRepartitionNameAndMaterializedName", func(b *kstreams.StreamsBuilder) {
		streamStreamLeftJoin(b, kstreams.StreamJoined[string, string, string]{})
	}, "Invalid topology: Following changelog topic(s) has not been named: KSTREAM-JOINTHIS-0000000012-store-changelog, " +
		"KSTREAM-OUTEROTHER-0000000013-store-changelog, KSTREAM-OUTERSHARED-0000000012-store-changelog\n" +
		"Following state store(s) has not been named: KSTREAM-JOINTHIS-0000000012-store, KSTREAM-OUTEROTHER-0000000013-store, " +
		"KSTREAM-OUTERSHARED-0000000012-store\n" +
		"Following repartition topic(s) has not been named: KSTREAM-KEY-SELECT-0000000002-repartition, KSTREAM-KEY-SELECT-0000000003-repartition"},

	{"KStreamKTableJoinWithRepartitionNameAndLoggingEnabled", func(b *kstreams.StreamsBuilder) {
		streamTableJoin(b, kstreams.Joined[string, string]{Name: "repartition-name"}, kstreams.Materialized[string, string]{})
	}, "Invalid topology: Following changelog topic(s) has not been named: stream-topic-two-STATE-STORE-0000000001-changelog\n" +
		"Following state store(s) has not been named: stream-topic-two-STATE-STORE-0000000001"},
	{"KStreamKTableJoinWithRepartitionNameAndLoggingDisabled", func(b *kstreams.StreamsBuilder) {
		streamTableJoin(b, kstreams.Joined[string, string]{Name: "repartition-name"}, kstreams.Materialized[string, string]{LoggingDisabled: true})
	}, "Invalid topology: Following state store(s) has not been named: stream-topic-two-STATE-STORE-0000000001"},
	{"KStreamKTableJoinWithMaterializedName", func(b *kstreams.StreamsBuilder) {
		streamTableJoin(b, kstreams.Joined[string, string]{}, kstreams.MaterializedAs[string, string]("materialized-name"))
	}, "Invalid topology: Following repartition topic(s) has not been named: KSTREAM-KEY-SELECT-0000000003-repartition"},
	{"KStreamKTableJoinWithRepartitionNameAndMaterializedName", func(b *kstreams.StreamsBuilder) {
		streamTableJoin(b, kstreams.Joined[string, string]{Name: "repartition-name"}, kstreams.MaterializedAs[string, string]("materialized-name"))
	}, ""},
	{"KStreamKTableJoinWithoutRepartitionNameAndMaterializedName", func(b *kstreams.StreamsBuilder) {
		streamTableJoin(b, kstreams.Joined[string, string]{}, kstreams.Materialized[string, string]{})
	}, "Invalid topology: Following changelog topic(s) has not been named: stream-topic-two-STATE-STORE-0000000001-changelog\n" +
		"Following state store(s) has not been named: stream-topic-two-STATE-STORE-0000000001\n" +
		"Following repartition topic(s) has not been named: KSTREAM-KEY-SELECT-0000000004-repartition"},

	{"KStreamVersionedKTableJoinWithRepartitionName", func(b *kstreams.StreamsBuilder) {
		versionedTableJoin(b, kstreams.Joined[string, string]{Name: "repartition-name"})
	}, ""},
	{"KStreamVersionedKTableJoinWithoutRepartitionName", func(b *kstreams.StreamsBuilder) {
		versionedTableJoin(b, kstreams.Joined[string, string]{})
	}, "Invalid topology: Following changelog topic(s) has not been named: KSTREAM-JOIN-0000000007-Buffer-changelog\n" +
		"Following state store(s) has not been named: KSTREAM-JOIN-0000000007-Buffer\n" +
		"Following repartition topic(s) has not been named: KSTREAM-KEY-SELECT-0000000003-repartition"},

	{"KStreamGlobalKTableJoinWithMaterializedName", func(b *kstreams.StreamsBuilder) {
		globalTableJoin(b, []kstreams.Materialized[string, string]{kstreams.MaterializedAs[string, string]("materialized-name")})
	}, ""},
	{"KStreamGlobalKTableJoinWithoutStoreName", func(b *kstreams.StreamsBuilder) { globalTableJoin(b, nil) },
		"Invalid topology: Following state store(s) has not been named: stream-topic-two-STATE-STORE-0000000001"},

	{"RepartitionWithRepartitionName", func(b *kstreams.StreamsBuilder) {
		kstreams.Stream[string, string](b, []string{"input1"}).Repartition(kstreams.Repartitioned[string, string]{Name: "repartition-name"}).
			To("output", kstreams.Produced[string, string]{Name: "sink"})
	}, ""},
	{"RepartitionWithoutRepartition", func(b *kstreams.StreamsBuilder) {
		kstreams.Stream[string, string](b, []string{"input1"}).Repartition(kstreams.Repartitioned[string, string]{KeySerde: serde.String{}}).
			To("output", kstreams.Produced[string, string]{Name: "sink"})
	}, "Invalid topology: Following repartition topic(s) has not been named: KSTREAM-REPARTITION-0000000001-repartition"},

	{"CoGroupWithRepartitionNameAndLoggingEnabled", func(b *kstreams.StreamsBuilder) {
		cogroup(b, kstreams.Grouped[string, string]{Name: "repartition-name"}, kstreams.Materialized[string, string]{})
	}, "Invalid topology: Following changelog topic(s) has not been named: COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000003-changelog\n" +
		"Following state store(s) has not been named: COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000003"},
	{"CoGroupWithRepartitionNameAndLoggingDisabled", func(b *kstreams.StreamsBuilder) {
		cogroup(b, kstreams.Grouped[string, string]{Name: "repartition-name"}, kstreams.Materialized[string, string]{LoggingDisabled: true})
	}, "Invalid topology: Following state store(s) has not been named: COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000003"},
	{"CoGroupWithMaterializedName", func(b *kstreams.StreamsBuilder) {
		cogroup(b, kstreams.Grouped[string, string]{}, kstreams.MaterializedAs[string, string]("materialized-name"))
	}, ""},
	{"CoGroupWithRepartitionNameAndMaterializedName", func(b *kstreams.StreamsBuilder) {
		cogroup(b, kstreams.Grouped[string, string]{Name: "repartition-name"}, kstreams.MaterializedAs[string, string]("materialized-name"))
	}, ""},
	{"CoGroupWithoutRepartitionNameAndMaterializedName", func(b *kstreams.StreamsBuilder) {
		cogroup(b, kstreams.Grouped[string, string]{}, kstreams.Materialized[string, string]{})
	}, "Invalid topology: Following changelog topic(s) has not been named: COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000003-changelog\n" +
		"Following state store(s) has not been named: COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000003\n" +
		"Following repartition topic(s) has not been named: COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition"},

	// Beyond Kafka's tests; the wants are still the 4.4.0 jar's messages.
	{"SourceTable", func(b *kstreams.StreamsBuilder) {
		kstreams.Table(b, "t", kstreams.Consumed[string, string]{}).ToStream().To("out")
	}, "Invalid topology: Following changelog topic(s) has not been named: t-STATE-STORE-0000000000-changelog\n" +
		"Following state store(s) has not been named: t-STATE-STORE-0000000000"},
	{"SourceTableLoggingDisabled", func(b *kstreams.StreamsBuilder) {
		kstreams.Table(b, "t", kstreams.Consumed[string, string]{}, kstreams.Materialized[string, string]{LoggingDisabled: true}).ToStream().To("out")
	}, "Invalid topology: Following state store(s) has not been named: t-STATE-STORE-0000000000"},
	{"ToTableAfterSelectKey", func(b *kstreams.StreamsBuilder) {
		rekeyed(b, "in").ToTable().ToStream().To("out")
	}, "Invalid topology: Following changelog topic(s) has not been named: KSTREAM-TOTABLE-STATE-STORE-0000000003-changelog\n" +
		"Following state store(s) has not been named: KSTREAM-TOTABLE-STATE-STORE-0000000003\n" +
		"Following repartition topic(s) has not been named: KSTREAM-TOTABLE-0000000002-repartition"},
	{"NamedToTableAfterSelectKey", func(b *kstreams.StreamsBuilder) {
		rekeyed(b, "in").ToTable(kstreams.Named("tt")).ToStream().To("out")
	}, "Invalid topology: Following changelog topic(s) has not been named: KSTREAM-TOTABLE-STATE-STORE-0000000003-changelog\n" +
		"Following state store(s) has not been named: KSTREAM-TOTABLE-STATE-STORE-0000000003"},
	{"TwoJoinsOfOneRekeyedStream", func(b *kstreams.StreamsBuilder) {
		s := rekeyed(b, "in")
		t := kstreams.Table(b, "t", kstreams.Consumed[string, string]{}, kstreams.MaterializedAs[string, string]("t-store"))
		kstreams.StreamTableJoin(s, t, func(_, x, _ string) string { return x }).To("out1")
		kstreams.StreamTableLeftJoin(s, t, func(_, x string, _ *string) string { return x }).To("out2")
	}, "Invalid topology: Following repartition topic(s) has not been named: KSTREAM-KEY-SELECT-0000000001-repartition, " +
		"KSTREAM-KEY-SELECT-0000000001-repartition"},
	{"TableTableJoins", func(b *kstreams.StreamsBuilder) {
		t1 := kstreams.Table(b, "t1", kstreams.Consumed[string, string]{}, kstreams.MaterializedAs[string, string]("s1"))
		t2 := kstreams.Table(b, "t2", kstreams.Consumed[string, string]{}, kstreams.MaterializedAs[string, string]("s2"))
		kstreams.TableTableJoin(t1, t2, func(x, _ string) string { return x }).ToStream().To("o1")
		kstreams.TableTableJoin(t1, t2, func(x, _ string) string { return x }, kstreams.AggOption[string, string](kstreams.Materialized[string, string]{})).
			ToStream().To("o2")
	}, "Invalid topology: Following changelog topic(s) has not been named: KTABLE-MERGE-STATE-STORE-0000000009-changelog\n" +
		"Following state store(s) has not been named: KTABLE-MERGE-STATE-STORE-0000000009"},
	{"ForeignKeyJoin", func(b *kstreams.StreamsBuilder) {
		t1 := kstreams.Table(b, "t1", kstreams.Consumed[string, string]{}, kstreams.MaterializedAs[string, string]("s1"))
		t2 := kstreams.Table(b, "t2", kstreams.Consumed[string, string]{}, kstreams.MaterializedAs[string, string]("s2"))
		kstreams.TableForeignKeyJoin(t1, t2, func(v string) (string, bool) { return v, true }, func(x, _ string) string { return x }).
			ToStream().To("o")
	}, "Invalid topology: Following changelog topic(s) has not been named: KTABLE-FK-JOIN-OUTPUT-STATE-STORE-0000000017-changelog\n" +
		"Following state store(s) has not been named: KTABLE-FK-JOIN-OUTPUT-STATE-STORE-0000000017"},
	{"GroupedTableCount", func(b *kstreams.StreamsBuilder) {
		t := kstreams.Table(b, "t", kstreams.Consumed[string, string]{}, kstreams.MaterializedAs[string, string]("s"))
		kstreams.GroupTableBy(t, func(k, v string) (string, string) { return v, k }).Count().ToStream().To("o")
	}, "Invalid topology: Following changelog topic(s) has not been named: KTABLE-AGGREGATE-STATE-STORE-0000000003-changelog\n" +
		"Following state store(s) has not been named: KTABLE-AGGREGATE-STATE-STORE-0000000003"},
	{"TableFilterWithUnnamedMaterialized", func(b *kstreams.StreamsBuilder) {
		t := kstreams.Table(b, "t", kstreams.Consumed[string, string]{}, kstreams.MaterializedAs[string, string]("s"))
		t.Filter(func(string, string) bool { return true }, kstreams.Materialized[string, string]{}).ToStream().To("o")
	}, ""},
	{"WindowedSessionAndSlidingAggregations", func(b *kstreams.StreamsBuilder) {
		g := rekeyed(b, "in").GroupByKey()
		kstreams.WindowedBy(g, kstreams.TimeWindowsOfSizeWithNoGrace(time.Minute)).Count()
		kstreams.WindowedBySession(g, kstreams.SessionWindowsOfInactivityGapWithNoGrace(time.Minute)).Reduce(func(x, _ string) string { return x })
		kstreams.SlidingAggregate(kstreams.WindowedBySliding(g, kstreams.SlidingWindowsOfTimeDifferenceWithNoGrace(time.Minute)),
			func() string { return "" }, func(_, _, x string) string { return x })
	}, "Invalid topology: Following changelog topic(s) has not been named: KSTREAM-AGGREGATE-STATE-STORE-0000000002-changelog, " +
		"KSTREAM-REDUCE-STATE-STORE-0000000007-changelog, KSTREAM-AGGREGATE-STATE-STORE-0000000012-changelog\n" +
		"Following state store(s) has not been named: KSTREAM-AGGREGATE-STATE-STORE-0000000002, KSTREAM-REDUCE-STATE-STORE-0000000007, " +
		"KSTREAM-AGGREGATE-STATE-STORE-0000000012\n" +
		"Following repartition topic(s) has not been named: KSTREAM-AGGREGATE-STATE-STORE-0000000002-repartition, " +
		"KSTREAM-REDUCE-STATE-STORE-0000000007-repartition, KSTREAM-AGGREGATE-STATE-STORE-0000000012-repartition"},
	{"TwoAggregationsOfOneCogroup", func(b *kstreams.StreamsBuilder) {
		g := kstreams.GroupBy(kstreams.Stream[string, string](b, []string{"in"}), func(_, v string) string { return v })
		c := kstreams.Cogroup(g, func(_, _, x string) string { return x })
		c.Aggregate(func() string { return "" }).ToStream().To("o1")
		c.Aggregate(func() string { return "" }).ToStream().To("o2")
	}, "Invalid topology: Following changelog topic(s) has not been named: COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000002-changelog, " +
		"COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000010-changelog\n" +
		"Following state store(s) has not been named: COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000002, COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000010\n" +
		"Following repartition topic(s) has not been named: COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000002-repartition, " +
		"COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000010-repartition"},
	{"OuterJoinOverStoreSuppliersWithLoggingDisabled", func(b *kstreams.StreamsBuilder) {
		one := kstreams.Stream[string, string](b, []string{"a"})
		two := kstreams.Stream[string, string](b, []string{"b"})
		sup := func(name string) *kstreams.WindowStoreSupplier {
			return &kstreams.WindowStoreSupplier{Name: name, RetentionMs: 2000, WindowSizeMs: 2000, RetainDuplicates: true}
		}
		kstreams.OuterJoin(one, two, func(x, _ *string) string { return "" }, kstreams.JoinWindowsOfTimeDifferenceWithNoGrace(time.Second),
			kstreams.StreamJoined[string, string, string]{ThisStoreSupplier: sup("this-sup"), OtherStoreSupplier: sup("other-sup"), LoggingDisabled: true}).
			To("o")
	}, "Invalid topology: Following changelog topic(s) has not been named: this-sup-changelog, other-sup-changelog\n" +
		"Following state store(s) has not been named: this-sup, other-sup, this-sup-outer-shared-join-store"},
}

func groupByCount(b *kstreams.StreamsBuilder, g kstreams.Grouped[string, string], m kstreams.Materialized[string, int64]) {
	s := kstreams.Stream[string, string](b, []string{"input1"})
	kstreams.GroupBy(s, func(_, v string) string { return v }, g).Count(m).ToStream().To("output", kstreams.Produced[string, int64]{Name: "sink"})
}

func groupByKeyCount(b *kstreams.StreamsBuilder, g kstreams.Grouped[string, string], m kstreams.Materialized[string, int64]) {
	rekeyed(b, "input1").GroupByKey(g).Count(m).ToStream().To("output", kstreams.Produced[string, int64]{Name: "sink"})
}

// rekeyed is a stream of topic keyed by its values (selectKey).
func rekeyed(b *kstreams.StreamsBuilder, topic string) *kstreams.KStream[string, string] {
	return kstreams.SelectKey(kstreams.Stream[string, string](b, []string{topic}), func(_, v string) string { return v })
}

func suppressed(b *kstreams.StreamsBuilder, name string, logged bool) {
	t := kstreams.WindowedBy(kstreams.Stream[string, string](b, []string{"input1"}).GroupByKey(), kstreams.TimeWindowsOfSizeWithNoGrace(time.Hour)).
		Count(kstreams.MaterializedAs[string, int64]("materialized-name"))
	buf := kstreams.Unbounded()
	if !logged {
		buf = buf.WithLoggingDisabled()
	}
	s := kstreams.UntilWindowCloses(buf)
	if name != "" {
		s = s.WithName(name)
	}
	t.Suppress(s).ToStream().To("output", kstreams.Produced[kstreams.Windowed[string], int64]{Name: "sink"})
}

func streamStreamLeftJoin(b *kstreams.StreamsBuilder, sj kstreams.StreamJoined[string, string, string]) {
	one := kstreams.Stream[string, string](b, []string{"stream-topic"})
	two := kstreams.Stream[string, string](b, []string{"stream-topic-two"})
	byValue := func(_, v string) string { return v }
	kstreams.LeftJoin(kstreams.SelectKey(one, byValue), kstreams.SelectKey(two, byValue), func(x string, _ *string) string { return x },
		kstreams.JoinWindowsOfTimeDifferenceWithNoGrace(time.Hour), sj)
}

func streamTableJoin(b *kstreams.StreamsBuilder, j kstreams.Joined[string, string], m kstreams.Materialized[string, string]) {
	s := kstreams.Stream[string, string](b, []string{"stream-topic"})
	t := kstreams.Table(b, "stream-topic-two", kstreams.Consumed[string, string]{}, m)
	kstreams.StreamTableJoin(kstreams.SelectKey(s, func(_, v string) string { return v }), t, func(_, x, _ string) string { return x }, j)
}

func versionedTableJoin(b *kstreams.StreamsBuilder, j kstreams.Joined[string, string]) {
	s := kstreams.Stream[string, string](b, []string{"stream-topic"})
	t := kstreams.Table(b, "stream-topic-two", kstreams.Consumed[string, string]{},
		kstreams.MaterializedAsVersioned[string, string](kstreams.PersistentVersionedKeyValueStore("versioned-ktable-store", 24*time.Hour)))
	kstreams.StreamTableJoin(kstreams.SelectKey(s, func(_, v string) string { return v }), t, func(_, x, _ string) string { return x },
		j.WithGracePeriod(time.Hour)).To("test-topic")
}

func globalTableJoin(b *kstreams.StreamsBuilder, m []kstreams.Materialized[string, string]) {
	s := kstreams.Stream[string, string](b, []string{"stream-topic"})
	g := kstreams.GlobalTable(b, "stream-topic-two", kstreams.Consumed[string, string]{}, m...)
	kstreams.JoinGlobal(kstreams.SelectKey(s, func(_, v string) string { return v }), g, func(k, _ string) string { return k },
		func(x, _ string) string { return x })
}

func cogroup(b *kstreams.StreamsBuilder, g kstreams.Grouped[string, string], m kstreams.Materialized[string, string]) {
	one := kstreams.Stream[string, string](b, []string{"stream-topic"})
	two := kstreams.Stream[string, string](b, []string{"stream-topic-two"})
	g1 := kstreams.GroupBy(one, func(_, v string) string { return v }, g)
	g2 := two.GroupByKey()
	agg := func(_, v, a string) string { return a + v }
	c := kstreams.CogroupWith(kstreams.Cogroup(g1, agg), g2, agg)
	c.Aggregate(func() string { return "" }, m).ToStream().To("output")
}

func TestUnnamedResourcesMatchKafkaStreams(t *testing.T) {
	for _, c := range namingCases {
		t.Run(c.name, func(t *testing.T) {
			b := kstreams.NewStreamsBuilder()
			c.build(b)
			topo, err := b.Build()
			if err != nil {
				t.Fatal(err)
			}
			err = topo.UnnamedResources().Err()
			switch {
			case c.want == "" && err != nil:
				t.Fatalf("refused: %v; Kafka Streams 4.4 builds it", err)
			case c.want == "":
				return
			case err == nil:
				t.Fatalf("no unnamed resources; Kafka Streams 4.4 refuses it with\n%s", c.want)
			case err.Error() != c.want:
				t.Fatalf("message\n%s\nwant Kafka Streams' message\n%s", err, c.want)
			}
			var ue *kstreams.UnnamedResourcesError
			if !errors.Is(err, kstreams.ErrInvalidTopology) || !errors.As(err, &ue) {
				t.Errorf("%T does not match ErrInvalidTopology and *UnnamedResourcesError", err)
			}
		})
	}
}

// The lists survive the optimizations: Kafka Streams collects the names
// while the operators are added, and merging repartition topics or
// rewriting a self-join does not change them.
func TestUnnamedResourcesKeptThroughOptimization(t *testing.T) {
	b := kstreams.NewStreamsBuilder()
	s := rekeyed(b, "in")
	s.GroupByKey().Count()
	s.GroupByKey().Reduce(func(a, _ string) string { return a })
	topo, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	opt, err := topo.Optimize([]string{kstreams.OptimizeMergeRepartitionTopics, kstreams.OptimizeReuseKTableSourceTopics})
	if err != nil {
		t.Fatal(err)
	}
	want := topo.UnnamedResources()
	if len(want.RepartitionTopics) != 2 {
		t.Fatalf("repartition topics %v, want the two groupings'", want.RepartitionTopics)
	}
	if got := opt.UnnamedResources(); got.String() != want.String() {
		t.Errorf("optimized: %v, want %v", got, want)
	}
}

func TestUnnamedResourcesWarningIsKafkasLogLine(t *testing.T) {
	b := kstreams.NewStreamsBuilder()
	kstreams.Stream[string, string](b, []string{"in"}).Repartition().To("out")
	topo, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	want := "Explicit naming for internal resources is currently disabled. If you want to enforce user-defined names for all internal " +
		"resources, set ensure.explicit.internal.resource.naming to true. Note: Changing internal resource names may require a full " +
		"streams application reset for an already deployed application. Consult the documentation on naming operators for more details. " +
		"Following repartition topic(s) has not been named: KSTREAM-REPARTITION-0000000001-repartition"
	if got := topo.UnnamedResources().Warning(); got != want {
		t.Errorf("warning\n%s\nwant\n%s", got, want)
	}
}

// A topology of the Processor API names all its stores and has no
// repartition topics: nothing is unnamed.
func TestProcessorAPITopologyHasNoUnnamedResources(t *testing.T) {
	topo := kstreams.NewTopology()
	if err := topo.AddSource("src", kstreams.SourceOptions{}, "in"); err != nil {
		t.Fatal(err)
	}
	if u := topo.UnnamedResources(); !u.Empty() || u.Err() != nil || u.Warning() != "" || strings.TrimSpace(u.String()) != "" {
		t.Errorf("unnamed resources %+v", u)
	}
}
