package topodiff

import (
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
)

// Difference is one cause of a mismatch: an operator one side has and the
// other lacks, a different operator in the same place, a name given on one
// side only, a topic or store that differs for a reason other than the
// generated counter. Fix says what to change in the Go topology, or is "".
type Difference struct {
	// Subtopology is the Kafka Streams application's sub-topology id (or
	// StoatFlow's when the Kafka Streams application has none there).
	Subtopology int
	What        string
	Fix         string
	// pos orders differences along the topology: 2i for pair i of the
	// pairing, 2i+1 for what is found among its successors.
	pos int
}

// Rename is a generated name that differs between the two sides only in its
// counter index: a consequence of a Difference before it, which draws more
// or fewer names from the builder's one counter on one side.
type Rename struct {
	// Kind is "processor", "source", "sink", "store" or "topic".
	Kind string
	// KafkaStreams and StoatFlow are the two names.
	KafkaStreams, StoatFlow string
	// Delta is StoatFlow's index minus Kafka Streams'.
	Delta int
	// Fix says how to give StoatFlow's store or topic the Kafka Streams
	// name, "" for processor names (they do not reach the broker).
	Fix string
}

// Report is the outcome of Compare.
type Report struct {
	// Differences are the causes, in the order of the topology (sub-topology,
	// then from the sources downstream); the first is the first operator
	// that differs.
	Differences []Difference
	// Shifted are the generated names that differ only by index.
	Shifted []Rename
}

// Same reports whether the two descriptions are the same topology.
func (r *Report) Same() bool { return len(r.Differences) == 0 && len(r.Shifted) == 0 }

// Compare compares a Kafka Streams application's description (ks) with
// StoatFlow's (sf). It pairs sub-topologies by what they share, and nodes by
// their place in the graph from the sources downstream, so names that
// differ only by a shifted counter are told apart from the operator that
// shifted them.
func Compare(ks, sf *Description) *Report {
	c := &comparer{
		ks: index(ks), sf: index(sf),
		ksToSf: map[*Node]*Node{}, sfToKs: map[*Node]*Node{},
		fixedStores: map[string]bool{}, seenTopics: map[string]bool{},
	}
	c.run()
	return &c.report
}

// sideIndex is one description with its node and sub-topology lookups.
type sideIndex struct {
	d      *Description
	byName map[string]*Node
	subOf  map[*Node]*Subtopology
}

func index(d *Description) *sideIndex {
	s := &sideIndex{d: d, byName: map[string]*Node{}, subOf: map[*Node]*Subtopology{}}
	for _, st := range d.Subtopologies {
		for _, n := range st.Nodes {
			s.byName[n.Name] = n
			s.subOf[n] = st
		}
	}
	return s
}

func (s *sideIndex) nodes(names []string) []*Node {
	out := make([]*Node, 0, len(names))
	for _, n := range names {
		out = append(out, s.byName[n])
	}
	return out
}

// pair is two nodes in the same place, in the order they were paired.
type pair struct{ ks, sf *Node }

type comparer struct {
	ks, sf         *sideIndex
	ksToSf, sfToKs map[*Node]*Node
	pairs          []pair
	report         Report
	// fixedStores are Kafka Streams store names a fix already gives
	// StoatFlow's store (with Materialized.as), which names its groupBy's
	// repartition topic too.
	fixedStores map[string]bool
	// seenTopics are the topic pairs reported, "ks\x00sf".
	seenTopics map[string]bool
	// pos is the position the next difference takes (Difference.pos).
	pos int
}

func (c *comparer) diff(sub int, fix, format string, args ...any) {
	c.report.Differences = append(c.report.Differences, Difference{Subtopology: sub, What: fmt.Sprintf(format, args...), Fix: fix, pos: c.pos})
}

