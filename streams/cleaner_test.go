package streams

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/compat"
	"github.com/stoatflow/stoatflow/internal/assignment"
)

// testClock is a clock that runs with the wall clock from an offset the
// test moves: directories the file system dates stay in step with it.
type testClock struct{ offset atomic.Int64 }

func (c *testClock) now() time.Time          { return time.Now().Add(time.Duration(c.offset.Load())) }
func (c *testClock) advance(d time.Duration) { c.offset.Add(int64(d)) }

// newCleanerInstance is just enough of a KafkaStreams for its cleaner to
// run, with a cleanup delay of delay.
func newCleanerInstance(t *testing.T, delay time.Duration, now func() time.Time) *KafkaStreams {
	t.Helper()
	m := newTestMember(t, now)
	return &KafkaStreams{cfg: &compat.Config{StateCleanupDelay: delay}, log: slog.New(slog.DiscardHandler), now: now, dir: m.dir, member: m}
}

func exists(t *testing.T, path string) bool {
	t.Helper()
	_, err := os.Stat(path)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return err == nil
}

// TestCleanerDeletesOnlyTasksNoThreadHolds: the cleaner deletes the
// directory of a task a thread let go once the delay has passed since it
// did (not when it was created), with the offset sum the subscriptions
// reported for it; an active task's and a standby's directories stay,
// however old.
func TestCleanerDeletesOnlyTasksNoThreadHolds(t *testing.T) {
	const delay = 10 * time.Minute
	clock := &testClock{}
	s := newCleanerInstance(t, delay, clock.now)
	one, two := &streamThread{idx: 1, log: s.log}, &streamThread{idx: 2, log: s.log}
	active, standby, moved := assignment.TaskID{Subtopology: 1, Partition: 0}, assignment.TaskID{Subtopology: 1, Partition: 1}, assignment.TaskID{Subtopology: 1, Partition: 2}
	paths := map[assignment.TaskID]string{}
	for id, th := range map[assignment.TaskID]*streamThread{active: one, standby: two, moved: one} {
		if !s.member.claimTask(id, th) {
			t.Fatalf("claim of %v refused", id)
		}
		p, err := s.dir.TaskDir(taskDirName(id))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Join(p, "rocksdb", "counts"), 0o755); err != nil {
			t.Fatal(err)
		}
		paths[id] = p
	}
	clock.advance(time.Hour) // the tasks ran for an hour
	s.member.releaseTask(moved, one, 1234, true)
	if got := s.member.diskSums()[moved]; got != 1234 {
		t.Fatalf("offset sum of the task let go = %d, want 1234", got)
	}

	clock.advance(delay - time.Minute)
	s.cleanRemovedTasks()
	if !exists(t, paths[moved]) {
		t.Fatal("the cleaner deleted a task directory before the delay had passed since its thread let it go")
	}
	clock.advance(time.Minute)
	s.cleanRemovedTasks()
	if exists(t, paths[moved]) {
		t.Error("the directory of the task let go is still there once the delay has passed")
	}
	if _, ok := s.member.diskSums()[moved]; ok {
		t.Error("the offset sum of a deleted task directory is still reported")
	}
	for _, id := range []assignment.TaskID{active, standby} {
		if !exists(t, paths[id]) {
			t.Errorf("the cleaner deleted %v, which a thread has open", id)
		}
	}
	if !s.member.claimTask(moved, two) {
		t.Error("a thread cannot claim the task once the cleaner deleted its directory")
	}
}

// countingHandler counts the records logged with a message that begins
// with prefix.
type countingHandler struct {
	slog.Handler
	prefix string
	n      *atomic.Int64
}

func (h countingHandler) Handle(_ context.Context, r slog.Record) error {
	if strings.HasPrefix(r.Message, h.prefix) {
		h.n.Add(1)
	}
	return nil
}

func (h countingHandler) Enabled(context.Context, slog.Level) bool { return true }

func (h countingHandler) WithAttrs([]slog.Attr) slog.Handler { return h }

// TestCleanerNeverDeletesADirectoryAThreadHolds: while the cleaner runs
// over and over with a delay that every directory let go has passed, two
// threads take a task's directory in turn, write into it and let it go: a
// thread that holds the directory always finds what it wrote, and one that
// takes it while the cleaner deletes it is refused until the cleaner is
// done.
func TestCleanerNeverDeletesADirectoryAThreadHolds(t *testing.T) {
	s := newCleanerInstance(t, time.Nanosecond, time.Now)
	var deleted atomic.Int64
	s.log = slog.New(countingHandler{Handler: slog.DiscardHandler, prefix: "Deleting obsolete state directory 0_3 for task 0_3 as", n: &deleted})
	id := assignment.TaskID{Subtopology: 0, Partition: 3}
	stop := make(chan struct{})
	var cleaner, threads sync.WaitGroup
	cleaner.Go(func() {
		for {
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Microsecond):
			}
			s.cleanRemovedTasks()
		}
	})
	var refused atomic.Int64
	deadline := time.Now().Add(time.Minute)
	for i := range 2 {
		th := &streamThread{idx: i + 1, log: s.log}
		threads.Go(func() {
			for range 200 {
				for !s.member.claimTask(id, th) {
					if time.Now().After(deadline) {
						t.Errorf("thread %d never got the directory back", th.idx)
						return
					}
					refused.Add(1)
					time.Sleep(10 * time.Microsecond)
				}
				ok := holdAndCheck(t, s, id, th)
				s.member.releaseTask(id, th, 0, false)
				if !ok {
					return
				}
				time.Sleep(50 * time.Microsecond)
			}
		})
	}
	threads.Wait()
	close(stop)
	cleaner.Wait()
	if deleted.Load() == 0 {
		t.Error("the cleaner never deleted the directory: the test proved nothing")
	}
	t.Logf("the cleaner deleted the directory %d times; claims were refused %d times", deleted.Load(), refused.Load())
}

// holdAndCheck is thread th's use of task id's directory, which it holds:
// it writes into it and finds what it wrote a moment later.
func holdAndCheck(t *testing.T, s *KafkaStreams, id assignment.TaskID, th *streamThread) bool {
	p, err := s.dir.TaskDir(taskDirName(id))
	if err != nil {
		t.Error(err)
		return false
	}
	marker := filepath.Join(p, "thread")
	if err := os.WriteFile(marker, []byte{byte(th.idx)}, 0o644); err != nil {
		t.Error(err)
		return false
	}
	time.Sleep(50 * time.Microsecond)
	if b, err := os.ReadFile(marker); err != nil || len(b) != 1 || int(b[0]) != th.idx {
		t.Errorf("thread %d's directory changed while it held it: %q, %v", th.idx, b, err)
		return false
	}
	return true
}
