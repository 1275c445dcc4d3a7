package taskassign

import (
	"cmp"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"strings"

	"github.com/stoatflow/stoatflow/internal/assignment"
)

// Costs of the rack-aware optimization (HighAvailabilityTaskAssignor's
// and RackAwareTaskAssignor's constants): a stateful task's defaults, and
// the fixed costs of stateless tasks, which may move freely.
const (
	// DefaultRackAwareTrafficCost is a stateful task's cost per partition
	// read across racks when rack.aware.assignment.traffic_cost is unset.
	DefaultRackAwareTrafficCost = 10
	// DefaultRackAwareNonOverlapCost is a stateful task's cost of moving
	// when rack.aware.assignment.non_overlap_cost is unset.
	DefaultRackAwareNonOverlapCost = 1
	statelessTrafficCost           = 1
	statelessNonOverlapCost        = 0
	// standbyOptimizerMaxRounds bounds the passes over client pairs that
	// swap standbys (STANDBY_OPTIMIZER_MAX_ITERATION).
	standbyOptimizerMaxRounds = 4
)

// Racks is what rack-aware assignment (rack.aware.assignment.strategy
// min_traffic or balance_subtopology) weighs besides the racks of the
// clients' consumers (AddConsumer): where the data each task reads lives.
// A task costs rack.aware.assignment.traffic_cost for each of its
// partitions with no replica in its client's rack, and
// rack.aware.assignment.non_overlap_cost when it moves away from the
// client the balanced placement gave it; Assign then looks for the
// cheapest placement that keeps each client's number of tasks.
type Racks struct {
	// SourcePartitions are each task's source partitions, repartition
	// topics included (Kafka Streams' partitionsForTask); active tasks
	// are weighed by these. Their tasks grouped by sub-topology are what
	// balance_subtopology spreads evenly.
	SourcePartitions map[assignment.TaskID][]assignment.TopicPartition
	// ChangelogPartitions are each stateful task's changelog partitions,
	// source topics read as changelogs included; standbys are weighed by
	// these.
	ChangelogPartitions map[assignment.TaskID][]assignment.TopicPartition
	// Replicas gives, for each topic partition the leader's metadata
	// shows, the rack of the broker holding each of its replicas, "" for
	// a broker without one. A source partition missing from the map, a
	// partition without replicas or a replica without a rack turns
	// rack-aware assignment off, as in Kafka Streams; so does a changelog
	// topic none of whose partitions is in the map, but only when there
	// are standbys to place.
	Replicas map[assignment.TopicPartition][]string
	// Log gets Kafka Streams' messages on why the assignment is not
	// rack-aware and what the optimization cost; nil discards them.
	Log *slog.Logger
}

// rackAware is Kafka Streams' RackAwareTaskAssignor for one assignment:
// whether rack awareness can be on (every consumer has a rack, a
// client's consumers agree on it, every partition's replicas have
// racks), and the optimizations of actives and standbys.
type rackAware struct {
	g      *group
	cfg    Config
	racks  Racks
	log    *slog.Logger
	groups [][]assignment.TaskID // tasksForTopicGroup: tasks by sub-topology, each sorted

	rackOf          map[assignment.ProcessID]string // racksForProcess
	validClientRack bool
	// partitionRacks are the racks of the partitions canEnable checked
	// (racksForPartition); the costs read only these.
	partitionRacks map[assignment.TopicPartition]map[string]bool
	decided        bool // canEnable ran; enabled is its answer
	enabled        bool
}

func newRackAware(g *group, racks *Racks, cfg Config) *rackAware {
	ra := &rackAware{g: g, cfg: cfg, rackOf: map[assignment.ProcessID]string{},
		partitionRacks: map[assignment.TopicPartition]map[string]bool{}}
	if racks != nil {
		ra.racks = *racks
	}
	ra.log = ra.racks.Log
	if ra.log == nil {
		ra.log = slog.New(slog.DiscardHandler)
	}
	bySub := map[int32][]assignment.TaskID{}
	for t := range ra.racks.SourcePartitions {
		bySub[t.Subtopology] = append(bySub[t.Subtopology], t)
	}
	for _, sub := range slices.Sorted(maps.Keys(bySub)) {
		ts := bySub[sub]
		slices.SortFunc(ts, assignment.TaskID.Compare)
		ra.groups = append(ra.groups, ts)
	}
	ra.validClientRack = ra.validateClientRack()
	return ra
}

