// For the runtime only (see "For the runtime" in the package documentation):
// what a runtime reads of a built topology to plan its tasks, topics and
// stores.

package kstreams

import "slices"

// TopicRef names a topic as the topology knows it. Internal topics are kept
// undecorated; Decorated gives the name on the broker.
type TopicRef struct {
	Name     string
	Internal bool
}

// Decorated returns the broker topic name: internal topics are prefixed with
// the application id and a dash.
func (r TopicRef) Decorated(applicationID string) string {
	if r.Internal {
		return applicationID + "-" + r.Name
	}
	return r.Name
}

// ChangelogTopic returns a store's changelog topic name,
// <application.id>-<store>-changelog.
func ChangelogTopic(applicationID, store string) string {
	return applicationID + "-" + store + "-changelog"
}

// SubtopologyInfo is what a runtime needs to know about one sub-topology.
type SubtopologyInfo struct {
	ID int
	// Global marks the sub-topology of a global store: it generates no
	// tasks, and its entry lists no nodes, topics or stores (GlobalStores
	// describes it).
	Global bool
	// Nodes in insertion order, which is a topological order.
	Nodes []string
	// Sources and Sinks in the order their nodes were added.
	Sources []TopicRef
	Sinks   []TopicRef
	// Stores connected to the sub-topology's processors, in creation order.
	Stores []*StoreSpec
}

// Subtopologies lists the sub-topologies in id order.
func (t *Topology) Subtopologies() []SubtopologyInfo {
	out := make([]SubtopologyInfo, len(t.groups))
	for id, names := range t.groups {
		if _, ok := t.globalOf(id); ok {
			out[id] = SubtopologyInfo{ID: id, Global: true}
			continue
		}
		info := SubtopologyInfo{ID: id, Nodes: slices.Clone(names)}
		for _, name := range names {
			n := t.byName[name]
			switch n.kind {
			case SourceNode:
				for _, topic := range n.topics {
					info.Sources = append(info.Sources, TopicRef{Name: topic, Internal: t.repartition[topic] != nil})
				}
			case SinkNode:
				if n.topicFn != nil {
					continue // its topics are known only at run time
				}
				ref := TopicRef{Name: n.topic, Internal: t.repartition[n.topic] != nil}
				if !slices.Contains(info.Sinks, ref) {
					info.Sinks = append(info.Sinks, ref)
				}
			}
		}
		info.Stores = t.groupStores(id)
		out[id] = info
	}
	return out
}

// Store returns the spec of a store by name.
func (t *Topology) Store(name string) (*StoreSpec, bool) {
	s, ok := t.stores[name]
	return s, ok
}

// SubtopologyOfTopic returns the id of the sub-topology that reads topic
// (undecorated for internal topics).
func (t *Topology) SubtopologyOfTopic(topic string) (int, bool) {
	for _, n := range t.nodes {
		if _, global := t.globalOf(t.groupOf[n.name]); global {
			continue
		}
		if n.kind == SourceNode && slices.Contains(n.topics, topic) {
			return t.groupOf[n.name], true
		}
	}
	return 0, false
}

// GlobalStoreInfo is what a runtime needs to know about one global store.
type GlobalStoreInfo struct {
	// ID is the store's sub-topology id, from the sequence stream
	// sub-topologies use; the sub-topology generates no tasks.
	ID int
	// Topic is the global topic: it is also the store's changelog (a global
	// store has no changelog topic of its own).
	Topic     string
	Source    string
	Processor string
	Store     *StoreSpec
	// ReprocessOnRestore says how the store restores: true (AddGlobalStore)
	// runs the topic's records through the processor; false (GlobalTable)
	// writes the topic's bytes into the store as they are, as Kafka Streams
	// restores a global table.
	ReprocessOnRestore bool
}

// GlobalStores lists the global stores in id order.
func (t *Topology) GlobalStores() []GlobalStoreInfo {
	out := make([]GlobalStoreInfo, 0, len(t.globals))
	for _, g := range t.globals {
		out = append(out, GlobalStoreInfo{ID: t.groupOf[g.source], Topic: g.topic, Source: g.source, Processor: g.processor,
			Store: t.stores[g.store], ReprocessOnRestore: g.reprocess})
	}
	return out
}

// StoreSourceTopics returns the source topics of a store as Kafka Streams
// maps a store to them for interactive-query routing
// (InternalTopologyBuilder.sourceTopicsForStore): the topics of the source
// nodes upstream of the first processor connected to the store, through
// processors only, in the order the nodes were added. Internal topics are
// undecorated. ok is false for a store the topology lacks, a global store
// (every instance holds all of it) and a store no processor is connected
// to; a pattern source counts only the topics MatchPatterns gave it.
func (t *Topology) StoreSourceTopics(store string) (topics []TopicRef, ok bool) {
	s, found := t.stores[store]
	if !found || t.isGlobalStore(store) || len(s.users) == 0 {
		return nil, false
	}
	sources := map[string]bool{}
	seen := map[string]bool{}
	var walk func(names []string)
	walk = func(names []string) {
		for _, name := range names {
			n := t.byName[name]
			if n == nil || seen[name] {
				continue
			}
			seen[name] = true
			switch n.kind {
			case SourceNode:
				sources[name] = true
			case ProcessorNode:
				walk(n.preds)
			}
		}
	}
	walk(t.byName[s.users[0]].preds)
	for _, n := range t.nodes {
		if !sources[n.name] {
			continue
		}
		for _, topic := range n.topics {
			ref := TopicRef{Name: topic, Internal: t.repartition[topic] != nil}
			if !slices.Contains(topics, ref) {
				topics = append(topics, ref)
			}
		}
	}
	return topics, len(topics) > 0
}

// CopartitionSource is one source node of a co-partitioning with its
// topics (see Topology.CopartitionSources).
type CopartitionSource struct {
	Node string
	// Topics are the node's topics, internal ones undecorated; none for a
	// pattern source before MatchPatterns.
	Topics []TopicRef
}

// CopartitionSources returns every co-partitioning the topology's joins,
// cogroups and foreign-key joins asked for, in the order they asked: the
// source nodes whose topics must share one partition count, as Kafka's
// InternalTopologyBuilder.copartitionSourceGroups holds them. Unlike
// CopartitionGroups it keeps a co-partitioning of one topic (a self-join's)
// and a foreign-key join's two (its subscription topic with the right
// table's sources, its response topic with the left table's), and does not
// merge co-partitionings that share a topic. Nodes are in the order the
// join met them; a node the topology no longer has is left out.
func (t *Topology) CopartitionSources() [][]CopartitionSource {
	out := make([][]CopartitionSource, 0, len(t.copartitionSources))
	for _, g := range t.copartitionSources {
		var group []CopartitionSource
		for _, name := range g {
			n, ok := t.byName[name]
			if !ok || n.kind != SourceNode {
				continue
			}
			src := CopartitionSource{Node: name}
			for _, topic := range n.topics {
				src.Topics = append(src.Topics, TopicRef{Name: topic, Internal: t.repartition[topic] != nil})
			}
			group = append(group, src)
		}
		out = append(out, group)
	}
	return out
}
