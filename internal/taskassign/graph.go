package taskassign

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
)

// flowGraph is Kafka Streams' Graph<Integer> (Graph.java), the flow
// network rack-aware assignment solves: min-cost flow by cycle
// cancelling (Bellman-Ford from a dummy node joined to every node) and
// max flow by Ford-Fulkerson over breadth-first paths. Which of several
// equally cheap flows it finds depends on the order it visits nodes and
// edges, so that order is Java's: nodes ascending (the dummy first, as
// TreeMap's nullsFirst puts Java's null node), each node's edges by
// destination, and the distances relaxed in place as the Java loop
// relaxes them. Broken inputs panic with an assignError carrying Kafka's
// message, as Graph.java throws.
type flowGraph struct {
	adj      map[int][]*flowEdge // each node's edges, by destination
	keys     []int               // the nodes with edges, ascending (adjList's keys)
	nodes    []int               // every node, ascending
	residual bool

	source, sink       int
	hasSource, hasSink bool
}

// dummyNode is Graph.java's null node, the source of the negative-cycle
// search; it sorts before every other node.
const dummyNode = math.MinInt

// flowEdge is Graph.Edge.
type flowEdge struct {
	dst      int
	capacity int
	cost     int
	residual int // residualFlow
	flow     int
	counter  *flowEdge
	forward  bool
}

func newFlowEdge(dst, capacity, cost, residual, flow int, forward bool) *flowEdge {
	if capacity < 0 {
		panic(assignError("Edge capacity cannot be negative"))
	}
	if flow > capacity {
		panic(assignError(fmt.Sprintf("Edge flow %d cannot exceed capacity %d", flow, capacity)))
	}
	return &flowEdge{dst: dst, capacity: capacity, cost: cost, residual: residual, flow: flow, forward: forward}
}

func newFlowGraph() *flowGraph { return &flowGraph{adj: map[int][]*flowEdge{}} }

func (g *flowGraph) setSource(n int) { g.source, g.hasSource = n, true }
func (g *flowGraph) setSink(n int)   { g.sink, g.hasSink = n, true }

// addEdge adds an edge from u to v with the given flow (and the rest of
// its capacity as residual flow), replacing an edge from u to v.
func (g *flowGraph) addEdge(u, v, capacity, cost, flow int) {
	g.add(u, newFlowEdge(v, capacity, cost, capacity-flow, flow, true))
}

func (g *flowGraph) add(u int, e *flowEdge) {
	if !g.residual && g.edge(e.dst, u) != nil {
		panic(assignError(fmt.Sprintf("There is already an edge from %d to %d. Can not add an edge from %d to %d since there will create a cycle between two nodes",
			e.dst, u, u, e.dst)))
	}
	edges, ok := g.adj[u]
	if !ok {
		g.keys = insertSorted(g.keys, u)
	}
	i, found := slices.BinarySearchFunc(edges, e.dst, func(x *flowEdge, d int) int { return cmp.Compare(x.dst, d) })
	if found {
		edges[i] = e
	} else {
		edges = slices.Insert(edges, i, e)
	}
	g.adj[u] = edges
	g.nodes = insertSorted(g.nodes, u)
	g.nodes = insertSorted(g.nodes, e.dst)
}

func insertSorted(s []int, n int) []int {
	i, found := slices.BinarySearch(s, n)
	if found {
		return s
	}
	return slices.Insert(s, i, n)
}

// edge is the edge from u to v, or nil.
func (g *flowGraph) edge(u, v int) *flowEdge {
	edges := g.adj[u]
	i, found := slices.BinarySearchFunc(edges, v, func(x *flowEdge, d int) int { return cmp.Compare(x.dst, d) })
	if !found {
		return nil
	}
	return edges[i]
}

// edges are u's edges, by destination.
func (g *flowGraph) edges(u int) []*flowEdge { return g.adj[u] }

// totalCost is the sum of each edge's cost times its flow.
func (g *flowGraph) totalCost() int64 {
	var total int64
	for _, u := range g.keys {
		for _, e := range g.adj[u] {
			total += int64(e.cost) * int64(e.flow)
		}
	}
	return total
}