func (c *comparer) run() {
	ksSubs, sfSubs := c.ks.d.Subtopologies, c.sf.d.Subtopologies
	if c.ks.d.Name != c.sf.d.Name {
		c.diff(-1, "", "the topology names differ: %q vs %q", c.ks.d.Name, c.sf.d.Name)
	}
	for _, sp := range c.pairSubtopologies() {
		c.pos = 2 * len(c.pairs)
		switch {
		case sp.sf == nil:
			c.diff(sp.ks.ID, "", "the Kafka Streams application has sub-topology %d (%s) that StoatFlow's topology lacks",
				sp.ks.ID, subSummary(sp.ks))
		case sp.ks == nil:
			c.diff(sp.sf.ID, "", "StoatFlow's topology has sub-topology %d (%s) that the Kafka Streams application lacks",
				sp.sf.ID, subSummary(sp.sf))
		default:
			c.compareSub(sp.ks, sp.sf)
		}
	}
	c.classifyPairs()
	c.pos = -1
	if len(c.report.Differences) == 0 && len(c.report.Shifted) == 0 {
		c.compareOrder(ksSubs, sfSubs)
	}
	if len(c.report.Differences) == 0 && len(c.report.Shifted) > 0 {
		// No visible cause: something describe() does not show draws a name
		// on one side only (a table() whose store is not materialized, for
		// one); the first shifted name is as close as the text gets.
		first := c.report.Shifted[0]
		c.diff(-1, "give the Go topology's stores and repartition topics the Kafka Streams names (below), or find the operator before "+
			first.KafkaStreams+" that draws a generated name on one side only",
			"the first generated name that differs is %s %s vs %s; every operator before it pairs up",
			first.Kind, first.KafkaStreams, first.StoatFlow)
	}
	sort.SliceStable(c.report.Differences, func(i, j int) bool { return c.report.Differences[i].pos < c.report.Differences[j].pos })
}

// subPair is a Kafka Streams sub-topology and StoatFlow's in its place;
// either is nil when the other side has none there.
type subPair struct{ ks, sf *Subtopology }

// pairSubtopologies pairs sub-topologies by what they share (topic and node
// names, operator kinds), highest first, so an extra sub-topology on one
// side does not misalign all the others.
func (c *comparer) pairSubtopologies() []subPair {
	type cand struct{ i, j, score int }
	ksSubs, sfSubs := c.ks.d.Subtopologies, c.sf.d.Subtopologies
	var cands []cand
	for i, a := range ksSubs {
		for j, b := range sfSubs {
			if a.Global != b.Global {
				continue
			}
			cands = append(cands, cand{i, j, similarity(a, b)})
		}
	}
	sort.SliceStable(cands, func(x, y int) bool {
		if cands[x].score != cands[y].score {
			return cands[x].score > cands[y].score
		}
		dx, dy := abs(cands[x].i-cands[x].j), abs(cands[y].i-cands[y].j)
		if dx != dy {
			return dx < dy
		}
		return cands[x].i < cands[y].i
	})
	ksTaken, sfTaken := map[int]int{}, map[int]bool{}
	for _, cd := range cands {
		if _, ok := ksTaken[cd.i]; ok || sfTaken[cd.j] || cd.score == 0 {
			continue
		}
		ksTaken[cd.i], sfTaken[cd.j] = cd.j, true
	}
	var out []subPair
	for i, a := range ksSubs {
		if j, ok := ksTaken[i]; ok {
			out = append(out, subPair{a, sfSubs[j]})
		} else {
			out = append(out, subPair{ks: a})
		}
	}
	for j, b := range sfSubs {
		if !sfTaken[j] {
			out = append(out, subPair{sf: b})
		}
	}
	return out
}

// similarity scores what two sub-topologies share: each common topic or
// node name counts three, each common operator kind one.
func similarity(a, b *Subtopology) int {
	names := func(st *Subtopology) map[string]int {
		m := map[string]int{}
		for _, n := range st.Nodes {
			m["n:"+n.Name]++
			m["t:"+token(n)]++
			for _, t := range n.Topics {
				m["x:"+t]++
			}
		}
		return m
	}
	ma, mb := names(a), names(b)
	score := 0
	for k, va := range ma {
		w := 3
		if strings.HasPrefix(k, "t:") {
			w = 1
		}
		score += w * min(va, mb[k])
	}
	return score
}

