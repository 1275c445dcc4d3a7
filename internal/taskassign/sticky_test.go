package taskassign

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/stoatflow/stoatflow/internal/assignment"
)

// The cases below are Kafka 4.4's CustomStickyTaskAssignorTest (the
// KIP-924 StickyTaskAssignor, rack-aware strategy none unless said) with
// the results that test expects.

// stickyClient is Kafka's mkStreamState: a client of the given capacity
// with its previous actives and standbys.
func stickyClient(n byte, capacity int, prevActive, prevStandby []assignment.TaskID) *ClientState {
	return NewClientStateFromLags(pid(n), capacity, prevActive, prevStandby, nil, nil)
}

func mustSticky(t *testing.T, clients []*ClientState, all, stateful []assignment.TaskID, standbys int) {
	t.Helper()
	cfg := DefaultConfig()
	cfg.NumStandbyReplicas = standbys
	if err := AssignSticky(clients, all, stateful, nil, cfg); err != nil {
		t.Fatal(err)
	}
}

func taskCount(c *ClientState) int { return len(c.ActiveTasks()) + len(c.StandbyTasks()) }

func TestStickyOneActiveTaskPerClientWhenAsManyTasksAsClients(t *testing.T) {
	clients := []*ClientState{stickyClient(1, 1, nil, nil), stickyClient(2, 1, nil, nil), stickyClient(3, 1, nil, nil)}
	mustSticky(t, clients, []assignment.TaskID{t00, t01, t02}, nil, 0)
	for _, c := range clients {
		if taskCount(c) != 1 {
			t.Errorf("client %s: %d tasks, want 1", c.ProcessID(), taskCount(c))
		}
	}
}

// checkSubtopologiesSpread is assertActiveTaskTopicGroupIdsEvenlyDistributed:
// each client runs one task of sub-topology 1 and one of sub-topology 2.
func checkSubtopologiesSpread(t *testing.T, clients []*ClientState) {
	t.Helper()
	for _, c := range clients {
		var subs []int32
		for _, task := range c.ActiveTasks() {
			subs = append(subs, task.Subtopology)
		}
		slices.Sort(subs)
		if !slices.Equal(subs, []int32{1, 2}) {
			t.Errorf("client %s runs sub-topologies %v, want [1 2]", c.ProcessID(), subs)
		}
	}
}

func TestStickySpreadsSubtopologiesWithoutStandbys(t *testing.T) {
	clients := []*ClientState{stickyClient(1, 2, nil, nil), stickyClient(2, 2, nil, nil), stickyClient(3, 2, nil, nil)}
	mustSticky(t, clients, []assignment.TaskID{t10, t11, t22, t20, t21, t12}, nil, 0)
	checkSubtopologiesSpread(t, clients)
}

func TestStickySpreadsSubtopologiesWithStandbys(t *testing.T) {
	clients := []*ClientState{stickyClient(1, 2, nil, nil), stickyClient(2, 2, nil, nil), stickyClient(3, 2, nil, nil)}
	mustSticky(t, clients, []assignment.TaskID{t20, t11, t12, t10, t21, t22}, nil, 1)
	checkSubtopologiesSpread(t, clients)
}

func TestStickyKeepsActivesOnTheirClients(t *testing.T) {
	all := []assignment.TaskID{t00, t01, t02}
	clients := []*ClientState{stickyClient(1, 1, []assignment.TaskID{t00}, nil), stickyClient(2, 1, []assignment.TaskID{t01}, nil)}
	mustSticky(t, clients, all, nil, 0)
	checkContains(t, clients[0].ActiveTasks(), t00)
	checkContains(t, clients[1].ActiveTasks(), t01)

	clients = []*ClientState{stickyClient(1, 1, []assignment.TaskID{t01}, nil), stickyClient(2, 1, []assignment.TaskID{t00}, nil)}
	mustSticky(t, clients, all, nil, 0)
	checkContains(t, clients[0].ActiveTasks(), t01)
	checkContains(t, clients[1].ActiveTasks(), t00)
}

