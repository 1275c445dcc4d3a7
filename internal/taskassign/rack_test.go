package taskassign

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stoatflow/stoatflow/internal/assignment"
)

// The cases below are Kafka 4.4's RackAwareTaskAssignorTest and the rack
// cases of HighAvailabilityTaskAssignorTest, on the cluster of Kafka's
// AssignmentTestUtils, with the placements and costs they expect.

var (
	// Kafka's REPLICA_0..4: the racks of two brokers each (NODE_n is in
	// rack n).
	replica0 = []string{"rack0", "rack1"}
	replica1 = []string{"rack1", "rack2"}
	replica2 = []string{"rack0", "rack2"}
	replica3 = []string{"rack1", "rack3"}
	replica4 = []string{"rack3", "rack4"}
)

// allTasksRacks is getClusterForAllTopics, getTaskTopicPartitionMapForAllTasks,
// getTaskChangelogMapForAllTasks and mockInternalTopicManagerForChangelog:
// task i_j reads topic<i>-j and logs to store-<i>-changelog-j.
func allTasksRacks() *Racks {
	source := map[string][]([]string){
		"topic0": {replica0, replica1, replica1, replica2, replica3, replica4, replica2},
		"topic1": {replica2, replica3, replica0, replica1},
		"topic2": {replica4, replica3, replica4, replica0},
		"topic3": {replica2, replica3, replica4},
	}
	changelog := map[string][]([]string){
		"store-0-changelog": {replica0, replica1, replica1, replica2, replica3, replica4, replica0},
		"store-1-changelog": {replica2, replica3, replica0, replica4},
		"store-2-changelog": {replica1, replica2, replica4, replica3},
		"store-3-changelog": {replica4, replica3, replica1},
	}
	r := &Racks{SourcePartitions: map[assignment.TaskID][]assignment.TopicPartition{},
		ChangelogPartitions: map[assignment.TaskID][]assignment.TopicPartition{},
		Replicas:            map[assignment.TopicPartition][]string{}}
	for sub := range 4 {
		for p, racks := range source[fmt.Sprintf("topic%d", sub)] {
			id := task(int32(sub), int32(p))
			src, cl := tp(fmt.Sprintf("topic%d", sub), int32(p)), tp(fmt.Sprintf("store-%d-changelog", sub), int32(p))
			r.SourcePartitions[id] = []assignment.TopicPartition{src}
			r.ChangelogPartitions[id] = []assignment.TopicPartition{cl}
			r.Replicas[src] = racks
			r.Replicas[cl] = changelog[cl.Topic][p]
		}
	}
	return r
}

// processRacks is getProcessRacksForAllProcess.
var processRacks = map[byte]string{1: "rack0", 2: "rack1", 3: "rack2", 4: "rack3", 5: "rack4", 6: "rack0", 7: "rack1"}

// onRack gives a client one consumer in a rack, as a subscription would.
func onRack(c *ClientState, rack string) *ClientState {
	c.consumers = []string{"1"}
	c.racks = map[string]string{"1": rack}
	return c
}

// rackClient is Kafka's new ClientState(..., capacity, PID_n) with
// PID_n's rack.
func rackClient(n byte, capacity int) *ClientState {
	return onRack(NewClientStateFromLags(pid(n), capacity, nil, nil, nil, nil), processRacks[n])
}

func rackConfig(strategy string, standbys int) Config {
	c := DefaultConfig()
	c.RackAwareAssignmentStrategy = strategy
	c.NumStandbyReplicas = standbys
	return c
}

// newTestRackAware is a RackAwareTaskAssignor over clients; groups, when
// given, replace the sub-topologies' tasks derived from racks.
func newTestRackAware(t *testing.T, clients []*ClientState, racks *Racks, cfg Config, groups ...[]assignment.TaskID) *rackAware {
	t.Helper()
	g, err := newGroup(clients)
	if err != nil {
		t.Fatal(err)
	}
	ra := newRackAware(g, racks, cfg)
	if groups != nil {
		ra.groups = groups
	}
	return ra
}