func subSummary(st *Subtopology) string {
	var srcs []string
	for _, n := range st.Nodes {
		if n.Kind == Source {
			srcs = append(srcs, n.Name)
		}
	}
	return fmt.Sprintf("%d nodes, from %s", len(st.Nodes), strings.Join(srcs, ", "))
}

// token is a node's kind and operator: the prefix of a generated processor
// name; a named processor's is unknown (""), sources and sinks have only
// their kind.
func token(n *Node) string {
	switch n.Kind {
	case Source:
		return "source"
	case Sink:
		return "sink"
	}
	if p, _, _, ok := generated(n.Name); ok {
		return "processor:" + p
	}
	if strings.HasSuffix(n.Name, "-repartition-filter") {
		return "processor:KSTREAM-FILTER-"
	}
	return ""
}

// compareSub pairs the nodes of two sub-topologies from their sources
// downstream and reports what is left on either side.
func (c *comparer) compareSub(a, b *Subtopology) {
	var srcA, srcB []*Node
	for _, n := range a.Nodes {
		if n.Kind == Source {
			srcA = append(srcA, n)
		}
	}
	for _, n := range b.Nodes {
		if n.Kind == Source {
			srcB = append(srcB, n)
		}
	}
	c.pos = 2*len(c.pairs) - 1
	queue := c.align(a.ID, nil, srcA, srcB)
	for len(queue) > 0 {
		i := queue[0]
		queue = queue[1:]
		p := c.pairs[i]
		c.pos = 2*i + 1
		queue = append(queue, c.align(a.ID, &p, c.ks.nodes(p.ks.Successors), c.sf.nodes(p.sf.Successors))...)
	}
	c.pos = 2 * len(c.pairs)
	// Nodes no path reached in pairs: below an extra or missing node that
	// has been reported, or disconnected.
	for _, n := range b.Nodes {
		if _, ok := c.sfToKs[n]; !ok && !c.belowReported(n, c.sf, c.sfToKs) {
			c.diff(a.ID, "", "StoatFlow's sub-topology %d has %s that the Kafka Streams application lacks", b.ID, describeNode(n))
		}
	}
	for _, n := range a.Nodes {
		if _, ok := c.ksToSf[n]; !ok && !c.belowReported(n, c.ks, c.ksToSf) {
			c.diff(a.ID, "", "the Kafka Streams application's sub-topology %d has %s that StoatFlow's lacks", a.ID, describeNode(n))
		}
	}
}

// belowReported reports whether n is unpaired only because a node upstream
// of it is: those were reported with their first node.
func (c *comparer) belowReported(n *Node, s *sideIndex, paired map[*Node]*Node) bool {
	for _, p := range n.Predecessors {
		if m := paired[s.byName[p]]; m == nil {
			return true
		}
	}
	return false
}

