package integration

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/stoatflow/stoatflow/examples/wordcount"
	"github.com/stoatflow/stoatflow/internal/testcluster"
	"github.com/stoatflow/stoatflow/internal/testkafka"
)

// The cluster fault tests run an application under exactly_once_v2 on the
// three-node cluster of internal/testcluster (replication factor 3,
// min.insync.replicas=2) on StoatFlow and, side by side through the same
// faults, on Kafka Streams 4.4, and check that the output stays exactly
// once and how soon each engine commits output again.
//
// The engines reach the brokers through the cluster's proxies
// (Bootstrap), so a cut reaches them; the test's own producer, output
// reader and lookups use the direct listeners and see the application
// through the fault.

// clusterCutFor is how long TestClusterFaultsWordCount cuts a broker.
const clusterCutFor = 30 * time.Second

// clusterSlack is how much later than Kafka Streams StoatFlow may recover
// from a fault before the test fails.
const clusterSlack = 5 * time.Second

// clusterRun is one engine's word count on the cluster.
type clusterRun struct {
	name string // the engine's name, for the reports
	app  *fleetApp
	eng  engine
	feed *clusterFeed
	tail *outputTail
}

// TestClusterFaultsWordCount: the word count (examples/wordcount) under
// exactly_once_v2 at 100 input records a second on the three-node cluster,
// its input, output and internal topics with three replicas, on StoatFlow
// and Kafka Streams side by side, through (a) a SIGKILL of the broker
// leading output partition 0, which is then restarted, (b) a 30 s cut of
// the client connections of the broker leading output partition 1, (c) a
// 30 s SIGSTOP of the broker leading output partition 3, (d) a SIGKILL of
// the broker coordinating both engines' groups and transactions, and (e)
// a rolling restart of the three brokers, the cluster healed between
// two faults. Each engine's output must hold every word's count sequence exactly
// once; the test reports, per fault and engine, the time from the fault
// (for the cut: from its end) until output of input fed after it was
// committed.
func TestClusterFaultsWordCount(t *testing.T) {
	c := testcluster.Shared(t)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		defer cancel()
		if err := c.Heal(ctx); err != nil {
			t.Errorf("healing the cluster after the test: %v", err)
		}
	})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
	defer cancel()
	began := time.Now()

	// Topics of four partitions lead partition p on node p%3+1: the faults
	// hit the leaders of output partitions 0 and 1, and the third node
	// coordinates both engines' groups and transactions.
	coord := c.NodeIDs()[2]
	runs := []*clusterRun{newClusterRun(t, ctx, c, "StoatFlow", coord), newClusterRun(t, ctx, c, "Kafka Streams", coord)}
	var wg sync.WaitGroup
	for _, r := range runs {
		wg.Go(func() {
			e, err := startEngineErr(t, r.app, r.name == "Kafka Streams", r.app.settings())
			if err != nil {
				t.Errorf("%s: starting on the cluster: %v", r.name, err)
				return
			}
			r.eng = e
		})
	}
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}
	started := time.Now()
	for _, r := range runs {
		r.feed = startClusterFeed(t, r.app)
		r.tail = r.app.tailOutput(t)
	}
	waitOutputOfInputSince(t, runs, "the start", started, 2*time.Minute)
	t.Logf("output of the first input: %v", time.Since(started).Round(time.Millisecond))
	waitCaughtUp(t, runs, 2*time.Minute)
	t.Logf("caught up: %v", time.Since(started).Round(time.Millisecond))

	// (a) The leader of output partition 0 dies. Both applications'
	// input and output topics have the same layout, so it leads the same
	// partitions of both.
	restoredBefore := make([]int64, len(runs))
	for i, r := range runs {
		restoredBefore[i] = restoredRecords(r.eng)
	}
	victim := commonLeader(t, ctx, c, runs, 0)
	logRoles(t, ctx, c, runs, victim, "kill", coord)
	killed := time.Now()
	if err := c.Kill(victim); err != nil {
		t.Fatal(err)
	}
	killRecovery := waitOutputOfInputSince(t, runs, fmt.Sprintf("the SIGKILL of node %d", victim), killed, 2*time.Minute)
	if err := c.Restart(ctx, victim); err != nil {
		t.Fatalf("restarting node %d: %v", victim, err)
	}
	restarted := time.Now()
	t.Logf("node %d restarted %v after its kill", victim, restarted.Sub(killed).Round(time.Millisecond))
	syncCtx, syncCancel := context.WithTimeout(ctx, 2*time.Minute)
	if err := c.WaitInSync(syncCtx); err != nil {
		t.Fatalf("after restarting node %d: %v", victim, err)
	}
	syncCancel()
	waitOutputOfInputSince(t, runs, fmt.Sprintf("the restart of node %d", victim), restarted, 2*time.Minute)

	// (b) The clients lose the leader of output partition 1 for 30 s;
	// the brokers still replicate among themselves.
	cutNode := commonLeader(t, ctx, c, runs, 1)
	logRoles(t, ctx, c, runs, cutNode, "cut", coord)
	cutAt := time.Now()
	if err := c.Cut(cutNode); err != nil {
		t.Fatal(err)
	}
	time.Sleep(clusterCutFor)
	if err := c.Resume(cutNode); err != nil {
		t.Fatal(err)
	}
	resumed := time.Now()
	cutRecovery := waitOutputOfInputSince(t, runs, fmt.Sprintf("the end of the cut of node %d", cutNode), resumed, 2*time.Minute)
	heal(t, ctx, c)

	// (c) The leader of output partition 3 hangs (SIGSTOP) for 30 s: its
	// connections stay open and nothing answers, until the controller
	// fences it (broker.session.timeout.ms) and its partitions move.
	stallNode := commonLeader(t, ctx, c, runs, 3)
	logRoles(t, ctx, c, runs, stallNode, "stall", coord)
	if err := c.Stop(stallNode); err != nil {
		t.Fatal(err)
	}
	time.Sleep(clusterCutFor)
	if err := c.Continue(stallNode); err != nil {
		t.Fatal(err)
	}
	thawed := time.Now()
	stallRecovery := waitOutputOfInputSince(t, runs, fmt.Sprintf("the end of the stall of node %d", stallNode), thawed, 2*time.Minute)
	heal(t, ctx, c)

	// (d) The node that coordinates both engines' groups and
	// transactions dies mid-commit (each engine commits every 100 ms):
	// both move to other nodes, which load their state from the
	// replicas.
	logCoordinators(t, ctx, c, runs, "before the SIGKILL of the coordinator")
	coordKilled := time.Now()
	if err := c.Kill(coord); err != nil {
		t.Fatal(err)
	}
	coordRecovery := waitOutputOfInputSince(t, runs, fmt.Sprintf("the SIGKILL of node %d, the coordinator", coord), coordKilled, 2*time.Minute)
	logCoordinators(t, ctx, c, runs, "after it")
	heal(t, ctx, c)

	// (e) A rolling restart under load: each node in turn shuts down
	// (SIGTERM, a controlled shutdown that hands its leaderships over),
	// starts again, and the next goes once every partition is in sync.
	rollingFrom := time.Now()
	for _, id := range c.NodeIDs() {
		from := time.Now()
		if err := c.Restart(ctx, id); err != nil {
			t.Fatalf("rolling restart: node %d: %v", id, err)
		}
		syncCtx, syncCancel := context.WithTimeout(ctx, 2*time.Minute)
		if err := c.WaitInSync(syncCtx); err != nil {
			t.Fatalf("rolling restart: after node %d: %v", id, err)
		}
		syncCancel()
		var gaps []time.Duration
		for _, r := range runs {
			g, _ := r.tail.longestGapOn(from, time.Now(), nil)
			gaps = append(gaps, g)
		}
		t.Logf("rolling restart: node %d back and in sync after %v; longest output pause meanwhile: StoatFlow %v, Kafka Streams %v", id,
			time.Since(rollingFrom).Round(time.Millisecond), gaps[0].Round(time.Millisecond), gaps[1].Round(time.Millisecond))
	}
	rolled := time.Now()
	rollingRecovery := waitOutputOfInputSince(t, runs, "the rolling restart", rolled, 2*time.Minute)
	rollingGap := make([]time.Duration, len(runs))
	for i, r := range runs {
		rollingGap[i], _ = r.tail.longestGapOn(rollingFrom, rolled, nil)
	}
	// Some output after the last fault, then the checks.
	time.Sleep(2 * time.Second)

	// Every word's count sequence, exactly once, on both engines.
	for _, r := range runs {
		wg.Go(func() { checkClusterOutput(t, r) })
	}
	wg.Wait()
	for _, r := range runs {
		wg.Go(func() {
			if err := stopEngine(r.eng); err != nil {
				t.Errorf("%s: stopping after the faults: %v", r.name, err)
			}
		})
	}
	wg.Wait()

	// The recovery figures, StoatFlow's beside Kafka Streams'.
	fig := func(ds []time.Duration) string {
		return fmt.Sprintf("StoatFlow %v, Kafka Streams %v", ds[0].Round(time.Millisecond), ds[1].Round(time.Millisecond))
	}
	var firstAfterCut []time.Duration
	var during []int
	var restored []int64
	for i, r := range runs {
		first, _ := r.tail.firstArrivalAfter(resumed)
		firstAfterCut = append(firstAfterCut, first.Sub(resumed))
		during = append(during, r.tail.arrivedBetween(cutAt.Add(time.Second), resumed))
		restored = append(restored, restoredRecords(r.eng)-restoredBefore[i])
	}
	t.Logf("changelog records restored through the faults: StoatFlow %d, Kafka Streams %d", restored[0], restored[1])
	t.Logf("SIGKILL of node %d, leader of output partition 0: output of input fed after the kill committed after: %s", victim, fig(killRecovery))
	t.Logf("30 s cut of node %d's client connections: output records committed during it: StoatFlow %d, Kafka Streams %d; "+
		"from its end to the first committed output: %s; to output of input fed after its end: %s",
		cutNode, during[0], during[1], fig(firstAfterCut), fig(cutRecovery))
	t.Logf("30 s SIGSTOP of node %d, leader of output partition 3: from its end to output of input fed after it: %s", stallNode, fig(stallRecovery))
	t.Logf("SIGKILL of node %d, both engines' group and transaction coordinator: output of input fed after the kill committed after: %s", coord, fig(coordRecovery))
	t.Logf("rolling restart of the three nodes (%v): longest output pause during it: %s; from its end to output of input fed after it: %s",
		rolled.Sub(rollingFrom).Round(time.Second), fig(rollingGap), fig(rollingRecovery))
	// On a loaded machine either engine may be seconds slower than the
	// other by chance; a stall of franz-go's own (its 5 s metadata floor,
	// docs/config.md) put StoatFlow 5 to 13 s behind.
	for _, f := range []struct {
		what string
		ds   []time.Duration
	}{{"the kill", killRecovery}, {"the cut", cutRecovery}, {"the stall", stallRecovery}, {"the coordinator's kill", coordRecovery},
		{"the rolling restart", rollingRecovery}} {
		if f.ds[0] > f.ds[1]+clusterSlack {
			t.Errorf("after %s StoatFlow committed output of new input %v after Kafka Streams", f.what, (f.ds[0] - f.ds[1]).Round(time.Millisecond))
		}
	}
	t.Logf("the cluster faults took %v", time.Since(began).Round(time.Second))
}

