package kstreams

import (
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
)

// TopologyDescription describes a topology as Kafka Streams'
// TopologyDescription does: its text, byte-identical to Kafka's toString(),
// and its sub-topologies and global stores node by node.
type TopologyDescription struct {
	text          string
	subtopologies []DescribedSubtopology
	globalStores  []DescribedGlobalStore
}

// String returns the description text.
func (d TopologyDescription) String() string { return d.text }

// Subtopologies are the sub-topologies that generate tasks, in id order,
// as Kafka's TopologyDescription.subtopologies gives them.
func (d TopologyDescription) Subtopologies() []DescribedSubtopology { return d.subtopologies }

// GlobalStores are the global stores, in id order, as Kafka's
// TopologyDescription.globalStores gives them.
func (d TopologyDescription) GlobalStores() []DescribedGlobalStore { return d.globalStores }

// DescribedSubtopology is one sub-topology of a TopologyDescription.
type DescribedSubtopology struct {
	ID int
	// Nodes in the order describe() prints them.
	Nodes []DescribedNode
}

// DescribedGlobalStore is one global store of a TopologyDescription: the
// source that reads its topic and the processor that updates it.
type DescribedGlobalStore struct {
	// ID is the global store's sub-topology id.
	ID                int
	Source, Processor DescribedNode
}

// DescribedNode is one node of a TopologyDescription, as Kafka's
// TopologyDescription.Source, Processor or Sink gives it. Name lists are
// in the order describe() prints them.
type DescribedNode struct {
	Name string
	Kind NodeKind
	// Predecessors and Successors name the nodes the node reads from and
	// forwards to.
	Predecessors, Successors []string
	// Topics are a source's topics, internal ones undecorated; nil for a
	// source over a topic pattern (Kafka's topicSet() is null), whose
	// Pattern is set.
	Topics  []TopicRef
	Pattern string
	// Topic is a sink's topic; nil for a sink whose TopicNameExtractor
	// picks each record's topic (Extractor names its class).
	Topic     *TopicRef
	Extractor string
	// Stores are the stores connected to a processor, in connection order.
	Stores []string
}

// Describe renders the topology as Kafka Streams 4.4 does: sub-topologies in
// id order; within one, nodes by descending size of the sub-graph they reach
// (counted along every path, as Kafka's AbstractNode.size), ties broken by name.
//
// Successor and predecessor lists follow Kafka's construction exactly: nodes
// are connected in the iteration order of Java's HashMap of the group, and
// each list is a TreeSet ordered by the sizes nodes had when they were
// inserted. Where a node has several successors whose sub-graphs were still
// growing, that order can differ from the final-size order, and Kafka prints
// it that way; so does Describe.
func (t *Topology) Describe() TopologyDescription {
	var d TopologyDescription
	var b strings.Builder
	b.WriteString("Topologies:\n ")
	for id, names := range t.groups {
		b.WriteString("  ")
		if g, ok := t.globalOf(id); ok {
			d.globalStores = append(d.globalStores, DescribedGlobalStore{ID: id,
				Source: DescribedNode{Name: g.source, Kind: SourceNode, Successors: []string{g.processor},
					Topics: []TopicRef{{Name: g.topic}}},
				Processor: DescribedNode{Name: g.processor, Kind: ProcessorNode, Predecessors: []string{g.source},
					Stores: []string{g.store}},
			})
			// GlobalStore.toString: no blank line after it.
			b.WriteString("Sub-topology: " + strconv.Itoa(id) + " for global store (will not generate tasks)\n" +
				"    Source: " + g.source + " (topics: [" + g.topic + "])\n      --> " + g.processor + "\n" +
				"    Processor: " + g.processor + " (stores: [" + g.store + "])\n      --> none\n      <-- " + g.source + "\n")
			continue
		}
		b.WriteString("Sub-topology: " + strconv.Itoa(id) + "\n")
		g := t.describeGroup(names)
		order := slices.Clone(names)
		slices.SortFunc(order, g.compare)
		sub := DescribedSubtopology{ID: id}
		for _, name := range order {
			n := t.byName[name]
			sub.Nodes = append(sub.Nodes, t.describedNode(n, g))
			b.WriteString("    ")
			switch n.kind {
			case SourceNode:
				b.WriteString("Source: " + n.name + " (topics: " + n.describeTopics() + ")\n      --> " + joinNames(g.succs[name]))
			case ProcessorNode:
				b.WriteString("Processor: " + n.name + " (stores: " + javaSetString(n.stores) + ")\n      --> " +
					joinNames(g.succs[name]) + "\n      <-- " + joinNames(g.preds[name]))
			case SinkNode:
				if n.topicFn != nil {
					b.WriteString("Sink: " + n.name + " (extractor class: " + n.extractorName + ")\n      <-- " + joinNames(g.preds[name]))
				} else {
					b.WriteString("Sink: " + n.name + " (topic: " + n.topic + ")\n      <-- " + joinNames(g.preds[name]))
				}
			}
			b.WriteString("\n")
		}
		b.WriteString("\n")
		d.subtopologies = append(d.subtopologies, sub)
	}
	d.text = b.String()
	return d
}

