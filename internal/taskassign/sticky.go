package taskassign

import (
	"fmt"
	"log/slog"
	"slices"

	"github.com/stoatflow/stoatflow/internal/assignment"
)

// StickyTaskAssignorClass is the class name of Kafka Streams' public
// StickyTaskAssignor (KIP-924), the value of task.assignor.class that
// selects AssignSticky.
const StickyTaskAssignorClass = "org.apache.kafka.streams.processor.assignment.assignors.StickyTaskAssignor"

// The sticky assignor's own rack-aware costs
// (StickyTaskAssignor.DEFAULT_STICKY_TRAFFIC_COST and _NON_OVERLAP_COST).
// Kafka Streams 4.4 optimizes for racks only when both costs are
// configured, so these never weigh in practice; they are kept for the
// letter of the port.
const (
	stickyDefaultTrafficCost    = 1
	stickyDefaultNonOverlapCost = 10
)

// AssignSticky places allTasks on the clients as Kafka Streams 4.4 does
// when task.assignor.class is StickyTaskAssignorClass: its KIP-924
// StickyTaskAssignor keeps every task on the client that ran it as
// active while that client has room for its share (the number of tasks
// times its threads over all threads, rounded up), then gives the rest
// to clients that held them as standbys, then to the least loaded
// clients; standbys go, task by task, to the clients without the task,
// again preferring those that held it. It moves the fewest tasks, where
// the default HighAvailabilityTaskAssignor (Assign) deals stateful
// actives round robin and relies on warm-ups and probing rebalances. It
// never asks for a probing rebalance and places no warm-ups. With
// rack.aware.assignment.strategy min_traffic or balance_subtopology and
// both rack.aware.assignment costs configured (Kafka Streams' KIP-924
// utilities refuse to optimize otherwise), the actives and then the
// standbys are moved to the placement with the least cross-rack traffic
// that keeps every client's count (TaskAssignmentUtils'
// optimizeRackAwareActiveTasks and optimizeRackAwareStandbyTasks); the
// racks are those of racks.Replicas, the client's is the rack of the
// first consumer added to it.
//
// The clients must come in the order a Kafka Streams leader meets them:
// the order of the first of their members in SubscriptionOrder. Kafka
// keeps them in a HashMap by process id, and where two process ids share
// a bucket that order breaks ties between equally loaded clients.
//
// Kafka Streams places standbys task by task in the order of a HashSet of
// its TaskInfo objects, which hash by identity: that order, and with it
// which client gets which standby when several are equally good, differs
// from one JVM to the next. AssignSticky takes the stateful tasks in
// task order, one of the orders a JVM leader may take.
//
// statefulTasks are the tasks with changelogs (the only ones that get
// standbys). The placement is left in the clients, in the order
// AssignThreads needs to spread it over threads as Kafka Streams does.
// A task of a named topology is refused with ErrUnsupported.
func AssignSticky(clients []*ClientState, allTasks, statefulTasks []assignment.TaskID, racks *Racks, cfg Config) (err error) {
	if err := cfg.Validate(); err != nil {
		return err
	}
	for _, ts := range [][]assignment.TaskID{allTasks, statefulTasks} {
		if err := checkUnnamedAll(ts); err != nil {
			return err
		}
	}
	if racks != nil {
		if err := checkUnnamedKeys(racks.SourcePartitions); err != nil {
			return err
		}
		if err := checkUnnamedKeys(racks.ChangelogPartitions); err != nil {
			return err
		}
	}
	seen := map[assignment.ProcessID]bool{}
	for _, c := range clients {
		if seen[c.id] {
			return fmt.Errorf("%w: process id %s twice", ErrInvalid, c.id)
		}
		seen[c.id] = true
		if c.capacity <= 0 {
			return fmt.Errorf("%w: client %s has no consumers", ErrInvalid, c.id)
		}
		if err := c.checkUnnamed(); err != nil {
			return err
		}
	}
	all := newTaskSet(allTasks...)
	if len(clients) == 0 && all.len() > 0 {
		return fmt.Errorf("%w: tasks but no clients", ErrInvalid)
	}
	defer func() {
		if r := recover(); r != nil {
			msg, ok := r.(assignError)
			if !ok {
				panic(r)
			}
			err = fmt.Errorf("%w: %s", ErrInvalid, string(msg))
		}
	}()

	s := newSticky(clients, all, racks)
	s.assignActive()
	s.optimizeActive(statefulTasks, cfg)
	s.assignStandby(statefulTasks, cfg.NumStandbyReplicas)
	if cfg.NumStandbyReplicas > 0 {
		s.optimizeStandby(cfg)
	}
	return nil
}