func (ra *rackAware) strategyNone() bool {
	return ra.cfg.RackAwareAssignmentStrategy == "" || ra.cfg.RackAwareAssignmentStrategy == RackAwareStrategyNone
}

// validateClientRack finds each client's rack: every consumer must have
// one, and all of a client's consumers the same.
func (ra *rackAware) validateClientRack() bool {
	for _, c := range ra.g.clients {
		first, rack := "", ""
		for _, member := range c.consumers {
			r := c.racks[member]
			if r == "" {
				if !ra.strategyNone() {
					ra.log.Error(fmt.Sprintf("RackId doesn't exist for process %s and consumer %s", c.id, member))
				}
				return false
			}
			if first == "" {
				first, rack = member, r
			} else if r != rack {
				ra.log.Error(fmt.Sprintf("Consumers %s and %s for same process %s has different rackId %s and %s. File a ticket for this bug",
					first, member, c.id, rack, r))
				return false
			}
		}
		if first == "" {
			if !ra.strategyNone() {
				ra.log.Error(fmt.Sprintf("RackId doesn't exist for process %s", c.id))
			}
			return false
		}
		ra.rackOf[c.id] = rack
	}
	return true
}

// canEnable is canEnableRackAwareAssignor: the strategy is not none,
// every client has a rack and every partition the costs read has racks
// (the changelogs only when there are standbys). The answer is kept.
func (ra *rackAware) canEnable() bool {
	if ra.strategyNone() {
		return false
	}
	if ra.decided {
		return ra.enabled
	}
	ra.decided = true
	ra.enabled = ra.validClientRack && ra.validatePartitionRacks(false)
	if ra.cfg.NumStandbyReplicas == 0 || !ra.enabled {
		return ra.enabled
	}
	ra.enabled = ra.validatePartitionRacks(true)
	return ra.enabled
}

// validatePartitionRacks records the racks of the source partitions (or
// of every partition of the changelog topics) and reports whether all
// are known. A source partition whose replicas are not known is looked
// up with its whole topic, as Kafka Streams describes such a topic; the
// changelog topics are always looked up whole.
func (ra *rackAware) validatePartitionRacks(changelogs bool) bool {
	describe := map[string]bool{}
	if changelogs {
		for _, tps := range ra.racks.ChangelogPartitions {
			for _, tp := range tps {
				describe[tp.Topic] = true
			}
		}
	} else {
		for _, t := range slices.SortedFunc(maps.Keys(ra.racks.SourcePartitions), assignment.TaskID.Compare) {
			for _, tp := range ra.racks.SourcePartitions[t] {
				replicas, ok := ra.racks.Replicas[tp]
				if !ok {
					ra.log.Error(fmt.Sprintf("TopicPartition %s doesn't exist in cluster", tp))
					return false
				}
				if len(replicas) == 0 {
					describe[tp.Topic] = true
					continue
				}
				for _, rack := range replicas {
					if rack == "" {
						ra.log.Warn(fmt.Sprintf("A broker holding a replica of topic partition %s doesn't have rack", tp))
						return false
					}
					ra.addPartitionRack(tp, rack)
				}
			}
		}
	}
	if len(describe) == 0 {
		return true
	}
	topics := slices.Sorted(maps.Keys(describe))
	ra.log.Debug("looking up the partitions of topics for rack-aware assignment", "topics", topics)
	byTopic := map[string][]assignment.TopicPartition{}
	for tp := range ra.racks.Replicas {
		if describe[tp.Topic] {
			byTopic[tp.Topic] = append(byTopic[tp.Topic], tp)
		}
	}
	var missing []string
	for _, topic := range topics {
		if len(byTopic[topic]) == 0 {
			missing = append(missing, topic)
		}
	}
	if len(missing) > 0 {
		ra.log.Error(fmt.Sprintf("Failed to describe topic for [%s]", strings.Join(missing, ", ")))
		return false
	}
	for _, topic := range topics {
		tps := byTopic[topic]
		slices.SortFunc(tps, func(a, b assignment.TopicPartition) int { return cmp.Compare(a.Partition, b.Partition) })
		for _, tp := range tps {
			replicas := ra.racks.Replicas[tp]
			if len(replicas) == 0 {
				ra.log.Error(fmt.Sprintf("No replicas found for topic partition %s: %d", tp.Topic, tp.Partition))
				return false
			}
			for _, rack := range replicas {
				if rack == "" {
					return false
				}
				ra.addPartitionRack(tp, rack)
			}
		}
	}
	return true
}

