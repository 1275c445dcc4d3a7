package integration

import (
	"bufio"
	"context"
	"encoding/binary"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/stoatflow/stoatflow/examples/windowedcount"
	"github.com/stoatflow/stoatflow/examples/wordcount"
	"github.com/stoatflow/stoatflow/internal/testkafka"
	"github.com/stoatflow/stoatflow/kstreams"
)

// A fleet test runs one application on several instances of either engine
// while input flows, changes the fleet step by step, and measures each
// step: the tasks that moved, the updates duplicated or missing against the
// updates an uninterrupted run makes, the records restored and the longest
// pause of the output.

// fleetApp is the application a fleet runs: its topology, topics and input.
type fleetApp struct {
	name       string // for the logs
	app        string // stoatflow.topology and the reference app
	props      string
	bootstrap  string
	in, out    string
	appID      string
	partitions int
	// record returns input record i; its timestamp identifies it: every
	// output update carries the timestamp of the input record that made it.
	record func(i int) testkafka.Record
	// updates returns the output updates the first n input records make,
	// each identified by update(key, value), with the input index that
	// makes it.
	updates func(n int) map[string]int
	// tasks is the application's task count.
	tasks int
	// task names the task that writes output partition p's updates and
	// the task that reads topic-partition tp.
	taskOf func(topic string, p int32) string
	// extra are settings of this run over settings().
	extra map[string]string
	// ignore, when set, names output keys outside the checked updates
	// (a preload's): the tail keeps only their arrival times.
	ignore func(key []byte) bool
}

// rng is the test's random source, its seed logged.
func (f *fleetApp) rng() *rand.Rand {
	seed := uint64(time.Now().UnixNano())
	return rand.New(rand.NewPCG(seed, 0xf1ee7))
}

// update identifies one output update.
func updateID(key, value []byte) string { return string(key) + "\x00" + string(value) }

// newWordCountFleet is the word count over 4 partitions: sub-topology 0
// reads the input, 1 the repartition topic, 8 tasks.
func newWordCountFleet(t *testing.T) *fleetApp {
	return wordCountFleet(newFleetApp(t, "word count", wordcount.Name, "wordcount"))
}

// wordCountFleet gives f the word count's input, updates and tasks.
func wordCountFleet(f *fleetApp) *fleetApp {
	f.record = func(i int) testkafka.Record {
		return testkafka.Record{Topic: f.in, Partition: int32(i % 4), Value: []byte(wordLine(i)), Timestamp: time.UnixMilli(epochBase + int64(i))}
	}
	f.updates = func(n int) map[string]int {
		counts := map[string]int64{}
		out := map[string]int{}
		for i := range n {
			for _, w := range wordcount.Words(wordLine(i)) {
				counts[w]++
				out[updateID([]byte(w), binary.BigEndian.AppendUint64(nil, uint64(counts[w])))] = i
			}
		}
		return out
	}
	f.tasks = 8
	f.taskOf = func(topic string, p int32) string {
		if topic == f.in {
			return fmt.Sprintf("0_%d", p)
		}
		return fmt.Sprintf("1_%d", p)
	}
	return f
}

// wordVocab is the word counts' vocabulary: three words for each of the
// four partitions their keys hash to (Kafka's murmur2 partitioner), so
// that every task of a four-partition word count has steady input and
// output. Words 0, 4 and 8 go to partition 2; 1, 5 and 9 to 0; 2, 6 and 10
// to 1; 3, 7 and 11 to 3 (TestWordVocabCoversEveryPartition).
var wordVocab = []string{"stoat", "weasel", "tayra", "otter", "ermine", "badger", "zorilla", "sable", "mink", "ferret", "skunk", "fisher"}

// wordLine is the word counts' input line i: three words of wordVocab, so
// that each word is counted many times; the second and third words of
// consecutive lines go round the vocabulary in other orders than the first.
func wordLine(i int) string {
	n := len(wordVocab)
	return wordVocab[i%n] + " " + wordVocab[(i*7+3)%n] + " " + wordVocab[(i*5+1)%n]
}