// align pairs two successor lists (or the two source lists when parent is
// nil), reports what is left, and returns the indexes of the new pairs.
func (c *comparer) align(sub int, parent *pair, xs, ys []*Node) []int {
	xs = slices.DeleteFunc(slices.Clone(xs), func(n *Node) bool { _, ok := c.ksToSf[n]; return ok })
	ys = slices.DeleteFunc(slices.Clone(ys), func(n *Node) bool { _, ok := c.sfToKs[n]; return ok })
	var made []int
	take := func(x, y *Node) {
		c.ksToSf[x], c.sfToKs[y] = y, x
		made = append(made, len(c.pairs))
		c.pairs = append(c.pairs, pair{x, y})
		xs = slices.DeleteFunc(xs, func(n *Node) bool { return n == x })
		ys = slices.DeleteFunc(ys, func(n *Node) bool { return n == y })
	}
	match := func(eq func(x, y *Node) bool) {
		for _, x := range slices.Clone(xs) {
			for _, y := range ys {
				if eq(x, y) {
					take(x, y)
					break
				}
			}
		}
	}
	match(func(x, y *Node) bool { return x.Name == y.Name })
	match(func(x, y *Node) bool {
		return token(x) != "" && token(x) == token(y) && slices.Equal(x.Topics, y.Topics) && x.Pattern == y.Pattern
	})
	match(func(x, y *Node) bool { return token(x) != "" && token(x) == token(y) })
	// What is left is an operator one side has and the other lacks (between
	// the parent and a node both have), or another operator in the same
	// place. Of the readings, take the one under which more of the path
	// downstream pairs up, one at a time.
	for len(xs) > 0 && len(ys) > 0 {
		best := c.bestReading(xs, ys)
		if best == nil {
			break
		}
		switch {
		case best.ksChain != nil:
			c.reportChain(sub, parent, best.ksChain, "the Kafka Streams application has", "that StoatFlow's topology lacks",
				"add the same operation to the Go topology at that place")
			xs = slices.DeleteFunc(xs, func(n *Node) bool { return n == best.ksChain[0] })
			xs = append(xs, best.x)
		case best.sfChain != nil:
			c.reportChain(sub, parent, best.sfChain, "StoatFlow's topology has", "that the Kafka Streams application does not have",
				"remove it from the Go topology, or, if it belongs there, give the names after it explicitly (below) so they stay the Kafka Streams application's")
			ys = slices.DeleteFunc(ys, func(n *Node) bool { return n == best.sfChain[0] })
			ys = append(ys, best.y)
		}
		take(best.x, best.y)
	}
	for _, y := range ys {
		c.diff(sub, "remove it from the Go topology, or add it to the Kafka Streams application",
			"StoatFlow's topology has %s%s that the Kafka Streams application does not have%s", describeNode(y), where(parent, false), below(y, c.sf))
		c.sfToKs[y] = nil // reported; not a pair
	}
	for _, x := range xs {
		c.diff(sub, "add the same operation to the Go topology at that place",
			"the Kafka Streams application has %s%s that StoatFlow's topology lacks%s", describeNode(x), where(parent, true), below(x, c.ks))
		c.ksToSf[x] = nil
	}
	return made
}

// reading is one way to pair what align has left: x with y, after
// skipping a chain of nodes on one side (or neither: another operator in
// the same place).
type reading struct {
	x, y             *Node
	ksChain, sfChain []*Node
	score            int
}

// bestReading scores every reading of the leftover lists: the nodes that
// pair up along the path downstream, less the nodes skipped or substituted.
func (c *comparer) bestReading(xs, ys []*Node) *reading {
	var best *reading
	consider := func(r reading) {
		if best == nil || r.score > best.score {
			best = &r
		}
	}
	for _, x := range xs {
		for _, y := range ys {
			if x.Kind == y.Kind {
				consider(reading{x: x, y: y, score: pathScore(c.next(x, c.ks), c.next(y, c.sf), c) - 1})
			}
			for i, z := range c.chain(y, c.sf, c.sfToKs) {
				if sameOperator(x, z) {
					chain := c.chain(y, c.sf, c.sfToKs)[:i]
					consider(reading{x: x, y: z, sfChain: append([]*Node{y}, chain...), score: pathScore(x, z, c) - i - 1})
				}
			}
			for i, z := range c.chain(x, c.ks, c.ksToSf) {
				if sameOperator(z, y) {
					chain := c.chain(x, c.ks, c.ksToSf)[:i]
					consider(reading{x: z, y: y, ksChain: append([]*Node{x}, chain...), score: pathScore(z, y, c) - i - 1})
				}
			}
		}
	}
	if best != nil && best.score < 0 && (best.ksChain != nil || best.sfChain != nil) {
		return nil // no skip explains it; left to the same-kind pairing
	}
	return best
}

// chain lists the nodes reachable from n through single-successor
// processors, up to three: the i-th is reached by skipping n and the i
// nodes before it in the list.
func (c *comparer) chain(n *Node, s *sideIndex, paired map[*Node]*Node) []*Node {
	var out []*Node
	cur := n
	for hop := 0; hop < 3; hop++ {
		if cur.Kind != Processor || len(cur.Successors) != 1 {
			break
		}
		next := s.byName[cur.Successors[0]]
		if _, done := paired[next]; next == nil || done || len(next.Predecessors) != 1 {
			break
		}
		out = append(out, next)
		cur = next
	}
	return out
}

