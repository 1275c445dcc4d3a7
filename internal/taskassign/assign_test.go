package taskassign

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/stoatflow/stoatflow/internal/assignment"
)

// The cases below are Kafka 4.4's HighAvailabilityTaskAssignorTest (rack-
// aware strategy none) with the results that test expects.

func task(sub, p int32) assignment.TaskID { return assignment.TaskID{Subtopology: sub, Partition: p} }

var (
	t00, t01, t02, t03 = task(0, 0), task(0, 1), task(0, 2), task(0, 3)
	t10, t11, t12, t13 = task(1, 0), task(1, 1), task(1, 2), task(1, 3)
	t20, t21, t22      = task(2, 0), task(2, 1), task(2, 2)
)

// pid is Kafka's test process id for n: new UUID(0, n).
func pid(n byte) assignment.ProcessID {
	var p assignment.ProcessID
	p[15] = n
	return p
}

func lagsOf(tasks []assignment.TaskID, lag int64) map[assignment.TaskID]int64 {
	m := map[assignment.TaskID]int64{}
	for _, t := range tasks {
		m[t] = lag
	}
	return m
}

// caughtUpOn is Kafka's getMockClientWithPreviousCaughtUpTasks: lag 0 on
// the given tasks, Long.MAX_VALUE on the other stateful ones, capacity 1.
func caughtUpOn(n byte, caughtUp, stateful []assignment.TaskID) *ClientState {
	lags := lagsOf(stateful, math.MaxInt64)
	for _, t := range caughtUp {
		lags[t] = 0
	}
	return NewClientStateFromLags(pid(n), 1, caughtUp, nil, lags, nil)
}

func config(acceptable int64, warmups, standbys int) Config {
	c := DefaultConfig()
	c.AcceptableRecoveryLag = acceptable
	c.MaxWarmupReplicas = warmups
	c.NumStandbyReplicas = standbys
	c.ProbingRebalanceIntervalMs = 60000
	return c
}

func withoutStandbys() Config { return config(100, 2, 0) }
func withStandbys() Config    { return config(100, 2, 1) }

