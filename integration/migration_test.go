package integration

import (
	"cmp"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/stoatflow/stoatflow/examples/fkjoin"
	"github.com/stoatflow/stoatflow/examples/globaljoin"
	"github.com/stoatflow/stoatflow/examples/joins"
	"github.com/stoatflow/stoatflow/examples/sessioncount"
	"github.com/stoatflow/stoatflow/examples/ssjoin"
	"github.com/stoatflow/stoatflow/examples/suppress"
	"github.com/stoatflow/stoatflow/examples/windowedcount"
	"github.com/stoatflow/stoatflow/examples/wordcount"
	"github.com/stoatflow/stoatflow/internal/testkafka"
	"github.com/stoatflow/stoatflow/kstreams"
)

// The migration tests run one application id first on one engine and then
// on the other: Kafka Streams 4.4 stops (a clean close, or SIGKILL in the
// middle of the stream) and StoatFlow takes over on an empty state
// directory with the same .properties (the cutover), or the other way round
// (the rollback). The combined output, read_committed, is checked against an
// uninterrupted Kafka Streams run on the same input: under exactly_once_v2
// record for record per partition, under at_least_once for loss.

// migrationCase is one topology to take over.
type migrationCase struct {
	app string
	// dir is the directory under examples/ whose streams.properties both
	// engines load; "" for app.
	dir   string
	input []testkafka.Record // Topic is filled in per run
	// repartition is the repartition topic's suffix after <application.id>-,
	// "" when the topology has none. A SIGKILL then waits for records to be
	// in flight in it: written and committed by the first sub-topology, not
	// yet consumed by the second.
	repartition string
	// stores are the stores the taking-over StoatFlow must restore from
	// the changelogs Kafka Streams wrote. A SIGKILL waits for a transaction
	// open on the first one's changelog (on the output without stores).
	stores []string
	// outputs is the uninterrupted run's output count where a model gives
	// it (0: none; the run is then read until it is quiet).
	outputs int
	// settled compares each key's last output value instead of the
	// output record for record: for a topology whose intermediate results
	// depend on timing on every engine (a foreign-key join's round trips
	// through its subscription topics).
	settled bool
	// rank, with settled, accepts a non-null output value for its key as
	// a result the topology can produce from the input, and ranks it: a
	// key's results must come in rising rank (none twice, none out of
	// order) under exactly_once_v2.
	rank func(key, value string) (int64, error)
	// topics are the suffixes after <application.id>- of the internal
	// topics the topology reads besides the repartition topic.
	topics []string
	// inputArg is the topology argument naming the input ("input" if
	// empty).
	inputArg string
	// preload are further input topics by argument name, each created as
	// <input>-<name> and filled before an engine starts (a global table's
	// topic, restored in full before processing begins).
	preload map[string][]testkafka.Record
}

// args are the topology arguments of a run over input topic in and output
// topic out, creating and filling the preloaded topics.
func (c migrationCase) args(t *testing.T, bootstrap, in, out string) map[string]string {
	t.Helper()
	arg := c.inputArg
	if arg == "" {
		arg = "input"
	}
	args := map[string]string{arg: in, "output": out}
	for name, recs := range c.preload {
		topic := in + "-" + name
		testkafka.CreateTopics(t, bootstrap, 2, topic)
		testkafka.Produce(t, bootstrap, withTopic(recs, topic)...)
		args[name] = topic
	}
	return args
}

// internal returns the internal topics the topology reads, of application
// appID.
func (c migrationCase) internal(appID string) []string {
	var out []string
	for _, t := range append([]string{c.repartition}, c.topics...) {
		if t != "" {
			out = append(out, appID+"-"+t)
		}
	}
	return out
}

// migrationScenario is one takeover: which engine runs first and how it stops.
type migrationScenario struct {
	jvmFirst  bool
	kill      bool
	guarantee string
}

func (s migrationScenario) name() string {
	dir := "cutover"
	if !s.jvmFirst {
		dir = "rollback"
	}
	stop := "clean"
	if s.kill {
		stop = "sigkill"
	}
	return dir + "/" + stop + "/" + s.guarantee
}

// The shared settings of every engine of a run. A closed Kafka Streams
// instance stays in the group until its session expires (it does not leave
// the group on close), as does a killed one of either engine: a short
// session keeps the takeover's wait short.
func migrationSettings(bootstrap, appID, guarantee string) map[string]string {
	return map[string]string{
		"bootstrap.servers":    bootstrap,
		"application.id":       appID,
		"processing.guarantee": guarantee,
		"session.timeout.ms":   "6000",
		// at_least_once commits every 30 s by default: commit often, so the
		// second engine takes over offsets the first committed.
		"commit.interval.ms": map[bool]string{true: "100", false: "500"}[guarantee == "exactly_once_v2"],
	}
}

// TestMigrationWordCount: all lines on partition 0 of a two-partition topic,
// so each repartition and output partition has a single writer and the
// uninterrupted run's order per partition is the only correct one.
func TestMigrationWordCount(t *testing.T) {
	var recs []testkafka.Record
	total := 0
	for i := range 1200 {
		line := fmt.Sprintf("%s w%d", sampleLines[i%len(sampleLines)], i%37)
		total += len(wordcount.Words(line))
		recs = append(recs, testkafka.Record{Partition: 0, Value: []byte(line), Timestamp: time.UnixMilli(epochBase + int64(i*10))})
	}
	runMigrations(t, migrationCase{
		app: wordcount.Name, input: recs, outputs: total,
		repartition: "KSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition",
		stores:      []string{"KSTREAM-AGGREGATE-STATE-STORE-0000000003"},
	}, true)
}