// next is n's first successor, or nil.
func (c *comparer) next(n *Node, s *sideIndex) *Node {
	if len(n.Successors) == 0 {
		return nil
	}
	return s.byName[n.Successors[0]]
}

// pathScore counts the nodes that pair up walking down from x and y along
// first successors (up to eight).
func pathScore(x, y *Node, c *comparer) int {
	n := 0
	for i := 0; i < 8 && x != nil && y != nil && sameOperator(x, y); i++ {
		n++
		x, y = c.next(x, c.ks), c.next(y, c.sf)
	}
	return n
}

// sameOperator reports whether x and y can be the same operator: the same
// name, or the same kind and a token that is equal or unknown on one side.
func sameOperator(x, y *Node) bool {
	if x.Name == y.Name {
		return true
	}
	if x.Kind != y.Kind {
		return false
	}
	tx, ty := token(x), token(y)
	return tx == ty || tx == "" || ty == ""
}

func (c *comparer) reportChain(sub int, parent *pair, chain []*Node, who, lacks, fix string) {
	var names []string
	for _, n := range chain {
		names = append(names, describeNode(n))
		if who == "the Kafka Streams application has" {
			c.ksToSf[n] = nil
		} else {
			c.sfToKs[n] = nil
		}
	}
	c.diff(sub, fix, "%s %s%s %s", who, strings.Join(names, ", then "), where(parent, who == "the Kafka Streams application has"), lacks)
}

// where is " after X" for the report: the parent on the given side.
func where(parent *pair, ksSide bool) string {
	if parent == nil {
		return " as a source"
	}
	if ksSide {
		return " after " + parent.ks.Name
	}
	return " after " + parent.sf.Name
}

// below is ", and the N nodes after it" for a node whose sub-graph is
// unpaired with it.
func below(n *Node, s *sideIndex) string {
	seen := map[*Node]bool{}
	var walk func(*Node)
	walk = func(m *Node) {
		for _, name := range m.Successors {
			if k := s.byName[name]; k != nil && !seen[k] {
				seen[k] = true
				walk(k)
			}
		}
	}
	walk(n)
	if len(seen) == 0 {
		return ""
	}
	return fmt.Sprintf(", and the %d nodes after it", len(seen))
}

// classifyPairs finds, for every pair, the names that differ: by index
// only (Shifted) or otherwise (Differences), then the edges that differ.
func (c *comparer) classifyPairs() {
	// Stores first: a store's fix names its groupBy's repartition topic
	// too, which the topics' fixes then say.
	for i, p := range c.pairs {
		c.pos = 2 * i
		c.compareStores(c.ks.subOf[p.ks].ID, p)
	}
	for i, p := range c.pairs {
		c.pos = 2 * i
		sub := c.ks.subOf[p.ks].ID
		c.compareName(sub, p)
		c.compareTopics(sub, p)
	}
	for i, p := range c.pairs {
		c.pos = 2 * i
		c.compareEdges(c.ks.subOf[p.ks].ID, p)
	}
	sort.SliceStable(c.report.Shifted, func(i, j int) bool {
		_, a, _, _ := generated(c.report.Shifted[i].KafkaStreams)
		_, b, _, _ := generated(c.report.Shifted[j].KafkaStreams)
		return a < b
	})
}

func (c *comparer) compareName(sub int, p pair) {
	x, y := p.ks, p.sf
	if x.Name == y.Name {
		return
	}
	if d, ok := shiftOnly(x.Name, y.Name); ok {
		c.report.Shifted = append(c.report.Shifted, Rename{Kind: x.Kind.String(), KafkaStreams: x.Name, StoatFlow: y.Name, Delta: d})
		return
	}
	if isRepartitionNode(x.Name) || isRepartitionNode(y.Name) {
		return // follows from the repartition topic's name, reported with it
	}
	px, _, _, gx := generated(x.Name)
	py, _, _, gy := generated(y.Name)
	switch {
	case gx && gy && px != py:
		c.diff(sub, "make the Go topology call the same operation here",
			"a different operator in the same place: the Kafka Streams application has %s, StoatFlow's topology %s",
			describeNode(x), describeNode(y))
	case gx:
		c.diff(sub, "drop the name from the Go operation (or name it "+namingOption(y, x.Name)+")",
			"StoatFlow's topology names the %s %s where the Kafka Streams application generates %s", y.Kind, y.Name, x.Name)
	default:
		c.diff(sub, namingOption(y, x.Name)+" on the Go "+orOperation(operatorOf(y.Name))+" that creates "+y.Name,
			"the Kafka Streams application names the %s %s where StoatFlow's topology has %s", x.Kind, x.Name, y.Name)
	}
}

