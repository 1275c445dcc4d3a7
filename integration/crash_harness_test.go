package integration

import (
	"context"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/stoatflow/stoatflow/internal/failpoint"
	"github.com/stoatflow/stoatflow/internal/invariants"
	"github.com/stoatflow/stoatflow/internal/testkafka"
	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/kstreamstest"
	"github.com/stoatflow/stoatflow/kstreams/serde"
	"github.com/stoatflow/stoatflow/state"
	"github.com/stoatflow/stoatflow/state/rocksdb"
	"github.com/stoatflow/stoatflow/streams"
)

// The soak mode: `go test ./integration/ -run TestCrash -crash.kills=5000
// -crash.seed=42` (or STOATFLOW_CRASH_SOAK=5000) runs that many kills per
// workload instead of the default, with a reproducible schedule.
var (
	crashKills = flag.Int("crash.kills", 0, "kills per crash-test workload (0: each test's default; env "+envCrashSoak+" sets it too)")
	crashSeed  = flag.Uint64("crash.seed", 0, "seed of the crash tests' kill schedule (0: from the clock; every run prints its seed)")
)

const envCrashSoak = "STOATFLOW_CRASH_SOAK"

// crashWorkloadKills returns the kills per workload: -crash.kills, else
// STOATFLOW_CRASH_SOAK, else def (at most 5 under -short).
func crashWorkloadKills(t *testing.T, def int) int {
	if *crashKills > 0 {
		return *crashKills
	}
	if v := os.Getenv(envCrashSoak); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			t.Fatalf("%s=%q: want a positive number of kills", envCrashSoak, v)
		}
		return n
	}
	if testing.Short() {
		return min(def, 5)
	}
	return def
}

func crashSeedFor(name string) uint64 {
	if *crashSeed != 0 {
		return *crashSeed
	}
	return uint64(time.Now().UnixNano()) ^ uint64(len(name))<<40
}

// crashWorkload is an application under crash test: its topology, its
// input and where its stores' values show up in its output.
type crashWorkload struct {
	name     string
	topology string
	example  string // examples/<example>/streams.properties
	// outputs are the topology arguments naming output topics.
	outputs []string
	// storeOutput maps a store to the output argument its values are
	// written to, for the query check; a store not named goes to
	// outputs[0].
	storeOutput map[string]string
	// unqueried names stores whose values no output holds (a
	// suppression's buffer): their queries are not checked.
	unqueried  []string
	partitions int
	// input returns the i-th input record; record i has timestamp
	// epochBase + i*stepMs, so stream time only grows.
	input    func(i int) (key, value string)
	stepMs   int64
	perRound int // records fed before each run
	perTick  int // records fed every 50 ms while a run goes on
	// noQueries says the stores hold no output values (a join's window
	// stores hold its inputs), so the READ_COMMITTED query check (I5),
	// which looks each queried value up in the output, does not apply.
	noQueries bool
	// floating says which output values (hex) may come at another place
	// in their key's sequence than the in-process run puts them: a left
	// join's results for records that found no partner, which Kafka
	// Streams too emits at the first scan of its shared store after a
	// restart rather than at the scan the uninterrupted run would make.
	// Each must still appear exactly once; the other values keep their
	// order.
	floating func(valueHex string) bool
	// closing, when set, is the value of one record per input partition
	// fed after the last, 10 s of stream time later, under a key of its
	// own: it closes every window still open. A left join's shared store
	// may hold, at the end of the input, a record whose window has closed
	// but which no scan emitted yet: a scan sets the store's minimum time
	// to the last record it visits (as Kafka Streams' does), and a restart
	// scans at other records than the uninterrupted run, so that the next
	// scan may lie past the end of the input in one run and not the other.
	closing string
	// tombstone, when set, says which input records have a null value.
	tombstone func(i int) bool
	// settling, when set, says the output's intermediate updates depend on
	// timing, as a foreign-key join's do: its subscriptions and responses
	// cross the broker, so how the updates of its two tables interleave
	// differs from the in-process run, which answers each at once. Each
	// output key's sequence is then not compared with the in-process one;
	// instead (checkSettled) its last value must equal the in-process
	// run's last (a tombstone and no record being the same absent row),
	// and settling must accept each non-null committed value (key and
	// value as the topology writes them) as a result the topology can
	// produce for that key, with a rank above the key's previous result's:
	// the one order in which the topology can emit them, so that a result
	// repeated or out of order is caught.
	settling func(key, value string) (rank int64, err error)
}

// killMode is how one run of the child ends.
type killMode struct {
	name      string        // for the summary
	failpoint string        // STOATFLOW_FAILPOINTS value; "" for none
	after     time.Duration // SIGKILL (or SIGTERM when clean) this long after start, if still alive
	clean     bool
}

// crashStats is what a crash run counts, for its summary line.
type crashStats struct {
	kills        int
	byMode       map[string]int
	fallbacks    int // failpoint runs the parent had to kill itself
	cleanStops   int
	divergences  int
	fullRestores int // restores from the changelog's start (no valid offset)
	wipes        int // full restores of a store that had a valid offset
	tailRecords  int64
	tailRestores int // restores from a store's offset + 1
	storeChecks  int // stores with an offset compared with their changelog
	checkTime    time.Duration
	queries      int
	standbys     int // store partitions a standby or warm-up followed before a restore
}

