package main

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/stoatflow/stoatflow/internal/testkafka"
	"github.com/stoatflow/stoatflow/internal/testregistry"
)

func TestMain(m *testing.M) {
	if spec := os.Getenv(envChild); spec != "" {
		os.Exit(runChild(spec))
	}
	os.Exit(m.Run())
}

// TestSmoke runs every workload once at tiny sizes against the test
// broker, so the harness cannot rot: each engine, ceiling and scenario
// must finish and the table must be printed.
func TestSmoke(t *testing.T) {
	bootstrap := testkafka.Bootstrap(t)
	testregistry.URL(t) // the avro workload's
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	var out, log bytes.Buffer
	// Every workload but the rebalance ones and failover: their instances
	// of each engine, the waits for the group to settle and the session
	// timeouts would double the smoke's time.
	workloads := slices.DeleteFunc(slices.Clone(allWorkloads), func(w string) bool {
		return slices.Contains(rebalanceWorkloads, w) || w == "failover"
	})
	args := []string{"-bootstrap", bootstrap, "-workloads", strings.Join(workloads, ","), "-rounds", "1", "-records", "1000", "-keys", "200",
		"-latency-rate", "200", "-latency-duration", "2s", "-latency-warmup", "500ms",
		// Two of the four loads keep the smoke short. At these sizes
		// Kafka Streams' word count may fit in one commit and not be
		// measurable; the loads then take their maximum from -latency-max.
		"-latency-loads", "25,90", "-latency-max", "1000", "-restore-mb", "4", "-restore-value-size", "200"}
	if err := run(ctx, args, &out, &log); err != nil {
		t.Fatalf("bench: %v\n%s\n%s", err, out.String(), log.String())
	}
	for _, want := range []string{"| wordcount-eos | StoatFlow |", "| wordcount-eos | Kafka Streams 4.4 |", "| wordcount-eos | raw txn loop |",
		"| stateless | raw plain loop |", "| latency | StoatFlow |", "| latency @25% | Kafka Streams 4.4 |", "| latency @90% | StoatFlow |", "| wordcount-alos | Kafka Streams 4.4 |", "| windowed | StoatFlow |", "| suppress | Kafka Streams 4.4 |",
		"| ssjoin-eos | StoatFlow |", "| ssjoin-eos | Kafka Streams 4.4 |", "| streamtable-eos | StoatFlow |", "| streamtable-eos | Kafka Streams 4.4 |",
		"| restore (full) | raw WriteBatch |", "| avro | StoatFlow |", "| avro | Kafka Streams 4.4 |", "| restart after SIGKILL | StoatFlow |", "Targets:"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, out.String())
		}
	}
	t.Log("\n" + out.String())
}

