package streams

import (
	"slices"
	"strconv"
	"unicode/utf16"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/stoatflow/stoatflow/compat"
	"github.com/stoatflow/stoatflow/kstreams"
)

// The node types of a pushed topology description (KIP-1331).
const (
	descriptionSource    int8 = 1
	descriptionProcessor int8 = 2
	descriptionSink      int8 = 3
)

// StreamsGroupTopologyDescription returns the topology description a
// Kafka Streams 4.4 member pushes to its streams group's coordinator when
// a heartbeat's answer asks for it (KIP-1331,
// StreamsGroupTopologyDescriptionUpdate), for topo under cfg, field for
// field and in the same order, so that the broker's plugin stores for a
// StoatFlow member what it stores for a Kafka Streams one. topo is
// optimized as cfg asks, as New does.
//
// As Kafka's TopologyDescriptionConverter.toWire builds it from the
// topology's describe() (StreamThread.initStreamsRebalanceData):
//   - the sub-topologies that generate tasks, sorted by id, each id the
//     decimal sub-topology number; their nodes sorted by name;
//   - each node's name, type (1 source, 2 processor, 3 sink) and
//     successors' names, sorted; a source's topics, repartition topics
//     decorated with the application id, sorted after decoration (empty
//     for a pattern source); a sink's topic, decorated likewise (null for
//     a TopicNameExtractor); a processor's stores, sorted;
//   - the global stores, sorted by id, each as its source node (its topic,
//     its processor as successor) and processor node (its store).
//
// Names sort as Java's String.compareTo sorts them, by UTF-16 code unit.
func StreamsGroupTopologyDescription(topo *kstreams.Topology, cfg *compat.Config) (kmsg.TopologyDescription, error) {
	out := kmsg.NewTopologyDescription()
	topo, err := topo.Optimize(cfg.Optimizations)
	if err != nil {
		return out, err
	}
	d := topo.Describe()
	app := cfg.ApplicationID
	out.Subtopologies = []kmsg.TopologyDescriptionSubtopology{}
	for _, st := range d.Subtopologies() {
		sub := kmsg.NewTopologyDescriptionSubtopology()
		sub.SubtopologyID = strconv.Itoa(st.ID)
		sub.Nodes = make([]kmsg.TopologyDescriptionNode, 0, len(st.Nodes))
		for _, n := range st.Nodes {
			sub.Nodes = append(sub.Nodes, descriptionNode(n, app))
		}
		slices.SortStableFunc(sub.Nodes, func(a, b kmsg.TopologyDescriptionNode) int { return javaStringCompare(a.Name, b.Name) })
		out.Subtopologies = append(out.Subtopologies, sub)
	}
	slices.SortStableFunc(out.Subtopologies, func(a, b kmsg.TopologyDescriptionSubtopology) int {
		ia, _ := strconv.Atoi(a.SubtopologyID)
		ib, _ := strconv.Atoi(b.SubtopologyID)
		return ia - ib
	})
	globals := slices.Clone(d.GlobalStores())
	slices.SortStableFunc(globals, func(a, b kstreams.DescribedGlobalStore) int { return a.ID - b.ID })
	out.GlobalStores = make([]kmsg.TopologyDescriptionGlobalStore, 0, len(globals))
	for _, g := range globals {
		gs := kmsg.NewTopologyDescriptionGlobalStore()
		gs.Source, gs.Processor = descriptionNode(g.Source, app), descriptionNode(g.Processor, app)
		out.GlobalStores = append(out.GlobalStores, gs)
	}
	return out, nil
}

// descriptionNode is Kafka's TopologyDescriptionConverter.toWireNode: the
// lists a node type does not have stay empty, and its sink topic null.
func descriptionNode(n kstreams.DescribedNode, app string) kmsg.TopologyDescriptionNode {
	w := kmsg.NewTopologyDescriptionNode()
	w.Name = n.Name
	w.SourceTopics, w.Stores = []string{}, []string{}
	w.Successors = javaSorted(n.Successors)
	switch n.Kind {
	case kstreams.SourceNode:
		w.NodeType = descriptionSource
		topics := make([]string, 0, len(n.Topics))
		for _, t := range n.Topics {
			topics = append(topics, t.Decorated(app))
		}
		w.SourceTopics = javaSorted(topics)
	case kstreams.ProcessorNode:
		w.NodeType = descriptionProcessor
		w.Stores = javaSorted(n.Stores)
	case kstreams.SinkNode:
		w.NodeType = descriptionSink
		if n.Topic != nil {
			w.SinkTopic = kmsg.StringPtr(n.Topic.Decorated(app))
		}
	}
	return w
}

// javaSorted is a sorted copy of names, never nil (Java's
// stream().sorted().collect(toList())).
func javaSorted(names []string) []string {
	out := append([]string{}, names...)
	slices.SortStableFunc(out, javaStringCompare)
	return out
}

// javaStringCompare is Java's String.compareTo: lexicographic over UTF-16
// code units. It orders a character above U+FFFF (two surrogates, from
// 0xD800) before one in U+E000..U+FFFF, where Go's byte order of UTF-8
// puts it after.
func javaStringCompare(a, b string) int {
	ua, ub := utf16.Encode([]rune(a)), utf16.Encode([]rune(b))
	for i := range min(len(ua), len(ub)) {
		if ua[i] != ub[i] {
			return int(ua[i]) - int(ub[i])
		}
	}
	return len(ua) - len(ub)
}
