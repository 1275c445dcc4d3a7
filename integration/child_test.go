package integration

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"log"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/compat"
	"github.com/stoatflow/stoatflow/examples"
	"github.com/stoatflow/stoatflow/internal/failpoint"
	"github.com/stoatflow/stoatflow/internal/testcluster"
	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/state"
	"github.com/stoatflow/stoatflow/streams"
	"github.com/stoatflow/stoatflow/txn"
)

// envChild, when set, makes the test binary run one StoatFlow application
// instead of the tests: the crash tests start the binary again as a child
// and kill it with SIGKILL.
const envChild = "STOATFLOW_INTEGRATION_CHILD"

// childSpec is what a child runs, passed as JSON in envChild.
type childSpec struct {
	Topology string            `json:"topology"`
	Args     map[string]string `json:"args"`
	Files    []string          `json:"files"`
	Set      map[string]string `json:"set"`
	// Query makes the child read every store of the topology with
	// READ_COMMITTED views while it runs and print what it saw (see
	// queryStores).
	Query bool `json:"query,omitempty"`
}

func TestMain(m *testing.M) {
	if spec := os.Getenv(envChild); spec != "" {
		os.Exit(runChild(spec))
	}
	code := m.Run()
	// The three-node cluster of the cluster fault tests, if one started
	// it; its logs stay when a test failed.
	msg, err := testcluster.StopShared(code != 0)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		code = max(code, 1)
	}
	if msg != "" {
		fmt.Fprintln(os.Stderr, msg)
	}
	os.Exit(code)
}

// childHooks prints restore results as protocol lines on stdout, and the
// first successful commit of each trigger as COMMIT-TRIGGER <trigger>.
type childHooks struct {
	streams.NoHooks
	mu       sync.Mutex
	triggers map[txn.Trigger]bool
}

func (h *childHooks) OnCommit(_ int, stats txn.CommitStats, err error) {
	if err != nil {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.triggers == nil {
		h.triggers = map[txn.Trigger]bool{}
	}
	if !h.triggers[stats.Trigger] {
		h.triggers[stats.Trigger] = true
		fmt.Printf("COMMIT-TRIGGER %s\n", stats.Trigger)
	}
}

func (h *childHooks) OnRestoreStart(store string, tp state.TopicPartition, start, end int64, full bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	fmt.Printf("RESTORE-START %s %s %d %d %v\n", store, tp, start, end, full)
}

func (h *childHooks) OnRestoreEnd(store string, tp state.TopicPartition, total int64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	fmt.Printf("RESTORE-END %s %s %d\n", store, tp, total)
}

// The activity hooks print TASK-OPENED <task> when a thread opens a task:
// a fleet test tells a task closed and opened again by a rebalance from one
// kept running.
func (h *childHooks) OnPoll(int, int, time.Duration)                     {}
func (h *childHooks) OnProcess(int, kstreams.TaskID, int, time.Duration) {}
func (h *childHooks) OnRecordsLag(int, string, int32, int64)             {}
func (h *childHooks) OnRebalance(int)                                    {}
func (h *childHooks) OnTaskOpened(_ int, task kstreams.TaskID) {
	h.mu.Lock()
	defer h.mu.Unlock()
	fmt.Printf("TASK-OPENED %s\n", task)
}

// OnStandbyUpdate prints STANDBY <store> <task> when a standby (or
// warm-up) task opens a store: from then on the store follows its
// changelog, so a later restore of it starts past the offset it had.
func (h *childHooks) OnStandbyUpdate(_ int, task kstreams.TaskID, store string, records int, _ int64) {
	if records != 0 {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	fmt.Printf("STANDBY %s %s\n", store, task)
}

func (h *childHooks) OnStandbyClosed(int, kstreams.TaskID) {}

func runChild(raw string) int {
	var spec childSpec
	if err := json.Unmarshal([]byte(raw), &spec); err != nil {
		fmt.Fprintln(os.Stderr, "child:", err)
		return 2
	}
	// Microseconds: a test reads what happened within one rebalance from
	// the log.
	log.SetFlags(log.LstdFlags | log.Lmicroseconds)
	handlers := examples.ProductionHandlers()
	cfg, err := LoadConfig(spec.Files, spec.Set, compat.WithProductionHandlerClasses(handlers.Classes()...))
	if err != nil {
		fmt.Fprintln(os.Stderr, "child:", err)
		return 2
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	build, ok := topologies[spec.Topology]
	if !ok {
		fmt.Fprintln(os.Stderr, "child: no topology", spec.Topology)
		return 2
	}
	hooks := &childHooks{}
	// Every placement the child computes as its group's leader, for the
	// fleet tests to replay through Kafka Streams' leader code.
	snapshots := streams.WithAssignmentSnapshots(func(a streams.AssignmentSnapshot) {
		b, err := json.Marshal(a)
		if err != nil {
			return
		}
		hooks.mu.Lock()
		defer hooks.mu.Unlock()
		fmt.Printf("ASSIGNMENT %s\n", b)
	})
	ks, err := StartStoatFlow(ctx, build, spec.Args, cfg, streams.WithHooks(hooks), streams.WithProductionHandlers(handlers), snapshots)
	if err != nil {
		fmt.Fprintln(os.Stderr, "child:", err)
		return 1
	}
	// The handler is in place before RUNNING: a parent may send SIGTERM
	// as soon as it reads it.
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM, syscall.SIGINT)
	stopQueries := func() {}
	if spec.Query {
		stopQueries = startQueries(ks, spec)
	}
	fmt.Println("RUNNING")
	select {
	case <-sig:
	case <-ks.Done():
		stopQueries()
		fmt.Fprintln(os.Stderr, "child: stopped:", ks.Err())
		return 1
	}
	stopQueries()
	if err := ks.Close(context.Background()); err != nil {
		fmt.Fprintln(os.Stderr, "child: close:", err)
		return 1
	}
	fmt.Println("CLOSED")
	return 0
}

// requireFailpoints fails a test that needs failpoints in a binary built
// without them: its child would run without the faults it is meant to
// survive, and the test would pass without testing anything.
func requireFailpoints(t *testing.T) {
	t.Helper()
	if !failpoint.Enabled {
		t.Fatal("this test needs failpoints: run it with go test -tags failpoint (make test and make crash-soak do)")
	}
}

// child is a StoatFlow application running as a child process.
type child struct {
	cmd    *exec.Cmd
	stderr *tailBuffer
	mu     sync.Mutex
	lines  []string
	change chan struct{}
	exited chan struct{}
}

// restore is one store partition's restore as a child reported it.
type restore struct {
	store, changelog string
	start, end       int64
	full             bool
	records          int64
	done             bool
}

func startChild(t *testing.T, spec childSpec, extraEnv ...string) *child {
	t.Helper()
	for _, e := range extraEnv {
		if strings.HasPrefix(e, failpoint.EnvVar+"=") {
			requireFailpoints(t)
		}
	}
	c, err := startChildErr(spec, extraEnv...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.kill() })
	return c
}

// startChildErr starts a child; the caller kills it at its end.
func startChildErr(spec childSpec, extraEnv ...string) (*child, error) {
	raw, err := json.Marshal(spec)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(append(os.Environ(), envChild+"="+string(raw)), extraEnv...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	c := &child{cmd: cmd, stderr: &tailBuffer{max: 64 << 10}, change: make(chan struct{}), exited: make(chan struct{})}
	cmd.Stderr = c.stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			c.mu.Lock()
			c.lines = append(c.lines, sc.Text())
			close(c.change)
			c.change = make(chan struct{})
			c.mu.Unlock()
		}
		cmd.Wait()
		close(c.exited)
	}()
	return c, nil
}