func mustAssign(t *testing.T, clients []*ClientState, all, stateful []assignment.TaskID, cfg Config) bool {
	t.Helper()
	probing, err := Assign(clients, all, stateful, nil, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return probing
}

func checkTasks(t *testing.T, what string, got []assignment.TaskID, want ...assignment.TaskID) {
	t.Helper()
	want = slices.Clone(want)
	slices.SortFunc(want, assignment.TaskID.Compare)
	if !slices.Equal(got, want) {
		t.Errorf("%s: %v, want %v", what, got, want)
	}
}

func checkProbing(t *testing.T, got, want bool) {
	t.Helper()
	if got != want {
		t.Errorf("probing rebalance needed: %v, want %v", got, want)
	}
}

var nine = []assignment.TaskID{t00, t01, t02, t10, t11, t12, t20, t21, t22}

func TestStickyForActiveAndStandbyWhileWarmingUp(t *testing.T) {
	c1 := NewClientStateFromLags(pid(1), 1, nine, nil, lagsOf(nine, 0), nil)
	c2 := NewClientStateFromLags(pid(2), 1, nil, nine, lagsOf(nine, 10), nil)
	c3 := NewClientStateFromLags(pid(3), 1, nil, nil, lagsOf(nine, math.MaxInt64), nil)
	probing := mustAssign(t, []*ClientState{c1, c2, c3}, nine, nine, config(11, 2, 1))
	for _, c := range []struct {
		c    *ClientState
		want int
	}{{c1, 9}, {c2, 9}, {c3, 2}} {
		if n := c.c.assignedCount(); n != c.want {
			t.Errorf("client %s has %d tasks, want %d", c.c.id, n, c.want)
		}
	}
	checkProbing(t, probing, true)
}

func TestSkipWarmupsWhenAcceptableLagIsMax(t *testing.T) {
	c1 := NewClientStateFromLags(pid(1), 1, nine, nil, lagsOf(nine, 0), nil)
	c2 := NewClientStateFromLags(pid(2), 1, nil, nil, lagsOf(nine, math.MaxInt64), nil)
	c3 := NewClientStateFromLags(pid(3), 1, nil, nil, lagsOf(nine, math.MaxInt64), nil)
	probing := mustAssign(t, []*ClientState{c1, c2, c3}, nine, nine, config(math.MaxInt64, 1, 1))
	for _, c := range []*ClientState{c1, c2, c3} {
		if n := c.assignedCount(); n != 6 {
			t.Errorf("client %s has %d tasks, want 6", c.id, n)
		}
	}
	checkProbing(t, probing, false)
}

func TestActiveStatefulTasksEvenOverClientsAndThreads(t *testing.T) {
	cases := []struct {
		name       string
		tasks      []assignment.TaskID
		capacities []int
		wantActive []int // per client; nil: balanced within one
	}{
		{"clients divide tasks", nine, []int{1, 1, 1}, []int{3, 3, 3}},
		{"threads divide tasks", nine, []int{3, 3, 3}, []int{3, 3, 3}},
		{"clients do not divide tasks", nine, []int{1, 1}, nil},
		{"uneven threads", []assignment.TaskID{t00, t01, t02, t10, t11, t12}, []int{1, 2, 3}, []int{1, 2, 3}},
		{"more clients than tasks", []assignment.TaskID{t00, t01}, []int{1, 1, 1}, nil},
		{"as many threads per client as tasks", nine, []int{9, 9, 9}, []int{3, 3, 3}},
		{"best effort over clients", nine, []int{6, 3}, []int{6, 3}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var clients []*ClientState
			for i, capacity := range tc.capacities {
				clients = append(clients, NewClientStateFromLags(pid(byte(i+1)), capacity, nil, nil, lagsOf(tc.tasks, 10), nil))
			}
			probing := mustAssign(t, clients, tc.tasks, tc.tasks, config(0, 1, 0))
			checkProbing(t, probing, false)
			total, lo, hi := 0, len(tc.tasks), 0
			for i, c := range clients {
				n := c.active.len()
				total += n
				lo, hi = min(lo, n), max(hi, n)
				if tc.wantActive != nil && n != tc.wantActive[i] {
					t.Errorf("client %d: %d actives, want %d", i+1, n, tc.wantActive[i])
				}
				if c.standby.len() != 0 {
					t.Errorf("client %d has standbys %v", i+1, c.StandbyTasks())
				}
			}
			if total != len(tc.tasks) {
				t.Errorf("%d actives placed, want %d", total, len(tc.tasks))
			}
			if tc.wantActive == nil && hi-lo > 1 {
				t.Errorf("actives from %d to %d per client", lo, hi)
			}
		})
	}
}

func TestWarmupsWhenBalancedOverThreadsButNotOverClients(t *testing.T) {
	all := []assignment.TaskID{t00, t01, t10, t11}
	caughtUp := NewClientStateFromLags(pid(1), 5, all, nil, lagsOf(all, 0), nil)
	behind1 := NewClientStateFromLags(pid(2), 5, nil, nil, lagsOf(all, math.MaxInt64), nil)
	behind2 := NewClientStateFromLags(pid(3), 5, nil, nil, lagsOf(all, math.MaxInt64), nil)
	probing := mustAssign(t, []*ClientState{caughtUp, behind1, behind2}, all, all, config(0, len(all)/3+1, 0))
	checkProbing(t, probing, true)
	for _, c := range []*ClientState{behind1, behind2} {
		if c.standby.len() < len(all)/3 {
			t.Errorf("client %s has standbys %v, want at least %d", c.id, c.StandbyTasks(), len(all)/3)
		}
	}
}