var rackStrategies = []string{RackAwareStrategyMinTraffic, RackAwareStrategyBalanceSubtopology}

// costsOf are the costs Kafka's tests use: a stateful task's defaults, or
// a stateless task's.
func costsOf(stateful bool) (traffic, nonOverlap int) {
	if stateful {
		return 10, 1
	}
	return 1, 0
}

func forEachRackCase(t *testing.T, f func(t *testing.T, strategy string, stateful bool)) {
	for _, strategy := range rackStrategies {
		for _, stateful := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s/stateful=%v", strategy, stateful), func(t *testing.T) { f(t, strategy, stateful) })
		}
	}
}

// activeOf places actives on c, as Kafka's tests call assignActive.
func activeOf(c *ClientState) func(...assignment.TaskID) {
	return func(ts ...assignment.TaskID) {
		for _, t := range ts {
			c.active.add(t)
		}
	}
}

func TestRackAwareDisabledByConfig(t *testing.T) {
	racks := allTasksRacks()
	ra := newTestRackAware(t, []*ClientState{rackClient(1, 1)}, racks, rackConfig(RackAwareStrategyNone, 0))
	if ra.canEnable() {
		t.Error("strategy none: rack-aware")
	}
	if ra.decided {
		t.Error("strategy none: the partitions' racks were checked")
	}
}

func TestRackAwareNeedsEveryRack(t *testing.T) {
	task0 := func(extra bool) *Racks {
		r := &Racks{
			SourcePartitions: map[assignment.TaskID][]assignment.TopicPartition{t00: {tp("topic0", 0)}},
			Replicas:         map[assignment.TopicPartition][]string{tp("topic0", 0): replica0, tp("topic0", 1): replica1},
		}
		if extra {
			r.SourcePartitions[t00] = append(r.SourcePartitions[t00], tp("topic1", 0))
		}
		return r
	}
	withStandby := func(r *Racks, changelog []string) *Racks {
		r.ChangelogPartitions = map[assignment.TaskID][]assignment.TopicPartition{t00: {tp("store-0-changelog", 0)}}
		if changelog != nil {
			r.Replicas[tp("store-0-changelog", 0)] = changelog
		}
		return r
	}
	cases := []struct {
		name     string
		racks    *Racks
		client   func() *ClientState
		standbys int
		want     bool
	}{
		{"every rack known", task0(false), func() *ClientState { return rackClient(1, 1) }, 0, true},
		{"partition missing from the metadata", task0(true), func() *ClientState { return rackClient(1, 1) }, 0, false},
		{"broker without rack", func() *Racks {
			r := task0(false)
			r.Replicas[tp("topic0", 0)] = []string{"rack0", ""}
			return r
		}(), func() *ClientState { return rackClient(1, 1) }, 0, false},
		{"partition without replicas", func() *Racks {
			r := task0(false)
			r.Replicas[tp("topic0", 0)] = nil
			return r
		}(), func() *ClientState { return rackClient(1, 1) }, 0, false},
		{"consumer without rack", task0(false), func() *ClientState { return onRack(NewClientStateFromLags(pid(1), 1, nil, nil, nil, nil), "") }, 0, false},
		{"client without consumers", task0(false), func() *ClientState { return NewClientStateFromLags(pid(1), 1, nil, nil, nil, nil) }, 0, false},
		{"consumers of a client in two racks", task0(false), func() *ClientState {
			c := NewClientStateFromLags(pid(1), 2, nil, nil, nil, nil)
			c.consumers = []string{"consumer1", "consumer2"}
			c.racks = map[string]string{"consumer1": "rack1", "consumer2": "rack2"}
			return c
		}, 0, false},
		{"changelog racks known", withStandby(task0(false), replica1), func() *ClientState { return rackClient(1, 1) }, 1, true},
		{"changelog topic not found", withStandby(task0(false), nil), func() *ClientState { return rackClient(1, 1) }, 1, false},
		{"changelog topic not found without standbys", withStandby(task0(false), nil), func() *ClientState { return rackClient(1, 1) }, 0, true},
		{"changelog broker without rack", withStandby(task0(false), []string{"", "rack1"}), func() *ClientState { return rackClient(1, 1) }, 1, false},
	}
	for _, tc := range cases {
		for _, strategy := range rackStrategies {
			t.Run(tc.name+"/"+strategy, func(t *testing.T) {
				ra := newTestRackAware(t, []*ClientState{tc.client()}, tc.racks, rackConfig(strategy, tc.standbys))
				if got := ra.canEnable(); got != tc.want {
					t.Errorf("canEnable %v, want %v", got, tc.want)
				}
				// The answer is kept.
				ra.racks.Replicas = nil
				if got := ra.canEnable(); got != tc.want {
					t.Errorf("canEnable a second time %v, want %v", got, tc.want)
				}
			})
		}
	}
}

