package state_test

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	. "github.com/stoatflow/stoatflow/state"
)

const lockChildEnv = "STOATFLOW_STATE_LOCK_CHILD"

func TestSecondProcessGetsLockErrorNamingHolder(t *testing.T) {
	if dir := os.Getenv(lockChildEnv); dir != "" {
		d, err := NewDirectory(dir, "app")
		if err != nil {
			t.Fatal(err)
		}
		err = d.Lock()
		if !errors.Is(err, ErrLocked) {
			t.Fatalf("child lock: %v", err)
		}
		os.Stdout.WriteString("CHILD-ERR " + err.Error() + "\n")
		return
	}
	stateDir := t.TempDir()
	d, err := NewDirectory(stateDir, "app")
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Lock(); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestSecondProcessGetsLockErrorNamingHolder$")
	cmd.Env = append(os.Environ(), lockChildEnv+"="+stateDir)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "CHILD-ERR") || !strings.Contains(string(out), "pid ") {
		t.Fatalf("child output does not name the holder:\n%s", out)
	}
	if err := d.Unlock(); err != nil {
		t.Fatal(err)
	}
	d2, _ := NewDirectory(stateDir, "app")
	if err := d2.Lock(); err != nil {
		t.Fatalf("lock after unlock: %v", err)
	}
	d2.Unlock()
	d2.Unlock()
}

func TestProcessIDPersistsInKafkaStreamsFormat(t *testing.T) {
	stateDir := t.TempDir()
	d, _ := NewDirectory(stateDir, "app")
	id, err := d.ProcessID()
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := os.ReadFile(filepath.Join(stateDir, "app", "kafka-streams-process-metadata"))
	if string(raw) != `{"processId":"`+id+`"}` {
		t.Fatalf("file %s", raw)
	}
	d2, _ := NewDirectory(stateDir, "app")
	id2, _ := d2.ProcessID()
	eq(t, id2, id)
	// A file written by Kafka Streams, with extra fields, keeps its id.
	os.WriteFile(filepath.Join(stateDir, "app", "kafka-streams-process-metadata"), []byte(`{"processId":"0c5a4d6e-3b1f-4e8a-9d2c-7f6b5a4e3d2c","x":1}`), 0o644)
	d3, _ := NewDirectory(stateDir, "app")
	id3, _ := d3.ProcessID()
	eq(t, id3, "0c5a4d6e-3b1f-4e8a-9d2c-7f6b5a4e3d2c")
}

func TestTaskAndGlobalDirsFollowKafkaLayout(t *testing.T) {
	stateDir := t.TempDir()
	d, _ := NewDirectory(stateDir, "app")
	td, err := d.TaskDir(TaskDirName(1, 4))
	if err != nil {
		t.Fatal(err)
	}
	eq(t, td, filepath.Join(stateDir, "app", "1_4"))
	gd, _ := d.GlobalDir()
	eq(t, gd, filepath.Join(stateDir, "app", "global"))
	eq(t, KeyValueDir(td, "counts"), filepath.Join(stateDir, "app", "1_4", "rocksdb", "counts"))
	if _, err := d.TaskDir("../x"); !errors.Is(err, ErrInvalidArgument) {
		t.Fatal(err)
	}
}

func TestCleanDeletesTaskAndGlobalStoresAndKeepsTheProcessID(t *testing.T) {
	stateDir := t.TempDir()
	d, _ := NewDirectory(stateDir, "app")
	id, err := d.ProcessID()
	if err != nil {
		t.Fatal(err)
	}
	td, _ := d.TaskDir(TaskDirName(0, 1))
	if err := os.MkdirAll(KeyValueDir(td, "counts"), 0o755); err != nil {
		t.Fatal(err)
	}
	gd, _ := d.GlobalDir()
	other := filepath.Join(stateDir, "app", "notes")
	for _, dir := range []string{gd, other} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	holder, _ := NewDirectory(stateDir, "app")
	if err := holder.Lock(); err != nil {
		t.Fatal(err)
	}
	if err := d.Clean(); !errors.Is(err, ErrLocked) {
		t.Fatalf("clean while another holds the directory: %v, want ErrLocked", err)
	}
	if _, err := os.Stat(td); err != nil {
		t.Fatalf("a refused clean deleted the task directory: %v", err)
	}
	holder.Unlock()
	if err := d.Clean(); err != nil {
		t.Fatal(err)
	}
	for _, gone := range []string{td, gd} {
		if _, err := os.Stat(gone); !os.IsNotExist(err) {
			t.Errorf("%s is still there after Clean (%v)", gone, err)
		}
	}
	if _, err := os.Stat(other); err != nil {
		t.Errorf("Clean deleted %s, which is no task's: %v", other, err)
	}
	again, _ := NewDirectory(stateDir, "app")
	if got, _ := again.ProcessID(); got != id {
		t.Errorf("process id %s after Clean, want %s kept", got, id)
	}
}