func TestActivesSpreadOnceClientsWarmedUp(t *testing.T) {
	all := []assignment.TaskID{t00, t01, t10, t11}
	lags1, lags2 := lagsOf(all, math.MaxInt64), lagsOf(all, math.MaxInt64)
	lags1[t01], lags2[t10] = 0, 0
	caughtUp := NewClientStateFromLags(pid(1), 5, all, nil, lagsOf(all, 0), nil)
	warm1 := NewClientStateFromLags(pid(2), 5, nil, []assignment.TaskID{t01}, lags1, nil)
	warm2 := NewClientStateFromLags(pid(3), 5, nil, []assignment.TaskID{t10}, lags2, nil)
	probing := mustAssign(t, []*ClientState{caughtUp, warm1, warm2}, all, all, config(0, len(all)/3+1, 0))
	checkProbing(t, probing, false)
	for _, c := range []*ClientState{caughtUp, warm1, warm2} {
		if n := c.active.len(); n < 1 || n > 2 {
			t.Errorf("client %s has actives %v", c.id, c.ActiveTasks())
		}
	}
}

func TestUnassignedActiveTasksAreAssigned(t *testing.T) {
	c1 := NewClientStateFromLags(pid(1), 1, []assignment.TaskID{t00}, nil, map[assignment.TaskID]int64{t00: 0}, nil)
	probing := mustAssign(t, []*ClientState{c1}, []assignment.TaskID{t00, t01}, []assignment.TaskID{t00}, withoutStandbys())
	checkProbing(t, probing, false)
	checkTasks(t, "client 1 active", c1.ActiveTasks(), t00, t01)
	checkTasks(t, "client 1 standby", c1.StandbyTasks())
}

func TestUnassignedStandbyTasksAreAssigned(t *testing.T) {
	c1 := NewClientStateFromLags(pid(1), 1, []assignment.TaskID{t00}, nil, map[assignment.TaskID]int64{t00: 0}, nil)
	c2 := NewClientStateFromLags(pid(2), 1, nil, nil, map[assignment.TaskID]int64{t00: 0}, nil)
	probing := mustAssign(t, []*ClientState{c1, c2}, []assignment.TaskID{t00}, []assignment.TaskID{t00}, withStandbys())
	checkProbing(t, probing, false)
	if c2.standby.len() == 0 {
		t.Error("client 2 has no standby")
	}
}

func TestActiveMovesBackToCaughtUpClient(t *testing.T) {
	c1 := NewClientStateFromLags(pid(1), 1, []assignment.TaskID{t00}, nil, map[assignment.TaskID]int64{t00: 500}, nil)
	c2 := NewClientStateFromLags(pid(2), 1, []assignment.TaskID{t01}, nil, map[assignment.TaskID]int64{t00: 0}, nil)
	probing := mustAssign(t, []*ClientState{c1, c2}, []assignment.TaskID{t00, t01}, []assignment.TaskID{t00}, withoutStandbys())
	checkTasks(t, "client 1 active", c1.ActiveTasks(), t01)
	checkTasks(t, "client 2 active", c2.ActiveTasks(), t00)
	checkTasks(t, "client 1 warm-up", c1.WarmupTasks(), t00)
	checkProbing(t, probing, true)
}

func TestActiveGoesToMostCaughtUpClient(t *testing.T) {
	c1 := NewClientStateFromLags(pid(1), 1, nil, nil, map[assignment.TaskID]int64{t00: math.MaxInt64}, nil)
	c2 := NewClientStateFromLags(pid(2), 1, nil, nil, map[assignment.TaskID]int64{t00: 1000}, nil)
	c3 := NewClientStateFromLags(pid(3), 1, nil, nil, map[assignment.TaskID]int64{t00: 500}, nil)
	probing := mustAssign(t, []*ClientState{c1, c2, c3}, []assignment.TaskID{t00}, []assignment.TaskID{t00}, withStandbys())
	checkTasks(t, "client 1 active", c1.ActiveTasks())
	checkTasks(t, "client 2 active", c2.ActiveTasks())
	checkTasks(t, "client 3 active", c3.ActiveTasks(), t00)
	checkTasks(t, "client 1 standby (warm-up)", c1.StandbyTasks(), t00)
	checkTasks(t, "client 1 warm-up", c1.WarmupTasks(), t00)
	checkTasks(t, "client 2 standby", c2.StandbyTasks(), t00)
	checkTasks(t, "client 3 standby", c3.StandbyTasks())
	checkProbing(t, probing, true)
}

