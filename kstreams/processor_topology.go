package kstreams

import (
	"slices"

	"github.com/stoatflow/stoatflow/kstreams/serde"
)

// NewTopology returns an empty topology for the Processor API, Kafka's new
// Topology(): sources, processors and sinks are added by name and wired by
// their parents' names, stores by the names of the processors that use them.
// A topology built by a StreamsBuilder takes the same calls, as Kafka's does.
//
// Each call checks what Kafka Streams' InternalTopologyBuilder checks and
// fails with its message (errors.Is ErrInvalidTopology); a failed call
// changes nothing.
func NewTopology() *Topology { return newTopology() }

// SourceOptions configures a Processor API source. Nil serdes take the
// application's default.key.serde and default.value.serde; a nil extractor
// takes its default.timestamp.extractor.
type SourceOptions struct {
	KeySerde, ValueSerde serde.Untyped
	TimestampExtractor   TimestampExtractor
	// OffsetReset is the source's offset reset policy
	// (addSource(AutoOffsetReset, ...)); unset, auto.offset.reset decides.
	OffsetReset AutoOffsetReset
}

// SourceSerdes is SourceOptions with the given key and value serdes: the
// addSource(name, keyDeserializer, valueDeserializer, topics...) overload.
func SourceSerdes[K, V any](k serde.Serde[K], v serde.Serde[V]) SourceOptions {
	return SourceOptions{KeySerde: serde.Erase(k), ValueSerde: serde.Erase(v)}
}

// SinkOptions configures a Processor API sink. Nil serdes take the
// application's defaults; a nil Partitioner leaves partitions to the key's
// hash, as in a StreamPartitioner that answers ok false.
type SinkOptions struct {
	KeySerde, ValueSerde serde.Untyped
	// Partitioner chooses the partitions of each record, as
	// StreamPartitioner does: ok false for the default, an empty list to
	// drop the record, several to send a copy to each.
	Partitioner func(topic string, key, value any, numPartitions int) (partitions []int32, ok bool)
}

// SinkSerdes is SinkOptions with the given key and value serdes.
func SinkSerdes[K, V any](k serde.Serde[K], v serde.Serde[V]) SinkOptions {
	return SinkOptions{KeySerde: serde.Erase(k), ValueSerde: serde.Erase(v)}
}

// AddSource adds a source node reading topics: Topology.addSource. Records
// reach its children with the keys and values its serdes give.
func (t *Topology) AddSource(name string, opts SourceOptions, topics ...string) error {
	if len(topics) == 0 {
		return invalidTopology("You must provide at least one topic")
	}
	if t.byName[name] != nil {
		return invalidTopology("Processor %s is already added.", name)
	}
	for _, topic := range topics {
		if t.sourceOf(topic) {
			return invalidTopology("Topic %s has already been registered by another source.", topic)
		}
	}
	return t.addPAPINode(&nodeSpec{name: name, kind: SourceNode, topics: slices.Clone(topics),
		key: serdeSpec{explicit: opts.KeySerde}, val: serdeSpec{explicit: opts.ValueSerde}, extractor: opts.TimestampExtractor,
		reset: opts.OffsetReset})
}

// sourceOf reports whether a source node, a global store's included,
// already reads topic.
func (t *Topology) sourceOf(topic string) bool {
	for _, n := range t.nodes {
		if n.kind == SourceNode && slices.Contains(n.topics, topic) {
			return true
		}
	}
	return false
}

// AddProcessor adds a processor node fed by its parents: Topology.addProcessor.
// supplier gives each task its own processor.
func (t *Topology) AddProcessor(name string, supplier func() Processor, parents ...string) error {
	if supplier == nil {
		return errIllegalArgument("supplier must not be null")
	}
	if err := t.checkParents("Processor", name, parents, true); err != nil {
		return err
	}
	return t.addPAPINode(&nodeSpec{name: name, kind: ProcessorNode, preds: slices.Clone(parents), supplier: supplier})
}

// AddSink adds a sink node writing what its parents forward to topic:
// Topology.addSink.
func (t *Topology) AddSink(name, topic string, opts SinkOptions, parents ...string) error {
	if len(parents) == 0 {
		return invalidTopology("Sink %s must have at least one parent", name)
	}
	if err := t.checkParents("Sink", name, parents, false); err != nil {
		return err
	}
	n := opts.sink(name, parents)
	n.topic = topic
	return t.addPAPINode(n)
}

// sink is the node of a sink with these options.
func (opts SinkOptions) sink(name string, parents []string) *nodeSpec {
	return &nodeSpec{name: name, kind: SinkNode, preds: slices.Clone(parents), partitioner: opts.Partitioner,
		key: serdeSpec{explicit: opts.KeySerde}, val: serdeSpec{explicit: opts.ValueSerde}}
}

