package integration

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/internal/assignment"
	"github.com/stoatflow/stoatflow/internal/taskassign"
	"github.com/stoatflow/stoatflow/streams"
)

// Group states in the oracle's format (AssignorOracle.java in the
// reference project).
type oracleGroup struct {
	ID         int                 `json:"id"`
	Config     oracleConfig        `json:"config"`
	Tasks      map[string][]string `json:"tasks"`      // task -> "topic:partition"
	EndOffsets map[string]int64    `json:"endOffsets"` // stateful task -> end offset sum
	Leader     string              `json:"leader"`
	Clients    []oracleClient      `json:"clients"`
	// Changelogs are the stateful tasks' changelog partitions, Replicas
	// the racks of each partition's replicas ("" for a broker without
	// one): what rack-aware assignment weighs.
	Changelogs map[string][]string `json:"changelogs,omitempty"`
	Replicas   map[string][]string `json:"replicas,omitempty"`
	tasks      map[assignment.TaskID][]assignment.TopicPartition
	racks      string // how withRacks drew the racks, for the summary
}

type oracleConfig struct {
	NumStandby     int      `json:"numStandby"`
	MaxWarmup      int      `json:"maxWarmup"`
	AcceptableLag  int64    `json:"acceptableLag"`
	ProbingMs      int64    `json:"probingMs"`
	Tags           []string `json:"tags,omitempty"`
	Strategy       string   `json:"strategy,omitempty"` // rack.aware.assignment.strategy; "" is none
	TrafficCost    *int     `json:"trafficCost,omitempty"`
	NonOverlapCost *int     `json:"nonOverlapCost,omitempty"`
	// Assignor is task.assignor.class: a KIP-924 assignor's class name,
	// "" for the default HighAvailabilityTaskAssignor.
	Assignor string `json:"assignor,omitempty"`
}

type oracleClient struct {
	ID        string            `json:"id"`
	Tags      map[string]string `json:"tags,omitempty"`
	Consumers []oracleConsumer  `json:"consumers"`
}

type oracleConsumer struct {
	ID    string           `json:"id"`
	Owned []string         `json:"owned,omitempty"`
	Sums  map[string]int64 `json:"sums,omitempty"`
	Rack  string           `json:"rack,omitempty"` // client.rack; "" is none
}

// oracleAnswer is one placement, from the JVM or from taskassign.
type oracleAnswer struct {
	ID        int                       `json:"id"`
	Error     string                    `json:"error,omitempty"`
	Probing   bool                      `json:"probing"`
	Clients   map[string]oracleClientAt `json:"clients"`
	Consumers map[string]oracleThreadAt `json:"consumers"`
	// IdentityDiffers, for a KIP-924 assignor, says whether the JVM's own
	// task infos (hashed by identity) gave another placement than the
	// ones in task order the comparison uses.
	IdentityDiffers *bool `json:"identityDiffers,omitempty"`
}

type oracleClientAt struct {
	Active  []string `json:"active"`
	Standby []string `json:"standby"`
	Warmup  []string `json:"-"` // taskassign only: Kafka does not tell warm-ups from standbys
}

type oracleThreadAt struct {
	Active     []string `json:"active"`
	Partitions []string `json:"partitions"`
	Standby    []string `json:"standby"`
	Next       int64    `json:"next"`
}

// runAssignorOracle has the jar's AssignorOracle place the n groups of in
// (one JSON line each) and returns its answers.
func runAssignorOracle(ctx context.Context, t *testing.T, jar string, in *bytes.Buffer, n int) []oracleAnswer {
	t.Helper()
	cmd := exec.CommandContext(ctx, "java", "-Xmx512m", "-XX:TieredStopAtLevel=1", "-cp", jar,
		"org.apache.kafka.streams.processor.internals.AssignorOracle")
	cmd.Stdin = in
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("AssignorOracle: %v\n%s", err, tail(stderr.String(), 20))
	}
	var answers []oracleAnswer
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var a oracleAnswer
		if err := json.Unmarshal(sc.Bytes(), &a); err != nil {
			t.Fatalf("AssignorOracle answer %q: %v", sc.Text(), err)
		}
		answers = append(answers, a)
	}
	if len(answers) != n {
		t.Fatalf("AssignorOracle answered %d groups of %d\n%s", len(answers), n, tail(stderr.String(), 20))
	}
	return answers
}