func checkContains(t *testing.T, got []assignment.TaskID, want ...assignment.TaskID) {
	t.Helper()
	for _, w := range want {
		if !slices.Contains(got, w) {
			t.Errorf("%v lacks %s", got, w)
		}
	}
}

func TestStickyMovesToANewClientOnlyWhatItMust(t *testing.T) {
	clients := []*ClientState{
		stickyClient(1, 1, []assignment.TaskID{t00, t02}, nil),
		stickyClient(2, 1, []assignment.TaskID{t01}, nil),
		stickyClient(3, 1, nil, nil),
	}
	mustSticky(t, clients, []assignment.TaskID{t00, t01, t02}, nil, 0)
	for _, c := range clients {
		if taskCount(c) != 1 {
			t.Errorf("client %s: %d tasks, want 1", c.ProcessID(), taskCount(c))
		}
	}
	checkContains(t, clients[1].ActiveTasks(), t01)
}

func TestStickyAssignsByCapacity(t *testing.T) {
	clients := []*ClientState{stickyClient(1, 1, nil, nil), stickyClient(2, 2, nil, nil)}
	mustSticky(t, clients, []assignment.TaskID{t00, t01, t02}, nil, 0)
	if taskCount(clients[0]) != 1 || taskCount(clients[1]) != 2 {
		t.Errorf("tasks %d and %d, want 1 and 2", taskCount(clients[0]), taskCount(clients[1]))
	}
}

func TestStickyEvenWithUnequalSubtopologies(t *testing.T) {
	t04, t05 := task(0, 4), task(0, 5)
	all := []assignment.TaskID{t10, t00, t01, t02, t03, t04, t05}
	clients := []*ClientState{stickyClient(1, 1, all, nil), stickyClient(2, 1, nil, nil)}
	mustSticky(t, clients, all, nil, 0)
	n1, n2 := len(clients[0].ActiveTasks()), len(clients[1].ActiveTasks())
	if !(n1 == 3 && n2 == 4 || n1 == 4 && n2 == 3) {
		t.Errorf("actives %d and %d, want 3 and 4", n1, n2)
	}
	got := append(clients[0].ActiveTasks(), clients[1].ActiveTasks()...)
	slices.SortFunc(got, assignment.TaskID.Compare)
	want := slices.Clone(all)
	slices.SortFunc(want, assignment.TaskID.Compare)
	if !slices.Equal(got, want) {
		t.Errorf("actives %v, want %v", got, want)
	}
}

func TestStickyKeepsActivesWithMoreClientsThanTasks(t *testing.T) {
	all := []assignment.TaskID{t00, t01, t02}
	clients := []*ClientState{
		stickyClient(1, 1, []assignment.TaskID{t00}, nil),
		stickyClient(2, 1, []assignment.TaskID{t02}, nil),
		stickyClient(3, 1, []assignment.TaskID{t01}, nil),
		stickyClient(4, 1, nil, nil),
		stickyClient(5, 1, nil, nil),
	}
	mustSticky(t, clients, all, nil, 0)
	checkTasks(t, "client 1", clients[0].ActiveTasks(), t00)
	checkTasks(t, "client 2", clients[1].ActiveTasks(), t02)
	checkTasks(t, "client 3", clients[2].ActiveTasks(), t01)
	checkTasks(t, "client 4", clients[3].ActiveTasks())
	checkTasks(t, "client 5", clients[4].ActiveTasks())

	clients = []*ClientState{
		stickyClient(1, 1, nil, nil),
		stickyClient(2, 1, nil, nil),
		stickyClient(3, 1, []assignment.TaskID{t01}, nil),
		stickyClient(4, 1, []assignment.TaskID{t00}, nil),
		stickyClient(5, 1, []assignment.TaskID{t02}, nil),
	}
	mustSticky(t, clients, all, nil, 0)
	checkTasks(t, "client 1", clients[0].ActiveTasks())
	checkTasks(t, "client 2", clients[1].ActiveTasks())
	checkTasks(t, "client 3", clients[2].ActiveTasks(), t01)
	checkTasks(t, "client 4", clients[3].ActiveTasks(), t00)
	checkTasks(t, "client 5", clients[4].ActiveTasks(), t02)
}

