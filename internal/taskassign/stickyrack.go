package taskassign

import (
	"fmt"
	"maps"
	"slices"

	"github.com/stoatflow/stoatflow/internal/assignment"
)

// The rack-aware optimizations Kafka Streams' KIP-924 utilities
// (TaskAssignmentUtils) offer a custom assignor, as StickyTaskAssignor
// calls them. They differ from the HighAvailabilityTaskAssignor's
// RackAwareTaskAssignor (rack.go): both costs must be configured; an
// active task is weighed by its source and changelog partitions; a
// partition's racks are those of its replicas' brokers that have one,
// looked up as Kafka's RackUtils does; the clients enter the flow network
// in hash order; and standbys are swapped with the configured strategy's
// network.

// taskPartition is one of a task's partitions as a TaskTopicPartition:
// a source partition, a changelog one, or a source topic read as a
// changelog (both).
type taskPartition struct {
	tp                assignment.TopicPartition
	source, changelog bool
}

// stickyRacks is what the rack-aware optimizations read, fetched once.
type stickyRacks struct {
	fetched bool
	// partitions are each task's partitions.
	partitions map[assignment.TaskID][]taskPartition
	// racks are the racks of each partition Kafka Streams could annotate;
	// a partition it could not is missing.
	racks map[assignment.TopicPartition]map[string]bool
}

// taskPartitions builds every task's TaskTopicPartitions from its source
// and changelog partitions.
func (s *sticky) taskPartitions() map[assignment.TaskID][]taskPartition {
	out := map[assignment.TaskID][]taskPartition{}
	for _, t := range s.all.s {
		changelogs := map[assignment.TopicPartition]bool{}
		for _, tp := range s.racks.ChangelogPartitions[t] {
			changelogs[tp] = true
		}
		sources := map[assignment.TopicPartition]bool{}
		var ps []taskPartition
		for _, tp := range s.racks.SourcePartitions[t] {
			if !sources[tp] {
				sources[tp] = true
				ps = append(ps, taskPartition{tp: tp, source: true, changelog: changelogs[tp]})
			}
		}
		for _, tp := range s.racks.ChangelogPartitions[t] {
			if !sources[tp] {
				sources[tp] = true // once only
				ps = append(ps, taskPartition{tp: tp, changelog: true})
			}
		}
		out[t] = ps
	}
	return out
}

// partitionRacks annotates the tasks' partitions with racks as
// RackUtils.annotateTopicPartitionsWithRackInfo does: changelog topics,
// and source topics whose metadata lacks replicas, are described whole;
// the other partitions take the racks the metadata shows. Brokers without
// a rack are left out; a partition without replicas gets no racks.
func (s *sticky) partitionRacks() *stickyRacks {
	r := &s.rackInfo
	if r.fetched {
		return r
	}
	r.fetched = true
	r.partitions = s.taskPartitions()
	r.racks = map[assignment.TopicPartition]map[string]bool{}
	var all []taskPartition
	for _, t := range s.all.s {
		all = append(all, r.partitions[t]...)
	}

	describe := map[string]bool{}
	for _, p := range all {
		if !p.source {
			describe[p.tp.Topic] = true
		}
	}
	for _, p := range all {
		if p.changelog {
			continue
		}
		replicas, ok := s.racks.Replicas[p.tp]
		if !ok {
			s.log.Error(fmt.Sprintf("TopicPartition %s doesn't exist in cluster", p.tp))
			continue
		}
		if len(replicas) == 0 {
			describe[p.tp.Topic] = true
		}
	}

	// Describing the topics: a topic is found when the metadata has a
	// partition of it. Kafka then keeps only the topics not found as the
	// ones described, so that a found topic's partitions also take the
	// racks of the metadata.
	described := map[string][]assignment.TopicPartition{}
	for tp := range s.racks.Replicas {
		if describe[tp.Topic] {
			described[tp.Topic] = append(described[tp.Topic], tp)
		}
	}
	if len(describe) > len(described) {
		var missing []string
		for topic := range describe {
			if _, found := described[topic]; found {
				delete(describe, topic)
			} else {
				missing = append(missing, topic)
			}
		}
		slices.Sort(missing)
		s.log.Error(fmt.Sprintf("Failed to describe topic for %v", missing))
	}

	add := func(tp assignment.TopicPartition, replicas []string) {
		set := r.racks[tp]
		if set == nil {
			set = map[string]bool{}
			r.racks[tp] = set
		}
		for _, rack := range replicas {
			if rack != "" {
				set[rack] = true
			}
		}
	}
	for _, p := range all {
		if describe[p.tp.Topic] {
			continue
		}
		replicas, ok := s.racks.Replicas[p.tp]
		if !ok || len(replicas) == 0 {
			continue
		}
		add(p.tp, replicas)
	}
	for _, topic := range slices.Sorted(maps.Keys(described)) {
		for _, tp := range described[topic] {
			replicas := s.racks.Replicas[tp]
			if len(replicas) == 0 {
				s.log.Error(fmt.Sprintf("No replicas found for topic partition %s: %d", tp.Topic, tp.Partition))
				continue
			}
			add(tp, replicas)
		}
	}
	return r
}