func (ra *rackAware) addPartitionRack(tp assignment.TopicPartition, rack string) {
	s := ra.partitionRacks[tp]
	if s == nil {
		s = map[string]bool{}
		ra.partitionRacks[tp] = s
	}
	s[rack] = true
}

// costFn binds getCost's traffic and non-overlap costs: a task costs
// trafficCost for each of its partitions (changelogs for a standby)
// without a replica in the client's rack, and nonOverlapCost when it is
// not on the client now.
func (ra *rackAware) costFn(trafficCost, nonOverlapCost int, standby bool) taskCost {
	return func(t assignment.TaskID, c *ClientState, inCurrent bool) int {
		rack, ok := ra.rackOf[c.id]
		if !ok {
			panic(assignError(fmt.Sprintf("Client %s doesn't have rack configured. Maybe forgot to call canEnableRackAwareAssignor first", c.id)))
		}
		tps := ra.racks.SourcePartitions[t]
		if standby {
			tps = ra.racks.ChangelogPartitions[t]
		}
		if len(tps) == 0 {
			panic(assignError(fmt.Sprintf("Task %s has no TopicPartitions", t)))
		}
		var cost int32 // a Java int, wrapping as it does
		for _, tp := range tps {
			racks := ra.partitionRacks[tp]
			if len(racks) == 0 {
				panic(assignError(fmt.Sprintf("TopicPartition %s has no rack information. Maybe forgot to call canEnableRackAwareAssignor first", tp)))
			}
			if !racks[rack] {
				cost += int32(trafficCost)
			}
		}
		if !inCurrent {
			cost += int32(nonOverlapCost)
		}
		return int(cost)
	}
}

// constructor is the graph of the configured strategy
// (RackAwareGraphConstructorFactory).
func (ra *rackAware) constructor() graphConstructor {
	switch ra.cfg.RackAwareAssignmentStrategy {
	case RackAwareStrategyMinTraffic:
		return minTrafficGraph{}
	case RackAwareStrategyBalanceSubtopology:
		return balanceSubtopologyGraph{groups: ra.groups}
	}
	panic(assignError("Rack aware assignment is disabled"))
}

func hasActive(c *ClientState, t assignment.TaskID) bool  { return c.active.contains(t) }
func hasStandby(c *ClientState, t assignment.TaskID) bool { return c.standby.contains(t) }

// tasksCost is the cost of the current placement of tasks.
func (ra *rackAware) tasksCost(tasks []assignment.TaskID, trafficCost, nonOverlapCost int, standby bool) int64 {
	if len(tasks) == 0 {
		return 0
	}
	has := hasActive
	if standby {
		has = hasStandby
	}
	tg := newTaskGraph(ra.g.clients, tasks, ra.g.clients)
	minTrafficGraph{}.build(tg, has, ra.costFn(trafficCost, nonOverlapCost, standby), standby)
	return tg.g.totalCost()
}