func TestStickyPrefersPreviousStandbys(t *testing.T) {
	clients := []*ClientState{
		stickyClient(1, 1, nil, []assignment.TaskID{t02}),
		stickyClient(2, 1, nil, []assignment.TaskID{t01}),
		stickyClient(3, 1, nil, []assignment.TaskID{t00}),
	}
	mustSticky(t, clients, []assignment.TaskID{t00, t01, t02}, nil, 0)
	checkTasks(t, "client 1", clients[0].ActiveTasks(), t02)
	checkTasks(t, "client 2", clients[1].ActiveTasks(), t01)
	checkTasks(t, "client 3", clients[2].ActiveTasks(), t00)
}

func TestStickyByCapacityWhenSeveralClientsHadTheStandby(t *testing.T) {
	clients := []*ClientState{
		stickyClient(1, 1, []assignment.TaskID{t00}, []assignment.TaskID{t01}),
		stickyClient(2, 2, []assignment.TaskID{t02}, []assignment.TaskID{t01}),
	}
	mustSticky(t, clients, []assignment.TaskID{t00, t01, t02}, nil, 0)
	checkTasks(t, "client 1", clients[0].ActiveTasks(), t00)
	checkTasks(t, "client 2", clients[1].ActiveTasks(), t01, t02)
}

func TestStickyStandbysNotWithTheirActive(t *testing.T) {
	all := []assignment.TaskID{t00, t01, t02, t03}
	clients := []*ClientState{
		stickyClient(1, 1, []assignment.TaskID{t00}, nil),
		stickyClient(2, 1, []assignment.TaskID{t01}, nil),
		stickyClient(3, 1, []assignment.TaskID{t02}, nil),
		stickyClient(4, 1, []assignment.TaskID{t03}, nil),
	}
	mustSticky(t, clients, all, all, 1)
	withStandbys := 0
	var standbys taskSet
	for i, c := range clients {
		checkTasks(t, fmt.Sprintf("client %d active", i+1), c.ActiveTasks(), all[i])
		if len(c.StandbyTasks()) > 2 {
			t.Errorf("client %d: %d standbys, want at most 2", i+1, len(c.StandbyTasks()))
		}
		if slices.Contains(c.StandbyTasks(), all[i]) {
			t.Errorf("client %d has a standby of its active %s", i+1, all[i])
		}
		if len(c.StandbyTasks()) > 0 {
			withStandbys++
		}
		for _, s := range c.StandbyTasks() {
			standbys.add(s)
		}
	}
	if withStandbys < 3 {
		t.Errorf("%d clients with standbys, want at least 3", withStandbys)
	}
	checkTasks(t, "standbys", standbys.s, all...)
}

func TestStickyMultipleStandbyReplicas(t *testing.T) {
	all := []assignment.TaskID{t00, t01, t02}
	clients := []*ClientState{
		stickyClient(1, 1, []assignment.TaskID{t00}, nil),
		stickyClient(2, 1, []assignment.TaskID{t01}, nil),
		stickyClient(3, 1, []assignment.TaskID{t02}, nil),
	}
	mustSticky(t, clients, all, all, 2)
	checkTasks(t, "client 1 active", clients[0].ActiveTasks(), t00)
	checkTasks(t, "client 2 active", clients[1].ActiveTasks(), t01)
	checkTasks(t, "client 3 active", clients[2].ActiveTasks(), t02)
	checkTasks(t, "client 1 standby", clients[0].StandbyTasks(), t01, t02)
	checkTasks(t, "client 2 standby", clients[1].StandbyTasks(), t00, t02)
	checkTasks(t, "client 3 standby", clients[2].StandbyTasks(), t00, t01)
}

