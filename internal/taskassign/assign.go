// Package taskassign computes the task placement of a Kafka Streams 4.4
// group leader on the classic consumer-group protocol, so that a
// StoatFlow instance that leads a group shared with Kafka Streams JVM
// instances hands out exactly what a JVM leader would.
//
// Assign is the client-level placement of Kafka Streams' default
// HighAvailabilityTaskAssignor: stateful actives spread over clients by
// capacity, standbys (least loaded, or spread over client tags), actives
// kept on caught-up clients while warm-up replicas restore on the clients
// they should move to, stateless tasks last. AssignThreads then spreads
// each client's tasks over its consumers and holds back tasks whose
// partitions another consumer still owns (cooperative rebalancing).
//
// Identical placement needs identical tie-breaking: the clients are
// ordered as Java orders UUIDs (signed halves), tasks as TaskId.compareTo,
// and the priority queues and hash sets Kafka iterates are reproduced
// step by step (javacoll.go). The differential test
// integration.TestAssignmentMatchesKafkaStreams checks the result against
// the 4.4 jar on random groups.
//
// With rack.aware.assignment.strategy min_traffic or balance_subtopology
// and the racks of every consumer and partition known (Racks), the
// actives, the standbys and the stateless tasks are each moved, after
// their balanced placement, to the placement with the least cross-rack
// traffic that keeps every client's number of tasks: Kafka Streams'
// RackAwareTaskAssignor, a min-cost flow solved as Graph.java solves it
// (graph.go, rackgraph.go, rack.go).
//
// AssignSticky is the placement under task.assignor.class =
// Kafka Streams' KIP-924 StickyTaskAssignor, as a Kafka Streams leader
// runs it through its custom-assignor path: tasks stay with their
// previous owners within each client's share and the fewest move, with
// the KIP-924 utilities' rack-aware optimizations (stickyrack.go). Its
// ties follow the hash orders of Kafka's HashMaps and HashSets, so its
// clients come in the order the leader met them (SubscriptionOrder), and
// AssignThreads reads its placement in the order of the hash sets Kafka
// Streams builds from it. The same differential test checks it.
//
// Tasks, process ids and partitions are package assignment's types, as the
// members' subscriptions carry them. Tasks of named topologies are
// refused (ErrUnsupported).
package taskassign

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/stoatflow/stoatflow/internal/assignment"
)

// group is the clients of one assignment in process-id order (Kafka's
// TreeMap<ProcessId, ClientState>).
type group struct {
	clients []*ClientState
	byID    map[assignment.ProcessID]*ClientState
	ids     []assignment.ProcessID
}

func newGroup(clients []*ClientState) (*group, error) {
	g := &group{clients: slices.Clone(clients), byID: map[assignment.ProcessID]*ClientState{}}
	slices.SortFunc(g.clients, func(a, b *ClientState) int { return a.id.Compare(b.id) })
	for _, c := range g.clients {
		if _, dup := g.byID[c.id]; dup {
			return nil, fmt.Errorf("%w: process id %s twice", ErrInvalid, c.id)
		}
		if c.capacity <= 0 {
			return nil, fmt.Errorf("%w: client %s has no consumers", ErrInvalid, c.id)
		}
		g.byID[c.id] = c
		g.ids = append(g.ids, c.id)
	}
	return g, nil
}