// canOptimize is canPerformRackAwareOptimization: a strategy other than
// none, both costs configured, a rack on every client, and racks on
// every partition the costs read (every task's, or their changelogs'
// for standbys).
func (s *sticky) canOptimize(cfg Config, standby bool) bool {
	if cfg.RackAwareAssignmentStrategy == "" || cfg.RackAwareAssignmentStrategy == RackAwareStrategyNone {
		s.log.Warn("Rack aware task assignment optimization disabled: rack aware strategy was set to none")
		return false
	}
	if cfg.RackAwareTrafficCost == nil {
		s.log.Warn("Rack aware task assignment optimization unavailable: must configure rack.aware.assignment.traffic_cost")
		return false
	}
	if cfg.RackAwareNonOverlapCost == nil {
		s.log.Warn("Rack aware task assignment optimization unavailable: must configure rack.aware.assignment.non_overlap_cost")
		return false
	}
	for _, c := range s.clients {
		if c.firstRack == "" {
			s.log.Error(fmt.Sprintf("KafkaStreams client %s doesn't have a rack id configured.", c.id))
			return false
		}
	}
	r := s.partitionRacks()
	for _, t := range s.allOrder {
		for _, p := range r.partitions[t] {
			if standby && !p.changelog {
				continue
			}
			if len(r.racks[p.tp]) == 0 {
				s.log.Error(fmt.Sprintf("Topic partition %s for task %s does not have racks configured.", p.tp, t))
				return false
			}
		}
	}
	return true
}

// stickyCosts are the costs of stateful tasks: the configured ones, else
// the sticky assignor's defaults.
func stickyCosts(cfg Config) (traffic, nonOverlap int) {
	traffic, nonOverlap = stickyDefaultTrafficCost, stickyDefaultNonOverlapCost
	if cfg.RackAwareTrafficCost != nil {
		traffic = *cfg.RackAwareTrafficCost
	}
	if cfg.RackAwareNonOverlapCost != nil {
		nonOverlap = *cfg.RackAwareNonOverlapCost
	}
	return traffic, nonOverlap
}

// costFn is the KIP-924 utilities' cost of a task on a client:
// trafficCost for each of its partitions (its changelogs for a standby)
// with no replica in the client's rack, plus nonOverlapCost when it is
// not on the client now.
func (s *sticky) costFn(trafficCost, nonOverlapCost int, standby bool) taskCost {
	r := s.partitionRacks()
	return func(t assignment.TaskID, c *ClientState, inCurrent bool) int {
		var cost int32 // a Java int, wrapping as it does
		if !inCurrent {
			cost = int32(nonOverlapCost)
		}
		for _, p := range r.partitions[t] {
			if standby && !p.changelog {
				continue
			}
			if !r.racks[p.tp][c.firstRack] {
				cost += int32(trafficCost)
			}
		}
		return int(cost)
	}
}

// stickyConstructor is RackAwareGraphConstructorFactory.create over the
// tasks to optimize: balance_subtopology spreads each of their
// sub-topologies.
func stickyConstructor(strategy string, tasks []assignment.TaskID) graphConstructor {
	switch strategy {
	case RackAwareStrategyMinTraffic:
		return minTrafficGraph{}
	case RackAwareStrategyBalanceSubtopology:
		bySub := map[int32][]assignment.TaskID{}
		for _, t := range tasks {
			bySub[t.Subtopology] = append(bySub[t.Subtopology], t)
		}
		var groups [][]assignment.TaskID
		for _, sub := range slices.Sorted(maps.Keys(bySub)) {
			ts := bySub[sub]
			slices.SortFunc(ts, assignment.TaskID.Compare)
			groups = append(groups, ts)
		}
		return balanceSubtopologyGraph{groups: groups}
	}
	panic(assignError("Rack aware assignment is disabled"))
}

