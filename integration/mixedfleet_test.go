package integration

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"

	"github.com/stoatflow/stoatflow/examples/wordcount"
	"github.com/stoatflow/stoatflow/internal/testkafka"
	"github.com/stoatflow/stoatflow/streams"
)

// feed is input produced in the background by feedSteadily.
type feed struct {
	stop chan struct{}
	wg   sync.WaitGroup
}

// wait waits until every line was produced (or the feed was stopped).
func (f *feed) wait() { f.wg.Wait() }

// feedSteadily produces lines to the word count's input in the background,
// batch lines every pause, while a test changes the fleet; the test's end
// stops it.
func (a *wordCountApp) feedSteadily(t *testing.T, lines []string, batch int, pause time.Duration) *feed {
	f := &feed{stop: make(chan struct{})}
	f.wg.Go(func() {
		for fed := 0; fed < len(lines); {
			select {
			case <-f.stop:
				return
			default:
			}
			n := min(batch, len(lines)-fed)
			a.feedFrom(t, lines[fed:fed+n], fed, 4)
			fed += n
			time.Sleep(pause)
		}
	})
	t.Cleanup(func() {
		close(f.stop)
		f.wg.Wait()
	})
	return f
}

// waitGroupSplit waits until the application's group is stable under Kafka
// Streams' "stream" protocol with n members, each of which holds
// partitions, and returns the member count per client id prefix.
func waitGroupSplit(t *testing.T, admin *kadm.Client, group string, n int) kadm.DescribedGroup {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		gs, err := admin.DescribeGroups(ctx, group)
		cancel()
		if err == nil {
			if g, ok := gs[group]; ok && g.Err == nil && g.State == "Stable" && g.Protocol == "stream" && len(g.Members) == n {
				split := true
				for _, m := range g.Members {
					if ma, ok := m.Assigned.AsConsumer(); !ok || len(ma.Topics) == 0 {
						split = false
					}
				}
				if split {
					return g
				}
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("group %s did not settle with %d members holding partitions under the stream protocol in 2 minutes: %v %v", group, n, gs, err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// taskOwners maps each task of app to the instance holding it: the label
// its members' client ids carry after <application.id>- (see
// fleet.label), or for an instance without one the client id without its
// thread's suffix.
func taskOwners(g kadm.DescribedGroup, app *fleetApp) map[string]string {
	owners := map[string]string{}
	for _, m := range g.Members {
		ma, ok := m.Assigned.AsConsumer()
		if !ok {
			continue
		}
		inst := m.ClientID
		if i := strings.Index(inst, "-StreamThread-"); i >= 0 {
			inst = inst[:i]
		}
		inst = strings.TrimPrefix(inst, app.appID+"-")
		for _, tp := range ma.Topics {
			for _, p := range tp.Partitions {
				owners[app.taskOf(tp.Topic, p)] = inst
			}
		}
	}
	return owners
}

// byOwner renders a snapshot as each instance's tasks.
func byOwner(owners map[string]string) string {
	tasks := map[string][]string{}
	for task, o := range owners {
		tasks[o] = append(tasks[o], task)
	}
	var parts []string
	for o, ts := range tasks {
		slices.Sort(ts)
		parts = append(parts, fmt.Sprintf("%s=%v", o, ts))
	}
	slices.Sort(parts)
	return strings.Join(parts, " ")
}

// movedTasks counts the tasks whose owner changed between two snapshots.
func movedTasks(before, after map[string]string) int {
	n := 0
	for task, owner := range after {
		if before[task] != owner {
			n++
		}
	}
	return n
}

// TestMixedFleetRollingMigration: the word count and the windowed count
// each run on two Kafka Streams 4.4 instances and one StoatFlow instance in
// one group while input flows under exactly_once_v2; each Kafka Streams
// instance is replaced by a StoatFlow one (start the new, then stop the
// old), then the fleet goes back to two Kafka Streams and one StoatFlow the
// same way. Each step reports the tasks that moved against the fewest it
// could, the rebalances, the records restored, the duplicate and missing
// updates against an uninterrupted run, and the output's longest pause; a
// StoatFlow instance never closes a task it keeps, and both engines'
// leaders computed assignments.
//
// Under Kafka Streams' default assignor (the HighAvailabilityTaskAssignor)
// the tasks moved are what a Kafka Streams 4.4 leader moves, which is more
// than the fewest once every client is caught up: it deals stateful
// actives round robin before any stickiness applies. The word count runs
// a second time with task.assignor.class set to Kafka Streams' KIP-924
// StickyTaskAssignor on both engines, and there every step must move the
// fewest tasks it can.
func TestMixedFleetRollingMigration(t *testing.T) {
	t.Parallel()
	for name, app := range map[string]func(*testing.T) *fleetApp{"wordcount": newWordCountFleet, "windowedcount": newWindowedCountFleet} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			rollingMigration(t, app(t), false)
		})
	}
	t.Run("wordcount-sticky", func(t *testing.T) {
		t.Parallel()
		app := newWordCountFleet(t)
		app.name = "word count, StickyTaskAssignor"
		app.extra = map[string]string{"task.assignor.class": stickyAssignorClass}
		rollingMigration(t, app, true)
	})
}

// stickyAssignorClass is Kafka Streams 4.4's KIP-924 sticky assignor.
const stickyAssignorClass = "org.apache.kafka.streams.processor.assignment.assignors.StickyTaskAssignor"

func rollingMigration(t *testing.T, app *fleetApp, fewest bool) {
	fl := newFleet(t, app)
	es := fl.startAll(t, true, true, false)
	j1, j2 := es[0], es[1]
	t.Logf("%s: two Kafka Streams and one StoatFlow instance: %s; J1 started first and leads the group (or founds a streams group)", app.name, byOwner(fl.owners))
	if app.streamsProtocol() {
		fl.checkFoundedTopology(t)
	}
	jvm, goes := true, false
	s2 := fl.step(t, "S2 joins", &goes, nil)
	fl.step(t, "J1 leaves", nil, j1)
	s3 := fl.step(t, "S3 joins", &goes, nil)
	fl.step(t, "J2 leaves", nil, j2)
	t.Logf("%s: the fleet is StoatFlow only", app.name)
	fl.step(t, "J3 joins", &jvm, nil)
	fl.step(t, "S3 leaves", nil, s3)
	fl.step(t, "J4 joins", &jvm, nil)
	fl.step(t, "S2 leaves", nil, s2)
	t.Logf("%s: the fleet is two Kafka Streams and one StoatFlow again", app.name)
	fl.finish(t)
	var snaps []streams.AssignmentSnapshot
	for _, e := range fl.engines {
		if g, ok := e.(goEngine); ok {
			snaps = append(snaps, g.c.snapshots()...)
		}
	}
	if fewest {
		for _, s := range fl.steps {
			if s.moved != s.min {
				t.Errorf("%s: step %s moved %d tasks, the fewest it could is %d", app.name, s.name, s.moved, s.min)
			}
		}
	}

	if app.streamsProtocol() {
		// The broker assigns a streams group's tasks: no member leads.
		fl.stopAll(t)
		return
	}
	replayLeaderSnapshots(t, snaps)
	const led = "computed the group's assignment as its leader"
	leaders := 0
	for _, e := range fl.engines {
		if g, ok := e.(goEngine); ok && strings.Contains(g.log(), led) {
			leaders++
		}
	}
	if leaders == 0 {
		t.Errorf("%s: no StoatFlow instance computed an assignment as the group's leader", app.name)
	}
	t.Logf("%s: %d StoatFlow instances led the group at some step; the Kafka Streams instance J1 led it until it left", app.name, leaders)
	fl.stopAll(t)
}

// TestMixedFleetCooperative: two Kafka Streams 4.4 and two StoatFlow
// instances run the word count while input flows under exactly_once_v2; a
// fifth instance joins, first a Kafka Streams one (which then leaves), then
// a StoatFlow one. No StoatFlow instance closes a task it keeps, and each
// join takes no more rebalances until the group is stable than the same
// join in a fleet of Kafka Streams instances only, which the test runs
// after.
func TestMixedFleetCooperative(t *testing.T) {
	t.Parallel()
	jvm, goes := true, false
	fl := newFleet(t, newWordCountFleet(t))
	fl.startAll(t, true, true, false, false)
	t.Logf("mixed: %s", byOwner(fl.owners))
	j5 := fl.step(t, "J3 joins", &jvm, nil)
	mixedJVM := fl.steps[len(fl.steps)-1]
	fl.step(t, "J3 leaves", nil, j5)
	fl.step(t, "S3 joins", &goes, nil)
	mixedGo := fl.steps[len(fl.steps)-1]
	fl.finish(t)
	fl.stopAll(t)

	base := newFleet(t, newWordCountFleet(t))
	base.app.name = "Kafka Streams only"
	base.startAll(t, true, true, true, true)
	base.step(t, "J5 joins", &jvm, nil)
	own := base.steps[0]
	base.finish(t)
	base.stopAll(t)

	if own.rebalances < 0 {
		t.Logf("rebalances not compared: the broker's log is not readable")
		return
	}
	t.Logf("rebalances until stable: Kafka Streams joins the mixed fleet %d, StoatFlow joins it %d, Kafka Streams joins a Kafka Streams fleet %d",
		mixedJVM.rebalances, mixedGo.rebalances, own.rebalances)
	for _, s := range []*fleetStep{mixedJVM, mixedGo} {
		if s.rebalances > own.rebalances {
			t.Errorf("%s took %d rebalances until stable, Kafka Streams' own fleet %d", s.name, s.rebalances, own.rebalances)
		}
	}
}

// TestMixedFleetShareGroup: Kafka Streams 4.4 and StoatFlow instances of
// the word count run as one application, in one consumer group under Kafka
// Streams' cooperative "stream" assignor, while input flows under
// exactly_once_v2. A Kafka Streams instance starts and leads; a StoatFlow
// instance joins and takes its share of the tasks from the Kafka Streams
// leader's assignment; a second StoatFlow instance joins; the Kafka Streams
// instance leaves and a StoatFlow leader assigns its tasks. Every word's
// counts are exactly 1..n across all of it.
func TestMixedFleetShareGroup(t *testing.T) {
	t.Parallel()
	a := newWordCountApp(t, 4)
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	props := filepath.Join(root, "examples", "wordcount", "streams.properties")
	set := a.config(t, map[string]string{"processing.guarantee": "exactly_once_v2", "commit.interval.ms": "100"})
	args := map[string]string{"input": a.in, "output": a.out}
	admin := testkafka.Admin(t, a.bootstrap)

	lines := generatedLines(1500)
	fed := a.feedSteadily(t, lines, 15, 100*time.Millisecond)

	jvm := startEngine(t, true, wordcount.Name, props, set, args)
	first := startEngine(t, false, wordcount.Name, props, set, args).(goEngine)
	g := waitGroupSplit(t, admin, a.appID, 2)
	t.Logf("one Kafka Streams and one StoatFlow instance share the group (%d members, protocol %s)", len(g.Members), g.Protocol)

	second := startEngine(t, false, wordcount.Name, props, set, args).(goEngine)
	waitGroupSplit(t, admin, a.appID, 3)
	t.Logf("a second StoatFlow instance joined: three members hold partitions")

	jvm.stop(t)
	waitGroupSplit(t, admin, a.appID, 2)
	t.Logf("the Kafka Streams instance left; the StoatFlow instances hold every partition")
	fed.wait()

	_, total := expectedUpdates(lines)
	checkExactlyOnceCounts(t, readUpdates(t, a.bootstrap, a.out, total), lines)
	const led = "computed the group's assignment as its leader"
	logs := first.log() + second.log()
	if !strings.Contains(logs, led) {
		t.Errorf("no StoatFlow instance computed an assignment as the group's leader after the Kafka Streams leader left; logs:\n%s", logs)
	}
	for _, e := range []goEngine{first, second} {
		if strings.Contains(e.log(), "task assignment failed") || strings.Contains(e.log(), "INCONSISTENT_GROUP_PROTOCOL") {
			t.Errorf("a StoatFlow instance failed in the group:\n%s", e.log())
		}
	}
	second.stop(t)
	first.stop(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := waitNoOpenTransaction(ctx, admin, []string{a.out}); err != nil {
		t.Error(err)
	}
}