// heal gives the cluster back its layout between two faults: every node
// up, every partition in sync and with its preferred leader.
func heal(t *testing.T, ctx context.Context, c *testcluster.Cluster) {
	t.Helper()
	hctx, cancel := context.WithTimeout(ctx, 3*time.Minute)
	defer cancel()
	if err := c.Heal(hctx); err != nil {
		t.Fatalf("healing the cluster between faults: %v", err)
	}
}

// logCoordinators logs which nodes coordinate each run's group and
// transactions.
func logCoordinators(t *testing.T, ctx context.Context, c *testcluster.Cluster, runs []*clusterRun, when string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	line := "coordinators " + when + ":"
	for _, r := range runs {
		g, err := c.GroupCoordinatorOf(ctx, r.app.appID)
		if err != nil {
			t.Logf("%s: group coordinator: %v", r.name, err)
			continue
		}
		line += fmt.Sprintf(" %s: group on node %d;", r.name, g)
	}
	if txns, err := testkafka.Admin(t, c.DirectBootstrap()).ListTransactions(ctx, nil, nil); err == nil {
		for _, tx := range txns.Sorted() {
			for _, r := range runs {
				if strings.HasPrefix(tx.TxnID, r.app.appID+"-") {
					line += fmt.Sprintf(" %s: transactions on node %d;", r.name, tx.Coordinator)
				}
			}
		}
	}
	t.Log(strings.TrimSuffix(line, ";"))
}