// sticky is one run of StickyTaskAssignor: its AssignmentState.
type sticky struct {
	// clients are in the iteration order of Kafka's HashMap of
	// KafkaStreamsState by process id.
	clients []*ClientState
	byID    map[assignment.ProcessID]*ClientState
	all     taskSet
	// allOrder is the iteration order of ApplicationState.allTasks.
	allOrder []assignment.TaskID
	racks    Racks
	rackInfo stickyRacks
	log      *slog.Logger

	prevActive      map[assignment.TaskID]assignment.ProcessID // the last client reporting a task as previously active
	prevActiveOrder []assignment.TaskID                        // previousActiveAssignment.keySet()
	prevStandby     map[assignment.TaskID]*hashOrder[assignment.ProcessID]
	locations       map[assignment.TaskID]map[assignment.ProcessID]bool // newTaskLocations
	pairs           map[taskPair]bool
	maxPairs        int32
}

// taskPair is an unordered pair of tasks placed on one client, the
// smaller first (TaskPairs: the assignor prefers clients where a task
// would form a pair not seen yet, spreading sub-topologies).
type taskPair struct{ a, b assignment.TaskID }

func pairOf(t1, t2 assignment.TaskID) taskPair {
	if t1.Compare(t2) < 0 {
		return taskPair{t1, t2}
	}
	return taskPair{t2, t1}
}

func newSticky(clients []*ClientState, all taskSet, racks *Racks) *sticky {
	s := &sticky{byID: map[assignment.ProcessID]*ClientState{}, all: all,
		prevActive: map[assignment.TaskID]assignment.ProcessID{}, prevStandby: map[assignment.TaskID]*hashOrder[assignment.ProcessID]{},
		locations: map[assignment.TaskID]map[assignment.ProcessID]bool{}, pairs: map[taskPair]bool{}}
	if racks != nil {
		s.racks = *racks
	}
	s.log = s.racks.Log
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	ids := make([]assignment.ProcessID, len(clients))
	for i, c := range clients {
		ids[i] = c.id
		s.byID[c.id] = c
		c.active, c.standby, c.warmup = taskSet{}, taskSet{}, taskSet{}
		c.kafkaTasks = newHashOrder(taskHash)
	}
	for _, id := range javaHashSetOrder(ids, processHash) {
		s.clients = append(s.clients, s.byID[id])
	}
	s.allOrder = applicationTaskOrder(all.s)
	n := int32(all.len())
	s.maxPairs = n * (n - 1) / 2

	prev := newHashOrder(taskHash)
	for _, c := range s.clients {
		for _, t := range c.prevActive.s {
			s.prevActive[t] = c.id
			prev.add(t)
		}
		for _, t := range c.prevStandby.s {
			set := s.prevStandby[t]
			if set == nil {
				set = newHashOrder(processHash)
				s.prevStandby[t] = set
			}
			set.add(c.id)
		}
	}
	s.prevActiveOrder = prev.order()
	for _, t := range s.prevActiveOrder {
		s.locations[t] = map[assignment.ProcessID]bool{}
	}
	return s
}

// applicationTaskOrder is the iteration order of the tasks Kafka Streams'
// leader hands a KIP-924 assignor: its partition grouper fills a HashMap
// sub-topology by sub-topology, in the hash order of a HashMap of
// sub-topologies, each one's partitions in ascending order, and the
// ApplicationState copies it into another HashMap of the same size.
func applicationTaskOrder(tasks []assignment.TaskID) []assignment.TaskID {
	bySub := map[int32][]assignment.TaskID{}
	var subs []int32
	for _, t := range tasks {
		if _, ok := bySub[t.Subtopology]; !ok {
			subs = append(subs, t.Subtopology)
		}
		bySub[t.Subtopology] = append(bySub[t.Subtopology], t)
	}
	slices.Sort(subs)
	var inserted []assignment.TaskID
	for _, sub := range javaHashSetOrder(subs, subtopologyHash) {
		ts := bySub[sub]
		slices.SortFunc(ts, assignment.TaskID.Compare)
		inserted = append(inserted, ts...)
	}
	return javaHashSetOrder(inserted, taskHash)
}

