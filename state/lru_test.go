package state_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"

	. "github.com/stoatflow/stoatflow/state"
)

func newLRU(t testing.TB, max int) LRUKeyValueStore {
	t.Helper()
	s, err := NewInMemoryLRUKeyValue(LRUOptions{Name: "lru", MaxEntries: max})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func putEvicting(t testing.TB, s LRUKeyValueStore, k, v string) string {
	t.Helper()
	ev, err := s.PutEvicting([]byte(k), []byte(v))
	if err != nil {
		t.Fatal(err)
	}
	if ev == nil {
		return "<none>"
	}
	return string(ev)
}

func liveOrder(s LRUKeyValueStore) string {
	live, _ := LRURecency(s)
	return strings.Join(live, ",")
}

// TestLRUEvictsTheLeastRecentlyUsed: a Get that finds its key, a put and a
// PutIfAbsent of a present key use the key; a Get of an absent key, scans,
// ReadOnly views and ApproximateNumEntries do not; Delete frees a place.
func TestLRUEvictsTheLeastRecentlyUsed(t *testing.T) {
	s := newLRU(t, 3)
	for _, k := range []string{"a", "b", "c"} {
		eq(t, putEvicting(t, s, k, k+"1"), "<none>")
	}
	eq(t, mustGet(t, s, "a"), "a1")
	eq(t, mustGet(t, s, "x"), "<nil>")
	eq(t, liveOrder(s), "b,c,a")
	eq(t, putEvicting(t, s, "d", "d1"), "b")
	old, err := s.PutIfAbsent([]byte("c"), []byte("c2"))
	if err != nil {
		t.Fatal(err)
	}
	eq(t, string(old), "c1")
	eq(t, liveOrder(s), "a,d,c")
	eq(t, drain(t)(s.All()), []string{"a=a1", "c=c1", "d=d1"})
	eq(t, drain(t)(s.ReverseRange([]byte("a"), []byte("c"))), []string{"c=c1", "a=a1"})
	eq(t, drain(t)(s.PrefixScan([]byte("d"))), []string{"d=d1"})
	eq(t, mustGet(t, s.ReadOnly(ReadUncommitted), "a"), "a1")
	if n, err := s.ApproximateNumEntries(); err != nil || n != 3 {
		t.Fatalf("ApproximateNumEntries = %d, %v; want 3", n, err)
	}
	eq(t, liveOrder(s), "a,d,c")
	eq(t, putEvicting(t, s, "c", "c3"), "<none>") // an update evicts nothing
	eq(t, putEvicting(t, s, "e", "e1"), "a")
	if old, err := s.Delete([]byte("d")); err != nil || string(old) != "d1" {
		t.Fatalf("Delete(d) = %q, %v", old, err)
	}
	eq(t, putEvicting(t, s, "f", "f1"), "<none>")
	eq(t, liveOrder(s), "c,e,f")
	if err := s.Put([]byte("c"), nil); err != nil { // a nil put deletes
		t.Fatal(err)
	}
	eq(t, drain(t)(s.All()), []string{"e=e1", "f=f1"})
}

// TestLRUOfZeroEntriesEvictsEveryPut: Kafka's map evicts the entry a put
// just added when the store may hold none.
func TestLRUOfZeroEntriesEvictsEveryPut(t *testing.T) {
	s := newLRU(t, 0)
	eq(t, putEvicting(t, s, "a", "1"), "a")
	eq(t, mustGet(t, s, "a"), "<nil>")
	commit(t, s, 1)
	eq(t, drain(t)(s.ReadOnly(ReadCommitted).All()), []string{})
}

func TestLRURejectsANegativeSize(t *testing.T) {
	_, err := NewInMemoryLRUKeyValue(LRUOptions{Name: "lru", MaxEntries: -1})
	if !errors.Is(err, ErrInvalidArgument) || !strings.Contains(err.Error(), "maxCacheSize cannot be negative") {
		t.Fatalf("err = %v, want ErrInvalidArgument with Kafka's message", err)
	}
}

// TestLRURollbackOrdersByLastCommittedWrite: a commit keeps the live order
// (uses included); a rollback drops the epoch's writes and uses and orders
// the entries by their last committed write, as Kafka Streams' store is
// after a restore from the changelog.
func TestLRURollbackOrdersByLastCommittedWrite(t *testing.T) {
	s := newLRU(t, 3)
	for _, k := range []string{"a", "b", "c"} {
		putEvicting(t, s, k, "1")
	}
	mustGet(t, s, "a")
	commit(t, s, 3)
	eq(t, liveOrder(s), "b,c,a")
	_, committed := LRURecency(s)
	eq(t, committed, []string{"a", "b", "c"})

	mustGet(t, s, "b")
	eq(t, putEvicting(t, s, "d", "1"), "c") // live: c, a, b
	s.Rollback()
	eq(t, liveOrder(s), "a,b,c")
	eq(t, drain(t)(s.All()), []string{"a=1", "b=1", "c=1"})
	eq(t, putEvicting(t, s, "d", "2"), "a")
}

// TestLRUApplyChangelogEvictsWithoutLogging ports Kafka's
// InMemoryLRUCacheStoreTest.testRestoreEvict: eleven records restored into
// a store of ten keep the last ten, ordered as written.
func TestLRUApplyChangelogEvictsWithoutLogging(t *testing.T) {
	s := newLRU(t, 10)
	var recs []ChangelogRecord
	for i := range 11 {
		recs = append(recs, ChangelogRecord{Key: []byte(fmt.Sprint(i)), Value: []byte(fmt.Sprint("v", i))})
	}
	if err := s.ApplyChangelog(recs[:5], changelogTP, 4); err != nil {
		t.Fatal(err)
	}
	if err := s.ApplyChangelog(recs[5:], changelogTP, 10); err != nil {
		t.Fatal(err)
	}
	if n, _ := s.ApproximateNumEntries(); n != 10 {
		t.Fatalf("%d entries after the restore, want 10", n)
	}
	eq(t, mustGet(t, s.ReadOnly(ReadCommitted), "0"), "<nil>")
	eq(t, liveOrder(s), "1,2,3,4,5,6,7,8,9,10")
}

// kafkaLRU is the model: Kafka Streams' MemoryLRUCache under its
// changelogging store, a LinkedHashMap in access order whose evictions are
// logged as tombstones before the put that caused them, unless restoring.
type kafkaLRU struct {
	max    int
	order  []string // least recently used first
	values map[string]string
}

func newKafkaLRU(max int) *kafkaLRU { return &kafkaLRU{max: max, values: map[string]string{}} }

func (m *kafkaLRU) use(k string) {
	if i := slices.Index(m.order, k); i >= 0 {
		m.order = slices.Delete(m.order, i, i+1)
	}
	m.order = append(m.order, k)
}

func (m *kafkaLRU) get(k string) (string, bool) {
	v, ok := m.values[k]
	if ok {
		m.use(k)
	}
	return v, ok
}

// put returns the evicted key, "" when none.
func (m *kafkaLRU) put(k, v string) string {
	m.values[k] = v
	m.use(k)
	if len(m.order) <= m.max {
		return ""
	}
	eldest := m.order[0]
	m.order = m.order[1:]
	delete(m.values, eldest)
	return eldest
}

func (m *kafkaLRU) delete(k string) {
	if i := slices.Index(m.order, k); i >= 0 {
		m.order = slices.Delete(m.order, i, i+1)
	}
	delete(m.values, k)
}

// restore is Kafka's restore of a fresh store: every record put in order,
// evictions unlogged.
func restoreKafkaLRU(max int, log []ChangelogRecord) *kafkaLRU {
	m := newKafkaLRU(max)
	for _, r := range log {
		if r.Value == nil {
			m.delete(string(r.Key))
		} else {
			m.put(string(r.Key), string(r.Value))
		}
	}
	return m
}

func (m *kafkaLRU) entries() []string {
	keys := slices.Sorted(func(yield func(string) bool) {
		for k := range m.values {
			if !yield(k) {
				return
			}
		}
	})
	out := make([]string, 0, len(keys))
	for _, k := range keys {
		out = append(out, k+"="+m.values[k])
	}
	return out
}

// TestLRUMatchesKafkaAcrossAbortsAndRestores runs random gets, puts,
// putIfAbsents, deletes and scans, commits, aborts and restores against the
// model of Kafka Streams' store. The test writes the changelog as the
// kstreams store view does. After an abort the model is what Kafka Streams
// has after wiping the store and restoring it from the committed
// changelog; after a restart both restore the committed changelog into a
// new store. After every step the store must hold what the model holds,
// with the same recency order, evict the key the model evicts, and its
// committed data and order must be the replay of the committed changelog.
func TestLRUMatchesKafkaAcrossAbortsAndRestores(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		max := rapid.IntRange(0, 4).Draw(rt, "max")
		open := func() LRUKeyValueStore {
			s, err := NewInMemoryLRUKeyValue(LRUOptions{Name: "lru", MaxEntries: max})
			if err != nil {
				rt.Fatal(err)
			}
			return s
		}
		s := open()
		defer func() { s.Close() }()
		model := newKafkaLRU(max)
		var log, pending []ChangelogRecord
		key := rapid.SampledFrom([]string{"a", "b", "c", "d", "e", "f"})
		val := rapid.StringMatching(`[0-9]{1,2}`)
		offset := int64(-1)
		put := func(rt *rapid.T, k, v string) {
			ev, err := s.PutEvicting([]byte(k), []byte(v))
			if err != nil {
				rt.Fatal(err)
			}
			want := model.put(k, v)
			if string(ev) != want {
				rt.Fatalf("put %s evicted %q, want %q", k, ev, want)
			}
			if ev != nil {
				pending = append(pending, ChangelogRecord{Key: ev})
			}
			pending = append(pending, ChangelogRecord{Key: []byte(k), Value: []byte(v)})
		}
		rt.Repeat(map[string]func(*rapid.T){
			"put": func(rt *rapid.T) { put(rt, key.Draw(rt, "k"), val.Draw(rt, "v")) },
			"get": func(rt *rapid.T) {
				k := key.Draw(rt, "k")
				got, err := s.Get([]byte(k))
				if err != nil {
					rt.Fatal(err)
				}
				want, ok := model.get(k)
				if ok != (got != nil) || string(got) != want {
					rt.Fatalf("get %s = %q, want %q (%v)", k, got, want, ok)
				}
			},
			"putIfAbsent": func(rt *rapid.T) { // as the store view does it
				k, v := key.Draw(rt, "k"), val.Draw(rt, "v")
				got, err := s.Get([]byte(k))
				if err != nil {
					rt.Fatal(err)
				}
				if _, ok := model.get(k); !ok {
					if got != nil {
						rt.Fatalf("get %s = %q, want none", k, got)
					}
					put(rt, k, v)
				}
			},
			"delete": func(rt *rapid.T) {
				k := key.Draw(rt, "k")
				if _, err := s.Delete([]byte(k)); err != nil {
					rt.Fatal(err)
				}
				model.delete(k)
				pending = append(pending, ChangelogRecord{Key: []byte(k)})
			},
			"scan": func(rt *rapid.T) {
				from, to := key.Draw(rt, "from"), key.Draw(rt, "to")
				got := scanAll(rt)(s.Range([]byte(from), []byte(to)))
				var want []string
				for _, e := range model.entries() {
					if k, _, _ := strings.Cut(e, "="); k >= from && k <= to {
						want = append(want, e)
					}
				}
				if fmt.Sprint(got) != fmt.Sprint(want) {
					rt.Fatalf("range(%s,%s) = %v, want %v", from, to, got, want)
				}
			},
			"commit": func(rt *rapid.T) {
				log = append(log, pending...)
				offset += int64(len(pending))
				pending = nil
				if err := s.Commit(map[TopicPartition]*int64{changelogTP: Offset(offset)}); err != nil {
					rt.Fatal(err)
				}
			},
			"abort": func(rt *rapid.T) {
				s.Rollback()
				pending = nil
				model = restoreKafkaLRU(max, log)
			},
			"restart": func(rt *rapid.T) {
				s.Close()
				s = open()
				pending = nil
				rest, off := log, int64(0)
				for len(rest) > 0 {
					n := rapid.IntRange(1, len(rest)).Draw(rt, "batch")
					off += int64(n)
					if err := s.ApplyChangelog(rest[:n], changelogTP, off-1); err != nil {
						rt.Fatal(err)
					}
					rest = rest[n:]
				}
				model = restoreKafkaLRU(max, log)
			},
			"": func(rt *rapid.T) { checkLRUAgainstKafka(rt, s, model, log) },
		})
	})
}

