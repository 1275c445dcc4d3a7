package rocksdb

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/linxGnu/grocksdb"

	"github.com/stoatflow/stoatflow/state"
)

// optionsFile returns the newest RocksDB OPTIONS file of a store.
func optionsFile(t *testing.T, dir string) string {
	m, _ := filepath.Glob(filepath.Join(dir, "OPTIONS-*"))
	if len(m) == 0 {
		t.Fatalf("no OPTIONS file in %s", dir)
	}
	raw, err := os.ReadFile(m[len(m)-1])
	if err != nil {
		t.Fatal(err)
	}
	return string(raw)
}

func TestWriteBufferDefaultsTo16MiBAndIsOverridable(t *testing.T) {
	task := t.TempDir()
	s, err := OpenKeyValue(task, state.KeyValueOptions{Name: "big"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	opts := optionsFile(t, state.KeyValueDir(task, "big"))
	for _, want := range []string{"write_buffer_size=16777216", "atomic_flush=true"} {
		if !strings.Contains(opts, want) {
			t.Fatalf("options lack %s", want)
		}
	}
	s, err = OpenKeyValue(task, state.KeyValueOptions{Name: "quiet"}, Options{WriteBufferBytes: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	if !strings.Contains(optionsFile(t, state.KeyValueDir(task, "quiet")), "write_buffer_size=1048576") {
		t.Fatal("write buffer override not applied")
	}
}

func TestConfigSetterGetsStoreNameAndCannotDisableAtomicFlush(t *testing.T) {
	task := t.TempDir()
	var seen []string
	setter := func(name string, o *grocksdb.Options) {
		seen = append(seen, name)
		o.SetWriteBufferSize(2 << 20)
		o.SetAtomicFlush(false)
	}
	s, err := OpenWindow(task, state.WindowOptions{Name: "w", RetentionMs: 60_000}, Options{ConfigSetter: setter})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	eq(t, seen, []string{"w"})
	opts := optionsFile(t, state.SegmentedDir(task, "w"))
	if !strings.Contains(opts, "write_buffer_size=2097152") || !strings.Contains(opts, "atomic_flush=true") {
		t.Fatal("setter not applied, or atomic_flush not forced")
	}
}

// TestNoStatusMarkerWritten guards KAFKA-20753's rule: a transactional
// store never writes the open/closed `status` key.
func TestNoStatusMarkerWritten(t *testing.T) {
	task := t.TempDir()
	s, err := OpenKeyValue(task, state.KeyValueOptions{Name: "kv"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	put(t, s, "a", "1")
	commit(t, s, 3)
	s.Close()
	b, err := openKeyValueBase(task, state.KeyValueOptions{Name: "kv"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if _, ok, err := b.Meta("status"); err != nil || ok {
		t.Fatalf("status key present (%v, %v)", ok, err)
	}
}