// describedNode is n as Kafka's TopologyDescription node of it.
func (t *Topology) describedNode(n *nodeSpec, g *describedGroup) DescribedNode {
	d := DescribedNode{Name: n.name, Kind: n.kind, Predecessors: g.preds[n.name].inOrder(), Successors: g.succs[n.name].inOrder()}
	switch n.kind {
	case SourceNode:
		if n.pattern != nil {
			d.Pattern = n.pattern.text
			break
		}
		for _, topic := range n.topics {
			d.Topics = append(d.Topics, TopicRef{Name: topic, Internal: t.repartition[topic] != nil})
		}
	case ProcessorNode:
		d.Stores = slices.Clone(n.stores)
	case SinkNode:
		if n.topicFn != nil {
			d.Extractor = n.extractorName
			break
		}
		d.Topic = &TopicRef{Name: n.topic, Internal: t.repartition[n.topic] != nil}
	}
	return d
}

type describedGroup struct {
	size         map[string]int
	preds, succs map[string]*javaTreeSet
}

// compare is Kafka's NodeComparator: larger size first, then by name.
func (g *describedGroup) compare(a, b string) int {
	if a == b {
		return 0
	}
	if g.size[a] != g.size[b] {
		return g.size[b] - g.size[a]
	}
	return javaCompare(a, b)
}

// describeGroup replays InternalTopologyBuilder.describeSubtopology: the
// group's names go through a HashSet and a HashMap, whose iteration order
// decides in which order nodes are connected to their predecessors.
func (t *Topology) describeGroup(names []string) *describedGroup {
	g := &describedGroup{size: map[string]int{}, preds: map[string]*javaTreeSet{}, succs: map[string]*javaTreeSet{}}
	for _, n := range names {
		g.size[n] = 1
		g.preds[n] = &javaTreeSet{cmp: g.compare}
		g.succs[n] = &javaTreeSet{cmp: g.compare}
	}
	var grow func(string, int)
	grow = func(n string, delta int) {
		g.size[n] += delta
		for _, p := range g.preds[n].inOrder() {
			grow(p, delta)
		}
	}
	for _, n := range javaHashMapOrder(names) {
		for _, p := range t.byName[n].preds {
			g.preds[n].add(p)
			g.succs[p].add(n)
			grow(p, g.size[n])
		}
	}
	return g
}

func joinNames(s *javaTreeSet) string {
	names := s.inOrder()
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
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
	return javaBucketOrder(names, n)
}

// javaHashMapOrder is the iteration order of a HashSet or HashMap with the
// default capacity after adding names one by one: the table starts at 16
// buckets and doubles whenever it holds more than three quarters of that.
// Resizing keeps the relative order within a bucket, so the final order is
// by bucket, then by insertion.
func javaHashMapOrder(names []string) []string {
	n := 16
	for len(names) > n*3/4 {
		n <<= 1
	}
	return javaBucketOrder(names, n)
}

