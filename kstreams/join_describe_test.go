package kstreams_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/serde"
)

func stringsConsumed() kstreams.Consumed[string, string] {
	return kstreams.ConsumedWith[string, string](serde.String{}, serde.String{})
}

func describeOf(t *testing.T, b *kstreams.StreamsBuilder) (*kstreams.Topology, string) {
	t.Helper()
	topo, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return topo, topo.Describe().String()
}

// rekeyedJoins is KStreamKTableJoinTest's topology: one re-keyed stream
// joined with two tables, the joins named or not.
func rekeyedJoins(first, second string) *kstreams.StreamsBuilder {
	b := kstreams.NewStreamsBuilder()
	a := kstreams.Stream(b, []string{"topic"}, stringsConsumed())
	tb := kstreams.Table(b, "topic2", stringsConsumed())
	tc := kstreams.Table(b, "topic3", stringsConsumed())
	rekeyed := kstreams.Map(a, func(k, v string) (string, string) { return v, k })
	concat := func(_ string, v, vo string) string { return v + vo }
	j := func(name string) []kstreams.Joined[string, string] {
		if name == "" {
			return nil
		}
		return []kstreams.Joined[string, string]{{Name: name, KeySerde: serde.String{}, ValueSerde: serde.String{}}}
	}
	kstreams.StreamTableJoin(rekeyed, tb, concat, j(first)...).To("out-one")
	kstreams.StreamTableJoin(rekeyed, tc, concat, j(second)...).To("out-two")
	return b
}

// KStreamKTableJoinTest.shouldReuseRepartitionTopicWithGeneratedName: the
// second join reuses the first one's repartition topic (its names are
// drawn all the same), and both tables are materialized by the joins.
func TestDescribeStreamTableJoinsReuseGeneratedRepartition(t *testing.T) {
	_, got := describeOf(t, rekeyedJoins("", ""))
	want := "Topologies:\n" +
		"   Sub-topology: 0\n" +
		"    Source: KSTREAM-SOURCE-0000000000 (topics: [topic])\n" +
		"      --> KSTREAM-MAP-0000000007\n" +
		"    Processor: KSTREAM-MAP-0000000007 (stores: [])\n" +
		"      --> KSTREAM-FILTER-0000000009\n" +
		"      <-- KSTREAM-SOURCE-0000000000\n" +
		"    Processor: KSTREAM-FILTER-0000000009 (stores: [])\n" +
		"      --> KSTREAM-SINK-0000000008\n" +
		"      <-- KSTREAM-MAP-0000000007\n" +
		"    Sink: KSTREAM-SINK-0000000008 (topic: KSTREAM-MAP-0000000007-repartition)\n" +
		"      <-- KSTREAM-FILTER-0000000009\n" +
		"\n" +
		"  Sub-topology: 1\n" +
		"    Source: KSTREAM-SOURCE-0000000010 (topics: [KSTREAM-MAP-0000000007-repartition])\n" +
		"      --> KSTREAM-JOIN-0000000011, KSTREAM-JOIN-0000000016\n" +
		"    Processor: KSTREAM-JOIN-0000000011 (stores: [topic2-STATE-STORE-0000000001])\n" +
		"      --> KSTREAM-SINK-0000000012\n" +
		"      <-- KSTREAM-SOURCE-0000000010\n" +
		"    Processor: KSTREAM-JOIN-0000000016 (stores: [topic3-STATE-STORE-0000000004])\n" +
		"      --> KSTREAM-SINK-0000000017\n" +
		"      <-- KSTREAM-SOURCE-0000000010\n" +
		"    Source: KSTREAM-SOURCE-0000000002 (topics: [topic2])\n" +
		"      --> KTABLE-SOURCE-0000000003\n" +
		"    Source: KSTREAM-SOURCE-0000000005 (topics: [topic3])\n" +
		"      --> KTABLE-SOURCE-0000000006\n" +
		"    Sink: KSTREAM-SINK-0000000012 (topic: out-one)\n" +
		"      <-- KSTREAM-JOIN-0000000011\n" +
		"    Sink: KSTREAM-SINK-0000000017 (topic: out-two)\n" +
		"      <-- KSTREAM-JOIN-0000000016\n" +
		"    Processor: KTABLE-SOURCE-0000000003 (stores: [topic2-STATE-STORE-0000000001])\n" +
		"      --> none\n" +
		"      <-- KSTREAM-SOURCE-0000000002\n" +
		"    Processor: KTABLE-SOURCE-0000000006 (stores: [topic3-STATE-STORE-0000000004])\n" +
		"      --> none\n" +
		"      <-- KSTREAM-SOURCE-0000000005\n\n"
	if got != want {
		t.Errorf("describe:\n%s\nwant:\n%s", got, want)
	}
}

