package integration

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stoatflow/stoatflow/examples/joins"
	"github.com/stoatflow/stoatflow/internal/testkafka"
)

// joinEvent is an input record of a join's side ("input" or a name of
// diffCase.inputs).
type joinEvent struct {
	side string
	tombstoneEvent
}

// processingOrder is the order in which both engines process the sides'
// records, all in partition 0: each side in offset order, and of the heads
// the one with the smallest timestamp first (the events' timestamps are
// distinct).
func processingOrder(events []joinEvent) []joinEvent {
	queues := map[string][]joinEvent{}
	var sides []string
	for _, e := range events {
		if _, ok := queues[e.side]; !ok {
			sides = append(sides, e.side)
		}
		queues[e.side] = append(queues[e.side], e)
	}
	var out []joinEvent
	for {
		best := ""
		for _, s := range sides {
			if q := queues[s]; len(q) > 0 && (best == "" || q[0].sec < queues[best][0].sec) {
				best = s
			}
		}
		if best == "" {
			return out
		}
		out = append(out, queues[best][0])
		queues[best] = queues[best][1:]
	}
}

// joinInputs splits events into the diffCase's input and further inputs.
func joinInputs(events []joinEvent) ([]testkafka.Record, map[string][]testkafka.Record) {
	var input []testkafka.Record
	inputs := map[string][]testkafka.Record{}
	for _, e := range events {
		if e.side == "input" {
			input = append(input, e.record())
		} else {
			inputs[e.side] = append(inputs[e.side], e.record())
		}
	}
	return input, inputs
}

func orNull(s *string) string {
	if s == nil {
		return "null"
	}
	return *s
}

// joinResult is one expected output record: key, value (nil: tombstone)
// and timestamp in seconds from epochBase.
type joinResult struct {
	key   string
	value *string
	sec   int64
}

// checkJoinOutput compares StoatFlow's output, per key in order, with the
// expected results (the differential run has compared it with Kafka
// Streams' record for record).
func checkJoinOutput(t *testing.T, got []testkafka.Record, want []joinResult) {
	t.Helper()
	byKey := func(rs []joinResult) map[string][]string {
		m := map[string][]string{}
		for _, r := range rs {
			m[r.key] = append(m[r.key], fmt.Sprintf("%s@%d", orNull(r.value), epochBase+r.sec*1000))
		}
		return m
	}
	var gotRes []joinResult
	for _, r := range got {
		var v *string
		if r.Value != nil {
			v = str(string(r.Value))
		}
		gotRes = append(gotRes, joinResult{key: string(r.Key), value: v, sec: (r.Timestamp.UnixMilli() - epochBase) / 1000})
	}
	g, w := byKey(gotRes), byKey(want)
	for k, ws := range w {
		if !slices.Equal(g[k], ws) {
			t.Errorf("key %s: output %v, want %v", k, g[k], ws)
		}
	}
	for k := range g {
		if _, ok := w[k]; !ok {
			t.Errorf("key %s: unexpected output %v", k, g[k])
		}
	}
}

// streamTableResults folds a stream-table join's input in processing order
// into what an inner and a left join of it write ("inner:v+row",
// "left:v+"+missing(row)), and counts the table's changelog records. A
// stream record with a null key or value is dropped by both joins.
func streamTableResults(events []joinEvent, missing func(row *string) string) (want []joinResult, changelog int) {
	rows := map[string]*string{}
	for _, e := range processingOrder(events) {
		if e.side == "table" {
			if e.key != nil {
				rows[*e.key] = e.value
				changelog++
			}
			continue
		}
		if e.key == nil || e.value == nil {
			continue
		}
		row := rows[*e.key]
		if row != nil {
			want = append(want, joinResult{*e.key, str("inner:" + *e.value + "+" + *row), e.sec})
		}
		want = append(want, joinResult{*e.key, str("left:" + *e.value + "+" + missing(row)), e.sec})
	}
	return want, changelog
}

