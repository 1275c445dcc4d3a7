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
// the process UUID.
type Directory struct {
	dir string

	mu struct {
		sync.Mutex
		lock      *os.File
		processID string
	}
}

// NewDirectory returns the state directory of applicationID under
// stateDir, creating it if needed. It does not lock it.
func NewDirectory(stateDir, applicationID string) (*Directory, error) {
	if applicationID == "" || strings.ContainsAny(applicationID, `/\`) {
		return nil, fmt.Errorf("%w: application.id %q cannot name a directory", ErrInvalidArgument, applicationID)
	}
	dir := filepath.Join(stateDir, applicationID)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("state: create state directory: %w", err)
	}
	return &Directory{dir: dir}, nil
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
	if err := os.MkdirAll(p, 0o755); err != nil {
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
