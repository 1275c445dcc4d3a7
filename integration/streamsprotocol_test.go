package integration

import (
	"context"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/stoatflow/stoatflow/examples/replacethread"
	"github.com/stoatflow/stoatflow/examples/wordcount"
	"github.com/stoatflow/stoatflow/internal/streamsgroup"
	"github.com/stoatflow/stoatflow/internal/testkafka"
	"github.com/stoatflow/stoatflow/streams"
)

// TestWordCountStreamsProtocolMatchesClassic runs the word count under
// exactly_once_v2 twice on the same input, once with group.protocol=classic
// and once with group.protocol=streams (KIP-1071), and requires the same
// committed output of both, each word's counts in order. Under streams the
// instance's threads are the streams group's members, with its process id,
// and between them own every task the broker assigns.
func TestWordCountStreamsProtocolMatchesClassic(t *testing.T) {
	t.Parallel()
	const partitions = 4
	var lines []string
	for i := range 40 {
		lines = append(lines, sampleLines[i%len(sampleLines)], fmt.Sprintf("word%d kafka w%d", i%9, i%5))
	}
	want, total := expectedUpdates(lines)
	for _, threads := range []int{1, 2} {
		t.Run(fmt.Sprintf("threads=%d", threads), func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
			defer cancel()
			set := func(protocol string) map[string]string {
				return map[string]string{
					"processing.guarantee": "exactly_once_v2",
					"num.stream.threads":   fmt.Sprint(threads),
					"commit.interval.ms":   "100",
					"group.protocol":       protocol,
				}
			}
			classic, sg := newWordCountApp(t, partitions), newWordCountApp(t, partitions)
			classic.feed(t, lines, partitions)
			sg.feed(t, lines, partitions)

			ksClassic := classic.start(t, ctx, set("classic"), nil)
			defer ksClassic.Close(context.Background())
			ks := sg.start(t, ctx, set("streams"), nil)
			defer ks.Close(context.Background())

			gotClassic := readUpdates(t, classic.bootstrap, classic.out, total)
			got := readUpdates(t, sg.bootstrap, sg.out, total)
			checkUpdates(t, gotClassic, want)
			checkUpdates(t, got, want)
			for w, seq := range gotClassic {
				if fmt.Sprint(got[w]) != fmt.Sprint(seq) {
					t.Errorf("word %q: streams protocol %v, classic %v", w, got[w], seq)
				}
			}

			cl, err := kgo.NewClient(kgo.SeedBrokers(sg.bootstrap))
			if err != nil {
				t.Fatal(err)
			}
			defer cl.Close()
			members, err := describeStreamsGroupMembers(ctx, cl, sg.appID)
			if err != nil {
				t.Fatalf("describing the streams group %s: %v", sg.appID, err)
			}
			if len(members) != threads {
				t.Fatalf("the streams group has %d members, want one per thread (%d)", len(members), threads)
			}
			var owned []streamsgroup.TaskID
			for _, m := range members {
				if m.ProcessID != ks.ProcessID() {
					t.Errorf("member %s has process id %s, want the instance's %s", m.MemberID, m.ProcessID, ks.ProcessID())
				}
				owned = append(owned, describedTasks(m.Assignment.ActiveTasks)...)
			}
			slices.SortFunc(owned, cmpTask)
			if len(owned) != 2*partitions || len(slices.Compact(slices.Clone(owned))) != len(owned) {
				t.Errorf("the members own the active tasks %v, want each of the %d tasks once", owned, 2*partitions)
			}

			if err := ks.Close(ctx); err != nil {
				t.Fatal(err)
			}
			if err := ksClassic.Close(ctx); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestStreamsProtocolSharesGroupWithKafkaStreams: a Kafka Streams 4.4 word
// count and a StoatFlow one, both with group.protocol=streams under
// exactly_once_v2, run as one application in one streams group while input
// flows. The StoatFlow instance joins the running JVM's group, the broker
// moves a share of the tasks to it (the two processes' active tasks
// disjoint, covering every task), the StoatFlow instance leaves and the JVM
// takes every task back; every word's counts are exactly 1..n across all of
// it.
func TestStreamsProtocolSharesGroupWithKafkaStreams(t *testing.T) {
	t.Parallel()
	const partitions = 4
	a := newWordCountApp(t, partitions)
	props, set := streamsProtocolWordCount(t, a, nil)
	args := map[string]string{"input": a.in, "output": a.out}
	cl, err := testkafka.NewClient(a.bootstrap)
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 6*time.Minute)
	defer cancel()

	lines := generatedLines(1500)
	fed := a.feedSteadily(t, lines, 15, 100*time.Millisecond)
	jvm := startEngine(t, true, wordcount.Name, props, set, args)
	goes := startEngine(t, false, wordcount.Name, props, set, args)

	// waitSplit waits until the group has n processes, each owning active
	// tasks, whose tasks are disjoint and cover every task.
	waitSplit := func(what string, n int) {
		t.Helper()
		deadline := time.Now().Add(2 * time.Minute)
		last := ""
		for {
			members, err := describeStreamsGroupMembers(ctx, cl, a.appID)
			if err != nil {
				last = err.Error()
			} else {
				byProcess := map[string][]streamsgroup.TaskID{}
				var all []streamsgroup.TaskID
				for _, m := range members {
					tasks := describedTasks(m.Assignment.ActiveTasks)
					byProcess[m.ProcessID] = append(byProcess[m.ProcessID], tasks...)
					all = append(all, tasks...)
				}
				slices.SortFunc(all, cmpTask)
				owning := 0
				for _, tasks := range byProcess {
					if len(tasks) > 0 {
						owning++
					}
				}
				if owning == n && len(byProcess) == n && len(all) == 2*partitions && len(slices.Compact(slices.Clone(all))) == len(all) {
					t.Logf("%s: %v", what, byProcess)
					return
				}
				last = fmt.Sprintf("active tasks by process %v", byProcess)
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: not after 2 minutes (last: %s)\nKafka Streams:\n%s\nStoatFlow:\n%s", what, last, jvm.log(), goes.log())
			}
			time.Sleep(500 * time.Millisecond)
		}
	}
	waitSplit("the StoatFlow instance shares the tasks with Kafka Streams", 2)
	goes.stop(t)
	waitSplit("the StoatFlow instance left; Kafka Streams holds every task", 1)
	fed.wait()

	_, total := expectedUpdates(lines)
	checkExactlyOnceCounts(t, readUpdates(t, a.bootstrap, a.out, total), lines)
	if strings.Contains(goes.log(), "level=ERROR") {
		t.Errorf("the StoatFlow instance logged errors:\n%s", goes.log())
	}
	jvm.stop(t)
}

// TestStreamsProtocolShutdownApplication: two StoatFlow instances of the
// replacethread word count in one streams group answer a failed stream
// thread with SHUTDOWN_APPLICATION. The words before the failure are
// committed; the poison record fails the instance that owns its
// partition, which asks the group through a heartbeat's shutdown flag, and
// both instances end in ERROR: the other one with ErrApplicationShutdown.
func TestStreamsProtocolShutdownApplication(t *testing.T) {
	t.Parallel()
	replaceThreadMu.Lock()
	defer replaceThreadMu.Unlock()
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	props := filepath.Join(root, "examples", "replacethread", "streams.properties")
	bootstrap := testkafka.Bootstrap(t)
	in := testkafka.Topic(t, "in")
	out := in + "-out"
	testkafka.CreateTopics(t, bootstrap, 2, in, out)
	var before []testkafka.Record
	for i := range 20 {
		before = append(before, testkafka.Record{Topic: in, Partition: int32(i % 2), Key: []byte(fmt.Sprintf("k%d", i)),
			Value: []byte([]string{"ant", "bee", "cat"}[i%3]), Timestamp: time.UnixMilli(epochBase + int64(i)*100)})
	}
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	replacethread.Rearm()
	var instances []*streams.KafkaStreams
	for range 2 {
		cfg, err := LoadConfig([]string{props}, map[string]string{"bootstrap.servers": bootstrap, "application.id": in + "-app",
			"state.dir": t.TempDir(), "group.protocol": "streams", "stoatflow.thread.uncaught-exception-response": "SHUTDOWN_APPLICATION"})
		if err != nil {
			t.Fatal(err)
		}
		ks, err := StartStoatFlow(ctx, replacethread.Build, map[string]string{"input": in, "output": out}, cfg)
		if err != nil {
			t.Fatal(err)
		}
		defer ks.Close(context.Background())
		instances = append(instances, ks)
	}
	testkafka.Produce(t, bootstrap, before...)
	if _, err := testkafka.ReadCommitted(bootstrap, out, len(before), 2*time.Minute, time.Second); err != nil {
		t.Fatalf("before the failure: %v", err)
	}
	testkafka.Produce(t, bootstrap, testkafka.Record{Topic: in, Partition: 0, Key: []byte("poison"),
		Value: []byte(replacethread.Poison), Timestamp: time.UnixMilli(epochBase + 10_000)})
	failing := awaitApplicationShutdown(ctx, t, instances)
	if failing != 1 || !replacethread.Failed() {
		t.Errorf("%d instances stopped with their own failure, want the one that read the poison record", failing)
	}
}

// TestStreamsProtocolHandOverExactlyOnce: two StoatFlow word counts in one
// streams group under exactly_once_v2, with one standby replica per task
// (the group's streams.num.standby.replicas), while input flows. The
// second instance takes a share of the first one's tasks (revoked,
// committed and closed there), both instances' query metadata name both
// endpoints, each with active and standby partitions; the first closes
// leaving the group and the second takes every task. Every word's counts
// are exactly 1..n across all of it.
func TestStreamsProtocolHandOverExactlyOnce(t *testing.T) {
	t.Parallel()
	const partitions = 4
	a := newWordCountApp(t, partitions)
	cl, err := testkafka.NewClient(a.bootstrap)
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	standbys := setStreamsGroupConfig(t, cl, a.appID, "streams.num.standby.replicas", "1")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()

	lines := generatedLines(1500)
	fed := a.feedSteadily(t, lines, 15, 100*time.Millisecond)
	set := func(port int) map[string]string {
		return map[string]string{"processing.guarantee": "exactly_once_v2", "commit.interval.ms": "100", "group.protocol": "streams",
			"application.server": fmt.Sprintf("localhost:%d", port), "state.dir": t.TempDir()}
	}
	first := a.start(t, ctx, set(7801), nil)
	defer first.Close(context.Background())
	second := a.start(t, ctx, set(7802), nil)
	defer second.Close(context.Background())

	// waitHosts waits until ks's query metadata names exactly hosts, each
	// with active partitions, every source partition of the word count's
	// two sub-topologies hosted once, and (with standbys) each host with
	// standby partitions.
	waitHosts := func(what string, ks *streams.KafkaStreams, ports ...int32) {
		t.Helper()
		deadline := time.Now().Add(2 * time.Minute)
		var last []streams.StreamsMetadata
		for {
			last = ks.AllMetadata()
			ok := len(last) == len(ports)
			total := 0
			for _, md := range last {
				total += len(md.TopicPartitions)
				ok = ok && slices.Contains(ports, md.Host.Port) && len(md.TopicPartitions) > 0 &&
					(!standbys || len(ports) < 2 || len(md.StandbyTopicPartitions) > 0)
			}
			if ok && total == 2*partitions {
				t.Logf("%s: %+v", what, last)
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: not after 2 minutes; metadata %+v", what, last)
			}
			time.Sleep(500 * time.Millisecond)
		}
	}
	waitHosts("two instances share the tasks", first, 7801, 7802)
	waitHosts("the second instance sees the same", second, 7801, 7802)
	if err := first.CloseWith(ctx, streams.CloseOptions{LeaveGroup: true}); err != nil {
		t.Fatal(err)
	}
	waitHosts("the first instance left; the second holds every task", second, 7802)
	fed.wait()

	_, total := expectedUpdates(lines)
	checkExactlyOnceCounts(t, readUpdates(t, a.bootstrap, a.out, total), lines)
	if err := second.Close(ctx); err != nil {
		t.Fatal(err)
	}
}

// setStreamsGroupConfig sets a streams group's dynamic config (a GROUP
// config resource) and reports whether the broker took it.
func setStreamsGroupConfig(t *testing.T, cl *kgo.Client, group, key, value string) bool {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	req := kmsg.NewPtrIncrementalAlterConfigsRequest()
	r := kmsg.NewIncrementalAlterConfigsRequestResource()
	r.ResourceType, r.ResourceName = kmsg.ConfigResourceTypeGroupConfig, group
	c := kmsg.NewIncrementalAlterConfigsRequestResourceConfig()
	c.Name, c.Value = key, &value
	r.Configs = append(r.Configs, c)
	req.Resources = append(req.Resources, r)
	resp, err := req.RequestWith(ctx, cl)
	if err == nil && len(resp.Resources) == 1 {
		err = kerr.ErrorForCode(resp.Resources[0].ErrorCode)
	}
	if err != nil {
		t.Logf("setting %s=%s on group %s: %v; running without it", key, value, group, err)
		return false
	}
	return true
}

// TestStreamsProtocolThreadsAddedAndRemoved: under group.protocol=streams an
// added stream thread is a new member of the streams group that takes a
// share of the tasks, and a removed one leaves at once (its static member
// included, at epoch -1), its tasks going to the thread left well before
// the group's session timeout; the word count's output is exactly once.
func TestStreamsProtocolThreadsAddedAndRemoved(t *testing.T) {
	t.Parallel()
	const partitions = 4
	a := newWordCountApp(t, partitions)
	cl, err := testkafka.NewClient(a.bootstrap)
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	lines := generatedLines(1000)
	fed := a.feedSteadily(t, lines, 15, 100*time.Millisecond)
	ks := a.start(t, ctx, map[string]string{"processing.guarantee": "exactly_once_v2", "commit.interval.ms": "100",
		"group.protocol": "streams"}, nil)
	defer ks.Close(context.Background())

	// waitMembers waits until the group has n members, each owning active
	// tasks, that own every task once.
	waitMembers := func(what string, n int, within time.Duration) {
		t.Helper()
		deadline := time.Now().Add(within)
		last := ""
		for {
			members, err := describeStreamsGroupMembers(ctx, cl, a.appID)
			if err == nil {
				var all []streamsgroup.TaskID
				owning := 0
				for _, m := range members {
					tasks := describedTasks(m.Assignment.ActiveTasks)
					if len(tasks) > 0 {
						owning++
					}
					all = append(all, tasks...)
				}
				slices.SortFunc(all, cmpTask)
				if len(members) == n && owning == n && len(all) == 2*partitions && len(slices.Compact(slices.Clone(all))) == len(all) {
					return
				}
				last = fmt.Sprintf("%d members, %d owning tasks, tasks %v", len(members), owning, all)
			} else {
				last = err.Error()
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: not within %v (last: %s)", what, within, last)
			}
			time.Sleep(300 * time.Millisecond)
		}
	}
	waitMembers("one thread holds every task", 1, time.Minute)
	if _, err := ks.AddStreamThread(); err != nil {
		t.Fatal(err)
	}
	waitMembers("the added thread takes a share", 2, time.Minute)
	if _, err := ks.RemoveStreamThread(ctx); err != nil {
		t.Fatal(err)
	}
	waitMembers("the removed thread's tasks go to the other at once", 1, 20*time.Second)
	fed.wait()
	_, total := expectedUpdates(lines)
	checkExactlyOnceCounts(t, readUpdates(t, a.bootstrap, a.out, total), lines)
	if err := ks.Close(ctx); err != nil {
		t.Fatal(err)
	}
}

// TestStreamsProtocolKilledInstanceExactlyOnce: two StoatFlow word counts
// in one streams group under exactly_once_v2, with a transaction timeout
// far past the group's session timeout; one is killed while input flows.
// Once the group's session timeout has passed, the survivor takes its
// tasks and fences the transaction the killed process left open (its
// process is no longer among the streams group's members), rather than
// waiting for the broker to abort it; every word's counts are exactly 1..n.
func TestStreamsProtocolKilledInstanceExactlyOnce(t *testing.T) {
	t.Parallel()
	const partitions = 4
	a := newWordCountApp(t, partitions)
	props, set := streamsProtocolWordCount(t, a, map[string]string{"transaction.timeout.ms": "600000",
		// Dynamic members: a killed static member's tasks would wait for
		// its session all the same, but this keeps the test about the
		// transaction.
		"stoatflow.consumer.static-membership": "false"})
	args := map[string]string{"input": a.in, "output": a.out}
	cl, err := testkafka.NewClient(a.bootstrap)
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	admin := kadm.NewClient(cl)
	ctx, cancel := context.WithTimeout(context.Background(), 6*time.Minute)
	defer cancel()

	lines := generatedLines(1500)
	fed := a.feedSteadily(t, lines, 15, 100*time.Millisecond)
	withServer := func(port int) map[string]string {
		m := cloneMap(set)
		m["application.server"] = fmt.Sprintf("localhost:%d", port)
		return m
	}
	victim := startEngine(t, false, wordcount.Name, props, withServer(7901), args)
	survivor := startEngine(t, false, wordcount.Name, props, withServer(7902), args)
	waitProcesses := func(what string, n int) {
		t.Helper()
		deadline := time.Now().Add(3 * time.Minute)
		last := ""
		for {
			members, err := describeStreamsGroupMembers(ctx, cl, a.appID)
			if err == nil {
				byProcess := map[string]int{}
				var all []streamsgroup.TaskID
				for _, m := range members {
					tasks := describedTasks(m.Assignment.ActiveTasks)
					byProcess[m.ProcessID] += len(tasks)
					all = append(all, tasks...)
				}
				slices.SortFunc(all, cmpTask)
				owning := 0
				for _, k := range byProcess {
					if k > 0 {
						owning++
					}
				}
				if len(byProcess) == n && owning == n && len(all) == 2*partitions && len(slices.Compact(slices.Clone(all))) == len(all) {
					return
				}
				last = fmt.Sprintf("active tasks per process %v", byProcess)
			} else {
				last = err.Error()
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: not after 3 minutes (last: %s)\nsurvivor:\n%s", what, last, survivor.log())
			}
			time.Sleep(500 * time.Millisecond)
		}
	}
	waitProcesses("two instances share the tasks", 2)
	// The victim is killed while a transaction of its own is open.
	members, err := describeStreamsGroupMembers(ctx, cl, a.appID)
	if err != nil {
		t.Fatal(err)
	}
	victimTxn := ""
	for _, m := range members {
		if m.UserEndpoint != nil && m.UserEndpoint.Port == 7901 {
			victimTxn = a.appID + "-" + m.ProcessID + "-"
		}
	}
	if victimTxn == "" {
		t.Fatalf("no member at the victim's endpoint: %+v", members)
	}
	ongoing := func() bool {
		listed, err := admin.ListTransactions(ctx, nil, []string{"Ongoing"})
		if err != nil {
			return false
		}
		for id, l := range listed {
			if strings.HasPrefix(id, victimTxn) && l.State == "Ongoing" {
				return true
			}
		}
		return false
	}
	for deadline := time.Now().Add(10 * time.Second); !ongoing() && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
	}
	victim.kill()
	killed := time.Now()
	time.Sleep(time.Second)
	abandoned := ongoing()
	t.Logf("the victim's transaction open after the kill: %t", abandoned)
	waitProcesses("the survivor holds every task", 1)
	t.Logf("the survivor holds every task %v after the kill", time.Since(killed).Round(time.Second))
	fed.wait()
	_, total := expectedUpdates(lines)
	checkExactlyOnceCounts(t, readUpdates(t, a.bootstrap, a.out, total), lines)
	if d := time.Since(killed); d > 3*time.Minute {
		t.Errorf("the output was complete %v after the kill: the killed instance's transaction was not fenced", d)
	}
	if fenced := strings.Contains(survivor.log(), "fenced the open transaction"); abandoned && !fenced {
		t.Errorf("the killed instance's transaction was open, and the survivor did not fence it; log:\n%s", survivor.log())
	}
	survivor.stop(t)
}

// TestStreamsProtocolStaticMemberRestartsAfterKill: a StoatFlow instance of
// a streams group, a static member (stoatflow.consumer.static-membership,
// the default), is killed and restarted at once on the same state
// directory: its members' instance ids are still held by the killed
// incarnation's members until their session times out, which the new
// members wait out rather than fail; the restarted instance then runs every
// task and the counts stay exactly 1..n.
func TestStreamsProtocolStaticMemberRestartsAfterKill(t *testing.T) {
	t.Parallel()
	const partitions = 2
	a := newWordCountApp(t, partitions)
	props, set := streamsProtocolWordCount(t, a, map[string]string{"state.dir": a.stateDir})
	args := map[string]string{"input": a.in, "output": a.out}
	lines := generatedLines(300)
	a.feedFrom(t, lines[:150], 0, partitions)
	first := startChild(t, childSpec{Topology: wordcount.Name, Args: args, Files: []string{props}, Set: set})
	first.wait(t, "RUNNING", 2*time.Minute)
	if _, err := testkafka.ReadCommitted(a.bootstrap, a.out, 150, 2*time.Minute, time.Second); err != nil {
		t.Fatal(err)
	}
	first.kill()
	a.feedFrom(t, lines[150:], 150, partitions)
	second := startChild(t, childSpec{Topology: wordcount.Name, Args: args, Files: []string{props}, Set: set})
	second.wait(t, "RUNNING", 3*time.Minute)
	_, total := expectedUpdates(lines)
	checkExactlyOnceCounts(t, readUpdates(t, a.bootstrap, a.out, total), lines)
	second.stop(t)
}

// streamsProtocolWordCount is the word count example's properties file and
// the settings of a for group.protocol=streams under exactly_once_v2, with
// extra over them.
func streamsProtocolWordCount(t *testing.T, a *wordCountApp, extra map[string]string) (props string, set map[string]string) {
	t.Helper()
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	set = map[string]string{"application.id": a.appID, "bootstrap.servers": a.bootstrap, "group.protocol": "streams",
		"processing.guarantee": "exactly_once_v2", "commit.interval.ms": "100"}
	maps.Copy(set, extra)
	return filepath.Join(root, "examples", "wordcount", "streams.properties"), set
}