func TestRackAwarePopulatesRacks(t *testing.T) {
	racks := &Racks{
		SourcePartitions:    map[assignment.TaskID][]assignment.TopicPartition{t00: {tp("topic0", 0)}},
		ChangelogPartitions: map[assignment.TaskID][]assignment.TopicPartition{t00: {tp("store-0-changelog", 0)}},
		Replicas:            map[assignment.TopicPartition][]string{tp("topic0", 0): replica1, tp("store-0-changelog", 0): replica1},
	}
	ra := newTestRackAware(t, []*ClientState{rackClient(2, 1)}, racks, rackConfig(RackAwareStrategyMinTraffic, 1))
	if !ra.canEnable() {
		t.Fatal("not rack-aware")
	}
	if got := ra.rackOf; len(got) != 1 || got[pid(2)] != "rack1" {
		t.Errorf("racks of processes %v, want %s: rack1", got, pid(2))
	}
	for _, p := range []assignment.TopicPartition{tp("topic0", 0), tp("store-0-changelog", 0)} {
		if got := ra.partitionRacks[p]; len(got) != 2 || !got["rack1"] || !got["rack2"] {
			t.Errorf("racks of %s: %v, want rack1 and rack2", p, got)
		}
	}
}

func TestRackAwareOptimizeEmptyActiveTasks(t *testing.T) {
	forEachRackCase(t, func(t *testing.T, strategy string, stateful bool) {
		c1 := rackClient(1, 1)
		activeOf(c1)(t01, t11)
		ra := newTestRackAware(t, []*ClientState{c1}, allTasksRacks(), rackConfig(strategy, 0))
		if !ra.canEnable() {
			t.Fatal("not rack-aware")
		}
		traffic, nonOverlap := costsOf(stateful)
		if c := ra.tasksCost(nil, traffic, nonOverlap, false); c != 0 {
			t.Errorf("cost of no tasks %d", c)
		}
		if c := ra.optimizeActive(nil, traffic, nonOverlap); c != 0 {
			t.Errorf("optimized cost of no tasks %d", c)
		}
		checkTasks(t, "client 1 active", c1.ActiveTasks(), t01, t11)
	})
}

