package kstreams

import (
	"regexp"
	"slices"
	"strings"
)

// sourcePattern is what a source over a topic pattern keeps: the pattern
// as the user wrote it (describe() prints it) and its whole-name form, as
// Java's Pattern.matcher(topic).matches() matches a topic.
type sourcePattern struct {
	text  string
	whole *regexp.Regexp
}

func newSourcePattern(re *regexp.Regexp) *sourcePattern {
	return &sourcePattern{text: re.String(), whole: regexp.MustCompile(`^(?:` + re.String() + `)$`)}
}

func (p *sourcePattern) matches(topic string) bool { return p.whole.MatchString(topic) }

// StreamPattern adds a source reading every topic whose whole name pattern
// matches: StreamsBuilder.stream(Pattern). The topics are those the
// cluster has when the application starts, and those created later that
// match (found at the consumer's metadata refresh, metadata.max.age.ms).
// Two StreamPattern calls with the same pattern share one source, as Kafka
// Streams merges them.
func StreamPattern[K, V any](b *StreamsBuilder, pattern *regexp.Regexp, consumed ...Consumed[K, V]) *KStream[K, V] {
	var c Consumed[K, V]
	if len(consumed) > 0 {
		c = consumed[0]
	}
	if pattern == nil {
		b.fail(errIllegalArgument("topicPattern can't be null"))
		return &KStream[K, V]{b: b}
	}
	name := b.orGenerate(c.Name, prefixSource)
	key, val := spec(c.KeySerde), spec(c.ValueSerde)
	for _, n := range b.topo.nodes {
		if n.pattern != nil && n.pattern.text == pattern.String() {
			// The same pattern again: Kafka merges the two sources into
			// the first; this call's name is drawn and dropped.
			return &KStream[K, V]{b: b, name: n.name, key: key, val: val}
		}
	}
	b.fail(c.OffsetReset.check())
	b.addNode(&nodeSpec{name: name, kind: SourceNode, pattern: newSourcePattern(pattern), key: key, val: val,
		extractor: c.TimestampExtractor, reset: c.OffsetReset})
	return &KStream[K, V]{b: b, name: name, key: key, val: val}
}

// AddSourcePattern adds a source node reading every topic whose whole name
// pattern matches: Topology.addSource(name, Pattern).
func (t *Topology) AddSourcePattern(name string, opts SourceOptions, pattern *regexp.Regexp) error {
	if pattern == nil {
		return errIllegalArgument("topicPattern can't be null")
	}
	if t.byName[name] != nil {
		return invalidTopology("Processor %s is already added.", name)
	}
	return t.addPAPINode(&nodeSpec{name: name, kind: SourceNode, pattern: newSourcePattern(pattern),
		key: serdeSpec{explicit: opts.KeySerde}, val: serdeSpec{explicit: opts.ValueSerde}, extractor: opts.TimestampExtractor,
		reset: opts.OffsetReset})
}

// checkSourceTopics refuses a source whose topics or pattern overlap an
// earlier source's, with Kafka's messages (InternalTopologyBuilder's
// validateTopicNotAlreadyRegistered and addSource(Pattern)). As in Kafka, a
// pattern is checked against the stream sources' topics, not against the
// global stores'.
func (t *Topology) checkSourceTopics(n *nodeSpec) error {
	for _, old := range t.nodes {
		if old.kind != SourceNode {
			continue
		}
		if old.pattern != nil {
			for _, topic := range n.topics {
				if old.pattern.matches(topic) {
					return invalidTopology("Topic %s matches a Pattern already registered by another source.", topic)
				}
			}
			continue
		}
		if n.pattern == nil || t.globalSource(old.name) {
			continue
		}
		for _, topic := range old.topics {
			if n.pattern.matches(topic) {
				return invalidTopology("Pattern %s will match a topic that has already been registered by another source.", n.pattern.text)
			}
		}
	}
	return nil
}

// globalSource reports whether source is a global store's source node.
func (t *Topology) globalSource(source string) bool {
	for _, g := range t.globals {
		if g.source == source {
			return true
		}
	}
	return false
}

// HasPatternSources reports whether a source of the topology reads a topic
// pattern: the runtime then subscribes by pattern and resolves the
// sources' topics from the cluster's (MatchPatterns).
func (t *Topology) HasPatternSources() bool {
	for _, n := range t.nodes {
		if n.pattern != nil {
			return true
		}
	}
	return false
}

// MatchPatterns returns the topology with the topics of each pattern
// source set to those of topics its pattern matches (topics are the
// cluster's, internal ones left out), as Kafka Streams' assignor sets them
// from the subscription (InternalTopologyBuilder's
// setRegexMatchedTopicsToSourceNodes): the sub-topologies' task counts,
// the internal topics' partition counts and the co-partition groups then
// count them. describe() still prints the patterns. A topic two patterns
// match is Kafka's TopologyException. The receiver is not changed; the
// copy is for running, not for adding to.
func (t *Topology) MatchPatterns(topics []string) (*Topology, error) {
	c := *t
	c.nodes = slices.Clone(t.nodes)
	c.byName = make(map[string]*nodeSpec, len(t.byName))
	matchedBy := map[string]*sourcePattern{}
	matched := map[string][]string{} // pattern source → its topics
	sorted := slices.Sorted(slices.Values(topics))
	for i, n := range c.nodes {
		if n.pattern == nil {
			c.byName[n.name] = n
			continue
		}
		m := *n
		m.topics = nil
		for _, topic := range sorted {
			if !n.pattern.matches(topic) {
				continue
			}
			if other := matchedBy[topic]; other != nil {
				return nil, invalidTopology("Topic %s is already matched for another regex pattern %s and hence cannot be matched to this regex pattern %s any more.",
					topic, other.text, n.pattern.text)
			}
			matchedBy[topic] = n.pattern
			m.topics = append(m.topics, topic)
		}
		matched[n.name] = m.topics
		c.nodes[i] = &m
		c.byName[n.name] = &m
	}
	c.copartition = make([][]string, 0, len(t.copartition))
	for _, g := range t.copartition {
		var out []string
		for _, topic := range g {
			if src, ok := patternPlaceholder(topic); ok {
				out = append(out, matched[src]...)
			} else {
				out = append(out, topic)
			}
		}
		slices.Sort(out)
		out = slices.Compact(out)
		if len(out) > 1 {
			c.copartition = append(c.copartition, out)
		}
	}
	return &c, nil
}