// TestStreamTableJoinMatchKafkaStreams: a stream joined with a table, as an
// inner and as a (named) left join, on both engines: table updates,
// deletes, a delete of a row never held, a null-key table record, a null
// stream value (dropped by both joins), a key re-inserted after its delete,
// and a stream record that arrives after a table update with a later
// timestamp (the table is read as it is, not as of the record's time).
// Compared: output per partition, the changelog of the table the joins
// materialized (<table>-STATE-STORE-0000000001), internal topics with their
// configs, and describe().
func TestStreamTableJoinMatchKafkaStreams(t *testing.T) {
	t.Parallel()
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	u1, u2, u3, u4, u5 := str("u1"), str("u2"), str("u3"), str("u4"), str("u5")
	tbl := func(k, v *string, sec int64) joinEvent { return joinEvent{"table", tombstoneEvent{k, v, sec}} }
	st := func(k, v *string, sec int64) joinEvent { return joinEvent{"input", tombstoneEvent{k, v, sec}} }
	events := []joinEvent{
		tbl(u1, str("t1"), 1), tbl(u2, str("t2"), 2), st(u1, str("a"), 3), st(u3, str("b"), 4),
		tbl(u1, str("t1b"), 5), st(u1, str("c"), 6), tbl(u2, nil, 7), st(u2, str("d"), 8),
		st(u2, nil, 9), tbl(u4, nil, 10), tbl(nil, str("x"), 11), tbl(u3, str("t3"), 12), st(u3, str("f"), 13),
		tbl(u3, nil, 14), tbl(u3, str("t3b"), 15), st(u3, str("g"), 16), tbl(u5, str("t5"), 25),
		tbl(u4, str("t4"), 30), st(u5, str(""), 40), st(u4, str("late"), 20),
	}
	want, changelog := streamTableResults(events, orNull)
	input, inputs := joinInputs(events)
	out := runDifferential(t, diffCase{
		app: joins.StreamTableName, props: filepath.Join(root, "examples", "joins", "streams.properties"),
		input: input, inputs: inputs, outputs: len(want),
		changelogs: map[string]int{"{table}-STATE-STORE-0000000001-changelog": changelog},
	})
	checkJoinOutput(t, out, want)
}

// tableJoinModel computes the three joins of the table-table twin as Kafka
// Streams defines them (KTableKTable{Inner,Left,Outer}Join and the join
// merger): an update on one side looks the other up; a result stamped with
// the larger timestamp of the two rows; a deletion joined or forwarded as a
// tombstone; nothing for a deletion of a row neither side holds (left and
// outer joins know the old value, inner joins forward a tombstone for any
// deletion that finds a partner).
type tableJoinModel struct {
	left, right     map[string]*string
	leftTs, rightTs map[string]int64
	out             []joinResult
	inner, outer    int // records written to the inner and outer result stores
}

func (m *tableJoinModel) emit(k string, v *string, sec int64) {
	m.out = append(m.out, joinResult{k, v, sec})
}

func (m *tableJoinModel) apply(e joinEvent) {
	if e.key == nil {
		return // dropped by the table sources
	}
	k, v, sec := *e.key, e.value, e.sec
	cat := func(prefix string, l, r *string) *string { return str(prefix + orNull(l) + "+" + orNull(r)) }
	if e.side == "input" { // the left table
		old := m.left[k]
		r, rts := m.right[k], m.rightTs[k]
		// inner
		if r != nil {
			var nv *string
			if v != nil {
				nv = cat("inner:", v, r)
			}
			m.emit(k, nv, max(sec, rts))
			m.inner++
		}
		// left
		if r != nil || v != nil || old != nil {
			var nv *string
			if v != nil {
				nv = cat("left:", v, r)
			}
			ts := sec
			if r != nil {
				ts = max(sec, rts)
			}
			m.emit(k, nv, ts)
		}
		// outer
		if r != nil || v != nil || old != nil {
			var nv *string
			if r != nil || v != nil {
				nv = cat("outer:", v, r)
			}
			ts := sec
			if r != nil {
				ts = max(sec, rts)
			}
			m.emit(k, nv, ts)
			m.outer++
		}
		m.left[k], m.leftTs[k] = v, sec
		return
	}
	old := m.right[k]
	l, lts := m.left[k], m.leftTs[k]
	if l != nil {
		var nv *string
		if v != nil {
			nv = cat("inner:", l, v)
		}
		m.emit(k, nv, max(sec, lts))
		m.inner++
		m.emit(k, cat("left:", l, v), max(sec, lts))
	}
	if l != nil || v != nil || old != nil {
		var nv *string
		if l != nil || v != nil {
			nv = cat("outer:", l, v)
		}
		ts := sec
		if l != nil {
			ts = max(sec, lts)
		}
		m.emit(k, nv, ts)
		m.outer++
	}
	m.right[k], m.rightTs[k] = v, sec
}

