package state_test

import (
	"fmt"
	"sync"
	"testing"

	"github.com/stoatflow/stoatflow/internal/storeformat"
	. "github.com/stoatflow/stoatflow/state"
	"github.com/stoatflow/stoatflow/state/rocksdb"
)

type windowFactory struct {
	name       string
	persistent bool
	open       func(t testing.TB, dir string, o WindowOptions) WindowStore
}

var windowFactories = []windowFactory{
	{"rocksdb", true, func(t testing.TB, dir string, o WindowOptions) WindowStore {
		s, err := rocksdb.OpenWindow(dir, o, rocksdb.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}},
	{"memory", false, func(t testing.TB, dir string, o WindowOptions) WindowStore {
		s, err := NewInMemoryWindow(o)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}},
}

func drainWindows(t testing.TB) func(WindowIterator, error) []string {
	return func(it WindowIterator, err error) []string {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		defer it.Close()
		var out []string
		for it.Next() {
			out = append(out, fmt.Sprintf("%s@%d=%s", it.Key(), it.WindowStart(), it.Value()))
		}
		if err := it.Err(); err != nil {
			t.Fatal(err)
		}
		return out
	}
}

func wput(t testing.TB, s WindowStore, key string, ws int64, v string) {
	t.Helper()
	var val []byte
	if v != "<nil>" {
		val = []byte(v)
	}
	if err := s.Put([]byte(key), val, ws); err != nil {
		t.Fatal(err)
	}
}

func forEachWindow(t *testing.T, o WindowOptions, fn func(t *testing.T, f windowFactory, s WindowStore, dir string)) {
	for _, f := range windowFactories {
		t.Run(f.name, func(t *testing.T) {
			dir := t.TempDir()
			s := f.open(t, dir, o)
			defer func() { s.Close() }()
			fn(t, f, s, dir)
		})
	}
}

var winOpts = WindowOptions{Name: "win", RetentionMs: 1_000_000, SegmentIntervalMs: 100_000}

func TestWindowFetchMergesOverlayAcrossSegments(t *testing.T) {
	forEachWindow(t, winOpts, func(t *testing.T, f windowFactory, s WindowStore, dir string) {
		wput(t, s, "a", 10, "a10")
		wput(t, s, "a", 150_000, "a150k")
		wput(t, s, "ab", 20, "ab20")
		wput(t, s, "b", 30, "b30")
		commit(t, s, 1)
		wput(t, s, "a", 250_000, "a250k")
		wput(t, s, "a", 10, "<nil>")
		wput(t, s, "a", 20, "a20")
		eq(t, drainWindows(t)(s.FetchRange([]byte("a"), 0, 300_000, false)), []string{"a@20=a20", "a@150000=a150k", "a@250000=a250k"})
		eq(t, drainWindows(t)(s.FetchRange([]byte("a"), 0, 300_000, true)), []string{"a@250000=a250k", "a@150000=a150k", "a@20=a20"})
		eq(t, drainWindows(t)(s.FetchRange([]byte("a"), 15, 160_000, false)), []string{"a@20=a20", "a@150000=a150k"})
		eq(t, drainWindows(t)(s.FetchKeys([]byte("a"), []byte("ab"), 0, 100, false)), []string{"a@20=a20", "ab@20=ab20"})
		eq(t, drainWindows(t)(s.FetchAll(0, 1_000_000, false)), []string{"a@20=a20", "ab@20=ab20", "b@30=b30", "a@150000=a150k", "a@250000=a250k"})
		v, _ := s.Fetch([]byte("a"), 150_000)
		eq(t, string(v), "a150k")
		v, _ = s.Fetch([]byte("a"), 10)
		eq(t, v == nil, true)
	})
}

func TestWindowReadCommittedHidesUncommitted(t *testing.T) {
	forEachWindow(t, winOpts, func(t *testing.T, f windowFactory, s WindowStore, dir string) {
		wput(t, s, "k", 100, "old")
		commit(t, s, 1)
		wput(t, s, "k", 100, "new")
		wput(t, s, "k", 200, "fresh")
		rc := s.ReadOnly(ReadCommitted)
		eq(t, drainWindows(t)(rc.FetchRange([]byte("k"), 0, 1000, false)), []string{"k@100=old"})
		v, _ := rc.Fetch([]byte("k"), 200)
		eq(t, v == nil, true)
		eq(t, drainWindows(t)(s.ReadOnly(ReadUncommitted).FetchRange([]byte("k"), 0, 1000, false)), []string{"k@100=new", "k@200=fresh"})
		s.Rollback()
		eq(t, drainWindows(t)(s.FetchAll(0, 1000, false)), []string{"k@100=old"})
	})
}

func TestWindowRetentionDropsWholeSegments(t *testing.T) {
	o := WindowOptions{Name: "win", RetentionMs: 200_000, SegmentIntervalMs: 100_000}
	forEachWindow(t, o, func(t *testing.T, f windowFactory, s WindowStore, dir string) {
		wput(t, s, "k", 10, "s0")
		wput(t, s, "k", 150_000, "s1")
		commit(t, s, 1)
		// Stream time 320000: live from 120001, min live segment 1.
		wput(t, s, "k", 320_000, "s3")
		eq(t, drainWindows(t)(s.FetchAll(0, 1_000_000, false)), []string{"k@150000=s1", "k@320000=s3"})
		// Read committed still sees the committed stream time.
		eq(t, drainWindows(t)(s.ReadOnly(ReadCommitted).FetchAll(0, 1_000_000, false)), []string{"k@10=s0", "k@150000=s1"})
		// An expired put is dropped.
		wput(t, s, "k", 5, "late")
		commit(t, s, 2)
		eq(t, drainWindows(t)(s.ReadOnly(ReadCommitted).FetchAll(0, 1_000_000, false)), []string{"k@150000=s1", "k@320000=s3"})
		eq(t, Segments(s), []int64{1, 3})
		if f.persistent {
			s.Close()
			s = f.open(t, dir, o)
			defer s.Close()
			eq(t, drainWindows(t)(s.FetchAll(0, 1_000_000, false)), []string{"k@150000=s1", "k@320000=s3"})
			o, ok, _ := s.CommittedOffset(changelogTP)
			eq(t, []any{o, ok}, []any{2, true})
		}
	})
}

func TestWindowRetainDuplicatesKeepsEveryPut(t *testing.T) {
	o := winOpts
	o.RetainDuplicates = true
	forEachWindow(t, o, func(t *testing.T, f windowFactory, s WindowStore, dir string) {
		wput(t, s, "k", 100, "x")
		eq(t, s.LastSeq(), 1)
		wput(t, s, "k", 100, "y")
		wput(t, s, "k", 100, "<nil>") // ignored
		commit(t, s, 1)
		wput(t, s, "k", 100, "z")
		eq(t, drainWindows(t)(s.FetchRange([]byte("k"), 0, 1000, false)), []string{"k@100=x", "k@100=y", "k@100=z"})
	})
}

func TestWindowApplyChangelogDecodesStoreKeys(t *testing.T) {
	o := winOpts
	o.Timestamped = true
	forEachWindow(t, o, func(t *testing.T, f windowFactory, s WindowStore, dir string) {
		recs := []ChangelogRecord{
			{Key: storeformat.AppendWindowKey(nil, []byte("k"), 100, 0), Value: []byte("v1"), Timestamp: 105},
			{Key: storeformat.AppendWindowKey(nil, []byte("k"), 200_000, 0), Value: []byte("v2"), Timestamp: 200_001},
			{Key: storeformat.AppendWindowKey(nil, []byte("k"), 100, 0), Value: nil, Timestamp: 300},
		}
		if err := s.ApplyChangelog(recs, changelogTP, 9); err != nil {
			t.Fatal(err)
		}
		v, _ := s.ReadOnly(ReadCommitted).Fetch([]byte("k"), 200_000)
		eq(t, v, storeformat.AppendTimestamped(nil, 200_001, []byte("v2")))
		v, _ = s.Fetch([]byte("k"), 100)
		eq(t, v == nil, true)
		if f.persistent {
			o, ok, _ := s.CommittedOffset(changelogTP)
			eq(t, []any{o, ok}, []any{9, true})
		}
	})
}

func TestWindowUncommittedBytesAndBudget(t *testing.T) {
	var b Budget
	o := winOpts
	o.Budget = &b
	forEachWindow(t, o, func(t *testing.T, f windowFactory, s WindowStore, dir string) {
		wput(t, s, "k", 100, "vv")
		n := s.ApproximateNumUncommittedBytes()
		if n <= 0 || b.Total() != n {
			t.Fatalf("bytes %d, budget %d", n, b.Total())
		}
		wput(t, s, "k", 100, "ww")
		eq(t, s.ApproximateNumUncommittedBytes(), n)
		commit(t, s, 1)
		eq(t, b.Total(), 0)
	})
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
			if segs := Segments(s); len(segs) > 4 {
				t.Fatalf("expired segments kept: %v", segs)
			}
		})
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