func orOperation(op string) string {
	if op == "" {
		return "operation"
	}
	return op
}

// compareStores pairs the stores of two processors: equal names, then
// names that differ by index, then the rest in order.
func (c *comparer) compareStores(sub int, p pair) {
	xs, ys := slices.Clone(p.ks.Stores), slices.Clone(p.sf.Stores)
	xs, ys = dropCommon(xs, ys)
	for _, x := range slices.Clone(xs) {
		for _, y := range ys {
			if d, ok := shiftOnly(x, y); ok {
				c.report.Shifted = append(c.report.Shifted, Rename{Kind: "store", KafkaStreams: x, StoatFlow: y, Delta: d,
					Fix: c.storeFix(p, x)})
				xs, ys = remove(xs, x), remove(ys, y)
				break
			}
		}
	}
	for len(xs) > 0 && len(ys) > 0 {
		x, y := xs[0], ys[0]
		fix := c.storeFix(p, x)
		if _, _, _, gen := generated(y); !gen {
			if _, _, _, ksGen := generated(x); ksGen {
				fix = `drop Materialized.as("` + y + `") from the Go ` + orOperation(operatorOf(p.sf.Name)) + ", or " + fix
			}
		}
		c.diff(sub, fix,
			"the store of %s is %s in the Kafka Streams application and %s in StoatFlow's topology (its changelog topic <application.id>-%s-changelog must keep the Kafka Streams name)",
			p.ks.Name, x, y, x)
		xs, ys = xs[1:], ys[1:]
	}
	for _, x := range xs {
		c.diff(sub, "give the Go "+orOperation(operatorOf(p.sf.Name))+" its store "+x,
			"%s has the store %s in the Kafka Streams application; StoatFlow's %s has no such store", p.ks.Name, x, p.sf.Name)
	}
	for _, y := range ys {
		c.diff(sub, "", "%s has the store %s in StoatFlow's topology; the Kafka Streams application's %s has no such store", p.sf.Name, y, p.ks.Name)
	}
}

// storeFix is the option that gives StoatFlow's store the Kafka Streams
// name ks.
func (c *comparer) storeFix(p pair, ks string) string {
	op := operatorOf(p.sf.Name)
	if strings.HasSuffix(ks, "-store") && strings.HasPrefix(ks, p.ks.Name) {
		// A join's window store is named after its processor.
		return `name the join (StreamJoined.withStoreName / withName) so its store is ` + ks
	}
	c.fixedStores[ks] = true
	return `Materialized.as("` + ks + `") on the Go ` + orOperation(op) + " that creates " + p.sf.Name
}