// TestTableTableJoinMatchKafkaStreams: two tables joined as inner (with a
// named result store), left and outer (named, with a generated result
// store) joins on both engines: inserts and updates on both sides,
// deletions of joined rows, deletions of rows never held, a null key, and a
// late update whose partner's row is newer (the result takes the larger
// timestamp). Compared: output per partition, the changelogs of the left
// table the joins materialized, of the right table and of both result
// stores, internal topics with their configs, and describe().
func TestTableTableJoinMatchKafkaStreams(t *testing.T) {
	t.Parallel()
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	k1, k2, k3, k4, k5 := str("k1"), str("k2"), str("k3"), str("k4"), str("k5")
	l := func(k, v *string, sec int64) joinEvent { return joinEvent{"input", tombstoneEvent{k, v, sec}} }
	r := func(k, v *string, sec int64) joinEvent { return joinEvent{"right", tombstoneEvent{k, v, sec}} }
	events := []joinEvent{
		l(k1, str("a1"), 1), r(k1, str("b1"), 2), r(k2, str("b2"), 3), l(k2, str("a2"), 4),
		l(k1, str("a1x"), 5), r(k1, nil, 6), l(k3, nil, 7), r(k3, nil, 8), l(nil, str("n"), 9),
		l(k2, nil, 10), r(k2, nil, 11), r(k4, str("b4"), 12), l(k4, str("a4"), 13), l(k4, str(""), 14),
		r(k5, str("b5"), 20), l(k1, str("a1y"), 21), l(k5, str("a5"), 15), r(k4, nil, 22), l(k4, nil, 23),
	}
	m := &tableJoinModel{left: map[string]*string{}, right: map[string]*string{}, leftTs: map[string]int64{}, rightTs: map[string]int64{}}
	leftLog, rightLog := 0, 0
	for _, e := range processingOrder(events) {
		if e.key != nil {
			if e.side == "input" {
				leftLog++
			} else {
				rightLog++
			}
		}
		m.apply(e)
	}
	input, inputs := joinInputs(events)
	out := runDifferential(t, diffCase{
		app: joins.TableTableName, props: filepath.Join(root, "examples", "joins", "streams.properties"),
		input: input, inputs: inputs, outputs: len(m.out),
		changelogs: map[string]int{
			"{input}-STATE-STORE-0000000000-changelog":      leftLog,
			joins.RightStore + "-changelog":                 rightLog,
			joins.InnerStore + "-changelog":                 m.inner,
			"KTABLE-MERGE-STATE-STORE-0000000015-changelog": m.outer,
		},
	})
	checkJoinOutput(t, out, m.out)
}

// TestDerivedTableJoinMatchKafkaStreams: a stream joined with tables that
// have no store of their own, on both engines: a filter and mapValues of a
// table (their rows computed from the source table's store, which the join
// materializes) and the stream's own count (its rows in the count's store,
// updated before the left join reads it). Compared: output per partition,
// the changelogs of the materialized source and of the count, internal
// topics with their configs, and describe().
func TestDerivedTableJoinMatchKafkaStreams(t *testing.T) {
	t.Parallel()
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	u1, u2, u3 := str("u1"), str("u2"), str("u3")
	tbl := func(k, v *string, sec int64) joinEvent { return joinEvent{"table", tombstoneEvent{k, v, sec}} }
	st := func(k, v *string, sec int64) joinEvent { return joinEvent{"input", tombstoneEvent{k, v, sec}} }
	events := []joinEvent{
		tbl(u1, str("one"), 1), st(u1, str("a"), 2), tbl(u2, str("-hidden"), 3), st(u2, str("b"), 4),
		tbl(u2, str("two"), 5), st(u2, str("c"), 6), tbl(u1, str("-gone"), 7), st(u1, str("d"), 8),
		st(u3, str("e"), 9), st(u3, nil, 10), tbl(u3, str("three"), 11), st(u3, str("f"), 12),
		tbl(u3, nil, 13), st(u3, str("g"), 14), tbl(nil, str("x"), 15), st(u2, str(""), 16),
	}
	rows := map[string]*string{}
	counts := map[string]int{}
	var want []joinResult
	source, counted := 0, 0
	for _, e := range processingOrder(events) {
		if e.side == "table" {
			if e.key != nil {
				rows[*e.key] = e.value
				source++
			}
			continue
		}
		if e.key == nil || e.value == nil {
			continue // dropped by the joins and by the count
		}
		k, v := *e.key, *e.value
		if r := rows[k]; r != nil && !strings.HasPrefix(*r, "-") {
			want = append(want, joinResult{k, str("derived:" + v + "+" + strings.ToUpper(*r)), e.sec})
		}
		counts[k]++
		counted++
		want = append(want, joinResult{k, str(fmt.Sprintf("count:%s+%d", v, counts[k])), e.sec})
	}
	input, inputs := joinInputs(events)
	out := runDifferential(t, diffCase{
		app: joins.DerivedName, props: filepath.Join(root, "examples", "joins", "streams.properties"),
		input: input, inputs: inputs, outputs: len(want),
		changelogs: map[string]int{
			"{table}-STATE-STORE-0000000001-changelog":           source,
			"KSTREAM-AGGREGATE-STATE-STORE-0000000008-changelog": counted,
		},
	})
	checkJoinOutput(t, out, want)
}