// crashRun drives one workload under one processing guarantee.
type crashRun struct {
	t         *testing.T
	w         crashWorkload
	guarantee string
	seed      uint64
	rng       *rand.Rand

	bootstrap, appID, stateDir, in string
	args                           map[string]string
	spec                           childSpec
	topo                           *kstreams.Topology
	fed                            int
	closed                         []testkafka.Record // the closing records, once fed
	// offsets holds, per changelog partition, the store offset the parent
	// read after the last run; absent when the store had none.
	offsets  map[string]int64
	queries  []queryLine
	triggers map[string]bool // commit triggers the children reported
	stats    crashStats
	producer *kgo.Client
	logs     map[state.TopicPartition]*changelogCache
	folds    map[string]*foldState
	started  time.Time
	// restoreCheck, when set, also sees every run's child output lines,
	// after the I4 check.
	restoreCheck func(lines []string)
	// standbys adds the standby failpoints to the schedule: the
	// application runs standby and warm-up replicas.
	standbys bool
}

type queryLine struct {
	store, key, value string
}

// newCrashRun creates the topics and the child spec of a crash run.
// extraSet overrides application configs.
func newCrashRun(t *testing.T, w crashWorkload, guarantee string, extraSet map[string]string) *crashRun {
	t.Helper()
	requireFailpoints(t)
	r := &crashRun{t: t, w: w, guarantee: guarantee, seed: crashSeedFor(t.Name()), offsets: map[string]int64{}, triggers: map[string]bool{},
		bootstrap: extraSet["bootstrap.servers"], stateDir: t.TempDir(), args: map[string]string{}, started: time.Now()}
	if r.bootstrap == "" {
		r.bootstrap = testkafka.Bootstrap(t)
	}
	r.stats.byMode = map[string]int{}
	r.rng = rand.New(rand.NewPCG(r.seed, 0x5eed))
	r.in = testkafka.Topic(t, "in")
	r.appID = r.in + "-app"
	r.args["input"] = r.in
	topics := []string{r.in}
	for _, o := range w.outputs {
		r.args[o] = testkafka.Topic(t, o)
		topics = append(topics, r.args[o])
	}
	testkafka.CreateTopics(t, r.bootstrap, w.partitions, topics...)
	r.newProducer()
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	set := map[string]string{
		"application.id":       r.appID,
		"bootstrap.servers":    r.bootstrap,
		"state.dir":            r.stateDir,
		"processing.guarantee": guarantee,
		// Commits every 100 ms under both guarantees, so that the commit
		// failpoints fire within a short run.
		"commit.interval.ms":                  "100",
		"main.consumer.session.timeout.ms":    "6000",
		"main.consumer.heartbeat.interval.ms": "1000",
		// Small memtables flush during a run, so that stores have offsets
		// that trail the changelog after a kill: restores from the
		// offset, not only full ones or none.
		"stoatflow.rocksdb.write-buffer-bytes": "65536",
	}
	for k, v := range extraSet {
		set[k] = v
	}
	r.spec = childSpec{Topology: w.topology, Args: r.args, Query: true,
		Files: []string{filepath.Join(root, "examples", w.example, "streams.properties")}, Set: set}
	build := topology(t, w.topology)
	if r.topo, err = build(r.args); err != nil {
		t.Fatal(err)
	}
	t.Logf("crash run %s %s: seed %d (rerun with -crash.seed=%d)", w.name, guarantee, r.seed, r.seed)
	return r
}

// newProducer (re)creates the input producer.
func (r *crashRun) newProducer() {
	if r.producer != nil {
		r.producer.Close()
	}
	p, err := testkafka.NewClient(r.bootstrap, kgo.ProducerLinger(2*time.Millisecond),
		kgo.RecordPartitioner(testkafka.Partitioner()))
	if err != nil {
		r.t.Fatal(err)
	}
	r.producer = p
	r.t.Cleanup(p.Close)
}

func (r *crashRun) diverge(format string, args ...any) {
	r.t.Helper()
	r.stats.divergences++
	r.t.Errorf(format, args...)
}

func (r *crashRun) record(i int) testkafka.Record {
	k, v := r.w.input(i)
	value := []byte(v)
	if r.w.tombstone != nil && r.w.tombstone(i) {
		value = nil
	}
	return testkafka.Record{Topic: r.in, Partition: kstreams.DefaultPartition([]byte(k), r.w.partitions),
		Key: []byte(k), Value: value, Timestamp: time.UnixMilli(epochBase + int64(i)*r.w.stepMs)}
}

// feed produces the next n input records and waits for their
// acknowledgement.
func (r *crashRun) feed(n int) error {
	var failed atomic.Pointer[error]
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for j := 0; j < n; j++ {
		rec := r.record(r.fed)
		r.fed++
		r.producer.Produce(ctx, &kgo.Record{Topic: r.in, Partition: rec.Partition, Key: rec.Key, Value: rec.Value, Timestamp: rec.Timestamp},
			func(_ *kgo.Record, err error) {
				if err != nil {
					failed.CompareAndSwap(nil, &err)
				}
			})
	}
	if err := r.producer.Flush(ctx); err != nil {
		return fmt.Errorf("producing input: %d records not acknowledged within 30 s: %w", r.producer.BufferedProduceRecords(), err)
	}
	if err := failed.Load(); err != nil {
		return fmt.Errorf("producing input: %w", *err)
	}
	return nil
}