// TestMigrationWindowedCount: keyed records over many ten-second windows,
// some out of order and some beyond the grace period, so the stream time
// the second engine takes over (from the committed offsets' metadata)
// decides which records it drops.
func TestMigrationWindowedCount(t *testing.T) {
	recs, sec := keyedEvents(900)
	streamTime := map[int32]int64{}
	outputs := 0
	for i, r := range recs {
		p := partitionOf(r.Key)
		streamTime[p] = max(streamTime[p], sec[i])
		start := sec[i] - sec[i]%10_000
		if start+10_000+5_000 > streamTime[p] {
			outputs++
		}
	}
	runMigrations(t, migrationCase{
		app: windowedcount.Name, input: recs, outputs: outputs,
		stores: []string{"KSTREAM-AGGREGATE-STATE-STORE-0000000001"},
	}, false)
}

// TestMigrationWindowedCountFinal: the count over hopping windows with
// emitStrategy(onWindowClose): the second engine takes the close time of
// the first's last emission from the committed offsets' metadata, so it
// emits each window the first had not, once, and none the first had.
func TestMigrationWindowedCountFinal(t *testing.T) {
	recs, _ := keyedEvents(900)
	runMigrations(t, migrationCase{
		app: windowedcount.FinalName, dir: "windowedcount", input: recs,
		stores: []string{windowedcount.FinalStore},
	}, false)
}

// TestMigrationSessionCount: keyed records whose sessions extend and merge
// across the takeover, with the merged sessions' retractions.
func TestMigrationSessionCount(t *testing.T) {
	recs, _ := keyedEvents(900)
	runMigrations(t, migrationCase{
		app: sessioncount.Name, input: recs,
		stores: []string{"KSTREAM-AGGREGATE-STATE-STORE-0000000001"},
	}, false)
}

// TestMigrationLeftJoin: the crash suite's stream-stream left join
// (ssjoincrash), whose join stores and shared store of unjoined left
// records are restored by the second engine, which then emits the left
// records left unjoined when their windows close, as the first would have.
func TestMigrationLeftJoin(t *testing.T) {
	runMigrations(t, migrationCase{
		app: ssjoin.CrashName, dir: "ssjoin", input: joinEvents(1200),
		stores: []string{"KSTREAM-JOINTHIS-0000000005-store", "KSTREAM-OUTEROTHER-0000000006-store",
			"KSTREAM-OUTERSHARED-0000000005-store"},
	}, false)
}

// TestMigrationTableJoins: a stream looked up in a table, and that table
// joined with a second one, over one topic (joins.SplitName): the second
// engine restores the tables and the join's materialized result from the
// changelogs the first wrote, each lookup finds the row the uninterrupted
// run finds, and each table update joins the other table's row as there.
func TestMigrationTableJoins(t *testing.T) {
	recs := make([]testkafka.Record, 0, 1200)
	for i := range 1200 {
		side := "S"
		switch {
		case i%3 == 0:
			side = "T"
		case i%7 == 0 || i%11 == 0:
			side = "U"
		}
		recs = append(recs, testkafka.Record{Partition: testkafka.AnyPartition, Key: []byte(fmt.Sprintf("k%d", (i*7)%11)),
			Value: []byte(fmt.Sprintf("%s%d", side, i)), Timestamp: time.UnixMilli(epochBase + int64(i)*10)})
	}
	runMigrations(t, migrationCase{app: joins.SplitName, dir: "joins", input: recs,
		stores: []string{joins.SplitStore, joins.SplitOtherStore, joins.SplitJoinedStore}}, false)
}

// TestMigrationForeignKeyJoin: the crash suite's foreign-key join
// (fkjoincrash, orders and customers as two tables of one topic): the
// second engine restores the tables, the subscription store and the
// result from the changelogs the first wrote, picks up the subscriptions
// and responses in flight, and every order ends joined with the customer
// the uninterrupted run joins it with. Both engines emit a foreign-key
// join's intermediate results as its round trips come back, so the
// results are compared as they settle.
func TestMigrationForeignKeyJoin(t *testing.T) {
	recs := make([]testkafka.Record, 0, 960)
	for i := range 960 {
		key, value, tombstone := fkJoinInput(i)
		r := testkafka.Record{Partition: testkafka.AnyPartition, Key: []byte(key), Timestamp: time.UnixMilli(epochBase + int64(i)*10)}
		if !tombstone {
			r.Value = []byte(value)
		}
		recs = append(recs, r)
	}
	runMigrations(t, migrationCase{
		app: fkjoin.CrashName, dir: "fkjoin", input: recs, settled: true, rank: fkJoinRank,
		repartition: fkjoin.CrashJoinName + "-subscription-registration-topic",
		topics:      []string{fkjoin.CrashJoinName + "-subscription-response-topic"},
		// The result store is not among those checked: when the first
		// engine stops before a response came back, its changelog is empty.
		stores: []string{fkjoin.CrashOrdersStore, fkjoin.CrashCustomersStore, fkjoin.CrashSubscriptionStore},
	}, false)
}

