package taskassign

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// The cases below are Kafka 4.4's GraphTest with the flows and costs it
// expects.

// exampleGraph: nodes 0 and 2 both reach 1 and 3, one unit flows 0→1
// and one 2→3 at cost 5; flowing 0→3 and 2→1 costs 2.
func exampleGraph() *flowGraph {
	g := newFlowGraph()
	g.addEdge(0, 1, 1, 3, 1)
	g.addEdge(0, 3, 1, 1, 0)
	g.addEdge(2, 1, 1, 1, 0)
	g.addEdge(2, 3, 1, 2, 1)
	g.addEdge(-1, 0, 1, 0, 1)
	g.addEdge(-1, 2, 1, 0, 1)
	g.addEdge(1, 99, 1, 0, 1)
	g.addEdge(3, 99, 1, 0, 1)
	g.setSource(-1)
	g.setSink(99)
	return g
}

// wantEdge checks an edge as Graph.Edge.equals compares them.
func wantEdge(t *testing.T, g *flowGraph, u, dst, capacity, cost, residual, flow int, forward bool) {
	t.Helper()
	e := g.edge(u, dst)
	if e == nil {
		t.Errorf("no edge %d→%d", u, dst)
		return
	}
	if e.capacity != capacity || e.cost != cost || e.residual != residual || e.flow != flow || e.forward != forward {
		t.Errorf("edge %d→%d: capacity %d cost %d residual %d flow %d forward %v, want %d %d %d %d %v",
			u, dst, e.capacity, e.cost, e.residual, e.flow, e.forward, capacity, cost, residual, flow, forward)
	}
}

func wantFwd(t *testing.T, g *flowGraph, u, dst, capacity, cost, residual, flow int) {
	t.Helper()
	wantEdge(t, g, u, dst, capacity, cost, residual, flow, true)
}

func wantEdgeCount(t *testing.T, g *flowGraph, u, n int) {
	t.Helper()
	if got := len(g.edges(u)); got != n {
		t.Errorf("node %d has %d edges, want %d", u, got, n)
	}
}

func wantPanic(t *testing.T, want string, f func()) {
	t.Helper()
	defer func() {
		t.Helper()
		r := recover()
		if msg, ok := r.(assignError); !ok || string(msg) != want {
			t.Errorf("panic %v, want %q", r, want)
		}
	}()
	f()
}

func TestGraphBasic(t *testing.T) {
	g := exampleGraph()
	if want := []int{-1, 0, 1, 2, 3, 99}; !slices.Equal(g.nodes, want) {
		t.Errorf("nodes %v, want %v", g.nodes, want)
	}
	wantEdgeCount(t, g, 0, 2)
	wantFwd(t, g, 0, 1, 1, 3, 0, 1)
	wantFwd(t, g, 0, 3, 1, 1, 1, 0)
	wantEdgeCount(t, g, 2, 2)
	wantFwd(t, g, 2, 1, 1, 1, 1, 0)
	wantFwd(t, g, 2, 3, 1, 2, 0, 1)
	wantEdgeCount(t, g, 1, 1)
	wantFwd(t, g, 1, 99, 1, 0, 0, 1)
	wantEdgeCount(t, g, 3, 1)
	wantFwd(t, g, 3, 99, 1, 0, 0, 1)
	wantEdgeCount(t, g, -1, 2)
	wantFwd(t, g, -1, 0, 1, 0, 0, 1)
	wantFwd(t, g, -1, 2, 1, 0, 0, 1)
	wantEdgeCount(t, g, 99, 0)
	if g.residual {
		t.Error("a graph is residual")
	}
}

func TestGraphResidual(t *testing.T) {
	r := exampleGraph().residualGraph()
	if r.residualGraph() != r {
		t.Error("a residual graph's residual graph is another graph")
	}
	if want := []int{-1, 0, 1, 2, 3, 99}; !slices.Equal(r.nodes, want) {
		t.Errorf("nodes %v, want %v", r.nodes, want)
	}
	wantEdgeCount(t, r, 0, 3)
	wantFwd(t, r, 0, 1, 1, 3, 0, 1)
	wantFwd(t, r, 0, 3, 1, 1, 1, 0)
	wantEdge(t, r, 0, -1, 1, 0, 1, 0, false)
	wantEdgeCount(t, r, 2, 3)
	wantFwd(t, r, 2, 1, 1, 1, 1, 0)
	wantFwd(t, r, 2, 3, 1, 2, 0, 1)
	wantEdge(t, r, 2, -1, 1, 0, 1, 0, false)
	wantEdgeCount(t, r, 1, 3)
	wantEdge(t, r, 1, 0, 1, -3, 1, 0, false)
	wantEdge(t, r, 1, 2, 1, -1, 0, 0, false)
	wantFwd(t, r, 1, 99, 1, 0, 0, 1)
	wantEdgeCount(t, r, 3, 3)
	wantEdge(t, r, 3, 0, 1, -1, 0, 0, false)
	wantEdge(t, r, 3, 2, 1, -2, 1, 0, false)
	wantFwd(t, r, 3, 99, 1, 0, 0, 1)
	if !r.residual {
		t.Error("a residual graph is not residual")
	}
}