func TestRackAwareOptimizeActiveTasks(t *testing.T) {
	forEachRackCase(t, func(t *testing.T, strategy string, stateful bool) {
		c1, c2, c3 := rackClient(1, 1), rackClient(2, 1), rackClient(3, 1)
		activeOf(c1)(t01, t11)
		activeOf(c2)(t10)
		activeOf(c3)(t00)
		// 0_0 is in the rack of process 1; 0_1 of 2 and 3; 1_0 of 1
		// and 3; 1_1 of 2. Processes 1: {0_0, 1_0}, 2: {1_1}, 3: {0_1}
		// read nothing across racks.
		ra := newTestRackAware(t, []*ClientState{c1, c2, c3}, allTasksRacks(), rackConfig(strategy, 0),
			[]assignment.TaskID{t00, t01}, []assignment.TaskID{t10, t11})
		if !ra.canEnable() {
			t.Fatal("not rack-aware")
		}
		traffic, nonOverlap := costsOf(stateful)
		tasks := []assignment.TaskID{t00, t01, t10, t11}
		wantCost(t, "before", ra.tasksCost(tasks, traffic, nonOverlap, false), pick(stateful, 40, 4))
		wantCost(t, "optimized", ra.optimizeActive(tasks, traffic, nonOverlap), pick(stateful, 4, 0))
		checkTasks(t, "client 1 active", c1.ActiveTasks(), t00, t10)
		checkTasks(t, "client 2 active", c2.ActiveTasks(), t11)
		checkTasks(t, "client 3 active", c3.ActiveTasks(), t01)
	})
}

func pick(stateful bool, ifStateful, ifStateless int64) int64 {
	if stateful {
		return ifStateful
	}
	return ifStateless
}

func wantCost(t *testing.T, what string, got, want int64) {
	t.Helper()
	if got != want {
		t.Errorf("cost %s %d, want %d", what, got, want)
	}
}

func TestRackAwareOptimizeActiveTasksWithMoreClients(t *testing.T) {
	forEachRackCase(t, func(t *testing.T, strategy string, stateful bool) {
		c1, c2, c3 := rackClient(1, 1), rackClient(2, 1), rackClient(3, 1)
		activeOf(c2)(t10)
		activeOf(c3)(t00)
		// 0_0 is in the rack of processes 1 and 2, 1_0 of 1 and 3;
		// process 1 had no task and keeps none.
		ra := newTestRackAware(t, []*ClientState{c1, c2, c3}, allTasksRacks(), rackConfig(strategy, 0),
			[]assignment.TaskID{t00}, []assignment.TaskID{t10})
		if !ra.canEnable() {
			t.Fatal("not rack-aware")
		}
		traffic, nonOverlap := costsOf(stateful)
		tasks := []assignment.TaskID{t00, t10}
		wantCost(t, "before", ra.tasksCost(tasks, traffic, nonOverlap, false), pick(stateful, 20, 2))
		wantCost(t, "optimized", ra.optimizeActive(tasks, traffic, nonOverlap), pick(stateful, 2, 0))
		checkTasks(t, "client 1 active", c1.ActiveTasks())
		checkTasks(t, "client 2 active", c2.ActiveTasks(), t00)
		checkTasks(t, "client 3 active", c3.ActiveTasks(), t10)
	})
}

func TestRackAwareOptimizeActiveTasksWithMoreClientsWithMoreThanOneTask(t *testing.T) {
	forEachRackCase(t, func(t *testing.T, strategy string, stateful bool) {
		c1, c2, c3 := rackClient(1, 1), rackClient(2, 1), rackClient(3, 1)
		activeOf(c2)(t01, t10)
		activeOf(c3)(t00)
		ra := newTestRackAware(t, []*ClientState{c1, c2, c3}, allTasksRacks(), rackConfig(strategy, 0),
			[]assignment.TaskID{t00, t01}, []assignment.TaskID{t10})
		if !ra.canEnable() {
			t.Fatal("not rack-aware")
		}
		traffic, nonOverlap := costsOf(stateful)
		tasks := []assignment.TaskID{t00, t01, t10}
		wantCost(t, "before", ra.tasksCost(tasks, traffic, nonOverlap, false), pick(stateful, 20, 2))
		wantCost(t, "optimized", ra.optimizeActive(tasks, traffic, nonOverlap), pick(stateful, 2, 0))
		// The counts were not balanced (process 1 had none); they stay.
		checkTasks(t, "client 1 active", c1.ActiveTasks())
		checkTasks(t, "client 2 active", c2.ActiveTasks(), t00, t01)
		checkTasks(t, "client 3 active", c3.ActiveTasks(), t10)
	})
}