// replayLeaderSnapshots has Kafka Streams 4.4's leader code (the jar's
// AssignorOracle) place every group a StoatFlow leader placed in a live
// run (the children's ASSIGNMENT lines, streams.AssignmentSnapshot) and
// checks that it places every client's active and standby tasks as the
// StoatFlow leader did, and as taskassign does on the same input.
func replayLeaderSnapshots(t *testing.T, snaps []streams.AssignmentSnapshot) {
	t.Helper()
	if len(snaps) == 0 {
		t.Errorf("no StoatFlow leader placement was captured to replay through Kafka Streams' assignor")
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	jar := assignorJar(ctx, t)
	var in bytes.Buffer
	groups := make([]*oracleGroup, len(snaps))
	for i, sn := range snaps {
		g := &oracleGroup{ID: i, Tasks: sn.Tasks, EndOffsets: sn.EndOffsets, Leader: sn.Leader,
			Config: oracleConfig{NumStandby: sn.NumStandbyReplicas, MaxWarmup: sn.MaxWarmupReplicas, AcceptableLag: sn.AcceptableRecoveryLag,
				ProbingMs: sn.ProbingRebalanceIntervalMs, Tags: sn.RackAwareAssignmentTags, Strategy: sn.RackAwareStrategy, Assignor: sn.TaskAssignor},
			tasks: map[assignment.TaskID][]assignment.TopicPartition{}}
		for _, c := range sn.Clients {
			oc := oracleClient{ID: c.ProcessID, Tags: c.Tags}
			for _, m := range c.Consumers {
				oc.Consumers = append(oc.Consumers, oracleConsumer{ID: m.MemberID, Owned: m.Owned, Sums: m.OffsetSums, Rack: m.Rack})
			}
			g.Clients = append(g.Clients, oc)
		}
		for task, tps := range sn.Tasks {
			id, err := assignment.ParseTaskID(task)
			if err != nil {
				t.Fatal(err)
			}
			for _, tp := range tps {
				g.tasks[id] = append(g.tasks[id], parsePartition(tp))
			}
		}
		groups[i] = g
		line, err := json.Marshal(g)
		if err != nil {
			t.Fatal(err)
		}
		in.Write(line)
		in.WriteByte('\n')
	}
	answers := runAssignorOracle(ctx, t, jar, &in, len(groups))
	for i, sn := range snaps {
		want := answers[i]
		if want.Error != "" {
			t.Errorf("captured group %d: Kafka Streams' leader failed: %s\ninput: %s", i, want.Error, mustJSON(groups[i]))
			continue
		}
		for pid, at := range sn.Placement {
			w := want.Clients[pid]
			if !slices.Equal(w.Active, at.Active) || !slices.Equal(w.Standby, at.Standby) {
				t.Errorf("captured group %d: client %s: the StoatFlow leader placed active %v standby %v, Kafka Streams' leader active %v standby %v\ninput: %s",
					i, pid, at.Active, at.Standby, w.Active, w.Standby, mustJSON(groups[i]))
			}
		}
		if got := goAssign(groups[i]); compareAnswers(got, want) != "" {
			t.Errorf("captured group %d: taskassign differs from Kafka Streams: %s", i, compareAnswers(got, want))
		}
	}
	t.Logf("%d placements StoatFlow leaders computed in the live run, replayed through Kafka Streams 4.4's leader code: identical", len(snaps))
}

// TestAssignmentMatchesKafkaStreams runs Kafka Streams 4.4's own leader
// code (HighAvailabilityTaskAssignor with its RackAwareTaskAssignor, then
// StreamsPartitionAssignor's thread-level distribution and cooperative
// hold-back, through AssignorOracle in the reference project) and
// internal/taskassign on the same 2,500 random groups, and requires the
// same placement in every one:
// each client's actives and standbys (warm-ups among them) and the
// probing flag, and each consumer's partitions, active tasks, standbys and
// follow-up rebalance. The groups vary the clients (1-6), their threads
// (1-4), sub-topologies (1-4) with 1-12 partitions and one or two source
// topics, stateful and stateless sub-topologies, previous owners and
// standbys, lags around acceptable.recovery.lag (with running actives,
// corrupted and unknown offset sums), num.standby.replicas 0-2,
// max.warmup.replicas 1-3 (Kafka refuses 0), and client tags with
// rack.aware.assignment.tags in some. The second 1,000 groups have racks
// (withRacks): rack.aware.assignment.strategy min_traffic or
// balance_subtopology (none in a few), default or random costs, consumers
// and replicas in 1-4 racks, changelogs (a source topic as one in some),
// and in about a third of them a missing rack that turns rack awareness
// off (a consumer without one, a client's consumers in two racks, a
// source partition missing from the metadata or without replicas, a
// broker without rack, a changelog topic not found). The last 500 groups
// run with task.assignor.class = Kafka's KIP-924 StickyTaskAssignor,
// through the leader's custom-assignor path (stickyGroup): the same kinds
// of groups, every stateful task with changelogs, some previous actives
// claimed by two clients, up to 14 clients in some (larger hash tables),
// and racks with both costs configured (the KIP-924 rack-aware
// optimizations) in about two fifths. Kafka Streams iterates the tasks
// it gives standbys in an order that changes from one JVM to the next
// (DefaultTaskInfo hashes by identity); the oracle pins it to task order,
// the order taskassign takes, and reports how often the JVM's own order
// would have placed differently. It needs a JDK and Maven, no broker.
// STOATFLOW_ASSIGN_SEED picks another seed.
func TestAssignmentMatchesKafkaStreams(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	jar := assignorJar(ctx, t)

	seed := uint64(20250601)
	if s := os.Getenv("STOATFLOW_ASSIGN_SEED"); s != "" {
		if _, err := fmt.Sscan(s, &seed); err != nil {
			t.Fatalf("STOATFLOW_ASSIGN_SEED=%q: %v", s, err)
		}
	}
	rng := rand.New(rand.NewPCG(seed, 0x5EED))
	rackRng := rand.New(rand.NewPCG(seed, 0x7AC4))
	stickyRng := rand.New(rand.NewPCG(seed, 0x571C))
	const plain, racked, sticky = 1000, 1000, 500
	const n = plain + racked + sticky
	groups := make([]*oracleGroup, n)
	var in bytes.Buffer
	for i := range groups {
		switch {
		case i < plain:
			groups[i] = randomGroup(rng, i)
		case i < plain+racked:
			groups[i] = randomGroup(rng, i)
			withRacks(rackRng, groups[i])
		default:
			groups[i] = stickyGroup(stickyRng, i)
		}
		line, err := json.Marshal(groups[i])
		if err != nil {
			t.Fatal(err)
		}
		in.Write(line)
		in.WriteByte('\n')
	}

	start := time.Now()
	answers := runAssignorOracle(ctx, t, jar, &in, n)
	t.Logf("%d groups, the JVM answered in %v", n, time.Since(start).Round(time.Millisecond))

	matched, probing, heldBack, warmups, moved := 0, 0, 0, 0, 0
	byRacks := map[string]int{}
	var st stickyFigures
	for i, g := range groups {
		want := answers[i]
		got := goAssign(g)
		if want.Error != "" || got.Error != "" {
			t.Fatalf("group %d: Kafka error %q, taskassign error %q\ninput: %s", i, want.Error, got.Error, mustJSON(g))
		}
		if diff := compareAnswers(got, want); diff != "" {
			t.Fatalf("group %d differs after %d matching groups: %s\ninput: %s\nKafka:      %s\ntaskassign: %s",
				i, matched, diff, mustJSON(g), mustJSON(want), mustJSON(got))
		}
		matched++
		if g.Config.Assignor != "" {
			st.add(g, got, want)
			continue
		}
		if g.racks != "" {
			byRacks[g.racks]++
			if !sameClients(got, goAssignWithout(g)) {
				moved++ // the rack-aware optimization changed the placement
			}
		}
		if want.Probing {
			probing++
		}
		for _, c := range want.Consumers {
			if c.Next == 0 {
				heldBack++
				break
			}
		}
		for _, c := range got.Clients {
			if len(c.Warmup) > 0 {
				warmups++
				break
			}
		}
	}
	t.Logf("%d of %d groups placed identically (%d with a probing rebalance, %d with warm-ups, %d holding tasks back)",
		matched, n, probing, warmups, heldBack)
	var kinds []string
	for _, k := range slices.Sorted(mapsKeys(byRacks)) {
		kinds = append(kinds, fmt.Sprintf("%s %d", k, byRacks[k]))
	}
	t.Logf("%d groups with racks: %s; the rack-aware placement differs from strategy none's in %d",
		racked, strings.Join(kinds, ", "), moved)
	t.Logf("%d groups with the KIP-924 StickyTaskAssignor: %d with racks, whose rack-aware placement differs from strategy none's in %d; "+
		"%d holding tasks back; the JVM's identity-hashed task order would place differently in %d (%d of the %d with standbys and two or more stateful tasks)",
		sticky, st.racked, st.rackMoved, st.heldBack, st.identityDiffers, st.identityDiffersStandbys, st.withStandbys)
	t.Logf("previous actives moved: %d of %d by the sticky assignor, %d by the HighAvailabilityTaskAssignor on the same groups",
		st.stickyMoves, st.previous, st.haMoves)
}

// stickyFigures sums up the StickyTaskAssignor groups.
type stickyFigures struct {
	racked, rackMoved, heldBack                            int
	identityDiffers, identityDiffersStandbys, withStandbys int
	previous, stickyMoves, haMoves                         int
}

func (f *stickyFigures) add(g *oracleGroup, got, want oracleAnswer) {
	if g.Config.Strategy != "" && g.Config.Strategy != taskassign.RackAwareStrategyNone {
		f.racked++
		if !sameClients(got, goAssignWithout(g)) {
			f.rackMoved++
		}
	}
	for _, c := range want.Consumers {
		if c.Next == 0 {
			f.heldBack++
			break
		}
	}
	standbys := g.Config.NumStandby > 0 && len(g.EndOffsets) > 1
	if standbys {
		f.withStandbys++
	}
	if want.IdentityDiffers != nil && *want.IdentityDiffers {
		f.identityDiffers++
		if standbys {
			f.identityDiffersStandbys++
		}
	}
	// Where the previous actives went, under both assignors.
	prev := previousActives(g)
	f.previous += len(prev)
	ha := *g
	ha.Config.Assignor = ""
	for _, a := range []struct {
		answer oracleAnswer
		count  *int
	}{{got, &f.stickyMoves}, {goAssign(&ha), &f.haMoves}} {
		for id, c := range a.answer.Clients {
			for _, task := range c.Active {
				if owners, ok := prev[task]; ok && !owners[id] {
					*a.count++
				}
			}
		}
	}
}

// previousActives are the tasks some client ran as active before (a
// consumer owned its partitions or reported it running), with those
// clients.
func previousActives(g *oracleGroup) map[string]map[string]bool {
	owner := map[string]string{}
	for task, tps := range g.Tasks {
		for _, tp := range tps {
			owner[tp] = task
		}
	}
	out := map[string]map[string]bool{}
	add := func(task, client string) {
		if out[task] == nil {
			out[task] = map[string]bool{}
		}
		out[task][client] = true
	}
	for _, c := range g.Clients {
		for _, co := range c.Consumers {
			for _, tp := range co.Owned {
				if task, ok := owner[tp]; ok {
					add(task, c.ID)
				}
			}
			for task, sum := range co.Sums {
				if sum == assignment.LatestOffset {
					add(task, c.ID)
				}
			}
		}
	}
	return out
}

// sameClients reports whether two answers place the same tasks on each
// client.
func sameClients(a, b oracleAnswer) bool {
	return compareAnswers(oracleAnswer{Clients: a.Clients}, oracleAnswer{Clients: b.Clients}) == ""
}

// goAssignWithout is taskassign's answer for the group with strategy none.
func goAssignWithout(g *oracleGroup) oracleAnswer {
	none := *g
	none.Config.Strategy = ""
	return goAssign(&none)
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return err.Error()
	}
	return string(b)
}