func (c *child) wait(t *testing.T, line string, timeout time.Duration) {
	t.Helper()
	if err := c.waitErr(line, timeout); err != nil {
		t.Fatal(err)
	}
}

func (c *child) waitErr(line string, timeout time.Duration) error {
	deadline := time.After(timeout)
	for {
		c.mu.Lock()
		for _, l := range c.lines {
			if l == line {
				c.mu.Unlock()
				return nil
			}
		}
		ch := c.change
		c.mu.Unlock()
		select {
		case <-ch:
		case <-c.exited:
			return fmt.Errorf("child exited before %q:\n%s", line, c.stderr.String())
		case <-deadline:
			return fmt.Errorf("child: no %q within %v:\n%s", line, timeout, c.stderr.String())
		}
	}
}

// snapshots returns the placements the child computed as its group's
// leader.
func (c *child) snapshots() []streams.AssignmentSnapshot {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []streams.AssignmentSnapshot
	for _, l := range c.lines {
		if raw, ok := strings.CutPrefix(l, "ASSIGNMENT "); ok {
			var a streams.AssignmentSnapshot
			if json.Unmarshal([]byte(raw), &a) == nil {
				out = append(out, a)
			}
		}
	}
	return out
}

// restoreEnds returns every restore the child finished, in order (a
// partition restored twice counts twice).
func (c *child) restoreEnds() []finishedRestore {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []finishedRestore
	for _, l := range c.lines {
		if f := strings.Fields(l); len(f) == 4 && f[0] == "RESTORE-END" {
			n, _ := strconv.ParseInt(f[3], 10, 64)
			out = append(out, finishedRestore{changelog: f[2], records: n})
		}
	}
	return out
}

// opened returns the tasks the child opened, in order, from its index-th
// line on, and the index of the line after its last.
func (c *child) opened(index int) ([]string, int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []string
	for _, l := range c.lines[min(index, len(c.lines)):] {
		if task, ok := strings.CutPrefix(l, "TASK-OPENED "); ok {
			out = append(out, task)
		}
	}
	return out, len(c.lines)
}

func (c *child) kill() {
	_ = c.cmd.Process.Kill()
	<-c.exited
}

func (c *child) stop(t *testing.T) {
	t.Helper()
	_ = c.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-c.exited:
	case <-time.After(time.Minute):
		c.kill()
		t.Fatalf("child did not stop within a minute of SIGTERM:\n%s", c.stderr.String())
	}
	c.wait(t, "CLOSED", time.Second)
}

// restores returns the restores the child reported, by changelog partition.
func (c *child) restores() map[string]*restore {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := map[string]*restore{}
	for _, l := range c.lines {
		f := strings.Fields(l)
		switch {
		case len(f) == 6 && f[0] == "RESTORE-START":
			r := &restore{store: f[1], changelog: f[2], full: f[5] == "true"}
			fmt.Sscan(f[3], &r.start)
			fmt.Sscan(f[4], &r.end)
			out[f[2]] = r
		case len(f) == 4 && f[0] == "RESTORE-END":
			if r := out[f[2]]; r != nil {
				fmt.Sscan(f[3], &r.records)
				r.done = true
			}
		}
	}
	return out
}
