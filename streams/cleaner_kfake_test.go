package streams_test

import (
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/compat"
	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/state"
	"github.com/stoatflow/stoatflow/streams"
)

// offsetClock runs with the wall clock from an offset the test moves, so
// that the dates the file system gives directories stay in step with it.
type offsetClock struct{ offset atomic.Int64 }

func (c *offsetClock) now() time.Time          { return time.Now().Add(time.Duration(c.offset.Load())) }
func (c *offsetClock) advance(d time.Duration) { c.offset.Add(int64(d)) }

// logger logs to b at Info.
func (b *lockedBuffer) logger() *slog.Logger {
	return slog.New(slog.NewTextHandler(b, &slog.HandlerOptions{Level: slog.LevelInfo}))
}

func dirExists(t *testing.T, path string) bool {
	t.Helper()
	_, err := os.Stat(path)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return err == nil
}

// countsTaskDir is the directory of the counts task of partition p.
func countsTaskDir(stateDir, app string, p int32) string {
	return filepath.Join(stateDir, app, state.TaskDirName(1, int(p)))
}

// TestKfakeCleanerDeletesTheStateOfATaskThatMovedAway: a second instance
// joins and takes one of the first's counts tasks. The first keeps that
// task's directory until state.cleanup.delay.ms (Kafka's 10 minutes) has
// passed since its thread let the task go, and deletes it at the first
// cleaner run after that; the task it still runs keeps its directory.
func TestKfakeCleanerDeletesTheStateOfATaskThatMovedAway(t *testing.T) {
	_, addr := startBroker(t)
	createTopics(t, addr, 2, "in", "out")
	const app = "cleaner-moved"
	cfg := func(dir string) *compat.Config {
		return appConfig(t, addr, app, dir, compat.StaticMembershipConfig+"=false")
	}
	dirA := t.TempDir()
	clock := &offsetClock{}
	a := startApp(t, countTopology(t, "in", "out"), cfg(dirA), streams.WithClock(clock.now))
	const n1 = 300
	words(t, addr, "in", 0, n1, vocab)
	checkCounts(t, readCounts(t, addr, "out", n1), wantCounts(n1, vocab))
	clock.advance(time.Hour) // the first instance ran its tasks for an hour

	b := startApp(t, countTopology(t, "in", "out"), cfg(t.TempDir()))
	waitFor(t, time.Minute, "one counts task on each instance", func() bool {
		return len(a.LocalStores("counts")) == 1 && len(b.LocalStores("counts")) == 1
	})
	var moved, kept int32
	for p := range partitionsOf(b.LocalStores("counts")) {
		moved, kept = p, 1-p
	}
	movedDir, keptDir := countsTaskDir(dirA, app, moved), countsTaskDir(dirA, app, kept)
	taskName := state.TaskDirName(1, int(moved))
	waitFor(t, time.Minute, "the first instance to let the moved task go", func() bool { return !streams.TaskDirHeld(a, taskName) })
	if !dirExists(t, movedDir) {
		t.Fatalf("the moved task's directory %s is not there after the move", movedDir)
	}

	streams.CleanRemovedTasks(a)
	clock.advance(10*time.Minute - 30*time.Second)
	streams.CleanRemovedTasks(a)
	if !dirExists(t, movedDir) {
		t.Fatal("the cleaner deleted the moved task's directory before state.cleanup.delay.ms had passed since the task moved")
	}
	clock.advance(30 * time.Second)
	streams.CleanRemovedTasks(a)
	if dirExists(t, movedDir) {
		t.Error("the moved task's directory is still there once state.cleanup.delay.ms has passed")
	}
	if !dirExists(t, keptDir) {
		t.Error("the cleaner deleted the directory of the task the instance still runs")
	}

	const n2 = 100
	words(t, addr, "in", n1, n2, vocab)
	checkCounts(t, readCounts(t, addr, "out", n1+n2), wantCounts(n1+n2, vocab))
	closeApp(t, b)
	closeApp(t, a)
}

// TestKfakeCleanerNeverDeletesAStandbysDirectory: with
// num.standby.replicas=1, each of two instances runs every counts task,
// as an active task or a standby; however long after, the cleaner deletes
// none of their directories, and the standbys go on following their
// actives.
func TestKfakeCleanerNeverDeletesAStandbysDirectory(t *testing.T) {
	_, addr := startBroker(t)
	createTopics(t, addr, 2, "in", "out")
	const app = "cleaner-standby"
	dirA, dirB := t.TempDir(), t.TempDir()
	clock := &offsetClock{}
	a := startApp(t, countTopology(t, "in", "out"), standbyConfig(t, addr, app, dirA), streams.WithClock(clock.now))
	b := startApp(t, countTopology(t, "in", "out"), standbyConfig(t, addr, app, dirB), streams.WithClock(clock.now))
	waitFor(t, time.Minute, "each counts partition active on one instance and standby on the other", func() bool { return replicated(2, a, b) })
	const n1 = 300
	words(t, addr, "in", 0, n1, vocab)
	checkCounts(t, readCounts(t, addr, "out", n1), wantCounts(n1, vocab))

	clock.advance(24 * time.Hour)
	streams.CleanRemovedTasks(a)
	streams.CleanRemovedTasks(b)
	for _, dir := range []string{dirA, dirB} {
		for p := range int32(2) {
			if !dirExists(t, countsTaskDir(dir, app, p)) {
				t.Errorf("the cleaner deleted %s, an active task's or a standby's", countsTaskDir(dir, app, p))
			}
		}
	}
	if !replicated(2, a, b) {
		t.Error("the cleaner's run changed where the tasks and standbys run")
	}
	const n2 = 100
	words(t, addr, "in", n1, n2, vocab)
	checkCounts(t, readCounts(t, addr, "out", n1+n2), wantCounts(n1+n2, vocab))
	waitFor(t, time.Minute, "the standbys to hold their actives' counts", func() bool { return standbysMatchActives(t, a, b) })
	closeApp(t, a)
	closeApp(t, b)
}