// feedClosing produces the workload's closing record on every input
// partition, each under the first key "end-N" that the default partitioner
// puts there.
func (r *crashRun) feedClosing() {
	ts := time.UnixMilli(epochBase + int64(r.fed)*r.w.stepMs + 10_000)
	for p, n := int32(0), 0; p < int32(r.w.partitions); n++ {
		k := []byte(fmt.Sprintf("end-%d", n))
		if kstreams.DefaultPartition(k, r.w.partitions) != p {
			continue
		}
		r.closed = append(r.closed, testkafka.Record{Topic: r.in, Partition: p, Key: k, Value: []byte(r.w.closing), Timestamp: ts})
		p++
	}
	testkafka.Produce(r.t, r.bootstrap, r.closed...)
}

// feedWhile feeds small batches until stop is closed, so that the child
// always has records to process and commits (and its commit failpoints
// fire) throughout a run.
func (r *crashRun) feedWhile(stop <-chan struct{}) (done <-chan error) {
	ch := make(chan error, 1)
	go func() {
		tick := time.NewTicker(50 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				ch <- nil
				return
			case <-tick.C:
				if err := r.feed(r.w.perTick); err != nil {
					ch <- err
					return
				}
			}
		}
	}()
	return ch
}

// schedule returns the kill modes of a run with kills kills: every named
// failpoint in turn (each at a random hit), kills at the n-th hit of any
// failpoint, SIGKILLs at random moments, and a clean stop after every sixth
// kill.
func (r *crashRun) schedule(kills int) []killMode {
	cycle := []string{failpoint.AfterChangelogFlush, failpoint.AfterSendOffsets, failpoint.AfterCommit,
		failpoint.BetweenStores, failpoint.MidRestore, failpoint.RebalanceCallback, "any", "timed", "timed"}
	if r.standbys {
		// First, so that a short run reaches them.
		cycle = append([]string{failpoint.StandbyMid, failpoint.StandbyPromote, failpoint.StandbyDemote}, cycle...)
	}
	if r.guarantee != "exactly_once_v2" {
		// No transaction, no offsets sent to one.
		cycle = slices.DeleteFunc(cycle, func(p string) bool { return p == failpoint.AfterSendOffsets })
	}
	var out []killMode
	for k := 0; k < kills; k++ {
		if k > 0 && k%6 == 0 {
			out = append(out, killMode{name: "clean", clean: true, after: time.Duration(300+r.rng.IntN(500)) * time.Millisecond})
		}
		// A failpoint that is not reached within fallback ends in a
		// SIGKILL from the parent, counted as a timed kill. In a streams
		// group a killed static member's instance id is held until its
		// session times out, and its restart waits for it (6 s) before it
		// processes.
		fallback := 5 * time.Second
		if r.spec.Set["group.protocol"] == "streams" {
			fallback += 6 * time.Second
		}
		if k%5 == 4 {
			// An aborted epoch without a crash: the commit fails, the
			// transaction aborts, overlays are dropped and the tasks rewind;
			// then a kill at a random moment or at a later commit.
			p := failpoint.AfterChangelogFlush
			if r.guarantee == "exactly_once_v2" && r.rng.IntN(2) == 0 {
				p = failpoint.AfterSendOffsets
			}
			fp := fmt.Sprintf("%s=error@%d", p, 1+r.rng.IntN(3))
			if r.rng.IntN(2) == 0 {
				fp += fmt.Sprintf(",%s=kill@%d", failpoint.AfterCommit, 4+r.rng.IntN(6))
			}
			out = append(out, killMode{name: "abort+kill", failpoint: fp, after: time.Duration(800+r.rng.IntN(800)) * time.Millisecond})
			continue
		}
		switch name := cycle[k%len(cycle)]; name {
		case "any":
			out = append(out, killMode{name: name, failpoint: fmt.Sprintf("*=kill@%d", 1+r.rng.IntN(30)), after: fallback})
		case "timed":
			out = append(out, killMode{name: name, after: time.Duration(300+r.rng.IntN(1200)) * time.Millisecond})
		default:
			n := 1 + r.rng.IntN(8)
			switch name {
			case failpoint.MidRestore:
				n = 1 + r.rng.IntN(2)
			case failpoint.RebalanceCallback, failpoint.StandbyPromote, failpoint.StandbyDemote:
				n = 1
			}
			out = append(out, killMode{name: name, failpoint: fmt.Sprintf("%s=kill@%d", name, n), after: fallback})
		}
	}
	return out
}

// runKills runs the whole schedule, then a last clean run that processes
// everything, and verifies output, stores, restores and queries.
func (r *crashRun) runKills(kills int) {
	for _, m := range r.schedule(kills) {
		if err := r.feed(r.w.perRound); err != nil {
			r.t.Fatal(err)
		}
		r.runOnce(m)
		if r.t.Failed() && r.stats.divergences > 20 {
			break
		}
	}
	r.finish()
}

