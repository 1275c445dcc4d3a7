package kstreams_test

import (
	"testing"

	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/serde"
)

// The cogroup topologies of Kafka's CogroupedKStreamImplTest and the
// descriptions Kafka Streams gives them (without topology optimization).

var stringConsumed = kstreams.ConsumedWith[string, string](serde.String{}, serde.String{})

func concat(_ string, v, agg string) string { return agg + v }
func emptyString() string                   { return "" }
func swap(k, v string) (string, string)     { return v, k }

func cogroupStreams(b *kstreams.StreamsBuilder, topics ...string) []*kstreams.KStream[string, string] {
	var out []*kstreams.KStream[string, string]
	for _, t := range topics {
		out = append(out, kstreams.Stream(b, []string{t}, stringConsumed))
	}
	return out
}

var cogroupDescribeCases = []struct {
	name  string
	build func() *kstreams.StreamsBuilder
	want  string
}{
	{"named", func() *kstreams.StreamsBuilder {
		b := kstreams.NewStreamsBuilder()
		s := cogroupStreams(b, "one", "two")
		t := kstreams.CogroupWith(kstreams.Cogroup(s[0].GroupByKey(), concat), s[1].GroupByKey(), concat).
			Aggregate(emptyString, kstreams.Named("test"), kstreams.MaterializedAs[string, string]("store"))
		t.ToStream().To("output")
		return b
	},
		// shouldNameProcessorsAndStoreBasedOnNamedParameter
		"Topologies:\n" +
			"   Sub-topology: 0\n" +
			"    Source: KSTREAM-SOURCE-0000000000 (topics: [one])\n" +
			"      --> test-cogroup-agg-0\n" +
			"    Source: KSTREAM-SOURCE-0000000001 (topics: [two])\n" +
			"      --> test-cogroup-agg-1\n" +
			"    Processor: test-cogroup-agg-0 (stores: [store])\n" +
			"      --> test-cogroup-merge\n" +
			"      <-- KSTREAM-SOURCE-0000000000\n" +
			"    Processor: test-cogroup-agg-1 (stores: [store])\n" +
			"      --> test-cogroup-merge\n" +
			"      <-- KSTREAM-SOURCE-0000000001\n" +
			"    Processor: test-cogroup-merge (stores: [])\n" +
			"      --> KTABLE-TOSTREAM-0000000005\n" +
			"      <-- test-cogroup-agg-0, test-cogroup-agg-1\n" +
			"    Processor: KTABLE-TOSTREAM-0000000005 (stores: [])\n" +
			"      --> KSTREAM-SINK-0000000006\n" +
			"      <-- test-cogroup-merge\n" +
			"    Sink: KSTREAM-SINK-0000000006 (topic: output)\n" +
			"      <-- KTABLE-TOSTREAM-0000000005\n" +
			"\n" +
			""},
	{"namedRepartition", func() *kstreams.StreamsBuilder {
		b := kstreams.NewStreamsBuilder()
		s := cogroupStreams(b, "one", "two")
		one := kstreams.Map(s[0], swap).GroupByKey(kstreams.Grouped[string, string]{Name: "repartition-test"})
		t := kstreams.CogroupWith(kstreams.Cogroup(one, concat), s[1].GroupByKey(), concat).Aggregate(emptyString)
		t.ToStream().To("output")
		return b
	},
		// shouldNameRepartitionTopic
		"Topologies:\n" +
			"   Sub-topology: 0\n" +
			"    Source: KSTREAM-SOURCE-0000000000 (topics: [one])\n" +
			"      --> KSTREAM-MAP-0000000002\n" +
			"    Processor: KSTREAM-MAP-0000000002 (stores: [])\n" +
			"      --> repartition-test-repartition-filter\n" +
			"      <-- KSTREAM-SOURCE-0000000000\n" +
			"    Processor: repartition-test-repartition-filter (stores: [])\n" +
			"      --> repartition-test-repartition-sink\n" +
			"      <-- KSTREAM-MAP-0000000002\n" +
			"    Sink: repartition-test-repartition-sink (topic: repartition-test-repartition)\n" +
			"      <-- repartition-test-repartition-filter\n" +
			"\n" +
			"  Sub-topology: 1\n" +
			"    Source: KSTREAM-SOURCE-0000000001 (topics: [two])\n" +
			"      --> COGROUPKSTREAM-AGGREGATE-0000000008\n" +
			"    Source: repartition-test-repartition-source (topics: [repartition-test-repartition])\n" +
			"      --> COGROUPKSTREAM-AGGREGATE-0000000007\n" +
			"    Processor: COGROUPKSTREAM-AGGREGATE-0000000007 (stores: [COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000003])\n" +
			"      --> COGROUPKSTREAM-MERGE-0000000009\n" +
			"      <-- repartition-test-repartition-source\n" +
			"    Processor: COGROUPKSTREAM-AGGREGATE-0000000008 (stores: [COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000003])\n" +
			"      --> COGROUPKSTREAM-MERGE-0000000009\n" +
			"      <-- KSTREAM-SOURCE-0000000001\n" +
			"    Processor: COGROUPKSTREAM-MERGE-0000000009 (stores: [])\n" +
			"      --> KTABLE-TOSTREAM-0000000010\n" +
			"      <-- COGROUPKSTREAM-AGGREGATE-0000000007, COGROUPKSTREAM-AGGREGATE-0000000008\n" +
			"    Processor: KTABLE-TOSTREAM-0000000010 (stores: [])\n" +
			"      --> KSTREAM-SINK-0000000011\n" +
			"      <-- COGROUPKSTREAM-MERGE-0000000009\n" +
			"    Sink: KSTREAM-SINK-0000000011 (topic: output)\n" +
			"      <-- KTABLE-TOSTREAM-0000000010\n" +
			"\n" +
			""},
	{"upstreamKeyChange", func() *kstreams.StreamsBuilder {
		b := kstreams.NewStreamsBuilder()
		s := cogroupStreams(b, "one", "two")
		one := kstreams.Map(s[0], swap).GroupByKey()
		t := kstreams.CogroupWith(kstreams.Cogroup(one, concat), s[1].GroupByKey(), concat).
			Aggregate(emptyString, kstreams.Named("test"), kstreams.MaterializedAs[string, string]("store"))
		t.ToStream().To("output")
		return b
	},
		// shouldInsertRepartitionsTopicForUpstreamKeyModification
		"Topologies:\n" +
			"   Sub-topology: 0\n" +
			"    Source: KSTREAM-SOURCE-0000000000 (topics: [one])\n" +
			"      --> KSTREAM-MAP-0000000002\n" +
			"    Processor: KSTREAM-MAP-0000000002 (stores: [])\n" +
			"      --> store-repartition-filter\n" +
			"      <-- KSTREAM-SOURCE-0000000000\n" +
			"    Processor: store-repartition-filter (stores: [])\n" +
			"      --> store-repartition-sink\n" +
			"      <-- KSTREAM-MAP-0000000002\n" +
			"    Sink: store-repartition-sink (topic: store-repartition)\n" +
			"      <-- store-repartition-filter\n" +
			"\n" +
			"  Sub-topology: 1\n" +
			"    Source: KSTREAM-SOURCE-0000000001 (topics: [two])\n" +
			"      --> test-cogroup-agg-1\n" +
			"    Source: store-repartition-source (topics: [store-repartition])\n" +
			"      --> test-cogroup-agg-0\n" +
			"    Processor: test-cogroup-agg-0 (stores: [store])\n" +
			"      --> test-cogroup-merge\n" +
			"      <-- store-repartition-source\n" +
			"    Processor: test-cogroup-agg-1 (stores: [store])\n" +
			"      --> test-cogroup-merge\n" +
			"      <-- KSTREAM-SOURCE-0000000001\n" +
			"    Processor: test-cogroup-merge (stores: [])\n" +
			"      --> KTABLE-TOSTREAM-0000000009\n" +
			"      <-- test-cogroup-agg-0, test-cogroup-agg-1\n" +
			"    Processor: KTABLE-TOSTREAM-0000000009 (stores: [])\n" +
			"      --> KSTREAM-SINK-0000000010\n" +
			"      <-- test-cogroup-merge\n" +
			"    Sink: KSTREAM-SINK-0000000010 (topic: output)\n" +
			"      <-- KTABLE-TOSTREAM-0000000009\n" +
			"\n" +
			""},
	{"reusedInSameCogroups", func() *kstreams.StreamsBuilder {
		b := kstreams.NewStreamsBuilder()
		s := cogroupStreams(b, "one", "two")
		one, two := kstreams.Map(s[0], swap).GroupByKey(), s[1].GroupByKey()
		second := kstreams.CogroupWith(kstreams.Cogroup(one, concat), two, concat).Aggregate(emptyString)
		first := kstreams.CogroupWith(kstreams.Cogroup(one, concat), two, concat).Aggregate(emptyString)
		first.ToStream().To("output")
		second.ToStream().To("OUTPUT2")
		return b
	},
		// shouldInsertRepartitionsTopicForUpstreamKeyModificationWithGroupedReusedInSameCogroups
		"Topologies:\n" +
			"   Sub-topology: 0\n" +
			"    Source: KSTREAM-SOURCE-0000000000 (topics: [one])\n" +
			"      --> KSTREAM-MAP-0000000002\n" +
			"    Processor: KSTREAM-MAP-0000000002 (stores: [])\n" +
			"      --> COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000010-repartition-filter, COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition-filter\n" +
			"      <-- KSTREAM-SOURCE-0000000000\n" +
			"    Processor: COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition-filter (stores: [])\n" +
			"      --> COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition-sink\n" +
			"      <-- KSTREAM-MAP-0000000002\n" +
			"    Processor: COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000010-repartition-filter (stores: [])\n" +
			"      --> COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000010-repartition-sink\n" +
			"      <-- KSTREAM-MAP-0000000002\n" +
			"    Sink: COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition-sink (topic: COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition)\n" +
			"      <-- COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition-filter\n" +
			"    Sink: COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000010-repartition-sink (topic: COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000010-repartition)\n" +
			"      <-- COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000010-repartition-filter\n" +
			"\n" +
			"  Sub-topology: 1\n" +
			"    Source: KSTREAM-SOURCE-0000000001 (topics: [two])\n" +
			"      --> COGROUPKSTREAM-AGGREGATE-0000000008, COGROUPKSTREAM-AGGREGATE-0000000015\n" +
			"    Source: COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition-source (topics: [COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition])\n" +
			"      --> COGROUPKSTREAM-AGGREGATE-0000000007\n" +
			"    Source: COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000010-repartition-source (topics: [COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000010-repartition])\n" +
			"      --> COGROUPKSTREAM-AGGREGATE-0000000014\n" +
			"    Processor: COGROUPKSTREAM-AGGREGATE-0000000007 (stores: [COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000003])\n" +
			"      --> COGROUPKSTREAM-MERGE-0000000009\n" +
			"      <-- COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition-source\n" +
			"    Processor: COGROUPKSTREAM-AGGREGATE-0000000008 (stores: [COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000003])\n" +
			"      --> COGROUPKSTREAM-MERGE-0000000009\n" +
			"      <-- KSTREAM-SOURCE-0000000001\n" +
			"    Processor: COGROUPKSTREAM-AGGREGATE-0000000014 (stores: [COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000010])\n" +
			"      --> COGROUPKSTREAM-MERGE-0000000016\n" +
			"      <-- COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000010-repartition-source\n" +
			"    Processor: COGROUPKSTREAM-AGGREGATE-0000000015 (stores: [COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000010])\n" +
			"      --> COGROUPKSTREAM-MERGE-0000000016\n" +
			"      <-- KSTREAM-SOURCE-0000000001\n" +
			"    Processor: COGROUPKSTREAM-MERGE-0000000009 (stores: [])\n" +
			"      --> KTABLE-TOSTREAM-0000000019\n" +
			"      <-- COGROUPKSTREAM-AGGREGATE-0000000007, COGROUPKSTREAM-AGGREGATE-0000000008\n" +
			"    Processor: COGROUPKSTREAM-MERGE-0000000016 (stores: [])\n" +
			"      --> KTABLE-TOSTREAM-0000000017\n" +
			"      <-- COGROUPKSTREAM-AGGREGATE-0000000014, COGROUPKSTREAM-AGGREGATE-0000000015\n" +
			"    Processor: KTABLE-TOSTREAM-0000000017 (stores: [])\n" +
			"      --> KSTREAM-SINK-0000000018\n" +
			"      <-- COGROUPKSTREAM-MERGE-0000000016\n" +
			"    Processor: KTABLE-TOSTREAM-0000000019 (stores: [])\n" +
			"      --> KSTREAM-SINK-0000000020\n" +
			"      <-- COGROUPKSTREAM-MERGE-0000000009\n" +
			"    Sink: KSTREAM-SINK-0000000018 (topic: output)\n" +
			"      <-- KTABLE-TOSTREAM-0000000017\n" +
			"    Sink: KSTREAM-SINK-0000000020 (topic: OUTPUT2)\n" +
			"      <-- KTABLE-TOSTREAM-0000000019\n" +
			"\n" +
			""},
	{"reusedInDifferentCogroups", func() *kstreams.StreamsBuilder {
		b := kstreams.NewStreamsBuilder()
		s := cogroupStreams(b, "one", "two", "three")
		one, two, three := kstreams.Map(s[0], swap).GroupByKey(), s[1].GroupByKey(), s[2].GroupByKey()
		kstreams.CogroupWith(kstreams.Cogroup(one, concat), three, concat).Aggregate(emptyString)
		kstreams.CogroupWith(kstreams.Cogroup(one, concat), two, concat).Aggregate(emptyString)
		return b
	},
		// shouldInsertRepartitionsTopicForUpstreamKeyModificationWithGroupedReusedInDifferentCogroups
		"Topologies:\n" +
			"   Sub-topology: 0\n" +
			"    Source: KSTREAM-SOURCE-0000000000 (topics: [one])\n" +
			"      --> KSTREAM-MAP-0000000003\n" +
			"    Processor: KSTREAM-MAP-0000000003 (stores: [])\n" +
			"      --> COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000004-repartition-filter, COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000011-repartition-filter\n" +
			"      <-- KSTREAM-SOURCE-0000000000\n" +
			"    Processor: COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000004-repartition-filter (stores: [])\n" +
			"      --> COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000004-repartition-sink\n" +
			"      <-- KSTREAM-MAP-0000000003\n" +
			"    Processor: COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000011-repartition-filter (stores: [])\n" +
			"      --> COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000011-repartition-sink\n" +
			"      <-- KSTREAM-MAP-0000000003\n" +
			"    Sink: COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000004-repartition-sink (topic: COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000004-repartition)\n" +
			"      <-- COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000004-repartition-filter\n" +
			"    Sink: COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000011-repartition-sink (topic: COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000011-repartition)\n" +
			"      <-- COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000011-repartition-filter\n" +
			"\n" +
			"  Sub-topology: 1\n" +
			"    Source: COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000011-repartition-source (topics: [COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000011-repartition])\n" +
			"      --> COGROUPKSTREAM-AGGREGATE-0000000015\n" +
			"    Source: KSTREAM-SOURCE-0000000001 (topics: [two])\n" +
			"      --> COGROUPKSTREAM-AGGREGATE-0000000016\n" +
			"    Processor: COGROUPKSTREAM-AGGREGATE-0000000015 (stores: [COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000011])\n" +
			"      --> COGROUPKSTREAM-MERGE-0000000017\n" +
			"      <-- COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000011-repartition-source\n" +
			"    Processor: COGROUPKSTREAM-AGGREGATE-0000000016 (stores: [COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000011])\n" +
			"      --> COGROUPKSTREAM-MERGE-0000000017\n" +
			"      <-- KSTREAM-SOURCE-0000000001\n" +
			"    Processor: COGROUPKSTREAM-MERGE-0000000017 (stores: [])\n" +
			"      --> none\n" +
			"      <-- COGROUPKSTREAM-AGGREGATE-0000000015, COGROUPKSTREAM-AGGREGATE-0000000016\n" +
			"\n" +
			"  Sub-topology: 2\n" +
			"    Source: COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000004-repartition-source (topics: [COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000004-repartition])\n" +
			"      --> COGROUPKSTREAM-AGGREGATE-0000000008\n" +
			"    Source: KSTREAM-SOURCE-0000000002 (topics: [three])\n" +
			"      --> COGROUPKSTREAM-AGGREGATE-0000000009\n" +
			"    Processor: COGROUPKSTREAM-AGGREGATE-0000000008 (stores: [COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000004])\n" +
			"      --> COGROUPKSTREAM-MERGE-0000000010\n" +
			"      <-- COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000004-repartition-source\n" +
			"    Processor: COGROUPKSTREAM-AGGREGATE-0000000009 (stores: [COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000004])\n" +
			"      --> COGROUPKSTREAM-MERGE-0000000010\n" +
			"      <-- KSTREAM-SOURCE-0000000002\n" +
			"    Processor: COGROUPKSTREAM-MERGE-0000000010 (stores: [])\n" +
			"      --> none\n" +
			"      <-- COGROUPKSTREAM-AGGREGATE-0000000008, COGROUPKSTREAM-AGGREGATE-0000000009\n" +
			"\n" +
			""},
	{"reusedByAggregate", func() *kstreams.StreamsBuilder {
		b := kstreams.NewStreamsBuilder()
		s := cogroupStreams(b, "one", "two")
		one, two := kstreams.Map(s[0], swap).GroupByKey(), s[1].GroupByKey()
		kstreams.CogroupWith(kstreams.Cogroup(one, concat), two, concat).Aggregate(emptyString)
		kstreams.Aggregate(one, emptyString, concat)
		return b
	},
		// shouldInsertRepartitionsTopicForUpstreamKeyModificationWithGroupedReused
		"Topologies:\n" +
			"   Sub-topology: 0\n" +
			"    Source: KSTREAM-SOURCE-0000000000 (topics: [one])\n" +
			"      --> KSTREAM-MAP-0000000002\n" +
			"    Processor: KSTREAM-MAP-0000000002 (stores: [])\n" +
			"      --> COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition-filter, KSTREAM-FILTER-0000000013\n" +
			"      <-- KSTREAM-SOURCE-0000000000\n" +
			"    Processor: COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition-filter (stores: [])\n" +
			"      --> COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition-sink\n" +
			"      <-- KSTREAM-MAP-0000000002\n" +
			"    Processor: KSTREAM-FILTER-0000000013 (stores: [])\n" +
			"      --> KSTREAM-SINK-0000000012\n" +
			"      <-- KSTREAM-MAP-0000000002\n" +
			"    Sink: COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition-sink (topic: COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition)\n" +
			"      <-- COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition-filter\n" +
			"    Sink: KSTREAM-SINK-0000000012 (topic: KSTREAM-AGGREGATE-STATE-STORE-0000000010-repartition)\n" +
			"      <-- KSTREAM-FILTER-0000000013\n" +
			"\n" +
			"  Sub-topology: 1\n" +
			"    Source: COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition-source (topics: [COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition])\n" +
			"      --> COGROUPKSTREAM-AGGREGATE-0000000007\n" +
			"    Source: KSTREAM-SOURCE-0000000001 (topics: [two])\n" +
			"      --> COGROUPKSTREAM-AGGREGATE-0000000008\n" +
			"    Processor: COGROUPKSTREAM-AGGREGATE-0000000007 (stores: [COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000003])\n" +
			"      --> COGROUPKSTREAM-MERGE-0000000009\n" +
			"      <-- COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition-source\n" +
			"    Processor: COGROUPKSTREAM-AGGREGATE-0000000008 (stores: [COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000003])\n" +
			"      --> COGROUPKSTREAM-MERGE-0000000009\n" +
			"      <-- KSTREAM-SOURCE-0000000001\n" +
			"    Processor: COGROUPKSTREAM-MERGE-0000000009 (stores: [])\n" +
			"      --> none\n" +
			"      <-- COGROUPKSTREAM-AGGREGATE-0000000007, COGROUPKSTREAM-AGGREGATE-0000000008\n" +
			"\n" +
			"  Sub-topology: 2\n" +
			"    Source: KSTREAM-SOURCE-0000000014 (topics: [KSTREAM-AGGREGATE-STATE-STORE-0000000010-repartition])\n" +
			"      --> KSTREAM-AGGREGATE-0000000011\n" +
			"    Processor: KSTREAM-AGGREGATE-0000000011 (stores: [KSTREAM-AGGREGATE-STATE-STORE-0000000010])\n" +
			"      --> none\n" +
			"      <-- KSTREAM-SOURCE-0000000014\n" +
			"\n" +
			""},
	{"usedTwice", func() *kstreams.StreamsBuilder {
		b := kstreams.NewStreamsBuilder()
		s := cogroupStreams(b, "one")
		one := kstreams.Map(s[0], swap).GroupByKey(kstreams.Grouped[string, string]{Name: "foo"})
		c := kstreams.Cogroup(one, concat)
		c.Aggregate(emptyString)
		c.Aggregate(emptyString)
		return b
	},
		// shouldInsertRepartitionsTopicForCogroupsUsedTwice
		"Topologies:\n" +
			"   Sub-topology: 0\n" +
			"    Source: KSTREAM-SOURCE-0000000000 (topics: [one])\n" +
			"      --> KSTREAM-MAP-0000000001\n" +
			"    Processor: KSTREAM-MAP-0000000001 (stores: [])\n" +
			"      --> foo-repartition-filter\n" +
			"      <-- KSTREAM-SOURCE-0000000000\n" +
			"    Processor: foo-repartition-filter (stores: [])\n" +
			"      --> foo-repartition-sink\n" +
			"      <-- KSTREAM-MAP-0000000001\n" +
			"    Sink: foo-repartition-sink (topic: foo-repartition)\n" +
			"      <-- foo-repartition-filter\n" +
			"\n" +
			"  Sub-topology: 1\n" +
			"    Source: foo-repartition-source (topics: [foo-repartition])\n" +
			"      --> COGROUPKSTREAM-AGGREGATE-0000000006, COGROUPKSTREAM-AGGREGATE-0000000012\n" +
			"    Processor: COGROUPKSTREAM-AGGREGATE-0000000006 (stores: [COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000002])\n" +
			"      --> COGROUPKSTREAM-MERGE-0000000007\n" +
			"      <-- foo-repartition-source\n" +
			"    Processor: COGROUPKSTREAM-AGGREGATE-0000000012 (stores: [COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000008])\n" +
			"      --> COGROUPKSTREAM-MERGE-0000000013\n" +
			"      <-- foo-repartition-source\n" +
			"    Processor: COGROUPKSTREAM-MERGE-0000000007 (stores: [])\n" +
			"      --> none\n" +
			"      <-- COGROUPKSTREAM-AGGREGATE-0000000006\n" +
			"    Processor: COGROUPKSTREAM-MERGE-0000000013 (stores: [])\n" +
			"      --> none\n" +
			"      <-- COGROUPKSTREAM-AGGREGATE-0000000012\n" +
			"\n" +
			""},
}

func TestCogroupDescribeMatchesKafkaStreams(t *testing.T) {
	for _, c := range cogroupDescribeCases {
		t.Run(c.name, func(t *testing.T) {
			if got := describe(t, c.build()); got != c.want {
				t.Errorf("got\n%s\nKafka Streams\n%s", got, c.want)
			}
		})
	}
}