// compareTopics pairs the topics of two sources or sinks like stores.
func (c *comparer) compareTopics(sub int, p pair) {
	if p.ks.Pattern != p.sf.Pattern {
		c.diff(sub, "", "source %s subscribes to the pattern %q in the Kafka Streams application and %q in StoatFlow's topology",
			p.ks.Name, p.ks.Pattern, p.sf.Pattern)
	}
	if (p.ks.Extractor == "") != (p.sf.Extractor == "") {
		c.diff(sub, "", "sink %s picks its topic per record on one side only (a TopicNameExtractor)", p.ks.Name)
	}
	xs, ys := dropCommon(slices.Clone(p.ks.Topics), slices.Clone(p.sf.Topics))
	// An internal topic has a sink and a source: report it once.
	if len(xs) == 1 && len(ys) == 1 {
		k := xs[0] + "\x00" + ys[0]
		if c.seenTopics[k] {
			return
		}
		c.seenTopics[k] = true
	}
	for _, x := range slices.Clone(xs) {
		for _, y := range ys {
			if d, ok := shiftOnly(x, y); ok {
				c.report.Shifted = append(c.report.Shifted, Rename{Kind: "topic", KafkaStreams: x, StoatFlow: y, Delta: d, Fix: c.topicFix(p, x)})
				xs, ys = remove(xs, x), remove(ys, y)
				break
			}
		}
	}
	for len(xs) > 0 && len(ys) > 0 {
		x, y := xs[0], ys[0]
		if strings.HasSuffix(x, "-repartition") || strings.HasSuffix(y, "-repartition") {
			c.diff(sub, c.topicFix(p, x), "the repartition topic of %s is %s in the Kafka Streams application and %s in StoatFlow's topology",
				p.ks.Name, x, y)
		} else {
			c.diff(sub, "build the Go topology with the Kafka Streams application's topic names (--arg, or its configuration)",
				"%s %s reads or writes %s in the Kafka Streams application and %s in StoatFlow's topology", p.ks.Kind, p.ks.Name, x, y)
		}
		xs, ys = xs[1:], ys[1:]
	}
	for _, x := range xs {
		c.diff(sub, "", "source %s reads %s in the Kafka Streams application, not in StoatFlow's topology", p.ks.Name, x)
	}
	for _, y := range ys {
		c.diff(sub, "", "source %s reads %s in StoatFlow's topology, not in the Kafka Streams application", p.sf.Name, y)
	}
}

// topicFix is the option that names StoatFlow's internal topic ks.
func (c *comparer) topicFix(p pair, ks string) string {
	base, ok := strings.CutSuffix(ks, "-repartition")
	if !ok {
		return ""
	}
	if c.fixedStores[base] {
		return "follows from the store's name (its Materialized.as fix)"
	}
	if pre, _, _, ok := generated(base); ok && pre == "KSTREAM-REPARTITION-" {
		return `Repartitioned.as("` + base + `") on the Go repartition()`
	}
	// What reads the topic tells which operation made it.
	src := p.ks
	if src.Kind == Sink {
		for _, n := range c.ks.d.Subtopologies {
			for _, m := range n.Nodes {
				if m.Kind == Source && slices.Contains(m.Topics, ks) {
					src = m
				}
			}
		}
	}
	for _, s := range src.Successors {
		op := operatorOf(s)
		switch {
		case strings.Contains(op, "aggregate") || strings.Contains(op, "count") || strings.Contains(op, "reduce"):
			return `Grouped.as("` + base + `") on the Go groupBy()/groupByKey()`
		case strings.Contains(op, "join"):
			return `StreamJoined.withName("` + strings.TrimSuffix(strings.TrimSuffix(base, "-left"), "-right") + `") on the Go join()`
		}
	}
	return `Grouped.as("` + base + `") on the Go groupBy()/groupByKey(), or Repartitioned.as("` + base + `") on its repartition(), whichever creates it`
}

// compareEdges reports a paired node whose successors are not the
// counterparts of the other side's.
//
// A successor reported as extra or missing has been reported already; the
// edges of its parent are not compared.
func (c *comparer) compareEdges(sub int, p pair) {
	want := map[*Node]bool{}
	for _, s := range c.ks.nodes(p.ks.Successors) {
		m := c.ksToSf[s]
		if m == nil {
			return
		}
		want[m] = true
	}
	have := map[*Node]bool{}
	for _, s := range c.sf.nodes(p.sf.Successors) {
		if c.sfToKs[s] == nil {
			return
		}
		have[s] = true
	}
	var missing, extra []string
	for n := range want {
		if !have[n] {
			missing = append(missing, n.Name)
		}
	}
	for n := range have {
		if !want[n] {
			extra = append(extra, n.Name)
		}
	}
	if len(missing) == 0 && len(extra) == 0 {
		return
	}
	sort.Strings(missing)
	sort.Strings(extra)
	c.diff(sub, "connect the Go operators as the Kafka Streams application does",
		"%s forwards to different nodes: StoatFlow's %s lacks the edge to %v and has the edge to %v",
		p.ks.Name, p.sf.Name, missing, extra)
}

