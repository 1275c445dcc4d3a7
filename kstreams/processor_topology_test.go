package kstreams_test

import (
	"errors"
	"testing"

	"github.com/stoatflow/stoatflow/examples/ttl"
	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/serde"
)

var noop = kstreams.ProcessorFunc(func(kstreams.ProcessorContext, kstreams.Record) error { return nil }).Supplier()

// TestProcessorAPIRejectsWhatKafkaStreamsRejects ports the rejections of
// Kafka's TopologyTest, with the messages of its InternalTopologyBuilder.
func TestProcessorAPIRejectsWhatKafkaStreamsRejects(t *testing.T) {
	store := kstreams.KeyValueStoreBuilder[string, int64]("store", serde.String{}, serde.Long{})
	none := kstreams.SourceOptions{}
	cases := []struct {
		name  string
		setup func(*kstreams.Topology) error
		call  func(*kstreams.Topology) error
		want  string
	}{
		{"zero topics", nil, func(t *kstreams.Topology) error { return t.AddSource("source", none) },
			"Invalid topology: You must provide at least one topic"},
		{"sources with the same name", func(t *kstreams.Topology) error { return t.AddSource("source", none, "topic-1") },
			func(t *kstreams.Topology) error { return t.AddSource("source", none, "topic-2") },
			"Invalid topology: Processor source is already added."},
		{"a topic twice", func(t *kstreams.Topology) error { return t.AddSource("source", none, "topic-1") },
			func(t *kstreams.Topology) error { return t.AddSource("source-2", none, "topic-1") },
			"Invalid topology: Topic topic-1 has already been registered by another source."},
		{"processors with the same name", func(t *kstreams.Topology) error {
			return errors.Join(t.AddSource("source", none, "topic-1"), t.AddProcessor("processor", noop, "source"))
		}, func(t *kstreams.Topology) error { return t.AddProcessor("processor", noop, "source") },
			"Invalid topology: Processor processor is already added."},
		{"a processor without parents", func(t *kstreams.Topology) error { return t.AddSource("source", none, "topic-1") },
			func(t *kstreams.Topology) error { return t.AddProcessor("processor", noop) },
			"Invalid topology: Processor processor must have at least one parent"},
		{"an unknown parent", nil, func(t *kstreams.Topology) error { return t.AddProcessor("processor", noop, "source") },
			"Invalid topology: Predecessor processor source is not added yet for processor"},
		{"a processor its own parent", nil, func(t *kstreams.Topology) error { return t.AddProcessor("processor", noop, "processor") },
			"Invalid topology: Processor processor cannot be a predecessor of itself."},
		{"sinks with the same name", func(t *kstreams.Topology) error {
			return errors.Join(t.AddSource("source", none, "topic-1"), t.AddSink("sink", "topic-2", kstreams.SinkOptions{}, "source"))
		}, func(t *kstreams.Topology) error {
			return t.AddSink("sink", "topic-3", kstreams.SinkOptions{}, "source")
		},
			"Invalid topology: Processor sink is already added."},
		{"a sink without parents", func(t *kstreams.Topology) error { return t.AddSource("source", none, "topic-1") },
			func(t *kstreams.Topology) error { return t.AddSink("sink", "topic-2", kstreams.SinkOptions{}) },
			"Invalid topology: Sink sink must have at least one parent"},
		{"a sink with an unknown parent", nil, func(t *kstreams.Topology) error {
			return t.AddSink("sink", "topic-2", kstreams.SinkOptions{}, "source")
		}, "Invalid topology: Predecessor processor source is not added yet."},
		{"a sink its own parent", nil, func(t *kstreams.Topology) error { return t.AddSink("sink", "topic-2", kstreams.SinkOptions{}, "sink") },
			"Invalid topology: Processor sink cannot be a predecessor of itself."},
		{"a sink as a parent", func(t *kstreams.Topology) error {
			return errors.Join(t.AddSource("source", none, "topic-1"), t.AddSink("sink-1", "topic-2", kstreams.SinkOptions{}, "source"))
		}, func(t *kstreams.Topology) error {
			return t.AddSink("sink-2", "topic-3", kstreams.SinkOptions{}, "sink-1")
		},
			"Invalid topology: Sink sink-1 cannot be used a parent."},
		{"a store for a missing processor", nil, func(t *kstreams.Topology) error { return t.AddStateStore(store, "no-such-processor") },
			"Invalid topology: Processor no-such-processor is not added yet."},
		{"a store on a source", func(t *kstreams.Topology) error { return t.AddSource("source-1", none, "topic-1") },
			func(t *kstreams.Topology) error { return t.AddStateStore(store, "source-1") },
			"Invalid topology: cannot connect a state store store to a source node or a sink node."},
		{"a store on a sink", func(t *kstreams.Topology) error {
			return errors.Join(t.AddSource("source-1", none, "topic-1"), t.AddSink("sink-1", "topic-1", kstreams.SinkOptions{}, "source-1"))
		}, func(t *kstreams.Topology) error { return t.AddStateStore(store, "sink-1") },
			"Invalid topology: cannot connect a state store store to a source node or a sink node."},
		{"two stores of one name", func(t *kstreams.Topology) error { return t.AddStateStore(store) },
			func(t *kstreams.Topology) error { return t.AddStateStore(store) },
			"Invalid topology: A different StateStore has already been added with the name store"},
		{"connecting no store", nil, func(t *kstreams.Topology) error { return t.ConnectProcessorAndStateStores("processor") },
			"Invalid topology: Must provide at least one state store name."},
		{"connecting a missing store", func(t *kstreams.Topology) error {
			return errors.Join(t.AddSource("source", none, "topic-1"), t.AddProcessor("processor", noop, "source"))
		}, func(t *kstreams.Topology) error { return t.ConnectProcessorAndStateStores("processor", "store") },
			"Invalid topology: StateStore store is not added yet."},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			topo := kstreams.NewTopology()
			if c.setup != nil {
				if err := c.setup(topo); err != nil {
					t.Fatal(err)
				}
			}
			before := topo.Describe().String()
			err := c.call(topo)
			if err == nil || err.Error() != c.want || !errors.Is(err, kstreams.ErrInvalidTopology) {
				t.Fatalf("got %v, want %q", err, c.want)
			}
			if after := topo.Describe().String(); after != before {
				t.Errorf("the failed call changed the topology:\n%s\nwas\n%s", after, before)
			}
		})
	}
}

// TestProcessorAPIDescribeMatchesKafkaStreams: the ttl example's describe()
// as its Kafka Streams 4.4 twin prints it (java -jar
// stoatflow-reference.jar ttl --describe --arg input=in --arg wall=w --arg
// output=out).
func TestProcessorAPIDescribeMatchesKafkaStreams(t *testing.T) {
	topo, err := ttl.Build(map[string]string{"input": "in", "wall": "w", "output": "out"})
	if err != nil {
		t.Fatal(err)
	}
	want := `Topologies:
   Sub-topology: 0
    Source: StreamSource (topics: [in])
      --> StreamTtl
    Processor: StreamTtl (stores: [stream-ttl])
      --> StreamSink
      <-- StreamSource
    Sink: StreamSink (topic: out)
      <-- StreamTtl

  Sub-topology: 1
    Source: WallSource (topics: [w])
      --> WallTtl
    Processor: WallTtl (stores: [wall-ttl])
      --> WallSink
      <-- WallSource
    Sink: WallSink (topic: out-wall)
      <-- WallTtl

`
	if got := topo.Describe().String(); got != want {
		t.Errorf("describe() differs:\n--- Kafka Streams\n%s--- StoatFlow\n%s", want, got)
	}
}