// runOnce starts the child, ends it as m says and checks what it left.
func (r *crashRun) runOnce(m killMode) {
	t := r.t
	var env []string
	if m.failpoint != "" {
		env = append(env, failpoint.EnvVar+"="+m.failpoint)
	}
	c := startChild(t, r.spec, env...)
	if m.clean {
		// SIGTERM before the child runs its signal handler would end it
		// uncleanly.
		c.wait(t, "RUNNING", 2*time.Minute)
	}
	stopFeed := make(chan struct{})
	fed := r.feedWhile(stopFeed)
	r.endRun(c, m, "")
	close(stopFeed)
	if err := <-fed; err != nil {
		t.Fatal(err)
	}
	t0 := time.Now()
	r.checkRestores(c)
	r.collectQueries(c)
	r.checkStores()
	r.stats.checkTime += time.Since(t0)
}

// endRun ends a child's run as m says, counting it: the child dies at its
// failpoint, or is stopped (clean) or SIGKILLed when m.after has passed.
// who names the fleet member, "" for the single child.
func (r *crashRun) endRun(c *child, m killMode, who string) {
	timer := time.NewTimer(m.after)
	defer timer.Stop()
	select {
	case <-c.exited:
		if !killedBySignal(c) {
			r.diverge("%srun %q: child exited on its own (%v):\n%s", who, m.name, c.cmd.ProcessState, c.stderr.String())
			return
		}
		r.stats.kills++
		r.stats.byMode[m.name]++
	case <-timer.C:
		if m.clean {
			c.stop(r.t)
			r.stats.cleanStops++
			return
		}
		c.kill()
		r.stats.kills++
		switch {
		case m.name == "abort+kill":
			r.stats.byMode[m.name]++
		case m.failpoint != "":
			r.stats.fallbacks++
			fallthrough
		default:
			r.stats.byMode["timed"]++
		}
	}
}

func killedBySignal(c *child) bool {
	ws, ok := c.cmd.ProcessState.Sys().(syscall.WaitStatus)
	return ok && ws.Signaled() && ws.Signal() == syscall.SIGKILL
}

// checkRestores compares the first restore of every changelog partition in
// a run with the store offset the parent read before it: a store with a
// valid offset must restore from offset + 1, never in full (I4).
func (r *crashRun) checkRestores(c *child) {
	c.mu.Lock()
	lines := slices.Clone(c.lines)
	c.mu.Unlock()
	first := map[string]bool{}
	for _, l := range lines {
		f := strings.Fields(l)
		if len(f) == 3 && f[0] == "STANDBY" {
			// A standby or warm-up of the store's task has read its
			// changelog past the offset the parent saw: the restore that
			// promotes it starts where the standby got to (its stores are
			// checked against their changelogs at the next kill, I1, I2).
			var sub, part int
			if _, err := fmt.Sscanf(f[2], "%d_%d", &sub, &part); err == nil {
				tp := state.TopicPartition{Topic: kstreams.ChangelogTopic(r.appID, f[1]), Partition: int32(part)}
				if !first[tp.String()] {
					first[tp.String()] = true
					r.stats.standbys++
				}
			}
			continue
		}
		if len(f) == 4 && f[0] == "RESTORE-END" {
			n, _ := strconv.ParseInt(f[3], 10, 64)
			r.stats.tailRecords += n
		}
		if len(f) != 6 || f[0] != "RESTORE-START" || first[f[2]] {
			continue
		}
		first[f[2]] = true
		start, _ := strconv.ParseInt(f[3], 10, 64)
		full := f[5] == "true"
		if full {
			r.stats.fullRestores++
		}
		off, had := r.offsets[f[2]]
		switch {
		case had && full:
			r.stats.wipes++
			r.diverge("%s: full restore although the store's offset %d was valid (I4)", f[2], off)
		case had && start != off+1:
			r.diverge("%s: restore from %d, want the store's offset %d + 1 (I4)", f[2], start, off)
		case had:
			r.stats.tailRestores++
		}
	}
	if r.restoreCheck != nil {
		r.restoreCheck(lines)
	}
}

func (r *crashRun) collectQueries(c *child) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, l := range c.lines {
		f := strings.Fields(l)
		if len(f) == 5 && f[0] == "QUERY" {
			r.queries = append(r.queries, queryLine{store: f[1], key: f[3], value: f[4]})
		}
		if len(f) == 2 && f[0] == "COMMIT-TRIGGER" {
			r.triggers[f[1]] = true
		}
	}
}

// storeRef is one store partition of the topology.
type storeRef struct {
	spec    *kstreams.StoreSpec
	taskDir string
	tp      state.TopicPartition
}

func (r *crashRun) storeRefs(stateDir string) []storeRef {
	var out []storeRef
	for _, st := range r.topo.Subtopologies() {
		for _, sp := range st.Stores {
			for p := 0; p < r.w.partitions; p++ {
				out = append(out, storeRef{spec: sp,
					taskDir: filepath.Join(stateDir, r.appID, state.TaskDirName(st.ID, p)),
					tp:      state.TopicPartition{Topic: kstreams.ChangelogTopic(r.appID, sp.Name), Partition: int32(p)}})
			}
		}
	}
	return out
}

