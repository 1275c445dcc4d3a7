package state_test

import (
	"fmt"
	"math"
	"sort"
	"testing"

	"pgregory.net/rapid"

	. "github.com/stoatflow/stoatflow/state"
)

// twoLevelModel keeps committed and pending maps keyed by a sortable string.
type twoLevelModel struct {
	committed map[string]string
	pending   map[string]*string
}

func newTwoLevelModel() *twoLevelModel {
	return &twoLevelModel{committed: map[string]string{}, pending: map[string]*string{}}
}

func (m *twoLevelModel) set(k string, v *string) { m.pending[k] = v }

func (m *twoLevelModel) view(iso IsolationLevel) map[string]string {
	out := map[string]string{}
	for k, v := range m.committed {
		out[k] = v
	}
	if iso == ReadUncommitted {
		for k, v := range m.pending {
			if v == nil {
				delete(out, k)
			} else {
				out[k] = *v
			}
		}
	}
	return out
}

func (m *twoLevelModel) commit() {
	m.committed = m.view(ReadUncommitted)
	m.pending = map[string]*string{}
}

func sortedEntries(m map[string]string, keep func(string) bool) []string {
	var out []string
	for k, v := range m {
		if keep(k) {
			out = append(out, k+"="+v)
		}
	}
	sort.Strings(out)
	return out
}

func TestWindowMatchesModel(t *testing.T) {
	o := WindowOptions{Name: "w", RetentionMs: math.MaxInt64 / 4, SegmentIntervalMs: 100}
	for _, f := range windowFactories {
		t.Run(f.name, func(t *testing.T) {
			rapid.Check(t, func(rt *rapid.T) {
				dir := t.TempDir()
				s := f.open(t, dir, o)
				defer func() { s.Close() }()
				m := newTwoLevelModel()
				keys := rapid.SampledFrom([]string{"a", "ab", "b"})
				times := rapid.Int64Range(0, 400)
				mk := func(k string, ws int64) string { return fmt.Sprintf("%s@%03d", k, ws) }
				rt.Repeat(map[string]func(*rapid.T){
					"put": func(rt *rapid.T) {
						k, ws := keys.Draw(rt, "k"), times.Draw(rt, "ws")
						v := fmt.Sprint(rapid.IntRange(0, 9).Draw(rt, "v"))
						wput(t, s, k, ws, v)
						m.set(mk(k, ws), &v)
					},
					"delete": func(rt *rapid.T) {
						k, ws := keys.Draw(rt, "k"), times.Draw(rt, "ws")
						wput(t, s, k, ws, "<nil>")
						m.set(mk(k, ws), nil)
					},
					"commit":   func(rt *rapid.T) { commit(t, s, 1); m.commit() },
					"rollback": func(rt *rapid.T) { s.Rollback(); m.pending = map[string]*string{} },
					"reopen": func(rt *rapid.T) {
						if !f.persistent {
							rt.Skip("in-memory")
						}
						s.Close()
						s = f.open(t, dir, o)
						m.pending = map[string]*string{}
					},
					"fetchRange": func(rt *rapid.T) {
						iso := IsolationLevel(rapid.IntRange(0, 1).Draw(rt, "iso"))
						k := keys.Draw(rt, "k")
						from, to := times.Draw(rt, "from"), times.Draw(rt, "to")
						var got []string
						it, err := s.ReadOnly(iso).FetchRange([]byte(k), from, to, false)
						if err != nil {
							rt.Fatal(err)
						}
						for it.Next() {
							got = append(got, mk(string(it.Key()), it.WindowStart())+"="+string(it.Value()))
						}
						it.Close()
						want := sortedEntries(m.view(iso), func(e string) bool {
							var ws int64
							fmt.Sscanf(e[len(k)+1:], "%d", &ws)
							return e[:len(k)+1] == k+"@" && ws >= from && ws <= to
						})
						if fmt.Sprint(got) != fmt.Sprint(want) {
							rt.Fatalf("%v fetch(%s,%d,%d) = %v, want %v", iso, k, from, to, got, want)
						}
					},
					"fetchAll": func(rt *rapid.T) {
						iso := IsolationLevel(rapid.IntRange(0, 1).Draw(rt, "iso"))
						var got []string
						it, err := s.ReadOnly(iso).FetchAll(0, 1000, false)
						if err != nil {
							rt.Fatal(err)
						}
						for it.Next() {
							got = append(got, mk(string(it.Key()), it.WindowStart())+"="+string(it.Value()))
						}
						it.Close()
						sort.Strings(got)
						want := sortedEntries(m.view(iso), func(string) bool { return true })
						if fmt.Sprint(got) != fmt.Sprint(want) {
							rt.Fatalf("%v fetchAll = %v, want %v", iso, got, want)
						}
					},
				})
			})
		})
	}
}