// optimizeActive moves the given active tasks (sorted, each on one
// client) to the cheapest placement that keeps every client's count, and
// returns its cost (optimizeActiveTasks). canEnable must have said yes.
func (ra *rackAware) optimizeActive(tasks []assignment.TaskID, trafficCost, nonOverlapCost int) int64 {
	if len(tasks) == 0 {
		return 0
	}
	// Kafka Streams logs the cost before, and computes it whatever the
	// log level: a broken input fails there first, with its message.
	ra.log.Debug("placement before the rack-aware optimization of active tasks",
		"tasks", len(tasks), "cost", ra.tasksCost(tasks, trafficCost, nonOverlapCost, false))
	gc := ra.constructor()
	tg := newTaskGraph(ra.g.clients, tasks, ra.g.clients)
	gc.build(tg, hasActive, ra.costFn(trafficCost, nonOverlapCost, false), false)
	tg.g.solveMinCostFlow()
	cost := tg.g.totalCost()
	gc.assign(tg, hasActive, (*ClientState).assignActive, (*ClientState).unassignActive)
	ra.log.Debug("placement after the rack-aware optimization of active tasks", "tasks", len(tasks), "cost", cost)
	return cost
}

// standbyMove says whether a standby of t may move from src to dst
// (StandbyTaskAssignor.isAllowedTaskMovement with the task).
type standbyMove func(src, dst *ClientState, t assignment.TaskID) bool

// optimizeStandby swaps standbys between pairs of clients in different
// racks, for at most four passes over the pairs, where that lowers the
// cost and canMove allows it; it returns the cost of the standbys'
// placement (optimizeStandbyTasks). canEnable must have said yes.
func (ra *rackAware) optimizeStandby(trafficCost, nonOverlapCost int, canMove standbyMove) int64 {
	movable := func(src, dst *ClientState) []assignment.TaskID {
		var out []assignment.TaskID
		for _, t := range src.standby.s {
			if !dst.hasAssigned(t) && canMove(src, dst, t) {
				out = append(out, t)
			}
		}
		return out
	}
	var standbys taskSet
	for _, c := range ra.g.clients {
		for _, t := range c.standby.s {
			standbys.add(t)
		}
	}
	ra.log.Debug("placement before the rack-aware optimization of standby tasks",
		"standbys", standbys.len(), "cost", ra.tasksCost(standbys.s, trafficCost, nonOverlapCost, true))
	cost := ra.costFn(trafficCost, nonOverlapCost, true)
	clients := ra.g.clients
	moved, round := true, 0
	for moved && round < standbyOptimizerMaxRounds {
		moved = false
		round++
		for i, c1 := range clients {
			for _, c2 := range clients[i+1:] {
				// Cross-rack traffic cannot be lowered within a rack.
				if ra.rackOf[c1.id] == ra.rackOf[c2.id] {
					continue
				}
				m1, m2 := movable(c1, c2), movable(c2, c1)
				// Tasks only swap, to keep both clients' loads: that
				// needs a movable task on each side.
				if len(m1) == 0 || len(m2) == 0 {
					continue
				}
				tasks := newTaskSet(append(m1, m2...)...).s
				gc := minTrafficGraph{}
				tg := newTaskGraph([]*ClientState{c1, c2}, tasks, clients)
				gc.build(tg, hasStandby, cost, true)
				tg.g.solveMinCostFlow()
				if gc.assign(tg, hasStandby, (*ClientState).assignStandby, (*ClientState).unassignStandby) {
					moved = true
				}
			}
		}
	}
	total := ra.tasksCost(standbys.s, trafficCost, nonOverlapCost, true)
	ra.log.Debug("placement after the rack-aware optimization of standby tasks", "rounds", round, "cost", total)
	return total
}

// tagsAllowStandbyMove is ClientTagAwareStandbyTaskAssignor's rule for
// a single standby: it may move when the clients holding the task would
// show at least as many distinct client tags (key and value) afterwards.
func tagsAllowStandbyMove(all []*ClientState) standbyMove {
	return func(src, dst *ClientState, t assignment.TaskID) bool {
		withSrc, withDst := map[tagEntry]bool{}, map[tagEntry]bool{}
		add := func(c *ClientState, set map[tagEntry]bool) {
			for k, v := range c.tags {
				set[tagEntry{k, v}] = true
			}
		}
		for _, c := range all {
			if c.hasAssigned(t) && c.id != src.id && c.id != dst.id {
				add(c, withSrc)
				add(c, withDst)
			}
		}
		add(src, withSrc)
		add(dst, withDst)
		return len(withDst) >= len(withSrc)
	}
}