// KStreamKTableJoinTest.shouldCreateRepartitionTopicsWithUserProvidedName.
func TestDescribeStreamTableJoinsWithNamedRepartitions(t *testing.T) {
	_, got := describeOf(t, rekeyedJoins("first-join", "second-join"))
	want := "Topologies:\n" +
		"   Sub-topology: 0\n" +
		"    Source: KSTREAM-SOURCE-0000000000 (topics: [topic])\n" +
		"      --> KSTREAM-MAP-0000000007\n" +
		"    Processor: KSTREAM-MAP-0000000007 (stores: [])\n" +
		"      --> first-join-repartition-filter, second-join-repartition-filter\n" +
		"      <-- KSTREAM-SOURCE-0000000000\n" +
		"    Processor: first-join-repartition-filter (stores: [])\n" +
		"      --> first-join-repartition-sink\n" +
		"      <-- KSTREAM-MAP-0000000007\n" +
		"    Processor: second-join-repartition-filter (stores: [])\n" +
		"      --> second-join-repartition-sink\n" +
		"      <-- KSTREAM-MAP-0000000007\n" +
		"    Sink: first-join-repartition-sink (topic: first-join-repartition)\n" +
		"      <-- first-join-repartition-filter\n" +
		"    Sink: second-join-repartition-sink (topic: second-join-repartition)\n" +
		"      <-- second-join-repartition-filter\n" +
		"\n" +
		"  Sub-topology: 1\n" +
		"    Source: first-join-repartition-source (topics: [first-join-repartition])\n" +
		"      --> first-join\n" +
		"    Source: KSTREAM-SOURCE-0000000002 (topics: [topic2])\n" +
		"      --> KTABLE-SOURCE-0000000003\n" +
		"    Processor: first-join (stores: [topic2-STATE-STORE-0000000001])\n" +
		"      --> KSTREAM-SINK-0000000012\n" +
		"      <-- first-join-repartition-source\n" +
		"    Sink: KSTREAM-SINK-0000000012 (topic: out-one)\n" +
		"      <-- first-join\n" +
		"    Processor: KTABLE-SOURCE-0000000003 (stores: [topic2-STATE-STORE-0000000001])\n" +
		"      --> none\n" +
		"      <-- KSTREAM-SOURCE-0000000002\n" +
		"\n" +
		"  Sub-topology: 2\n" +
		"    Source: second-join-repartition-source (topics: [second-join-repartition])\n" +
		"      --> second-join\n" +
		"    Source: KSTREAM-SOURCE-0000000005 (topics: [topic3])\n" +
		"      --> KTABLE-SOURCE-0000000006\n" +
		"    Processor: second-join (stores: [topic3-STATE-STORE-0000000004])\n" +
		"      --> KSTREAM-SINK-0000000017\n" +
		"      <-- second-join-repartition-source\n" +
		"    Sink: KSTREAM-SINK-0000000017 (topic: out-two)\n" +
		"      <-- second-join\n" +
		"    Processor: KTABLE-SOURCE-0000000006 (stores: [topic3-STATE-STORE-0000000004])\n" +
		"      --> none\n" +
		"      <-- KSTREAM-SOURCE-0000000005\n\n"
	if got != want {
		t.Errorf("describe:\n%s\nwant:\n%s", got, want)
	}
}