// newClusterRun creates one engine's topics on the cluster: input and
// output of four partitions with testcluster's fixed layout, so that both
// engines' partitions have the same leaders. Its group and its
// transactions are coordinated by node coord: the application id is drawn
// until its group's coordinator is coord, and the process id, kept in the
// state directory where both engines read it, until the transactional id
// of its one stream thread is coord's. A fault of another node then hits
// the two engines alike, as a leader's fault and not a coordinator's.
func newClusterRun(t *testing.T, ctx context.Context, c *testcluster.Cluster, name string, coord int32) *clusterRun {
	t.Helper()
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	f := &fleetApp{name: name + " word count", app: wordcount.Name, props: filepath.Join(root, "examples", "wordcount", "streams.properties"),
		bootstrap: c.DirectBootstrap(), partitions: 4}
	for tries := 0; ; tries++ {
		f.in = testkafka.Topic(t, "in")
		f.appID = f.in + "-app"
		g, err := c.GroupCoordinatorOf(ctx, f.appID)
		if err != nil {
			t.Fatal(err)
		}
		if g == coord {
			break
		}
		if tries == 100 {
			t.Fatalf("no application id of 100 drawn has its group on node %d", coord)
		}
	}
	f.out = f.in + "-out"
	stateDir := t.TempDir()
	for tries := 0; ; tries++ {
		id := randomUUID(t)
		tc, err := c.TxnCoordinatorOf(ctx, fmt.Sprintf("%s-%s-1", f.appID, id))
		if err != nil {
			t.Fatal(err)
		}
		if tc == coord {
			dir := filepath.Join(stateDir, f.appID)
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "kafka-streams-process-metadata"), fmt.Appendf(nil, `{"processId":"%s"}`, id), 0o644); err != nil {
				t.Fatal(err)
			}
			break
		}
		if tries == 100 {
			t.Fatalf("no process id of 100 drawn has its transactions on node %d", coord)
		}
	}
	wordCountFleet(f)
	f.extra = map[string]string{
		"bootstrap.servers":  c.Bootstrap(),
		"replication.factor": "3",
		"state.dir":          stateDir,
	}
	if err := c.CreateTopics(ctx, f.partitions, f.in, f.out); err != nil {
		t.Fatal(err)
	}
	return &clusterRun{name: name, app: f}
}

