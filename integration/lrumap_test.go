package integration

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/examples/lrumap"
	"github.com/stoatflow/stoatflow/internal/testkafka"
	"github.com/stoatflow/stoatflow/kstreams"
)

// TestLRUMapMatchesKafkaStreams: a processor keeps an LRU map of three
// entries (Stores.keyValueStoreBuilder over Stores.lruMap) on both
// engines, one per task, and runs the same commands on each partition:
// puts that evict the least recently used key, reads that use a key (and
// one that finds none), putIfAbsent of a present and of an absent key,
// deletes (of an absent key too), a null put and a putAll, and scans
// (range, reverse range, prefix, all, reverse all) and counts, which use
// nothing.
// Each key hashes to the partition it is read from, so every output
// partition has one writer. Compared: the output per partition in order
// (each command's result and the store's entries), the store's changelog
// per partition in order (eviction tombstones, logged before the put that
// caused them with its timestamp, included), the changelog's config, and
// describe().
func TestLRUMapMatchesKafkaStreams(t *testing.T) {
	t.Parallel()
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	var recs []testkafka.Record
	changelog := 0
	ts := epochBase
	for p := range int32(2) {
		// Five one-letter keys and one that starts with the first, all of
		// partition p.
		var k []string
		for c := 'a'; len(k) < 5; c++ {
			if kstreams.DefaultPartition([]byte(string(c)), 2) == p {
				k = append(k, string(c))
			}
		}
		prefixed := ""
		for c := 'a'; prefixed == ""; c++ {
			if key := k[0] + string(c); kstreams.DefaultPartition([]byte(key), 2) == p {
				prefixed = key
			}
		}
		// Each step: key, command (nil: a null value) and the changelog
		// records it writes; the comment gives the order of use after it,
		// least recent first.
		for _, s := range []struct {
			key  string
			cmd  any
			logs int
		}{
			{k[0], "v1", 1}, {k[1], "v2", 1}, {k[2], "v3", 1}, // 0 1 2
			{k[0], "get", 0},    // 1 2 0
			{k[3], "v4", 2},     // 2 0 3, 1 evicted
			{k[2], "?x", 0},     // 0 3 2
			{prefixed, "v5", 2}, // 3 2 P, 0 evicted
			{k[3], "del", 1},    // 2 P
			{k[4], "v6", 1},     // 2 P 4
			{k[1], "get", 0},    // absent
			{k[4], nil, 1},      // 2 P
			{k[0], "?y", 1},     // 2 P 0
			{k[0], "prefix", 0}, {k[0], "range:" + k[4], 0}, {k[4], "rrange:" + k[0], 0}, {k[0], "rrange:" + k[4], 0},
			{k[2], "all", 0}, {k[2], "rall", 0}, {k[2], "count", 0},
			{k[1], "v7", 2},      // P 0 1, 2 evicted
			{k[3], "v8", 2},      // 0 1 3, P evicted
			{prefixed, "get", 0}, // absent
			{k[0], "get", 0},     // 1 3 0
			{k[4], "v9", 2},      // 3 0 4, 1 evicted
			{k[1], "del", 1},     // absent, still logged
			// putAll: 0 used, 3 deleted, x added, y added evicting 4; the
			// eviction's tombstone is logged before the four entries.
			{k[2], "+" + k[0] + "=p," + k[3] + ",x=q,y=r", 5}, // 0 x y
			{k[2], "count", 0},
		} {
			var v []byte
			if s.cmd != nil {
				v = []byte(s.cmd.(string))
			}
			recs = append(recs, testkafka.Record{Partition: p, Key: []byte(s.key), Value: v, Timestamp: time.UnixMilli(ts)})
			ts += 1000
			changelog += s.logs
		}
	}
	runDifferential(t, diffCase{
		app: lrumap.Name, props: filepath.Join(root, "examples", "lrumap", "streams.properties"),
		input: recs, outputs: len(recs),
		changelogs: map[string]int{lrumap.Store + "-changelog": changelog},
	})
}