func TestStickyNoStandbyWithoutAnotherClient(t *testing.T) {
	clients := []*ClientState{stickyClient(1, 1, []assignment.TaskID{t00}, nil)}
	mustSticky(t, clients, []assignment.TaskID{t00}, []assignment.TaskID{t00}, 2)
	checkTasks(t, "active", clients[0].ActiveTasks(), t00)
	checkTasks(t, "standby", clients[0].StandbyTasks())
}

func TestStickyActivesAndStandbys(t *testing.T) {
	all := []assignment.TaskID{t00, t01, t02}
	clients := []*ClientState{stickyClient(1, 1, nil, nil), stickyClient(2, 1, nil, nil), stickyClient(3, 1, nil, nil)}
	mustSticky(t, clients, all, all, 1)
	var active, standby taskSet
	for _, c := range clients {
		for _, x := range c.ActiveTasks() {
			active.add(x)
		}
		for _, x := range c.StandbyTasks() {
			standby.add(x)
		}
	}
	checkTasks(t, "actives", active.s, all...)
	checkTasks(t, "standbys", standby.s, all...)
}

func TestStickyATaskOnEachClientWhenPossible(t *testing.T) {
	clients := []*ClientState{stickyClient(1, 3, nil, nil), stickyClient(2, 1, nil, nil), stickyClient(3, 1, nil, nil)}
	mustSticky(t, clients, []assignment.TaskID{t00, t01, t02}, nil, 0)
	for _, c := range clients {
		if len(c.ActiveTasks()) != 1 {
			t.Errorf("client %s: actives %v, want one", c.ProcessID(), c.ActiveTasks())
		}
	}
}

func TestStickyEachActiveOnceWithMoreClientsThanTasks(t *testing.T) {
	var clients []*ClientState
	for n := byte(1); n <= 6; n++ {
		clients = append(clients, stickyClient(n, 1, nil, nil))
	}
	all := []assignment.TaskID{t00, t01, t02}
	mustSticky(t, clients, all, nil, 0)
	var active taskSet
	busy := 0
	for _, c := range clients {
		for _, x := range c.ActiveTasks() {
			active.add(x)
		}
		if len(c.StandbyTasks()) > 0 {
			t.Errorf("client %s has standbys %v", c.ProcessID(), c.StandbyTasks())
		}
		if taskCount(c) > 0 {
			busy++
		}
	}
	checkTasks(t, "actives", active.s, all...)
	if busy < 3 {
		t.Errorf("%d clients with a task, want 3", busy)
	}
}

func TestStickyBalancesActivesAndStandbys(t *testing.T) {
	var clients []*ClientState
	for n := byte(1); n <= 6; n++ {
		clients = append(clients, stickyClient(n, 1, nil, nil))
	}
	all := []assignment.TaskID{t00, t01, t02}
	mustSticky(t, clients, all, all, 1)
	for _, c := range clients {
		if taskCount(c) == 0 {
			t.Errorf("client %s has no task", c.ProcessID())
		}
	}
}

func TestStickyMoreTasksToMoreCapacity(t *testing.T) {
	t30, t31, t32 := task(3, 0), task(3, 1), task(3, 2)
	all := []assignment.TaskID{t00, t01, t02, t10, t11, t12, t20, t21, t22, t30, t31, t32}
	clients := []*ClientState{stickyClient(1, 1, nil, nil), stickyClient(2, 2, nil, nil)}
	mustSticky(t, clients, all, nil, 0)
	if len(clients[0].ActiveTasks()) != 4 || len(clients[1].ActiveTasks()) != 8 {
		t.Errorf("actives %d and %d, want 4 and 8", len(clients[0].ActiveTasks()), len(clients[1].ActiveTasks()))
	}
}

func checkDistinctAssignments(t *testing.T, clients []*ClientState) {
	t.Helper()
	for i, c1 := range clients {
		for _, c2 := range clients[i+1:] {
			a := append(c1.ActiveTasks(), c1.StandbyTasks()...)
			b := append(c2.ActiveTasks(), c2.StandbyTasks()...)
			slices.SortFunc(a, assignment.TaskID.Compare)
			slices.SortFunc(b, assignment.TaskID.Compare)
			if slices.Equal(a, b) {
				t.Errorf("clients %s and %s both have %v", c1.ProcessID(), c2.ProcessID(), a)
			}
		}
	}
}