func TestStandbysForStatefulTasks(t *testing.T) {
	stateful := []assignment.TaskID{t00, t01}
	c1 := caughtUpOn(1, []assignment.TaskID{t00}, stateful)
	c2 := caughtUpOn(2, []assignment.TaskID{t01}, stateful)
	probing := mustAssign(t, []*ClientState{c1, c2}, stateful, stateful, withStandbys())
	checkTasks(t, "client 1 active", c1.ActiveTasks(), t00)
	checkTasks(t, "client 2 active", c2.ActiveTasks(), t01)
	checkTasks(t, "client 1 standby", c1.StandbyTasks(), t01)
	checkTasks(t, "client 2 standby", c2.StandbyTasks(), t00)
	checkProbing(t, probing, false)
}

func TestNoStandbysForStatelessTasks(t *testing.T) {
	c1 := caughtUpOn(1, nil, nil)
	c2 := caughtUpOn(2, nil, nil)
	probing := mustAssign(t, []*ClientState{c1, c2}, []assignment.TaskID{t00, t01}, nil, withStandbys())
	for _, c := range []*ClientState{c1, c2} {
		if c.active.len() != 1 || c.standby.len() != 0 {
			t.Errorf("client %s: active %v standby %v", c.id, c.ActiveTasks(), c.StandbyTasks())
		}
	}
	checkProbing(t, probing, false)
}

func TestWarmupWithoutStandbyReplicas(t *testing.T) {
	stateful := []assignment.TaskID{t00, t01}
	c1 := caughtUpOn(1, stateful, stateful)
	c2 := caughtUpOn(2, nil, stateful)
	probing := mustAssign(t, []*ClientState{c1, c2}, stateful, stateful, withoutStandbys())
	checkTasks(t, "client 1 active", c1.ActiveTasks(), t00, t01)
	checkTasks(t, "client 1 standby", c1.StandbyTasks())
	checkTasks(t, "client 2 active", c2.ActiveTasks())
	if c2.standby.len() != 1 || !slices.Equal(c2.WarmupTasks(), c2.StandbyTasks()) {
		t.Errorf("client 2: standby %v warm-up %v, want one warm-up", c2.StandbyTasks(), c2.WarmupTasks())
	}
	checkProbing(t, probing, true)
}

func TestNoMoreThanMaxWarmupReplicas(t *testing.T) {
	stateful := []assignment.TaskID{t00, t01, t02, t03}
	c1 := caughtUpOn(1, stateful, stateful)
	c2 := caughtUpOn(2, nil, stateful)
	probing := mustAssign(t, []*ClientState{c1, c2}, stateful, stateful, config(100, 1, 0))
	checkTasks(t, "client 1 active", c1.ActiveTasks(), stateful...)
	checkTasks(t, "client 1 standby", c1.StandbyTasks())
	checkTasks(t, "client 2 active", c2.ActiveTasks())
	if c2.standby.len() != 1 {
		t.Errorf("client 2 standbys %v, want one warm-up", c2.StandbyTasks())
	}
	checkProbing(t, probing, true)
}

func TestWarmupAndStandbyNotOnTheSameClient(t *testing.T) {
	stateful := []assignment.TaskID{t00, t01, t02, t03}
	c1 := caughtUpOn(1, stateful, stateful)
	c2 := caughtUpOn(2, nil, stateful)
	probing := mustAssign(t, []*ClientState{c1, c2}, stateful, stateful, config(100, 1, 1))
	checkTasks(t, "client 1 active", c1.ActiveTasks(), stateful...)
	checkTasks(t, "client 1 standby", c1.StandbyTasks())
	checkTasks(t, "client 2 active", c2.ActiveTasks())
	checkTasks(t, "client 2 standby", c2.StandbyTasks(), stateful...)
	checkProbing(t, probing, true)
}

