package state

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/linxGnu/grocksdb"
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
	s, err := OpenRocksDBKeyValue(task, KeyValueOptions{Name: "big"})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	opts := optionsFile(t, KeyValueDir(task, "big"))
	for _, want := range []string{"write_buffer_size=16777216", "atomic_flush=true"} {
		if !strings.Contains(opts, want) {
			t.Fatalf("options lack %s", want)
		}
	}
	s, err = OpenRocksDBKeyValue(task, KeyValueOptions{Name: "quiet", RocksDB: RocksDBOptions{WriteBufferBytes: 1 << 20}})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	if !strings.Contains(optionsFile(t, KeyValueDir(task, "quiet")), "write_buffer_size=1048576") {
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
	s, err := OpenRocksDBWindow(task, WindowOptions{Name: "w", RetentionMs: 60_000, RocksDB: RocksDBOptions{ConfigSetter: setter}})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	eq(t, seen, []string{"w"})
	opts := optionsFile(t, SegmentedDir(task, "w"))
	if !strings.Contains(opts, "write_buffer_size=2097152") || !strings.Contains(opts, "atomic_flush=true") {
		t.Fatal("setter not applied, or atomic_flush not forced")
	}
}

// TestWindowReadersSurviveSegmentDrops reads committed windows from query
// goroutines while the writer advances stream time so that commits drop
// segments under open iterators.
func TestWindowReadersSurviveSegmentDrops(t *testing.T) {
	o := WindowOptions{Name: "w", RetentionMs: 120_000, SegmentIntervalMs: 60_000}
	for _, f := range windowFactories {
		t.Run(f.name, func(t *testing.T) {
			s := f.open(t, t.TempDir(), o)
			defer s.Close()
			var wg sync.WaitGroup
			stop := make(chan struct{})
			errs := make(chan error, 4)
			for r := 0; r < 2; r++ {
				iso := IsolationLevel(r)
				wg.Add(1)
				go func() {
					defer wg.Done()
					v := s.ReadOnly(iso)
					for {
						select {
						case <-stop:
							return
						default:
						}
						it, err := v.FetchAll(0, 1<<40, false)
						if err != nil {
							errs <- err
							return
						}
						for it.Next() {
						}
						if err := it.Err(); err != nil {
							errs <- err
						}
						it.Close()
					}
				}()
			}
			for n := int64(0); n < 100; n++ {
				for k := 0; k < 10; k++ {
					if err := s.Put([]byte(fmt.Sprintf("k%d", k)), []byte("v"), n*20_000); err != nil {
						t.Fatal(err)
					}
				}
				commit(t, s, n)
			}
			close(stop)
			wg.Wait()
			close(errs)
			for err := range errs {
				t.Fatal(err)
			}
			v, _ := s.(*windowStore).s.c.base.view()
			defer v.release()
			if len(v.segments()) > 4 {
				t.Fatalf("expired segments kept: %v", v.segments())
			}
		})
	}
}

// TestNoStatusMarkerWritten guards KAFKA-20753's rule: a transactional
// store never writes the open/closed `status` key.
func TestNoStatusMarkerWritten(t *testing.T) {
	task := t.TempDir()
	s, err := OpenRocksDBKeyValue(task, KeyValueOptions{Name: "kv"})
	if err != nil {
		t.Fatal(err)
	}
	put(t, s, "a", "1")
	commit(t, s, 3)
	s.Close()
	s, err = OpenRocksDBKeyValue(task, KeyValueOptions{Name: "kv"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, ok, err := s.(*kvStore).c.base.meta("status"); err != nil || ok {
		t.Fatalf("status key present (%v, %v)", ok, err)
	}
}

// TestWindowReadCommittedNeverSeesHalfCommitAcrossSegments: every commit
// sets windows in several segments to one value; a read-committed scan from
// another goroutine must see one value throughout.
func TestWindowReadCommittedNeverSeesHalfCommitAcrossSegments(t *testing.T) {
	o := WindowOptions{Name: "w", RetentionMs: 10_000_000, SegmentIntervalMs: 60_000}
	for _, f := range windowFactories {
		t.Run(f.name, func(t *testing.T) {
			s := f.open(t, t.TempDir(), o)
			defer s.Close()
			var wg sync.WaitGroup
			stop := make(chan struct{})
			errs := make(chan error, 4)
			wg.Add(1)
			go func() {
				defer wg.Done()
				v := s.ReadOnly(ReadCommitted)
				for {
					select {
					case <-stop:
						return
					default:
					}
					it, err := v.FetchAll(0, 1<<40, false)
					if err != nil {
						errs <- err
						return
					}
					var first string
					n := 0
					for it.Next() {
						if n == 0 {
							first = string(it.Value())
						} else if string(it.Value()) != first {
							errs <- fmt.Errorf("torn read: %q and %q", first, it.Value())
						}
						n++
					}
					it.Close()
					if n != 0 && n != 20 {
						errs <- fmt.Errorf("saw %d of 20 windows", n)
					}
				}
			}()
			for n := 0; n < 150; n++ {
				for k := 0; k < 20; k++ {
					wput(t, s, fmt.Sprintf("k%d", k%4), int64(k)*50_000, fmt.Sprint(n))
				}
				commit(t, s, int64(n))
			}
			close(stop)
			wg.Wait()
			close(errs)
			for err := range errs {
				t.Fatal(err)
			}
		})
	}
}
