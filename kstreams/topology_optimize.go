package kstreams

import (
	"fmt"
	"maps"
	"slices"
)

// The optimizations of topology.optimization, in Kafka Streams' words.
const (
	OptimizeReuseKTableSourceTopics = "reuse.ktable.source.topics"
	OptimizeMergeRepartitionTopics  = "merge.repartition.topics"
	OptimizeSingleStoreSelfJoin     = "single.store.self.join"
)

// Optimize returns the topology as Kafka Streams 4.4 builds it with
// StreamsBuilder.build(props) under the given topology.optimization
// rewrites (the parsed list; "all" is all three), applied in Kafka's order:
// reuse.ktable.source.topics, merge.repartition.topics,
// single.store.self.join. Applying an optimization twice changes nothing.
// The receiver is not changed; the copy is for running and describing, not
// for adding to.
func (t *Topology) Optimize(optimizations []string) (*Topology, error) {
	out := t
	if slices.Contains(optimizations, OptimizeReuseKTableSourceTopics) && !slices.Contains(t.optimized, OptimizeReuseKTableSourceTopics) {
		out = out.ReuseTableSourceTopics()
	}
	if slices.Contains(optimizations, OptimizeMergeRepartitionTopics) && !slices.Contains(t.optimized, OptimizeMergeRepartitionTopics) {
		var err error
		if out, err = out.MergeRepartitionTopics(); err != nil {
			return nil, err
		}
	}
	if slices.Contains(optimizations, OptimizeSingleStoreSelfJoin) && !slices.Contains(t.optimized, OptimizeSingleStoreSelfJoin) {
		out = out.RewriteSelfJoins()
	}
	return out, nil
}

// ReuseTableSourceTopics returns the topology as Kafka Streams 4.4 runs it
// under topology.optimization's reuse.ktable.source.topics (part of
// "all"): the store of every builder.table reads its source topic as its
// changelog and has no changelog topic of its own, as Kafka's
// TableSourceNode sets it up (StoreSpec.SourceChangelog). describe() is the
// same either way. The receiver is not changed; the copy shares its nodes
// and is for running, not for adding to.
func (t *Topology) ReuseTableSourceTopics() *Topology {
	c := *t
	c.optimized = append(slices.Clip(t.optimized), OptimizeReuseKTableSourceTopics)
	c.stores = maps.Clone(t.stores)
	for name, s := range c.stores {
		if s.tableTopic == "" {
			continue
		}
		reused := *s
		reused.Logging, reused.LogConfig, reused.SourceChangelog = false, nil, s.tableTopic
		c.stores[name] = &reused
	}
	return &c
}

// MergeRepartitionTopics returns the topology as Kafka Streams 4.4 builds it
// under topology.optimization's merge.repartition.topics (part of "all"),
// InternalStreamsBuilder.mergeRepartitionTopics: the repartitions below one
// key-changing operation (selectKey, map, flatMap, groupBy, process, or a
// merge of streams keyed by them) become one, placed right after it, named
// after the first of them and written with the first key and value serdes
// any of them names. The operators between the key change and each former
// repartition move behind the merged one, with every branch they have. A
// repartition is left alone when a value-changing operation (mapValues,
// flatMapValues, process, processValues) comes between it and the key
// change, and repartition() is never merged. A topology with one such
// repartition still changes: its sink, filter and source take the names
// "<topic>-sink", "-filter" and "-source", as Kafka's do.
func (t *Topology) MergeRepartitionTopics() (*Topology, error) {
	if len(t.optimizable) == 0 {
		return t, nil // a Processor API topology, or one without repartitions
	}
	c := t.deepCopy()
	c.optimized = append(slices.Clip(t.optimized), OptimizeMergeRepartitionTopics)
	for _, g := range c.mergeGroups() {
		if err := c.mergeRepartitions(g.at, g.units); err != nil {
			return nil, err
		}
	}
	c.optimizable = nil
	c.relink()
	c.relaxNullKeyFilters()
	c.finish()
	return c, nil
}

