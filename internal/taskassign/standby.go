package taskassign

import "github.com/stoatflow/stoatflow/internal/assignment"

// assignStandbysLeastLoaded places up to n standbys of each stateful task,
// in task order, each on the least loaded client without the task.
func (g *group) assignStandbysLeastLoaded(stateful []assignment.TaskID, n int) {
	set := g.leastLoadedWithoutTask()
	set.offerAll(g.ids)
	remaining := make(map[assignment.TaskID]int, len(stateful))
	for _, t := range stateful {
		remaining[t] = n
	}
	for _, t := range stateful {
		g.placeStandbys(set, remaining, t)
	}
}

func (g *group) leastLoadedWithoutTask() *constrainedPrioritySet {
	return newConstrainedPrioritySet(
		func(id assignment.ProcessID, t assignment.TaskID) bool { return !g.byID[id].hasAssigned(t) },
		func(id assignment.ProcessID) float64 { return g.byID[id].assignedLoad() },
	)
}

// placeStandbys gives the task its remaining standbys on the least loaded
// clients that do not have it, as far as there are such clients.
func (g *group) placeStandbys(set *constrainedPrioritySet, remaining map[assignment.TaskID]int, t assignment.TaskID) {
	for remaining[t] > 0 {
		id, ok := set.poll(t, nil)
		if !ok {
			return
		}
		g.byID[id].assignStandby(t)
		remaining[t]--
		set.offer(id)
	}
}

type tagEntry struct{ key, value string }

// assignStandbysByTags places the standbys of each stateful task on
// clients whose values of the configured tags differ from those of the
// active and of the standbys placed before, least loaded first; a tag
// whose values are all used stops counting. Standbys that find no such
// client go to the least loaded clients at the end.
func (g *group) assignStandbysByTags(stateful []assignment.TaskID, cfg Config) {
	n := cfg.NumStandbyReplicas
	configured := map[string]bool{}
	for _, k := range cfg.RackAwareAssignmentTags {
		configured[k] = true
	}
	remaining := make(map[assignment.TaskID]int, len(stateful))
	pending := newHashOrder(taskHash) // the iteration order of Kafka's HashMap of remaining standbys
	for _, t := range stateful {
		remaining[t] = n
		pending.add(t)
	}
	valuesOfKey := map[string]map[string]bool{}
	clientsOfEntry := map[tagEntry]map[assignment.ProcessID]bool{}
	for _, c := range g.clients {
		for k, v := range c.tags {
			if valuesOfKey[k] == nil {
				valuesOfKey[k] = map[string]bool{}
			}
			valuesOfKey[k][v] = true
			e := tagEntry{k, v}
			if clientsOfEntry[e] == nil {
				clientsOfEntry[e] = map[assignment.ProcessID]bool{}
			}
			clientsOfEntry[e][c.id] = true
		}
	}
	set := g.leastLoadedWithoutTask()

	for _, t := range stateful {
		for _, c := range g.clients {
			if !c.active.contains(t) {
				continue
			}
			set.offerAll(g.ids)
			usedClients := 1 // the active's
			left := remaining[t]
			used := map[tagEntry]map[assignment.ProcessID]bool{}
			last := c.id
			for {
				for k, v := range g.byID[last].tags {
					if !configured[k] {
						continue
					}
					values := valuesOfKey[k]
					if len(values) <= usedClients {
						for value := range values {
							delete(used, tagEntry{k, value})
						}
					} else {
						used[tagEntry{k, v}] = clientsOfEntry[tagEntry{k, v}]
					}
				}
				id, ok := set.poll(t, func(id assignment.ProcessID) bool {
					for _, ids := range used {
						if ids[id] {
							return false
						}
					}
					return true
				})
				if !ok {
					break
				}
				usedClients++
				left--
				g.byID[id].assignStandby(t)
				last = id
				if left <= 0 {
					break
				}
			}
			if left > 0 {
				remaining[t] = left
			} else {
				delete(remaining, t)
				pending.remove(t)
			}
		}
	}

	if len(remaining) > 0 {
		set.offerAll(g.ids)
		for _, t := range pending.order() {
			g.placeStandbys(set, remaining, t)
		}
	}
}
