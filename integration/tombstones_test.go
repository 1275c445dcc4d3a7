package integration

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/examples/tombstones"
	"github.com/stoatflow/stoatflow/internal/testkafka"
)

// tombstoneEvent is one input record; a nil value is a tombstone, a nil key
// a record every engine drops.
type tombstoneEvent struct {
	key   *string
	value *string
	sec   int64
}

func str(s string) *string { return &s }

func (e tombstoneEvent) record() testkafka.Record {
	r := testkafka.Record{Partition: 0, Timestamp: time.UnixMilli(epochBase + e.sec*1000)}
	if e.key != nil {
		r.Key = []byte(*e.key)
	}
	if e.value != nil {
		r.Value = []byte(*e.value)
	}
	return r
}

// checkTombstones fails unless the output holds exactly nulls null values and
// the non-null values want.
func checkTombstones(t *testing.T, out []testkafka.Record, nulls int, want []string) {
	t.Helper()
	var got []string
	n := 0
	for _, r := range out {
		if r.Value == nil {
			n++
			continue
		}
		got = append(got, fmt.Sprintf("%s=%s", r.Key, r.Value))
	}
	if n != nulls {
		t.Errorf("StoatFlow wrote %d null values, want %d: %v", n, nulls, out)
	}
	// Keys spread over two partitions: compare as sets.
	sort.Strings(got)
	want = append([]string(nil), want...)
	sort.Strings(want)
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("StoatFlow's non-null values\n got %v\nwant %v", got, want)
	}
}

// TestSessionCountTombstonesMatchKafkaStreams: the retractions of merged
// sessions pass MapValues, Map and Filter over plain strings as null values,
// on both engines. Input values include nulls (a session count counts them,
// as Kafka Streams does) and an empty value; a null-key record is dropped.
func TestSessionCountTombstonesMatchKafkaStreams(t *testing.T) {
	t.Parallel()
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	a, b, c := str("a"), str("b"), str("c")
	events := []tombstoneEvent{
		{a, str("x"), 0},
		{a, nil, 3}, // merges [0,0]: one retraction, then a count of 2 (filtered)
		{b, str("y"), 1},
		{a, str(""), 20},
		{a, str("z"), 12},
		{a, nil, 16}, // merges [12,12] and [20,20]: two retractions, then 3
		{b, nil, 4},  // merges [1,1]: one retraction, then 2 (filtered)
		{nil, str("q"), 5},
		{c, str("w"), 30},
		{c, str("w"), 30}, // the same session: no retraction, a count of 2 (filtered)
		{c, nil, 33},      // merges [30,30]: one retraction, then 3
	}
	// Kafka's session rule: a record merges the sessions of its key within
	// the inactivity gap; merged sessions other than the new one are removed.
	type session struct{ start, end, n int64 }
	sessions := map[string][]session{}
	outputs, changelog, nulls := 0, 0, 0
	var values []string
	gap := tombstones.InactivityGap.Milliseconds()
	for _, e := range events {
		if e.key == nil {
			continue
		}
		ts := epochBase + e.sec*1000
		merged := session{ts, ts, 1}
		var keep []session
		var found []session
		for _, s := range sessions[*e.key] {
			if s.end >= ts-gap && s.start <= ts+gap {
				found = append(found, s)
				merged.start, merged.end, merged.n = min(merged.start, s.start), max(merged.end, s.end), merged.n+s.n
			} else {
				keep = append(keep, s)
			}
		}
		if merged.start != ts || merged.end != ts {
			outputs, changelog, nulls = outputs+len(found), changelog+len(found), nulls+len(found)
		}
		sessions[*e.key] = append(keep, merged)
		changelog++
		if merged.n != 2 {
			outputs++
			values = append(values, fmt.Sprintf("%s@%d-%d=N=%d", *e.key, merged.start, merged.end, merged.n))
		}
	}
	if nulls == 0 {
		t.Fatal("the input must make retractions")
	}
	var recs []testkafka.Record
	for _, e := range events {
		recs = append(recs, e.record())
	}
	out := runDifferential(t, diffCase{
		app: tombstones.SessionName, props: filepath.Join(root, "examples", "tombstones", "streams.properties"),
		input: recs, outputs: outputs,
		changelogs: map[string]int{"KSTREAM-AGGREGATE-STATE-STORE-0000000001-changelog": changelog},
	})
	checkTombstones(t, out, nulls, values)
}

// TestTableTombstonesMatchKafkaStreams: a table's deletes pass MapValues,
// Filter and Map over plain strings as null values, an empty value stays a
// value, on both engines; the table's changelog holds the same deletes.
func TestTableTombstonesMatchKafkaStreams(t *testing.T) {
	t.Parallel()
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	u1, u2, u3, u4 := str("u1"), str("u2"), str("u3"), str("u4")
	events := []tombstoneEvent{
		{u1, str("alice"), 1},
		{u2, str(""), 2},
		{u1, nil, 3},
		{u3, nil, 4}, // a delete of a key the table never held is forwarded too
		{u2, str("skip"), 5},
		{nil, str("x"), 6},
		{u2, nil, 7},
		{u4, str("bob"), 8},
		{u4, str("Skip"), 9},
		{u4, nil, 10},
	}
	var recs []testkafka.Record
	outputs, changelog, nulls := 0, 0, 0
	var values []string
	for _, e := range events {
		recs = append(recs, e.record())
		if e.key == nil {
			continue
		}
		changelog++
		switch {
		case e.value == nil:
			outputs++
			nulls++
		case strings.ToUpper(*e.value) != "SKIP":
			outputs++
			values = append(values, fmt.Sprintf("%s!=<%s>", *e.key, strings.ToUpper(*e.value)))
		}
	}
	out := runDifferential(t, diffCase{
		app: tombstones.TableName, props: filepath.Join(root, "examples", "tombstones", "streams.properties"),
		input: recs, outputs: outputs,
		changelogs: map[string]int{tombstones.StoreName + "-changelog": changelog},
	})
	checkTombstones(t, out, nulls, values)
}