func TestNoStandbysWithInsufficientCapacity(t *testing.T) {
	stateful := []assignment.TaskID{t00, t01}
	c1 := caughtUpOn(1, stateful, stateful)
	probing := mustAssign(t, []*ClientState{c1}, stateful, stateful, withStandbys())
	checkTasks(t, "client 1 active", c1.ActiveTasks(), t00, t01)
	checkTasks(t, "client 1 standby", c1.StandbyTasks())
	checkProbing(t, probing, false)
}

func TestActivesOnClientNotCaughtUpIfNoneIs(t *testing.T) {
	stateful := []assignment.TaskID{t00, t01}
	c1 := caughtUpOn(1, nil, stateful)
	probing := mustAssign(t, []*ClientState{c1}, stateful, stateful, withStandbys())
	checkTasks(t, "client 1 active", c1.ActiveTasks(), t00, t01)
	checkTasks(t, "client 1 standby", c1.StandbyTasks())
	checkProbing(t, probing, false)
}

func TestNoMoreThanMaxWarmupReplicasWithStandbys(t *testing.T) {
	stateful := []assignment.TaskID{t00, t01, t02, t03}
	c1 := caughtUpOn(1, stateful, stateful)
	c2 := caughtUpOn(2, nil, stateful)
	c3 := caughtUpOn(3, nil, stateful)
	probing := mustAssign(t, []*ClientState{c1, c2, c3}, stateful, stateful, withStandbys())
	// One standby per task, at most two warm-ups on top.
	standbys := c1.standby.len() + c2.standby.len() + c3.standby.len()
	if standbys < 4 || standbys > 6 {
		t.Errorf("%d standbys and warm-ups, want 4 to 6", standbys)
	}
	checkTasks(t, "client 1 active", c1.ActiveTasks(), stateful...)
	checkProbing(t, probing, true)
}

func TestStatelessTasksBalanceTotalLoad(t *testing.T) {
	stateful := []assignment.TaskID{t00, t01, t02, t03}
	all := append(slices.Clone(stateful), t10, t11, t12)
	c1 := caughtUpOn(1, stateful, stateful)
	c2 := caughtUpOn(2, nil, stateful)
	probing := mustAssign(t, []*ClientState{c1, c2}, all, stateful, withStandbys())
	// Only client 1 is caught up, so it keeps every stateful active and
	// client 2 gets every stateless one.
	checkTasks(t, "client 1 active", c1.ActiveTasks(), stateful...)
	checkTasks(t, "client 2 active", c2.ActiveTasks(), t10, t11, t12)
	checkProbing(t, probing, true)
}

func TestStatefulActivesOnAllClients(t *testing.T) {
	all := []assignment.TaskID{t00, t01, t02, t03, t10, t11, t12, t13, t20}
	c1 := NewClientStateFromLags(pid(1), 100, nil, nil, lagsOf(all, 0), nil)
	c2 := NewClientStateFromLags(pid(2), 50, nil, nil, lagsOf(all, 0), nil)
	c3 := NewClientStateFromLags(pid(3), 1, nil, nil, lagsOf(all, 0), nil)
	probing := mustAssign(t, []*ClientState{c1, c2, c3}, all, all, withoutStandbys())
	for _, c := range []*ClientState{c1, c2, c3} {
		if c.active.len() == 0 {
			t.Errorf("client %s has no active", c.id)
		}
	}
	checkProbing(t, probing, false)
}

func TestPreviousAssignmentReused(t *testing.T) {
	stateful := []assignment.TaskID{t00, t01, t02, t03}
	c1 := caughtUpOn(1, []assignment.TaskID{t00, t02}, stateful)
	c2 := caughtUpOn(2, []assignment.TaskID{t01, t03}, stateful)
	probing := mustAssign(t, []*ClientState{c1, c2}, stateful, stateful, withoutStandbys())
	checkProbing(t, probing, false)
	checkTasks(t, "client 1 active", c1.ActiveTasks(), c1.PrevActiveTasks()...)
	checkTasks(t, "client 2 active", c2.ActiveTasks(), c2.PrevActiveTasks()...)
}