// randomUUID is a random (version 4) UUID in its usual text form.
func randomUUID(t *testing.T) string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		t.Fatal(err)
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b[:])
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

// commonLeader returns the node leading output partition p of every run,
// failing the test if they differ.
func commonLeader(t *testing.T, ctx context.Context, c *testcluster.Cluster, runs []*clusterRun, p int32) int32 {
	t.Helper()
	leader := int32(-1)
	for _, r := range runs {
		l, err := c.LeaderOf(ctx, r.app.out, p)
		if err != nil {
			t.Fatal(err)
		}
		if leader >= 0 && l != leader {
			t.Fatalf("output partition %d is led by node %d for one engine and %d for the other: the faults would not be alike", p, leader, l)
		}
		leader = l
	}
	return leader
}

// logRoles logs what node does for each run besides leading its
// partitions: the active controller, its group's coordinator, its
// transactions' coordinators. The test places the coordinators of both
// engines on node coord, and fails if they are elsewhere: a fault of
// another node must hit both engines alike.
func logRoles(t *testing.T, ctx context.Context, c *testcluster.Cluster, runs []*clusterRun, node int32, fault string, coord int32) {
	t.Helper()
	if node == coord {
		t.Fatalf("the %s would hit node %d, the engines' coordinator", fault, node)
	}
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	line := fmt.Sprintf("%s of node %d:", fault, node)
	if q, err := c.QuorumLeader(ctx); err == nil {
		line += fmt.Sprintf(" active controller %d;", q)
	}
	admin := testkafka.Admin(t, c.DirectBootstrap())
	txns, err := admin.ListTransactions(ctx, nil, nil)
	if err != nil {
		t.Fatalf("listing the transactions: %v", err)
	}
	for _, r := range runs {
		led := 0
		for _, topic := range []string{r.app.in, r.app.out} {
			for p := range int32(r.app.partitions) {
				if l, err := c.LeaderOf(ctx, topic, p); err == nil && l == node {
					led++
				}
			}
		}
		g, err := c.GroupCoordinatorOf(ctx, r.app.appID)
		if err != nil {
			t.Fatal(err)
		}
		var coords []int32
		for _, tx := range txns.Sorted() {
			if strings.HasPrefix(tx.TxnID, r.app.appID+"-") {
				coords = append(coords, tx.Coordinator)
			}
		}
		line += fmt.Sprintf(" %s: leads %d of its 8 input and output partitions, group coordinator %d, transaction coordinators %v;",
			r.name, led, g, coords)
		if g != coord || len(coords) != 1 || coords[0] != coord {
			t.Errorf("%s: group coordinator %d and transaction coordinators %v, want node %d for both", r.name, g, coords, coord)
		}
	}
	t.Log(strings.TrimSuffix(line, ";"))
	if t.Failed() {
		t.FailNow()
	}
}