// Assign places allTasks on the clients as Kafka Streams 4.4's
// HighAvailabilityTaskAssignor does, and reports whether a probing
// rebalance is needed: some task stays on a caught-up client, or a
// standby waits, until a warm-up catches up. statefulTasks are the tasks
// with changelogs; every client must have a lag for each (Init or
// NewClientStateFromLags). racks are the tasks' partitions and their
// replicas' racks, which a rack-aware strategy needs; nil (or missing
// racks) leaves the placement that of strategy none, as Kafka Streams
// falls back. The placement is left in the clients (ActiveTasks,
// StandbyTasks, WarmupTasks); earlier placements on them are cleared
// first. A task of a named topology, in the arguments or in a client, is
// refused with ErrUnsupported.
func Assign(clients []*ClientState, allTasks, statefulTasks []assignment.TaskID, racks *Racks, cfg Config) (probingRebalanceNeeded bool, err error) {
	if err := cfg.Validate(); err != nil {
		return false, err
	}
	if err := checkUnnamedAll(allTasks); err != nil {
		return false, err
	}
	if err := checkUnnamedAll(statefulTasks); err != nil {
		return false, err
	}
	if racks != nil {
		if err := checkUnnamedKeys(racks.SourcePartitions); err != nil {
			return false, err
		}
		if err := checkUnnamedKeys(racks.ChangelogPartitions); err != nil {
			return false, err
		}
	}
	g, err := newGroup(clients)
	if err != nil {
		return false, err
	}
	if len(g.clients) == 0 && (len(allTasks) > 0 || len(statefulTasks) > 0) {
		return false, fmt.Errorf("%w: tasks but no clients", ErrInvalid)
	}
	stateful := newTaskSet(statefulTasks...)
	for _, c := range g.clients {
		if err := c.checkUnnamed(); err != nil {
			return false, err
		}
		c.active, c.standby, c.warmup = taskSet{}, taskSet{}, taskSet{}
		c.kafkaTasks = nil
		for _, t := range stateful.s {
			if _, ok := c.lags[t]; !ok {
				return false, fmt.Errorf("%w: client %s has no lag for stateful task %s", ErrInvalid, c.id, t)
			}
		}
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

	ra := newRackAware(g, racks, cfg)
	trafficCost, nonOverlapCost := DefaultRackAwareTrafficCost, DefaultRackAwareNonOverlapCost
	if cfg.RackAwareTrafficCost != nil {
		trafficCost = *cfg.RackAwareTrafficCost
	}
	if cfg.RackAwareNonOverlapCost != nil {
		nonOverlapCost = *cfg.RackAwareNonOverlapCost
	}

	g.assignActiveStateful(stateful.s)
	if ra.canEnable() {
		ra.optimizeActive(stateful.s, trafficCost, nonOverlapCost)
	}
	if cfg.NumStandbyReplicas > 0 {
		g.assignStandbys(stateful.s, cfg)
		if ra.canEnable() {
			canMove := standbyMove(func(_, _ *ClientState, _ assignment.TaskID) bool { return true })
			if len(cfg.RackAwareAssignmentTags) > 0 {
				canMove = tagsAllowStandbyMove(g.clients)
			}
			ra.optimizeStandby(trafficCost, nonOverlapCost, canMove)
		}
	}

	caughtUp := g.caughtUpClients(stateful.s, cfg.AcceptableRecoveryLag)
	byLag := g.clientsByLag(stateful.s)
	m := &movements{g: g, caughtUp: caughtUp, byLag: byLag,
		warmups: map[assignment.ProcessID]*taskSet{}, remainingWarmups: cfg.MaxWarmupReplicas}
	activeMoves := m.assignActiveMovements()
	standbyMoves := m.assignStandbyMovements()

	all := newTaskSet(allTasks...)
	var stateless []assignment.TaskID
	for _, t := range all.s {
		if !stateful.contains(t) {
			stateless = append(stateless, t)
		}
	}
	g.assignStateless(stateless)
	if ra.canEnable() {
		ra.optimizeActive(stateless, statelessTrafficCost, statelessNonOverlapCost)
	}
	return activeMoves+standbyMoves > 0, nil
}

// assignActiveStateful deals the stateful tasks round robin over the
// clients, then balances them by load. Stickiness comes later, from the
// movements back to caught-up clients.
func (g *group) assignActiveStateful(stateful []assignment.TaskID) {
	for i, t := range stateful {
		g.clients[i%len(g.clients)].assignActive(t)
	}
	g.balance(
		func(c *ClientState) *taskSet { return &c.active },
		(*ClientState).unassignActive,
		(*ClientState).assignActive,
		func(_, _ *ClientState) bool { return true },
	)
}

// balance moves tasks from each client to each other while that lowers
// the skew of their loads, until nothing moves.
func (g *group) balance(tasks func(*ClientState) *taskSet, unassign, assign func(*ClientState, assignment.TaskID),
	allowed func(src, dst *ClientState) bool) {
	for again := true; again; {
		again = false
		for _, src := range g.clients {
			for _, dst := range g.clients {
				if src.id == dst.id {
					continue
				}
				candidates := tasks(src).items()
				for i := 0; i < len(candidates) && shouldMove(src, dst); i++ {
					t := candidates[i]
					if !dst.hasAssigned(t) && allowed(src, dst) {
						unassign(src, t)
						assign(dst, t)
						again = true
					}
				}
			}
		}
	}
}

func shouldMove(src, dst *ClientState) bool {
	skew := src.assignedLoad() - dst.assignedLoad()
	if skew <= 0 {
		return false
	}
	atDst := (float64(dst.assignedCount()) + 1.0) / float64(dst.capacity)
	atSrc := (float64(src.assignedCount()) - 1.0) / float64(src.capacity)
	proposed := atSrc - atDst
	if proposed < 0 {
		return false
	}
	return proposed < skew
}

func (g *group) assignStandbys(stateful []assignment.TaskID, cfg Config) {
	allowed := func(_, _ *ClientState) bool { return true }
	if len(cfg.RackAwareAssignmentTags) > 0 {
		g.assignStandbysByTags(stateful, cfg)
		allowed = sameTags
	} else {
		g.assignStandbysLeastLoaded(stateful, cfg.NumStandbyReplicas)
	}
	g.balance(
		func(c *ClientState) *taskSet { return &c.standby },
		(*ClientState).unassignStandby,
		(*ClientState).assignStandby,
		allowed,
	)
}

// sameTags is the tag-aware standby balance's rule: a standby moves only
// to a client that has every client tag of the source, with its value.
func sameTags(src, dst *ClientState) bool {
	for k, v := range src.tags {
		if w, ok := dst.tags[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// caughtUpClients gives, per stateful task, the clients that may take it
// as active without restoring much: those that ran it, those within
// acceptable.recovery.lag, every client when that is unbounded.
func (g *group) caughtUpClients(stateful []assignment.TaskID, acceptable int64) map[assignment.TaskID][]assignment.ProcessID {
	out := make(map[assignment.TaskID][]assignment.ProcessID, len(stateful))
	for _, t := range stateful {
		var ids []assignment.ProcessID
		for _, c := range g.clients {
			lag := c.lagFor(t)
			if lag == assignment.LatestOffset || acceptable == math.MaxInt64 || (lag >= 0 && lag <= acceptable) {
				ids = append(ids, c.id)
			}
		}
		out[t] = ids
	}
	return out
}

// clientsByLag orders, per stateful task, the clients by lag, then id.
func (g *group) clientsByLag(stateful []assignment.TaskID) map[assignment.TaskID][]assignment.ProcessID {
	out := make(map[assignment.TaskID][]assignment.ProcessID, len(stateful))
	for _, t := range stateful {
		ids := slices.Clone(g.ids)
		slices.SortFunc(ids, func(a, b assignment.ProcessID) int {
			if c := cmp.Compare(g.byID[a].lagFor(t), g.byID[b].lagFor(t)); c != 0 {
				return c
			}
			return a.Compare(b)
		})
		out[t] = ids
	}
	return out
}

// assignStateless gives each stateless task, in order, to the client with
// the least active load.
func (g *group) assignStateless(stateless []assignment.TaskID) {
	set := newConstrainedPrioritySet(
		func(assignment.ProcessID, assignment.TaskID) bool { return true },
		func(id assignment.ProcessID) float64 { return g.byID[id].activeLoad() },
	)
	set.offerAll(g.ids)
	for _, t := range stateless {
		id, _ := set.poll(t, nil)
		g.byID[id].assignActive(t)
		set.offer(id)
	}
}

// constrainedPrioritySet hands out the least loaded client (then the
// smallest id) that meets a constraint, as Kafka's ConstrainedPrioritySet:
// a Java priority queue whose weights are read at each comparison.
type constrainedPrioritySet struct {
	q          *javaPQ[assignment.ProcessID]
	constraint func(assignment.ProcessID, assignment.TaskID) bool
	queued     map[assignment.ProcessID]bool
}

func newConstrainedPrioritySet(constraint func(assignment.ProcessID, assignment.TaskID) bool, weight func(assignment.ProcessID) float64) *constrainedPrioritySet {
	return &constrainedPrioritySet{
		q: newJavaPQ(func(a, b assignment.ProcessID) int {
			if c := cmp.Compare(weight(a), weight(b)); c != 0 {
				return c
			}
			return a.Compare(b)
		}),
		constraint: constraint,
		queued:     map[assignment.ProcessID]bool{},
	}
}

// poll removes and returns the first client that meets the constraint and
// extra (nil: no extra constraint); the clients passed over go back, in
// the order of the hash set Kafka collects them in.
func (s *constrainedPrioritySet) poll(t assignment.TaskID, extra func(assignment.ProcessID) bool) (assignment.ProcessID, bool) {
	skipped := newHashOrder(processHash)
	for s.q.size() > 0 {
		id, _ := s.q.poll()
		delete(s.queued, id)
		if s.constraint(id, t) && (extra == nil || extra(id)) {
			s.offerAll(skipped.order())
			return id, true
		}
		skipped.add(id)
	}
	s.offerAll(skipped.order())
	return assignment.ProcessID{}, false
}

func (s *constrainedPrioritySet) offerAll(ids []assignment.ProcessID) {
	for _, id := range ids {
		s.offer(id)
	}
}

// offer queues a client, re-queuing it when it is queued already so its
// new weight counts.
func (s *constrainedPrioritySet) offer(id assignment.ProcessID) {
	if s.queued[id] {
		s.q.remove(id)
	} else {
		s.queued[id] = true
	}
	s.q.offer(id)
}
