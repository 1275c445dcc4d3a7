package rocksdb

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/stoatflow/stoatflow/state"
)

// TestVolumeFaultsAreNotCorruption: what the file system says when a
// store's volume is full or read-only, or its directory not writable,
// classifies as a VolumeError naming the store, its path and what to do,
// never as corruption (for which a task deletes the store's files);
// damaged files stay corruption. The texts are RocksDB 7.8's.
func TestVolumeFaultsAreNotCorruption(t *testing.T) {
	b := &rocksBase{name: "counts", path: "/state/app/0_1/rocksdb/counts"}
	for _, tc := range []struct {
		err    error
		volume bool
	}{
		{errors.New("IO error: No space left on device: While appending to file: /state/app/0_1/rocksdb/counts/000010.sst: No space left on device"), true},
		{errors.New("IO error: While open a file for appending: /state/app/0_1/rocksdb/counts/MANIFEST-000012: Read-only file system"), true},
		{errors.New("IO error: While opening a file for sequentially reading: /state/app/0_1/rocksdb/counts/CURRENT: Permission denied"), true},
		{errors.New("IO error: Disk quota exceeded"), true},
		{errors.New("IO error: While open a file for random read: /x/000009.sst: Too many open files"), true},
		{&fs.PathError{Op: "open", Path: "/state/app/0_1", Err: syscall.EACCES}, true},
		{fmt.Errorf("wrapped: %w", syscall.ENOSPC), true},
		{errors.New("Corruption: block checksum mismatch: stored = 1, computed = 2"), false},
		{errors.New("IO error: No such file or directory: While opening a file for sequentially reading: /x/CURRENT"), false},
	} {
		err := b.classify("commit", tc.err)
		if got := errors.Is(err, state.ErrVolume); got != tc.volume {
			t.Errorf("%v: classified as %v (volume %v), want volume %v", tc.err, err, got, tc.volume)
			continue
		}
		if tc.volume {
			if errors.Is(err, state.ErrCorrupted) {
				t.Errorf("%v: a volume fault matches ErrCorrupted", tc.err)
			}
			var ve *state.VolumeError
			if !errors.As(err, &ve) || ve.Store != "counts" || ve.Path != b.path || ve.Op != "commit" {
				t.Errorf("%v: %#v lacks the store, its path or the operation", tc.err, err)
			}
			if msg := err.Error(); !strings.Contains(msg, "free space") || !strings.Contains(msg, "state.dir") || !strings.Contains(msg, "kept") {
				t.Errorf("the message does not say what to do: %s", msg)
			}
		} else if !errors.Is(err, state.ErrCorrupted) {
			t.Errorf("%v: classified as %v, want corruption", tc.err, err)
		}
	}
}

// TestFullVolumeKeepsTheStore: on a small volume (a tmpfs of 4 MiB,
// mounted for the test) a store commits until the volume is full; the
// failed commit is a VolumeError, and so is opening the store again while
// the volume is full (refused before RocksDB runs, which would abort the
// process there). Once space is freed the store opens, its files kept,
// with what reached its disk and the offset that came with it (at least
// the part flushed before the volume filled): its changelog has the rest. Needs the privilege to mount a tmpfs;
// the classification itself is TestVolumeFaultsAreNotCorruption's.
func TestFullVolumeKeepsTheStore(t *testing.T) {
	mnt := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", mnt).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs here (%v: %s); TestVolumeFaultsAreNotCorruption covers the classification", err, strings.TrimSpace(string(out)))
	}
	t.Cleanup(func() {
		if out, err := exec.Command("umount", mnt).CombinedOutput(); err != nil {
			t.Errorf("umount %s: %v: %s", mnt, err, out)
		}
	})
	taskDir := filepath.Join(mnt, "0_1")
	s, err := OpenKeyValue(taskDir, state.KeyValueOptions{Name: "counts"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	v := []byte(strings.Repeat("v", 4096))
	// A first part reaches the disk with its offset (a close flushes).
	const durable = 100
	for i := 0; i < durable; i++ {
		put(t, s, fmt.Sprintf("k%06d", i), string(v))
	}
	commit(t, s, durable-1)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if s, err = OpenKeyValue(taskDir, state.KeyValueOptions{Name: "counts"}, Options{}); err != nil {
		t.Fatal(err)
	}
	committed := durable - 1
	var full error
	for i := durable; i < 10000 && full == nil; i++ {
		if err := s.Put([]byte(fmt.Sprintf("k%06d", i)), v); err != nil {
			full = err
			break
		}
		if i%20 == 19 {
			if err := s.Commit(map[state.TopicPartition]*int64{changelogTP: state.Offset(int64(i))}); err != nil {
				full = err
				break
			}
			committed = i
		}
	}
	if full == nil {
		t.Fatal("the 4 MiB volume never filled")
	}
	if !errors.Is(full, state.ErrVolume) || errors.Is(full, state.ErrCorrupted) {
		t.Fatalf("the write on a full volume failed with %v, want a VolumeError", full)
	}
	t.Logf("the volume filled after %d committed records: %v", committed+1, full)
	s.Close()

	// Fill what is left, so that not even the open's files fit.
	junk, err := os.Create(filepath.Join(mnt, "junk"))
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 4096)
	for {
		if _, err := junk.Write(buf); err != nil {
			break
		}
	}
	junk.Close()
	if _, err := OpenKeyValue(taskDir, state.KeyValueOptions{Name: "counts"}, Options{}); !errors.Is(err, state.ErrVolume) || errors.Is(err, state.ErrCorrupted) {
		t.Fatalf("opening on a full volume: %v, want a VolumeError", err)
	}
	if err := os.Remove(junk.Name()); err != nil {
		t.Fatal(err)
	}
	s, err = OpenKeyValue(taskDir, state.KeyValueOptions{Name: "counts"}, Options{})
	if err != nil {
		t.Fatalf("opening once space is freed: %v", err)
	}
	defer s.Close()
	// The store holds what reached its disk, with the offset it reached
	// it at: at least the first part; its changelog has the rest.
	off, ok, err := s.CommittedOffset(changelogTP)
	if err != nil || !ok || off < durable-1 || off > int64(committed) {
		t.Fatalf("the store's offset after the full volume: %d %v %v, want %d to %d", off, ok, err, durable-1, committed)
	}
	t.Logf("the store reopened at offset %d (%d committed before the volume filled)", off, committed)
	for i := 0; i <= int(off); i++ {
		got, err := s.ReadOnly(state.ReadCommitted).Get([]byte(fmt.Sprintf("k%06d", i)))
		if err != nil || len(got) != len(v) {
			t.Fatalf("record %d, committed before the volume filled: %d bytes, %v", i, len(got), err)
		}
	}
}