// TestMigrationGlobalJoin: a stream joined (inner and left) with a global
// table whose topic is filled before either engine starts: each engine
// restores the global store from that topic in full before it processes,
// and the second takes over the stream's offsets, so every lookup finds
// the row the uninterrupted run finds.
func TestMigrationGlobalJoin(t *testing.T) {
	var rows []testkafka.Record
	for i := range 40 {
		rows = append(rows, testkafka.Record{Partition: testkafka.AnyPartition, Key: []byte(fmt.Sprintf("r%d", i)),
			Value: []byte(fmt.Sprintf("row%d", i)), Timestamp: time.UnixMilli(epochBase)})
	}
	var recs []testkafka.Record
	for i := range 1200 {
		v := fmt.Sprintf("e%d,r%d", i, (i*7)%50) // r40..r49 have no row: the inner join drops them
		if i%13 == 0 {
			v = fmt.Sprintf("e%d", i) // no key to look up
		}
		recs = append(recs, testkafka.Record{Partition: testkafka.AnyPartition, Key: []byte(fmt.Sprintf("k%d", i%5)),
			Value: []byte(v), Timestamp: time.UnixMilli(epochBase + int64(i)*10)})
	}
	runMigrations(t, migrationCase{app: globaljoin.Name, dir: "globaljoin", input: recs, inputArg: "stream",
		preload: map[string][]testkafka.Record{"input": rows}}, false)
}

// TestMigrationSuppress: windowed and session counts suppressed until their
// windows close; the suppression buffers are taken over from the changelogs
// the first engine wrote, and each closed window is emitted once, by
// whichever engine sees it close. The output's keys name their windows, so
// all input is on partition 0: one task writes every output partition, in
// the only order an uninterrupted run has.
func TestMigrationSuppress(t *testing.T) {
	recs, _ := keyedEvents(900)
	for i := range recs {
		recs[i].Partition = 0
	}
	runMigrations(t, migrationCase{
		app: suppress.FinalName, dir: "suppress", input: recs,
		stores: []string{"KSTREAM-AGGREGATE-STATE-STORE-0000000001", "KTABLE-SUPPRESS-STATE-STORE-0000000004",
			"KSTREAM-AGGREGATE-STATE-STORE-0000000007", "sessions-final-store"},
	}, false)
}

// joinEvents returns n records over three keys, 7 ms apart and in order, a
// left ("L…") or right ("R…") value each: a key's records are 21 ms apart,
// so within the join's 30 ms some left records find a partner and some do
// not.
func joinEvents(n int) []testkafka.Record {
	recs := make([]testkafka.Record, 0, n)
	for i := range n {
		side := "L"
		if i%5 >= 3 {
			side = "R"
		}
		recs = append(recs, testkafka.Record{Partition: testkafka.AnyPartition, Key: []byte(fmt.Sprintf("k%d", i%3)),
			Value: []byte(fmt.Sprintf("%s%d", side, i)), Timestamp: time.UnixMilli(epochBase + int64(i)*7)})
	}
	return recs
}

// keyedEvents returns n records over eight keys, their timestamps (ms since
// epochBase's run) mostly rising with every seventh record 12 s late: late
// enough to fall out of a tumbling window's grace now and then, and to
// land between sessions of its key.
func keyedEvents(n int) ([]testkafka.Record, []int64) {
	recs := make([]testkafka.Record, 0, n)
	ts := make([]int64, 0, n)
	for i := range n {
		ms := epochBase + int64(i)*700
		if i%7 == 6 {
			ms -= 12_000
		}
		key := fmt.Sprintf("k%d", (i*5)%8)
		recs = append(recs, testkafka.Record{Partition: testkafka.AnyPartition, Key: []byte(key),
			Value: []byte(fmt.Sprintf("v%d", i)), Timestamp: time.UnixMilli(ms)})
		ts = append(ts, ms)
	}
	return recs, ts
}

// partitionOf is the partition of a two-partition topic Java's default
// partitioner gives key.
func partitionOf(key []byte) int32 {
	return int32(kstreams.DefaultPartition(key, 2))
}

// runMigrations runs the uninterrupted Kafka Streams run beside the
// takeovers in both directions after both kinds of stop under
// exactly_once_v2, and with alos the takeovers after SIGKILL under
// at_least_once, as parallel subtests.
func runMigrations(t *testing.T, c migrationCase, alos bool) {
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	dir := c.dir
	if dir == "" {
		dir = c.app
	}
	props := filepath.Join(root, "examples", dir, "streams.properties")
	bootstrap := testkafka.Bootstrap(t)
	if _, err := ReferenceJar(context.Background()); err != nil {
		t.Fatal(err)
	}

	checkSameDescribe(t, c)
	base := newBaseline(t, bootstrap, props, c)
	scenarios := []migrationScenario{
		{jvmFirst: true, guarantee: "exactly_once_v2"},
		{jvmFirst: true, kill: true, guarantee: "exactly_once_v2"},
		{jvmFirst: false, guarantee: "exactly_once_v2"},
		{jvmFirst: false, kill: true, guarantee: "exactly_once_v2"},
	}
	if alos {
		scenarios = append(scenarios,
			migrationScenario{jvmFirst: true, kill: true, guarantee: "at_least_once"},
			migrationScenario{jvmFirst: false, kill: true, guarantee: "at_least_once"})
	}
	t.Run("takeover", func(t *testing.T) {
		for _, s := range scenarios {
			t.Run(s.name(), func(t *testing.T) {
				t.Parallel()
				for attempt := 1; !runMigration(t, bootstrap, props, c, s, base); attempt++ {
					if attempt == 3 {
						t.Fatalf("no kill could be compared, %d times: it came just after a commit that moved the input's offsets "+
							"to an out-of-order record, or the first engine never had a transaction open and records in flight at once", attempt)
					}
					t.Logf("the scenario starts again on new topics")
				}
			})
		}
	})
}

// checkSameDescribe checks the two engines describe app's topology alike:
// the same generated names, so the same internal topics to take over.
func checkSameDescribe(t *testing.T, c migrationCase) {
	t.Helper()
	app := c.app
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	args := map[string]string{"output": "out"}
	args[cmp.Or(c.inputArg, "input")] = "in"
	for name := range c.preload {
		args[name] = "in-" + name
	}
	want, err := Describe(ctx, ReferenceOptions{App: app, Args: args})
	if err != nil {
		t.Fatal(err)
	}
	build := topology(t, app)
	topo, err := build(args)
	if err != nil {
		t.Fatal(err)
	}
	if got := topo.Describe().String(); got != want {
		t.Fatalf("describe() differs:\n--- Kafka Streams\n%s--- StoatFlow\n%s", want, got)
	}
}

