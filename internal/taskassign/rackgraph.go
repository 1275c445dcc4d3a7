package taskassign

import (
	"fmt"
	"math"

	"github.com/stoatflow/stoatflow/internal/assignment"
)

// sourceNode is the flow networks' source (RackAwareGraphConstructor's
// SOURCE_ID); tasks are nodes 0..len(tasks)-1, clients come after them.
const sourceNode = -1

// taskGraph is one flow network of tasks to clients: a unit of flow from
// the source through each task to the client that runs it, and on to the
// sink, each client passing as many units as it had tasks, so the
// cheapest flow keeps every client's count (RackAwareGraphConstructor).
type taskGraph struct {
	g       *flowGraph
	clients []*ClientState      // the clients tasks may move among (clientList), in id order
	tasks   []assignment.TaskID // the tasks to place (taskIdList), sorted
	all     []*ClientState      // the whole group (clientStates)
	// taskClient is the client each task was on (the last one, for
	// standbys); original counts each client's tasks among tasks.
	taskClient map[assignment.TaskID]*ClientState
	original   map[assignment.ProcessID]int
}

// taskCost is a task's cost on a client (RackAwareTaskAssignor.getCost
// with its traffic and non-overlap costs bound).
type taskCost func(t assignment.TaskID, c *ClientState, inCurrentAssignment bool) int

// graphConstructor is RackAwareGraphConstructor: min_traffic's or
// balance_subtopology's network.
type graphConstructor interface {
	// build fills tg.g from the current placement (has), which for
	// standbys (hasReplica) may put a task on several clients.
	build(tg *taskGraph, has func(*ClientState, assignment.TaskID) bool, cost taskCost, hasReplica bool)
	// assign moves each task to the client its flow reaches and reports
	// whether one moved.
	assign(tg *taskGraph, has func(*ClientState, assignment.TaskID) bool, assign, unassign func(*ClientState, assignment.TaskID)) bool
	clientIndex(tg *taskGraph, node, group int) int
}

func newTaskGraph(clients []*ClientState, tasks []assignment.TaskID, all []*ClientState) *taskGraph {
	return &taskGraph{g: newFlowGraph(), clients: clients, tasks: tasks, all: all,
		taskClient: map[assignment.TaskID]*ClientState{}, original: map[assignment.ProcessID]int{}}
}

// countOriginal counts, over the whole group, each client's tasks among
// tg.tasks.
func (tg *taskGraph) countOriginal(has func(*ClientState, assignment.TaskID) bool) {
	for _, t := range tg.tasks {
		for _, c := range tg.all {
			if has(c, t) {
				tg.original[c.id]++
			}
		}
	}
}

// noteCurrent records that t is on c, refusing an active on two clients.
func (tg *taskGraph) noteCurrent(t assignment.TaskID, c *ClientState, hasReplica bool) {
	if prev, ok := tg.taskClient[t]; ok && !hasReplica {
		panic(assignError(fmt.Sprintf("Task %s assigned to multiple clients %s, %s", t, c.id, prev.id)))
	}
	tg.taskClient[t] = c
}

// assignTaskToClient follows the flow out of a task's node and moves the
// task to the client it reaches (RackAwareGraphConstructor's default
// method). It reports whether the task moved and how many flows it saw.
func assignTaskToClient(gc graphConstructor, tg *taskGraph, t assignment.TaskID, taskNode, group int,
	assign, unassign func(*ClientState, assignment.TaskID)) (moved bool, assigned int) {
	for _, e := range tg.g.edges(taskNode) {
		if e.flow <= 0 {
			continue
		}
		assigned++
		c := tg.clients[gc.clientIndex(tg, e.dst, group)]
		orig := tg.taskClient[t]
		if orig != nil && c.id == orig.id {
			break
		}
		if orig == nil {
			panic(assignError(fmt.Sprintf("task %s was on no client", t)))
		}
		unassign(orig, t)
		assign(c, t)
		moved = true
	}
	return moved, assigned
}

// validateAssignedTask checks that every task found a client and every
// client kept its number of tasks.
func validateAssignedTask(tg *taskGraph, assigned int, has func(*ClientState, assignment.TaskID) bool) {
	if assigned != len(tg.tasks) {
		panic(assignError(fmt.Sprintf("Computed active task assignment number %d is different size %d", assigned, len(tg.tasks))))
	}
	after := map[assignment.ProcessID]int{}
	for _, t := range tg.tasks {
		for _, c := range tg.all {
			if has(c, t) {
				after[c.id]++
			}
		}
	}
	if len(tg.original) != len(after) {
		panic(assignError(fmt.Sprintf("There are %d clients have  active tasks before assignment, but %d clients have active tasks after assignment",
			len(tg.original), len(after))))
	}
	for _, c := range tg.all {
		n, ok := tg.original[c.id]
		if ok && after[c.id] != n {
			panic(assignError(fmt.Sprintf("There are %d tasks assigned to client %s before assignment, but %d tasks  are assigned to it after assignment",
				n, c.id, after[c.id])))
		}
	}
}

// minTrafficGraph is MinTrafficGraphConstructor: tasks, then clients,
// then the sink, with the current placement as the starting flow.
type minTrafficGraph struct{}

func (minTrafficGraph) clientNode(tg *taskGraph, i int) int { return i + len(tg.tasks) }

func (minTrafficGraph) clientIndex(tg *taskGraph, node, _ int) int { return node - len(tg.tasks) }