func (s *sticky) placeActive(c *ClientState, t assignment.TaskID) {
	c.assignActive(t)
	c.kafkaTasks.add(t)
}

func (s *sticky) removeActive(c *ClientState, t assignment.TaskID) {
	c.unassignActive(t)
	c.kafkaTasks.remove(t)
}

func (s *sticky) placeStandby(c *ClientState, t assignment.TaskID) {
	c.assignStandby(t)
	c.kafkaTasks.add(t)
}

func (s *sticky) removeStandby(c *ClientState, t assignment.TaskID) {
	c.unassignStandby(t)
	c.kafkaTasks.remove(t)
}

// optimizeActive is StickyTaskAssignor.optimizeActive: the stateful
// actives, then the stateless ones, each moved to the placement with the
// least cost that keeps every client's count.
func (s *sticky) optimizeActive(statefulTasks []assignment.TaskID, cfg Config) {
	stateful := newTaskSet(statefulTasks...)
	var withState, stateless []assignment.TaskID
	for _, t := range s.all.s {
		if stateful.contains(t) {
			withState = append(withState, t)
		} else {
			stateless = append(stateless, t)
		}
	}
	traffic, nonOverlap := stickyCosts(cfg)
	s.optimizeRackActive(withState, traffic, nonOverlap, cfg)
	s.optimizeRackActive(stateless, statelessTrafficCost, statelessNonOverlapCost, cfg)
	s.relocate()
}

// optimizeRackActive is optimizeRackAwareActiveTasks over the given
// tasks (sorted).
func (s *sticky) optimizeRackActive(tasks []assignment.TaskID, trafficCost, nonOverlapCost int, cfg Config) {
	if len(tasks) == 0 || !s.canOptimize(cfg, false) {
		return
	}
	gc := stickyConstructor(cfg.RackAwareAssignmentStrategy, tasks)
	tg := newTaskGraph(s.clients, tasks, s.clients)
	gc.build(tg, hasActive, s.costFn(trafficCost, nonOverlapCost, false), false)
	tg.g.solveMinCostFlow()
	gc.assign(tg, hasActive, s.placeActive, s.removeActive)
	s.log.Debug("placement after the rack-aware optimization of active tasks", "tasks", len(tasks), "cost", tg.g.totalCost())
}

// optimizeStandby is optimizeRackAwareStandbyTasks: for at most four
// passes over the pairs of clients in different racks, the standbys one
// holds and the other does not are swapped where that lowers the cost.
// (Kafka Streams 4.4 asks its move predicate about the source client
// twice, so client tags never hold a standby back here.)
func (s *sticky) optimizeStandby(cfg Config) {
	defer s.relocate()
	var standbys taskSet
	for _, c := range s.clients {
		for _, t := range c.standby.s {
			standbys.add(t)
		}
	}
	if standbys.len() == 0 || !s.canOptimize(cfg, true) {
		return
	}
	traffic, nonOverlap := stickyCosts(cfg)
	cost := s.costFn(traffic, nonOverlap, true)
	gc := stickyConstructor(cfg.RackAwareAssignmentStrategy, standbys.s)
	movable := func(src, dst *ClientState) []assignment.TaskID {
		var out []assignment.TaskID
		for _, t := range src.standby.s {
			if !dst.hasAssigned(t) {
				out = append(out, t)
			}
		}
		return out
	}
	moved, round := true, 0
	for moved && round < standbyOptimizerMaxRounds {
		moved = false
		round++
		for i, c1 := range s.clients {
			for _, c2 := range s.clients[i+1:] {
				if c1.firstRack == c2.firstRack {
					continue
				}
				m1, m2 := movable(c1, c2), movable(c2, c1)
				if len(m1) == 0 || len(m2) == 0 {
					continue
				}
				tasks := newTaskSet(append(m1, m2...)...).s
				pair := []*ClientState{c1, c2}
				if c2.id.Compare(c1.id) < 0 {
					pair = []*ClientState{c2, c1}
				}
				tg := newTaskGraph(pair, tasks, s.clients)
				gc.build(tg, hasStandby, cost, true)
				tg.g.solveMinCostFlow()
				if gc.assign(tg, hasStandby, s.placeStandby, s.removeStandby) {
					moved = true
				}
			}
		}
	}
	s.log.Debug("placement after the rack-aware optimization of standby tasks", "standbys", standbys.len(), "rounds", round)
}