func TestRackAwareBalanceAssignmentWithMoreCost(t *testing.T) {
	forEachRackCase(t, func(t *testing.T, strategy string, stateful bool) {
		c2, c5 := rackClient(2, 1), rackClient(5, 1)
		activeOf(c2)(t00, t11)
		activeOf(c5)(t01)
		// Every task is in process 2's rack, none in process 5's.
		ra := newTestRackAware(t, []*ClientState{c2, c5}, allTasksRacks(), rackConfig(strategy, 0),
			[]assignment.TaskID{t00, t01}, []assignment.TaskID{t11})
		if !ra.canEnable() {
			t.Fatal("not rack-aware")
		}
		traffic, nonOverlap := costsOf(stateful)
		tasks := []assignment.TaskID{t00, t01, t11}
		want := pick(stateful, 10, 1)
		wantCost(t, "before", ra.tasksCost(tasks, traffic, nonOverlap, false), want)
		wantCost(t, "optimized", ra.optimizeActive(tasks, traffic, nonOverlap), want)
		if stateful || strategy == RackAwareStrategyMinTraffic {
			// All on process 2 would cost least, but is not balanced.
			checkTasks(t, "client 2 active", c2.ActiveTasks(), t00, t11)
			checkTasks(t, "client 5 active", c5.ActiveTasks(), t01)
		} else {
			checkTasks(t, "client 2 active", c2.ActiveTasks(), t00, t01)
			checkTasks(t, "client 5 active", c5.ActiveTasks(), t11)
		}
	})
}

func TestRackAwareOptimizeRefusesBrokenInput(t *testing.T) {
	forEachRackCase(t, func(t *testing.T, strategy string, stateful bool) {
		traffic, nonOverlap := costsOf(stateful)
		setup := func(active5 ...assignment.TaskID) (*rackAware, *ClientState, *ClientState) {
			c2, c5 := rackClient(2, 1), rackClient(5, 1)
			activeOf(c2)(t00, t11)
			activeOf(c5)(active5...)
			ra := newTestRackAware(t, []*ClientState{c2, c5}, allTasksRacks(), rackConfig(strategy, 0),
				[]assignment.TaskID{t11})
			return ra, c2, c5
		}
		ra, _, _ := setup(t01)
		wantPanic(t, "TopicPartition topic0-0 has no rack information. Maybe forgot to call canEnableRackAwareAssignor first", func() {
			ra.optimizeActive([]assignment.TaskID{t00, t01, t11}, traffic, nonOverlap)
		})
		ra, _, _ = setup(t01, t11)
		ra.canEnable()
		wantPanic(t, "Task 1_1 assigned to multiple clients 00000000-0000-0000-0000-000000000005, 00000000-0000-0000-0000-000000000002", func() {
			ra.optimizeActive([]assignment.TaskID{t00, t01, t11}, traffic, nonOverlap)
		})
		ra, _, _ = setup(t01)
		ra.canEnable()
		wantPanic(t, "Task 1_0 not assigned to any client", func() {
			ra.optimizeActive([]assignment.TaskID{t00, t01, t10, t11}, traffic, nonOverlap)
		})
	})
}

func TestRackAwareOptimizeEmptyStandby(t *testing.T) {
	for _, strategy := range rackStrategies {
		c1, c2, c3 := rackClient(1, 1), rackClient(2, 1), rackClient(3, 1)
		activeOf(c1)(t01, t11)
		activeOf(c2)(t10)
		activeOf(c3)(t00)
		racks := allTasksRacks()
		racks.ChangelogPartitions = nil
		ra := newTestRackAware(t, []*ClientState{c1, c2, c3}, racks, rackConfig(strategy, 1))
		wantCost(t, "of no standbys", ra.tasksCost(nil, 10, 1, true), 0)
		wantCost(t, "of no standbys optimized", ra.optimizeStandby(10, 1, func(_, _ *ClientState, _ assignment.TaskID) bool { return true }), 0)
	}
}