// residualGraph is the graph's residual graph: for each edge from u to v
// with capacity c, cost w and flow f, an edge from u to v with residual
// flow c-f and one from v to u with cost -w and residual flow f.
func (g *flowGraph) residualGraph() *flowGraph {
	if g.residual {
		return g
	}
	r := newFlowGraph()
	r.residual = true
	for _, u := range g.keys {
		for _, e := range g.adj[u] {
			fwd := newFlowEdge(e.dst, e.capacity, e.cost, e.capacity-e.flow, e.flow, true)
			back := newFlowEdge(u, e.capacity, int(-int32(e.cost)), e.flow, 0, false) // cost * -1 in Java int
			fwd.counter, back.counter = back, fwd
			r.add(u, fwd)
			r.add(e.dst, back)
		}
	}
	r.source, r.hasSource, r.sink, r.hasSink = g.source, g.hasSource, g.sink, g.hasSink
	return r
}

// solveMinCostFlow keeps the flow's value and lowers its cost to the
// minimum by cancelling negative cycles in the residual graph.
func (g *flowGraph) solveMinCostFlow() {
	g.validateMinCostGraph()
	r := g.residualGraph()
	r.addDummySource()
	r.cancelNegativeCycles()
	r.removeDummySource()
	g.copyFlows(r)
}

// copyFlows takes each edge's flow from the residual graph r.
func (g *flowGraph) copyFlows(r *flowGraph) {
	for _, u := range g.keys {
		for _, e := range g.adj[u] {
			re := r.edge(u, e.dst)
			e.flow, e.residual = re.flow, re.residual
		}
	}
}

// calculateMaxFlow finds a maximum flow from the source to the sink and
// returns its value.
func (g *flowGraph) calculateMaxFlow() int64 {
	r := g.residualGraph()
	r.fordFulkerson()
	var maxFlow int64
	for _, u := range g.keys {
		for _, e := range g.adj[u] {
			re := r.edge(u, e.dst)
			e.flow, e.residual = re.flow, re.residual
			if g.hasSource && u == g.source {
				maxFlow += int64(e.flow)
			}
		}
	}
	return maxFlow
}

// addDummySource joins the dummy node to every node with residual flow
// 1 and cost 0: no edge leads back to it, so a negative cycle reached
// from it lies among the graph's own nodes.
func (g *flowGraph) addDummySource() {
	if !g.residual {
		panic(assignError("Graph should be residual graph to add dummy source node"))
	}
	edges := make([]*flowEdge, 0, len(g.nodes))
	for _, n := range g.nodes {
		edges = append(edges, newFlowEdge(n, 1, 0, 1, 0, true))
	}
	g.adj[dummyNode] = edges
	g.keys = insertSorted(g.keys, dummyNode)
	g.nodes = insertSorted(g.nodes, dummyNode)
}

func (g *flowGraph) removeDummySource() {
	if !g.residual {
		panic(assignError("Graph should be residual graph to remove dummy source node"))
	}
	delete(g.adj, dummyNode)
	g.keys = slices.DeleteFunc(g.keys, func(n int) bool { return n == dummyNode })
	g.nodes = slices.DeleteFunc(g.nodes, func(n int) bool { return n == dummyNode })
}

func (g *flowGraph) fordFulkerson() {
	if !g.residual {
		panic(assignError("Should be residual graph to cancel negative cycles"))
	}
	parents := map[int]int{}
	for g.breadthFirstSearch(parents) {
		possible := math.MaxInt32
		for n := g.sink; n != g.source; n = parents[n] {
			possible = min(possible, g.edge(parents[n], n).residual)
		}
		for n := g.sink; n != g.source; n = parents[n] {
			pushFlow(g.edge(parents[n], n), possible)
		}
		parents = map[int]int{}
	}
}

// pushFlow sends f along e, and takes it back from e's counter edge.
func pushFlow(e *flowEdge, f int) {
	c := e.counter
	e.residual -= f
	if e.forward {
		e.flow += f
	}
	c.residual += f
	if c.forward && c.flow >= f {
		c.flow -= f
	}
}

func (g *flowGraph) breadthFirstSearch(parents map[int]int) bool {
	visited := map[int]bool{g.source: true}
	queue := []int{g.source}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		for _, e := range g.adj[n] {
			next := e.dst
			if visited[next] || e.residual <= 0 {
				continue
			}
			if next == g.sink {
				parents[g.sink] = n
				return true
			}
			queue = append(queue, next)
			parents[next] = n
			visited[next] = true
		}
	}
	return false
}

