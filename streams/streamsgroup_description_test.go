package streams_test

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/stoatflow/stoatflow/compat"
	"github.com/stoatflow/stoatflow/examples/wordcount"
	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/serde"
	"github.com/stoatflow/stoatflow/streams"
)

// The expected descriptions below are what Kafka Streams 4.4's
// TopologyDescriptionConverter.toWire gives for the same topologies; the
// first four port its TopologyDescriptionConverterTest, whose mocked
// TopologyDescriptions are built here as real topologies.
// integration.TestStreamsGroupTopologyDescriptionMatchesKafkaStreams checks
// the example topologies against the 4.4 jar and a broker.

func descriptionConfig(t *testing.T, sets ...string) *compat.Config {
	t.Helper()
	cfg, diags := compat.LoadFiles(nil, append([]string{"application.id=app", "bootstrap.servers=b:9092"}, sets...), nil)
	if err := diags.Err(); err != nil {
		t.Fatal(err)
	}
	return cfg
}

func description(t *testing.T, topo *kstreams.Topology, sets ...string) kmsg.TopologyDescription {
	t.Helper()
	got, err := streams.StreamsGroupTopologyDescription(topo, descriptionConfig(t, sets...))
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func checkDescription(t *testing.T, got kmsg.TopologyDescription, subs []kmsg.TopologyDescriptionSubtopology, globals ...kmsg.TopologyDescriptionGlobalStore) {
	t.Helper()
	want := kmsg.TopologyDescription{Subtopologies: subs, GlobalStores: append([]kmsg.TopologyDescriptionGlobalStore{}, globals...)}
	if want.Subtopologies == nil {
		want.Subtopologies = []kmsg.TopologyDescriptionSubtopology{}
	}
	if !reflect.DeepEqual(got, want) {
		g, _ := json.MarshalIndent(got, "", "  ")
		e, _ := json.MarshalIndent(want, "", "  ")
		t.Errorf("description:\n%s\nwant:\n%s", g, e)
	}
}

func subtopology(id string, nodes ...kmsg.TopologyDescriptionNode) kmsg.TopologyDescriptionSubtopology {
	return kmsg.TopologyDescriptionSubtopology{SubtopologyID: id, Nodes: nodes}
}

func sourceNode(name string, topics []string, successors ...string) kmsg.TopologyDescriptionNode {
	return kmsg.TopologyDescriptionNode{Name: name, NodeType: 1, SourceTopics: topics, Stores: []string{}, Successors: append([]string{}, successors...)}
}

func processorNode(name string, stores []string, successors ...string) kmsg.TopologyDescriptionNode {
	return kmsg.TopologyDescriptionNode{Name: name, NodeType: 2, SourceTopics: []string{}, Stores: stores, Successors: append([]string{}, successors...)}
}

// sinkNode is a sink writing to topic; "" for a TopicNameExtractor's.
func sinkNode(name, topic string) kmsg.TopologyDescriptionNode {
	n := kmsg.TopologyDescriptionNode{Name: name, NodeType: 3, SourceTopics: []string{}, Stores: []string{}, Successors: []string{}}
	if topic != "" {
		n.SinkTopic = kmsg.StringPtr(topic)
	}
	return n
}

type nopProcessor struct{}

func (nopProcessor) Init(kstreams.ProcessorContext) error { return nil }
func (nopProcessor) Process(kstreams.Record) error        { return nil }
func (nopProcessor) Close() error                         { return nil }

func nop() kstreams.Processor { return nopProcessor{} }

// papi builds a Processor API topology, failing the test on any step's
// error.
func papi(t *testing.T, steps ...func(*kstreams.Topology) error) *kstreams.Topology {
	t.Helper()
	topo := kstreams.NewTopology()
	for _, step := range steps {
		if err := step(topo); err != nil {
			t.Fatal(err)
		}
	}
	return topo
}

var (
	strSource = kstreams.SourceSerdes[string, string](serde.String{}, serde.String{})
	strSink   = kstreams.SinkSerdes[string, string](serde.String{}, serde.String{})
)

func addSource(name string, topics ...string) func(*kstreams.Topology) error {
	return func(t *kstreams.Topology) error { return t.AddSource(name, strSource, topics...) }
}

func addProcessor(name string, parents ...string) func(*kstreams.Topology) error {
	return func(t *kstreams.Topology) error { return t.AddProcessor(name, nop, parents...) }
}

func addSink(name, topic string, parents ...string) func(*kstreams.Topology) error {
	return func(t *kstreams.Topology) error { return t.AddSink(name, topic, strSink, parents...) }
}

// Kafka's shouldConvertMultipleSubtopologiesWithMultiSourceProcessor: the
// sub-topologies sorted by id, each node with its type, its topics sorted
// and its successors; two sources feeding one processor.
func TestStreamsGroupDescriptionSubtopologiesAndMultiSourceProcessor(t *testing.T) {
	topo := papi(t,
		addSource("source-0", "topic-0-in"), addSink("sink-0", "topic-0-out", "source-0"),
		addSource("source-1-a", "topic-1-z", "topic-1-a"), addSource("source-1-b", "topic-1-m"),
		addProcessor("processor-1", "source-1-a", "source-1-b"), addSink("sink-1", "topic-1-out", "processor-1"))
	checkDescription(t, description(t, topo), []kmsg.TopologyDescriptionSubtopology{
		subtopology("0", sinkNode("sink-0", "topic-0-out"), sourceNode("source-0", []string{"topic-0-in"}, "sink-0")),
		subtopology("1",
			processorNode("processor-1", []string{}, "sink-1"),
			sinkNode("sink-1", "topic-1-out"),
			sourceNode("source-1-a", []string{"topic-1-a", "topic-1-z"}, "processor-1"),
			sourceNode("source-1-b", []string{"topic-1-m"}, "processor-1")),
	})
}

// Kafka's shouldConvertBranchTopology: a source's successors sorted by name.
func TestStreamsGroupDescriptionBranch(t *testing.T) {
	topo := papi(t, addSource("source", "input-topic"),
		addProcessor("processor-2", "source"), addProcessor("processor-1", "source"),
		addSink("sink", "output-topic", "processor-1", "processor-2"))
	checkDescription(t, description(t, topo), []kmsg.TopologyDescriptionSubtopology{
		subtopology("0",
			processorNode("processor-1", []string{}, "sink"),
			processorNode("processor-2", []string{}, "sink"),
			sinkNode("sink", "output-topic"),
			sourceNode("source", []string{"input-topic"}, "processor-1", "processor-2")),
	})
}

// Kafka's shouldConvertTopologyWithStatefulProcessorAndGlobalStore: a
// processor's stores sorted; a global store under GlobalStores, not
// among the sub-topologies, its source succeeded by its processor.
func TestStreamsGroupDescriptionStoresAndGlobalStore(t *testing.T) {
	kv := func(name string) kstreams.StoreBuilder {
		return kstreams.KeyValueStoreBuilder[string, string](name, serde.String{}, serde.String{})
	}
	topo := papi(t, addSource("source", "input-topic"), addProcessor("processor", "source"),
		func(t *kstreams.Topology) error { return t.AddStateStore(kv("store-2"), "processor") },
		func(t *kstreams.Topology) error { return t.AddStateStore(kv("store-1"), "processor") },
		addSink("sink", "output-topic", "processor"),
		func(t *kstreams.Topology) error {
			return t.AddGlobalStore(kv("global-store").WithLoggingDisabled(), "global-source", strSource, "global-topic", "global-processor", nop)
		})
	global := kmsg.TopologyDescriptionGlobalStore{
		Source:    sourceNode("global-source", []string{"global-topic"}, "global-processor"),
		Processor: processorNode("global-processor", []string{"global-store"}),
	}
	checkDescription(t, description(t, topo), []kmsg.TopologyDescriptionSubtopology{
		subtopology("0",
			processorNode("processor", []string{"store-1", "store-2"}, "sink"),
			sinkNode("sink", "output-topic"),
			sourceNode("source", []string{"input-topic"}, "processor")),
	}, global)
}

// Kafka's shouldConvertSinkWithDynamicTopic: a TopicNameExtractor's sink
// has a null topic.
func TestStreamsGroupDescriptionDynamicSink(t *testing.T) {
	topo := papi(t, addSource("source", "input-topic"), func(t *kstreams.Topology) error {
		return t.AddDynamicSink("sink", kstreams.TopicNameExtractor[any, any]{Name: "by-key",
			Extract: func(any, any, kstreams.RecordContext) string { return "out" }}, strSink, "source")
	})
	checkDescription(t, description(t, topo), []kmsg.TopologyDescriptionSubtopology{
		subtopology("0", sinkNode("sink", ""), sourceNode("source", []string{"input-topic"}, "sink")),
	})
}

// Kafka's shouldApplyTopicNameDecorator, on the word count: the
// repartition topic, written by the first sub-topology's sink and read by
// the second's source, is decorated with the application id (Kafka's
// InternalTopologyBuilder.maybeDecorateInternalTopic); the user's topics
// are not.
func TestStreamsGroupDescriptionDecoratesInternalTopics(t *testing.T) {
	topo, err := wordcount.Build(nil)
	if err != nil {
		t.Fatal(err)
	}
	rp := "app-KSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition"
	checkDescription(t, description(t, topo), []kmsg.TopologyDescriptionSubtopology{
		subtopology("0",
			processorNode("KSTREAM-FILTER-0000000006", []string{}, "KSTREAM-SINK-0000000005"),
			processorNode("KSTREAM-FLATMAPVALUES-0000000001", []string{}, "KSTREAM-KEY-SELECT-0000000002"),
			processorNode("KSTREAM-KEY-SELECT-0000000002", []string{}, "KSTREAM-FILTER-0000000006"),
			sinkNode("KSTREAM-SINK-0000000005", rp),
			sourceNode("KSTREAM-SOURCE-0000000000", []string{"streams-plaintext-input"}, "KSTREAM-FLATMAPVALUES-0000000001")),
		subtopology("1",
			processorNode("KSTREAM-AGGREGATE-0000000004", []string{"KSTREAM-AGGREGATE-STATE-STORE-0000000003"}, "KTABLE-TOSTREAM-0000000008"),
			sinkNode("KSTREAM-SINK-0000000009", "streams-wordcount-output"),
			sourceNode("KSTREAM-SOURCE-0000000007", []string{rp}, "KSTREAM-AGGREGATE-0000000004"),
			processorNode("KTABLE-TOSTREAM-0000000008", []string{}, "KSTREAM-SINK-0000000009")),
	})
}

// Node names and successors sort as Java's String.compareTo sorts them,
// by UTF-16 code unit: a name with a character above U+FFFF (a surrogate
// pair, from 0xD800) sorts before one with U+FFFD, where Go's byte order
// puts it after. (Stores and topics sort the same way, but their names
// are ASCII.)
func TestStreamsGroupDescriptionSortsAsJava(t *testing.T) {
	const emoji, replacement = "p-\U0001F600", "p-\uFFFD"
	if strings.Compare(emoji, replacement) < 0 {
		t.Fatal("the names do not tell Java's order from Go's")
	}
	if streams.JavaStringCompare(emoji, replacement) >= 0 || streams.JavaStringCompare("a", "ab") >= 0 || streams.JavaStringCompare("b", "a") <= 0 ||
		streams.JavaStringCompare(emoji, emoji) != 0 {
		t.Fatal("JavaStringCompare is not String.compareTo")
	}
	topo := papi(t, addSource("src", "input"),
		addProcessor(replacement, "src"), addProcessor(emoji, "src"),
		addSink("sink-\uFFFD", "out", emoji), addSink("sink-\U0001F600", "out", emoji))
	checkDescription(t, description(t, topo), []kmsg.TopologyDescriptionSubtopology{
		subtopology("0",
			processorNode(emoji, []string{}, "sink-\U0001F600", "sink-\uFFFD"),
			processorNode(replacement, []string{}),
			sinkNode("sink-\U0001F600", "out"),
			sinkNode("sink-\uFFFD", "out"),
			sourceNode("src", []string{"input"}, emoji, replacement)),
	})
}

// With topology.description.push.enabled=false a stream thread's member
// has no description, and pushes nothing when its group asks for one (as a
// Kafka Streams member, whose StreamsRebalanceData then has no wire
// description); by default it has the topology's.
func TestStreamsGroupDescriptionPushDisabled(t *testing.T) {
	topo, err := wordcount.Build(nil)
	if err != nil {
		t.Fatal(err)
	}
	off, err := streams.TopologyDescriptionToPush(topo, descriptionConfig(t, "topology.description.push.enabled=false"))
	if err != nil || off != nil {
		t.Fatalf("push disabled: description %v, err %v; want none", off, err)
	}
	on, err := streams.TopologyDescriptionToPush(topo, descriptionConfig(t))
	if err != nil || on == nil {
		t.Fatalf("push enabled by default: description %v, err %v", on, err)
	}
	if want := description(t, topo); !reflect.DeepEqual(*on, want) {
		t.Errorf("pushed description differs from StreamsGroupTopologyDescription's")
	}
	if !slices.ContainsFunc(on.Subtopologies, func(s kmsg.TopologyDescriptionSubtopology) bool { return len(s.Nodes) > 0 }) {
		t.Error("the pushed description has no nodes")
	}
}