// assignActive keeps previous actives where their client has room, then
// gives the rest to clients that had them as standbys and have room, then
// to the best client for each, in task order.
func (s *sticky) assignActive() {
	var totalCapacity int32
	for _, c := range s.clients {
		totalCapacity += int32(c.capacity)
	}
	taskCount := int32(s.all.len())
	unassigned := newHashOrderFrom(s.allOrder, taskHash)

	for _, t := range s.prevActiveOrder {
		id := s.prevActive[t]
		if s.all.contains(t) && s.hasRoomForActive(s.byID[id], taskCount, totalCapacity) {
			s.finalize(t, id, false)
			unassigned.remove(t)
		}
	}
	for _, t := range unassigned.order() {
		standbys := s.prevStandby[t]
		if standbys == nil {
			continue
		}
		for _, id := range standbys.order() {
			if s.hasRoomForActive(s.byID[id], taskCount, totalCapacity) {
				s.finalize(t, id, false)
				unassigned.remove(t)
				break
			}
		}
	}
	rest := unassigned.order()
	slices.SortFunc(rest, assignment.TaskID.Compare)
	for _, t := range rest {
		ids := make([]assignment.ProcessID, len(s.clients))
		for i, c := range s.clients {
			ids[i] = c.id
		}
		best, ok := s.bestClient(t, newIDSet(javaHashSetOrder(ids, processHash)))
		if !ok {
			panic(assignError("no client for task " + t.String()))
		}
		s.finalize(t, best, false)
	}
}

// assignStandby gives each stateful task up to n standbys, each on the
// best client that does not have the task yet.
func (s *sticky) assignStandby(statefulTasks []assignment.TaskID, n int) {
	stateful := newTaskSet(statefulTasks...)
	for _, t := range stateful.s {
		if !s.all.contains(t) {
			continue
		}
		for i := 0; i < n; i++ {
			candidates := s.clientsWithout(t)
			if len(candidates.order) == 0 {
				s.log.Warn(fmt.Sprintf("Unable to assign %d of %d standby tasks for task [%s]. There is not enough available capacity. "+
					"You should increase the number of threads and/or application instances to maintain the requested number of standby replicas.",
					n-i, n, t))
				break
			}
			best, ok := s.bestClient(t, candidates)
			if !ok {
				panic(assignError("no client for standby task " + t.String()))
			}
			s.finalize(t, best, true)
		}
	}
}

// finalize places t on the client and notes the pairs it forms there.
func (s *sticky) finalize(t assignment.TaskID, id assignment.ProcessID, standby bool) {
	c := s.byID[id]
	for _, x := range c.kafkaTasks.order() {
		s.pairs[pairOf(x, t)] = true
	}
	if standby {
		c.assignStandby(t)
	} else {
		c.assignActive(t)
	}
	c.kafkaTasks.add(t)
	loc := s.locations[t]
	if loc == nil {
		loc = map[assignment.ProcessID]bool{}
		s.locations[t] = loc
	}
	loc[id] = true
}

// relocate rebuilds the tasks' locations from the clients after a
// rack-aware optimization moved tasks (processOptimizedAssignments).
func (s *sticky) relocate() {
	s.locations = map[assignment.TaskID]map[assignment.ProcessID]bool{}
	for _, c := range s.clients {
		for _, t := range c.kafkaTasks.order() {
			loc := s.locations[t]
			if loc == nil {
				loc = map[assignment.ProcessID]bool{}
				s.locations[t] = loc
			}
			loc[c.id] = true
		}
	}
}

// hasRoomForActive: the client's actives stay under its share of all
// tasks, rounded up, in Java's int arithmetic.
func (s *sticky) hasRoomForActive(c *ClientState, taskCount, totalCapacity int32) bool {
	most := (taskCount*int32(c.capacity) + totalCapacity - 1) / totalCapacity
	return int32(c.active.len()) < most
}

// load is the client's tasks, active and standby, per thread.
func (s *sticky) load(id assignment.ProcessID) float64 {
	c := s.byID[id]
	return float64(c.active.len()+c.standby.len()) / float64(c.capacity)
}