// openStore opens a store partition as the runtime does, or returns nil
// when it does not exist.
func openStore(ref storeRef, inMemory bool) (state.Store, error) {
	sp := ref.spec
	if !inMemory {
		dir := state.SegmentedDir(ref.taskDir, sp.Name)
		if sp.Kind == kstreams.KeyValueStoreKind {
			dir = state.KeyValueDir(ref.taskDir, sp.Name)
		}
		if _, err := os.Stat(dir); errors.Is(err, os.ErrNotExist) {
			return nil, nil
		}
	}
	switch sp.Kind {
	case kstreams.KeyValueStoreKind:
		o := state.KeyValueOptions{Name: sp.Name, Timestamped: sp.Timestamped}
		if inMemory {
			return state.NewInMemoryKeyValue(o), nil
		}
		return rocksdb.OpenKeyValue(ref.taskDir, o, rocksdb.Options{})
	case kstreams.WindowStoreKind:
		o := state.WindowOptions{Name: sp.Name, RetentionMs: sp.Retention, Timestamped: sp.Timestamped}
		if inMemory {
			return state.NewInMemoryWindow(o)
		}
		return rocksdb.OpenWindow(ref.taskDir, o, rocksdb.Options{})
	default:
		o := state.SessionOptions{Name: sp.Name, RetentionMs: sp.Retention}
		if inMemory {
			return state.NewInMemorySession(o)
		}
		return rocksdb.OpenSession(ref.taskDir, o, rocksdb.Options{})
	}
}

// dumpStore returns a store's committed contents as "key" → "value" hex,
// in the query encoding plus the raw stored value.
func dumpStore(s state.Store) (map[string]string, error) {
	out := map[string]string{}
	err := queryStore(streams.LocalStore{Name: s.Name(), Store: s}, false, func(k, v []byte) {
		out[hex.EncodeToString(k)] = hex.EncodeToString(v)
	})
	return out, err
}

// checkStores opens every store the dead child left and checks I1 and I2:
// its contents are exactly the fold of its changelog, read_committed, up to
// its committed offset; a store without an offset is empty. It records the
// offsets for the next run's restore check.
func (r *crashRun) checkStores() { r.checkStoresIn(r.stateDir, true) }

// checkStoresIn checks the stores under stateDir; with track, it records
// their offsets for the next run's restore check.
func (r *crashRun) checkStoresIn(stateDir string, track bool) {
	offsets := r.offsets
	if !track {
		offsets = map[string]int64{}
	}
	refs := r.storeRefs(stateDir)
	type opened struct {
		ref  storeRef
		off  int64
		dump map[string]string
	}
	var todo []opened
	for _, ref := range refs {
		s, err := openStore(ref, false)
		if err != nil {
			r.diverge("opening store %s of %s after the kill: %v", ref.spec.Name, ref.taskDir, err)
			continue
		}
		if s == nil {
			delete(offsets, ref.tp.String())
			continue
		}
		off, ok, err := s.CommittedOffset(ref.tp)
		dump, derr := dumpStore(s)
		s.Close()
		if err != nil || derr != nil {
			r.diverge("reading store %s of %s: %v %v", ref.spec.Name, ref.taskDir, err, derr)
			continue
		}
		if !ok {
			delete(offsets, ref.tp.String())
			if len(dump) > 0 {
				r.diverge("store %s (%s) holds %d entries but no changelog offset (I1)", ref.spec.Name, ref.tp, len(dump))
			}
			continue
		}
		offsets[ref.tp.String()] = off
		todo = append(todo, opened{ref: ref, off: off, dump: dump})
	}
	if len(todo) == 0 {
		return
	}
	want := map[state.TopicPartition]int64{}
	for _, o := range todo {
		want[o.ref.tp] = o.off
	}
	logs, err := r.readChangelogs(want)
	if err != nil {
		r.diverge("reading changelogs: %v", err)
		return
	}
	for _, o := range todo {
		recs := logs[o.ref.tp]
		if n := len(recs); n == 0 || recs[n-1].offset != o.off {
			last := int64(-1)
			if n > 0 {
				last = recs[n-1].offset
			}
			r.diverge("store %s (%s, in %s) has offset %d, but the last committed changelog record up to it is at %d (I1/I2)",
				o.ref.spec.Name, o.ref.tp, o.ref.taskDir, o.off, last)
		}
		r.stats.storeChecks++
		want, err := r.fold(o.ref, recs, o.off)
		if err != nil {
			r.t.Fatal(err)
		}
		if d := diffDumps(o.dump, want); d != "" {
			r.diverge("store %s (%s, in %s) at offset %d differs from the fold of its changelog up to that offset (I1/I2):\n%s",
				o.ref.spec.Name, o.ref.tp, o.ref.taskDir, o.off, d)
		}
	}
}

// foldState is an in-memory store holding the fold of a changelog
// partition up to offset off, kept between checks so that each check
// applies only the records added since.
type foldState struct {
	store state.Store
	off   int64
}

