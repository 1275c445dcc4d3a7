package state_test

import (
	"strings"
	"testing"

	. "github.com/stoatflow/stoatflow/state"
)

func fmtRecs(rs []VersionedRecord, err error) string {
	if err != nil {
		return "err:" + err.Error()
	}
	parts := make([]string, len(rs))
	for i := range rs {
		parts[i] = fmtRec(&rs[i], nil)
	}
	return strings.Join(parts, " ")
}

// Versions is Kafka's MultiVersionedKeyQuery: the versions valid at some
// time of an inclusive range, deletions left out, in either order, as the
// view's isolation level sees them, within the history retention.
func TestVersionedVersionsInATimeRange(t *testing.T) {
	for _, f := range versionedFactories {
		t.Run(f.name, func(t *testing.T) {
			s := f.open(t, t.TempDir(), verOpts)
			defer s.Close()
			k := []byte("k")
			s.Put(k, []byte("v10"), 10)
			s.Put(k, []byte("v30"), 30)
			s.Put(k, []byte("v20"), 20) // out of order
			s.Delete(k, 40)
			s.Put(k, []byte("v50"), 50)
			commit(t, s, 1)
			s.Put(k, []byte("v60"), 60) // uncommitted
			eq(t, fmtRecs(s.Versions(k, 0, 100, true)), "v10[10,20) v20[20,30) v30[30,40) v50[50,60) v60[60,)")
			eq(t, fmtRecs(s.Versions(k, 0, 100, false)), "v60[60,) v50[50,60) v30[30,40) v20[20,30) v10[10,20)")
			// Bounds are inclusive; validTo is exclusive.
			eq(t, fmtRecs(s.Versions(k, 20, 30, true)), "v20[20,30) v30[30,40)")
			eq(t, fmtRecs(s.Versions(k, 19, 19, true)), "v10[10,20)")
			// The tombstone's time answers nothing.
			eq(t, fmtRecs(s.Versions(k, 41, 49, true)), "")
			eq(t, fmtRecs(s.Versions(k, 5, 9, true)), "")
			eq(t, fmtRecs(s.Versions(k, 30, 20, true)), "")
			eq(t, fmtRecs(s.ReadOnly(ReadCommitted).Versions(k, 45, 100, true)), "v50[50,)")
			eq(t, fmtRecs(s.ReadOnly(ReadUncommitted).Versions(k, 45, 100, true)), "v50[50,60) v60[60,)")
			eq(t, fmtRecs(s.Versions([]byte("other"), 0, 100, true)), "")
		})
	}
}

// History older than the retention is not returned; a range wholly older
// than it still finds the latest version, as Kafka's store does.
func TestVersionedVersionsRespectHistoryRetention(t *testing.T) {
	o := VersionedOptions{Name: "ver", HistoryRetentionMs: 100_000, SegmentIntervalMs: 60_000}
	for _, f := range versionedFactories {
		t.Run(f.name, func(t *testing.T) {
			s := f.open(t, t.TempDir(), o)
			defer s.Close()
			k := []byte("k")
			s.Put(k, []byte("a"), 0)
			s.Put(k, []byte("b"), 10)
			s.Put(k, []byte("c"), 300_000)
			s.Put(k, []byte("d"), 350_000)
			commit(t, s, 1)
			// a is past the retention (stream time 350000 - 100000); b was
			// still valid inside it.
			eq(t, fmtRecs(s.Versions(k, 0, 400_000, true)), "b[10,300000) c[300000,350000) d[350000,)")
			eq(t, fmtRecs(s.Versions(k, 0, 260_000, true)), "b[10,300000)")
			eq(t, fmtRecs(s.Versions(k, 0, 20, true)), "")
			eq(t, fmtRecs(s.Versions(k, 0, 100, true)), "")
		})
	}
}
