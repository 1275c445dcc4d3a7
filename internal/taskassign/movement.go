package taskassign

import (
	"cmp"
	"slices"

	"github.com/stoatflow/stoatflow/internal/assignment"
)

// movements returns actives and standbys that the balanced placement put
// on clients without their state to clients that have it, leaving warm-up
// replicas (up to max.warmup.replicas) on the clients they should move to
// once caught up.
type movements struct {
	g                *group
	caughtUp         map[assignment.TaskID][]assignment.ProcessID // sorted by id
	byLag            map[assignment.TaskID][]assignment.ProcessID
	warmups          map[assignment.ProcessID]*taskSet // warm-ups placed for active movements
	remainingWarmups int                               // may go below zero, as Kafka's counter does
}

// movement is a task on a destination client that lacks its state.
type movement struct {
	task        assignment.TaskID
	destination assignment.ProcessID
	numCaughtUp int
}

func compareMovements(a, b movement) int {
	if c := cmp.Compare(a.numCaughtUp, b.numCaughtUp); c != 0 {
		return c
	}
	return a.task.Compare(b.task)
}

func (m *movements) isCaughtUp(t assignment.TaskID, id assignment.ProcessID) bool {
	_, ok := slices.BinarySearchFunc(m.caughtUp[t], id, assignment.ProcessID.Compare)
	return ok
}

// needsMove: the client is not caught up on the task and the most caught
// up client has a smaller lag.
func (m *movements) needsMove(t assignment.TaskID, id assignment.ProcessID) bool {
	if m.isCaughtUp(t, id) {
		return false
	}
	best := m.g.byID[m.byLag[t][0]].lagFor(t)
	return best < m.g.byID[id].lagFor(t)
}

func (m *movements) caughtUpByLoad() *constrainedPrioritySet {
	return newConstrainedPrioritySet(
		func(id assignment.ProcessID, t assignment.TaskID) bool { return m.isCaughtUp(t, id) },
		func(id assignment.ProcessID) float64 { return m.g.byID[id].assignedLoad() },
	)
}

// mostCaughtUp is the first client by lag, ahead of the destination, that
// meets eligible (nil: any).
func (m *movements) mostCaughtUp(t assignment.TaskID, destination assignment.ProcessID, eligible func(assignment.ProcessID) bool) (assignment.ProcessID, bool) {
	for _, id := range m.byLag[t] {
		if id == destination {
			break
		}
		if eligible == nil || eligible(id) {
			return id, true
		}
	}
	return assignment.ProcessID{}, false
}

func (m *movements) warmupsOf(id assignment.ProcessID) *taskSet {
	w := m.warmups[id]
	if w == nil {
		w = &taskSet{}
		m.warmups[id] = w
	}
	return w
}

// assignActiveMovements returns each active placed on a client that is
// not caught up to a caught-up client (one holding a standby first,
// swapping the two; then the least loaded; then the most caught up), and
// leaves a warm-up on the first client while the budget lasts. It returns
// the number of movements.
func (m *movements) assignActiveMovements() int {
	set := m.caughtUpByLoad()
	queue := newJavaPQ(compareMovements)
	for _, c := range m.g.clients {
		for _, t := range c.active.s {
			if m.needsMove(t, c.id) {
				queue.offer(movement{task: t, destination: c.id, numCaughtUp: len(m.caughtUp[t])})
			}
		}
		set.offer(c.id)
	}
	needed := queue.size()
	for mv, ok := queue.poll(); ok; mv, ok = queue.poll() {
		dst := m.g.byID[mv.destination]
		if src, ok := set.poll(mv.task, func(id assignment.ProcessID) bool { return m.g.byID[id].standby.contains(mv.task) }); ok {
			swapStandbyAndActive(mv.task, m.g.byID[src], dst)
			set.offerAll([]assignment.ProcessID{src, mv.destination})
			continue
		}
		if src, ok := set.poll(mv.task, nil); ok {
			m.moveActive(mv.task, m.g.byID[src], dst)
			set.offerAll([]assignment.ProcessID{src, mv.destination})
			continue
		}
		src, ok := m.mostCaughtUp(mv.task, mv.destination, nil)
		if !ok {
			panic(assignError("no more caught-up client for task " + mv.task.String() + " though a movement was planned"))
		}
		if m.g.byID[src].standby.contains(mv.task) {
			swapStandbyAndActive(mv.task, m.g.byID[src], dst)
		} else {
			m.moveActive(mv.task, m.g.byID[src], dst)
		}
		set.offerAll([]assignment.ProcessID{src, mv.destination})
	}
	return needed
}

// assignStandbyMovements gives a standby placed on a client that is not
// caught up to a caught-up client without the task, keeping the first as
// a warm-up while the budget lasts. Warm-ups of active movements stay. It
// returns the number of movements made.
func (m *movements) assignStandbyMovements() int {
	set := m.caughtUpByLoad()
	queue := newJavaPQ(compareMovements)
	for _, c := range m.g.clients {
		for _, t := range c.standby.s {
			if w := m.warmups[c.id]; w != nil && w.contains(t) {
				continue
			}
			if m.needsMove(t, c.id) {
				queue.offer(movement{task: t, destination: c.id, numCaughtUp: len(m.caughtUp[t])})
			}
		}
		set.offer(c.id)
	}
	needed := 0
	for mv, ok := queue.poll(); ok; mv, ok = queue.poll() {
		eligible := func(id assignment.ProcessID) bool { return !m.g.byID[id].hasAssigned(mv.task) }
		src, found := set.poll(mv.task, eligible)
		if !found {
			src, found = m.mostCaughtUp(mv.task, mv.destination, eligible)
		}
		if !found {
			continue // every caught-up client has the task already
		}
		m.g.byID[src].assignStandby(mv.task)
		dst := m.g.byID[mv.destination]
		if m.takeWarmup() {
			dst.warmup.add(mv.task)
		} else {
			dst.unassignStandby(mv.task)
		}
		set.offerAll([]assignment.ProcessID{src, mv.destination})
		needed++
	}
	return needed
}

// takeWarmup spends one warm-up replica from the budget, reporting
// whether one was left.
func (m *movements) takeWarmup() bool {
	left := m.remainingWarmups > 0
	m.remainingWarmups--
	return left
}

func (m *movements) moveActive(t assignment.TaskID, src, dst *ClientState) {
	src.assignActive(t)
	dst.unassignActive(t)
	if m.takeWarmup() {
		dst.assignStandby(t)
		dst.warmup.add(t)
		m.warmupsOf(dst.id).add(t)
	}
}

func swapStandbyAndActive(t assignment.TaskID, src, dst *ClientState) {
	src.unassignStandby(t)
	src.assignActive(t)
	dst.unassignActive(t)
	dst.assignStandby(t)
}