// AddDynamicSink adds a sink node that writes each record to the topic e
// picks: Topology.addSink with a TopicNameExtractor. The topics must exist;
// Kafka Streams creates none of them.
func (t *Topology) AddDynamicSink(name string, e TopicNameExtractor[any, any], opts SinkOptions, parents ...string) error {
	if e.Extract == nil {
		return errIllegalArgument("topic extractor must not be null")
	}
	if err := t.checkParents("Sink", name, parents, false); err != nil {
		return err
	}
	n := opts.sink(name, parents)
	n.topicFn, n.extractorName = e.Extract, e.Name
	return t.addPAPINode(n)
}

// checkParents applies Kafka's checks of a new node's parents, in its
// order; a sink's missing parent is worded without the node's name, as
// Kafka words it.
func (t *Topology) checkParents(kind, name string, parents []string, processor bool) error {
	if t.byName[name] != nil {
		return invalidTopology("Processor %s is already added.", name)
	}
	if len(parents) == 0 {
		return invalidTopology("%s %s must have at least one parent", kind, name)
	}
	for _, p := range parents {
		pn := t.byName[p]
		switch {
		case p == name:
			return invalidTopology("Processor %s cannot be a predecessor of itself.", name)
		case pn == nil && processor:
			return invalidTopology("Predecessor processor %s is not added yet for %s", p, name)
		case pn == nil:
			return invalidTopology("Predecessor processor %s is not added yet.", p)
		case pn.kind == SinkNode && !processor:
			return invalidTopology("Sink %s cannot be used a parent.", p)
		}
	}
	return nil
}

// addPAPINode adds n and groups the sub-topologies anew.
func (t *Topology) addPAPINode(n *nodeSpec) error {
	if err := t.addNode(n); err != nil {
		return err
	}
	t.finish()
	return nil
}

// AddStateStore adds a store and connects it to the named processors:
// Topology.addStateStore. A store connected to processors of two
// sub-topologies joins them into one.
func (t *Topology) AddStateStore(sb StoreBuilder, processors ...string) error {
	s, err := sb.spec()
	if err != nil {
		return err
	}
	if t.stores[s.Name] != nil {
		return invalidTopology("A different StateStore has already been added with the name %s", s.Name)
	}
	for _, p := range processors {
		if err := t.checkStoreUser(p, s.Name); err != nil {
			return err
		}
	}
	if err := t.addStore(s); err != nil {
		return err
	}
	for _, p := range processors {
		if err := t.connectStore(p, s.Name); err != nil {
			return err
		}
	}
	t.finish()
	return nil
}

// AddReadOnlyStateStore adds a store that processorName keeps from topic,
// which serves as its changelog: Topology.addReadOnlyStateStore. As in
// Kafka, it adds the source sourceName over topic (with opts' serdes and
// extractor), the processor fed by it, and the store, with logging off
// (sb's logging setting is overridden); a task restores the store from
// topic up to the group's committed offset, copying the records' bytes as
// they are, without running the processor. The topic should be compacted.
// Kafka reads it from its earliest offset when the group has none; a
// StoatFlow application started with auto.offset.reset=latest says so in
// its log and reads it from its end.
func (t *Topology) AddReadOnlyStateStore(sb StoreBuilder, sourceName string, opts SourceOptions, topic, processorName string, supplier func() Processor) error {
	sb = sb.WithLoggingDisabled()
	if err := t.AddSource(sourceName, opts, topic); err != nil {
		return err
	}
	if err := t.AddProcessor(processorName, supplier, sourceName); err != nil {
		return err
	}
	if err := t.AddStateStore(sb, processorName); err != nil {
		return err
	}
	t.stores[sb.Name].SourceChangelog = topic
	return nil
}

// ReadOnlyStoreTopics lists, by store, the source topics that serve as the
// changelogs of the stores AddReadOnlyStateStore added.
func (t *Topology) ReadOnlyStoreTopics() map[string]string {
	out := map[string]string{}
	for name, s := range t.stores {
		if s.SourceChangelog != "" && s.tableTopic == "" {
			out[name] = s.SourceChangelog
		}
	}
	return out
}

// checkStoreUser checks that processor can be connected to a store, with
// Kafka's messages.
func (t *Topology) checkStoreUser(processor, store string) error {
	switch n := t.byName[processor]; {
	case n == nil:
		return invalidTopology("Processor %s is not added yet.", processor)
	case n.kind != ProcessorNode:
		return invalidTopology("cannot connect a state store %s to a source node or a sink node.", store)
	}
	return nil
}

// ConnectProcessorAndStateStores gives a processor access to stores added
// before: Topology.connectProcessorAndStateStores.
func (t *Topology) ConnectProcessorAndStateStores(processor string, stores ...string) error {
	if len(stores) == 0 {
		return invalidTopology("Must provide at least one state store name.")
	}
	for _, s := range stores {
		switch {
		case t.isGlobalStore(s):
			return invalidTopology("Global StateStore %s can be used by a Processor without being specified; it should not be explicitly passed.", s)
		case t.stores[s] == nil:
			return invalidTopology("StateStore %s is not added yet.", s)
		}
		if err := t.checkStoreUser(processor, s); err != nil {
			return err
		}
	}
	for _, s := range stores {
		if err := t.connectStore(processor, s); err != nil {
			return err
		}
	}
	t.finish()
	return nil
}