func TestNoWarmupsForStatelessTasks(t *testing.T) {
	c1 := caughtUpOn(1, nil, nil)
	c2 := caughtUpOn(2, nil, nil)
	probing := mustAssign(t, []*ClientState{c1, c2}, []assignment.TaskID{t00, t01, t02, t03}, nil, withoutStandbys())
	checkProbing(t, probing, false)
	checkTasks(t, "client 1 standby", c1.StandbyTasks())
	checkTasks(t, "client 2 standby", c2.StandbyTasks())
}

func TestProbingWhenWarmupsAssigned(t *testing.T) {
	stateful := []assignment.TaskID{t00, t01}
	c1 := caughtUpOn(1, stateful, stateful)
	c2 := caughtUpOn(2, nil, stateful)
	probing := mustAssign(t, []*ClientState{c1, c2}, stateful, stateful, withoutStandbys())
	checkProbing(t, probing, true)
	if c2.standby.len() != 1 {
		t.Errorf("client 2 standbys %v, want one warm-up", c2.StandbyTasks())
	}
}

func TestStatelessTasksEvenWithoutStatefulTasks(t *testing.T) {
	all := []assignment.TaskID{t00, t01, t02, t03, t10, t11, t12}
	for _, capacities := range [][]int{{7, 7, 7}, {2, 2, 2}, {1, 2, 3}} {
		var clients []*ClientState
		for i, capacity := range capacities {
			clients = append(clients, NewClientStateFromLags(pid(byte(i+1)), capacity, nil, nil, nil, nil))
		}
		probing := mustAssign(t, clients, all, nil, withoutStandbys())
		checkProbing(t, probing, false)
		total := 0
		for _, c := range clients {
			total += c.active.len()
		}
		if total != len(all) {
			t.Errorf("capacities %v: %d actives, want %d", capacities, total, len(all))
		}
	}
}

func TestClientTagsSpreadStandbys(t *testing.T) {
	// Kafka's ClientTagAwareStandbyTaskAssignorTest layout: three zones in
	// two clusters, two standbys, the active on client 1 (zone a, cluster
	// 1): the first standby goes to another zone and cluster, the second
	// to the third zone.
	tags := func(zone, cluster string) map[string]string {
		return map[string]string{"zone": zone, "cluster": cluster}
	}
	all := []assignment.TaskID{t00}
	c1 := NewClientStateFromLags(pid(1), 1, all, nil, map[assignment.TaskID]int64{t00: assignment.LatestOffset}, tags("a", "k1"))
	c2 := NewClientStateFromLags(pid(2), 1, nil, nil, map[assignment.TaskID]int64{t00: 0}, tags("b", "k1"))
	c3 := NewClientStateFromLags(pid(3), 1, nil, nil, map[assignment.TaskID]int64{t00: 0}, tags("c", "k1"))
	c4 := NewClientStateFromLags(pid(4), 1, nil, nil, map[assignment.TaskID]int64{t00: 0}, tags("a", "k2"))
	c5 := NewClientStateFromLags(pid(5), 1, nil, nil, map[assignment.TaskID]int64{t00: 0}, tags("b", "k2"))
	c6 := NewClientStateFromLags(pid(6), 1, nil, nil, map[assignment.TaskID]int64{t00: 0}, tags("c", "k2"))
	cfg := config(100, 2, 2)
	cfg.RackAwareAssignmentTags = []string{"zone", "cluster"}
	probing := mustAssign(t, []*ClientState{c1, c2, c3, c4, c5, c6}, all, all, cfg)
	checkProbing(t, probing, false)
	checkTasks(t, "client 1 active", c1.ActiveTasks(), t00)
	zones := map[string]bool{"a": true}
	clusters := map[string]bool{}
	for _, c := range []*ClientState{c2, c3, c4, c5, c6} {
		if c.standby.contains(t00) {
			zones[c.tags["zone"]] = true
			clusters[c.tags["cluster"]] = true
		}
	}
	if len(zones) != 3 || !clusters["k2"] {
		t.Errorf("standbys in zones %v clusters %v, want all three zones and cluster k2", zones, clusters)
	}
}