// baseline is the uninterrupted Kafka Streams run, started at once and
// awaited by the takeovers when they compare.
type baseline struct {
	done chan struct{}
	recs []testkafka.Record
	err  error
}

func newBaseline(t *testing.T, bootstrap, props string, c migrationCase) *baseline {
	in := testkafka.Topic(t, "base")
	out := in + "-out"
	testkafka.CreateTopics(t, bootstrap, 2, in, out)
	testkafka.Produce(t, bootstrap, withTopic(c.input, in)...)
	args := c.args(t, bootstrap, in, out)
	b := &baseline{done: make(chan struct{})}
	stateDir := t.TempDir()
	go func() {
		defer close(b.done)
		b.recs, b.err = runBaseline(bootstrap, props, in, out, stateDir, c, args)
	}()
	t.Cleanup(func() { <-b.done })
	return b
}

func (b *baseline) wait(t *testing.T) []testkafka.Record {
	t.Helper()
	<-b.done
	if b.err != nil {
		t.Fatalf("the uninterrupted Kafka Streams run: %v", b.err)
	}
	return b.recs
}

func runBaseline(bootstrap, props, in, out, stateDir string, c migrationCase, args map[string]string) ([]testkafka.Record, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	set := migrationSettings(bootstrap, in+"-app", "exactly_once_v2")
	set["state.dir"] = stateDir
	ref, err := StartReference(ctx, ReferenceOptions{App: c.app, Configs: []string{props}, Set: set, Args: args})
	if err != nil {
		return nil, err
	}
	defer ref.Stop(45 * time.Second)
	if err := ref.WaitState(ctx, "RUNNING"); err != nil {
		return nil, err
	}
	var recs []testkafka.Record
	if c.outputs > 0 {
		recs, err = testkafka.ReadCommitted(bootstrap, out, c.outputs, 3*time.Minute, 3*time.Second)
		if err == nil && len(recs) != c.outputs {
			err = fmt.Errorf("%d output records, the model says %d", len(recs), c.outputs)
		}
	} else {
		if err := waitConsumed(ctx, bootstrap, in+"-app", in, perPartition(c.input)); err != nil {
			return nil, err
		}
		recs, err = readQuiet(ctx, bootstrap, out, 5*time.Second)
	}
	if err != nil {
		return nil, fmt.Errorf("%w\n%s", err, ref.Stderr())
	}
	return recs, nil
}

// engine is the first or the second engine of a takeover.
type engine interface {
	stop(t *testing.T)
	kill()
	log() string
}

type jvmEngine struct{ ref *ReferenceApp }

func (e jvmEngine) stop(t *testing.T) {
	t.Helper()
	if err := e.ref.Stop(45 * time.Second); err != nil {
		t.Fatal(err)
	}
}
func (e jvmEngine) kill()       { e.ref.Kill() }
func (e jvmEngine) log() string { return e.ref.Stderr() }

type goEngine struct{ c *child }

func (e goEngine) stop(t *testing.T) { t.Helper(); e.c.stop(t) }
func (e goEngine) kill()             { e.c.kill() }
func (e goEngine) log() string       { return e.c.stderr.String() }

func startEngine(t *testing.T, jvm bool, app, props string, set, args map[string]string) engine {
	t.Helper()
	set = cloneMap(set)
	set["state.dir"] = t.TempDir() // every engine starts on an empty state directory
	if jvm {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		defer cancel()
		ref, err := StartReference(ctx, ReferenceOptions{App: app, Configs: []string{props}, Set: set, Args: args})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(ref.Kill)
		if err := ref.WaitState(ctx, "RUNNING"); err != nil {
			t.Fatal(err)
		}
		return jvmEngine{ref}
	}
	c := startChild(t, childSpec{Topology: app, Args: args, Files: []string{props}, Set: set})
	c.wait(t, "RUNNING", 3*time.Minute)
	return goEngine{c}
}