// taskDirsWithStores creates the task directories named, each holding a
// store directory as a RocksDB store leaves one, all last modified at
// mtime.
func taskDirsWithStores(t *testing.T, d *Directory, mtime time.Time, names ...string) {
	t.Helper()
	for _, name := range names {
		td, err := d.TaskDir(name)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(KeyValueDir(td, "counts"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(td, mtime, mtime); err != nil {
			t.Fatal(err)
		}
	}
}

// remaining lists the task directories left in d.
func remaining(t *testing.T, d *Directory) []string {
	t.Helper()
	entries, err := os.ReadDir(d.Path())
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if e.IsDir() && e.Name() != "global" {
			out = append(out, e.Name())
		}
	}
	return out
}

// TestTaskLocksGoToOneOwnerAtATime: Kafka Streams' StateDirectoryTest
// shouldBeTrueIfAlreadyHoldsLock, shouldBeAbleToUnlockEvenWithoutLocking,
// shouldLockMultipleTaskDirectories, shouldNotLockStateDirLockedByAnotherThread
// and shouldNotUnLockStateDirLockedByAnotherThread.
func TestTaskLocksGoToOneOwnerAtATime(t *testing.T) {
	d, _ := NewDirectory(t.TempDir(), "app")
	one, two := new(int), new(int)
	d.UnlockTask("0_0", one) // never locked: nothing happens
	if !d.LockTask("0_0", one) || !d.LockTask("1_0", one) {
		t.Fatal("an owner cannot lock two free task directories")
	}
	if !d.LockTask("0_0", one) {
		t.Fatal("an owner cannot lock again a directory it holds")
	}
	if d.LockTask("0_0", two) {
		t.Fatal("a second owner locked a directory the first holds")
	}
	d.UnlockTask("0_0", two) // not its lock
	if d.LockTask("0_0", two) {
		t.Fatal("an owner's unlock released another owner's lock")
	}
	if d.TaskOwner("0_0") != one {
		t.Fatalf("owner of 0_0 = %v, want the first", d.TaskOwner("0_0"))
	}
	d.UnlockTask("0_0", one)
	if d.TaskOwner("0_0") != nil || !d.LockTask("0_0", two) {
		t.Fatal("the second owner cannot lock the directory once the first let it go")
	}
}

// TestCleanRemovedTasksKeepsLockedDirectories: Kafka Streams'
// shouldCleanUpTaskStateDirectoriesThatAreNotCurrentlyLocked. Only the
// directory nobody holds goes.
func TestCleanRemovedTasksKeepsLockedDirectories(t *testing.T) {
	d, _ := NewDirectory(t.TempDir(), "app")
	then := time.Now().Add(-time.Hour)
	taskDirsWithStores(t, d, then, "0_0", "1_0", "2_0")
	active, standby := new(int), new(int)
	d.LockTask("0_0", active)
	d.LockTask("1_0", standby)
	if err := d.CleanRemovedTasks(time.Now(), 0, nil); err != nil {
		t.Fatal(err)
	}
	eq(t, remaining(t, d), []string{"0_0", "1_0"})
	if d.TaskOwner("0_0") != active || d.TaskOwner("1_0") != standby {
		t.Error("the cleaner changed the owners of the directories it kept")
	}
	if !d.LockTask("2_0", active) {
		t.Error("the cleaner still holds the directory it deleted")
	}
}

// TestCleanRemovedTasksMeasuresTheDelayFromTheLastModification: Kafka
// Streams' shouldCleanupStateDirectoriesWhenLastModifiedIsLessThanNowMinusCleanupDelay:
// a directory goes once it was last modified more than the delay ago, not
// at the delay itself; TouchTask, which a thread's release calls, starts
// the delay again.
func TestCleanRemovedTasksMeasuresTheDelayFromTheLastModification(t *testing.T) {
	d, _ := NewDirectory(t.TempDir(), "app")
	const delay = time.Minute
	modified := time.Now().Add(-time.Hour).Truncate(time.Second)
	taskDirsWithStores(t, d, modified, "2_0")
	var removed []string
	var ages []time.Duration
	removing := func(task string, age time.Duration) {
		removed = append(removed, task)
		ages = append(ages, age)
		if _, err := os.Stat(filepath.Join(d.Path(), task)); err != nil {
			t.Errorf("removing was called for %s after its deletion: %v", task, err)
		}
	}
	for _, now := range []time.Time{modified, modified.Add(delay / 2), modified.Add(delay)} {
		if err := d.CleanRemovedTasks(now, delay, removing); err != nil {
			t.Fatal(err)
		}
	}
	eq(t, remaining(t, d), []string{"2_0"})

	released := modified.Add(50 * time.Second)
	if err := d.TouchTask("2_0", released); err != nil {
		t.Fatal(err)
	}
	if err := d.CleanRemovedTasks(modified.Add(delay+time.Second), delay, removing); err != nil {
		t.Fatal(err)
	}
	eq(t, remaining(t, d), []string{"2_0"})
	eq(t, len(removed), 0)

	if err := d.CleanRemovedTasks(released.Add(delay+time.Second), delay, removing); err != nil {
		t.Fatal(err)
	}
	eq(t, remaining(t, d), []string(nil))
	eq(t, removed, []string{"2_0"})
	eq(t, ages, []time.Duration{delay + time.Second})
	if err := d.TouchTask("2_0", released); err != nil {
		t.Errorf("touching a deleted directory: %v", err)
	}
}

// TestCleanRemovedTasksDeletesEmptyTaskDirectories: a task directory with
// nothing in it (a task whose stores never wrote) goes too, as Kafka
// Streams lists every task directory, empty or not, for its cleaner.
func TestCleanRemovedTasksDeletesEmptyTaskDirectories(t *testing.T) {
	d, _ := NewDirectory(t.TempDir(), "app")
	td, _ := d.TaskDir("3_1")
	then := time.Now().Add(-time.Hour)
	os.Chtimes(td, then, then)
	if err := d.CleanRemovedTasks(time.Now(), time.Minute, nil); err != nil {
		t.Fatal(err)
	}
	eq(t, remaining(t, d), []string(nil))
}

// TestCleanRemovedTasksLeavesWhatIsNoTaskDirectory: Kafka Streams'
// shouldNotRemoveNonTaskDirectoriesAndFiles. The global stores, the lock
// and process files, a file named as a task and directories not named as
// tasks stay, however old.
func TestCleanRemovedTasksLeavesWhatIsNoTaskDirectory(t *testing.T) {
	d, _ := NewDirectory(t.TempDir(), "app")
	if err := d.Lock(); err != nil {
		t.Fatal(err)
	}
	defer d.Unlock()
	if _, err := d.ProcessID(); err != nil {
		t.Fatal(err)
	}
	gd, _ := d.GlobalDir()
	if err := os.MkdirAll(KeyValueDir(gd, "prices"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{"foo", "1_x", "0_0_0"} {
		if err := os.Mkdir(filepath.Join(d.Path(), dir), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(d.Path(), "4_0"), []byte("not a directory"), 0o644); err != nil {
		t.Fatal(err)
	}
	then := time.Now().Add(-24 * time.Hour)
	entries, _ := os.ReadDir(d.Path())
	var before []string
	for _, e := range entries {
		before = append(before, e.Name())
		os.Chtimes(filepath.Join(d.Path(), e.Name()), then, then)
	}
	if err := d.CleanRemovedTasks(time.Now(), 0, nil); err != nil {
		t.Fatal(err)
	}
	if err := d.PurgeOutdatedTasks(time.Now(), 0, nil); err != nil {
		t.Fatal(err)
	}
	entries, _ = os.ReadDir(d.Path())
	var after []string
	for _, e := range entries {
		after = append(after, e.Name())
	}
	eq(t, after, before)
}

// TestCleanRemovedTasksSparesADirectoryTakenDuringTheRun: the cleaner
// holds a directory while it deletes it, so a thread that asks for it
// then is refused and gets it once it is gone; a directory a thread takes
// after the run listed it but before the run reached it is not deleted.
func TestCleanRemovedTasksSparesADirectoryTakenDuringTheRun(t *testing.T) {
	d, _ := NewDirectory(t.TempDir(), "app")
	taskDirsWithStores(t, d, time.Now().Add(-time.Hour), "0_0", "1_0")
	thread := new(int)
	var removed []string
	err := d.CleanRemovedTasks(time.Now(), time.Minute, func(task string, _ time.Duration) {
		removed = append(removed, task)
		if d.LockTask(task, thread) {
			t.Errorf("a thread took %s while the cleaner deletes it", task)
		}
		if task == "0_0" && !d.LockTask("1_0", thread) {
			t.Error("a thread cannot take a directory the cleaner has not reached")
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	eq(t, removed, []string{"0_0"})
	eq(t, remaining(t, d), []string{"1_0"})
	if !d.LockTask("0_0", thread) {
		t.Error("a thread cannot take the directory once the cleaner deleted it")
	}
	if _, err := d.TaskDir("0_0"); err != nil {
		t.Errorf("the deleted task directory cannot be created again: %v", err)
	}
}

// TestPurgeOutdatedTasksDeletesOnlyOldTaskDirectories: KIP-1259's purge
// at start-up deletes the task directories last modified more than the
// maximum age ago, and leaves the younger ones and the global stores.
func TestPurgeOutdatedTasksDeletesOnlyOldTaskDirectories(t *testing.T) {
	d, _ := NewDirectory(t.TempDir(), "app")
	now := time.Now().Truncate(time.Second)
	taskDirsWithStores(t, d, now.Add(-48*time.Hour), "0_0", "1_2")
	taskDirsWithStores(t, d, now.Add(-time.Hour), "0_1")
	gd, _ := d.GlobalDir()
	os.Chtimes(gd, now.Add(-48*time.Hour), now.Add(-48*time.Hour))
	var removed []string
	if err := d.PurgeOutdatedTasks(now, 24*time.Hour, func(task string, age time.Duration) {
		removed = append(removed, task)
		if age != 48*time.Hour {
			t.Errorf("%s is %s old, want 48h", task, age)
		}
	}); err != nil {
		t.Fatal(err)
	}
	eq(t, removed, []string{"0_0", "1_2"})
	eq(t, remaining(t, d), []string{"0_1"})
	if _, err := os.Stat(gd); err != nil {
		t.Errorf("the purge deleted the global stores: %v", err)
	}
}

// The modes of the state directory and the application directory, as
// Kafka Streams 4.4's StateDirectoryTest.shouldHaveSecurePermissions checks
// them (rwxr-x---), and rwxrwx--- under allow.os.group.write.access=true:
// set on directories NewDirectory creates and on ones it finds with other
// modes (setgid and sticky bits included), each time; task directories
// keep theirs.
func TestSetPermissionsGivesKafkaStreamsModes(t *testing.T) {
	mode := func(p string) os.FileMode {
		t.Helper()
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		return fi.Mode() & (os.ModePerm | os.ModeSetuid | os.ModeSetgid | os.ModeSticky)
	}
	for _, c := range []struct {
		name       string
		groupWrite bool
		want       os.FileMode
	}{
		{"default", false, 0o750},
		{"allow.os.group.write.access", true, 0o770},
	} {
		t.Run(c.name, func(t *testing.T) {
			stateDir := filepath.Join(t.TempDir(), "kafka-streams")
			d, err := NewDirectory(stateDir, "app")
			if err != nil {
				t.Fatal(err)
			}
			task, err := d.TaskDir("0_0")
			if err != nil {
				t.Fatal(err)
			}
			taskMode := mode(task)
			if err := d.SetPermissions(c.groupWrite); err != nil {
				t.Fatal(err)
			}
			for _, p := range []string{stateDir, d.Path()} {
				if got := mode(p); got != c.want {
					t.Errorf("%s: mode %v, want %v", p, got, c.want)
				}
			}
			if got := mode(task); got != taskMode {
				t.Errorf("task directory: mode %v, was %v before", got, taskMode)
			}

			// Directories found with other modes get them again.
			if err := os.Chmod(stateDir, 0o777|os.ModeSticky); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(d.Path(), 0o700|os.ModeSetgid); err != nil {
				t.Fatal(err)
			}
			again, err := NewDirectory(stateDir, "app")
			if err != nil {
				t.Fatal(err)
			}
			if err := again.SetPermissions(c.groupWrite); err != nil {
				t.Fatal(err)
			}
			for _, p := range []string{stateDir, d.Path()} {
				if got := mode(p); got != c.want {
					t.Errorf("%s found with another mode: mode %v, want %v", p, got, c.want)
				}
			}
		})
	}
}

// A directory whose mode cannot be set does not stop the other's: the
// error names it, and the caller logs it and goes on, as Kafka Streams does.
func TestSetPermissionsTriesBothDirectories(t *testing.T) {
	stateDir := t.TempDir()
	d, err := NewDirectory(stateDir, "app")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(d.Path()); err != nil {
		t.Fatal(err)
	}
	err = d.SetPermissions(false)
	if err == nil || !errors.Is(err, os.ErrNotExist) || !strings.Contains(err.Error(), d.Path()) {
		t.Fatalf("SetPermissions on a removed application directory: %v, want an error naming it", err)
	}
	if fi, err := os.Stat(stateDir); err != nil || fi.Mode().Perm() != DirPerm {
		t.Errorf("state.dir: %v %v, want mode %v", fi.Mode(), err, DirPerm)
	}
}
