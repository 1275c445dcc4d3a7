package integration

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/examples/globaljoin"
	"github.com/stoatflow/stoatflow/internal/testkafka"
)

// globalRecords turns key/value pairs (a nil value is a tombstone) into
// records with timestamps one second apart from ts0, partitioned by key as
// a Java producer partitions them.
func globalRecords(ts0 int64, pairs []tombstoneEvent) []testkafka.Record {
	recs := make([]testkafka.Record, 0, len(pairs))
	for i, p := range pairs {
		r := p.record()
		r.Partition = testkafka.AnyPartition
		r.Timestamp = time.UnixMilli(ts0 + int64(i)*1000)
		recs = append(recs, r)
	}
	return recs
}

// TestStreamGlobalJoinMatchesKafkaStreams: a stream joined with a global
// table, inner and left, on both engines: output per partition, no
// internal topic (a global table has no changelog) and describe().
//
// How the run is deterministic: every record of the global topic and of the
// stream is produced before either engine starts, and both engines restore
// the whole global topic before their stream threads process a record
// (Kafka Streams' start waits for its global thread; StoatFlow's Start
// restores the global stores before it starts the stream threads). So every
// stream record meets the table's final state, on both engines: the
// updated row (a = A2), the tombstoned ones (b, d) and the never-written
// one (zz). The output's key is the stream record's, which lands on the
// partition its input had, so each output partition holds one task's
// records in input order.
func TestStreamGlobalJoinMatchesKafkaStreams(t *testing.T) {
	t.Parallel()
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	global := globalRecords(epochBase, []tombstoneEvent{
		{str("a"), str("A"), 0}, {str("b"), str("B"), 0}, {str("a"), str("A2"), 0}, // an update
		{str("c"), str("C"), 0}, {str("b"), nil, 0}, // a tombstone
		{str("d"), str("D"), 0}, {str("e"), str("E"), 0}, {str("d"), nil, 0},
	})
	table := map[string]string{"a": "A2", "c": "C", "e": "E"}
	stream := []tombstoneEvent{
		{str("k1"), str("v1,a"), 0}, {str("k2"), str("v2,b"), 0}, {str("k3"), str("v3,c"), 0},
		{str("k4"), str("v4,d"), 0}, {str("k5"), str("v5,zz"), 0},
		{str("k6"), str("v6"), 0},                               // no second token: a null selected key
		{str("k7"), nil, 0},                                     // a null value: dropped by both joins
		{str("k8"), str("v8,e"), 0}, {str("k9"), str("v9,"), 0}, // an empty key, not a null one
	}
	// The model: the inner join needs a row; the left join keeps every
	// record with a value (Kafka Streams 4.4 joins a null selected key with
	// null).
	var want []string
	for _, e := range stream {
		if e.value == nil {
			continue
		}
		v := *e.value
		tokens := strings.Split(v, ",")
		row, found := "", false
		if len(tokens) > 1 {
			row, found = table[tokens[1]]
		}
		if found {
			want = append(want, "inner:"+v+"+"+row, "left:"+v+"+"+row)
		} else {
			want = append(want, "left:"+v+"+null")
		}
	}
	out := runDifferential(t, diffCase{
		app: globaljoin.Name, props: filepath.Join(root, "examples", "globaljoin", "streams.properties"),
		input:            global,
		inputs:           map[string][]testkafka.Record{"stream": globalRecords(epochBase+100_000, stream)},
		outputs:          len(want),
		noInternalTopics: true,
	})
	checkValues(t, out, want)
}

// TestGlobalStoreFedByProcessorMatchesKafkaStreams: addGlobalStore with a
// processor that upper-cases values (a tombstone deletes), read by a stream
// processor, on both engines. Deterministic as the join above: the stream
// meets the store's final state.
func TestGlobalStoreFedByProcessorMatchesKafkaStreams(t *testing.T) {
	t.Parallel()
	globalStoreFedByProcessor(t, globaljoin.StoreName)
}

// TestTopologyGlobalStoreMatchesKafkaStreams: the same topology written with
// the Processor API's Topology.addGlobalStore, its nodes named by the
// caller.
func TestTopologyGlobalStoreMatchesKafkaStreams(t *testing.T) {
	t.Parallel()
	globalStoreFedByProcessor(t, globaljoin.PAPIName)
}

func globalStoreFedByProcessor(t *testing.T, app string) {
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	global := globalRecords(epochBase, []tombstoneEvent{
		{str("a"), str("alpha"), 0}, {str("b"), str("beta"), 0}, {str("b"), str("beta2"), 0},
		{str("c"), str("gamma"), 0}, {str("c"), nil, 0},
	})
	stream := globalRecords(epochBase+100_000, []tombstoneEvent{
		{str("k1"), str("a"), 0}, {str("k2"), str("b"), 0}, {str("k3"), str("c"), 0}, {str("k4"), str("d"), 0},
	})
	want := []string{"a=ALPHA", "b=BETA2", "c=null", "d=null"}
	out := runDifferential(t, diffCase{
		app: app, props: filepath.Join(root, "examples", "globaljoin", "streams.properties"),
		input:            global,
		inputs:           map[string][]testkafka.Record{"stream": stream},
		outputs:          len(want),
		noInternalTopics: true,
	})
	checkValues(t, out, want)
}

// checkValues compares the output values, as a multiset, with the model.
func checkValues(t *testing.T, out []testkafka.Record, want []string) {
	t.Helper()
	got := make([]string, 0, len(out))
	for _, r := range out {
		if r.Value == nil {
			got = append(got, "<null>")
			continue
		}
		got = append(got, string(r.Value))
	}
	slices.Sort(got)
	want = slices.Clone(want)
	slices.Sort(want)
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("output values %v, want %v", got, want)
	}
}
