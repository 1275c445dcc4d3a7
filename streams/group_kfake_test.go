package streams_test

import (
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"

	"github.com/stoatflow/stoatflow/internal/testkafka"
	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/streams"
)

// taskOpens counts the tasks an instance's threads opened.
type taskOpens struct {
	streams.NoHooks
	mu     sync.Mutex
	opened map[kstreams.TaskID]int
}

func newTaskOpens() *taskOpens { return &taskOpens{opened: map[kstreams.TaskID]int{}} }

func (h *taskOpens) OnPoll(int, int, time.Duration)                     {}
func (h *taskOpens) OnProcess(int, kstreams.TaskID, int, time.Duration) {}
func (h *taskOpens) OnRecordsLag(int, string, int32, int64)             {}
func (h *taskOpens) OnRebalance(int)                                    {}
func (h *taskOpens) OnTaskOpened(_ int, id kstreams.TaskID) {
	h.mu.Lock()
	h.opened[id]++
	h.mu.Unlock()
}
func (h *taskOpens) snapshot() map[kstreams.TaskID]int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return clone(h.opened)
}
func clone(m map[kstreams.TaskID]int) map[kstreams.TaskID]int {
	out := make(map[kstreams.TaskID]int, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// TestKfakeCooperativeRebalanceKeepsRunningTasks: a second instance joins a
// running one under Kafka Streams' cooperative "stream" protocol. The first
// instance closes only the tasks that move and never reopens one it keeps
// (an eager rebalance closes and reopens every task); the tasks end up
// split between both, and the counts stay exactly once.
func TestKfakeCooperativeRebalanceKeepsRunningTasks(t *testing.T) {
	_, addr := startBroker(t)
	createTopics(t, addr, 4, "in", "out")
	const app = "coop"
	first := newTaskOpens()
	a := startApp(t, countTopology(t, "in", "out"), appConfig(t, addr, app, t.TempDir()), streams.WithHooks(first))
	words(t, addr, "in", 0, 200, vocab)
	checkCounts(t, readCounts(t, addr, "out", 200), wantCounts(200, vocab))
	if n := len(first.snapshot()); n != 8 {
		t.Fatalf("the first instance opened %d tasks, want the 8 of both sub-topologies", n)
	}

	second := newTaskOpens()
	b := startApp(t, countTopology(t, "in", "out"), appConfig(t, addr, app, t.TempDir()), streams.WithHooks(second))
	cl, err := testkafka.NewClient(addr)
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	adm := kadm.NewClient(cl)
	deadline := time.Now().Add(time.Minute)
	for {
		g := describeGroup(t, adm, app)
		split := g.State == "Stable" && g.Protocol == "stream" && len(g.Members) == 2
		for _, m := range g.Members {
			if ma, ok := m.Assigned.AsConsumer(); !ok || len(ma.Topics) == 0 {
				split = false
			}
		}
		if split && len(second.snapshot()) > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the tasks were not split between both instances in a minute: group %s, protocol %q, %d members, second opened %v",
				g.State, g.Protocol, len(g.Members), second.snapshot())
		}
		time.Sleep(100 * time.Millisecond)
	}
	words(t, addr, "in", 200, 200, vocab)
	checkCounts(t, readCounts(t, addr, "out", 400), wantCounts(400, vocab))

	for id, n := range first.snapshot() {
		if n != 1 {
			t.Errorf("the first instance opened task %s %d times: a task it kept was closed and reopened", id, n)
		}
	}
	moved := second.snapshot()
	for id, n := range moved {
		if n != 1 {
			t.Errorf("the second instance opened task %s %d times", id, n)
		}
	}
	if len(moved) != 4 {
		t.Errorf("the second instance took %d tasks (%v), want 4 of 8", len(moved), moved)
	}
	t.Logf("tasks moved to the joining instance: %d of 8, none reopened on the instance that kept them", len(moved))
	closeApp(t, b)
	closeApp(t, a)
}

// TestKfakeRestartOnEmptyStateDirReplacesItsStaticMember: an instance
// stops (a static member stays in the group until its session expires),
// its state directory is lost, and it starts again at the same path with
// a new process id. Its members take the old ones' places at once: the
// group never holds the old member beside the new one, and the restarted
// instance holds every partition without waiting out the session.
func TestKfakeRestartOnEmptyStateDirReplacesItsStaticMember(t *testing.T) {
	_, addr := startBroker(t)
	createTopics(t, addr, 2, "in", "out")
	const app = "lostdir"
	dir := t.TempDir()
	a := startApp(t, countTopology(t, "in", "out"), appConfig(t, addr, app, dir))
	words(t, addr, "in", 0, 50, vocab)
	checkCounts(t, readCounts(t, addr, "out", 50), wantCounts(50, vocab))
	closeApp(t, a)
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if err := os.RemoveAll(filepath.Join(dir, e.Name())); err != nil {
			t.Fatal(err)
		}
	}
	began := time.Now()
	b := startApp(t, countTopology(t, "in", "out"), appConfig(t, addr, app, dir))
	// The old member's session is 6 s (appConfig): an instance that had to
	// wait it out would take that long to run.
	if took := time.Since(began); took >= 5*time.Second {
		t.Errorf("the restarted instance took %v to run: it waited out its old member's session", took.Round(time.Millisecond))
	}
	if a.ProcessID() == b.ProcessID() {
		t.Fatalf("the restarted instance kept process id %s on an empty state directory", a.ProcessID())
	}
	cl, err := testkafka.NewClient(addr)
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	g := describeGroup(t, kadm.NewClient(cl), app)
	if len(g.Members) != 1 {
		t.Fatalf("the group holds %d members after the restart, want the restarted instance's one member in the old one's place", len(g.Members))
	}
	words(t, addr, "in", 50, 50, vocab)
	checkCounts(t, readCounts(t, addr, "out", 100), wantCounts(100, vocab))
	closeApp(t, b)
}

// TestKfakeStaticMemberRestartsWithNewEndpoint: an instance stops (its
// static member stays in the group) and starts again on its state
// directory with another application.server. The coordinator hands a
// returning static member its old assignment without a rebalance, so the
// group's host maps still name the old endpoint; the member sees that its
// endpoint is missing and rejoins, and the maps then name the new one
// only.
func TestKfakeStaticMemberRestartsWithNewEndpoint(t *testing.T) {
	_, addr := startBroker(t)
	createTopics(t, addr, 2, "in", "out")
	const app = "moved"
	dir := t.TempDir()
	a := startApp(t, countTopology(t, "in", "out"), appConfig(t, addr, app, dir, "application.server=old-host:7070"))
	words(t, addr, "in", 0, 20, vocab)
	checkCounts(t, readCounts(t, addr, "out", 20), wantCounts(20, vocab))
	closeApp(t, a)

	b := startApp(t, countTopology(t, "in", "out"), appConfig(t, addr, app, dir, "application.server=new-host:7071"))
	hosts := func() []string {
		var out []string
		for _, m := range b.AllMetadata() {
			out = append(out, m.Host.String())
		}
		return out
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		hs := hosts()
		if len(hs) == 1 && hs[0] == "new-host:7071" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the group's host maps name %v 30 s after the restart, want only new-host:7071", hs)
		}
		time.Sleep(100 * time.Millisecond)
	}
	words(t, addr, "in", 20, 20, vocab)
	checkCounts(t, readCounts(t, addr, "out", 40), wantCounts(40, vocab))
	closeApp(t, b)
}
