package integration

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/examples/ttl"
	"github.com/stoatflow/stoatflow/internal/testkafka"
)

// TestTTLMatchesKafkaStreams: a Processor API topology (Topology.addSource,
// addProcessor, addStateStore, addSink) whose punctuators iterate their
// stores and delete what they iterate, on both engines.
//
// Stream time. All input is on partition 0, in phases 40 s apart, each a
// few records within 3 s, on keys no neighbouring phase shares; a phase's
// first record carries stream time past a multiple of the 10 s interval.
// Kafka Streams punctuates after a batch of records, whose size it tunes as
// it runs, so which records a punctuation follows is not fixed; with this
// input every batch boundary gives one output: each punctuation expires
// exactly the keys of the phases before the one being read (their last
// sightings are over 30 s old, and no later record refreshes them), its
// tombstones are stamped with those sightings, and the keys' names sort in
// phase order, so two coalesced punctuations forward what two separate
// ones would. The output is compared in order.
//
// Wall clock. Half of the wall input was last seen ten minutes ago (past
// the one-minute TTL), half is stamped a quarter of an hour ahead; each
// old key expires once, at the first wall-clock punctuation after it
// arrives. Which punctuation that is depends on the clock, so that output
// is compared as a multiset.
//
// Both stores' changelogs hold deletes written by a punctuator, at its
// time, between input records where the batches put them: they are
// compared as multisets of key and value.
func TestTTLMatchesKafkaStreams(t *testing.T) {
	t.Parallel()
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	const phases = 12
	var stream []testkafka.Record
	expired := 0
	for j := range phases {
		ts := epochBase + 1000 + int64(j)*40_000
		put := func(key string, value []byte) {
			stream = append(stream, testkafka.Record{Partition: 0, Key: []byte(fmt.Sprintf("j%02d-%s", j, key)), Value: value,
				Timestamp: time.UnixMilli(ts)})
			ts += 500
		}
		// k0 is seen twice, k1 is deleted by a tombstone, k2 and k3 once.
		put("k0", []byte("a"))
		put("k1", []byte("b"))
		put("k2", []byte("c"))
		put("k0", []byte("d"))
		put("k1", nil)
		put("k3", []byte("e"))
		if j < phases-1 {
			expired += 3 // the last phase is never followed by another
		}
	}
	var wall []testkafka.Record
	ahead := time.Now().Add(15 * time.Minute).UnixMilli()
	for i := range 40 {
		ts := epochBase + int64(i)
		if i%2 == 1 {
			ts = ahead + int64(i)
		}
		wall = append(wall, testkafka.Record{Partition: int32(i % 2), Key: []byte(fmt.Sprintf("w%02d", i)), Value: []byte("x"),
			Timestamp: time.UnixMilli(ts)})
	}
	runDifferential(t, diffCase{
		app: ttl.Name, props: filepath.Join(root, "examples", "ttl", "streams.properties"),
		input: stream, outputs: expired,
		inputs:      map[string][]testkafka.Record{"wall": wall},
		moreOutputs: map[string]int{"-wall": 20}, moreUnordered: true,
		punctuatedChangelogs: map[string]int{
			ttl.StreamStore + "-changelog": len(stream) + expired,
			ttl.WallStore + "-changelog":   len(wall) + 20,
		},
	})
}
