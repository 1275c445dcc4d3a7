package kstreams

import (
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
)

// TopologyDescription is the text form of a topology, byte-identical to Kafka
// Streams' TopologyDescription.toString().
type TopologyDescription struct {
	text string
}

// String returns the description text.
func (d TopologyDescription) String() string { return d.text }

// Describe renders the topology as Kafka Streams 4.4 does: sub-topologies in
// id order; within one, nodes by descending size of the sub-graph they reach
// (counted along every path, as Kafka's AbstractNode.size), ties broken by name;
// successors and predecessors listed in the same order.
func (t *Topology) Describe() TopologyDescription {
	var b strings.Builder
	b.WriteString("Topologies:\n ")
	for id, names := range t.groups {
		b.WriteString("  ")
		b.WriteString("Sub-topology: " + strconv.Itoa(id) + "\n")
		size := t.subtreeSizes(names)
		order := slices.Clone(names)
		sortNodes(order, size)
		for _, name := range order {
			n := t.byName[name]
			b.WriteString("    ")
			switch n.kind {
			case SourceNode:
				b.WriteString("Source: " + n.name + " (topics: " + javaSetString(n.topics) + ")\n      --> " + nodeNames(n.succs, size))
			case ProcessorNode:
				b.WriteString("Processor: " + n.name + " (stores: " + javaSetString(n.stores) + ")\n      --> " +
					nodeNames(n.succs, size) + "\n      <-- " + nodeNames(n.preds, size))
			case SinkNode:
				b.WriteString("Sink: " + n.name + " (topic: " + n.topic + ")\n      <-- " + nodeNames(n.preds, size))
			}
			b.WriteString("\n")
		}
		b.WriteString("\n")
	}
	return TopologyDescription{text: b.String()}
}

func (t *Topology) subtreeSizes(names []string) map[string]int {
	size := map[string]int{}
	var visit func(string) int
	visit = func(name string) int {
		if s, ok := size[name]; ok {
			return s
		}
		s := 1
		for _, c := range t.byName[name].succs {
			s += visit(c)
		}
		size[name] = s
		return s
	}
	for _, n := range names {
		visit(n)
	}
	return size
}

func sortNodes(names []string, size map[string]int) {
	slices.SortFunc(names, func(a, b string) int {
		if size[a] != size[b] {
			return size[b] - size[a]
		}
		return javaCompare(a, b)
	})
}

func nodeNames(names []string, size map[string]int) string {
	if len(names) == 0 {
		return "none"
	}
	order := slices.Clone(names)
	sortNodes(order, size)
	return strings.Join(order, ", ")
}

// javaCompare is String.compareTo: lexicographic over UTF-16 code units.
func javaCompare(a, b string) int {
	ua, ub := utf16.Encode([]rune(a)), utf16.Encode([]rune(b))
	for i := 0; i < len(ua) && i < len(ub); i++ {
		if ua[i] != ub[i] {
			return int(ua[i]) - int(ub[i])
		}
	}
	return len(ua) - len(ub)
}

// javaStringHash is String.hashCode.
func javaStringHash(s string) int32 {
	var h int32
	for _, c := range utf16.Encode([]rune(s)) {
		h = 31*h + int32(c)
	}
	return h
}

// javaSetString renders names as Java's AbstractCollection.toString of a
// HashSet built from them in the given order (Kafka copies topic lists and
// store sets into a new HashSet before printing): "[a, b]", iterating buckets
// of a table sized for the elements, each bucket in insertion order.
func javaSetString(names []string) string {
	return "[" + strings.Join(javaHashSetOrder(names), ", ") + "]"
}

func javaHashSetOrder(names []string) []string {
	// new HashSet<>(c): capacity max(size/.75f + 1, 16), rounded up to a power of two.
	want := int(float32(len(names))/0.75) + 1
	if want < 16 {
		want = 16
	}
	n := 1
	for n < want {
		n <<= 1
	}
	buckets := make([][]string, n)
	seen := map[string]bool{}
	for _, s := range names {
		if seen[s] {
			continue
		}
		seen[s] = true
		h := javaStringHash(s)
		h ^= int32(uint32(h) >> 16)
		i := int(uint32(h) & uint32(n-1))
		buckets[i] = append(buckets[i], s)
	}
	out := make([]string, 0, len(names))
	for _, b := range buckets {
		out = append(out, b...)
	}
	return out
}