// TestRekeyedTableJoinMatchKafkaStreams: a stream re-keyed by its value
// joined with a table, first through a named join (its repartition topic
// by-user-repartition), then through an unnamed left join that reuses that
// repartition, on both engines. The table's rows, keyed, sit in the
// partitions their keys hash to, as the repartitioned stream's do; they all
// come before the stream's records. Compared: output per partition, the
// changelog of the table the joins materialized, internal topics (the
// repartition topic with its configs) and describe().
func TestRekeyedTableJoinMatchKafkaStreams(t *testing.T) {
	t.Parallel()
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	u1, u2, u3, u4 := str("u1"), str("u2"), str("u3"), str("u4")
	tableRows := []tombstoneEvent{{u1, str("t1"), 1}, {u2, str("t2"), 2}, {u3, str("t3"), 3}, {u2, nil, 4},
		{u1, str("t1b"), 5}, {nil, str("x"), 6}, {u4, str("t4"), 7}, {u4, nil, 8}}
	events := []tombstoneEvent{{str("k1"), str("u1:a"), 10}, {str("k2"), str("u2:b"), 11}, {str("k3"), str("u3:c"), 12},
		{str("k4"), str("u4:d"), 13}, {str("k5"), str("u5:e"), 14}, {str("k6"), str("u1:f"), 15}, {nil, str("u3:"), 16},
		{str("k8"), str("u2:g"), 17}}
	rows := map[string]*string{}
	var table []testkafka.Record
	changelog := 0
	for _, e := range tableRows {
		r := e.record()
		r.Partition = testkafka.AnyPartition // where the key hashes, as the repartitioned stream's records
		table = append(table, r)
		if e.key != nil {
			rows[*e.key] = e.value
			changelog++
		}
	}
	var input []testkafka.Record
	var want []joinResult
	for _, e := range events {
		input = append(input, e.record())
		user, _, _ := strings.Cut(*e.value, ":")
		if row := rows[user]; row != nil {
			want = append(want, joinResult{user, str("inner:" + *e.value + "+" + *row), e.sec})
		}
		want = append(want, joinResult{user, str("left:" + *e.value + "+" + orNull(rows[user])), e.sec})
	}
	out := runDifferential(t, diffCase{
		app: joins.RekeyedName, props: filepath.Join(root, "examples", "joins", "streams.properties"),
		input: input, inputs: map[string][]testkafka.Record{"table": table}, outputs: len(want),
		changelogs: map[string]int{"{table}-STATE-STORE-0000000001-changelog": changelog},
	})
	checkJoinOutput(t, out, want)
}

// windowedJoinModel is the windowedtablejoin twin as Kafka Streams computes
// it (timestamps in epoch milliseconds), for records in timestamp order
// that are never late: per side, counts
// per ten-second window (the window's timestamp that of its latest record)
// and per session (merged within five seconds, each replaced session
// retracted); the windows inner-joined, the sessions left-joined (a session
// of a without its exact twin in b has "b=null"; a retracted session of a
// deletes its result).
type windowedJoinModel struct {
	windows  map[string]map[string]map[int64][2]int64 // side → key → start → (count, ts)
	sessions map[string]map[string][]session3         // side → key → sessions
	out      []joinResult
	msOut    []int64 // the results' timestamps in milliseconds from epochBase
}

type session3 struct{ start, end, n int64 }

func (m *windowedJoinModel) emit(k string, v *string, ms int64) {
	m.out = append(m.out, joinResult{key: k, value: v})
	m.msOut = append(m.msOut, ms)
}

