package state_test

import (
	"bytes"
	"fmt"
	"sort"
	"testing"

	"pgregory.net/rapid"

	. "github.com/stoatflow/stoatflow/state"
)

// kvModel is the reference: committed and uncommitted maps.
type kvModel struct {
	committed map[string]string
	pending   map[string]*string // nil: tombstone
}

func (m *kvModel) view(iso IsolationLevel) map[string]string {
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

func (m *kvModel) commit() {
	m.committed = m.view(ReadUncommitted)
	m.pending = map[string]*string{}
}

func modelRange(m map[string]string, from, to []byte, reverse bool) []string {
	var keys []string
	for k := range m {
		if from != nil && k < string(from) {
			continue
		}
		if to != nil && k > string(to) {
			continue
		}
		keys = append(keys, k)
	}
	sort.Strings(keys)
	if reverse {
		for i, j := 0, len(keys)-1; i < j; i, j = i+1, j-1 {
			keys[i], keys[j] = keys[j], keys[i]
		}
	}
	out := make([]string, 0, len(keys))
	for _, k := range keys {
		out = append(out, k+"="+m[k])
	}
	return out
}

func TestKeyValueMatchesModel(t *testing.T) {
	for _, f := range kvFactories {
		t.Run(f.name, func(t *testing.T) {
			rapid.Check(t, func(rt *rapid.T) {
				dir := t.TempDir()
				s := f.open(t, dir, nil)
				defer func() { s.Close() }()
				m := &kvModel{committed: map[string]string{}, pending: map[string]*string{}}
				key := rapid.SampledFrom([]string{"", "a", "a\x00", "ab", "b", "ba", "c", "\xff", "\xff\xff"})
				val := rapid.StringMatching(`[a-z]{0,3}`)
				bound := rapid.OneOf(rapid.Just(""), key)
				toBound := func(s string) []byte {
					if s == "" {
						return nil
					}
					return []byte(s)
				}
				offset := int64(0)
				rt.Repeat(map[string]func(*rapid.T){
					"put": func(rt *rapid.T) {
						k, v := key.Draw(rt, "k"), val.Draw(rt, "v")
						put(t, s, k, v)
						m.pending[k] = &v
					},
					"delete": func(rt *rapid.T) {
						k := key.Draw(rt, "k")
						old, err := s.Delete([]byte(k))
						if err != nil {
							rt.Fatal(err)
						}
						want, ok := m.view(ReadUncommitted)[k]
						if ok != (old != nil) || string(old) != want {
							rt.Fatalf("delete %q returned %q, want %q (%v)", k, old, want, ok)
						}
						m.pending[k] = nil
					},
					"deleteRange": func(rt *rapid.T) {
						from, to := key.Draw(rt, "from"), key.Draw(rt, "to")
						if err := s.DeleteRange([]byte(from), []byte(to)); err != nil {
							rt.Fatal(err)
						}
						for k := range m.view(ReadUncommitted) {
							if k >= from && k <= to {
								m.pending[k] = nil
							}
						}
					},
					"commit": func(rt *rapid.T) {
						offset++
						commit(t, s, offset)
						m.commit()
					},
					"rollback": func(rt *rapid.T) {
						s.Rollback()
						m.pending = map[string]*string{}
					},
					"reopen": func(rt *rapid.T) {
						if !f.persistent {
							rt.Skip("in-memory")
						}
						s.Close()
						s = f.open(t, dir, nil)
						m.pending = map[string]*string{}
					},
					"get": func(rt *rapid.T) {
						iso := IsolationLevel(rapid.IntRange(0, 1).Draw(rt, "iso"))
						k := key.Draw(rt, "k")
						got, err := s.ReadOnly(iso).Get([]byte(k))
						if err != nil {
							rt.Fatal(err)
						}
						want, ok := m.view(iso)[k]
						if ok != (got != nil) || !bytes.Equal(got, []byte(want)) {
							rt.Fatalf("%v get %q = %q, want %q (%v)", iso, k, got, want, ok)
						}
					},
					"range": func(rt *rapid.T) {
						iso := IsolationLevel(rapid.IntRange(0, 1).Draw(rt, "iso"))
						from, to := toBound(bound.Draw(rt, "from")), toBound(bound.Draw(rt, "to"))
						reverse := rapid.Bool().Draw(rt, "reverse")
						v := s.ReadOnly(iso)
						var got []string
						if reverse {
							got = drain(t)(v.ReverseRange(from, to))
						} else {
							got = drain(t)(v.Range(from, to))
						}
						want := modelRange(m.view(iso), from, to, reverse)
						if fmt.Sprint(got) != fmt.Sprint(want) {
							rt.Fatalf("%v range(%q,%q,rev=%v) = %v, want %v", iso, from, to, reverse, got, want)
						}
					},
					"uncommittedBytes": func(rt *rapid.T) {
						var want int64
						for k, v := range m.pending {
							want += int64(len(k))
							if v != nil {
								want += int64(len(*v))
							}
						}
						if got := s.ApproximateNumUncommittedBytes(); got != want {
							rt.Fatalf("uncommitted bytes %d, want %d", got, want)
						}
					},
				})
			})
		})
	}
}