// compareAnswers describes the first difference, or returns "".
func compareAnswers(got, want oracleAnswer) string {
	if got.Probing != want.Probing {
		return fmt.Sprintf("probing rebalance: Kafka %v, taskassign %v", want.Probing, got.Probing)
	}
	for _, id := range slices.Sorted(mapsKeys(want.Clients)) {
		w, g := want.Clients[id], got.Clients[id]
		if !slices.Equal(w.Active, g.Active) {
			return fmt.Sprintf("client %s active: Kafka %v, taskassign %v", id, w.Active, g.Active)
		}
		if !slices.Equal(w.Standby, g.Standby) {
			return fmt.Sprintf("client %s standby: Kafka %v, taskassign %v (warm-ups %v)", id, w.Standby, g.Standby, g.Warmup)
		}
		for _, t := range g.Warmup {
			if !slices.Contains(w.Standby, t) {
				return fmt.Sprintf("client %s warm-up %s is no standby in Kafka's %v", id, t, w.Standby)
			}
		}
	}
	if len(got.Clients) != len(want.Clients) {
		return fmt.Sprintf("%d clients in Kafka's answer, %d in taskassign's", len(want.Clients), len(got.Clients))
	}
	for _, id := range slices.Sorted(mapsKeys(want.Consumers)) {
		w, g := want.Consumers[id], got.Consumers[id]
		if !slices.Equal(w.Partitions, g.Partitions) || !slices.Equal(w.Active, g.Active) {
			return fmt.Sprintf("consumer %s active: Kafka %v on %v, taskassign %v on %v", id, w.Active, w.Partitions, g.Active, g.Partitions)
		}
		if !slices.Equal(w.Standby, g.Standby) {
			return fmt.Sprintf("consumer %s standby: Kafka %v, taskassign %v", id, w.Standby, g.Standby)
		}
		if w.Next != g.Next {
			return fmt.Sprintf("consumer %s next rebalance: Kafka %d, taskassign %d", id, w.Next, g.Next)
		}
	}
	if len(got.Consumers) != len(want.Consumers) {
		return fmt.Sprintf("%d consumers in Kafka's answer, %d in taskassign's", len(want.Consumers), len(got.Consumers))
	}
	return ""
}

func mapsKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

func taskStrings(ts []assignment.TaskID) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.String()
	}
	return out
}

// goAssign is taskassign's answer for a group.
func goAssign(g *oracleGroup) oracleAnswer {
	fail := func(err error) oracleAnswer { return oracleAnswer{ID: g.ID, Error: err.Error()} }
	taskForPartition := map[assignment.TopicPartition]assignment.TaskID{}
	var all []assignment.TaskID
	for t, tps := range g.tasks {
		all = append(all, t)
		for _, tp := range tps {
			taskForPartition[tp] = t
		}
	}
	end := map[assignment.TaskID]int64{}
	var stateful []assignment.TaskID
	for s, v := range g.EndOffsets {
		t, err := assignment.ParseTaskID(s)
		if err != nil {
			return fail(err)
		}
		end[t] = v
		stateful = append(stateful, t)
	}
	var clients []*taskassign.ClientState
	byID := map[string]*taskassign.ClientState{}
	for _, oc := range g.Clients {
		id, err := assignment.ParseProcessID(oc.ID)
		if err != nil {
			return fail(err)
		}
		c := taskassign.NewClientState(id, oc.Tags)
		for _, co := range oc.Consumers {
			var owned []assignment.TopicPartition
			for _, p := range co.Owned {
				owned = append(owned, parsePartition(p))
			}
			sums := map[assignment.TaskID]int64{}
			for s, v := range co.Sums {
				t, err := assignment.ParseTaskID(s)
				if err != nil {
					return fail(err)
				}
				sums[t] = v
			}
			if err := c.AddConsumer(co.ID, owned, sums, co.Rack); err != nil {
				return fail(err)
			}
		}
		if err := c.Init(taskForPartition, end); err != nil {
			return fail(err)
		}
		clients = append(clients, c)
		byID[oc.ID] = c
	}
	cfg := taskassign.DefaultConfig()
	cfg.NumStandbyReplicas = g.Config.NumStandby
	cfg.MaxWarmupReplicas = g.Config.MaxWarmup
	cfg.AcceptableRecoveryLag = g.Config.AcceptableLag
	cfg.ProbingRebalanceIntervalMs = g.Config.ProbingMs
	cfg.RackAwareAssignmentTags = g.Config.Tags
	cfg.RackAwareAssignmentStrategy = g.Config.Strategy
	if cfg.RackAwareAssignmentStrategy == "" {
		cfg.RackAwareAssignmentStrategy = taskassign.RackAwareStrategyNone
	}
	cfg.RackAwareTrafficCost = g.Config.TrafficCost
	cfg.RackAwareNonOverlapCost = g.Config.NonOverlapCost
	racks := &taskassign.Racks{SourcePartitions: g.tasks,
		ChangelogPartitions: map[assignment.TaskID][]assignment.TopicPartition{},
		Replicas:            map[assignment.TopicPartition][]string{}}
	for s, tps := range g.Changelogs {
		t, err := assignment.ParseTaskID(s)
		if err != nil {
			return fail(err)
		}
		for _, p := range tps {
			racks.ChangelogPartitions[t] = append(racks.ChangelogPartitions[t], parsePartition(p))
		}
	}
	for p, rs := range g.Replicas {
		racks.Replicas[parsePartition(p)] = rs
	}
	var probing bool
	var err error
	switch g.Config.Assignor {
	case "":
		probing, err = taskassign.Assign(clients, all, stateful, racks, cfg)
	case taskassign.StickyTaskAssignorClass:
		// The clients in the order the leader met them: the oracle's
		// HashMap of client metadata is filled in the group's order.
		err = taskassign.AssignSticky(clients, all, stateful, racks, cfg)
	default:
		err = fmt.Errorf("no Go port of task assignor %s", g.Config.Assignor)
	}
	if err != nil {
		return fail(err)
	}
	a := oracleAnswer{ID: g.ID, Probing: probing, Clients: map[string]oracleClientAt{}, Consumers: map[string]oracleThreadAt{}}
	for _, c := range clients {
		a.Clients[c.ProcessID().String()] = oracleClientAt{
			Active:  taskStrings(c.ActiveTasks()),
			Standby: taskStrings(c.StandbyTasks()),
			Warmup:  taskStrings(c.WarmupTasks()),
		}
	}
	if leader := byID[g.Leader]; probing && leader != nil {
		leader.SetFollowupRebalance(true)
	}
	threads, _, err := taskassign.AssignThreads(clients, g.tasks, stateful)
	if err != nil {
		return fail(err)
	}
	for member, ca := range threads {
		at := oracleThreadAt{Active: taskStrings(ca.Active), Standby: taskStrings(ca.Standby), Next: -1}
		for _, tp := range ca.Partitions {
			at.Partitions = append(at.Partitions, fmt.Sprintf("%s:%d", tp.Topic, tp.Partition))
		}
		switch ca.Followup {
		case taskassign.FollowupNow:
			at.Next = 0
		case taskassign.FollowupProbing:
			at.Next = g.Config.ProbingMs
		}
		a.Consumers[member] = at
	}
	return a
}