// compareOrder catches what pairing cannot: the same nodes and names, with
// sub-topologies, nodes or edges printed in another order.
func (c *comparer) compareOrder(a, b []*Subtopology) {
	if len(a) != len(b) {
		return
	}
	for i := range a {
		if a[i].ID != b[i].ID || a[i].Global != b[i].Global {
			c.diff(a[i].ID, "", "sub-topology %d of the Kafka Streams application is numbered %d in StoatFlow's topology", a[i].ID, b[i].ID)
			return
		}
		for j := range a[i].Nodes {
			x, y := a[i].Nodes[j], b[i].Nodes[j]
			if x.Name != y.Name {
				c.diff(a[i].ID, "", "sub-topology %d lists its nodes in another order: %s (line %d) where StoatFlow's lists %s (line %d)",
					a[i].ID, x.Name, x.Line, y.Name, y.Line)
				return
			}
			if !slices.Equal(x.Successors, y.Successors) || !slices.Equal(x.Predecessors, y.Predecessors) ||
				!slices.Equal(x.Stores, y.Stores) || !slices.Equal(x.Topics, y.Topics) || x.Extractor != y.Extractor {
				c.diff(a[i].ID, "", "%s %s is printed differently (Kafka Streams line %d, StoatFlow line %d): the same edges, stores and topics in another order",
					x.Kind, x.Name, x.Line, y.Line)
				return
			}
		}
	}
}

func dropCommon(xs, ys []string) ([]string, []string) {
	for _, x := range slices.Clone(xs) {
		if slices.Contains(ys, x) {
			xs, ys = remove(xs, x), remove(ys, x)
		}
	}
	return xs, ys
}

func remove(list []string, s string) []string {
	i := slices.Index(list, s)
	if i < 0 {
		return list
	}
	return slices.Delete(slices.Clone(list), i, i+1)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// Write prints the report for a person: "same", or each difference with its
// fix, then the names shifted by them.
func (r *Report) Write(w io.Writer) error {
	var b strings.Builder
	if r.Same() {
		b.WriteString("same: the Kafka Streams application and StoatFlow describe the same topology\n")
		_, err := io.WriteString(w, b.String())
		return err
	}
	fmt.Fprintf(&b, "different: %d difference(s)", len(r.Differences))
	if len(r.Shifted) > 0 {
		fmt.Fprintf(&b, ", %d generated name(s) shifted by them", len(r.Shifted))
	}
	b.WriteString("\n")
	for i, d := range r.Differences {
		at := ""
		if d.Subtopology >= 0 {
			at = fmt.Sprintf("sub-topology %d: ", d.Subtopology)
		}
		fmt.Fprintf(&b, "%d. %s%s\n", i+1, at, d.What)
		if d.Fix != "" {
			fmt.Fprintf(&b, "   fix: %s\n", d.Fix)
		}
	}
	if len(r.Shifted) == 0 {
		_, err := io.WriteString(w, b.String())
		return err
	}
	b.WriteString("\ngenerated names that differ only in their index (Kafka Streams vs StoatFlow):\n")
	var procs []Rename
	for _, s := range r.Shifted {
		if s.Kind != "store" && s.Kind != "topic" {
			procs = append(procs, s)
			continue
		}
		what := s.Kind
		if s.Kind == "store" {
			what = "store (and its changelog)"
		}
		fmt.Fprintf(&b, "   %s %s vs %s (%+d)\n", what, s.KafkaStreams, s.StoatFlow, s.Delta)
		if s.Fix != "" {
			fmt.Fprintf(&b, "      fix: %s\n", s.Fix)
		}
	}
	if len(procs) > 0 {
		fmt.Fprintf(&b, "   %d node name(s), from %s vs %s (%+d) on; node names do not reach the broker, but describe() differs until they match\n",
			len(procs), procs[0].KafkaStreams, procs[0].StoatFlow, procs[0].Delta)
	}
	_, err := io.WriteString(w, b.String())
	return err
}