func TestParseFlagsReadsEnvironment(t *testing.T) {
	t.Setenv("STOATFLOW_BENCH_RECORDS", "1234")
	t.Setenv("STOATFLOW_BENCH_LATENCY_DURATION", "7s")
	c, err := parseFlags([]string{"-keys", "9"}, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	if c.records != 1234 || c.keys != 9 || c.latencyDur != 7*time.Second {
		t.Fatalf("records=%d keys=%d latency=%v, want 1234, 9, 7s", c.records, c.keys, c.latencyDur)
	}
	c, err = parseFlags([]string{"-records", "5"}, &bytes.Buffer{})
	if err != nil || c.records != 5 {
		t.Fatalf("a flag must win over the environment: %v %v", c, err)
	}
	if _, err := parseFlags([]string{"-workloads", "nope"}, &bytes.Buffer{}); err == nil {
		t.Fatal("an unknown workload must be an error")
	}
}

func TestWordsPerLine(t *testing.T) {
	b := &bench{cfg: &config{words: 4, keys: 100}}
	for i := 0; i < 100; i++ {
		if n := wordsIn(b.line(i)); n != 4 {
			t.Fatalf("line %d has %d words, want 4: %q", i, n, b.line(i).value)
		}
	}
}

func TestTableRows(t *testing.T) {
	for _, keys := range []int{1, 7, 8, 9, 15, 16, 200, 10000} {
		b := &bench{cfg: &config{keys: keys, valueSize: 10}}
		seen := map[string]bool{}
		for n := 0; n < b.tableRows(); n++ {
			k := string(b.tableRecord(n).key)
			var j int
			if _, err := fmt.Sscanf(k, "k%08d", &j); err != nil || j >= keys || j%8 == 7 || seen[k] {
				t.Fatalf("keys=%d: row %d has key %q: outside the cardinality, a key without a row, or a repeat", keys, n, k)
			}
			seen[k] = true
		}
		want := 0
		for j := 0; j < keys; j++ {
			if j%8 != 7 {
				want++
			}
		}
		if len(seen) != want {
			t.Fatalf("keys=%d: %d rows, want %d", keys, len(seen), want)
		}
	}
}

func TestSsJoinRecords(t *testing.T) {
	b := &bench{cfg: &config{keys: 100, valueSize: 20}}
	for i := 0; i < 100; i++ {
		r := b.ssJoinRecord(i)
		side := byte('L')
		if i%2 == 1 {
			side = 'R'
		}
		if r.value[0] != side || !r.stamped || r.at != time.Duration(i)*ssJoinStep || len(r.value) != 20 {
			t.Fatalf("record %d: value %q, stamped %v at %v", i, r.value, r.stamped, r.at)
		}
	}
}

// TestStreamTableOutput pins the expected output of the streamtable-eos
// workload at its default sizes to what Kafka Streams 4.4 wrote for it.
func TestStreamTableOutput(t *testing.T) {
	b := &bench{cfg: &config{records: 100_000, keys: 10_000}}
	if n, nulls := b.streamTableOutput(); n != 187429 || nulls != 12571 {
		t.Fatalf("expected output %d records, %d without a partner; Kafka Streams wrote 187429 and 12571", n, nulls)
	}
}

func TestLongestGap(t *testing.T) {
	t0 := time.Unix(1000, 0)
	at := func(ms ...int) []time.Time {
		var ts []time.Time
		for _, m := range ms {
			ts = append(ts, t0.Add(time.Duration(m)*time.Millisecond))
		}
		return ts
	}
	for _, tc := range []struct {
		name     string
		arrivals [][]time.Time
		from, to int // ms after t0
		gap      time.Duration
		part     int
	}{
		{"steady", [][]time.Time{at(100, 200, 300, 400), at(50, 150, 250, 350, 450)}, 0, 500, 100 * time.Millisecond, 0},
		{"a pause inside", [][]time.Time{at(100, 200, 300, 400), at(100, 1300, 1400)}, 0, 1500, 1200 * time.Millisecond, 1},
		{"from the start of the window", [][]time.Time{at(100, 200, 900), at(100, 200)}, 150, 950, 750 * time.Millisecond, 1},
		{"silent to the end", [][]time.Time{at(100, 200, 300), at(100)}, 0, 300, 200 * time.Millisecond, 1},
		{"arrivals outside the window", [][]time.Time{at(10, 20, 600, 2000, 2100)}, 500, 1000, 400 * time.Millisecond, 0},
		{"nothing at all", [][]time.Time{at(100), nil}, 0, 1000, time.Second, 1},
	} {
		gap, p := longestGap(tc.arrivals, t0.Add(time.Duration(tc.from)*time.Millisecond), t0.Add(time.Duration(tc.to)*time.Millisecond))
		if gap != tc.gap || p != tc.part {
			t.Errorf("%s: gap %v on partition %d, want %v on %d", tc.name, gap, p, tc.gap, tc.part)
		}
	}
}

func TestRestoredBetween(t *testing.T) {
	t0 := time.Unix(1000, 0)
	lines := []stamped{
		{t0, "RESTORE-END 1796604729599370277 counts app-counts-changelog-1 500"},                   // before the window
		{t0.Add(time.Second), "RESTORE-END 1796604729599370277 counts app-counts-changelog-2 1200"}, // StoatFlow child
		{t0.Add(2 * time.Second), "RESTORE-START counts app-counts-changelog-3 0 900"},              // no records
		{t0.Add(2 * time.Second), "RESTORE-SUSPENDED counts app-counts-changelog-3 30"},             // interrupted
		{t0.Add(2 * time.Second), "RESTORE-START counts app-counts-changelog-3 31 900"},             // resumed
		{t0.Add(2 * time.Second), "RESTORE-END counts app-counts-changelog-3 4"},                    // reference jar
		{t0.Add(2 * time.Second), "STANDBY-BATCH counts app-counts-changelog-1 1000"},               // a warm-up's batch
		{t0.Add(3 * time.Second), "RESTORE-END counts"},                                             // malformed
		{t0.Add(9 * time.Second), "RESTORE-END counts app-counts-changelog-0 7"},                    // after it
	}
	if n := restoredBetween(lines, t0.Add(time.Millisecond), t0.Add(5*time.Second)); n != 2234 {
		t.Fatalf("restored %d records, want 2234", n)
	}
}

func TestSettlerWaitsForAQuietStableStretch(t *testing.T) {
	t0 := time.Unix(1000, 0)
	var s settler
	obs := func(ms int, stable, rebalanced bool) (time.Time, bool) {
		return s.observe(t0.Add(time.Duration(ms)*time.Millisecond), stable, rebalanced)
	}
	q := int(rebalanceQuiet / time.Millisecond)
	steps := []struct {
		ms                 int
		stable, rebalanced bool
	}{
		{0, false, true},
		{100, true, false},         // stable from 100
		{100 + q - 1, true, false}, // not yet quiet long enough
		{200 + q, false, false},    // a rebalance begins
		{300 + q, true, true},      // stable again from here
		{350 + q, true, true},      // a generation came and went between two looks
		{350 + 2*q - 1, true, false},
	}
	for _, st := range steps {
		if at, ok := obs(st.ms, st.stable, st.rebalanced); ok {
			t.Fatalf("settled at %v after the observation at %d ms", at.Sub(t0), st.ms)
		}
	}
	at, ok := obs(350+2*q, true, false)
	if !ok || !at.Equal(t0.Add(time.Duration(350+q)*time.Millisecond)) {
		t.Fatalf("settled %v at %v, want true at %v", ok, at.Sub(t0), time.Duration(350+q)*time.Millisecond)
	}
}

func TestBrokerLogCountsTheGroupsLines(t *testing.T) {
	path := t.TempDir() + "/server.log"
	old := "[2026-12-07 00:39:38,943] INFO [GroupCoordinator id=1] Stabilized group app generation 1 with 2 members. (x)\n"
	if err := os.WriteFile(path, []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	l := openBrokerLog(path)
	if l == nil {
		t.Fatal("no log")
	}
	appendLog := func(s string) {
		f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if _, err := f.WriteString(s); err != nil {
			t.Fatal(err)
		}
	}
	appendLog("[..] INFO Preparing to rebalance group app in state PreparingRebalance with old generation 1 (reason: Adding new member)\n" +
		"[..] INFO Preparing to rebalance group app-2 in state PreparingRebalance with old generation 4\n" +
		"[..] INFO Stabilized group app-2 generation 5 with 1 members.\n" +
		"[..] INFO Stabilized group app generation")
	if st, prep := l.read("app"); st != 0 || prep != 1 {
		t.Fatalf("first read: %d stabilized, %d preparing; want 0 and 1 (the old line is before the start, the last not complete)", st, prep)
	}
	appendLog(" 2 with 3 members.\n")
	if st, prep := l.read("app"); st != 1 || prep != 0 {
		t.Fatalf("second read: %d stabilized, %d preparing; want 1 and 0", st, prep)
	}
}

func TestMovedTasks(t *testing.T) {
	app := "bench-rebalance-sf-0-abc"
	if got := instanceOf(app+"-C-StreamThread-1-consumer", app); got != "C" {
		t.Fatalf("instance %q, want C", got)
	}
	rep := app + "-KSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition"
	before := map[topicPartition]string{{app + "-in", 0}: "A", {app + "-in", 1}: "B", {rep, 0}: "A", {rep, 1}: "B", {rep, 2}: "A"}
	after := map[topicPartition]string{{app + "-in", 0}: "C", {app + "-in", 1}: "B", {rep, 0}: "C", {rep, 1}: "B", {rep, 2}: "B"}
	if n := movedTasks(statefulTasks(before, app), statefulTasks(after, app)); n != 2 {
		t.Fatalf("%d stateful tasks moved, want 2 (input partitions are stateless tasks)", n)
	}
}

// streamsGroup is a StreamsGroupDescribe answer for the word count of
// app: subtopology 0 splits the input into the repartition topic, 1
// counts it; members maps each instance to its active tasks.
func streamsGroup(app, state string, epoch int32, members map[string][]kmsg.TaskIDs) kmsg.StreamsGroupDescribeResponseGroup {
	g := kmsg.StreamsGroupDescribeResponseGroup{Group: app, State: state, Epoch: epoch, Topology: &kmsg.StreamsGroupDescribeResponseGroupTopology{}}
	split := kmsg.StreamsGroupDescribeResponseGroupTopologySubtopology{SubtopologyID: "0", SourceTopics: []string{app + "-in"},
		RepartitionSinkTopics: []string{app + "-counts-repartition"}}
	count := kmsg.StreamsGroupDescribeResponseGroupTopologySubtopology{SubtopologyID: "1",
		RepartitionSourceTopics: []kmsg.TopicInfo{{Topic: app + "-counts-repartition"}}, StateChangelogTopics: []kmsg.TopicInfo{{Topic: app + "-counts-changelog"}}}
	g.Topology.Subtopologies = append(g.Topology.Subtopologies, split, count)
	for _, inst := range slices.Sorted(maps.Keys(members)) {
		m := kmsg.StreamsGroupDescribeResponseGroupMember{ClientID: app + "-" + inst + "-StreamThread-1-consumer"}
		m.Assignment.ActiveTasks = members[inst]
		g.Members = append(g.Members, m)
	}
	return g
}

func TestStreamsStateTakesTheCountsTasks(t *testing.T) {
	app := "bench-rebalance-streams-sf-0-abc"
	g := streamsGroup(app, "Stable", 7, map[string][]kmsg.TaskIDs{
		"A": {{SubtopologyID: "0", Partitions: []int32{0, 1}}, {SubtopologyID: "1", Partitions: []int32{0, 2}}},
		"B": {{SubtopologyID: "0", Partitions: []int32{2, 3}}, {SubtopologyID: "1", Partitions: []int32{1}}},
		"C": {{SubtopologyID: "1", Partitions: []int32{3}}},
	})
	st := streamsState(g, 3)
	if !st.stable || st.epoch != 7 || !maps.Equal(st.tasks, map[int32]string{0: "A", 1: "B", 2: "A", 3: "C"}) {
		t.Fatalf("state %+v, want stable at epoch 7 with 1_0 and 1_2 on A, 1_1 on B, 1_3 on C", st)
	}
	if st := streamsState(g, 2); st.stable || st.epoch != 7 {
		t.Fatalf("with 2 members wanted: %+v, want not stable at epoch 7", st)
	}
	g.Members[2].Assignment.ActiveTasks = nil
	if st := streamsState(g, 3); st.stable {
		t.Fatalf("a member without active tasks: %+v, want not stable", st)
	}
	if st := streamsState(streamsGroup(app, "Reconciling", 8, nil), 0); st.stable || st.epoch != 8 {
		t.Fatalf("reconciling: %+v, want not stable at epoch 8", st)
	}
}

func TestStreamsGroupRebalancesCountTheEpoch(t *testing.T) {
	w := &groupWatch{group: "app", streams: true}
	if !w.counts() {
		t.Fatal("a streams group's rebalances are always counted")
	}
	for i, step := range []struct {
		epoch   int32
		changed bool
		total   int
	}{
		{3, false, 0}, // the first look sets the base
		{3, false, 0},
		{0, false, 0}, // not described
		{4, true, 1},  // the join
		{6, true, 3},  // two between looks
		{6, false, 3},
		{1, false, 3}, // made anew: a new base
		{2, true, 4},
	} {
		if got := w.counted(groupState{epoch: step.epoch}); got != step.changed || w.generations != step.total {
			t.Fatalf("step %d (epoch %d): changed %v with %d rebalances, want %v with %d", i, step.epoch, got, w.generations, step.changed, step.total)
		}
	}
}

func TestFirstOutputOfANewOwner(t *testing.T) {
	t0 := time.Unix(1000, 0)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	o := &outputTail{
		arrived:  [][]time.Time{{at(100), at(200), at(300), at(7000), at(7100)}, nil},
		producer: [][]int64{{5, 5, 5, 9, 9}, nil},
	}
	if id := o.lastProducer(0); id != 9 {
		t.Fatalf("last producer %d, want 9", id)
	}
	if id := o.lastProducer(1); id != -1 {
		t.Fatalf("last producer of a partition without records %d, want -1", id)
	}
	// The old owner's last transaction became visible just after the kill
	// (at 250 ms): the new owner's first output is the one at 7 s.
	if got, ok := o.firstAfter(0, at(250), 5); !ok || !got.Equal(at(7000)) {
		t.Fatalf("first output of a new owner at %v (%v), want 7s", got.Sub(t0), ok)
	}
	if _, ok := o.firstAfter(0, at(7100), 5); ok {
		t.Fatal("no record arrived after 7.1 s")
	}
	if _, ok := o.firstAfter(1, at(0), 5); ok {
		t.Fatal("partition 1 received nothing")
	}
}

func TestStatefulTasks(t *testing.T) {
	app := "bench-failover-1-ks-0-abc"
	rep := app + "-KSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition"
	owners := map[topicPartition]string{{app + "-in", 0}: "B", {rep, 0}: "A", {rep, 1}: "B", {"other-repartition", 2}: "B"}
	got := statefulTasks(owners, app)
	if len(got) != 2 || got[0] != "A" || got[1] != "B" {
		t.Fatalf("stateful tasks %v, want 1_0 on A and 1_1 on B only", got)
	}
	if s := statefulOwners(got, statefulTasks(map[topicPartition]string{{rep, 0}: "B", {rep, 1}: "B"}, app)); s != "1_0 A→B, 1_1 B→B" {
		t.Fatalf("owners %q", s)
	}
}