// checkLRUAgainstKafka compares the store with the model of Kafka's running
// store, and its committed data with a restore of the committed changelog.
func checkLRUAgainstKafka(rt *rapid.T, s LRUKeyValueStore, model *kafkaLRU, log []ChangelogRecord) {
	live, committed := LRURecency(s)
	if fmt.Sprint(live) != fmt.Sprint(model.order) {
		rt.Fatalf("recency %v, Kafka's %v", live, model.order)
	}
	if got, want := scanAll(rt)(s.All()), model.entries(); fmt.Sprint(got) != fmt.Sprint(want) {
		rt.Fatalf("entries %v, Kafka's %v", got, want)
	}
	replay := restoreKafkaLRU(s.MaxEntries(), log)
	if fmt.Sprint(committed) != fmt.Sprint(replay.order) {
		rt.Fatalf("committed recency %v, the committed changelog's %v", committed, replay.order)
	}
	if got, want := scanAll(rt)(s.ReadOnly(ReadCommitted).All()), replay.entries(); fmt.Sprint(got) != fmt.Sprint(want) {
		rt.Fatalf("committed entries %v, the committed changelog's %v", got, want)
	}
}

// scanAll is drain for a rapid.T.
func scanAll(rt *rapid.T) func(Iterator, error) []string {
	return func(it Iterator, err error) []string {
		rt.Helper()
		if err != nil {
			rt.Fatal(err)
		}
		defer it.Close()
		out := []string{}
		for it.Next() {
			out = append(out, string(it.Key())+"="+string(it.Value()))
		}
		if err := it.Err(); err != nil {
			rt.Fatal(err)
		}
		return out
	}
}