// fold returns the contents of a store of ref's kind holding exactly the
// changelog records recs (sorted, all at or below off).
func (r *crashRun) fold(ref storeRef, recs []changelogRecord, off int64) (map[string]string, error) {
	if r.folds == nil {
		r.folds = map[string]*foldState{}
	}
	key := ref.taskDir + " " + ref.tp.String()
	fs := r.folds[key]
	if fs == nil || fs.off > off {
		if fs != nil {
			fs.store.Close()
		}
		s, err := openStore(ref, true)
		if err != nil {
			return nil, err
		}
		fs = &foldState{store: s, off: -1}
		r.folds[key] = fs
		r.t.Cleanup(func() { s.Close() })
	}
	i := sort.Search(len(recs), func(i int) bool { return recs[i].offset > fs.off })
	if i < len(recs) {
		crs := make([]state.ChangelogRecord, 0, len(recs)-i)
		for _, rec := range recs[i:] {
			crs = append(crs, rec.rec)
		}
		if err := fs.store.ApplyChangelog(crs, ref.tp, off); err != nil {
			return nil, err
		}
	}
	fs.off = off
	return dumpStore(fs.store)
}

func diffDumps(got, want map[string]string) string {
	var lines []string
	for k, v := range want {
		if g, ok := got[k]; !ok {
			lines = append(lines, fmt.Sprintf("  missing %s = %s", k, v))
		} else if g != v {
			lines = append(lines, fmt.Sprintf("  %s = %s, want %s", k, g, v))
		}
	}
	for k, v := range got {
		if _, ok := want[k]; !ok {
			lines = append(lines, fmt.Sprintf("  extra %s = %s", k, v))
		}
	}
	sort.Strings(lines)
	if len(lines) > 10 {
		lines = append(lines[:10], fmt.Sprintf("  ... %d more", len(lines)-10))
	}
	return strings.Join(lines, "\n")
}

type changelogRecord struct {
	offset int64
	rec    state.ChangelogRecord
}

// changelogCache keeps what was read of a changelog partition: committed
// records never change, so each check reads only what is new.
type changelogCache struct {
	recs []changelogRecord
	next int64 // next offset to read
}

// readChangelogs returns each changelog partition's committed records,
// read_committed, from its start up to and including offset upTo.
func (r *crashRun) readChangelogs(upTo map[state.TopicPartition]int64) (map[state.TopicPartition][]changelogRecord, error) {
	if r.logs == nil {
		r.logs = map[state.TopicPartition]*changelogCache{}
	}
	out := map[state.TopicPartition][]changelogRecord{}
	var parts []state.TopicPartition
	assign := map[string]map[int32]kgo.Offset{}
	for tp, off := range upTo {
		lc := r.logs[tp]
		if lc == nil {
			lc = &changelogCache{}
			r.logs[tp] = lc
		}
		if lc.next > off {
			n := sort.Search(len(lc.recs), func(i int) bool { return lc.recs[i].offset > off })
			out[tp] = lc.recs[:n]
			continue
		}
		parts = append(parts, tp)
		if assign[tp.Topic] == nil {
			assign[tp.Topic] = map[int32]kgo.Offset{}
		}
		assign[tp.Topic][tp.Partition] = kgo.NewOffset().At(lc.next)
	}
	if len(parts) == 0 {
		return out, nil
	}
	// Control records are kept so that the read position is known: the
	// commit and abort markers occupy offsets too, and a partition whose
	// store offset is followed only by markers is read past it once its
	// marker is seen.
	c, err := testkafka.NewClient(r.bootstrap,
		kgo.ConsumePartitions(assign),
		kgo.FetchIsolationLevel(kgo.ReadCommitted()),
		kgo.KeepControlRecords(),
		kgo.FetchMaxWait(50*time.Millisecond),
	)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	done := map[state.TopicPartition]bool{}
	deadline := time.Now().Add(90 * time.Second)
	for len(done) < len(parts) {
		if time.Now().After(deadline) {
			var behind []string
			for _, tp := range parts {
				if !done[tp] {
					behind = append(behind, fmt.Sprintf("%s at %d of %d", tp, r.logs[tp].next, upTo[tp]))
				}
			}
			return nil, fmt.Errorf("changelogs not readable (read_committed) up to their store offsets within 90 s: %v", behind)
		}
		// read_committed ends at the last stable offset. A transaction left
		// open by a killed instance holds it back, hiding records committed
		// after it by others, until the transaction times out: keep reading
		// until the position is past the store offset.
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		fetches := c.PollFetches(ctx)
		cancel()
		var fatal error
		fetches.EachError(func(topic string, p int32, err error) {
			if fatal == nil && !errors.Is(err, context.DeadlineExceeded) && !kerr.IsRetriable(err) {
				fatal = fmt.Errorf("reading changelog %s-%d: %w", topic, p, err)
			}
		})
		if fatal != nil {
			return nil, fatal
		}
		fetches.EachRecord(func(e *kgo.Record) {
			tp := state.TopicPartition{Topic: e.Topic, Partition: e.Partition}
			off := e.Offset
			lc := r.logs[tp]
			if lc == nil || done[tp] || off < lc.next {
				return
			}
			if off > upTo[tp] {
				done[tp] = true
				return
			}
			lc.next = off + 1
			if !e.Attrs.IsControl() {
				ts := int64(-1)
				if !e.Timestamp.IsZero() {
					ts = e.Timestamp.UnixMilli()
				}
				lc.recs = append(lc.recs, changelogRecord{offset: off, rec: state.ChangelogRecord{Key: e.Key, Value: e.Value, Timestamp: ts}})
			}
			if off >= upTo[tp] {
				done[tp] = true
			}
		})
	}
	for _, tp := range parts {
		lc := r.logs[tp]
		n := sort.Search(len(lc.recs), func(i int) bool { return lc.recs[i].offset > upTo[tp] })
		out[tp] = lc.recs[:n]
	}
	return out, nil
}