func TestSessionMatchesModel(t *testing.T) {
	o := SessionOptions{Name: "s", RetentionMs: math.MaxInt64 / 4, SegmentIntervalMs: 100}
	for _, f := range sessionFactories {
		t.Run(f.name, func(t *testing.T) {
			rapid.Check(t, func(rt *rapid.T) {
				dir := t.TempDir()
				s := f.open(t, dir, o)
				defer func() { s.Close() }()
				m := newTwoLevelModel()
				keys := rapid.SampledFrom([]string{"a", "ab", "b"})
				times := rapid.Int64Range(0, 400)
				mk := func(k string, start, end int64) string { return fmt.Sprintf("%s[%03d,%03d]", k, start, end) }
				rt.Repeat(map[string]func(*rapid.T){
					"put": func(rt *rapid.T) {
						k, start := keys.Draw(rt, "k"), times.Draw(rt, "start")
						end := start + rapid.Int64Range(0, 150).Draw(rt, "len")
						v := fmt.Sprint(rapid.IntRange(0, 9).Draw(rt, "v"))
						sput(t, s, k, start, end, v)
						m.set(mk(k, start, end), &v)
					},
					"remove": func(rt *rapid.T) {
						k, start := keys.Draw(rt, "k"), times.Draw(rt, "start")
						end := start + rapid.Int64Range(0, 150).Draw(rt, "len")
						if err := s.Remove([]byte(k), start, end); err != nil {
							rt.Fatal(err)
						}
						m.set(mk(k, start, end), nil)
					},
					"commit":   func(rt *rapid.T) { commit(t, s, 1); m.commit() },
					"rollback": func(rt *rapid.T) { s.Rollback(); m.pending = map[string]*string{} },
					"reopen": func(rt *rapid.T) {
						if !f.persistent {
							rt.Skip("in-memory")
						}
						s.Close()
						s = f.open(t, dir, o)
						m.pending = map[string]*string{}
					},
					"find": func(rt *rapid.T) {
						iso := IsolationLevel(rapid.IntRange(0, 1).Draw(rt, "iso"))
						k := keys.Draw(rt, "k")
						earliestEnd, latestStart := times.Draw(rt, "earliestEnd"), times.Draw(rt, "latestStart")
						var got []string
						it, err := s.ReadOnly(iso).FindSessions([]byte(k), earliestEnd, latestStart, false)
						if err != nil {
							rt.Fatal(err)
						}
						for it.Next() {
							got = append(got, mk(string(it.Key()), it.Start(), it.End())+"="+string(it.Value()))
						}
						it.Close()
						sort.Strings(got)
						want := sortedEntries(m.view(iso), func(e string) bool {
							var start, end int64
							if e[:len(k)+1] != k+"[" {
								return false
							}
							fmt.Sscanf(e[len(k):], "[%d,%d]", &start, &end)
							return end >= earliestEnd && start <= latestStart
						})
						if fmt.Sprint(got) != fmt.Sprint(want) {
							rt.Fatalf("%v find(%s,%d,%d) = %v, want %v", iso, k, earliestEnd, latestStart, got, want)
						}
					},
				})
			})
		})
	}
}