// fleetWindowStep is the event time between two windowed-count records:
// 500 records per ten-second window, all within the grace period.
const fleetWindowStep = 20

// newWindowedCountFleet is the windowed count over 4 partitions: one
// sub-topology, 4 tasks, 24 keys.
func newWindowedCountFleet(t *testing.T) *fleetApp {
	f := newFleetApp(t, "windowed count", windowedcount.Name, "windowedcount")
	key := func(i int) []byte { return []byte(fmt.Sprintf("k%02d", (i*7)%24)) }
	f.record = func(i int) testkafka.Record {
		k := key(i)
		return testkafka.Record{Topic: f.in, Partition: int32(kstreams.DefaultPartition(k, 4)), Key: k, Value: []byte("v"),
			Timestamp: time.UnixMilli(epochBase + int64(i)*fleetWindowStep)}
	}
	size := windowedcount.WindowSize.Milliseconds()
	f.updates = func(n int) map[string]int {
		counts := map[string]int64{}
		out := map[string]int{}
		for i := range n {
			ts := epochBase + int64(i)*fleetWindowStep
			wk := binary.BigEndian.AppendUint64(key(i), uint64(ts-ts%size))
			counts[string(wk)]++
			out[updateID(wk, binary.BigEndian.AppendUint64(nil, uint64(counts[string(wk)])))] = i
		}
		return out
	}
	f.tasks = 4
	f.taskOf = func(_ string, p int32) string { return fmt.Sprintf("0_%d", p) }
	return f
}

func newFleetApp(t *testing.T, name, app, dir string) *fleetApp {
	t.Helper()
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	f := &fleetApp{name: name, app: app, props: filepath.Join(root, "examples", dir, "streams.properties"),
		bootstrap: testkafka.Bootstrap(t), partitions: 4}
	f.in, f.out = testkafka.Topic(t, "in"), testkafka.Topic(t, "out")
	f.appID = f.in + "-app"
	testkafka.CreateTopics(t, f.bootstrap, f.partitions, f.in, f.out)
	return f
}

// settings are the engines' shared settings: exactly_once_v2, a short
// commit interval and session.
func (f *fleetApp) settings() map[string]string {
	m := map[string]string{
		"application.id":                      f.appID,
		"bootstrap.servers":                   f.bootstrap,
		"processing.guarantee":                "exactly_once_v2",
		"commit.interval.ms":                  "100",
		"main.consumer.session.timeout.ms":    "6000",
		"main.consumer.heartbeat.interval.ms": "1000",
		// Both engines leave the group as they stop: the reference app
		// closes with CloseOptions LEAVE_GROUP.
		"stoatflow.shutdown.leave-group": "true",
	}
	maps.Copy(m, f.extra)
	return m
}

// commitInterval is the engines' commit.interval.ms.
func (f *fleetApp) commitInterval(t *testing.T) time.Duration {
	t.Helper()
	ms, err := strconv.Atoi(f.settings()["commit.interval.ms"])
	if err != nil {
		t.Fatalf("%s: commit.interval.ms: %v", f.name, err)
	}
	return time.Duration(ms) * time.Millisecond
}

// steadyFeed produces the application's input in the background, batch
// records every pause, until stopped.
type steadyFeed struct {
	fed  atomic.Int64
	stop chan struct{}
	done chan struct{}
	err  error
}

func (f *fleetApp) feedSteadily(t *testing.T, batch int, pause time.Duration) *steadyFeed {
	s := &steadyFeed{stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(s.done)
		for i := 0; ; i += batch {
			select {
			case <-s.stop:
				return
			default:
			}
			recs := make([]testkafka.Record, batch)
			for j := range recs {
				recs[j] = f.record(i + j)
			}
			if err := testkafka.ProduceErr(f.bootstrap, recs...); err != nil {
				s.err = err
				return
			}
			s.fed.Store(int64(i + batch))
			time.Sleep(pause)
		}
	}()
	t.Cleanup(func() { s.end() })
	return s
}

// end stops the feed and returns the records fed.
func (s *steadyFeed) end() int {
	select {
	case <-s.stop:
	default:
		close(s.stop)
	}
	<-s.done
	return int(s.fed.Load())
}