func TestGraphInvalidOperation(t *testing.T) {
	g := newFlowGraph()
	wantPanic(t, "Edge capacity cannot be negative", func() { g.addEdge(0, 1, -1, 0, 0) })
	wantPanic(t, "Edge flow 2 cannot exceed capacity 1", func() { g.addEdge(0, 1, 1, 0, 2) })
	g.addEdge(0, 1, 1, 1, 1)
	wantPanic(t, "There is already an edge from 0 to 1. Can not add an edge from 1 to 0 since there will create a cycle between two nodes",
		func() { g.addEdge(1, 0, 1, 0, 0) })
	r := g.residualGraph()
	wantPanic(t, "Should not be residual graph to solve min cost flow", r.solveMinCostFlow)
}

func TestGraphInvalidFlows(t *testing.T) {
	for _, tc := range []struct {
		name   string
		build  func(g *flowGraph)
		source int // -99: unset
		sink   int
		want   string
	}{
		{"invalid source", func(g *flowGraph) { g.addEdge(0, 1, 1, 1, 0); g.addEdge(1, 2, 1, 1, 0) }, 1, 2,
			"Source node 1 shouldn't have input 0"},
		{"invalid sink", func(g *flowGraph) { g.addEdge(0, 1, 1, 1, 0); g.addEdge(1, 2, 1, 1, 0) }, 0, 1,
			"Sink node 1 shouldn't have output"},
		{"invalid flow", func(g *flowGraph) {
			g.addEdge(0, 1, 1, 1, 1)
			g.addEdge(0, 2, 2, 1, 2)
			g.addEdge(1, 3, 1, 1, 1)
			g.addEdge(2, 3, 2, 1, 0) // the flow from 2 to 3 is missing
		}, 0, 3, "Input flow for node 2 is 2 which doesn't match output flow 0"},
		{"missing source", func(g *flowGraph) {
			g.addEdge(0, 1, 1, 1, 1)
			g.addEdge(0, 2, 2, 1, 2)
			g.addEdge(1, 3, 1, 1, 1)
			g.addEdge(2, 3, 2, 1, 2)
		}, -99, 3, "Output flow for source null is null which doesn't match input flow 3 for sink 3"},
		{"disconnected", func(g *flowGraph) { g.addEdge(0, 1, 1, 1, 1); g.addEdge(2, 3, 2, 1, 2) }, 0, 1,
			"Input flow for node 3 is 2 which doesn't match output flow null"},
		{"disconnected across source and sink", func(g *flowGraph) { g.addEdge(0, 1, 1, 1, 1); g.addEdge(2, 3, 2, 1, 2) }, 0, 3,
			"Input flow for node 1 is 1 which doesn't match output flow null"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := newFlowGraph()
			tc.build(g)
			if tc.source != -99 {
				g.setSource(tc.source)
			}
			g.setSink(tc.sink)
			wantPanic(t, tc.want, g.solveMinCostFlow)
		})
	}
}

func TestGraphJustSourceSink(t *testing.T) {
	g := newFlowGraph()
	g.addEdge(0, 1, 1, 1, 1)
	g.setSource(0)
	g.setSink(1)
	g.solveMinCostFlow()
	if c := g.totalCost(); c != 1 {
		t.Errorf("cost %d, want 1", c)
	}
}

func TestGraphMinCostFlow(t *testing.T) {
	g := exampleGraph()
	if c := g.totalCost(); c != 5 {
		t.Fatalf("cost %d before, want 5", c)
	}
	g.solveMinCostFlow()
	if c := g.totalCost(); c != 2 {
		t.Errorf("cost %d, want 2", c)
	}
	wantEdgeCount(t, g, 0, 2)
	wantFwd(t, g, 0, 1, 1, 3, 1, 0) // no flow from 0 to 1
	wantFwd(t, g, 0, 3, 1, 1, 0, 1) // but from 0 to 3
	wantEdgeCount(t, g, 2, 2)
	wantFwd(t, g, 2, 3, 1, 2, 1, 0)
	wantFwd(t, g, 2, 1, 1, 1, 0, 1)
}