func (m *windowedJoinModel) apply(side, key string, ms int64) {
	other := "right"
	if side == "right" {
		other = "input"
	}
	counts := func(a, b string) *string { return str("a=" + a + ",b=" + b) }
	// tumbling windows, inner join
	start := ms - ms%10_000
	w := m.windows[side][key]
	if w == nil {
		w = map[int64][2]int64{}
		m.windows[side][key] = w
	}
	c := w[start]
	c = [2]int64{c[0] + 1, max(c[1], ms)}
	w[start] = c
	if o, ok := m.windows[other][key][start]; ok {
		a, b := c, o
		if side == "right" {
			a, b = o, c
		}
		m.emit(fmt.Sprintf("t:%s@%d", key, start), counts(fmt.Sprint(a[0]), fmt.Sprint(b[0])), max(ms, o[1]))
	}
	// sessions, left join
	sk := func(s session3) string { return fmt.Sprintf("s:%s@%d-%d", key, s.start, s.end) }
	find := func(side string, s session3) *session3 {
		for _, x := range m.sessions[side][key] {
			if x.start == s.start && x.end == s.end {
				return &x
			}
		}
		return nil
	}
	merged := session3{ms, ms, 1}
	var kept, gone []session3
	for _, s := range m.sessions[side][key] {
		if s.end >= ms-5000 && s.start <= ms+5000 {
			gone = append(gone, s)
			merged = session3{min(merged.start, s.start), max(merged.end, s.end), merged.n + s.n}
		} else {
			kept = append(kept, s)
		}
	}
	m.sessions[side][key] = append(kept, merged)
	for _, s := range gone {
		if side == "input" {
			m.emit(sk(s), nil, s.end)
		} else if l := find("input", s); l != nil {
			m.emit(sk(s), counts(fmt.Sprint(l.n), "null"), s.end)
		}
	}
	if side == "input" {
		b := "null"
		if r := find("right", merged); r != nil {
			b = fmt.Sprint(r.n)
		}
		m.emit(sk(merged), counts(fmt.Sprint(merged.n), b), merged.end)
	} else if l := find("input", merged); l != nil {
		m.emit(sk(merged), counts(fmt.Sprint(l.n), fmt.Sprint(merged.n)), merged.end)
	}
}

// TestWindowedTableJoinMatchKafkaStreams: windowed tables joined on their
// windowed keys on both engines: tumbling-window counts of two streams
// inner-joined, session counts left-joined, with sessions merging (and
// their replaced sessions retracted through the join). Compared: output
// per partition, the four aggregation changelogs, internal topics and
// describe().
func TestWindowedTableJoinMatchKafkaStreams(t *testing.T) {
	t.Parallel()
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	type ev struct {
		side, key string
		sec       int64
	}
	evs := []ev{{"input", "k", 1}, {"right", "k", 2}, {"input", "k", 3}, {"right", "k", 12}, {"input", "k", 14},
		{"input", "j", 15}, {"right", "j", 16}, {"right", "k", 17}, {"input", "k", 30}, {"right", "k", 31},
		{"right", "k", 33}, {"input", "k", 40}, {"input", "j", 41}}
	m := &windowedJoinModel{
		windows:  map[string]map[string]map[int64][2]int64{"input": {}, "right": {}},
		sessions: map[string]map[string][]session3{"input": {}, "right": {}},
	}
	var events []joinEvent
	logs := map[string]int{}
	for _, e := range evs {
		events = append(events, joinEvent{e.side, tombstoneEvent{str(e.key), str("x"), e.sec}})
	}
	for _, e := range processingOrder(events) {
		m.apply(e.side, *e.key, epochBase+e.sec*1000)
		logs[e.side]++
	}
	for i := range m.out {
		m.out[i].sec = (m.msOut[i] - epochBase) / 1000
	}
	input, inputs := joinInputs(events)
	// Every record updates one window and one session of its side; a
	// session merge also removes the replaced sessions (a tombstone each).
	sessionLog := func(side string) int {
		n := 0
		for _, ss := range m.sessions[side] {
			n += len(ss)
		}
		return logs[side] + (logs[side] - n) // puts, and one removal per merge
	}
	out := runDifferential(t, diffCase{
		app: joins.WindowedName, props: filepath.Join(root, "examples", "joins", "streams.properties"),
		input: input, inputs: inputs, outputs: len(m.out),
		changelogs: map[string]int{
			"KSTREAM-AGGREGATE-STATE-STORE-0000000002-changelog": logs["input"],
			"KSTREAM-AGGREGATE-STATE-STORE-0000000004-changelog": logs["right"],
			"KSTREAM-AGGREGATE-STATE-STORE-0000000012-changelog": sessionLog("input"),
			"KSTREAM-AGGREGATE-STATE-STORE-0000000014-changelog": sessionLog("right"),
		},
	})
	checkJoinOutput(t, out, m.out)
}