// finish runs the child once more without faults until the output is
// complete, stops it cleanly, and verifies everything.
func (r *crashRun) finish() {
	t := r.t
	if r.w.closing != "" {
		r.feedClosing()
	}
	want := r.expected()
	c := startChild(t, r.spec)
	c.wait(t, "RUNNING", 2*time.Minute)
	if err := r.waitInputCommitted(2 * time.Minute); err != nil {
		r.diverge("%v", err)
	}
	var got map[string]map[string][]string
	var err error
	if r.w.settling != nil {
		// How many records the output holds is not known in advance: read
		// it to its end once everything the input caused is processed.
		if err := r.waitInternalConsumed(2 * time.Minute); err != nil {
			r.diverge("%v", err)
		}
		got, err = r.readOutputsToEnd()
	} else {
		got, err = r.readOutputs(want)
	}
	if err != nil {
		r.diverge("reading the output: %v", err)
	}
	c.stop(t)
	r.checkRestores(c)
	r.collectQueries(c)
	r.checkStores()
	r.checkOutput(got, want)
	r.checkQueries(got)
	r.summary()
}

// expected runs the input through the topology in process and returns,
// per output argument and output key (hex), the values (hex, "null" for a
// tombstone) in the order they must appear.
func (r *crashRun) expected() map[string]map[string][]string {
	d, err := kstreamstest.New(r.topo, kstreamstest.Config{ApplicationID: r.appID, Partitions: r.w.partitions,
		DefaultKeySerde: serde.Erase[string](serde.String{}), DefaultValueSerde: serde.Erase[string](serde.String{})})
	if err != nil {
		r.t.Fatal(err)
	}
	defer d.Close()
	for i := 0; i < r.fed; i++ {
		rec := r.record(i)
		if err := d.Pipe(r.in, rec.Key, rec.Value, rec.Timestamp.UnixMilli()); err != nil {
			r.t.Fatal(err)
		}
	}
	for _, rec := range r.closed {
		if err := d.Pipe(r.in, rec.Key, rec.Value, rec.Timestamp.UnixMilli()); err != nil {
			r.t.Fatal(err)
		}
	}
	out := map[string]map[string][]string{}
	for _, o := range r.w.outputs {
		byKey := map[string][]string{}
		for _, rec := range d.Records(r.args[o]) {
			k := hex.EncodeToString(rec.Key)
			byKey[k] = append(byKey[k], valueHex(rec.Value))
		}
		out[o] = byKey
	}
	return out
}

func valueHex(v []byte) string {
	if v == nil {
		return "null"
	}
	return hex.EncodeToString(v)
}

// readOutputs reads every output topic read_committed until it holds as
// many records as want says (plus a second's linger for any extra), grouped
// as expected groups them.
func (r *crashRun) readOutputs(want map[string]map[string][]string) (map[string]map[string][]string, error) {
	out := map[string]map[string][]string{}
	var firstErr error
	for _, o := range r.w.outputs {
		n := 0
		for _, seq := range want[o] {
			n += len(seq)
		}
		recs, err := testkafka.ReadCommitted(r.bootstrap, r.args[o], n, 2*time.Minute, time.Second)
		if err != nil && firstErr == nil {
			firstErr = err
		}
		byKey := map[string][]string{}
		for _, rec := range recs {
			k := hex.EncodeToString(rec.Key)
			byKey[k] = append(byKey[k], valueHex(rec.Value))
		}
		out[o] = byKey
	}
	return out, firstErr
}

// checkOutput compares the committed output with the fold of the input.
// Under exactly_once_v2 every output key's sequence of values must equal
// the expected one: no duplicate, no gap (I3). Under at_least_once records
// may be processed twice: every key must be there and its last value must be
// at least the expected one (a retraction stays a retraction).
func (r *crashRun) checkOutput(got, want map[string]map[string][]string) {
	for _, o := range r.w.outputs {
		bad := 0
		report := func(format string, args ...any) {
			bad++
			if bad <= 10 {
				r.diverge(format, args...)
			} else {
				r.stats.divergences++
			}
		}
		if r.w.settling != nil {
			r.checkSettled(o, got[o], want[o], report)
			continue
		}
		for k, seq := range want[o] {
			g := got[o][k]
			if r.guarantee == "exactly_once_v2" {
				if r.w.floating != nil {
					g, seq = r.settleFloating(o, k, g, seq, report)
				}
				if !slices.Equal(g, seq) {
					i := 0
					for i < len(g) && i < len(seq) && g[i] == seq[i] {
						i++
					}
					report("%s key %s: %d committed updates, want %d; first difference at update %d: %s, want %s (I3)",
						o, k, len(g), len(seq), i+1, at(g, i), at(seq, i))
				}
				continue
			}
			last := seq[len(seq)-1]
			switch {
			case len(g) == 0:
				report("%s key %s: no output, want a last value %s (records lost)", o, k, last)
			case last == "null" && g[len(g)-1] != "null":
				report("%s key %s: last value %s, want the retraction", o, k, g[len(g)-1])
			case last != "null" && (g[len(g)-1] == "null" || longHex(g[len(g)-1]) < longHex(last)):
				report("%s key %s: last value %s, want at least %s (records lost)", o, k, g[len(g)-1], last)
			}
		}
		for k, g := range got[o] {
			if _, ok := want[o][k]; !ok {
				report("%s: unexpected key %s: %v", o, k, g)
			}
		}
	}
}

