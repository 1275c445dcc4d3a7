package state_test

import (
	"bytes"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/stoatflow/stoatflow/internal/storeformat"
	. "github.com/stoatflow/stoatflow/state"
	"github.com/stoatflow/stoatflow/state/rocksdb"
)

// kvFactory opens a key-value store; reopen reopens the same store after a
// Close (nil for stores that keep nothing).
type kvFactory struct {
	name       string
	persistent bool
	open       func(t testing.TB, dir string, budget *Budget) KeyValueStore
}

var kvFactories = []kvFactory{
	{"rocksdb", true, func(t testing.TB, dir string, b *Budget) KeyValueStore {
		s, err := rocksdb.OpenKeyValue(dir, KeyValueOptions{Name: "kv", Budget: b}, rocksdb.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}},
	{"rocksdb-timestamped", true, func(t testing.TB, dir string, b *Budget) KeyValueStore {
		s, err := rocksdb.OpenKeyValue(dir, KeyValueOptions{Name: "kv", Timestamped: true, Budget: b}, rocksdb.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}},
	{"memory", false, func(t testing.TB, dir string, b *Budget) KeyValueStore {
		return NewInMemoryKeyValue(KeyValueOptions{Name: "kv", Budget: b})
	}},
	{"memory-timestamped", false, func(t testing.TB, dir string, b *Budget) KeyValueStore {
		return NewInMemoryKeyValue(KeyValueOptions{Name: "kv", Timestamped: true, Budget: b})
	}},
	// An LRU store too large to evict is an in-memory key-value store;
	// lru_test.go checks what it does when full.
	{"memory-lru", false, func(t testing.TB, dir string, b *Budget) KeyValueStore {
		s, err := NewInMemoryLRUKeyValue(LRUOptions{Name: "kv", MaxEntries: 1 << 20, Budget: b})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}},
}

var changelogTP = TopicPartition{Topic: "app-kv-changelog", Partition: 3}

func forEachKV(t *testing.T, fn func(t *testing.T, f kvFactory, s KeyValueStore, dir string)) {
	for _, f := range kvFactories {
		t.Run(f.name, func(t *testing.T) {
			dir := t.TempDir()
			s := f.open(t, dir, nil)
			defer s.Close()
			fn(t, f, s, dir)
		})
	}
}

func mustGet(t testing.TB, r ReadOnlyKeyValueStore, k string) string {
	t.Helper()
	v, err := r.Get([]byte(k))
	if err != nil {
		t.Fatal(err)
	}
	if v == nil {
		return "<nil>"
	}
	return string(v)
}

func drain(t testing.TB) func(Iterator, error) []string {
	return func(it Iterator, err error) []string { t.Helper(); return drainIter(t, it, err) }
}

func drainIter(t testing.TB, it Iterator, err error) []string {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	var out []string
	for it.Next() {
		out = append(out, string(it.Key())+"="+string(it.Value()))
	}
	if err := it.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func eq(t testing.TB, got, want any) {
	t.Helper()
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
}

func put(t testing.TB, s KeyValueStore, kv ...string) {
	t.Helper()
	for i := 0; i < len(kv); i += 2 {
		var v []byte
		if kv[i+1] != "<nil>" {
			v = []byte(kv[i+1])
		}
		if err := s.Put([]byte(kv[i]), v); err != nil {
			t.Fatal(err)
		}
	}
}

func commit(t testing.TB, s Store, off int64) {
	t.Helper()
	if err := s.Commit(map[TopicPartition]*int64{changelogTP: Offset(off)}); err != nil {
		t.Fatal(err)
	}
}

func TestKeyValueReadYourWrites(t *testing.T) {
	forEachKV(t, func(t *testing.T, f kvFactory, s KeyValueStore, dir string) {
		put(t, s, "a", "1", "b", "2")
		eq(t, mustGet(t, s, "a"), "1")
		eq(t, mustGet(t, s.ReadOnly(ReadUncommitted), "a"), "1")
		eq(t, mustGet(t, s.ReadOnly(ReadCommitted), "a"), "<nil>")
		commit(t, s, 10)
		eq(t, mustGet(t, s.ReadOnly(ReadCommitted), "a"), "1")
		put(t, s, "a", "<nil>")
		eq(t, mustGet(t, s, "a"), "<nil>")
		eq(t, mustGet(t, s.ReadOnly(ReadCommitted), "a"), "1")
		s.Rollback()
		eq(t, mustGet(t, s, "a"), "1")
	})
}

func TestEmptyValueIsNotAbsent(t *testing.T) {
	forEachKV(t, func(t *testing.T, f kvFactory, s KeyValueStore, dir string) {
		put(t, s, "e", "")
		v, _ := s.Get([]byte("e"))
		if v == nil || len(v) != 0 {
			t.Fatalf("got %v", v)
		}
		commit(t, s, 1)
		v, _ = s.Get([]byte("e"))
		if v == nil || len(v) != 0 {
			t.Fatalf("after commit got %v", v)
		}
	})
}

func TestRangeMergesOverlayOverBase(t *testing.T) {
	forEachKV(t, func(t *testing.T, f kvFactory, s KeyValueStore, dir string) {
		put(t, s, "a", "1", "b", "2", "c", "3", "d", "4")
		commit(t, s, 1)
		put(t, s, "b", "<nil>", "c", "33", "bb", "22", "e", "5")
		eq(t, drain(t)(s.All()), []string{"a=1", "bb=22", "c=33", "d=4", "e=5"})
		eq(t, drain(t)(s.Range([]byte("b"), []byte("d"))), []string{"bb=22", "c=33", "d=4"})
		eq(t, drain(t)(s.ReverseRange([]byte("b"), []byte("d"))), []string{"d=4", "c=33", "bb=22"})
		eq(t, drain(t)(s.ReverseRange(nil, nil)), []string{"e=5", "d=4", "c=33", "bb=22", "a=1"})
		eq(t, drain(t)(s.PrefixScan([]byte("b"))), []string{"bb=22"})
		eq(t, drain(t)(s.Range([]byte("z"), []byte("a"))), []string(nil))
		rc := s.ReadOnly(ReadCommitted)
		eq(t, drain(t)(rc.All()), []string{"a=1", "b=2", "c=3", "d=4"})
		eq(t, drain(t)(rc.ReverseRange([]byte("a"), []byte("c"))), []string{"c=3", "b=2", "a=1"})
	})
}

func TestPutIfAbsentAndDeleteReturnOld(t *testing.T) {
	forEachKV(t, func(t *testing.T, f kvFactory, s KeyValueStore, dir string) {
		old, err := s.PutIfAbsent([]byte("k"), []byte("v1"))
		if err != nil || old != nil {
			t.Fatal(old, err)
		}
		old, _ = s.PutIfAbsent([]byte("k"), []byte("v2"))
		eq(t, string(old), "v1")
		commit(t, s, 1)
		old, _ = s.Delete([]byte("k"))
		eq(t, string(old), "v1")
		old, _ = s.PutIfAbsent([]byte("k"), []byte("v3"))
		if old != nil {
			t.Fatal(old)
		}
		eq(t, mustGet(t, s, "k"), "v3")
	})
}

func TestPutAllGoesThroughOverlay(t *testing.T) {
	forEachKV(t, func(t *testing.T, f kvFactory, s KeyValueStore, dir string) {
		if err := s.PutAll([]KeyValue{{[]byte("x"), []byte("1")}, {[]byte("y"), []byte("2")}}); err != nil {
			t.Fatal(err)
		}
		eq(t, mustGet(t, s.ReadOnly(ReadCommitted), "x"), "<nil>")
		eq(t, s.ApproximateNumUncommittedBytes(), 4)
		s.Rollback()
		eq(t, mustGet(t, s, "x"), "<nil>")
	})
}

func TestDeleteRangeGoesThroughOverlay(t *testing.T) {
	forEachKV(t, func(t *testing.T, f kvFactory, s KeyValueStore, dir string) {
		put(t, s, "a", "1", "b", "2", "c", "3")
		commit(t, s, 1)
		put(t, s, "bb", "x")
		if err := s.DeleteRange([]byte("b"), []byte("c")); err != nil {
			t.Fatal(err)
		}
		eq(t, drain(t)(s.All()), []string{"a=1"})
		eq(t, drain(t)(s.ReadOnly(ReadCommitted).All()), []string{"a=1", "b=2", "c=3"})
		commit(t, s, 2)
		eq(t, drain(t)(s.ReadOnly(ReadCommitted).All()), []string{"a=1"})
	})
}

func TestUncommittedBytesCountOverwriteOnce(t *testing.T) {
	forEachKV(t, func(t *testing.T, f kvFactory, s KeyValueStore, dir string) {
		put(t, s, "key", "value")
		eq(t, s.ApproximateNumUncommittedBytes(), 8)
		put(t, s, "key", "vv")
		eq(t, s.ApproximateNumUncommittedBytes(), 5)
		put(t, s, "key", "<nil>")
		eq(t, s.ApproximateNumUncommittedBytes(), 3)
		commit(t, s, 1)
		eq(t, s.ApproximateNumUncommittedBytes(), 0)
	})
}

func TestBudgetSumsStores(t *testing.T) {
	for _, f := range kvFactories {
		t.Run(f.name, func(t *testing.T) {
			var b Budget
			s1 := f.open(t, t.TempDir(), &b)
			s2 := f.open(t, t.TempDir(), &b)
			put(t, s1, "a", "12")
			put(t, s2, "bb", "1", "bb", "123")
			eq(t, b.Total(), 3+5)
			s1.Rollback()
			eq(t, b.Total(), 5)
			commit(t, s2, 1)
			eq(t, b.Total(), 0)
			put(t, s1, "z", "1")
			s1.Close()
			s2.Close()
			eq(t, b.Total(), 0)
		})
	}
}

func TestCommitOffsetsContract(t *testing.T) {
	forEachKV(t, func(t *testing.T, f kvFactory, s KeyValueStore, dir string) {
		other := TopicPartition{Topic: "other", Partition: 0}
		if err := s.Commit(map[TopicPartition]*int64{changelogTP: Offset(5), other: Offset(7)}); err != nil {
			t.Fatal(err)
		}
		o, ok, err := s.CommittedOffset(changelogTP)
		if err != nil {
			t.Fatal(err)
		}
		if !f.persistent {
			if ok {
				t.Fatal("in-memory store reports an offset")
			}
			return
		}
		eq(t, []any{o, ok}, []any{5, true})
		// nil value removes only that partition.
		if err := s.Commit(map[TopicPartition]*int64{other: nil}); err != nil {
			t.Fatal(err)
		}
		_, ok, _ = s.CommittedOffset(other)
		eq(t, ok, false)
		o, ok, _ = s.CommittedOffset(changelogTP)
		eq(t, []any{o, ok}, []any{5, true})
		// empty map removes all.
		if err := s.Commit(map[TopicPartition]*int64{}); err != nil {
			t.Fatal(err)
		}
		_, ok, _ = s.CommittedOffset(changelogTP)
		eq(t, ok, false)
	})
}

func TestReopenKeepsCommittedDropsUncommitted(t *testing.T) {
	for _, f := range kvFactories {
		if !f.persistent {
			continue
		}
		t.Run(f.name, func(t *testing.T) {
			dir := t.TempDir()
			s := f.open(t, dir, nil)
			put(t, s, "a", "1")
			commit(t, s, 41)
			put(t, s, "b", "2")
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			if err := s.Close(); err != nil {
				t.Fatal("second close:", err)
			}
			s = f.open(t, dir, nil)
			defer s.Close()
			eq(t, drain(t)(s.All()), []string{"a=1"})
			o, ok, _ := s.CommittedOffset(changelogTP)
			eq(t, []any{o, ok}, []any{41, true})
		})
	}
}

func TestCommitWritesPositionWithOffsets(t *testing.T) {
	for _, f := range kvFactories {
		if !f.persistent {
			continue
		}
		t.Run(f.name, func(t *testing.T) {
			dir := t.TempDir()
			s := f.open(t, dir, nil)
			pt := s.(PositionTracker)
			put(t, s, "a", "1")
			pt.UpdatePosition("input", 2, 99)
			eq(t, pt.Position(ReadCommitted), Position{})
			eq(t, pt.Position(ReadUncommitted), Position{"input": {2: 99}})
			commit(t, s, 7)
			s.Close()
			s = f.open(t, dir, nil)
			defer s.Close()
			eq(t, s.(PositionTracker).Position(ReadCommitted), Position{"input": {2: 99}})
		})
	}
}

func TestApplyChangelogWritesBaseWithOffset(t *testing.T) {
	forEachKV(t, func(t *testing.T, f kvFactory, s KeyValueStore, dir string) {
		ts := f.name == "rocksdb-timestamped" || f.name == "memory-timestamped"
		recs := []ChangelogRecord{
			{Key: []byte("a"), Value: []byte("1"), Timestamp: 100},
			{Key: []byte("b"), Value: []byte("2"), Timestamp: 200},
			{Key: []byte("a"), Value: nil, Timestamp: 300},
		}
		if err := s.ApplyChangelog(recs, changelogTP, 12); err != nil {
			t.Fatal(err)
		}
		v, _ := s.ReadOnly(ReadCommitted).Get([]byte("b"))
		if ts {
			eq(t, v, storeformat.AppendTimestamped(nil, 200, []byte("2")))
		} else {
			eq(t, string(v), "2")
		}
		eq(t, mustGet(t, s, "a"), "<nil>")
		o, ok, _ := s.CommittedOffset(changelogTP)
		if f.persistent {
			eq(t, []any{o, ok}, []any{12, true})
		}
	})
}

func TestClosedStoreReturnsErrClosed(t *testing.T) {
	forEachKV(t, func(t *testing.T, f kvFactory, s KeyValueStore, dir string) {
		put(t, s, "a", "1")
		commit(t, s, 1)
		it, err := s.All()
		if err != nil {
			t.Fatal(err)
		}
		s.Close()
		if _, err := s.Get([]byte("a")); !errors.Is(err, ErrClosed) {
			t.Fatalf("get after close: %v", err)
		}
		if err := s.Put([]byte("a"), []byte("1")); !errors.Is(err, ErrClosed) {
			t.Fatalf("put after close: %v", err)
		}
		for it.Next() {
		}
		it.Close()
		it.Close()
	})
}

// TestConcurrentReadersNeverSeeHalfCommit runs query goroutines against the
// writer; every commit sets all keys to one value, so a view that mixes two
// values has seen half a commit.
func TestConcurrentReadersNeverSeeHalfCommit(t *testing.T) {
	forEachKV(t, func(t *testing.T, f kvFactory, s KeyValueStore, dir string) {
		const keys = 20
		var wg sync.WaitGroup
		stop := make(chan struct{})
		errs := make(chan error, 8)
		for r := 0; r < 3; r++ {
			iso := IsolationLevel(r % 2)
			wg.Add(1)
			go func() {
				defer wg.Done()
				view := s.ReadOnly(iso)
				for {
					select {
					case <-stop:
						return
					default:
					}
					it, err := view.All()
					if err != nil {
						errs <- err
						return
					}
					var first []byte
					n := 0
					for it.Next() {
						if first == nil {
							first = append([]byte(nil), it.Value()...)
						} else if iso == ReadCommitted && !bytes.Equal(first, it.Value()) {
							errs <- fmt.Errorf("%v: torn read: %q vs %q", iso, first, it.Value())
						}
						n++
					}
					it.Close()
					if iso == ReadCommitted && n != 0 && n != keys {
						errs <- fmt.Errorf("read committed saw %d keys", n)
					}
					_, _ = view.Get([]byte("k05"))
				}
			}()
		}
		for n := 0; n < 200; n++ {
			for i := 0; i < keys; i++ {
				put(t, s, fmt.Sprintf("k%02d", i), fmt.Sprint(n))
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