// TestGraphMinCostDetectNodeNotInNegativeCycle: the node the search
// reports (2) is not on the negative cycle 1 → 4 → 0 → 3 → 1 itself.
func TestGraphMinCostDetectNodeNotInNegativeCycle(t *testing.T) {
	g := newFlowGraph()
	g.addEdge(-1, 0, 1, 0, 1)
	g.addEdge(-1, 1, 1, 0, 1)
	g.addEdge(0, 2, 1, 1, 0)
	g.addEdge(0, 3, 1, 1, 0)
	g.addEdge(0, 4, 1, 10, 1)
	g.addEdge(1, 2, 1, 1, 0)
	g.addEdge(1, 3, 1, 10, 1)
	g.addEdge(1, 4, 1, 1, 0)
	g.addEdge(2, 99, 0, 0, 0)
	g.addEdge(3, 99, 1, 0, 1)
	g.addEdge(4, 99, 1, 0, 1)
	g.setSource(-1)
	g.setSink(99)
	if c := g.totalCost(); c != 20 {
		t.Fatalf("cost %d before, want 20", c)
	}
	g.solveMinCostFlow()
	if c := g.totalCost(); c != 2 {
		t.Errorf("cost %d, want 2", c)
	}
	wantFwd(t, g, -1, 0, 1, 0, 0, 1)
	wantFwd(t, g, -1, 1, 1, 0, 0, 1)
	wantFwd(t, g, 0, 2, 1, 1, 1, 0)
	wantFwd(t, g, 0, 3, 1, 1, 0, 1)
	wantFwd(t, g, 0, 4, 1, 10, 1, 0)
	wantFwd(t, g, 1, 2, 1, 1, 1, 0)
	wantFwd(t, g, 1, 3, 1, 10, 1, 0)
	wantFwd(t, g, 1, 4, 1, 1, 0, 1)
	wantFwd(t, g, 2, 99, 0, 0, 0, 0)
	wantFwd(t, g, 3, 99, 1, 0, 0, 1)
	wantFwd(t, g, 4, 99, 1, 0, 0, 1)
}

// TestGraphDeterministic: whatever the order the edges were added in,
// the cheapest of the equally cheap flows is the same one, 0 → 2 → 5.
func TestGraphDeterministic(t *testing.T) {
	type edge struct{ u, v, capacity, cost, flow int }
	edges := []edge{{0, 1, 1, 2, 1}, {0, 2, 1, 1, 0}, {0, 3, 1, 1, 0}, {0, 4, 1, 1, 0},
		{1, 5, 1, 1, 1}, {2, 5, 1, 1, 0}, {3, 5, 1, 1, 0}, {4, 5, 1, 1, 0}}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 10 {
		rng.Shuffle(len(edges), func(i, j int) { edges[i], edges[j] = edges[j], edges[i] })
		g := newFlowGraph()
		for _, e := range edges {
			g.addEdge(e.u, e.v, e.capacity, e.cost, e.flow)
		}
		g.setSource(0)
		g.setSink(5)
		if c := g.totalCost(); c != 3 {
			t.Fatalf("cost %d before, want 3", c)
		}
		g.solveMinCostFlow()
		if c := g.totalCost(); c != 2 {
			t.Errorf("cost %d, want 2", c)
		}
		wantEdgeCount(t, g, 0, 4)
		wantFwd(t, g, 0, 1, 1, 2, 1, 0)
		wantFwd(t, g, 0, 2, 1, 1, 0, 1)
		wantFwd(t, g, 0, 3, 1, 1, 1, 0)
		wantFwd(t, g, 0, 4, 1, 1, 1, 0)
		wantFwd(t, g, 1, 5, 1, 1, 1, 0)
		wantFwd(t, g, 2, 5, 1, 1, 0, 1)
		wantFwd(t, g, 3, 5, 1, 1, 1, 0)
		wantFwd(t, g, 4, 5, 1, 1, 1, 0)
	}
}

func TestGraphMaxFlow(t *testing.T) {
	type edge struct{ u, v, capacity int }
	for _, tc := range []struct {
		name  string
		edges []edge
		want  int64
		flows map[[2]int]int
	}{
		{"only source and sink", []edge{{0, 1, 100}}, 100, map[[2]int]int{{0, 1}: 100}},
		{"bound by sink edges", []edge{{0, 1, 10}, {0, 2, 10}, {0, 3, 10}, {1, 4, 5}, {2, 5, 5}, {3, 6, 5}, {4, 7, 2}, {5, 7, 2}, {6, 7, 2}}, 6,
			map[[2]int]int{{0, 1}: 2, {0, 2}: 2, {0, 3}: 2, {1, 4}: 2, {2, 5}: 2, {3, 6}: 2, {4, 7}: 2, {5, 7}: 2, {6, 7}: 2}},
		{"bound by source edges", []edge{{0, 1, 1}, {0, 2, 2}, {0, 3, 3}, {1, 4, 5}, {2, 5, 5}, {3, 6, 5}, {4, 7, 10}, {5, 7, 10}, {6, 7, 10}}, 6,
			map[[2]int]int{{0, 1}: 1, {0, 2}: 2, {0, 3}: 3, {1, 4}: 1, {2, 5}: 2, {3, 6}: 3, {4, 7}: 1, {5, 7}: 2, {6, 7}: 3}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := newFlowGraph()
			sink := 0
			for _, e := range tc.edges {
				g.addEdge(e.u, e.v, e.capacity, 0, 0)
				sink = max(sink, e.v)
			}
			g.setSource(0)
			g.setSink(sink)
			if f := g.calculateMaxFlow(); f != tc.want {
				t.Errorf("max flow %d, want %d", f, tc.want)
			}
			for uv, f := range tc.flows {
				if e := g.edge(uv[0], uv[1]); e.flow != f || e.residual != e.capacity-f {
					t.Errorf("edge %d→%d: flow %d residual %d, want flow %d", uv[0], uv[1], e.flow, e.residual, f)
				}
			}
		})
	}
}