func TestAssignRejectsBadInput(t *testing.T) {
	c := NewClientStateFromLags(pid(1), 1, nil, nil, nil, nil)
	if _, err := Assign([]*ClientState{c}, []assignment.TaskID{t00}, []assignment.TaskID{t00}, nil, DefaultConfig()); err == nil {
		t.Error("a stateful task without lag: no error")
	}
	zero := NewClientStateFromLags(pid(2), 0, nil, nil, nil, nil)
	if _, err := Assign([]*ClientState{zero}, []assignment.TaskID{t00}, nil, nil, DefaultConfig()); err == nil {
		t.Error("a client without capacity: no error")
	}
	if _, err := Assign(nil, []assignment.TaskID{t00}, nil, nil, DefaultConfig()); err == nil {
		t.Error("no clients: no error")
	}
	cfg := DefaultConfig()
	cfg.RackAwareAssignmentStrategy = "nearest"
	if _, err := Assign([]*ClientState{c}, nil, nil, nil, cfg); !errors.Is(err, ErrInvalid) {
		t.Errorf("strategy nearest: %v, want ErrInvalid", err)
	}
}

// TestNamedTopologyIsRefused guards that a task of a named topology is
// refused with ErrUnsupported wherever tasks enter, instead of reaching
// an order or a hash that only holds for unnamed tasks.
func TestNamedTopologyIsRefused(t *testing.T) {
	named := assignment.TaskID{Subtopology: 0, Partition: 1, NamedTopology: "orders"}
	unsupported := func(what string, err error) {
		t.Helper()
		if !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), "orders__0_1") {
			t.Errorf("%s: %v, want ErrUnsupported naming the task", what, err)
		}
	}
	lags := map[assignment.TaskID]int64{t00: 0}
	c := func() *ClientState { return NewClientStateFromLags(pid(1), 1, nil, nil, lags, nil) }
	cfg := DefaultConfig()

	_, err := Assign([]*ClientState{c()}, []assignment.TaskID{t00, named}, []assignment.TaskID{t00}, nil, cfg)
	unsupported("Assign all tasks", err)
	_, err = Assign([]*ClientState{c()}, []assignment.TaskID{t00}, []assignment.TaskID{named}, nil, cfg)
	unsupported("Assign stateful tasks", err)
	for what, client := range map[string]*ClientState{
		"previous active":  NewClientStateFromLags(pid(1), 1, []assignment.TaskID{named}, nil, lags, nil),
		"previous standby": NewClientStateFromLags(pid(1), 1, nil, []assignment.TaskID{named}, lags, nil),
		"lag":              NewClientStateFromLags(pid(1), 1, nil, nil, map[assignment.TaskID]int64{t00: 0, named: 0}, nil),
	} {
		_, err = Assign([]*ClientState{client}, []assignment.TaskID{t00}, []assignment.TaskID{t00}, nil, cfg)
		unsupported("Assign with a client's "+what, err)
	}

	fresh := NewClientState(pid(2), nil)
	unsupported("AddConsumer", fresh.AddConsumer("m", nil, map[assignment.TaskID]int64{named: assignment.LatestOffset}, ""))
	if fresh.Capacity() != 0 || len(fresh.Consumers()) != 0 {
		t.Errorf("a refused consumer was added: capacity %d, consumers %v", fresh.Capacity(), fresh.Consumers())
	}
	unsupported("Init task for partition", fresh.Init(map[assignment.TopicPartition]assignment.TaskID{tp("in", 1): named}, nil))
	unsupported("Init end offset sums", fresh.Init(nil, map[assignment.TaskID]int64{named: 10}))

	_, _, err = AssignThreads(nil, map[assignment.TaskID][]assignment.TopicPartition{named: {tp("in", 1)}}, nil)
	unsupported("AssignThreads partitions", err)
	_, _, err = AssignThreads(nil, nil, []assignment.TaskID{named})
	unsupported("AssignThreads stateful tasks", err)
}