// sixStandbyClients is the group of Kafka's standby optimization tests:
// six clients, two in rack0, two in rack1, each with one active and two
// standbys (costs 10, 10, 20, 10, 10, 10 with traffic cost 10).
func sixStandbyClients() []*ClientState {
	cs := []*ClientState{rackClient(1, 1), rackClient(2, 1), rackClient(3, 1), rackClient(4, 1), rackClient(6, 1), rackClient(7, 1)}
	actives := []assignment.TaskID{t00, t01, t10, t11, t02, t12}
	standbys := [][]assignment.TaskID{{t01, t11}, {t00, t10}, {t00, t02}, {t01, t12}, {t10, t12}, {t02, t11}}
	for i, c := range cs {
		c.active.add(actives[i])
		for _, t := range standbys[i] {
			c.standby.add(t)
		}
	}
	return cs
}

// checkStandbyReplicas checks that every task has one active and n
// standbys, never two on a client, in different racks unless relaxed,
// and that each client kept its number of standbys.
func checkStandbyReplicas(t *testing.T, ra *rackAware, tasks []assignment.TaskID, n int, relaxRacks bool, counts map[assignment.ProcessID]int) {
	t.Helper()
	for _, c := range ra.g.clients {
		if counts != nil && c.standby.len() != counts[c.id] {
			t.Errorf("client %s has %d standbys, want %d", c.id, c.standby.len(), counts[c.id])
		}
	}
	for _, task := range tasks {
		actives, standbys := 0, 0
		racks := map[string]assignment.ProcessID{}
		for _, c := range ra.g.clients {
			if !relaxRacks && c.hasAssigned(task) {
				rack := ra.rackOf[c.id]
				if other, ok := racks[rack]; ok {
					t.Errorf("task %s in clients %s and %s of rack %s", task, other, c.id, rack)
				}
				racks[rack] = c.id
			}
			if c.active.contains(task) {
				actives++
			}
			if c.standby.contains(task) {
				standbys++
			}
			if c.active.contains(task) && c.standby.contains(task) {
				t.Errorf("client %s has task %s as active and standby", c.id, task)
			}
		}
		if actives != 1 || standbys != n {
			t.Errorf("task %s has %d actives and %d standbys, want 1 and %d", task, actives, standbys, n)
		}
	}
}

func standbyCounts(clients []*ClientState) map[assignment.ProcessID]int {
	m := map[assignment.ProcessID]int{}
	for _, c := range clients {
		m[c.id] = c.standby.len()
	}
	return m
}

func TestRackAwareOptimizeStandbyTasksWhenAllMovable(t *testing.T) {
	for _, strategy := range rackStrategies {
		t.Run(strategy, func(t *testing.T) {
			clients := sixStandbyClients()
			ra := newTestRackAware(t, clients, allTasksRacks(), rackConfig(strategy, 2))
			tasks := []assignment.TaskID{t00, t01, t02, t10, t11, t12}
			counts := standbyCounts(clients)
			if !ra.canEnable() {
				t.Fatal("not rack-aware")
			}
			checkStandbyReplicas(t, ra, tasks, 2, false, nil)
			wantCost(t, "before", ra.tasksCost(tasks, 10, 1, true), 60)
			// Any standby may move: the cost falls to 20 (50 under the
			// rack constraint below).
			wantCost(t, "optimized", ra.optimizeStandby(10, 1, func(_, _ *ClientState, _ assignment.TaskID) bool { return true }), 20)
			checkStandbyReplicas(t, ra, tasks, 2, true, counts)
		})
	}
}

