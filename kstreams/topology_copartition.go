package kstreams

import (
	"fmt"
	"slices"
	"strings"
)

// copartition records that the streams ending at the named nodes must be
// co-partitioned, as every join asks (Kafka's ensureCopartitionWith and
// InternalTopologyBuilder.copartitionSources): the topics of the source
// nodes they descend from form one co-partition group. At start,
// InternalTopicPartitions gives the group's repartition topics the
// partition count of its external topics, or the largest count among its
// repartition topics when it has none, and fails when its external topics
// differ. The source nodes are kept too, as Kafka keeps them
// (copartitionSources), for the topology a streams group member sends.
func (b *StreamsBuilder) copartition(nodes ...string) {
	seen := map[string]bool{}
	var topics, sources []string
	var walk func(name string)
	walk = func(name string) {
		if seen[name] {
			return
		}
		seen[name] = true
		n := b.topo.byName[name]
		if n == nil {
			return
		}
		if n.kind == SourceNode {
			sources = append(sources, n.name)
		}
		if n.kind == SourceNode && n.pattern != nil {
			topics = append(topics, patternPlaceholderOf(n.name))
			return
		}
		if n.kind == SourceNode {
			for _, t := range n.topics {
				if !slices.Contains(topics, t) {
					topics = append(topics, t)
				}
			}
			return
		}
		for _, p := range n.preds {
			walk(p)
		}
	}
	for _, n := range nodes {
		walk(n)
	}
	if len(sources) > 0 {
		b.topo.copartitionSources = append(b.topo.copartitionSources, sources)
	}
	slices.Sort(topics)
	// A pattern source counts as one topic here: a group it joins is kept
	// until MatchPatterns knows its topics.
	if len(topics) > 1 {
		b.topo.copartition = append(b.topo.copartition, topics)
	}
}

// CopartitionGroups returns the co-partition groups of the topology: each a
// sorted list of source topics (internal ones undecorated) that must have
// the same number of partitions.
func (t *Topology) CopartitionGroups() [][]string {
	out := make([][]string, 0, len(t.copartition))
	for _, g := range t.copartition {
		g = slices.DeleteFunc(slices.Clone(g), func(topic string) bool { _, ok := patternPlaceholder(topic); return ok })
		if len(g) > 1 {
			out = append(out, g)
		}
	}
	return out
}

// copartitionCount returns the partition count of co-partition group g, as
// Kafka's CopartitionedTopicsEnforcer decides it: the count of its external
// topics, which must all agree, else the largest count of its repartition
// topics (upstream gives each its own). A repartition topic the topology
// fixed must match it.
func (t *Topology) copartitionCount(g []string, external func(topic string) (int, error), upstream func(repartition string) (int, error)) (int, error) {
	ext := map[string]int{}
	for _, topic := range g {
		if t.repartition[topic] != nil {
			continue
		}
		n, err := external(topic)
		if err != nil {
			return 0, err
		}
		ext[topic] = n
	}
	count := 0
	if len(ext) > 0 {
		count = -1
		for _, topic := range g {
			n, ok := ext[topic]
			if !ok {
				continue
			}
			if count >= 0 && n != count {
				return 0, invalidTopology("Topics not co-partitioned: [%s]", javaSortedMap(ext))
			}
			count = n
		}
	} else {
		fixed := map[string]int{}
		for _, topic := range g {
			if p := t.repartition[topic].partitions; p > 0 {
				fixed[topic] = p
			}
		}
		if len(fixed) > 0 {
			for _, n := range fixed {
				if count > 0 && n != count {
					return 0, invalidTopology("Following topics do not have the same number of partitions: [%s]", javaSortedMap(fixed))
				}
				count = n
			}
			return count, nil
		}
		for _, topic := range g {
			n, err := upstream(topic)
			if err != nil {
				return 0, err
			}
			count = max(count, n)
		}
		if count <= 0 {
			return 0, fmt.Errorf("kstreams: could not validate the copartitioning of topics: %v: %w", g, ErrMissingSourceTopic)
		}
	}
	for _, topic := range g {
		if rp := t.repartition[topic]; rp != nil && rp.partitions > 0 && rp.partitions != count {
			return 0, invalidTopology("Number of partitions [%d] of repartition topic [%s] doesn't match number of partitions [%d] of the source topic.",
				rp.partitions, topic, count)
		}
	}
	return count, nil
}

// groupOfTopic returns the co-partition group holding topic, or nil.
func (t *Topology) groupOfTopic(topic string) []string {
	for _, g := range t.copartition {
		if slices.Contains(g, topic) {
			return g
		}
	}
	return nil
}

// javaSortedMap prints m as Java's TreeMap<String, Integer>.toString does:
// {a=1, b=2}.
func javaSortedMap(m map[string]int) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s=%d", k, m[k])
	}
	return "{" + strings.Join(parts, ", ") + "}"
}
