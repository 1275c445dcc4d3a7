package integration

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stoatflow/stoatflow/examples/tableops"
	"github.com/stoatflow/stoatflow/internal/testkafka"
)

// TestTableOpsMatchKafkaStreams: a materialized table → materialized filter
// → mapValues with the key → filterNot → toStream over updates, deletes,
// rejected values and deletes of rows the filter never passed, on both
// engines: output per partition, both changelogs, internal topics and
// describe(). The expected counts come from Kafka Streams' rules for old
// values: the filter reads its old value from its own store and forwards
// nothing when neither value passes; the filterNot computes its old value
// through the mapValues from the filter's.
func TestTableOpsMatchKafkaStreams(t *testing.T) {
	t.Parallel()
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	u1, u2, u3, u4, u5 := str("u1"), str("u2"), str("u3"), str("u4"), str("u5")
	events := []tombstoneEvent{
		{u1, str("alice"), 1},
		{u2, str("-hidden"), 2}, // rejected, never passed: nothing downstream
		{u1, str("alicia"), 3},
		{u3, nil, 4},          // a delete of a row never held: nothing downstream
		{u2, str("bob"), 5},   // now passes
		{u2, str("-gone"), 6}, // rejected: the filter deletes the row downstream
		{u2, nil, 7},          // already absent downstream: nothing
		{nil, str("x"), 8},    // null key: dropped
		{u4, str("skip"), 9},  // passes the filter, dropped by filterNot
		{u4, str("keep"), 10}, // filterNot's old value was rejected: an update
		{u4, str("skip"), 11}, // filterNot deletes the row
		{u4, nil, 12},         // the filter deletes; both filterNot values rejected: nothing
		{u1, nil, 13},         // delete through the whole chain
		{u5, str(""), 14},     // an empty value passes and stays a value
		{u5, str("-"), 15},    // rejected: delete
	}
	src, kept := map[string]*string{}, map[string]*string{}
	through := func(k string, v *string) *string {
		if v == nil {
			return nil
		}
		m := k + ":" + strings.ToUpper(*v)
		if strings.HasSuffix(m, "SKIP") {
			return nil
		}
		return &m
	}
	var recs []testkafka.Record
	srcLog, keptLog, outputs, nulls := 0, 0, 0, 0
	var values []string
	for _, e := range events {
		recs = append(recs, e.record())
		if e.key == nil {
			continue
		}
		k := *e.key
		src[k] = e.value
		srcLog++
		var fNew *string
		if e.value != nil && !strings.HasPrefix(*e.value, "-") {
			fNew = e.value
		}
		fOld := kept[k]
		if fNew == nil && fOld == nil {
			continue
		}
		kept[k] = fNew
		keptLog++
		gNew, gOld := through(k, fNew), through(k, fOld)
		if gNew == nil && gOld == nil {
			continue
		}
		outputs++
		if gNew == nil {
			nulls++
		} else {
			values = append(values, fmt.Sprintf("%s=%s", k, *gNew))
		}
	}
	if nulls < 3 || outputs < 8 {
		t.Fatalf("the input must make deletes downstream: %d outputs, %d nulls", outputs, nulls)
	}
	out := runDifferential(t, diffCase{
		app: tableops.Name, props: filepath.Join(root, "examples", "tableops", "streams.properties"),
		input: recs, outputs: outputs,
		changelogs: map[string]int{tableops.SourceStore + "-changelog": srcLog, tableops.KeptStore + "-changelog": keptLog},
	})
	checkTombstones(t, out, nulls, values)
}

// TestWindowedTableFilterMatchKafkaStreams: filters over a tumbling-window
// count and a session count on both engines. The aggregations send their
// old counts to the filters, so a window whose count has not reached two is
// never deleted downstream, and a merged session whose count had passed is
// (a tombstone); a null-key record is dropped.
func TestWindowedTableFilterMatchKafkaStreams(t *testing.T) {
	t.Parallel()
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	a, b := str("a"), str("b")
	x := str("x")
	events := []tombstoneEvent{{a, x, 0}, {a, x, 1}, {b, x, 2}, {a, x, 3}, {a, x, 12}, {a, x, 14}, {a, x, 16},
		{b, x, 30}, {b, x, 31}, {nil, x, 32}, {a, x, 50}}
	// Tumbling windows of ten seconds: an output whenever a count reaches two
	// or more (a count that passed never falls back).
	windows := map[string]int{}
	type session struct{ start, end, n int64 }
	sessions := map[string][]session{}
	outputs, nulls, timedLog, sessionLog := 0, 0, 0, 0
	var values []string
	var recs []testkafka.Record
	for _, e := range events {
		recs = append(recs, e.record())
		if e.key == nil {
			continue
		}
		ts := epochBase + e.sec*1000
		start := ts - ts%10000
		w := fmt.Sprintf("%s@%d", *e.key, start)
		windows[w]++
		timedLog++
		if windows[w] >= 2 {
			outputs++
			values = append(values, fmt.Sprintf("t:%s=%d", w, windows[w]))
		}
		merged := session{ts, ts, 1}
		var keep []session
		for _, s := range sessions[*e.key] {
			if s.end >= ts-5000 && s.start <= ts+5000 {
				merged.start, merged.end, merged.n = min(merged.start, s.start), max(merged.end, s.end), merged.n+s.n
				sessionLog++ // the merged session is removed
				if s.n >= 2 {
					outputs++
					nulls++
				}
			} else {
				keep = append(keep, s)
			}
		}
		sessions[*e.key] = append(keep, merged)
		sessionLog++
		if merged.n >= 2 {
			outputs++
			values = append(values, fmt.Sprintf("s:%s@%d=%d", *e.key, merged.start, merged.n))
		}
	}
	if nulls != 2 || outputs != 12 {
		t.Fatalf("the model expects 12 outputs with 2 tombstones, got %d and %d", outputs, nulls)
	}
	out := runDifferential(t, diffCase{
		app: tableops.WindowedName, props: filepath.Join(root, "examples", "tableops", "streams.properties"),
		input: recs, outputs: outputs,
		changelogs: map[string]int{"KSTREAM-AGGREGATE-STATE-STORE-0000000001-changelog": timedLog,
			"KSTREAM-AGGREGATE-STATE-STORE-0000000006-changelog": sessionLog},
	})
	checkTombstones(t, out, nulls, values)
}