// runMigration runs one scenario of c. It returns false, having compared
// nothing, when the kill came where no takeover can be compared with an
// uninterrupted run (see lateFirst); the scenario is then run again on new
// topics.
func runMigration(t *testing.T, bootstrap, props string, c migrationCase, s migrationScenario, base *baseline) bool {
	in := testkafka.Topic(t, "in")
	out := in + "-out"
	appID := in + "-app"
	testkafka.CreateTopics(t, bootstrap, 2, in, out)
	input := withTopic(c.input, in)
	set := migrationSettings(bootstrap, appID, s.guarantee)
	if s.kill && s.jvmFirst && s.guarantee == "exactly_once_v2" {
		// The transaction the killed Kafka Streams instance leaves open
		// must still be open when StoatFlow restores, after the group's
		// session timeout: Kafka Streams' default of 10 s was passed once
		// on a loaded machine, the broker aborted it first, and StoatFlow
		// had nothing to wait for (checkWaitLogged).
		set["transaction.timeout.ms"] = "30000"
	}
	args := c.args(t, bootstrap, in, out)
	admin := testkafka.Admin(t, bootstrap)
	eos := s.guarantee == "exactly_once_v2"
	var rep string
	if c.repartition != "" {
		rep = appID + "-" + c.repartition
	}

	started := time.Now()
	var rest []testkafka.Record
	if !s.kill {
		// A clean close after the first engine has consumed the first 40%
		// of the input: what the first sub-topology wrote to the
		// repartition topic may still be in flight there.
		cut := len(input) * 2 / 5
		for lateFirst(input, resumeAt(input, cut)) != "" {
			cut++
		}
		testkafka.Produce(t, bootstrap, input[:cut]...)
		first := startEngine(t, s.jvmFirst, c.app, props, set, args)
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		err := waitConsumed(ctx, bootstrap, appID, in, perPartition(input[:cut]))
		cancel()
		if err != nil {
			t.Fatalf("first engine: %v\n%s", err, first.log())
		}
		first.stop(t)
		rest = input[cut:]
	} else {
		restart := func() engine { return startEngine(t, s.jvmFirst, c.app, props, set, args) }
		// A SIGKILL waits for a transaction open on the first store's
		// changelog, or on the output of a topology without stores.
		read := []string{out}
		if len(c.stores) > 0 {
			read = []string{appID + "-" + c.stores[0] + "-changelog"}
		}
		fed, ok := killMidStream(t, bootstrap, admin, restart(), restart, input, in, rep, read, appID, eos, s.jvmFirst)
		if !ok {
			return false
		}
		rest = input[fed:]
	}
	t.Logf("first engine (%s) stopped after %v", engineName(s.jvmFirst), time.Since(started).Round(time.Millisecond))
	testkafka.Produce(t, bootstrap, rest...)
	if !s.jvmFirst {
		// Kafka's Java consumer fails at once (InconsistentGroupProtocol)
		// when it joins a group that still holds a member of another
		// assignor's protocol: a killed StoatFlow instance stays a member
		// until its session expires. docs/migration.md says to wait for it.
		waitGroupEmpty(t, admin, appID)
	}

	// The stores whose changelog the first engine wrote to: a clean close
	// can come before a sub-topology processed anything.
	written := map[string]bool{}
	for _, st := range c.stores {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		topic := appID + "-" + st + "-changelog"
		ends, err := testkafka.ListOffsets(ctx, admin, false, topic)
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		for _, end := range ends[topic] {
			written[st] = written[st] || end > 0
		}
	}

	takeover := time.Now()
	second := startEngine(t, !s.jvmFirst, c.app, props, set, args)
	want := base.wait(t)
	var got []testkafka.Record
	var err error
	if c.settled {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		if err = waitConsumed(ctx, bootstrap, appID, in, perPartition(input)); err == nil {
			// A killed first engine's transaction stays open until the
			// broker aborts it: on the output, read_committed reads
			// nothing past it; on an internal topic, the second engine
			// waits for it before it reads on.
			err = waitNoOpenTransaction(ctx, admin, append([]string{out}, c.internal(appID)...))
		}
		if err == nil {
			got, err = readQuiet(ctx, bootstrap, out, 5*time.Second)
		}
		cancel()
	} else {
		got, err = testkafka.ReadCommitted(bootstrap, out, len(want), 3*time.Minute, 3*time.Second)
	}
	if err != nil {
		t.Fatalf("combined output: %v\nsecond engine's log:\n%s", err, second.log())
	}
	t.Logf("second engine (%s) caught up %v after it was started; %d output records", engineName(!s.jvmFirst),
		time.Since(takeover).Round(time.Millisecond), len(got))
	if g, ok := second.(goEngine); ok {
		for _, store := range c.stores {
			if written[store] {
				checkRestored(t, g.c, store)
			} else {
				t.Logf("the first engine wrote nothing to the changelog of %s", store)
			}
		}
		// The kill left a transaction open on a topic StoatFlow reads (a
		// changelog, a repartition topic); a topology without either
		// leaves it on the output alone, which StoatFlow does not read.
		if s.kill && eos && (len(c.stores) > 0 || c.repartition != "") {
			checkWaitLogged(t, g)
		}
	}
	second.stop(t)
	switch {
	case c.settled:
		compareSettled(t, want, got, c.rank)
	case eos:
		compareRuns(t, want, got)
	default:
		checkNothingLost(t, want, got)
	}
	return true
}

func engineName(jvm bool) string {
	if jvm {
		return "Kafka Streams"
	}
	return "StoatFlow"
}