// idSet is a java.util.HashSet of process ids: its iteration order and
// membership.
type idSet struct {
	order []assignment.ProcessID
	has   map[assignment.ProcessID]bool
}

func newIDSet(order []assignment.ProcessID) idSet {
	s := idSet{order: order, has: make(map[assignment.ProcessID]bool, len(order))}
	for _, id := range order {
		s.has[id] = true
	}
	return s
}

// clientsWithout are the clients that do not have t yet, as the HashSet
// Kafka collects them in.
func (s *sticky) clientsWithout(t assignment.TaskID) idSet {
	var ids []assignment.ProcessID
	for _, c := range s.clients {
		if !s.locations[t][c.id] {
			ids = append(ids, c.id)
		}
	}
	return newIDSet(javaHashSetOrder(ids, processHash))
}

// bestClient is findBestClientForTask: the previous owner (active, else
// the least loaded previous standby) unless it is loaded above another
// client, then the least loaded previous standby unless that one is, else
// the least loaded client.
func (s *sticky) bestClient(t assignment.TaskID, within idSet) (assignment.ProcessID, bool) {
	if len(within.order) == 1 {
		return within.order[0], true
	}
	prev, ok := s.previousOwner(t, within)
	if !ok {
		return s.leastLoaded(t, within.order)
	}
	if s.shouldBalance(prev) {
		standby, ok := s.leastLoadedPreviousStandby(t, within)
		if !ok || s.shouldBalance(standby) {
			return s.leastLoaded(t, within.order)
		}
		return standby, true
	}
	return prev, true
}

// previousOwner is the client that ran t as active, if it is among
// within, else the least loaded of within that had it as standby.
func (s *sticky) previousOwner(t assignment.TaskID, within idSet) (assignment.ProcessID, bool) {
	if id, ok := s.prevActive[t]; ok && within.has[id] {
		return id, true
	}
	return s.leastLoadedPreviousStandby(t, within)
}

func (s *sticky) leastLoadedPreviousStandby(t assignment.TaskID, within idSet) (assignment.ProcessID, bool) {
	var ids []assignment.ProcessID
	if prev := s.prevStandby[t]; prev != nil {
		ids = prev.order()
	}
	constrained := newHashOrderFrom(ids, processHash)
	for _, id := range ids {
		if !within.has[id] {
			constrained.remove(id)
		}
	}
	return s.leastLoaded(t, constrained.order())
}

// leastLoaded is findLeastLoadedClient: a client without tasks at once;
// else the least loaded one (the first of equals) among those where t
// would form a new pair; else the least loaded one.
func (s *sticky) leastLoaded(t assignment.TaskID, ids []assignment.ProcessID) (assignment.ProcessID, bool) {
	var least assignment.ProcessID
	found := false
	for _, id := range ids {
		load := s.load(id)
		if load == 0 {
			return id, true
		}
		if !found || load < s.load(least) {
			if s.hasNewPair(t, s.byID[id]) {
				least, found = id, true
			}
		}
	}
	if found {
		return least, true
	}
	for _, id := range ids {
		if !found || s.load(id) < s.load(least) {
			least, found = id, true
		}
	}
	return least, found
}

// hasNewPair: t would form a pair with one of the client's tasks that no
// client has formed yet.
func (s *sticky) hasNewPair(t assignment.TaskID, c *ClientState) bool {
	if int64(len(s.pairs)) == int64(s.maxPairs) {
		return false
	}
	for _, x := range c.kafkaTasks.order() {
		if !s.pairs[pairOf(t, x)] {
			return true
		}
	}
	return false
}

// shouldBalance: the client has a task per thread or more, and another
// client is less loaded.
func (s *sticky) shouldBalance(id assignment.ProcessID) bool {
	load := s.load(id)
	if load < 1 {
		return false
	}
	for _, c := range s.clients {
		if s.load(c.id) < load {
			return true
		}
	}
	return false
}

// SubscriptionOrder returns member ids in the order Kafka's consumer
// leader hands the subscriptions to Kafka Streams' assignor: a HashMap by
// member id, filled in the order of memberIDs (the JoinGroup response's).
// A Kafka Streams leader meets its clients in this order, which
// AssignSticky's clients must follow.
func SubscriptionOrder(memberIDs []string) []string {
	return javaHashSetOrder(memberIDs, javaStringHash)
}