// deepCopy copies the graph so that its edges can be rewritten; the
// suppliers, stores and serdes are shared.
func (t *Topology) deepCopy() *Topology {
	c := *t
	c.nodes = make([]*nodeSpec, len(t.nodes))
	c.byName = make(map[string]*nodeSpec, len(t.nodes))
	for i, n := range t.nodes {
		cp := *n
		cp.preds, cp.succs = slices.Clone(n.preds), slices.Clone(n.succs)
		c.nodes[i] = &cp
		c.byName[cp.name] = &cp
	}
	c.repartition = maps.Clone(t.repartition)
	c.copartition = make([][]string, len(t.copartition))
	for i, g := range t.copartition {
		c.copartition[i] = slices.Clone(g)
	}
	c.copartitionSources = make([][]string, len(t.copartitionSources))
	for i, g := range t.copartitionSources {
		c.copartitionSources[i] = slices.Clone(g)
	}
	c.nullKeys = nullKeyJoins{joins: slices.Clone(t.nullKeys.joins), filters: maps.Clone(t.nullKeys.filters)}
	return &c
}

// mergeGroup is a node with the repartitions to merge behind it.
type mergeGroup struct {
	at    string
	units []repartitionUnit
}

// mergeGroups finds, as Kafka's InternalStreamsBuilder does, each
// key-changing node's repartitions (those whose nearest key- or
// value-changing ancestor is that node), then gives a merge node the
// repartitions of every key changer above it when all of them lie below it.
func (t *Topology) mergeGroups() []mergeGroup {
	var groups []mergeGroup
	index := map[string]int{}
	for _, n := range t.nodes {
		if n.keyChanging {
			index[n.name] = len(groups)
			groups = append(groups, mergeGroup{at: n.name})
		}
	}
	for _, u := range t.optimizable {
		changer := t.findUp(u.filter, func(n *nodeSpec) bool { return n.keyChanging || n.valueChanging })
		if changer == nil || !changer.keyChanging {
			continue
		}
		// findUp takes the nearest match; Kafka asks for the nearest key
		// changer as well and requires the two to be one node.
		if keyChanger := t.findUp(u.filter, func(n *nodeSpec) bool { return n.keyChanging }); keyChanger != changer {
			continue
		}
		if i, ok := index[changer.name]; ok {
			groups[i].units = append(groups[i].units, u)
		}
	}
	removed := map[string]bool{}
	var merged []mergeGroup
	for _, m := range t.nodes {
		if !m.merge {
			continue
		}
		g := mergeGroup{at: m.name}
		for _, kc := range groups {
			below := func(u repartitionUnit) bool { return t.findUp(u.filter, t.childOf(m.name)) != nil }
			if allMatch(kc.units, below) && t.findUp(m.name, t.childOf(kc.at)) != nil {
				g.units = append(g.units, kc.units...)
				removed[kc.at] = true
			}
		}
		merged = append(merged, g)
	}
	groups = slices.DeleteFunc(groups, func(g mergeGroup) bool { return removed[g.at] })
	groups = append(groups, merged...)
	return slices.DeleteFunc(groups, func(g mergeGroup) bool { return len(g.units) == 0 })
}

func allMatch[T any](xs []T, f func(T) bool) bool {
	for _, x := range xs {
		if !f(x) {
			return false
		}
	}
	return true
}

// childOf matches the nodes that have name among their parents.
func (t *Topology) childOf(name string) func(*nodeSpec) bool {
	return func(n *nodeSpec) bool { return slices.Contains(t.parents(n), name) }
}

// parents are a node's parents in Kafka's graph: its predecessors, and for a
// repartition's source the filter that writes its topic.
func (t *Topology) parents(n *nodeSpec) []string {
	if n.kind == SourceNode {
		if f, ok := t.nullKeys.filters[n.name]; ok {
			return []string{f}
		}
	}
	return n.preds
}

// findUp is Kafka's findParentNodeMatching: start itself if it matches,
// else the first parent that matches, else what the search above the last
// parent finds (the earlier parents' searches are overwritten, as Kafka's
// are).
func (t *Topology) findUp(start string, match func(*nodeSpec) bool) *nodeSpec {
	n := t.byName[start]
	if n == nil {
		return nil
	}
	if match(n) {
		return n
	}
	var found *nodeSpec
	for _, p := range t.parents(n) {
		pn := t.byName[p]
		if pn == nil {
			continue
		}
		if match(pn) {
			return pn
		}
		found = t.findUp(p, match)
	}
	return found
}

