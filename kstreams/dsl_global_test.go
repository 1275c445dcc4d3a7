package kstreams_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/serde"
)

var strConsumed = kstreams.ConsumedWith[string, string](serde.String{}, serde.String{})

// The describe() texts a real Kafka Streams 4.4.0 printed for the
// examples/globaljoin twins (TestStreamGlobalJoinMatchesKafkaStreams and
// TestGlobalStoreFedByProcessorMatchesKafkaStreams compare them live): the
// global store takes sub-topology id 0 from the shared sequence, is
// followed by no blank line, and both joins are KSTREAM-LEFTJOIN-.
const globalJoinDescribe = `Topologies:
   Sub-topology: 0 for global store (will not generate tasks)
    Source: KSTREAM-SOURCE-0000000001 (topics: [G])
      --> KTABLE-SOURCE-0000000002
    Processor: KTABLE-SOURCE-0000000002 (stores: [G-STATE-STORE-0000000000])
      --> none
      <-- KSTREAM-SOURCE-0000000001
  Sub-topology: 1
    Source: KSTREAM-SOURCE-0000000003 (topics: [S])
      --> KSTREAM-LEFTJOIN-0000000004, KSTREAM-LEFTJOIN-0000000006
    Processor: KSTREAM-LEFTJOIN-0000000004 (stores: [])
      --> KSTREAM-SINK-0000000005
      <-- KSTREAM-SOURCE-0000000003
    Processor: KSTREAM-LEFTJOIN-0000000006 (stores: [])
      --> KSTREAM-SINK-0000000007
      <-- KSTREAM-SOURCE-0000000003
    Sink: KSTREAM-SINK-0000000005 (topic: O)
      <-- KSTREAM-LEFTJOIN-0000000004
    Sink: KSTREAM-SINK-0000000007 (topic: O)
      <-- KSTREAM-LEFTJOIN-0000000006

`

func TestGlobalTableJoinNamesAndDescribe(t *testing.T) {
	b := kstreams.NewStreamsBuilder()
	g := kstreams.GlobalTable(b, "G", strConsumed)
	s := kstreams.Stream(b, []string{"S"}, strConsumed)
	sel := func(_, v string) string { return v }
	kstreams.JoinGlobal(s, g, sel, func(v, r string) string { return v + r }).To("O")
	kstreams.LeftJoinGlobal(s, g, sel, func(v string, r *string) string { return v }).To("O")
	topo, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	if got := topo.Describe().String(); got != globalJoinDescribe {
		t.Errorf("describe():\n%s\nwant:\n%s", got, globalJoinDescribe)
	}
	gs := topo.GlobalStores()
	if len(gs) != 1 || gs[0].ID != 0 || gs[0].Topic != "G" || gs[0].Store.Name != "G-STATE-STORE-0000000000" || gs[0].Store.Logging ||
		gs[0].ReprocessOnRestore || !gs[0].Store.Timestamped {
		t.Errorf("GlobalStores() = %+v", gs)
	}
	subs := topo.Subtopologies()
	if len(subs) != 2 || !subs[0].Global || len(subs[0].Sources) != 0 || len(subs[0].Stores) != 0 || subs[1].Global {
		t.Errorf("Subtopologies() = %+v, want the global store's entry empty and marked", subs)
	}
	if its := topo.InternalTopics(kstreams.InternalTopicsConfig{ApplicationID: "app"}); len(its) != 0 {
		t.Errorf("internal topics %+v, want none: a global table has no changelog", its)
	}
}

// A global store between two stream sub-topologies takes the id between
// theirs; a named Consumed names its processor and <name>-source, and
// AddGlobalStore turns the store's logging off.
func TestGlobalStoreIDsInterleaveAndNames(t *testing.T) {
	b := kstreams.NewStreamsBuilder()
	kstreams.Stream(b, []string{"A"}, strConsumed).To("A-out")
	sb := kstreams.KeyValueStoreBuilder[string, string]("gs", serde.String{}, serde.String{})
	kstreams.AddGlobalStore(b, sb, "G", kstreams.Consumed[string, string]{Name: "feed", KeySerde: serde.String{}, ValueSerde: serde.String{}},
		func() kstreams.Processor { return nil })
	kstreams.Stream(b, []string{"B"}, strConsumed).To("B-out")
	topo, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	text := topo.Describe().String()
	for _, want := range []string{
		"  Sub-topology: 0\n",
		"  Sub-topology: 1 for global store (will not generate tasks)\n    Source: feed-source (topics: [G])\n      --> feed\n" +
			"    Processor: feed (stores: [gs])\n      --> none\n      <-- feed-source\n  Sub-topology: 2\n",
		"Source: KSTREAM-SOURCE-0000000004 (topics: [B])",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("describe() lacks %q:\n%s", want, text)
		}
	}
	if gs := topo.GlobalStores(); len(gs) != 1 || gs[0].ID != 1 || gs[0].Store.Logging || !gs[0].ReprocessOnRestore {
		t.Errorf("GlobalStores() = %+v", gs)
	}
}