func (m minTrafficGraph) build(tg *taskGraph, has func(*ClientState, assignment.TaskID) bool, cost taskCost, hasReplica bool) {
	tg.countOriginal(has)
	for taskNode, t := range tg.tasks {
		for j, c := range tg.clients {
			flow := 0
			if has(c, t) {
				flow = 1
			}
			w := cost(t, c, flow == 1)
			if flow == 1 {
				tg.noteCurrent(t, c, hasReplica)
			}
			tg.g.addEdge(taskNode, m.clientNode(tg, j), 1, w, flow)
		}
		if _, ok := tg.taskClient[t]; !ok {
			panic(assignError(fmt.Sprintf("Task %s not assigned to any client", t)))
		}
		tg.g.addEdge(sourceNode, taskNode, 1, 0, 1)
	}
	sink := len(tg.clients) + len(tg.tasks)
	// A client without tasks keeps none, even where it would be
	// cheaper: the counts stay as balanced as they were.
	for i, c := range tg.clients {
		n := tg.original[c.id]
		tg.g.addEdge(m.clientNode(tg, i), sink, n, 0, n)
	}
	tg.g.setSource(sourceNode)
	tg.g.setSink(sink)
}

func (m minTrafficGraph) assign(tg *taskGraph, has func(*ClientState, assignment.TaskID) bool, assign, unassign func(*ClientState, assignment.TaskID)) bool {
	moved, assigned := false, 0
	for taskNode, t := range tg.tasks {
		mv, n := assignTaskToClient(m, tg, t, taskNode, -1, assign, unassign)
		moved = moved || mv
		assigned += n
	}
	validateAssignedTask(tg, assigned, has)
	return moved
}

// balanceSubtopologyGraph is BalanceSubtopologyGraphConstructor: each
// sub-topology's tasks reach a node per client of their own, which
// passes at most the client's share of that sub-topology's tasks to a
// second node per client, and on to the sink; a max flow gives the
// starting flow.
type balanceSubtopologyGraph struct {
	groups [][]assignment.TaskID // the tasks of each sub-topology, sub-topologies and tasks in order
}

func (b balanceSubtopologyGraph) clientNode(tg *taskGraph, i, group int) int {
	return len(tg.tasks) + len(tg.clients)*group + i
}

func (b balanceSubtopologyGraph) clientIndex(tg *taskGraph, node, group int) int {
	return node - len(tg.tasks) - len(tg.clients)*group
}

func (b balanceSubtopologyGraph) secondStageNode(tg *taskGraph, i int) int {
	return len(tg.tasks) + len(tg.clients)*len(b.groups) + i
}

func (b balanceSubtopologyGraph) sinkNode(tg *taskGraph) int {
	return len(tg.clients) + len(tg.tasks) + len(tg.clients)*len(b.groups)
}

func (b balanceSubtopologyGraph) build(tg *taskGraph, has func(*ClientState, assignment.TaskID) bool, cost taskCost, hasReplica bool) {
	inGroups := map[assignment.TaskID]bool{}
	for _, ts := range b.groups {
		for _, t := range ts {
			inGroups[t] = true
		}
	}
	for _, t := range tg.tasks {
		if !inGroups[t] {
			panic(assignError(fmt.Sprintf("Task %s not in tasksForTopicGroup", t)))
		}
	}
	tg.countOriginal(has)
	wanted := map[assignment.TaskID]bool{}
	for _, t := range tg.tasks {
		wanted[t] = true
	}
	sink := b.sinkNode(tg)
	taskNode := 0
	for group, ts := range b.groups {
		for i, c := range tg.clients {
			node := b.clientNode(tg, i, group)
			next, valid := taskNode, 0
			for _, t := range ts {
				if !wanted[t] {
					continue // a stateless task when placing stateful ones, or the reverse
				}
				valid++
				in := has(c, t)
				tg.g.addEdge(next, node, 1, cost(t, c, in), 0)
				next++
				if in {
					tg.noteCurrent(t, c, hasReplica)
				}
			}
			if valid > 0 {
				capacity := 0
				if n, ok := tg.original[c.id]; ok {
					capacity = int(math.Ceil(float64(n) * 1.0 / float64(len(tg.tasks)) * float64(valid)))
				}
				tg.g.addEdge(node, b.secondStageNode(tg, i), capacity, 0, 0)
			}
		}
		for _, t := range ts {
			if wanted[t] {
				taskNode++
			}
		}
	}
	taskNode = 0
	for _, ts := range b.groups {
		for _, t := range ts {
			if wanted[t] {
				tg.g.addEdge(sourceNode, taskNode, 1, 0, 0)
				taskNode++
			}
		}
	}
	for i, c := range tg.clients {
		n := tg.original[c.id]
		tg.g.addEdge(b.secondStageNode(tg, i), sink, n, 0, 0)
	}
	tg.g.setSource(sourceNode)
	tg.g.setSink(sink)

	if f := tg.g.calculateMaxFlow(); f != int64(len(tg.tasks)) {
		panic(assignError(fmt.Sprintf("max flow calculated: %d doesn't match taskSize: %d", f, len(tg.tasks))))
	}
}

func (b balanceSubtopologyGraph) assign(tg *taskGraph, has func(*ClientState, assignment.TaskID) bool, assign, unassign func(*ClientState, assignment.TaskID)) bool {
	wanted := map[assignment.TaskID]bool{}
	for _, t := range tg.tasks {
		wanted[t] = true
	}
	taskNode, assigned, moved := 0, 0, false
	for group, ts := range b.groups {
		for _, t := range ts {
			if !wanted[t] {
				continue
			}
			mv, n := assignTaskToClient(b, tg, t, taskNode, group, assign, unassign)
			moved = moved || mv
			assigned += n
			taskNode++
		}
	}
	validateAssignedTask(tg, assigned, has)
	return moved
}
