package rocksdb

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stoatflow/stoatflow/state"
)

// corruptKV writes a committed store, closes it, damages its files with
// damage, and returns the error of reopening it.
func corruptKV(t *testing.T, damage func(t *testing.T, dir string)) error {
	t.Helper()
	taskDir := t.TempDir()
	s, err := OpenKeyValue(taskDir, state.KeyValueOptions{Name: "kv"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 1000; i++ {
		put(t, s, strings.Repeat("k", 10)+string(rune('a'+i%26))+string(rune(i)), strings.Repeat("v", 100))
	}
	commit(t, s, 1)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	damage(t, state.KeyValueDir(taskDir, "kv"))
	s, err = OpenKeyValue(taskDir, state.KeyValueOptions{Name: "kv"}, Options{})
	if err == nil {
		// Some damage only shows when data is read.
		it, ierr := s.ReadOnly(state.ReadCommitted).All()
		if ierr == nil {
			for it.Next() {
			}
			ierr = it.Err()
			it.Close()
		}
		s.Close()
		return ierr
	}
	return err
}

func files(t *testing.T, dir, suffix string) []string {
	m, _ := filepath.Glob(filepath.Join(dir, "*"+suffix))
	if len(m) == 0 {
		t.Fatalf("no %s files in %s", suffix, dir)
	}
	return m
}

func checkCorrupted(t *testing.T, err error) {
	t.Helper()
	if !errors.Is(err, state.ErrCorrupted) {
		t.Fatalf("got %v, want ErrCorrupted", err)
	}
	var ce *state.CorruptionError
	if !errors.As(err, &ce) || ce.Store != "kv" || ce.Path == "" {
		t.Fatalf("corruption error lacks store or path: %#v", err)
	}
}

func TestTruncatedTableFileIsCorrupted(t *testing.T) {
	checkCorrupted(t, corruptKV(t, func(t *testing.T, dir string) {
		for _, f := range files(t, dir, ".sst") {
			os.Truncate(f, 100)
		}
	}))
}

func TestGarbageTableFileIsCorrupted(t *testing.T) {
	checkCorrupted(t, corruptKV(t, func(t *testing.T, dir string) {
		for _, f := range files(t, dir, ".sst") {
			st, _ := os.Stat(f)
			os.WriteFile(f, []byte(strings.Repeat("garbage!", int(st.Size()/8))), 0o644)
		}
	}))
}

func TestMissingTableFileIsCorrupted(t *testing.T) {
	checkCorrupted(t, corruptKV(t, func(t *testing.T, dir string) {
		for _, f := range files(t, dir, ".sst") {
			os.Remove(f)
		}
	}))
}

func TestGarbageManifestIsCorrupted(t *testing.T) {
	checkCorrupted(t, corruptKV(t, func(t *testing.T, dir string) {
		for _, f := range files(t, dir, "") {
			if strings.Contains(filepath.Base(f), "MANIFEST") {
				os.WriteFile(f, []byte("not a manifest at all"), 0o644)
			}
		}
	}))
}

func TestGarbageCurrentIsCorrupted(t *testing.T) {
	checkCorrupted(t, corruptKV(t, func(t *testing.T, dir string) {
		os.WriteFile(filepath.Join(dir, "CURRENT"), []byte("\x00\x01garbage\n"), 0o644)
	}))
}

func TestMissingCurrentIsCorrupted(t *testing.T) {
	checkCorrupted(t, corruptKV(t, func(t *testing.T, dir string) {
		os.Remove(filepath.Join(dir, "CURRENT"))
	}))
}

func TestSecondOpenOfSameStoreIsNotCorruption(t *testing.T) {
	task := t.TempDir()
	s, err := OpenKeyValue(task, state.KeyValueOptions{Name: "kv"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	commit(t, s, 1)
	_, err = OpenKeyValue(task, state.KeyValueOptions{Name: "kv"}, Options{})
	if err == nil || errors.Is(err, state.ErrCorrupted) {
		t.Fatalf("second open: %v, want a non-corruption error", err)
	}
}
