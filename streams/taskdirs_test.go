package streams

import (
	"log/slog"
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/internal/assignment"
	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/state"
)

// newTestMember is a groupMember over a fresh state directory, with clock
// now.
func newTestMember(t *testing.T, now func() time.Time) *groupMember {
	t.Helper()
	dir, err := state.NewDirectory(t.TempDir(), "app")
	if err != nil {
		t.Fatal(err)
	}
	m := &groupMember{dir: dir, now: now}
	m.mu.onDisk = map[assignment.TaskID]int64{}
	return m
}

// TestTaskClaimsGoToOneThreadAtATime: one thread of an instance at a time
// has a task open; another waits until it lets it go. A task no thread has
// open is reported with the offset sum its stores left on disk, and one a
// thread has open is the thread's to report.
func TestTaskClaimsGoToOneThreadAtATime(t *testing.T) {
	m := newTestMember(t, time.Now)
	one, two := &streamThread{idx: 1, log: slog.Default()}, &streamThread{idx: 2, log: slog.Default()}
	id := assignment.TaskID{Subtopology: 1, Partition: 3}
	m.mu.onDisk[id] = 40 // found at start-up

	if !m.claimTask(id, one) {
		t.Fatal("a thread cannot claim a task no other thread has open")
	}
	if !m.claimTask(id, one) {
		t.Fatal("a thread cannot claim again a task it has open")
	}
	if _, ok := m.diskSums()[id]; ok {
		t.Error("a task a thread has open is still reported from disk")
	}
	if m.claimTask(id, two) {
		t.Fatal("a second thread claimed a task the first has open")
	}
	m.releaseTask(id, two, 99, true) // not its claim: nothing changes
	if m.claimTask(id, two) {
		t.Fatal("a thread's release ended another thread's claim")
	}
	m.releaseTask(id, one, 57, true)
	if got := m.diskSums()[id]; got != 57 {
		t.Errorf("offset sum reported after the close = %d, want 57", got)
	}
	if !m.claimTask(id, two) {
		t.Fatal("the second thread cannot claim the task once the first let it go")
	}
	m.releaseTask(id, two, 0, false) // in-memory stores: nothing stays on disk
	if _, ok := m.diskSums()[id]; ok {
		t.Error("a task whose stores kept nothing on disk is reported")
	}
}

func TestParseTaskDirName(t *testing.T) {
	for name, want := range map[string]*kstreams.TaskID{
		"0_0":    {Subtopology: 0, Partition: 0},
		"12_7":   {Subtopology: 12, Partition: 7},
		"1_":     nil,
		"_1":     nil,
		"01_2":   nil,
		"1_2_3":  nil,
		"a_1":    nil,
		"-1_2":   nil,
		"global": nil,
	} {
		got, ok := parseTaskDirName(name)
		switch {
		case want == nil && ok:
			t.Errorf("%q parsed as task %s, want no task", name, got)
		case want != nil && (!ok || got != *want):
			t.Errorf("%q = %s, %v; want %s", name, got, ok, *want)
		}
	}
}