func TestRackAwareOptimizeStandbyTasksWithMovingConstraint(t *testing.T) {
	for _, strategy := range rackStrategies {
		t.Run(strategy, func(t *testing.T) {
			clients := sixStandbyClients()
			// Kafka's StandbyTaskAssignorFactory with valid client racks:
			// the client-tag rule over one tag, the rack.
			for _, c := range clients {
				c.tags = map[string]string{"rack": processRacks[c.id[15]]}
			}
			ra := newTestRackAware(t, clients, allTasksRacks(), rackConfig(strategy, 2))
			tasks := []assignment.TaskID{t00, t01, t02, t10, t11, t12}
			counts := standbyCounts(clients)
			if !ra.canEnable() {
				t.Fatal("not rack-aware")
			}
			wantCost(t, "before", ra.tasksCost(tasks, 10, 1, true), 60)
			wantCost(t, "optimized", ra.optimizeStandby(10, 1, tagsAllowStandbyMove(clients)), 50)
			checkStandbyReplicas(t, ra, tasks, 2, false, counts)
		})
	}
}

// TestRackAwareWarmedUpClientsTakeTheirTasks is Kafka's
// shouldEvenlyAssignActiveStatefulTasksIfClientsAreWarmedUpToBalanceTaskOverClients
// with rack awareness on: the rack-aware placement gives 1_1 to process
// 2 and 0_1 to process 3, so clients warmed up on those need no probing
// rebalance.
func TestRackAwareWarmedUpClientsTakeTheirTasks(t *testing.T) {
	for _, strategy := range []string{RackAwareStrategyNone, RackAwareStrategyMinTraffic, RackAwareStrategyBalanceSubtopology} {
		t.Run(strategy, func(t *testing.T) {
			all := []assignment.TaskID{t00, t01, t10, t11}
			warm1, warm2 := t01, t10
			if strategy != RackAwareStrategyNone {
				warm1, warm2 = t11, t01
			}
			lags1, lags2 := lagsOf(all, math.MaxInt64), lagsOf(all, math.MaxInt64)
			lags1[warm1], lags2[warm2] = 0, 0
			caughtUp := onRack(NewClientStateFromLags(pid(1), 5, all, nil, lagsOf(all, 0), nil), processRacks[1])
			warmed1 := onRack(NewClientStateFromLags(pid(2), 5, nil, []assignment.TaskID{warm1}, lags1, nil), processRacks[2])
			warmed2 := onRack(NewClientStateFromLags(pid(3), 5, nil, []assignment.TaskID{warm2}, lags2, nil), processRacks[3])
			cfg := config(0, len(all)/3+1, 0)
			cfg.RackAwareAssignmentStrategy = strategy
			probing, err := Assign([]*ClientState{caughtUp, warmed1, warmed2}, all, all, allTasksRacks(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			checkProbing(t, probing, false)
			for _, c := range []*ClientState{caughtUp, warmed1, warmed2} {
				if n := c.active.len(); n < 1 || n > 2 {
					t.Errorf("client %s has actives %v", c.id, c.ActiveTasks())
				}
			}
		})
	}
}

// randomRackGroup is a random group over the 18 tasks of allTasksRacks,
// some stateful, with clients in random racks and previous tasks.
func randomRackGroup(rng *rand.Rand) (clients []*ClientState, all, stateful []assignment.TaskID) {
	racks := allTasksRacks()
	for t := range racks.SourcePartitions {
		all = append(all, t)
	}
	slices.SortFunc(all, assignment.TaskID.Compare)
	for _, t := range all {
		if rng.IntN(2) == 0 {
			stateful = append(stateful, t)
		}
	}
	n := 2 + rng.IntN(6)
	for i := range n {
		var prev []assignment.TaskID
		for _, t := range all {
			if rng.IntN(n) == 0 {
				prev = append(prev, t)
			}
		}
		lags := map[assignment.TaskID]int64{}
		for _, t := range stateful {
			lags[t] = int64(rng.IntN(3)) * 50
			if slices.Contains(prev, t) {
				lags[t] = assignment.LatestOffset
			}
		}
		c := NewClientStateFromLags(pid(byte(i+1)), 1+rng.IntN(3), prev, nil, lags, nil)
		clients = append(clients, onRack(c, fmt.Sprintf("rack%d", rng.IntN(5))))
	}
	return clients, all, stateful
}

func placementOf(clients []*ClientState) string {
	var b strings.Builder
	for _, c := range clients {
		fmt.Fprintf(&b, "%s active%v standby%v\n", c.id, c.ActiveTasks(), c.StandbyTasks())
	}
	return b.String()
}

// statefulPlacementOf leaves out the stateless actives, which rack-aware
// assignment moves at fixed costs whatever the configured ones.
func statefulPlacementOf(clients []*ClientState) string {
	var b strings.Builder
	for _, c := range clients {
		var active []assignment.TaskID
		for _, t := range c.active.s {
			if c.isStateful(t) {
				active = append(active, t)
			}
		}
		fmt.Fprintf(&b, "%s stateful active%v standby%v\n", c.id, active, c.StandbyTasks())
	}
	return b.String()
}

// TestRackAwareRandomGroups is Kafka's shouldAssignRandomInput and
// shouldRemainOriginalAssignmentWithoutTrafficCostForMinCostStrategy on
// random groups: a rack-aware placement is valid and keeps the actives
// balanced; with traffic cost 0 min_traffic places stateful actives and
// standbys as none does; and
// without the partitions' racks every strategy places as none does.
func TestRackAwareRandomGroups(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for i := range 200 {
		standbys := rng.IntN(3)
		place := func(strategy string, racks *Racks, traffic *int) []*ClientState {
			clients, all, stateful := randomRackGroup(rand.New(rand.NewPCG(uint64(i), 3)))
			cfg := config(100, 2, standbys)
			cfg.RackAwareAssignmentStrategy = strategy
			cfg.RackAwareTrafficCost = traffic
			if traffic != nil {
				ten := 10
				cfg.RackAwareNonOverlapCost = &ten
			}
			if _, err := Assign(clients, all, stateful, racks, cfg); err != nil {
				t.Fatalf("group %d, %s: %v", i, strategy, err)
			}
			return clients
		}
		for _, strategy := range rackStrategies {
			clients := place(strategy, allTasksRacks(), nil)
			_, all, _ := randomRackGroup(rand.New(rand.NewPCG(uint64(i), 3)))
			for _, task := range all {
				actives := 0
				for _, c := range clients {
					if c.active.contains(task) {
						actives++
					}
				}
				if actives != 1 {
					t.Fatalf("group %d, %s: task %s has %d actives\n%s", i, strategy, task, actives, placementOf(clients))
				}
			}
			lo, hi := math.Inf(1), math.Inf(-1)
			for _, c := range clients {
				lo, hi = min(lo, c.activeLoad()), max(hi, c.activeLoad())
			}
			if hi-lo > 1 {
				t.Errorf("group %d, %s: active loads from %v to %v\n%s", i, strategy, lo, hi, placementOf(clients))
			}
			noRacks := allTasksRacks()
			delete(noRacks.Replicas, tp("topic2", 1))
			if got, want := placementOf(place(strategy, noRacks, nil)), placementOf(place(RackAwareStrategyNone, nil, nil)); got != want {
				t.Errorf("group %d, %s without a partition's racks:\n%s\nwant strategy none's\n%s", i, strategy, got, want)
			}
		}
		zero := 0
		if got, want := statefulPlacementOf(place(RackAwareStrategyMinTraffic, allTasksRacks(), &zero)), statefulPlacementOf(place(RackAwareStrategyNone, allTasksRacks(), &zero)); got != want {
			t.Errorf("group %d, min_traffic with traffic cost 0:\n%s\nwant strategy none's\n%s", i, got, want)
		}
	}
}