// SourcePatterns lists the whole-name patterns of the sub-topology's
// pattern sources (its Sources hold the topics MatchPatterns gave them).
func (t *Topology) SourcePatterns(subtopology int) []*regexp.Regexp {
	var out []*regexp.Regexp
	if subtopology < 0 || subtopology >= len(t.groups) {
		return nil
	}
	for _, name := range t.groups[subtopology] {
		if p := t.byName[name].pattern; p != nil {
			out = append(out, p.whole)
		}
	}
	return out
}

// A co-partition group names a pattern source by a placeholder until
// MatchPatterns replaces it with the source's topics: no topic name holds
// a NUL.
const patternMark = "\x00pattern:"

func patternPlaceholderOf(source string) string { return patternMark + source }

func patternPlaceholder(topic string) (source string, ok bool) {
	return strings.CutPrefix(topic, patternMark)
}

// describeTopics is a source's "(topics: ...)" text: the pattern of a
// pattern source, as Kafka's Source prints topicPattern, else its topics.
func (n *nodeSpec) describeTopics() string {
	if n.pattern != nil {
		return n.pattern.text
	}
	return javaSetString(n.topics)
}

// SourceIndex finds the sub-topology that reads a topic, by its broker
// name: a source's topics, or a topic a pattern source's pattern matches.
// It remembers what it found; it is not safe for concurrent use.
type SourceIndex struct {
	byTopic  map[string]int
	patterns []indexedPattern
	// resets are the offset reset policies of the named source topics.
	resets map[string]AutoOffsetReset
	// internal are the repartition topics the topology reads (decorated).
	internal map[string]bool
}

type indexedPattern struct {
	p     *sourcePattern
	sub   int
	reset AutoOffsetReset
}

// SourceIndex indexes the source topics and patterns of the stream
// sub-topologies (global stores' topics are not indexed), internal topics
// under their broker names for applicationID.
func (t *Topology) SourceIndex(applicationID string) *SourceIndex {
	x := &SourceIndex{byTopic: map[string]int{}, internal: map[string]bool{}, resets: map[string]AutoOffsetReset{}}
	for _, st := range t.Subtopologies() {
		for _, src := range st.Sources {
			name := src.Decorated(applicationID)
			x.byTopic[name] = st.ID
			if src.Internal {
				x.internal[name] = true
			}
		}
		for _, name := range t.groups[st.ID] {
			n := t.byName[name]
			if n.pattern != nil && !st.Global {
				x.patterns = append(x.patterns, indexedPattern{p: n.pattern, sub: st.ID, reset: n.reset})
			}
			if n.kind == SourceNode && n.pattern == nil && n.reset.IsSet() && !st.Global {
				for _, topic := range n.topics {
					x.resets[topic] = n.reset
				}
			}
		}
	}
	return x
}

// Subtopology returns the sub-topology that reads topic, ok false when
// none does. A topic that two patterns match, and that no source names, is
// Kafka's TopologyException.
func (x *SourceIndex) Subtopology(topic string) (sub int, ok bool, err error) {
	if sub, ok := x.byTopic[topic]; ok {
		return sub, true, nil
	}
	var first *indexedPattern
	for i := range x.patterns {
		ip := &x.patterns[i]
		if !ip.p.matches(topic) {
			continue
		}
		if first != nil {
			return 0, false, invalidTopology("Topic %s is already matched for another regex pattern %s and hence cannot be matched to this regex pattern %s any more.",
				topic, first.p.text, ip.p.text)
		}
		first = ip
	}
	if first == nil {
		return 0, false, nil
	}
	x.byTopic[topic] = first.sub
	return first.sub, true, nil
}

// Internal reports whether topic (a broker name) is a repartition topic
// the topology reads.
func (x *SourceIndex) Internal(topic string) bool { return x.internal[topic] }

// Subscription is what a consumer subscribes to: the source topics, or,
// when a source reads a pattern, regular expressions matching the whole
// name of each source topic and each pattern's topics (regex true), as
// Kafka Streams subscribes by one pattern then.
func (x *SourceIndex) Subscription() (entries []string, regex bool) {
	for topic := range x.byTopic {
		entries = append(entries, topic)
	}
	slices.Sort(entries)
	if len(x.patterns) == 0 {
		return entries, false
	}
	for i, topic := range entries {
		entries[i] = "^" + regexp.QuoteMeta(topic) + "$"
	}
	for _, ip := range x.patterns {
		entries = append(entries, ip.p.whole.String())
	}
	return entries, true
}
