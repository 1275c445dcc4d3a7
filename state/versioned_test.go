package state_test

import (
	"fmt"
	"math"
	"testing"

	"pgregory.net/rapid"

	. "github.com/stoatflow/stoatflow/state"
	"github.com/stoatflow/stoatflow/state/rocksdb"
)

type versionedFactory struct {
	name       string
	persistent bool
	open       func(t testing.TB, dir string, o VersionedOptions) VersionedKeyValueStore
}

var versionedFactories = []versionedFactory{
	{"rocksdb", true, func(t testing.TB, dir string, o VersionedOptions) VersionedKeyValueStore {
		s, err := rocksdb.OpenVersioned(dir, o, rocksdb.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}},
	{"memory", false, func(t testing.TB, dir string, o VersionedOptions) VersionedKeyValueStore {
		s, err := NewInMemoryVersioned(o)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}},
}

func fmtRec(r *VersionedRecord, err error) string {
	if err != nil {
		return "err:" + err.Error()
	}
	if r == nil {
		return "<nil>"
	}
	if r.HasValidTo {
		return fmt.Sprintf("%s[%d,%d)", r.Value, r.Timestamp, r.ValidTo)
	}
	return fmt.Sprintf("%s[%d,)", r.Value, r.Timestamp)
}

var verOpts = VersionedOptions{Name: "ver", HistoryRetentionMs: 1_000_000, SegmentIntervalMs: 100_000}

func TestVersionedGetAsOfWithOutOfOrderPuts(t *testing.T) {
	for _, f := range versionedFactories {
		t.Run(f.name, func(t *testing.T) {
			dir := t.TempDir()
			s := f.open(t, dir, verOpts)
			defer func() { s.Close() }()
			k := []byte("k")
			r, _ := s.Put(k, []byte("v10"), 10)
			eq(t, r, PutValidToUndefined)
			s.Put(k, []byte("v30"), 30)
			r, _ = s.Put(k, []byte("v20"), 20)
			eq(t, r, 30)
			commit(t, s, 1)
			s.Put(k, []byte("v40"), 40)
			eq(t, fmtRec(s.Get(k)), "v40[40,)")
			eq(t, fmtRec(s.ReadOnly(ReadCommitted).Get(k)), "v30[30,)")
			eq(t, fmtRec(s.GetAsOf(k, 25)), "v20[20,30)")
			eq(t, fmtRec(s.GetAsOf(k, 35)), "v30[30,40)")
			eq(t, fmtRec(s.ReadOnly(ReadCommitted).GetAsOf(k, 35)), "v30[30,)")
			eq(t, fmtRec(s.GetAsOf(k, 5)), "<nil>")
			old, _ := s.Delete(k, 25)
			eq(t, fmtRec(old, nil), "v20[20,30)")
			eq(t, fmtRec(s.GetAsOf(k, 27)), "<nil>")
			eq(t, fmtRec(s.GetAsOf(k, 22)), "v20[20,25)")
			s.Delete(k, 50)
			eq(t, fmtRec(s.Get(k)), "<nil>")
			eq(t, fmtRec(s.GetAsOf(k, 45)), "v40[40,50)")
			commit(t, s, 2)
			if f.persistent {
				s.Close()
				s = f.open(t, dir, verOpts)
				eq(t, fmtRec(s.GetAsOf(k, 45)), "v40[40,50)")
				eq(t, fmtRec(s.GetAsOf(k, 12)), "v10[10,20)")
			}
		})
	}
}

func TestVersionedHistoryRetention(t *testing.T) {
	o := VersionedOptions{Name: "ver", HistoryRetentionMs: 100_000, SegmentIntervalMs: 60_000}
	for _, f := range versionedFactories {
		t.Run(f.name, func(t *testing.T) {
			s := f.open(t, t.TempDir(), o)
			defer s.Close()
			k := []byte("k")
			s.Put(k, []byte("a"), 0)
			s.Put(k, []byte("b"), 10)
			commit(t, s, 1)
			s.Put(k, []byte("c"), 500_000)
			r, _ := s.Put(k, []byte("late"), 100)
			eq(t, r, PutNotPut)
			commit(t, s, 2)
			eq(t, fmtRec(s.GetAsOf(k, 5)), "<nil>")
			eq(t, fmtRec(s.Get(k)), "c[500000,)")
			// b [10, 500000) still overlaps the history window: its segment stays.
			eq(t, Segments(s), []int64{500_000 / 60_000, VersionedLatestSegment})
		})
	}
}

func TestVersionedApplyChangelogReplaysVersions(t *testing.T) {
	for _, f := range versionedFactories {
		t.Run(f.name, func(t *testing.T) {
			s := f.open(t, t.TempDir(), verOpts)
			defer s.Close()
			recs := []ChangelogRecord{
				{Key: []byte("k"), Value: []byte("x"), Timestamp: 10},
				{Key: []byte("k"), Value: []byte("y"), Timestamp: 30},
				{Key: []byte("k"), Value: nil, Timestamp: 40},
			}
			if err := s.ApplyChangelog(recs, changelogTP, 3); err != nil {
				t.Fatal(err)
			}
			rc := s.ReadOnly(ReadCommitted)
			eq(t, fmtRec(rc.GetAsOf([]byte("k"), 35)), "y[30,40)")
			eq(t, fmtRec(rc.Get([]byte("k"))), "<nil>")
			eq(t, s.ApproximateNumUncommittedBytes(), 0)
		})
	}
}

// TestVersionedMatchesModel compares GetAsOf with a model that keeps every
// put in a list and answers by scanning it.
func TestVersionedMatchesModel(t *testing.T) {
	for _, f := range versionedFactories {
		t.Run(f.name, func(t *testing.T) {
			rapid.Check(t, func(rt *rapid.T) {
				s := f.open(t, t.TempDir(), verOpts)
				defer s.Close()
				model := map[string]map[int64]*string{}
				keys := rapid.SampledFrom([]string{"a", "ab", "b"})
				tsGen := rapid.Int64Range(0, 50)
				rt.Repeat(map[string]func(*rapid.T){
					"put": func(rt *rapid.T) {
						k, ts := keys.Draw(rt, "k"), tsGen.Draw(rt, "ts")
						var val *string
						var b []byte
						if rapid.IntRange(0, 3).Draw(rt, "del") > 0 {
							v := fmt.Sprint(rapid.IntRange(0, 9).Draw(rt, "v"))
							val, b = &v, []byte(v)
						}
						if _, err := s.Put([]byte(k), b, ts); err != nil {
							rt.Fatal(err)
						}
						if model[k] == nil {
							model[k] = map[int64]*string{}
						}
						model[k][ts] = val
					},
					"commit": func(rt *rapid.T) { commit(t, s, 1) },
					"getAsOf": func(rt *rapid.T) {
						k, asOf := keys.Draw(rt, "k"), tsGen.Draw(rt, "asOf")
						best, bestTs := (*string)(nil), int64(math.MinInt64)
						nextTs := int64(math.MaxInt64)
						for ts, v := range model[k] {
							if ts <= asOf && ts > bestTs {
								best, bestTs = v, ts
							}
						}
						for ts := range model[k] {
							if ts > bestTs && ts < nextTs {
								nextTs = ts
							}
						}
						want := "<nil>"
						if best != nil {
							if nextTs == math.MaxInt64 {
								want = fmt.Sprintf("%s[%d,)", *best, bestTs)
							} else {
								want = fmt.Sprintf("%s[%d,%d)", *best, bestTs, nextTs)
							}
						}
						got := fmtRec(s.GetAsOf([]byte(k), asOf))
						if got != want {
							rt.Fatalf("getAsOf(%s,%d) = %s, want %s", k, asOf, got, want)
						}
					},
				})
			})
		})
	}
}
