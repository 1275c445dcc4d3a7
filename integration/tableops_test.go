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