// waitCaughtUp waits until each run's output holds output of input fed
// within the last 3 seconds: the engines process the input as it comes,
// and a fault then stops a running application, not one still starting.
func waitCaughtUp(t *testing.T, runs []*clusterRun, timeout time.Duration) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		behind := ""
		for _, r := range runs {
			if err := engineDown(r.eng); err != nil {
				t.Fatalf("%s: %v", r.name, err)
			}
			if _, ok := r.tail.firstOfInputFrom(r.feed.indexAt(time.Now().Add(-3 * time.Second))); !ok {
				behind += " " + r.name
			}
		}
		if behind == "" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("not caught up with the input within %v:%s", timeout, behind)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// waitOutputOfInputSince waits until each run's output holds a record
// made from input fed at or after since, and returns, per run, how long
// after since it arrived. A run that stopped or produced no such output
// within timeout fails the test.
func waitOutputOfInputSince(t *testing.T, runs []*clusterRun, what string, since time.Time, timeout time.Duration) []time.Duration {
	t.Helper()
	out := make([]time.Duration, len(runs))
	done := make([]bool, len(runs))
	deadline := time.Now().Add(timeout)
	for {
		left := 0
		for i, r := range runs {
			if done[i] {
				continue
			}
			if err := engineDown(r.eng); err != nil {
				t.Fatalf("%s: after %s: %v", r.name, what, err)
			}
			if err := r.feed.failed(); err != nil {
				t.Fatalf("%s: feeding the input: %v", r.name, err)
			}
			if at, ok := r.tail.firstOfInputFrom(r.feed.indexAt(since)); ok {
				out[i], done[i] = at.Sub(since), true
				continue
			}
			left++
		}
		if left == 0 {
			return out
		}
		if time.Now().After(deadline) {
			for i, r := range runs {
				if !done[i] {
					t.Errorf("%s: no output of input fed after %s within %v; its log ends:\n%s", r.name, what, timeout, r.eng.log())
				}
			}
			t.FailNow()
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// checkClusterOutput stops run's input, waits for its output and checks
// every word's committed count sequence against the input's: 1, 2, ...
// up to the word's count, each once and in order.
func checkClusterOutput(t *testing.T, r *clusterRun) {
	fed, err := r.feed.end()
	if err != nil {
		t.Errorf("%s: feeding the input: %v", r.name, err)
		return
	}
	want := map[string][]int64{}
	counts := map[string]int64{}
	total := 0
	for i := range fed {
		for _, w := range wordcount.Words(wordLine(i)) {
			counts[w]++
			want[w] = append(want[w], counts[w])
			total++
		}
	}
	recs := r.tail.wait(total, 3*time.Minute, 3*time.Second)
	got := map[string][]int64{}
	for _, rec := range recs {
		if len(rec.Value) != 8 {
			t.Errorf("%s: value of %q at %s-%d@%d is %d bytes, want an 8-byte Long", r.name, rec.Key, rec.Topic, rec.Partition, rec.Offset, len(rec.Value))
			continue
		}
		got[string(rec.Key)] = append(got[string(rec.Key)], int64(binary.BigEndian.Uint64(rec.Value)))
	}
	words := make([]string, 0, len(want))
	for w := range want {
		words = append(words, w)
	}
	sort.Strings(words)
	bad := 0
	for _, w := range words {
		g, seq := got[w], want[w]
		if slices.Equal(g, seq) {
			continue
		}
		i := 0
		for i < len(g) && i < len(seq) && g[i] == seq[i] {
			i++
		}
		bad++
		t.Errorf("%s: word %q: %d committed updates, want %d; first difference at update %d: %s, want %s (not exactly once)",
			r.name, w, len(g), len(seq), i+1, longAt(g, i), longAt(seq, i))
	}
	for w, g := range got {
		if _, ok := want[w]; !ok {
			bad++
			t.Errorf("%s: unexpected word %q: %v", r.name, w, g)
		}
	}
	t.Logf("%s: %d input records, %d count updates expected, %d read, %d words differ", r.name, fed, total, len(recs), bad)
}

func longAt(seq []int64, i int) string {
	if i < len(seq) {
		return fmt.Sprint(seq[i])
	}
	return "nothing"
}

// engineDown returns why an engine is no longer running, nil while it
// runs.
func engineDown(e engine) error {
	switch e := e.(type) {
	case goEngine:
		select {
		case <-e.c.exited:
			return fmt.Errorf("the StoatFlow instance exited:\n%s", e.c.stderr.String())
		default:
		}
	case jvmEngine:
		select {
		case <-e.ref.exited:
			return fmt.Errorf("the Kafka Streams instance exited (%v):\n%s", e.ref.err, e.ref.Stderr())
		default:
		}
		e.ref.mu.Lock()
		errs := slices.Clone(e.ref.errs)
		e.ref.mu.Unlock()
		if len(errs) > 0 {
			return fmt.Errorf("the Kafka Streams instance reported errors: %s\n%s", strings.Join(errs, "; "), e.ref.Stderr())
		}
	}
	return nil
}

// stopEngine closes an engine cleanly (SIGTERM) and waits for it; it may
// run on a goroutine other than the test's.
func stopEngine(e engine) error {
	switch e := e.(type) {
	case jvmEngine:
		return e.ref.Stop(45 * time.Second)
	case goEngine:
		_ = e.c.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-e.c.exited:
		case <-time.After(time.Minute):
			e.c.kill()
			return fmt.Errorf("the StoatFlow instance did not stop within a minute of SIGTERM:\n%s", e.c.stderr.String())
		}
		return e.c.waitErr("CLOSED", time.Second)
	}
	return errors.New("unknown engine")
}

// clusterFeed produces an application's input at a steady rate, 10
// records every 100 ms, asynchronously on one idempotent producer: a
// partition whose leader is away holds its own records back, not the
// others'. It keeps when each record was fed.
type clusterFeed struct {
	cl   *kgo.Client
	stop chan struct{}
	done chan struct{}

	mu struct {
		sync.Mutex
		fedAt []time.Time // by input index
		err   error
	}
}

func startClusterFeed(t *testing.T, f *fleetApp) *clusterFeed {
	t.Helper()
	cl, err := testkafka.NewClient(f.bootstrap, kgo.RecordPartitioner(kgo.ManualPartitioner()),
		kgo.MetadataMinAge(250*time.Millisecond), kgo.ProducerLinger(5*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	s := &clusterFeed{cl: cl, stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(s.done)
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		for i := 0; ; {
			select {
			case <-s.stop:
				return
			case <-tick.C:
			}
			for range 10 {
				r := f.record(i)
				s.mu.Lock()
				s.mu.fedAt = append(s.mu.fedAt, time.Now())
				s.mu.Unlock()
				cl.Produce(context.Background(), &kgo.Record{Topic: r.Topic, Partition: r.Partition, Value: r.Value, Timestamp: r.Timestamp},
					func(_ *kgo.Record, err error) {
						if err != nil {
							s.mu.Lock()
							s.mu.err = errors.Join(s.mu.err, err)
							s.mu.Unlock()
						}
					})
				i++
			}
		}
	}()
	t.Cleanup(func() {
		s.halt()
		cl.Close()
	})
	return s
}

func (s *clusterFeed) halt() {
	select {
	case <-s.stop:
	default:
		close(s.stop)
	}
	<-s.done
}

// end stops the feed, waits until every record is acknowledged and
// returns how many were fed.
func (s *clusterFeed) end() (int, error) {
	s.halt()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := s.cl.Flush(ctx); err != nil {
		return 0, fmt.Errorf("the input's last records not acknowledged within 2 minutes: %w", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.mu.fedAt), s.mu.err
}

// failed returns the errors of records not acknowledged so far.
func (s *clusterFeed) failed() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.mu.err
}

// indexAt is the index of the first input record fed at or after at.
func (s *clusterFeed) indexAt(at time.Time) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	i, _ := slices.BinarySearchFunc(s.mu.fedAt, at, func(fed, at time.Time) int { return fed.Compare(at) })
	return i
}

// firstOfInputFrom returns when the first output record made from input
// record index or a later one arrived. The word count's output records
// carry their input record's timestamp, epochBase + its index.
func (o *outputTail) firstOfInputFrom(index int) (time.Time, bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	for i, r := range o.recs {
		if r.Timestamp.UnixMilli()-epochBase >= int64(index) {
			return o.recsAt[i], true // recs are in the order they arrived
		}
	}
	return time.Time{}, false
}

// firstArrivalAfter returns when the first output record arrived after
// at.
func (o *outputTail) firstArrivalAfter(at time.Time) (time.Time, bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	for _, a := range o.recsAt {
		if a.After(at) {
			return a, true
		}
	}
	return time.Time{}, false
}

// arrivedBetween counts the output records that arrived within
// (from, to].
func (o *outputTail) arrivedBetween(from, to time.Time) int {
	o.mu.Lock()
	defer o.mu.Unlock()
	n := 0
	for _, a := range o.recsAt {
		if a.After(from) && !a.After(to) {
			n++
		}
	}
	return n
}
