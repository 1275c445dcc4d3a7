package state_test

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

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
