package state

import (
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// File names in the application directory, as Kafka Streams uses them.
const (
	lockFileName    = ".lock"
	processFileName = "kafka-streams-process-metadata"
	globalDirName   = "global"
)

// Directory is an application's state directory,
// <state.dir>/<application.id>, laid out as Kafka Streams lays it out: one
// directory per task (<subtopology>_<partition>), "global" for global
// stores, a .lock file and the kafka-streams-process-metadata file holding
// the process UUID. One Directory serves every stream thread of an
// instance: it says which of them uses each task directory (LockTask), and
// deletes the task directories nobody uses (CleanRemovedTasks,
// PurgeOutdatedTasks).
type Directory struct {
	root string // state.dir
	dir  string // root/<application.id>

	mu struct {
		sync.Mutex
		lock      *os.File
		processID string
		// tasks are the task directories in use, by name, with their
		// owners (LockTask).
		tasks map[string]any
	}
}

// NewDirectory returns the state directory of applicationID under
// stateDir, creating it and its missing parents if needed, with the modes
// the JVM's File.mkdirs gives (0777 less the process's umask; see
// SetPermissions for the two that matter). It does not lock it.
func NewDirectory(stateDir, applicationID string) (*Directory, error) {
	if applicationID == "" || strings.ContainsAny(applicationID, `/\`) {
		return nil, fmt.Errorf("%w: application.id %q cannot name a directory", ErrInvalidArgument, applicationID)
	}
	dir := filepath.Join(stateDir, applicationID)
	if err := os.MkdirAll(dir, dirMode); err != nil {
		return nil, fmt.Errorf("state: create state directory: %w", err)
	}
	return &Directory{root: stateDir, dir: dir}, nil
}

// dirMode is the mode directories are created with before the umask, as
// the JVM creates them (File.mkdir, Files.createDirectories).
const dirMode = 0o777

// The modes SetPermissions gives the state directory and the application
// directory: Kafka Streams 4.4's StateDirectory.configurePermissions.
const (
	// DirPerm is rwxr-x---: the owner reads, writes and enters; the OS
	// group reads and enters; others nothing.
	DirPerm os.FileMode = 0o750
	// DirPermGroupWrite is rwxrwx---, allow.os.group.write.access=true:
	// the OS group may write too.
	DirPermGroupWrite os.FileMode = 0o770
)

// SetPermissions sets the modes of the state directory (state.dir) and of
// the application directory in it to DirPerm, or DirPermGroupWrite when
// groupWrite (allow.os.group.write.access) is set, as Kafka Streams 4.4
// does each time it opens them, whether it created them or found them:
// setuid, setgid and sticky bits are cleared, as Java's
// Files.setPosixFilePermissions clears them. Task directories and stores
// keep the modes they were created with. It tries both directories and
// returns the errors of those it could not change (a state.dir owned by
// another user, say); Kafka Streams logs such a failure and goes on, and
// so should the caller. StoatFlow runs on POSIX systems only (its locks
// are flock's), where Kafka Streams always takes this path.
func (d *Directory) SetPermissions(groupWrite bool) error {
	perm := DirPerm
	if groupWrite {
		perm = DirPermGroupWrite
	}
	var errs []error
	for _, p := range []string{d.root, d.dir} {
		if err := os.Chmod(p, perm); err != nil {
			errs = append(errs, fmt.Errorf("state: change the permissions of the directory %s to %s: %w", p, perm, err))
		}
	}
	return errors.Join(errs...)
}

// Path returns <state.dir>/<application.id>.
func (d *Directory) Path() string { return d.dir }

// Lock takes an exclusive lock on the application directory (flock on its
// .lock file) and records this process's pid and host name in the file. A
// second process on the same directory gets an error matching ErrLocked that
// names the holder. flock locks do not conflict with the fcntl locks a JVM
// takes, so this does not guard against a Kafka Streams process sharing the
// directory.
func (d *Directory) Lock() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.mu.lock != nil {
		return nil
	}
	path := filepath.Join(d.dir, lockFileName)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return fmt.Errorf("state: open lock file: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		holder, _ := os.ReadFile(path)
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			h := strings.TrimSpace(string(holder))
			if h == "" {
				h = "unknown process"
			}
			return fmt.Errorf("%w: %s is held by %s; another StoatFlow instance uses this state.dir and application.id — give each instance its own state.dir", ErrLocked, path, h)
		}
		return fmt.Errorf("state: lock %s: %w", path, err)
	}
	host, _ := os.Hostname()
	if err := f.Truncate(0); err == nil {
		_, _ = f.WriteAt([]byte("pid "+strconv.Itoa(os.Getpid())+" on host "+host+"\n"), 0)
	}
	d.mu.lock = f
	return nil
}

// Unlock releases the lock; safe to call when not locked.
func (d *Directory) Unlock() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.mu.lock == nil {
		return nil
	}
	f := d.mu.lock
	d.mu.lock = nil
	_ = f.Truncate(0)
	return f.Close() // closing the descriptor releases the flock
}

type processFile struct {
	ProcessID string `json:"processId"`
}

// ProcessID returns the process UUID kept in kafka-streams-process-metadata,
// creating the file with a new random UUID the first time. The file is the
// JSON Kafka Streams writes ({"processId":"<uuid>"}); unknown fields are
// ignored, so a directory written by Kafka Streams keeps its UUID.
func (d *Directory) ProcessID() (string, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.mu.processID != "" {
		return d.mu.processID, nil
	}
	path := filepath.Join(d.dir, processFileName)
	raw, err := os.ReadFile(path)
	switch {
	case err == nil:
		var pf processFile
		if jerr := json.Unmarshal(raw, &pf); jerr == nil && validUUID(pf.ProcessID) {
			d.mu.processID = strings.ToLower(pf.ProcessID)
			return d.mu.processID, nil
		}
		// An unreadable file gets a fresh id, as Kafka Streams does.
	case !errors.Is(err, os.ErrNotExist):
		return "", fmt.Errorf("state: read %s: %w", path, err)
	}
	id, err := newUUID()
	if err != nil {
		return "", err
	}
	out, _ := json.Marshal(processFile{ProcessID: id})
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, out, 0o644); err != nil {
		return "", fmt.Errorf("state: write %s: %w", tmp, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return "", fmt.Errorf("state: write %s: %w", path, err)
	}
	d.mu.processID = id
	return id, nil
}

// TaskDirName returns a task's directory name, Kafka's TaskId.toString:
// <subtopology>_<partition>.
func TaskDirName(subtopology, partition int) string {
	return strconv.Itoa(subtopology) + "_" + strconv.Itoa(partition)
}

// TaskDir returns (creating it) the directory of a task, named as
// TaskDirName gives.
func (d *Directory) TaskDir(taskID string) (string, error) {
	if taskID == "" || taskID == globalDirName || strings.ContainsAny(taskID, `/\`) || strings.HasPrefix(taskID, ".") {
		return "", fmt.Errorf("%w: task id %q", ErrInvalidArgument, taskID)
	}
	return d.sub(taskID)
}

// GlobalDir returns (creating it) the directory of global stores.
func (d *Directory) GlobalDir() (string, error) { return d.sub(globalDirName) }

func (d *Directory) sub(name string) (string, error) {
	p := filepath.Join(d.dir, name)
	if err := os.MkdirAll(p, dirMode); err != nil {
		return "", fmt.Errorf("state: create %s: %w", p, err)
	}
	return p, nil
}

func newUUID() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("state: process id: %w", err)
	}
	b[6] = b[6]&0x0f | 0x40 // version 4
	b[8] = b[8]&0x3f | 0x80 // RFC 4122 variant
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16]), nil
}

func validUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i, c := range s {
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !strings.ContainsRune("0123456789abcdefABCDEF", c) {
				return false
			}
		}
	}
	return true
}

// LockTask gives owner the use of the task directory named task
// (TaskDirName), as Kafka Streams' StateDirectory.lock gives a stream
// thread a task's directory: it reports false while another owner holds
// it, true when it was free or owner holds it already. The stream threads
// of an instance take turns on a task's stores this way, and the cleaner
// (CleanRemovedTasks) holds a directory while it decides on it and deletes
// it, so no thread opens stores in a directory being deleted, and no
// directory a thread uses is deleted. owner must be comparable and not
// nil. These locks live in this process only; the application directory's
// flock (Lock) keeps other processes out.
func (d *Directory) LockTask(task string, owner any) bool {
	if owner == nil {
		panic("state: LockTask with a nil owner")
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if held, ok := d.mu.tasks[task]; ok {
		return held == owner
	}
	if d.mu.tasks == nil {
		d.mu.tasks = map[string]any{}
	}
	d.mu.tasks[task] = owner
	return true
}

// UnlockTask ends owner's use of the task directory named task. A
// directory another owner holds, or nobody, stays as it is, as Kafka
// Streams' StateDirectory.unlock leaves another thread's lock.
func (d *Directory) UnlockTask(task string, owner any) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if held, ok := d.mu.tasks[task]; ok && held == owner {
		delete(d.mu.tasks, task)
	}
}

// TaskOwner returns the owner that holds the task directory named task,
// nil when nobody does.
func (d *Directory) TaskOwner(task string) any {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.mu.tasks[task]
}

// TouchTask sets the last modification time of the task directory named
// task to now, as Kafka Streams 4.4's state manager does when it closes a
// task. A directory's own time changes only when an entry right under it
// is added or removed, which running stores seldom do, so without this a
// task given up after running for longer than the cleanup delay would
// look obsolete the moment its owner let it go; with it, the delay is
// measured from then. A directory that does not exist is no error.
func (d *Directory) TouchTask(task string, now time.Time) error {
	p := filepath.Join(d.dir, task)
	if err := os.Chtimes(p, now, now); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("state: update modification time of state directory %s: %w", p, err)
	}
	return nil
}

// cleanRun is the owner of the task directories a run of
// CleanRemovedTasks holds; it has a field so that two runs' owners never
// compare equal.
type cleanRun struct{ started time.Time }

// CleanRemovedTasks deletes the task directories that nobody holds
// (LockTask) and whose last modification is more than delay before now:
// Kafka Streams' StateDirectory.cleanRemovedTasks, which its KafkaStreams
// runs every state.cleanup.delay.ms on the directories of tasks that moved
// away. It takes each directory (LockTask, under an owner of its own)
// before it reads its time and lets it go once deleted, so a directory a
// thread holds, or takes while the run goes on, is never deleted, and a
// thread that asks for one being deleted is refused until it is gone.
// removing, unless nil, is called for each directory just before its
// deletion, while the run holds it, with the directory's name and how long
// ago it was modified. Everything else in the application directory
// ("global", the .lock and process files, entries not named as tasks, and
// files named as tasks) stays. A directory that cannot be deleted does not
// stop the run: the error names each.
func (d *Directory) CleanRemovedTasks(now time.Time, delay time.Duration, removing func(task string, age time.Duration)) error {
	names, err := d.taskDirs()
	if err != nil {
		return err
	}
	owner := &cleanRun{started: now}
	var errs []error
	for _, name := range names {
		if !d.LockTask(name, owner) {
			continue
		}
		if err := d.removeIfOlder(name, now, delay, removing); err != nil {
			errs = append(errs, fmt.Errorf("state: delete obsolete state directory %s for task %s: %w", name, name, err))
		}
		d.UnlockTask(name, owner)
	}
	return errors.Join(errs...)
}

// PurgeOutdatedTasks deletes every task directory whose last modification
// is more than maxAge before now: Kafka Streams 4.3's
// state.cleanup.dir.max.age.ms (KIP-1259), which its KafkaStreams.start
// runs before any task opens, so that stores a restart finds after longer
// than their changelogs keep tombstones are restored in full, instead of
// resuming with keys deleted since. Like Kafka Streams' it holds no
// directory: it is meant for start-up, when no thread uses one. removing
// is called as CleanRemovedTasks calls it. It tries every directory and
// returns the errors of those it could not delete.
func (d *Directory) PurgeOutdatedTasks(now time.Time, maxAge time.Duration, removing func(task string, age time.Duration)) error {
	names, err := d.taskDirs()
	if err != nil {
		return err
	}
	var errs []error
	for _, name := range names {
		if err := d.removeIfOlder(name, now, maxAge, removing); err != nil {
			errs = append(errs, fmt.Errorf("state: delete task directory %s: %w", name, err))
		}
	}
	return errors.Join(errs...)
}

// taskDirs lists the application directory's task directories, by name.
func (d *Directory) taskDirs() ([]string, error) {
	entries, err := os.ReadDir(d.dir)
	if err != nil {
		return nil, fmt.Errorf("state: list task directories of %s: %w", d.dir, err)
	}
	var names []string
	for _, e := range entries {
		if e.IsDir() && taskDirPattern.MatchString(e.Name()) {
			names = append(names, e.Name())
		}
	}
	return names, nil
}

// removeIfOlder deletes the task directory named name when its last
// modification is more than limit before now, calling removing first. A
// directory already gone is no error.
func (d *Directory) removeIfOlder(name string, now time.Time, limit time.Duration, removing func(string, time.Duration)) error {
	p := filepath.Join(d.dir, name)
	fi, err := os.Stat(p)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	age := now.Sub(fi.ModTime())
	if age <= limit {
		return nil
	}
	if removing != nil {
		removing(name, age)
	}
	return os.RemoveAll(p)
}

// taskDirPattern matches the names TaskDirName gives.
var taskDirPattern = regexp.MustCompile(`^\d+_\d+$`)

// Clean deletes the stores of every task and the global stores, as Kafka
// Streams' cleanUp does: the task directories and "global" go, the .lock
// and process metadata files stay (the process keeps its id). It takes the
// directory's lock for the time it deletes, so it fails with ErrLocked
// while another process runs on the directory.
func (d *Directory) Clean() error {
	d.mu.Lock()
	held := d.mu.lock != nil
	d.mu.Unlock()
	if !held {
		if err := d.Lock(); err != nil {
			return err
		}
		defer d.Unlock()
	}
	entries, err := os.ReadDir(d.dir)
	if err != nil {
		return fmt.Errorf("state: clean %s: %w", d.dir, err)
	}
	for _, e := range entries {
		if !e.IsDir() || (e.Name() != globalDirName && !taskDirPattern.MatchString(e.Name())) {
			continue
		}
		if err := os.RemoveAll(filepath.Join(d.dir, e.Name())); err != nil {
			return fmt.Errorf("state: clean %s: %w", d.dir, err)
		}
	}
	return nil
}