func TestStickyNoTwoClientsAlike(t *testing.T) {
	all := []assignment.TaskID{t00, t01, t02, t03}
	var clients []*ClientState
	for n := byte(1); n <= 4; n++ {
		clients = append(clients, stickyClient(n, 1, nil, nil))
	}
	mustSticky(t, clients, all, all, 1)
	checkDistinctAssignments(t, clients)
}

func TestStickyNoTwoClientsAlikeWithPreviousActives(t *testing.T) {
	all := []assignment.TaskID{t00, t01, t02, t03}
	clients := []*ClientState{
		stickyClient(1, 1, []assignment.TaskID{t01, t02}, nil),
		stickyClient(2, 1, []assignment.TaskID{t03}, nil),
		stickyClient(3, 1, []assignment.TaskID{t00}, nil),
		stickyClient(4, 1, nil, nil),
	}
	mustSticky(t, clients, all, all, 1)
	checkDistinctAssignments(t, clients)
}

func TestStickyStandbysOfTheOneStatefulTask(t *testing.T) {
	var clients []*ClientState
	for n := byte(1); n <= 4; n++ {
		clients = append(clients, stickyClient(n, 1, nil, nil))
	}
	mustSticky(t, clients, []assignment.TaskID{t00, t01, t02}, []assignment.TaskID{t00}, 3)
	checkTasks(t, "client 1 standby", clients[0].StandbyTasks())
	for _, c := range clients[1:] {
		checkTasks(t, fmt.Sprintf("client %s standby", c.ProcessID()), c.StandbyTasks(), t00)
	}
}

// TestStickyLargeRackAwareAssignment is largeAssignmentShouldTerminateWithinAcceptableTime:
// 300 stateful tasks, 2 standbys each, 20 clients of 50 threads in racks,
// each task's partition (source and changelog) in one rack, costs 1 and 2.
func TestStickyLargeRackAwareAssignment(t *testing.T) {
	if testing.Short() || raceEnabled {
		// The placement is single-threaded: the race detector has nothing
		// to watch, and its min-cost flows take minutes under it.
		t.Skip("a large placement; it runs without -short and -race")
	}
	for _, strategy := range []string{RackAwareStrategyNone, RackAwareStrategyMinTraffic, RackAwareStrategyBalanceSubtopology} {
		t.Run(strategy, func(t *testing.T) {
			const topics, perTopic, standbys, nClients, capacity = 10, 30, 2, 20, 50
			racks := &Racks{SourcePartitions: map[assignment.TaskID][]assignment.TopicPartition{},
				ChangelogPartitions: map[assignment.TaskID][]assignment.TopicPartition{}, Replicas: map[assignment.TopicPartition][]string{}}
			var all []assignment.TaskID
			for i := range int32(topics) {
				for j := range int32(perTopic) {
					id := task(i, j)
					tp := assignment.TopicPartition{Topic: fmt.Sprintf("test-topic-%d", i), Partition: j}
					racks.SourcePartitions[id] = []assignment.TopicPartition{tp}
					racks.ChangelogPartitions[id] = []assignment.TopicPartition{tp}
					racks.Replicas[tp] = []string{fmt.Sprintf("rack-%d", (i*j)%31)}
					all = append(all, id)
				}
			}
			var clients []*ClientState
			for i := range nClients {
				c := stickyClient(byte(i+1), capacity, nil, nil)
				c.firstRack = fmt.Sprintf("rack-%d", i%31)
				clients = append(clients, c)
			}
			cfg := DefaultConfig()
			cfg.NumStandbyReplicas = standbys
			cfg.RackAwareAssignmentStrategy = strategy
			traffic, nonOverlap := 1, 2
			cfg.RackAwareTrafficCost, cfg.RackAwareNonOverlapCost = &traffic, &nonOverlap
			if err := AssignSticky(clients, all, all, racks, cfg); err != nil {
				t.Fatal(err)
			}
			actives, standbyCount := 0, 0
			for _, c := range clients {
				actives += len(c.ActiveTasks())
				standbyCount += len(c.StandbyTasks())
			}
			if actives != topics*perTopic || standbyCount != topics*perTopic*standbys {
				t.Errorf("%d actives and %d standbys, want %d and %d", actives, standbyCount, topics*perTopic, topics*perTopic*standbys)
			}
		})
	}
}

