package taskassign

import (
	"fmt"
	"maps"
	"slices"

	"github.com/stoatflow/stoatflow/internal/assignment"
)

// Followup is the follow-up rebalance a consumer's assignment asks for
// (AssignmentInfo's nextRebalanceMs).
type Followup int

const (
	// FollowupNone asks for no follow-up rebalance.
	FollowupNone Followup = iota
	// FollowupNow asks for a rebalance at once (nextRebalanceMs 0): the
	// consumer was held back from tasks another consumer still owns.
	FollowupNow
	// FollowupProbing asks for a probing rebalance after
	// probing.rebalance.interval.ms.
	FollowupProbing
)

// ConsumerAssignment is what one consumer (stream thread) is given.
type ConsumerAssignment struct {
	// Partitions are its partitions in Kafka's order (topic, then
	// partition), and Active the task of each, as AssignmentInfo pairs
	// them: a task appears once per partition.
	Partitions []assignment.TopicPartition
	Active     []assignment.TaskID
	// Standby are its standby tasks (warm-ups included), sorted.
	Standby []assignment.TaskID
	// HeldBack are tasks placed on it but not given yet, because another
	// consumer still owns one of their partitions: they come in the
	// follow-up rebalance, after the owner revoked them. A held-back
	// stateful task the client kept state for is given as a standby
	// meanwhile.
	HeldBack []assignment.TaskID
	// Followup is the follow-up rebalance it asks for.
	Followup Followup
}

// AssignThreads spreads each client's tasks (after Assign) over its
// consumers as a Kafka Streams 4.4 leader does: stateful actives, then
// standbys, then stateless actives, each consumer first taking back the
// tasks it reported state for (least lag first) up to an even share.
// Under the cooperative protocol a task whose partition another consumer
// still owns is held back until that consumer revoked it. Clients must
// have been built with AddConsumer and Init. The first consumer of a
// client marked with SetFollowupRebalance carries the probing deadline.
// followupNeeded reports whether any consumer asks for a follow-up
// rebalance. A task of a named topology is refused with ErrUnsupported.
func AssignThreads(clients []*ClientState, partitionsForTask map[assignment.TaskID][]assignment.TopicPartition, statefulTasks []assignment.TaskID) (
	assignments map[string]ConsumerAssignment, followupNeeded bool, err error) {
	if err := checkUnnamedKeys(partitionsForTask); err != nil {
		return nil, false, err
	}
	if err := checkUnnamedAll(statefulTasks); err != nil {
		return nil, false, err
	}
	stateful := newTaskSet(statefulTasks...)
	owned := map[assignment.TopicPartition]bool{}
	for _, c := range clients {
		for tp := range c.ownedPartitions {
			owned[tp] = true
		}
	}
	assignments = map[string]ConsumerAssignment{}
	for _, c := range clients {
		if len(c.consumers) == 0 {
			return nil, false, fmt.Errorf("%w: client %s has no consumers", ErrInvalid, c.id)
		}
		active, standby := c.assignedSets()
		var statefulActive, statelessActive []assignment.TaskID
		for _, t := range active {
			if c.isStateful(t) {
				statefulActive = append(statefulActive, t)
			} else {
				statelessActive = append(statelessActive, t)
			}
		}
		load := map[string]int{}
		// Kafka collects the actives into hash sets, and each queue starts
		// in that set's order.
		activeByConsumer, err := c.assignToThreads(javaHashSetOrder(statefulActive, taskHash), true, load)
		if err != nil {
			return nil, false, err
		}
		standbyByConsumer, err := c.assignToThreads(standby, true, load)
		if err != nil {
			return nil, false, err
		}
		statelessByConsumer, err := c.assignToThreads(javaHashSetOrder(statelessActive, taskHash), false, load)
		if err != nil {
			return nil, false, err
		}

		probing := c.followupRebalance
		if probing {
			followupNeeded = true
		}
		for _, consumer := range c.consumers {
			var a ConsumerAssignment
			var held taskSet
			tasks := append(activeByConsumer[consumer], statelessByConsumer[consumer]...)
			type assigned struct {
				tp   assignment.TopicPartition
				task assignment.TaskID
			}
			var parts []assigned
			for _, t := range tasks {
				var mine []assigned
				for _, tp := range partitionsForTask[t] {
					if prev := c.ownedPartitions[tp]; prev != consumer && owned[tp] {
						held.add(t)
						mine = nil
						break
					}
					mine = append(mine, assigned{tp, t})
				}
				parts = append(parts, mine...)
			}
			slices.SortStableFunc(parts, func(x, y assigned) int { return assignment.ComparePartitions(x.tp, y.tp) })
			for _, p := range parts {
				a.Partitions = append(a.Partitions, p.tp)
				a.Active = append(a.Active, p.task)
			}
			standby := newTaskSet(standbyByConsumer[consumer]...)
			for _, t := range held.s {
				if c.prevStandby.contains(t) && stateful.contains(t) {
					standby.add(t)
				}
			}
			a.Standby = standby.items()
			a.HeldBack = held.items()
			switch {
			case held.len() > 0:
				a.Followup = FollowupNow
				followupNeeded = true
				probing = false
			case probing:
				a.Followup = FollowupProbing
				probing = false
			}
			assignments[consumer] = a
		}
	}
	return assignments, followupNeeded, nil
}