func TestGlobalStoreTopologyErrors(t *testing.T) {
	t.Run("explicitly connected", func(t *testing.T) {
		b := kstreams.NewStreamsBuilder()
		g := kstreams.GlobalTable(b, "G", strConsumed, kstreams.MaterializedAs[string, string]("g"))
		s := kstreams.Stream(b, []string{"S"}, strConsumed)
		kstreams.Process[string, string](s, func() kstreams.Processor { return nil }, "p", g.QueryableStoreName())
		_, err := b.Build()
		want := "Invalid topology: Global StateStore g can be used by a Processor without being specified; it should not be explicitly passed."
		if !errors.Is(err, kstreams.ErrInvalidTopology) || err.Error() != want {
			t.Errorf("Build = %v, want %q", err, want)
		}
	})
	t.Run("topic registered twice", func(t *testing.T) {
		b := kstreams.NewStreamsBuilder()
		kstreams.Stream(b, []string{"G"}, strConsumed)
		kstreams.GlobalTable(b, "G", strConsumed)
		_, err := b.Build()
		if err == nil || err.Error() != "Invalid topology: Topic G has already been registered by another source." {
			t.Errorf("Build = %v", err)
		}
	})
	t.Run("store name taken", func(t *testing.T) {
		b := kstreams.NewStreamsBuilder()
		kstreams.GlobalTable(b, "G1", strConsumed, kstreams.MaterializedAs[string, string]("g"))
		kstreams.GlobalTable(b, "G2", strConsumed, kstreams.MaterializedAs[string, string]("g"))
		_, err := b.Build()
		if err == nil || err.Error() != "Invalid topology: A different GlobalStateStore has already been added with the name g" {
			t.Errorf("Build = %v", err)
		}
	})
}

// Topology.AddGlobalStore refuses what Kafka Streams 4.4.0's
// Topology.addGlobalStore refuses, with its messages, and describes the
// store's sub-topology as Kafka does.
func TestTopologyAddGlobalStoreAsKafka(t *testing.T) {
	s := serde.String{}
	sb := func(name string) kstreams.StoreBuilder {
		return kstreams.KeyValueStoreBuilder[string, string](name, s, s)
	}
	keep := kstreams.ProcessorFunc(func(kstreams.ProcessorContext, kstreams.Record) error { return nil }).Supplier()
	opts := kstreams.SourceSerdes[string, string](s, s)
	cases := map[string]struct {
		add func(t *kstreams.Topology) error
		msg string
	}{
		"the same source and processor names": {func(t *kstreams.Topology) error {
			return t.AddGlobalStore(sb("g"), "x", opts, "topic", "x", keep)
		}, "Invalid topology: sourceName and processorName must be different."},
		"a topic taken": {func(t *kstreams.Topology) error {
			if err := t.AddSource("s", opts, "topic"); err != nil {
				return err
			}
			return t.AddGlobalStore(sb("g"), "src", opts, "topic", "proc", keep)
		}, "Invalid topology: Topic topic has already been registered by another source."},
		"a global store twice": {func(t *kstreams.Topology) error {
			if err := t.AddGlobalStore(sb("g"), "src", opts, "topic", "proc", keep); err != nil {
				return err
			}
			return t.AddGlobalStore(sb("g"), "src2", opts, "topic2", "proc2", keep)
		}, "Invalid topology: A different GlobalStateStore has already been added with the name g"},
		"a source name taken": {func(t *kstreams.Topology) error {
			if err := t.AddSource("src", opts, "other"); err != nil {
				return err
			}
			return t.AddGlobalStore(sb("g"), "src", opts, "topic", "proc", keep)
		}, "Invalid topology: Processor src is already added."},
		"a local store's name": {func(t *kstreams.Topology) error {
			if err := t.AddSource("s", opts, "other"); err != nil {
				return err
			}
			if err := t.AddProcessor("p", keep, "s"); err != nil {
				return err
			}
			if err := t.AddStateStore(sb("g"), "p"); err != nil {
				return err
			}
			return t.AddGlobalStore(sb("g"), "src", opts, "topic", "proc", keep)
		}, "Invalid topology: A different StateStore has already been added with the name g"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			if err := c.add(kstreams.NewTopology()); err == nil || err.Error() != c.msg {
				t.Fatalf("got %v, want %q", err, c.msg)
			}
		})
	}
	topo := kstreams.NewTopology()
	if err := topo.AddGlobalStore(sb("g"), "src", opts, "topic", "proc", keep); err != nil {
		t.Fatal(err)
	}
	want := "Topologies:\n   Sub-topology: 0 for global store (will not generate tasks)\n" +
		"    Source: src (topics: [topic])\n      --> proc\n    Processor: proc (stores: [g])\n      --> none\n      <-- src\n"
	if got := topo.Describe().String(); got != want {
		t.Errorf("describe():\n%s\nwant:\n%s", got, want)
	}
}