// moved counts the tasks whose active client changed.
func moved(before map[assignment.TaskID]byte, clients []*ClientState) int {
	n := 0
	for i, c := range clients {
		for _, x := range c.ActiveTasks() {
			if prev, ok := before[x]; ok && prev != byte(i+1) {
				n++
			}
		}
	}
	return n
}

// TestStickyJoinMovesOnlyWhatBalanceNeeds: a fifth instance joins four
// that each ran their share of the stateful tasks, all caught up. The
// sticky assignor leaves every task where it ran as long as its client
// stays within its share (the tasks over the clients, rounded up): with 8
// tasks that share is 2, so nothing moves and the newcomer waits for a
// task; with 20 the share is 4, and one task of each old instance moves.
// The HighAvailabilityTaskAssignor deals the actives round robin when
// every client is caught up, and moves most of them.
func TestStickyJoinMovesOnlyWhatBalanceNeeds(t *testing.T) {
	for _, tc := range []struct{ tasks, stickyMoves, haMoves int }{{8, 0, 7}, {20, 4, 16}} {
		t.Run(fmt.Sprintf("tasks=%d", tc.tasks), func(t *testing.T) {
			var all []assignment.TaskID
			for p := range int32(tc.tasks) {
				all = append(all, task(0, p))
			}
			before := map[assignment.TaskID]byte{}
			build := func() []*ClientState {
				var clients []*ClientState
				per := tc.tasks / 4
				for n := byte(1); n <= 4; n++ {
					mine := all[int(n-1)*per : int(n)*per]
					for _, x := range mine {
						before[x] = n
					}
					clients = append(clients, NewClientStateFromLags(pid(n), 1, mine, nil, lagsOf(all, 0), nil))
				}
				return append(clients, NewClientStateFromLags(pid(5), 1, nil, nil, lagsOf(all, 0), nil))
			}
			clients := build()
			mustSticky(t, clients, all, all, 0)
			if got := moved(before, clients); got != tc.stickyMoves {
				t.Errorf("the sticky assignor moved %d tasks, want %d", got, tc.stickyMoves)
			}
			share := (tc.tasks + 4) / 5
			for _, c := range clients {
				if len(c.ActiveTasks()) > share {
					t.Errorf("client %s runs %d tasks, more than its share %d", c.ProcessID(), len(c.ActiveTasks()), share)
				}
			}

			clients = build()
			mustAssign(t, clients, all, all, config(math.MaxInt64, 2, 0))
			if got := moved(before, clients); got != tc.haMoves {
				t.Errorf("the high-availability assignor moved %d tasks, want %d", got, tc.haMoves)
			}
		})
	}
}