// assignedSets are the client's actives and standbys in the iteration
// order of the sets Kafka Streams' thread-level step reads: sorted after
// Assign (the HighAvailabilityTaskAssignor fills TreeSets); after
// AssignSticky, the HashSets ClientState.setAssignedTasks collects from
// the KIP-924 assignment's HashMap of tasks.
func (c *ClientState) assignedSets() (active, standby []assignment.TaskID) {
	if c.kafkaTasks == nil {
		return c.active.items(), c.standby.items()
	}
	for _, t := range c.kafkaTasks.order() {
		switch {
		case c.active.contains(t):
			active = append(active, t)
		case c.standby.contains(t):
			standby = append(standby, t)
		}
	}
	return javaHashSetOrder(active, taskHash), javaHashSetOrder(standby, taskHash)
}

// prevTasksByLag are the stateful tasks the consumer reported state for,
// least lag first, then in task order.
func (c *ClientState) prevTasksByLag(consumer string) []assignment.TaskID {
	var out []assignment.TaskID
	for _, t := range c.prevByConsumer[consumer] {
		if c.isStateful(t) {
			out = append(out, t)
		}
	}
	slices.SortFunc(out, func(a, b assignment.TaskID) int {
		la, lb := c.lags[a], c.lags[b]
		switch {
		case la < lb:
			return -1
		case la > lb:
			return 1
		}
		return a.Compare(b)
	})
	return out
}

// assignToThreads spreads tasks over the client's consumers so that each
// reaches the same count, counting what load says they have already; with
// stateful, a consumer first takes the tasks it reported state for. tasks
// are in the order Kafka's queue is built from. load is updated.
func (c *ClientState) assignToThreads(tasks []assignment.TaskID, stateful bool, load map[string]int) (map[string][]assignment.TaskID, error) {
	byConsumer := make(map[string][]assignment.TaskID, len(c.consumers))
	total := len(tasks)
	for _, n := range load {
		total += n
	}
	minPerThread := total / len(c.consumers)
	unassigned := newJavaPQFrom(tasks, assignment.TaskID.Compare)
	var toFill []string
	previousOwner := map[assignment.TaskID]string{} // tasks skipped in the first pass

	if unassigned.size() > 0 {
		for _, consumer := range c.consumers {
			target := minPerThread - load[consumer]
			if stateful {
				for _, t := range c.prevTasksByLag(consumer) {
					if !unassigned.contains(t) {
						continue
					}
					if len(byConsumer[consumer]) < target {
						byConsumer[consumer] = append(byConsumer[consumer], t)
						unassigned.remove(t)
					} else {
						previousOwner[t] = consumer
					}
				}
			}
			if len(byConsumer[consumer]) < target {
				toFill = append(toFill, consumer)
			}
		}

		for len(toFill) > 0 {
			t, ok := unassigned.poll()
			if !ok {
				return nil, fmt.Errorf("%w: client %s ran out of tasks before its consumers reached their share", ErrInvalid, c.id)
			}
			consumer := toFill[0]
			toFill = toFill[1:]
			byConsumer[consumer] = append(byConsumer[consumer], t)
			if len(byConsumer[consumer])+load[consumer] < minPerThread {
				toFill = append(toFill, consumer)
			}
		}

		if unassigned.size() > 0 {
			for _, consumer := range c.consumers {
				if len(byConsumer[consumer])+load[consumer] == minPerThread {
					toFill = append(toFill, consumer)
				}
			}
			skipped := slices.SortedFunc(maps.Keys(previousOwner), assignment.TaskID.Compare)
			for _, t := range skipped {
				consumer := previousOwner[t]
				if i := slices.Index(toFill, consumer); i >= 0 && unassigned.contains(t) {
					byConsumer[consumer] = append(byConsumer[consumer], t)
					unassigned.remove(t)
					toFill = slices.Delete(toFill, i, i+1)
				}
			}
			// The rest in the queue's array order, as Java iterates it.
			for _, t := range unassigned.es {
				if len(toFill) == 0 {
					return nil, fmt.Errorf("%w: client %s has more tasks than consumers to take them", ErrInvalid, c.id)
				}
				consumer := toFill[0]
				toFill = toFill[1:]
				byConsumer[consumer] = append(byConsumer[consumer], t)
			}
		}
	}
	for _, consumer := range c.consumers {
		load[consumer] += len(byConsumer[consumer])
	}
	return byConsumer, nil
}