func parsePartition(s string) assignment.TopicPartition {
	i := strings.LastIndexByte(s, ':')
	var p int32
	fmt.Sscan(s[i+1:], &p) //nolint:errcheck // written by randomGroup
	return assignment.TopicPartition{Topic: s[:i], Partition: p}
}

// randomGroup draws one group: its topology, configuration, clients and
// what they owned and reported from a previous generation.
func randomGroup(rng *rand.Rand, id int) *oracleGroup {
	g := &oracleGroup{ID: id, Tasks: map[string][]string{}, EndOffsets: map[string]int64{},
		tasks: map[assignment.TaskID][]assignment.TopicPartition{}}
	lags := []int64{0, 10, 100, 1000, 10000}
	g.Config = oracleConfig{
		NumStandby:    rng.IntN(3),
		MaxWarmup:     1 + rng.IntN(3),
		AcceptableLag: lags[rng.IntN(len(lags))],
		ProbingMs:     60000 + int64(rng.IntN(10))*60000,
	}
	if rng.IntN(20) == 0 {
		g.Config.AcceptableLag = math.MaxInt64
	}
	tagged := rng.IntN(4) == 0
	if tagged {
		g.Config.Tags = []string{"zone", "cluster"}[:1+rng.IntN(2)]
	}

	subtopologies := 1 + rng.IntN(4)
	var allTasks, statefulTasks []assignment.TaskID
	for s := range subtopologies {
		partitions := 1 + rng.IntN(12)
		topics := 1 + rng.IntN(2)
		stateful := rng.IntN(10) < 6
		for p := range partitions {
			t := assignment.TaskID{Subtopology: int32(s), Partition: int32(p)}
			for k := range topics {
				tp := assignment.TopicPartition{Topic: fmt.Sprintf("in-%d-%c", s, 'a'+k), Partition: int32(p)}
				g.tasks[t] = append(g.tasks[t], tp)
				g.Tasks[t.String()] = append(g.Tasks[t.String()], fmt.Sprintf("%s:%d", tp.Topic, tp.Partition))
			}
			allTasks = append(allTasks, t)
			if stateful {
				var end int64
				if rng.IntN(8) > 0 {
					end = int64(rng.IntN(50000))
				}
				g.EndOffsets[t.String()] = end
				statefulTasks = append(statefulTasks, t)
			}
		}
	}

	nClients := 1 + rng.IntN(6)
	zones, clusters := []string{"eu-1a", "eu-1b", "eu-1c"}, []string{"k8s-1", "k8s-2"}
	for c := range nClients {
		var pid [16]byte
		for i := range pid {
			pid[i] = byte(rng.IntN(256))
		}
		oc := oracleClient{ID: assignment.ProcessID(pid).String()}
		if tagged {
			oc.Tags = map[string]string{"zone": zones[rng.IntN(len(zones))], "cluster": clusters[rng.IntN(len(clusters))]}
			if rng.IntN(10) == 0 {
				delete(oc.Tags, "cluster")
			}
		}
		threads := 1 + rng.IntN(4)
		for k := range threads {
			oc.Consumers = append(oc.Consumers, oracleConsumer{ID: fmt.Sprintf("member-%d-%d-%04x", c, k, rng.IntN(1<<16))})
		}
		g.Clients = append(g.Clients, oc)
	}
	g.Leader = g.Clients[rng.IntN(nClients)].ID

	// A previous generation: some tasks had an owner, some clients kept
	// state of stateful tasks. Within a client a task is reported by one
	// consumer only (Kafka merges the reports in a hash order).
	fresh := rng.IntN(6) == 0 // a group starting from nothing
	reported := map[[2]int]bool{}
	for _, t := range allTasks {
		if fresh || rng.IntN(5) == 0 {
			continue
		}
		ci := rng.IntN(nClients)
		oc := &g.Clients[ci]
		co := &oc.Consumers[rng.IntN(len(oc.Consumers))]
		if rng.IntN(12) > 0 { // owned, unless it was revoked already
			co.Owned = append(co.Owned, g.Tasks[t.String()]...)
		}
		if end, ok := g.EndOffsets[t.String()]; ok {
			if co.Sums == nil {
				co.Sums = map[string]int64{}
			}
			if rng.IntN(8) > 0 {
				co.Sums[t.String()] = assignment.LatestOffset
			} else {
				co.Sums[t.String()] = randomOffsetSum(rng, end, g.Config.AcceptableLag)
			}
			reported[[2]int{ci, int(t.Subtopology)<<16 | int(t.Partition)}] = true
		}
	}
	for _, t := range statefulTasks {
		end := g.EndOffsets[t.String()]
		for ci := range g.Clients {
			key := [2]int{ci, int(t.Subtopology)<<16 | int(t.Partition)}
			if fresh || reported[key] || rng.IntN(3) > 0 {
				continue
			}
			reported[key] = true
			oc := &g.Clients[ci]
			co := &oc.Consumers[rng.IntN(len(oc.Consumers))]
			if co.Sums == nil {
				co.Sums = map[string]int64{}
			}
			co.Sums[t.String()] = randomOffsetSum(rng, end, g.Config.AcceptableLag)
		}
	}
	return g
}