// mergeRepartitions replaces units with one repartition right after node
// at, unit by unit as Kafka does: the child of at above the unit moves
// behind the merged repartition, then the unit's nodes leave the graph.
// It rewrites predecessors only; the caller relinks the successors.
func (t *Topology) mergeRepartitions(at string, units []repartitionUnit) error {
	units = slices.DeleteFunc(slices.Clone(units), func(u repartitionUnit) bool { return t.byName[u.filter] == nil })
	if len(units) == 0 {
		return nil // merged behind an earlier merge node already
	}
	first := units[0]
	merged := repartitionUnit{topic: first.topic, filter: first.topic + "-filter", sink: first.topic + "-sink", source: first.topic + "-source",
		key: firstNamedSerde(units, func(u repartitionUnit) serdeSpec { return u.key }),
		val: firstNamedSerde(units, func(u repartitionUnit) serdeSpec { return u.val })}
	for _, u := range units {
		child := t.findUp(u.filter, t.childOf(at))
		if child == nil {
			return fmt.Errorf("kstreams: merge.repartition.topics: found no child of %s above the repartition %s "+
				"(Kafka Streams fails this topology with \"Found a null keyChangingChild node\"): build it without the optimization", at, u.topic)
		}
		child.preds = replaceAll(child.preds, at, merged.source)
		t.removeRepartition(u)
	}
	t.repartition[merged.topic] = &repartitionSpec{name: merged.topic}
	for i, g := range t.copartition {
		for _, u := range units {
			g = replaceAll(g, u.topic, merged.topic)
		}
		slices.Sort(g)
		t.copartition[i] = slices.Compact(g)
	}
	// Kafka's maybeUpdateCopartitionSourceGroups: the merged source takes
	// the place of each source it replaces.
	for i, g := range t.copartitionSources {
		for _, u := range units {
			g = replaceAll(g, u.source, merged.source)
		}
		seen := map[string]bool{}
		t.copartitionSources[i] = slices.DeleteFunc(g, func(n string) bool {
			dup := seen[n]
			seen[n] = true
			return dup
		})
	}
	t.nullKeys.filters[merged.source] = merged.filter
	var added []*nodeSpec
	merged.add(at, func(n *nodeSpec) { added = append(added, n) })
	for _, n := range added {
		if _, dup := t.byName[n.name]; dup {
			return invalidTopology("Processor %s is already added.", n.name)
		}
		t.byName[n.name] = n
	}
	i := slices.IndexFunc(t.nodes, func(n *nodeSpec) bool { return n.name == at })
	t.nodes = slices.Insert(t.nodes, i+1, added...)
	return nil
}

// removeRepartition takes u's nodes out of the graph: the records its
// source forwarded come from its filter's parents instead.
func (t *Topology) removeRepartition(u repartitionUnit) {
	parents := t.byName[u.filter].preds
	for _, c := range t.nodes {
		if i := slices.Index(c.preds, u.source); i >= 0 {
			c.preds = slices.Compact(slices.Replace(slices.Clone(c.preds), i, i+1, parents...))
		}
	}
	gone := map[string]bool{u.filter: true, u.sink: true, u.source: true}
	t.nodes = slices.DeleteFunc(t.nodes, func(n *nodeSpec) bool { return gone[n.name] })
	for name := range gone {
		delete(t.byName, name)
	}
	delete(t.repartition, u.topic)
	delete(t.nullKeys.filters, u.source)
}

// relink rebuilds every node's successors from the predecessors, in node
// order, as Kafka's topology builder orders a node's children.
func (t *Topology) relink() {
	for _, n := range t.nodes {
		n.succs = nil
	}
	for _, n := range t.nodes {
		for _, p := range n.preds {
			if pn := t.byName[p]; pn != nil && !slices.Contains(pn.succs, n.name) {
				pn.succs = append(pn.succs, n.name)
			}
		}
	}
}

// firstNamedSerde is the first serde the units name, else the first unit's
// (Kafka's getRepartitionSerdes: the first non-null one, else the default).
func firstNamedSerde(units []repartitionUnit, of func(repartitionUnit) serdeSpec) serdeSpec {
	for _, u := range units {
		if s := of(u); s.explicit != nil {
			return s
		}
	}
	return of(units[0])
}

func replaceAll(xs []string, old, repl string) []string {
	out := slices.Clone(xs)
	for i, x := range out {
		if x == old {
			out[i] = repl
		}
	}
	return out
}