func javaBucketOrder(names []string, n int) []string {
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

// javaTreeSet is java.util.TreeSet over node names with a comparator that
// may change as sizes grow: like Java's red-black TreeMap, an element's place
// is fixed by the comparisons made when it was inserted.
type javaTreeSet struct {
	root *rbNode
	cmp  func(a, b string) int
}

type rbNode struct {
	key                 string
	left, right, parent *rbNode
	red                 bool
}

func (s *javaTreeSet) add(key string) {
	if s.root == nil {
		s.root = &rbNode{key: key}
		return
	}
	t := s.root
	var parent *rbNode
	c := 0
	for t != nil {
		parent = t
		c = s.cmp(key, t.key)
		switch {
		case c < 0:
			t = t.left
		case c > 0:
			t = t.right
		default:
			return
		}
	}
	e := &rbNode{key: key, parent: parent}
	if c < 0 {
		parent.left = e
	} else {
		parent.right = e
	}
	s.fixAfterInsertion(e)
}

func (s *javaTreeSet) inOrder() []string {
	var out []string
	var walk func(*rbNode)
	walk = func(n *rbNode) {
		if n == nil {
			return
		}
		walk(n.left)
		out = append(out, n.key)
		walk(n.right)
	}
	walk(s.root)
	return out
}

func parentOf(n *rbNode) *rbNode {
	if n == nil {
		return nil
	}
	return n.parent
}

func leftOf(n *rbNode) *rbNode {
	if n == nil {
		return nil
	}
	return n.left
}

func rightOf(n *rbNode) *rbNode {
	if n == nil {
		return nil
	}
	return n.right
}

func isRed(n *rbNode) bool { return n != nil && n.red }

func setRed(n *rbNode, red bool) {
	if n != nil {
		n.red = red
	}
}

func (s *javaTreeSet) fixAfterInsertion(x *rbNode) {
	x.red = true
	for x != nil && x != s.root && x.parent.red {
		if parentOf(x) == leftOf(parentOf(parentOf(x))) {
			y := rightOf(parentOf(parentOf(x)))
			if isRed(y) {
				setRed(parentOf(x), false)
				setRed(y, false)
				setRed(parentOf(parentOf(x)), true)
				x = parentOf(parentOf(x))
			} else {
				if x == rightOf(parentOf(x)) {
					x = parentOf(x)
					s.rotateLeft(x)
				}
				setRed(parentOf(x), false)
				setRed(parentOf(parentOf(x)), true)
				s.rotateRight(parentOf(parentOf(x)))
			}
		} else {
			y := leftOf(parentOf(parentOf(x)))
			if isRed(y) {
				setRed(parentOf(x), false)
				setRed(y, false)
				setRed(parentOf(parentOf(x)), true)
				x = parentOf(parentOf(x))
			} else {
				if x == leftOf(parentOf(x)) {
					x = parentOf(x)
					s.rotateRight(x)
				}
				setRed(parentOf(x), false)
				setRed(parentOf(parentOf(x)), true)
				s.rotateLeft(parentOf(parentOf(x)))
			}
		}
	}
	s.root.red = false
}

func (s *javaTreeSet) rotateLeft(p *rbNode) {
	if p == nil {
		return
	}
	r := p.right
	p.right = r.left
	if r.left != nil {
		r.left.parent = p
	}
	r.parent = p.parent
	switch {
	case p.parent == nil:
		s.root = r
	case p.parent.left == p:
		p.parent.left = r
	default:
		p.parent.right = r
	}
	r.left = p
	p.parent = r
}

func (s *javaTreeSet) rotateRight(p *rbNode) {
	if p == nil {
		return
	}
	l := p.left
	p.left = l.right
	if l.right != nil {
		l.right.parent = p
	}
	l.parent = p.parent
	switch {
	case p.parent == nil:
		s.root = l
	case p.parent.right == p:
		p.parent.right = l
	default:
		p.parent.left = l
	}
	l.right = p
	p.parent = l
}