// randomOffsetSum is a standby's or restoring task's offset sum: a lag
// just under, at or over the acceptable one, sometimes far behind, past
// the end (a corrupted task) or unknown.
func randomOffsetSum(rng *rand.Rand, end, acceptable int64) int64 {
	if acceptable == math.MaxInt64 {
		acceptable = 1000
	}
	var lag int64
	switch rng.IntN(10) {
	case 0:
		return end + 1 + int64(rng.IntN(100))
	case 1:
		return assignment.UnknownOffsetSum
	case 2, 3:
		lag = int64(rng.IntN(int(end) + 1))
	default:
		lag = acceptable + int64(rng.IntN(5)) - 2
	}
	return max(end-lag, 0)
}

// withRacks makes a group rack-aware: a strategy and costs, a rack for
// every consumer, changelogs for the stateful tasks and the racks of every
// partition's replicas; then, in about a third of the groups, breaks one
// thing that turns rack awareness off. g.racks names what was drawn.
func withRacks(rng *rand.Rand, g *oracleGroup) {
	strategies := []string{taskassign.RackAwareStrategyMinTraffic, taskassign.RackAwareStrategyBalanceSubtopology}
	g.Config.Strategy = strategies[rng.IntN(2)]
	if rng.IntN(12) == 0 {
		g.Config.Strategy = taskassign.RackAwareStrategyNone
	}
	if rng.IntN(3) == 0 {
		traffic, nonOverlap := rng.IntN(21), rng.IntN(6)
		g.Config.TrafficCost, g.Config.NonOverlapCost = &traffic, &nonOverlap
	}
	racks := []string{"az-a", "az-b", "az-c", "az-d"}[:1+rng.IntN(4)]
	for i := range g.Clients {
		rack := racks[rng.IntN(len(racks))]
		for k := range g.Clients[i].Consumers {
			g.Clients[i].Consumers[k].Rack = rack
		}
	}
	replicas := func() []string {
		rs := make([]string, 1+rng.IntN(3))
		for i := range rs {
			rs[i] = racks[rng.IntN(len(racks))]
		}
		return rs
	}
	// Maps are walked in key order, so that the seed alone fixes the group.
	g.Replicas = map[string][]string{}
	for _, task := range slices.Sorted(mapsKeys(g.Tasks)) {
		for _, p := range g.Tasks[task] {
			g.Replicas[p] = replicas()
		}
	}
	// Changelogs: one or two stores per stateful sub-topology, or the
	// source topic itself (a source table).
	g.Changelogs = map[string][]string{}
	stores := map[int32][]string{}
	stateful := slices.Sorted(mapsKeys(g.EndOffsets))
	for _, s := range stateful {
		t, _ := assignment.ParseTaskID(s)
		if _, ok := stores[t.Subtopology]; ok {
			continue
		}
		if rng.IntN(5) == 0 {
			stores[t.Subtopology] = []string{fmt.Sprintf("in-%d-a", t.Subtopology)}
			continue
		}
		for k := range 1 + rng.IntN(2) {
			stores[t.Subtopology] = append(stores[t.Subtopology], fmt.Sprintf("app-store-%d-%d-changelog", t.Subtopology, k))
		}
	}
	for _, s := range stateful {
		t, _ := assignment.ParseTaskID(s)
		for _, topic := range stores[t.Subtopology] {
			p := fmt.Sprintf("%s:%d", topic, t.Partition)
			g.Changelogs[s] = append(g.Changelogs[s], p)
			if _, ok := g.Replicas[p]; !ok {
				g.Replicas[p] = replicas()
			}
		}
	}
	g.racks = g.Config.Strategy + " with every rack"

	anyOf := func(m map[string][]string) (string, bool) {
		keys := slices.Sorted(mapsKeys(m))
		if len(keys) == 0 {
			return "", false
		}
		return keys[rng.IntN(len(keys))], true
	}
	switch rng.IntN(18) {
	case 0:
		c := &g.Clients[rng.IntN(len(g.Clients))]
		c.Consumers[rng.IntN(len(c.Consumers))].Rack = ""
		g.racks = g.Config.Strategy + ", a consumer without rack"
	case 1:
		c := &g.Clients[rng.IntN(len(g.Clients))]
		if len(c.Consumers) > 1 {
			c.Consumers[len(c.Consumers)-1].Rack = "az-z"
			g.racks = g.Config.Strategy + ", a client's consumers in two racks"
		}
	case 2:
		if p, ok := anyOf(g.Tasks); ok {
			delete(g.Replicas, g.Tasks[p][0])
			g.racks = g.Config.Strategy + ", a source partition missing"
		}
	case 3:
		if p, ok := anyOf(g.Tasks); ok {
			g.Replicas[g.Tasks[p][0]] = []string{}
			g.racks = g.Config.Strategy + ", a source partition without replicas"
		}
	case 4:
		if p, ok := anyOf(g.Replicas); ok {
			g.Replicas[p] = append(g.Replicas[p], "")
			g.racks = g.Config.Strategy + ", a broker without rack"
		}
	case 5:
		if s, ok := anyOf(g.Changelogs); ok {
			topic := g.Changelogs[s][0]
			topic = topic[:strings.LastIndexByte(topic, ':')]
			if !strings.HasPrefix(topic, "in-") {
				for p := range g.Replicas {
					if strings.HasPrefix(p, topic+":") {
						delete(g.Replicas, p)
					}
				}
				g.racks = g.Config.Strategy + ", a changelog topic not found"
			}
		}
	}
}