// validateMinCostGraph checks that the flow is one: what enters each
// node other than the source and sink leaves it, and what leaves the
// source enters the sink.
func (g *flowGraph) validateMinCostGraph() {
	if g.residual {
		panic(assignError("Should not be residual graph to solve min cost flow"))
	}
	in, out := map[int]int64{}, map[int]int64{}
	inOrder := newHashOrder(func(n int) int32 { return int32(n) }) // the HashMap Kafka reports the first mismatch from
	for _, u := range g.keys {
		if g.hasSink && u == g.sink {
			panic(assignError(fmt.Sprintf("Sink node %d shouldn't have output", g.sink)))
		}
		for _, e := range g.adj[u] {
			if g.hasSource && e.dst == g.source {
				panic(assignError(fmt.Sprintf("Source node %d shouldn't have input %d", g.source, u)))
			}
			out[u] += int64(e.flow)
			in[e.dst] += int64(e.flow)
			inOrder.add(e.dst)
		}
	}
	for _, n := range inOrder.order() {
		if (g.hasSource && n == g.source) || (g.hasSink && n == g.sink) {
			continue
		}
		o, ok := out[n]
		if !ok || o != in[n] {
			panic(assignError(fmt.Sprintf("Input flow for node %d is %d which doesn't match output flow %s", n, in[n], javaLong(o, ok))))
		}
	}
	so, sok := lookupNode(out, g.source, g.hasSource)
	si, iok := lookupNode(in, g.sink, g.hasSink)
	if sok != iok || so != si {
		panic(assignError(fmt.Sprintf("Output flow for source %s is %s which doesn't match input flow %s for sink %s",
			javaInt(g.source, g.hasSource), javaLong(so, sok), javaLong(si, iok), javaInt(g.sink, g.hasSink))))
	}
}

func lookupNode(m map[int]int64, n int, set bool) (int64, bool) {
	if !set {
		return 0, false
	}
	v, ok := m[n]
	return v, ok
}

// javaLong and javaInt print a boxed number as Java does, null when absent.
func javaLong(v int64, ok bool) string {
	if !ok {
		return "null"
	}
	return strconv.FormatInt(v, 10)
}

func javaInt(v int, ok bool) string {
	if !ok {
		return "null"
	}
	return strconv.Itoa(v)
}

func (g *flowGraph) cancelNegativeCycles() {
	if !g.residual {
		panic(assignError("Should be residual graph to cancel negative cycles"))
	}
	for {
		parentNodes, parentEdges := map[int]int{}, map[int]*flowEdge{}
		n, ok := g.detectNegativeCycles(dummyNode, parentNodes, parentEdges)
		if !ok {
			return
		}
		// n was still relaxed after |nodes|-1 rounds, so walking its
		// parents leads into the cycle.
		visited := map[int]bool{}
		for !visited[n] {
			visited[n] = true
			n = parentOf(parentNodes, n)
		}
		g.cancelNegativeCycle(n, parentNodes, parentEdges)
	}
}

// parentOf is parentNodes.get(n) in Java, where a missing parent is the
// null (dummy) node.
func parentOf(parentNodes map[int]int, n int) int {
	p, ok := parentNodes[n]
	if !ok {
		return dummyNode
	}
	return p
}

func (g *flowGraph) cancelNegativeCycle(inCycle int, parentNodes map[int]int, parentEdges map[int]*flowEdge) {
	edgeTo := func(n int) *flowEdge {
		e := parentEdges[n]
		if e == nil {
			panic(assignError("no edge into node " + strconv.Itoa(n) + " of a negative cycle"))
		}
		return e
	}
	parent := parentOf(parentNodes, inCycle)
	possible := edgeTo(inCycle).residual
	for n := parent; n != inCycle; n = parentOf(parentNodes, n) {
		possible = min(possible, edgeTo(n).residual)
	}
	pushFlow(edgeTo(inCycle), possible)
	for n := parent; n != inCycle; n = parentOf(parentNodes, n) {
		pushFlow(edgeTo(n), possible)
	}
}

// detectNegativeCycles runs Bellman-Ford from source for as many rounds
// as there are nodes, relaxing distances in place in the order the edges
// are visited, and returns the first node relaxed in the last round: one
// that leads to a negative cycle.
func (g *flowGraph) detectNegativeCycles(source int, parentNodes map[int]int, parentEdges map[int]*flowEdge) (int, bool) {
	distance := map[int]int64{source: 0}
	count := len(g.nodes)
	for i := range count {
		for _, start := range g.keys {
			for _, e := range g.adj[start] {
				if e.residual == 0 {
					continue
				}
				ds, ok := distance[start]
				if !ok {
					continue
				}
				de, seen := distance[e.dst]
				if !seen || de > ds+int64(e.cost) {
					distance[e.dst] = ds + int64(e.cost)
					parentNodes[e.dst] = start
					parentEdges[e.dst] = e
					if i == count-1 {
						return e.dst, true
					}
				}
			}
		}
	}
	return 0, false
}