// KStreamImplTest.shouldSupportTableTableJoinWithKStreamToKTable: toTable
// results materialized by the join in the stores they drew.
func TestDescribeTableTableJoinOfToTables(t *testing.T) {
	b := kstreams.NewStreamsBuilder()
	t1 := kstreams.Stream(b, []string{"left"}, stringsConsumed()).ToTable()
	t2 := kstreams.Stream(b, []string{"right"}, stringsConsumed()).ToTable()
	kstreams.TableTableJoin(t1, t2, func(a, b string) string { return a + "+" + b }).ToStream().To("output")
	_, got := describeOf(t, b)
	want := "Topologies:\n" +
		"   Sub-topology: 0\n" +
		"    Source: KSTREAM-SOURCE-0000000000 (topics: [left])\n" +
		"      --> KSTREAM-TOTABLE-0000000001\n" +
		"    Source: KSTREAM-SOURCE-0000000003 (topics: [right])\n" +
		"      --> KSTREAM-TOTABLE-0000000004\n" +
		"    Processor: KSTREAM-TOTABLE-0000000001 (stores: [KSTREAM-TOTABLE-STATE-STORE-0000000002])\n" +
		"      --> KTABLE-JOINTHIS-0000000007\n" +
		"      <-- KSTREAM-SOURCE-0000000000\n" +
		"    Processor: KSTREAM-TOTABLE-0000000004 (stores: [KSTREAM-TOTABLE-STATE-STORE-0000000005])\n" +
		"      --> KTABLE-JOINOTHER-0000000008\n" +
		"      <-- KSTREAM-SOURCE-0000000003\n" +
		"    Processor: KTABLE-JOINOTHER-0000000008 (stores: [KSTREAM-TOTABLE-STATE-STORE-0000000002])\n" +
		"      --> KTABLE-MERGE-0000000006\n" +
		"      <-- KSTREAM-TOTABLE-0000000004\n" +
		"    Processor: KTABLE-JOINTHIS-0000000007 (stores: [KSTREAM-TOTABLE-STATE-STORE-0000000005])\n" +
		"      --> KTABLE-MERGE-0000000006\n" +
		"      <-- KSTREAM-TOTABLE-0000000001\n" +
		"    Processor: KTABLE-MERGE-0000000006 (stores: [])\n" +
		"      --> KTABLE-TOSTREAM-0000000009\n" +
		"      <-- KTABLE-JOINTHIS-0000000007, KTABLE-JOINOTHER-0000000008\n" +
		"    Processor: KTABLE-TOSTREAM-0000000009 (stores: [])\n" +
		"      --> KSTREAM-SINK-0000000010\n" +
		"      <-- KTABLE-MERGE-0000000006\n" +
		"    Sink: KSTREAM-SINK-0000000010 (topic: output)\n" +
		"      <-- KTABLE-TOSTREAM-0000000009\n\n"
	if got != want {
		t.Errorf("describe:\n%s\nwant:\n%s", got, want)
	}
}

// connectedStores is the store list describe() prints for processor.
func connectedStores(t *testing.T, text, processor string) string {
	t.Helper()
	for _, line := range strings.Split(text, "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "Processor: "+processor+" (stores: "); ok {
			return strings.TrimSuffix(rest, ")")
		}
	}
	t.Fatalf("no processor %s in\n%s", processor, text)
	return ""
}

// StreamsBuilderTest.shouldAllowJoinUnmaterializedJoinedKTable and
// shouldAllowJoinMaterializedJoinedKTable: a stream joined with an
// unmaterialized table join reads both source stores; with a result store
// it reads that one only.
func TestStreamJoinOfTableJoinReadsTheRightStores(t *testing.T) {
	for _, materialized := range []bool{false, true} {
		b := kstreams.NewStreamsBuilder()
		t1 := kstreams.Table(b, "table-topic1", stringsConsumed())
		t2 := kstreams.Table(b, "table-topic2", stringsConsumed())
		s := kstreams.Stream(b, []string{"stream-topic"}, stringsConsumed())
		var opts []kstreams.AggOption[string, string]
		if materialized {
			opts = append(opts, kstreams.MaterializedAs[string, string]("store"))
		}
		j := kstreams.TableTableJoin(t1, t2, func(a, b string) string { return a + b }, opts...)
		kstreams.StreamTableJoin(s, j, func(_, v, vo string) string { return v + vo })
		topo, text := describeOf(t, b)
		var names []string
		for _, st := range topo.Subtopologies() {
			for _, s := range st.Stores {
				names = append(names, s.Name)
			}
		}
		slices.Sort(names)
		if materialized {
			if got := connectedStores(t, text, "KSTREAM-JOIN-0000000010"); got != "[store]" {
				t.Errorf("join stores %s, want [store]", got)
			}
			if got := connectedStores(t, text, "KTABLE-MERGE-0000000007"); got != "[store]" {
				t.Errorf("merge stores %s, want [store]", got)
			}
			if len(names) != 3 {
				t.Errorf("stores %v, want 3", names)
			}
		} else {
			got := connectedStores(t, text, "KSTREAM-JOIN-0000000010")
			if got != "[table-topic1-STATE-STORE-0000000000, table-topic2-STATE-STORE-0000000003]" &&
				got != "[table-topic2-STATE-STORE-0000000003, table-topic1-STATE-STORE-0000000000]" {
				t.Errorf("join stores %s, want both source stores", got)
			}
			if got := connectedStores(t, text, "KTABLE-MERGE-0000000007"); got != "[]" {
				t.Errorf("merge stores %s, want none", got)
			}
			if !slices.Equal(names, []string{"table-topic1-STATE-STORE-0000000000", "table-topic2-STATE-STORE-0000000003"}) {
				t.Errorf("stores %v", names)
			}
		}
	}
}