// killMidStream feeds the input while the first engine runs and kills it
// with SIGKILL once a transaction of it is open (under exactly_once_v2) and
// records are in flight in the repartition topic (when there is one),
// after at least a fifth of the input. It returns how many input records
// were fed; the rest follow the kill.
func killMidStream(t *testing.T, bootstrap string, admin *kadm.Client, first engine, restart func() engine,
	input []testkafka.Record, in, rep string, read []string, appID string, eos, lasting bool) (fed int, ok bool) {
	t.Helper()
	cl, err := testkafka.NewClient(bootstrap, kgo.RecordPartitioner(testkafka.Partitioner()), kgo.ProducerLinger(2*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	var mu, gate sync.Mutex
	stop := make(chan struct{})
	feedErr := make(chan error, 1)
	limit := len(input) * 4 / 5
	go func() {
		for i := 0; i < limit; i += 10 {
			select {
			case <-stop:
				feedErr <- nil
				return
			case <-time.After(20 * time.Millisecond):
			}
			gate.Lock()
			batch := input[i:min(i+10, limit)]
			krecs := make([]*kgo.Record, 0, len(batch))
			for _, r := range batch {
				krecs = append(krecs, &kgo.Record{Topic: r.Topic, Partition: r.Partition, Key: r.Key, Value: r.Value, Timestamp: r.Timestamp})
			}
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			err := cl.ProduceSync(ctx, krecs...).FirstErr()
			cancel()
			gate.Unlock()
			if err != nil {
				feedErr <- err
				return
			}
			mu.Lock()
			fed += len(batch)
			mu.Unlock()
		}
		feedErr <- nil
	}()
	// The topics a transaction of the first engine writes that the kill
	// must find open: read and the repartition topic.
	read = slices.Clone(read)
	if rep != "" {
		read = append(read, rep)
	}
	// A kill can fall between two transactions, or just after the second
	// sub-topology caught up: then the first engine starts again (the
	// feed paused meanwhile) and is killed again, a takeover by the same
	// engine on the way.
	deadline := time.Now().Add(3 * time.Minute)
	for attempt := 1; ; attempt++ {
		killed := false
		for !killed && time.Now().Before(deadline) {
			time.Sleep(5 * time.Millisecond)
			mu.Lock()
			n := fed
			mu.Unlock()
			if n < len(input)/5 {
				continue
			}
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			ok := killReady(ctx, admin, appID, in, input, len(input)/5, read, rep, eos)
			cancel()
			if ok {
				first.kill()
				killed = true
			}
		}
		if !killed {
			// A loaded machine can keep the first engine's transactions
			// and the feed from overlapping for the whole deadline: the
			// scenario starts again on new topics, a bounded number of
			// times (runMigrations).
			close(stop)
			<-feedErr
			t.Logf("the first engine never had a transaction open and records in flight at once\n%s", first.log())
			return 0, false
		}
		why, late := killLeft(t, bootstrap, admin, appID, in, input, read, rep, eos, lasting)
		if late {
			close(stop)
			<-feedErr
			t.Logf("the kill came just after a commit that moved the input's offsets to an out-of-order record: %s", why)
			return 0, false
		}
		if why == "" {
			break
		}
		if attempt == 4 {
			t.Fatalf("SIGKILL left %s, %d times", why, attempt)
		}
		t.Logf("SIGKILL left %s; the first engine starts again", why)
		gate.Lock()
		first = restart()
		gate.Unlock()
	}
	close(stop)
	if err := <-feedErr; err != nil {
		t.Fatal(err)
	}
	return fed, true
}

// killLeft checks what a kill left behind, once nothing changes any more:
// under exactly_once_v2 a transaction open on a topic the second engine
// reads, and with a repartition topic committed records in flight in it;
// and that the second engine does not resume on an out-of-order record
// (see lateFirst). With lasting, the open transaction must still be open
// 2 s after the kill. It returns what is missing, "" when nothing is.
func killLeft(t *testing.T, bootstrap string, admin *kadm.Client, appID, in string, input []testkafka.Record,
	read []string, rep string, eos, lasting bool) (why string, late bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	resume, err := committedNow(ctx, admin, appID, in, 2)
	if err != nil {
		t.Fatal(err)
	}
	if why := lateFirst(input, resume); why != "" {
		// Whichever engine goes on from here resumes there: the run
		// cannot be compared. killReady checked the offsets before the
		// kill; a commit came in between.
		return why, true
	}
	if eos {
		open, err := openTransactions(ctx, admin, read)
		if err != nil {
			t.Fatal(err)
		}
		if len(open) > 0 && lasting {
			// A kill during the commit leaves the transaction open only
			// until the coordinator has written its markers, which takes
			// longer on a loaded machine. When StoatFlow takes over, its
			// log must show that it met the open transaction
			// (checkWaitLogged): the transaction counts once it is still
			// open a while later (Kafka Streams' transaction timeout is
			// 30 s here).
			time.Sleep(2 * time.Second)
			if open, err = openTransactions(ctx, admin, read); err != nil {
				t.Fatal(err)
			}
		}
		if len(open) == 0 {
			return "no open transaction", false
		}
		t.Logf("SIGKILL left a transaction open on %v", open)
	}
	if rep != "" {
		n, err := inFlight(ctx, bootstrap, admin, appID, rep)
		if err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			return "no record in flight in the repartition topic", false
		}
		t.Logf("SIGKILL left %d committed records in flight in %s", n, rep)
	}
	return "", false
}

// lateFirst says why a takeover that resumes partition p of the input at
// offset resume[p] (-1: from the start) cannot be compared with an
// uninterrupted run: its first record there is out of order (older than
// one before it). Kafka Streams' window and session processors keep the
// stream time they drop late records by in the processor, starting afresh
// when a task starts (StoatFlow's as well), so such a record is counted
// after any restart, of either engine, where an uninterrupted run drops it.
// It returns "" when each partition resumes on an in-order record.
func lateFirst(input []testkafka.Record, resume []int64) string {
	for p, off := range resume {
		var maxTs int64 = -1
		n := int64(0)
		for _, r := range input {
			if part := r.Partition; part == int32(p) || part < 0 && partitionOf(r.Key) == int32(p) {
				ts := r.Timestamp.UnixMilli()
				if n == off && ts < maxTs {
					return fmt.Sprintf("partition %d resumes at offset %d on an out-of-order record (timestamp %d, before it %d)", p, off, ts, maxTs)
				}
				maxTs = max(maxTs, ts)
				n++
			}
		}
	}
	return ""
}

// resumeAt is where each partition resumes after the first cut records of
// input: the count of those records in it.
func resumeAt(input []testkafka.Record, cut int) []int64 {
	counts := perPartition(input[:cut])
	return []int64{counts[0], counts[1]}
}

// killReady says whether the group has committed at least progress input
// records at offsets a takeover can resume at (see lateFirst), a transaction is open on one of the topics read (always true
// under at_least_once) and, with a repartition topic, whether the group
// has committed offsets in it that trail its stable end by more than a
// commit marker.
func killReady(ctx context.Context, admin *kadm.Client, group, in string, input []testkafka.Record, progress int,
	read []string, rep string, eos bool) bool {
	consumed, err := committedNow(ctx, admin, group, in, 2)
	if err != nil || max(consumed[0], 0)+max(consumed[1], 0) < int64(progress) || lateFirst(input, consumed) != "" {
		return false
	}
	if eos {
		open, err := openTransactions(ctx, admin, read)
		if err != nil || len(open) == 0 {
			return false
		}
	}
	if rep == "" {
		return true
	}
	stable, err := testkafka.ListOffsets(ctx, admin, eos, rep)
	if err != nil {
		return false
	}
	committed, err := committedNow(ctx, admin, group, rep, len(stable[rep]))
	if err != nil {
		return false
	}
	for p, end := range stable[rep] {
		if committed[p] > 0 && end-committed[p] > 2 {
			return true
		}
	}
	return false
}

// openTransactions lists the partitions of topics whose last stable offset
// trails the high watermark: a transaction is open there.
func openTransactions(ctx context.Context, admin *kadm.Client, topics []string) ([]string, error) {
	ends, err := testkafka.ListOffsets(ctx, admin, false, topics...)
	if err != nil {
		return nil, err
	}
	stable, err := testkafka.ListOffsets(ctx, admin, true, topics...)
	if err != nil {
		return nil, err
	}
	var open []string
	for topic, ps := range ends {
		for p, hw := range ps {
			if stable[topic][p] < hw {
				open = append(open, fmt.Sprintf("%s[%d]", topic, p))
			}
		}
	}
	return open, nil
}

// waitNoOpenTransaction waits until no transaction is open on topics.
func waitNoOpenTransaction(ctx context.Context, admin *kadm.Client, topics []string) error {
	for {
		open, err := openTransactions(ctx, admin, topics)
		if err == nil && len(open) == 0 {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("a transaction stays open on %v (%v): %w", open, err, ctx.Err())
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// inFlight counts the committed records of the repartition topic past the
// group's committed offsets: written by the first sub-topology, not yet
// consumed by the second.
func inFlight(ctx context.Context, bootstrap string, admin *kadm.Client, group, rep string) (int, error) {
	stable, err := testkafka.ListOffsets(ctx, admin, true, rep)
	if err != nil {
		return 0, err
	}
	committed, err := committedNow(ctx, admin, group, rep, len(stable[rep]))
	if err != nil {
		return 0, err
	}
	parts := map[int32]kgo.Offset{}
	for p, end := range stable[rep] {
		if from := max(committed[p], 0); from < end {
			parts[p] = kgo.NewOffset().At(from)
		}
	}
	if len(parts) == 0 {
		return 0, nil
	}
	cl, err := testkafka.NewClient(bootstrap, kgo.ConsumePartitions(map[string]map[int32]kgo.Offset{rep: parts}),
		kgo.FetchIsolationLevel(kgo.ReadCommitted()), kgo.FetchMaxWait(100*time.Millisecond))
	if err != nil {
		return 0, err
	}
	defer cl.Close()
	n := 0
	for {
		pctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		fs := cl.PollFetches(pctx)
		cancel()
		got := 0
		fs.EachRecord(func(r *kgo.Record) {
			if r.Offset < stable[rep][r.Partition] {
				got++
			}
		})
		n += got
		if got == 0 {
			return n, ctx.Err()
		}
	}
}

// committedNow returns the group's committed offsets of topic's partitions
// 0..n-1 (-1 for none) without require_stable: the offsets of committed
// transactions, not those an open one holds.
func committedNow(ctx context.Context, admin *kadm.Client, group, topic string, n int) ([]int64, error) {
	resp, err := admin.FetchOffsetsForTopics(ctx, group, topic)
	if err != nil {
		return nil, err
	}
	out := make([]int64, n)
	for p := range out {
		out[p] = -1
		if o, ok := resp.Lookup(topic, int32(p)); ok && o.Err == nil && o.At >= 0 {
			out[p] = o.At
		}
	}
	return out, nil
}

// waitConsumed waits until group has committed offsets at least want on
// each partition of topic.
func waitConsumed(ctx context.Context, bootstrap, group, topic string, want map[int32]int64) error {
	for {
		got, err := testkafka.Committed(bootstrap, group, topic, 2, 10*time.Second)
		done := err == nil
		for p, n := range want {
			if done && got[p] < n {
				done = false
			}
		}
		if done {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("group %s did not commit %v on %s (has %v, %v): %w", group, want, topic, got, err, ctx.Err())
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// waitGroupEmpty waits until the group has no member.
func waitGroupEmpty(t *testing.T, admin *kadm.Client, group string) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		gs, err := admin.DescribeGroups(ctx, group)
		cancel()
		if err == nil {
			if g, ok := gs[group]; ok && g.Err == nil && len(g.Members) == 0 {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("group %s still has members after a minute: %v", group, err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// readQuiet reads topic read_committed until no record came for quiet.
func readQuiet(ctx context.Context, bootstrap, topic string, quiet time.Duration) ([]testkafka.Record, error) {
	cl, err := testkafka.NewClient(bootstrap, kgo.ConsumeTopics(topic), kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()),
		kgo.FetchIsolationLevel(kgo.ReadCommitted()), kgo.FetchMaxWait(100*time.Millisecond))
	if err != nil {
		return nil, err
	}
	defer cl.Close()
	var out []testkafka.Record
	last := time.Now()
	for time.Since(last) < quiet {
		pctx, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
		fs := cl.PollFetches(pctx)
		cancel()
		if ctx.Err() != nil {
			return out, ctx.Err()
		}
		fs.EachRecord(func(r *kgo.Record) {
			out = append(out, testkafka.Record{Topic: r.Topic, Partition: r.Partition, Offset: r.Offset,
				Key: r.Key, Value: r.Value, Timestamp: r.Timestamp})
			last = time.Now()
		})
	}
	return out, nil
}

// checkRestored checks the taking-over StoatFlow restored store from the
// changelog the first engine wrote.
func checkRestored(t *testing.T, c *child, store string) {
	t.Helper()
	var restored int64
	var seen []string
	for tp, r := range c.restores() {
		if r.store == store {
			restored += r.records
			seen = append(seen, fmt.Sprintf("%s from %d to %d: %d records", tp, r.start, r.end, r.records))
		}
	}
	if restored == 0 {
		t.Errorf("StoatFlow restored nothing into %s from the first engine's changelog; restores: %v\n%s", store, seen, c.stderr.String())
	}
	t.Logf("StoatFlow restored %d records into %s", restored, store)
}

// checkWaitLogged checks StoatFlow said in its log what it waited for: the
// transaction the killed Kafka Streams instance left open.
func checkWaitLogged(t *testing.T, g goEngine) {
	t.Helper()
	log := g.log()
	if !strings.Contains(log, "open transaction") {
		t.Errorf("StoatFlow's log does not say it waited for an open transaction:\n%s", log)
	}
	for _, l := range strings.Split(log, "\n") {
		if strings.Contains(l, "waiting") || strings.Contains(l, "transaction") || strings.Contains(l, "gone; joining") {
			t.Logf("StoatFlow: %s", l[:min(len(l), 400)])
		}
	}
}

// compareRuns compares the combined output with the uninterrupted run's,
// record for record per partition.
func compareRuns(t *testing.T, want, got []testkafka.Record) {
	t.Helper()
	for p := int32(0); p < 2; p++ {
		w, g := partitionRecords(want, p), partitionRecords(got, p)
		if strings.Join(w, "\n") == strings.Join(g, "\n") {
			continue
		}
		i := 0
		for i < len(w) && i < len(g) && w[i] == g[i] {
			i++
		}
		t.Errorf("output partition %d: %d records, uninterrupted %d; first difference at record %d: got %s, want %s",
			p, len(g), len(w), i, at(g, i), at(w, i))
	}
}

// compareSettled compares each key's last value in the combined output
// with the uninterrupted run's, a tombstone and no record alike.
func compareSettled(t *testing.T, want, got []testkafka.Record, rank func(key, value string) (int64, error)) {
	t.Helper()
	prev := map[string]int64{}
	bad := 0
	for _, r := range got {
		if r.Value == nil || rank == nil {
			continue
		}
		key, value := string(r.Key), string(r.Value)
		n, err := rank(key, value)
		p, seen := prev[key]
		switch {
		case err != nil:
			err = fmt.Errorf("no result of the topology for the input: %w", err)
		case seen && n <= p:
			err = errors.New("a result repeated or out of order")
		}
		if err != nil {
			bad++
			if bad <= 5 {
				t.Errorf("output %d@%d, key %q: %q: %v", r.Partition, r.Offset, key, value, err)
			}
			continue
		}
		prev[key] = n
	}
	last := func(recs []testkafka.Record) map[string]string {
		m := map[string]string{}
		for _, r := range recs {
			if r.Value == nil {
				delete(m, string(r.Key))
			} else {
				m[string(r.Key)] = string(r.Value)
			}
		}
		return m
	}
	w, g := last(want), last(got)
	differ := 0
	for k := range w {
		if g[k] != w[k] {
			differ++
			if differ <= 5 {
				t.Errorf("key %q: last value %q, uninterrupted %q", k, g[k], w[k])
			}
		}
	}
	for k := range g {
		if _, ok := w[k]; !ok {
			differ++
			if differ <= 5 {
				t.Errorf("key %q: last value %q, deleted or absent in the uninterrupted run", k, g[k])
			}
		}
	}
	if differ > 0 {
		t.Errorf("%d of %d keys end differently", differ, len(w))
	}
	t.Logf("%d keys end alike; %d output records (uninterrupted %d)", len(w), len(got), len(want))
}

// checkNothingLost checks, under at_least_once, that every key's (or
// window's) last value in the combined output is at least the
// uninterrupted run's: a record processed twice counts twice, a lost one
// would count less.
func checkNothingLost(t *testing.T, want, got []testkafka.Record) {
	t.Helper()
	final := func(recs []testkafka.Record) map[string]int64 {
		m := map[string]int64{}
		for _, r := range recs {
			if r.Value == nil {
				delete(m, string(r.Key))
				continue
			}
			m[string(r.Key)] = int64(binary.BigEndian.Uint64(r.Value))
		}
		return m
	}
	w, g := final(want), final(got)
	lost := 0
	for k, n := range w {
		if g[k] < n {
			lost++
			if lost <= 5 {
				t.Errorf("key %q: last count %d, uninterrupted %d", k, g[k], n)
			}
		}
	}
	if lost > 0 {
		t.Errorf("%d of %d keys lost records", lost, len(w))
	}
	t.Logf("%d output records (uninterrupted %d): no key lost a record", len(got), len(want))
}

func withTopic(recs []testkafka.Record, topic string) []testkafka.Record {
	out := make([]testkafka.Record, len(recs))
	for i, r := range recs {
		r.Topic = topic
		out[i] = r
	}
	return out
}

// perPartition counts records per partition, keyed ones where the
// producer's partitioner puts them.
func perPartition(recs []testkafka.Record) map[int32]int64 {
	m := map[int32]int64{}
	for _, r := range recs {
		p := r.Partition
		if p < 0 {
			p = partitionOf(r.Key)
		}
		m[p]++
	}
	return m
}

func cloneMap(m map[string]string) map[string]string {
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}