// stickyGroup draws a group for Kafka's KIP-924 StickyTaskAssignor
// (task.assignor.class): a randomGroup, in some with up to 14 clients, in
// some with a previous active claimed by a second client too (a member
// that kept reporting it as running), every stateful task with changelog
// partitions (what makes Kafka give it standbys), and in about two fifths
// racks with both rack.aware.assignment costs configured, or not (then
// Kafka does not optimize).
func stickyGroup(rng *rand.Rand, id int) *oracleGroup {
	g := randomGroup(rng, id)
	g.Config.Assignor = taskassign.StickyTaskAssignorClass
	if rng.IntN(5) == 0 {
		// More clients than a 16-bucket HashMap holds at three quarters.
		for c := len(g.Clients); c < 9+rng.IntN(6); c++ {
			var pid [16]byte
			for i := range pid {
				pid[i] = byte(rng.IntN(256))
			}
			oc := oracleClient{ID: assignment.ProcessID(pid).String()}
			for k := range 1 + rng.IntN(3) {
				oc.Consumers = append(oc.Consumers, oracleConsumer{ID: fmt.Sprintf("member-%d-%d-%04x", c, k, rng.IntN(1<<16))})
			}
			g.Clients = append(g.Clients, oc)
		}
	}
	if rng.IntN(4) == 0 {
		stateful := slices.Sorted(mapsKeys(g.EndOffsets))
		for range 1 + rng.IntN(3) {
			if len(stateful) == 0 {
				break
			}
			task := stateful[rng.IntN(len(stateful))]
			c := &g.Clients[rng.IntN(len(g.Clients))]
			if reports(c, g.Tasks[task], task) {
				continue // one consumer of a client reports a task, as in randomGroup
			}
			co := &c.Consumers[rng.IntN(len(c.Consumers))]
			if co.Sums == nil {
				co.Sums = map[string]int64{}
			}
			co.Sums[task] = assignment.LatestOffset
		}
	}
	if rng.IntN(5) < 2 {
		withRacks(rng, g)
		if g.Config.TrafficCost == nil && rng.IntN(6) > 0 {
			traffic, nonOverlap := rng.IntN(21), rng.IntN(11)
			g.Config.TrafficCost, g.Config.NonOverlapCost = &traffic, &nonOverlap
		}
		return g
	}
	g.Changelogs = map[string][]string{}
	for _, s := range slices.Sorted(mapsKeys(g.EndOffsets)) {
		t, _ := assignment.ParseTaskID(s)
		g.Changelogs[s] = []string{fmt.Sprintf("app-store-%d-0-changelog:%d", t.Subtopology, t.Partition)}
	}
	return g
}

// reports says whether a consumer of the client owns one of the task's
// partitions or reports an offset sum for it.
func reports(c *oracleClient, partitions []string, task string) bool {
	for _, co := range c.Consumers {
		if _, ok := co.Sums[task]; ok {
			return true
		}
		for _, tp := range co.Owned {
			if slices.Contains(partitions, tp) {
				return true
			}
		}
	}
	return false
}