func TestStickyAssignmentSpreadsOverThreads(t *testing.T) {
	// A sticky placement goes through the same thread-level step: the
	// tasks a consumer reported stay with it.
	partitions, taskFor := oneTopic(t00, t01, t02, t03)
	c1 := NewClientState(pid(1), nil)
	addConsumer(t, c1, "c1-a", []assignment.TopicPartition{tp("in", 0)}, map[assignment.TaskID]int64{t00: assignment.LatestOffset})
	addConsumer(t, c1, "c1-b", []assignment.TopicPartition{tp("in", 1)}, map[assignment.TaskID]int64{t01: assignment.LatestOffset})
	c2 := NewClientState(pid(2), nil)
	addConsumer(t, c2, "c2-a", []assignment.TopicPartition{tp("in", 2), tp("in", 3)},
		map[assignment.TaskID]int64{t02: assignment.LatestOffset, t03: assignment.LatestOffset})
	all := []assignment.TaskID{t00, t01, t02, t03}
	for _, c := range []*ClientState{c1, c2} {
		if err := c.Init(taskFor, endOffsets(100, all...)); err != nil {
			t.Fatal(err)
		}
	}
	clients := []*ClientState{c1, c2}
	if err := AssignSticky(clients, all, all, nil, DefaultConfig()); err != nil {
		t.Fatal(err)
	}
	// c1 has 2 threads, c2 one: their shares are ceil(4*2/3) = 3 and
	// ceil(4/3) = 2, so everything stays.
	checkTasks(t, "client 1", c1.ActiveTasks(), t00, t01)
	checkTasks(t, "client 2", c2.ActiveTasks(), t02, t03)
	threads, followup, err := AssignThreads(clients, partitions, all)
	if err != nil {
		t.Fatal(err)
	}
	if followup {
		t.Error("a follow-up rebalance after a placement that moved nothing")
	}
	for member, want := range map[string][]assignment.TaskID{"c1-a": {t00}, "c1-b": {t01}, "c2-a": {t02, t03}} {
		if !slices.Equal(threads[member].Active, want) {
			t.Errorf("%s: %s, want %v", member, describe(threads[member]), want)
		}
	}
}

func TestStickyRejectsBadInput(t *testing.T) {
	for name, clients := range map[string][]*ClientState{
		"no clients":  nil,
		"no capacity": {NewClientStateFromLags(pid(1), 0, nil, nil, nil, nil)},
		"twice":       {stickyClient(1, 1, nil, nil), stickyClient(1, 1, nil, nil)},
	} {
		if err := AssignSticky(clients, []assignment.TaskID{t00}, nil, nil, DefaultConfig()); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	named := assignment.TaskID{Subtopology: 0, Partition: 0, NamedTopology: "x"}
	if err := AssignSticky([]*ClientState{stickyClient(1, 1, nil, nil)}, []assignment.TaskID{named}, nil, nil, DefaultConfig()); err == nil {
		t.Error("a named topology's task: no error")
	}
}

func TestSubscriptionOrderIsJavaHashMapOrder(t *testing.T) {
	// "Aa" and "BB" share String.hashCode 2112: a bucket keeps the order
	// of insertion.
	if h := javaStringHash("Aa"); h != 2112 || javaStringHash("BB") != 2112 {
		t.Fatalf("hash of Aa %d, want 2112", h)
	}
	if h := javaStringHash("hello"); h != 99162322 {
		t.Errorf("hash of hello %d, want 99162322", h)
	}
	if got := SubscriptionOrder([]string{"BB", "b", "Aa"}); !slices.Equal(got, []string{"BB", "Aa", "b"}) {
		t.Errorf("order %v", got)
	}
	if got := SubscriptionOrder([]string{"Aa", "b", "BB"}); !slices.Equal(got, []string{"Aa", "BB", "b"}) {
		t.Errorf("order %v", got)
	}
}

func TestHashSetFromCollectionIsSizedAsJava17(t *testing.T) {
	id := func(x int32) int32 { return x }
	// Two elements: 16 buckets, 16 and 0 share bucket 0.
	if got := newHashOrderFrom([]int32{16, 0}, id).order(); !slices.Equal(got, []int32{16, 0}) {
		t.Errorf("order %v", got)
	}
	// Twelve: (int) (12 / .75f) + 1 = 17 rounds up to 32 buckets, so 16
	// and 0 part; a HashSet grown one by one keeps 16 buckets.
	elems := []int32{16, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	got := newHashOrderFrom(elems, id).order()
	if i, j := slices.Index(got, 0), slices.Index(got, 16); i > j {
		t.Errorf("order %v: 16 before 0", got)
	}
	grown := javaHashSetOrder(elems, id)
	if i, j := slices.Index(grown, 0), slices.Index(grown, 16); i < j {
		t.Errorf("grown order %v: 0 before 16", grown)
	}
}