// TestKfakeCleanerRunsEveryCleanupDelay: the cleaner runs by itself every
// state.cleanup.delay.ms while the instance runs. It deletes a task
// directory an earlier run left and no thread took, logging as Kafka
// Streams does, and keeps the directories of the tasks the instance runs.
func TestKfakeCleanerRunsEveryCleanupDelay(t *testing.T) {
	_, addr := startBroker(t)
	createTopics(t, addr, 2, "in", "out")
	const app = "cleaner-runs"
	dir := t.TempDir()
	left := filepath.Join(dir, app, state.TaskDirName(7, 0)) // no sub-topology 7 here
	if err := os.MkdirAll(state.KeyValueDir(left, "old"), 0o755); err != nil {
		t.Fatal(err)
	}
	then := time.Now().Add(-time.Hour)
	if err := os.Chtimes(left, then, then); err != nil {
		t.Fatal(err)
	}
	logs := &lockedBuffer{}
	a := startApp(t, countTopology(t, "in", "out"), appConfig(t, addr, app, dir, "state.cleanup.delay.ms=200"), streams.WithLogger(logs.logger()))
	waitFor(t, time.Minute, "the cleaner to delete the directory left by an earlier run", func() bool { return !dirExists(t, left) })
	if want := "Deleting obsolete state directory 7_0 for task 7_0 as "; !strings.Contains(logs.String(), want) {
		t.Errorf("no log line %q:\n%s", want, logs.String())
	}
	words(t, addr, "in", 0, 100, vocab)
	checkCounts(t, readCounts(t, addr, "out", 100), wantCounts(100, vocab))
	time.Sleep(500 * time.Millisecond) // two more runs
	for p := range int32(2) {
		if !dirExists(t, countsTaskDir(dir, app, p)) {
			t.Errorf("the cleaner deleted %s, which a running task holds", countsTaskDir(dir, app, p))
		}
	}
	closeApp(t, a)
}

// TestKfakeStateDirMaxAgePurgesOldTaskDirectoriesAtStart: with
// state.cleanup.dir.max.age.ms set, Start deletes the task directories
// last modified longer ago than that, as Kafka Streams 4.3's start does
// (KIP-1259): their tasks restore from their changelogs in full, the
// younger ones resume from their stores' offsets, and the counts go on
// exactly once.
func TestKfakeStateDirMaxAgePurgesOldTaskDirectoriesAtStart(t *testing.T) {
	_, addr := startBroker(t)
	createTopics(t, addr, 2, "in", "out")
	const app = "max-age"
	dir := t.TempDir()
	topo := func() *kstreams.Topology { return countTopology(t, "in", "out") }
	a := startApp(t, topo(), appConfig(t, addr, app, dir))
	const n1 = 300
	words(t, addr, "in", 0, n1, vocab)
	checkCounts(t, readCounts(t, addr, "out", n1), wantCounts(n1, vocab))
	closeApp(t, a)

	old := time.Now().Add(-48 * time.Hour)
	if err := os.Chtimes(countsTaskDir(dir, app, 0), old, old); err != nil {
		t.Fatal(err)
	}
	hooks, logs := newCommitHooks(t), &lockedBuffer{}
	a = startApp(t, topo(), appConfig(t, addr, app, dir, "state.cleanup.dir.max.age.ms="+strconv.Itoa(24*3600*1000)),
		streams.WithHooks(hooks), streams.WithLogger(logs.logger()))
	if want := "Deleting outdated state directory 1_0 as "; !strings.Contains(logs.String(), want) {
		t.Errorf("no log line %q:\n%s", want, logs.String())
	}
	if strings.Contains(logs.String(), "Deleting outdated state directory 1_1") {
		t.Error("Start deleted the task directory modified a moment ago")
	}
	hooks.mu.Lock()
	full0 := hooks.full[state.TopicPartition{Topic: app + "-counts-changelog", Partition: 0}.String()]
	full1, restored1 := hooks.full[state.TopicPartition{Topic: app + "-counts-changelog", Partition: 1}.String()]
	hooks.mu.Unlock()
	if !full0 {
		t.Error("the task whose directory was too old did not restore in full")
	}
	if restored1 && full1 {
		t.Error("the task whose directory was young restored in full")
	}
	const n2 = 100
	words(t, addr, "in", n1, n2, vocab)
	checkCounts(t, readCounts(t, addr, "out", n1+n2), wantCounts(n1+n2, vocab))
	closeApp(t, a)
}
