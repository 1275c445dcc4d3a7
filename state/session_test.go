package state_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/stoatflow/stoatflow/internal/storeformat"
	. "github.com/stoatflow/stoatflow/state"
	"github.com/stoatflow/stoatflow/state/rocksdb"
)

type sessionFactory struct {
	name       string
	persistent bool
	open       func(t testing.TB, dir string, o SessionOptions) SessionStore
}

var sessionFactories = []sessionFactory{
	{"rocksdb", true, func(t testing.TB, dir string, o SessionOptions) SessionStore {
		s, err := rocksdb.OpenSession(dir, o, rocksdb.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}},
	{"memory", false, func(t testing.TB, dir string, o SessionOptions) SessionStore {
		s, err := NewInMemorySession(o)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}},
}

func drainSessions(t testing.TB) func(SessionIterator, error) []string {
	return func(it SessionIterator, err error) []string {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		defer it.Close()
		var out []string
		for it.Next() {
			out = append(out, fmt.Sprintf("%s[%d,%d]=%s", it.Key(), it.Start(), it.End(), it.Value()))
		}
		if err := it.Err(); err != nil {
			t.Fatal(err)
		}
		return out
	}
}

func sput(t testing.TB, s SessionStore, key string, start, end int64, v string) {
	t.Helper()
	var val []byte
	if v != "<nil>" {
		val = []byte(v)
	}
	if err := s.Put([]byte(key), start, end, val); err != nil {
		t.Fatal(err)
	}
}

func forEachSession(t *testing.T, o SessionOptions, fn func(t *testing.T, f sessionFactory, s SessionStore, dir string)) {
	for _, f := range sessionFactories {
		t.Run(f.name, func(t *testing.T) {
			dir := t.TempDir()
			s := f.open(t, dir, o)
			defer func() { s.Close() }()
			fn(t, f, s, dir)
		})
	}
}

var sessOpts = SessionOptions{Name: "sess", RetentionMs: 1_000_000, SegmentIntervalMs: 100_000}

func TestSessionFindMergesOverlay(t *testing.T) {
	forEachSession(t, sessOpts, func(t *testing.T, f sessionFactory, s SessionStore, dir string) {
		sput(t, s, "a", 0, 10, "a1")
		sput(t, s, "a", 100, 150_000, "a2")
		sput(t, s, "ab", 5, 20, "ab1")
		commit(t, s, 1)
		sput(t, s, "a", 0, 10, "<nil>")
		sput(t, s, "a", 20, 30, "a3")
		eq(t, drainSessions(t)(s.FindSessions([]byte("a"), 0, math.MaxInt64, false)), []string{"a[20,30]=a3", "a[100,150000]=a2"})
		eq(t, drainSessions(t)(s.FindSessions([]byte("a"), 25, 50, false)), []string{"a[20,30]=a3"})
		eq(t, drainSessions(t)(s.FindSessions([]byte("a"), 0, math.MaxInt64, true)), []string{"a[100,150000]=a2", "a[20,30]=a3"})
		eq(t, drainSessions(t)(s.FindSessionsRange([]byte("a"), []byte("ab"), 0, math.MaxInt64, false)), []string{"a[20,30]=a3", "ab[5,20]=ab1", "a[100,150000]=a2"})
		eq(t, drainSessions(t)(s.ReadOnly(ReadCommitted).FindSessions([]byte("a"), 0, math.MaxInt64, false)), []string{"a[0,10]=a1", "a[100,150000]=a2"})
		v, _ := s.FetchSession([]byte("a"), 20, 30)
		eq(t, string(v), "a3")
		v, _ = s.ReadOnly(ReadCommitted).FetchSession([]byte("a"), 20, 30)
		eq(t, v == nil, true)
	})
}

func TestSessionReopenAndRetention(t *testing.T) {
	o := SessionOptions{Name: "sess", RetentionMs: 200_000, SegmentIntervalMs: 100_000}
	forEachSession(t, o, func(t *testing.T, f sessionFactory, s SessionStore, dir string) {
		sput(t, s, "k", 0, 10, "old")
		sput(t, s, "k", 140_000, 150_000, "mid")
		commit(t, s, 1)
		sput(t, s, "k", 300_000, 330_000, "new")
		commit(t, s, 2)
		eq(t, drainSessions(t)(s.FindSessions([]byte("k"), 0, math.MaxInt64, false)), []string{"k[140000,150000]=mid", "k[300000,330000]=new"})
		if f.persistent {
			s.Close()
			s = f.open(t, dir, o)
			defer s.Close()
			eq(t, drainSessions(t)(s.FindSessions([]byte("k"), 0, math.MaxInt64, false)), []string{"k[140000,150000]=mid", "k[300000,330000]=new"})
		}
	})
}

func TestSessionApplyChangelog(t *testing.T) {
	forEachSession(t, sessOpts, func(t *testing.T, f sessionFactory, s SessionStore, dir string) {
		recs := []ChangelogRecord{
			{Key: storeformat.AppendSessionKey(nil, []byte("k"), 5, 50), Value: []byte("agg")},
			{Key: storeformat.AppendSessionKey(nil, []byte("j"), 1, 2), Value: []byte("x")},
			{Key: storeformat.AppendSessionKey(nil, []byte("j"), 1, 2), Value: nil},
		}
		if err := s.ApplyChangelog(recs, changelogTP, 4); err != nil {
			t.Fatal(err)
		}
		eq(t, drainSessions(t)(s.ReadOnly(ReadCommitted).FindSessionsRange(nil, nil, 0, math.MaxInt64, false)), []string{"k[5,50]=agg"})
	})
}