// settleFloating checks that got and want hold the same floating values,
// each as often, and returns both sequences without them.
func (r *crashRun) settleFloating(o, k string, got, want []string, report func(string, ...any)) ([]string, []string) {
	split := func(seq []string) (fixed, floating []string) {
		for _, v := range seq {
			if r.w.floating(v) {
				floating = append(floating, v)
			} else {
				fixed = append(fixed, v)
			}
		}
		slices.Sort(floating)
		return fixed, floating
	}
	gFixed, gFloat := split(got)
	wFixed, wFloat := split(want)
	if !slices.Equal(gFloat, wFloat) {
		report("%s key %s: %d committed unordered updates, want %d: %v, want %v (I3)", o, k, len(gFloat), len(wFloat), gFloat, wFloat)
	}
	return gFixed, wFixed
}

func at(seq []string, i int) string {
	if i < len(seq) {
		return seq[i]
	}
	return "nothing"
}

func longHex(h string) int64 {
	b, err := hex.DecodeString(h)
	if err != nil || len(b) != 8 {
		return math.MinInt64
	}
	return int64(binary.BigEndian.Uint64(b))
}

// checkQueries checks I5 from the outside: every value a READ_COMMITTED
// query saw is a value the committed output holds for that key. Only under
// exactly_once_v2: under at_least_once a crash can leave a changelog record
// whose output record was never delivered; restore brings that value back as
// committed, and the reprocessed input counts on top of it, so the value never
// reaches the output (Kafka Streams behaves the same).
func (r *crashRun) checkQueries(got map[string]map[string][]string) {
	r.stats.queries = len(r.queries)
	if r.guarantee != "exactly_once_v2" || r.w.noQueries {
		return
	}
	committed := map[string]bool{}
	for o, byKey := range got {
		for k, seq := range byKey {
			for _, v := range seq {
				committed[o+" "+k+" "+v] = true
			}
		}
	}
	bad := 0
	for _, q := range r.queries {
		if slices.Contains(r.w.unqueried, q.store) {
			continue
		}
		o, ok := r.w.storeOutput[q.store]
		if !ok {
			o = r.w.outputs[0]
		}
		if !committed[o+" "+q.key+" "+q.value] {
			bad++
			if bad <= 10 {
				r.diverge("READ_COMMITTED query of %s saw %s = %s, which no committed output record holds (I5)", q.store, q.key, q.value)
			} else {
				r.stats.divergences++
			}
		}
	}
}

// summary logs the run's counts on one line.
func (r *crashRun) summary() {
	s := r.stats
	modes := make([]string, 0, len(s.byMode))
	for m, n := range s.byMode {
		modes = append(modes, fmt.Sprintf("%s:%d", m, n))
	}
	sort.Strings(modes)
	line := fmt.Sprintf("crash summary: workload=%s guarantee=%s invariants=%v seed=%d kills=%d divergences=%d full-restores=%d wipes=%d "+
		"restores-from-offset=%d store-checks=%d clean-stops=%d tail-records-restored=%d queries=%d fallback-kills=%d standby-followed=%d took=%s checks-took=%s by-mode=[%s]",
		r.w.name, r.guarantee, invariants.Enabled, r.seed, s.kills, s.divergences, s.fullRestores, s.wipes, s.tailRestores, s.storeChecks, s.cleanStops, s.tailRecords,
		s.queries, s.fallbacks, s.standbys, time.Since(r.started).Round(time.Second), s.checkTime.Round(time.Second), strings.Join(modes, " "))
	r.t.Log(line)
}

// waitInputCommitted waits until the application's group has committed
// every input partition up to its end: then all input is processed and its
// effects committed.
func (r *crashRun) waitInputCommitted(timeout time.Duration) error {
	cl, err := testkafka.NewClient(r.bootstrap)
	if err != nil {
		return err
	}
	defer cl.Close()
	admin := kadm.NewClient(cl)
	deadline := time.Now().Add(timeout)
	for {
		committed, err := testkafka.CommittedWith(admin, r.appID, r.in, r.w.partitions, 10*time.Second)
		behind := 0
		if err == nil {
			// The end a read_committed consumer sees, as the watermark
			// query of a read_committed consumer returns.
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			ends, werr := testkafka.ListOffsets(ctx, admin, true, r.in)
			cancel()
			for p, off := range committed {
				hi, ok := ends[r.in][int32(p)]
				if werr != nil || !ok || off < hi {
					behind++
				}
			}
		}
		if err == nil && behind == 0 {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("input not fully committed within %v: %d partitions behind (%v)", timeout, behind, err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}