// outputTail reads the output read_committed from the start while the
// fleet changes, keeping each record with the time it arrived.
type outputTail struct {
	mu      sync.Mutex
	recs    []testkafka.Record
	recsAt  []time.Time   // when each of recs arrived
	arrived [][]time.Time // per partition
	cancel  context.CancelFunc
	done    chan struct{}
}

func (f *fleetApp) tailOutput(t *testing.T) *outputTail {
	t.Helper()
	cl, err := testkafka.NewClient(f.bootstrap, kgo.ConsumeTopics(f.out), kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()),
		kgo.FetchIsolationLevel(kgo.ReadCommitted()), kgo.FetchMaxWait(50*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	o := &outputTail{arrived: make([][]time.Time, f.partitions), cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(o.done)
		defer cl.Close()
		for ctx.Err() == nil {
			fs := cl.PollFetches(ctx)
			now := time.Now()
			o.mu.Lock()
			fs.EachRecord(func(r *kgo.Record) {
				o.arrived[r.Partition] = append(o.arrived[r.Partition], now)
				if f.ignore != nil && f.ignore(r.Key) {
					return
				}
				o.recs = append(o.recs, testkafka.Record{Topic: r.Topic, Partition: r.Partition, Offset: r.Offset, Key: r.Key, Value: r.Value, Timestamp: r.Timestamp})
				o.recsAt = append(o.recsAt, now)
			})
			o.mu.Unlock()
		}
	}()
	t.Cleanup(o.close)
	return o
}

func (o *outputTail) close() { o.cancel(); <-o.done }

// wait waits until n records arrived and no more arrive for linger, or
// until timeout, and returns the records.
func (o *outputTail) wait(n int, timeout, linger time.Duration) []testkafka.Record {
	deadline := time.Now().Add(timeout)
	last, lastAt := -1, time.Now()
	for {
		o.mu.Lock()
		got := len(o.recs)
		o.mu.Unlock()
		if got != last {
			last, lastAt = got, time.Now()
		}
		if (got >= n && time.Since(lastAt) > linger) || time.Now().After(deadline) {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	o.close()
	return o.recs
}

// longestGap is the longest time within [from, to] that some output
// partition received nothing, and that partition.
func (o *outputTail) longestGap(from, to time.Time) (time.Duration, int32) {
	return o.longestGapOn(from, to, nil)
}

// longestGapOn is longestGap over the partitions only (nil: all).
func (o *outputTail) longestGapOn(from, to time.Time, only []int32) (time.Duration, int32) {
	o.mu.Lock()
	defer o.mu.Unlock()
	var worst time.Duration
	var at int32
	for p, ts := range o.arrived {
		if only != nil && !slices.Contains(only, int32(p)) {
			continue
		}
		prev := from
		for _, a := range append(slices.Clone(ts), to) {
			if a.Before(from) {
				continue
			}
			if a.After(to) {
				a = to
			}
			if d := a.Sub(prev); d > worst {
				worst, at = d, int32(p)
			}
			prev = a
			if !a.Before(to) {
				break
			}
		}
	}
	return worst, at
}

// firstAfter returns when output partition p first received a record
// after at, and whether it did.
func (o *outputTail) firstAfter(p int32, at time.Time) (time.Time, bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	for _, a := range o.arrived[p] {
		if a.After(at) {
			return a, true
		}
	}
	return time.Time{}, false
}

// fleetStep is one change of the fleet and what it cost.
type fleetStep struct {
	name       string
	from, to   time.Time
	fedFrom    int // input index range fed during the step
	fedTo      int
	moved, min int
	restored   int64
	rebalances int // -1: unknown
	// before, restoredAt and stableAt are the task owners, the records
	// restored and the generations stabilized when the step began.
	before     map[string]string
	restoredAt int64
	stableAt   int
}

// fleet is the instances of one application a test starts and stops.
type fleet struct {
	app     *fleetApp
	admin   *kadm.Client
	engines []engine
	labels  map[engine]string
	stopped map[engine]bool
	opened  map[engine]int // the child's line index the last step's reopen check read up to
	kinds   map[string]int
	steps   []*fleetStep
	owners  map[string]string
	members int
	feed    *steadyFeed
	tail    *outputTail
	broker  *brokerLog
	// sgClient describes a streams group (fleet_streams_test.go).
	sgClient *kgo.Client
}

func newFleet(t *testing.T, app *fleetApp) *fleet {
	fl := &fleet{app: app, admin: testkafka.Admin(t, app.bootstrap), broker: openBrokerLog(t),
		labels: map[engine]string{}, kinds: map[string]int{},
		stopped: map[engine]bool{}, opened: map[engine]int{}}
	t.Cleanup(func() {
		if t.Failed() {
			fl.dumpLogs(t)
		}
	})
	return fl
}

// dumpLogs keeps every instance's whole log in a file under
// .cache/test-logs and logs where, with the lines of the StoatFlow
// instances that say why a member lost its tasks or a thread failed (at
// most five each): the failing check's own lines stay the last ones of
// the test's log, which is what a CI summary shows.
func (fl *fleet) dumpLogs(t *testing.T) {
	dir, err := keptLogDir(t)
	if err != nil {
		t.Logf("%s: the instances' logs are not kept: %v", fl.app.name, err)
		return
	}
	for _, e := range fl.engines {
		label, log := fl.labels[e], e.log()
		if err := os.WriteFile(filepath.Join(dir, label+".log"), []byte(log), 0o644); err != nil {
			t.Logf("%s: instance %s's log is not kept: %v", fl.app.name, label, err)
		}
		if _, ok := e.(goEngine); !ok {
			continue
		}
		var lines []string
		for _, l := range strings.Split(log, "\n") {
			if strings.Contains(l, "fenced") || strings.Contains(l, " ERROR ") {
				lines = append(lines, l)
			}
		}
		if len(lines) > 5 {
			lines = append(lines[:5], fmt.Sprintf("(%d more)", len(lines)-5))
		}
		if len(lines) > 0 {
			t.Logf("%s: StoatFlow instance %s said:\n%s", fl.app.name, label, strings.Join(lines, "\n"))
		}
	}
	t.Logf("%s: the instances' logs are in %s", fl.app.name, dir)
}

// keptLogDir makes the directory a failed test keeps its instances' logs
// in: .cache/test-logs/<test name> under the repository root.
func keptLogDir(t *testing.T) (string, error) {
	root, err := RepoRoot()
	if err != nil {
		return "", err
	}
	name := strings.NewReplacer("/", "_", " ", "_", ",", "", "=", "-").Replace(t.Name())
	dir := filepath.Join(root, ".cache", "test-logs", name)
	return dir, os.MkdirAll(dir, 0o755)
}

// label names the next instance of a kind: J1, J2, ... for Kafka Streams,
// S1, S2, ... for StoatFlow. Its members' client ids start with
// <application.id>-<label>.
func (fl *fleet) label(jvm bool) string {
	k := map[bool]string{true: "J", false: "S"}[jvm]
	fl.kinds[k]++
	return fmt.Sprintf("%s%d", k, fl.kinds[k])
}

// launch starts an instance of either engine under a label.
func (fl *fleet) launch(t *testing.T, jvm bool, label string) engine {
	t.Helper()
	set := fl.app.settings()
	set["client.id"] = fl.app.appID + "-" + label
	return startEngine(t, jvm, fl.app.app, fl.app.props, set, map[string]string{"input": fl.app.in, "output": fl.app.out})
}

// start starts an instance of either engine.
func (fl *fleet) start(t *testing.T, jvm bool) engine {
	t.Helper()
	label := fl.label(jvm)
	e := fl.launch(t, jvm, label)
	fl.engines = append(fl.engines, e)
	fl.labels[e] = label
	return e
}

// startAll starts instances side by side, waits until they share the
// group, and starts the input and the output's tail.
func (fl *fleet) startAll(t *testing.T, jvms ...bool) []engine {
	t.Helper()
	out := make([]engine, len(jvms))
	labels := make([]string, len(jvms))
	for i, jvm := range jvms {
		labels[i] = fl.label(jvm)
	}
	if fl.app.streamsProtocol() {
		fl.configureStreamsGroup(t)
	}
	// The first instance starts alone so that it leads the group; the
	// others start side by side.
	out[0] = fl.launch(t, jvms[0], labels[0])
	var wg sync.WaitGroup
	for i := 1; i < len(jvms); i++ {
		wg.Go(func() { out[i] = fl.launchQuiet(t, jvms[i], labels[i]) })
	}
	wg.Wait()
	for i, e := range out {
		if e == nil {
			t.Fatalf("%s: instance %s did not start", fl.app.name, labels[i])
		}
		fl.engines = append(fl.engines, e)
		fl.labels[e] = labels[i]
	}
	fl.members = len(jvms)
	fl.owners = fl.settle(t)
	for _, e := range out {
		if g, ok := e.(goEngine); ok {
			_, fl.opened[e] = g.c.opened(0)
		}
	}
	fl.feed = fl.app.feedSteadily(t, 10, 100*time.Millisecond)
	fl.tail = fl.app.tailOutput(t)
	time.Sleep(2 * time.Second) // some output before the first step
	return out
}

// launchQuiet is launch from a goroutine other than the test's: a failure
// is logged and returns nil.
func (fl *fleet) launchQuiet(t *testing.T, jvm bool, label string) engine {
	set := fl.app.settings()
	set["client.id"] = fl.app.appID + "-" + label
	e, err := startEngineErr(t, fl.app, jvm, set)
	if err != nil {
		t.Errorf("starting %s: %v", label, err)
		return nil
	}
	return e
}

// startEngineErr starts an instance of app on either engine with set, on
// the state directory set names or else an empty one of its own, and waits
// until it is RUNNING; the test's cleanup kills it. It may run on a
// goroutine other than the test's.
func startEngineErr(t *testing.T, app *fleetApp, jvm bool, set map[string]string) (engine, error) {
	set = cloneMap(set)
	if set["state.dir"] == "" {
		set["state.dir"] = t.TempDir()
	}
	args := map[string]string{"input": app.in, "output": app.out}
	if jvm {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		defer cancel()
		ref, err := StartReference(ctx, ReferenceOptions{App: app.app, Configs: []string{app.props}, Set: set, Args: args})
		if err != nil {
			return nil, err
		}
		t.Cleanup(ref.Kill)
		if err := ref.WaitState(ctx, "RUNNING"); err != nil {
			return nil, err
		}
		return jvmEngine{ref}, nil
	}
	c, err := startChildErr(childSpec{Topology: app.app, Args: args, Files: []string{app.props}, Set: set})
	if err != nil {
		return nil, err
	}
	t.Cleanup(c.kill)
	if err := c.waitErr("RUNNING", 3*time.Minute); err != nil {
		return nil, err
	}
	return goEngine{c}, nil
}

// beginStep records where a step starts: its time, the input fed, the
// records restored, the rebalances and the task owners.
func (fl *fleet) beginStep(t *testing.T, name string) *fleetStep {
	return &fleetStep{name: name, from: time.Now(), fedFrom: int(fl.feed.fed.Load()), rebalances: -1,
		before: fl.owners, restoredAt: fl.restored(), stableAt: fl.rebalanceCount(t)}
}

// endStep waits until the group has settled after a step, checks that no
// StoatFlow instance reopened a task it kept, and records and logs what the
// step cost.
func (fl *fleet) endStep(t *testing.T, st *fleetStep) {
	t.Helper()
	fl.owners = fl.settle(t)
	fl.checkKept(t, st.name, st.before)
	st.to = time.Now()
	st.fedTo = int(fl.feed.fed.Load())
	st.moved = movedTasks(st.before, fl.owners)
	st.restored = fl.restored() - st.restoredAt
	if st.stableAt >= 0 {
		st.rebalances = fl.rebalanceCount(t) - st.stableAt
	}
	fl.steps = append(fl.steps, st)
	t.Logf("%s: %s: %d of %d tasks moved (minimum %d), %d rebalances, %d records restored; %s",
		fl.app.name, st.name, st.moved, fl.app.tasks, st.min, st.rebalances, st.restored, byOwner(fl.owners))
}

// step runs one change: join, when the new engine is not nil, adds an
// instance of that kind; leave, when not nil, stops it. It returns the
// instance added.
func (fl *fleet) step(t *testing.T, name string, join *bool, leave engine) engine {
	t.Helper()
	st := fl.beginStep(t, name)
	before := st.before
	var e engine
	if join != nil {
		st.min = fl.app.tasks / (fl.members + 1)
		e = fl.start(t, *join)
		fl.members++
	}
	if leave != nil {
		held := 0
		for _, o := range before {
			if o == fl.labels[leave] {
				held++
			}
		}
		st.min += held
		leave.stop(t)
		stopped := time.Now()
		fl.stopped[leave] = true
		fl.members--
		fl.checkLeft(t, name, stopped)
	}
	fl.endStep(t, st)
	return e
}

// kill runs one step that SIGKILLs an instance, as a crashed host would
// end it: it neither commits nor leaves the group, so its tasks move once
// its session expires. It returns when the kill happened.
func (fl *fleet) kill(t *testing.T, name string, victim engine) time.Time {
	t.Helper()
	st := fl.beginStep(t, name)
	for _, o := range st.before {
		if o == fl.labels[victim] {
			st.min++
		}
	}
	killed := time.Now()
	victim.kill()
	fl.stopped[victim] = true
	fl.members--
	fl.endStep(t, st)
	return killed
}

// finishedRestore is one changelog partition's restore an instance
// finished, from its RESTORE-END line.
type finishedRestore struct {
	instance  string // the instance's label
	changelog string // "<topic>-<partition>"
	records   int64
}

// restoreMarks marks the moment for restoresSince: each instance's count
// of finished restores so far.
func (fl *fleet) restoreMarks() map[engine]int {
	marks := map[engine]int{}
	for _, e := range fl.engines {
		switch e := e.(type) {
		case jvmEngine:
			_, marks[e] = e.ref.RestoresSince(math.MaxInt)
		case goEngine:
			marks[e] = len(e.c.restoreEnds())
		}
	}
	return marks
}

// restoresSince returns the restores every instance started so far
// finished after marks (an instance started since, all of its own).
func (fl *fleet) restoresSince(marks map[engine]int) []finishedRestore {
	var out []finishedRestore
	for _, e := range fl.engines {
		switch e := e.(type) {
		case jvmEngine:
			rs, _ := e.ref.RestoresSince(marks[e])
			for _, r := range rs {
				out = append(out, finishedRestore{instance: fl.labels[e], changelog: r.Changelog, records: r.Records})
			}
		case goEngine:
			for _, r := range e.c.restoreEnds()[marks[e]:] {
				r.instance = fl.labels[e]
				out = append(out, r)
			}
		}
	}
	return out
}

// checkLeft fails a step whose stopped instance stays in the group for
// longer than it takes to leave it: it was not removed by its close but
// by its session's expiry (session.timeout.ms).
func (fl *fleet) checkLeft(t *testing.T, step string, stopped time.Time) {
	t.Helper()
	for {
		if n, err := fl.memberCount(t); err == nil && n <= fl.members {
			t.Logf("%s: %s: the stopped instance left the group %v after its close returned", fl.app.name, step, time.Since(stopped).Round(time.Millisecond))
			return
		}
		if time.Since(stopped) > 4*time.Second {
			t.Errorf("%s: %s: the stopped instance is still in the group %v after its close returned: it did not leave the group", fl.app.name, step, time.Since(stopped).Round(time.Millisecond))
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// memberCount counts the group's members: a classic group's, or under
// group.protocol=streams the streams group's.
func (fl *fleet) memberCount(t *testing.T) (int, error) {
	if fl.app.streamsProtocol() {
		g, err := fl.describeStreams(t)
		return len(g.Members), err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	gs, err := fl.admin.DescribeGroups(ctx, fl.app.appID)
	if err != nil {
		return 0, err
	}
	g, ok := gs[fl.app.appID]
	if !ok {
		return 0, fmt.Errorf("group %s not described", fl.app.appID)
	}
	return len(g.Members), g.Err
}

// checkKept fails the step if a StoatFlow instance opened a task it held
// before the step and still holds: a task it closed and opened again,
// where a cooperative rebalance keeps it running. (Kafka Streams instances
// keep theirs by design; they are not observed.)
func (fl *fleet) checkKept(t *testing.T, step string, before map[string]string) {
	t.Helper()
	for _, e := range fl.engines {
		g, ok := e.(goEngine)
		if !ok {
			continue
		}
		tasks, next := g.c.opened(fl.opened[e])
		fl.opened[e] = next
		label := fl.labels[e]
		for _, task := range tasks {
			if before[task] == label && fl.owners[task] == label {
				t.Errorf("%s: step %s: StoatFlow instance %s closed and opened again task %s, which it kept", fl.app.name, step, label, task)
			}
		}
	}
}

// stopAll stops every instance still running.
func (fl *fleet) stopAll(t *testing.T) {
	t.Helper()
	for _, e := range fl.engines {
		if !fl.stopped[e] {
			e.stop(t)
			fl.stopped[e] = true
		}
	}
}

// settle waits until the group is stable with every member holding tasks
// and no rebalance started for two seconds, and returns the task owners.
func (fl *fleet) settle(t *testing.T) map[string]string {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		owners := fl.split(t)
		n := fl.rebalanceCount(t)
		time.Sleep(2 * time.Second)
		if again := fl.split(t); fl.rebalanceCount(t) == n && len(again) == fl.app.tasks && maps.Equal(owners, again) {
			return again
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: the group did not settle in 2 minutes", fl.app.name)
		}
	}
}

// split waits until the group is stable with every member holding tasks
// and returns the task owners.
func (fl *fleet) split(t *testing.T) map[string]string {
	t.Helper()
	if fl.app.streamsProtocol() {
		return streamsTaskOwners(fl.waitStreamsSplit(t, fl.members), fl.app)
	}
	return taskOwners(waitGroupSplit(t, fl.admin, fl.app.appID, fl.members), fl.app)
}

// rebalanceCount counts the group's rebalances so far: the generations the
// coordinator stabilized for a classic group, the group epoch of a
// streams group; -1 when unknown.
func (fl *fleet) rebalanceCount(t *testing.T) int {
	if fl.app.streamsProtocol() {
		return fl.streamsEpoch(t)
	}
	return fl.broker.stabilized(fl.app.appID)
}

// restored sums the records every instance started so far restored.
func (fl *fleet) restored() int64 {
	var n int64
	for _, e := range fl.engines {
		n += restoredRecords(e)
	}
	return n
}

// finish stops the input, reads the output, and reports and checks each
// step's duplicates, missing updates and longest output gap.
func (fl *fleet) finish(t *testing.T) {
	t.Helper()
	fed := fl.feed.end()
	if fl.feed.err != nil {
		t.Fatalf("%s: feeding the input: %v", fl.app.name, fl.feed.err)
	}
	want := fl.app.updates(fed)
	recs := fl.tail.wait(len(want), 3*time.Minute, 3*time.Second)
	seen := map[string]int{}
	unexpected := 0
	for _, r := range recs {
		u := updateID(r.Key, r.Value)
		if _, ok := want[u]; !ok {
			unexpected++
			if unexpected <= 5 {
				t.Errorf("%s: unexpected output %s-%d@%d: key %q value %x", fl.app.name, r.Topic, r.Partition, r.Offset, r.Key, r.Value)
			}
			continue
		}
		seen[u]++
	}
	stepOf := func(i int) *fleetStep {
		for _, s := range fl.steps {
			if i >= s.fedFrom && i < s.fedTo {
				return s
			}
		}
		return nil
	}
	type tally struct{ dup, missing int }
	per := map[*fleetStep]*tally{nil: {}}
	for _, s := range fl.steps {
		per[s] = &tally{}
	}
	for u, i := range want {
		tl := per[stepOf(i)]
		switch n := seen[u]; {
		case n == 0:
			tl.missing++
		case n > 1:
			tl.dup += n - 1
		}
	}
	for _, s := range fl.steps {
		gap, p := fl.tail.longestGap(s.from, s.to)
		tl := per[s]
		t.Logf("%s: step %-34s tasks moved %d (minimum %d), rebalances %2d, duplicates %d, missing %d, restored %6d, longest output gap %v (partition %d)",
			fl.app.name, s.name, s.moved, s.min, s.rebalances, tl.dup, tl.missing, s.restored, gap.Round(time.Millisecond), p)
		if tl.dup > 0 || tl.missing > 0 {
			t.Errorf("%s: step %s: %d duplicate and %d missing updates", fl.app.name, s.name, tl.dup, tl.missing)
		}
	}
	if tl := per[nil]; tl.dup > 0 || tl.missing > 0 {
		t.Errorf("%s: outside the steps: %d duplicate and %d missing updates", fl.app.name, tl.dup, tl.missing)
	}
	t.Logf("%s: %d input records, %d updates expected, %d read", fl.app.name, fed, len(want), len(recs))
}

// restoredRecords sums the records an engine restored, from the
// RESTORE-END lines both engines print.
func restoredRecords(e engine) int64 {
	switch e := e.(type) {
	case jvmEngine:
		return e.ref.RestoredRecords()
	case goEngine:
		var n int64
		for _, r := range e.c.restoreEnds() {
			n += r.records
		}
		return n
	}
	return 0
}

// brokerLog reads the group coordinator's log lines of the test broker,
// which count the rebalances of a group whatever engines its members run.
type brokerLog struct{ path string }

// openBrokerLog finds the broker's server.log: $STOATFLOW_TEST_BROKER_LOG,
// or where integration/kafka.sh writes it. Without it rebalances are not
// counted (a failure under CI=true, where the project starts the broker).
func openBrokerLog(t *testing.T) *brokerLog {
	t.Helper()
	path := os.Getenv("STOATFLOW_TEST_BROKER_LOG")
	if path == "" {
		root, err := RepoRoot()
		if err != nil {
			t.Fatal(err)
		}
		port := "9092"
		if b := testkafka.Bootstrap(t); strings.Contains(b, ":") {
			port = b[strings.LastIndex(b, ":")+1:]
		}
		path = filepath.Join(root, ".cache", "kafka-run", port, "server.log")
	}
	if _, err := os.Stat(path); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("the broker's log, which counts rebalances, is not at %s (set STOATFLOW_TEST_BROKER_LOG): %v", path, err)
		}
		t.Logf("rebalances are not counted: no broker log at %s (set STOATFLOW_TEST_BROKER_LOG)", path)
		return &brokerLog{}
	}
	return &brokerLog{path: path}
}

// stabilized counts the generations the coordinator stabilized for group
// so far (-1 when the log is unknown or unreadable).
func (b *brokerLog) stabilized(group string) int {
	if b.path == "" {
		return -1
	}
	f, err := os.Open(b.path)
	if err != nil {
		return -1
	}
	defer f.Close()
	needle := "Stabilized group " + group + " generation "
	n := 0
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		if strings.Contains(sc.Text(), needle) {
			n++
		}
	}
	return n
}

// TestWordVocabCoversEveryPartition: each of the four partitions gets
// three of wordVocab's words, and the lines use every word.
func TestWordVocabCoversEveryPartition(t *testing.T) {
	per := map[int32][]string{}
	for _, w := range wordVocab {
		p := kstreams.DefaultPartition([]byte(w), 4)
		per[p] = append(per[p], w)
	}
	for p := range int32(4) {
		if len(per[p]) != 3 {
			t.Errorf("partition %d gets %v, want three words", p, per[p])
		}
	}
	seen := map[string]bool{}
	for i := range len(wordVocab) {
		for _, w := range strings.Fields(wordLine(i)) {
			seen[w] = true
		}
	}
	if len(seen) != len(wordVocab) {
		t.Errorf("the first %d lines use %d words, want all %d", len(wordVocab), len(seen), len(wordVocab))
	}
}
