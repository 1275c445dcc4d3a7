package integration

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/examples/windowstore"
	"github.com/stoatflow/stoatflow/internal/testkafka"
)

// TestPlainWindowStoreMatchesKafkaStreams: a processor keeps a plain window
// store (Stores.windowStoreBuilder, no timestamps) on both engines:
// appends to a window, a deletion ("clear"), a window written again after
// it, records out of order, and one older than the store's retention,
// which the store drops while its changelog keeps the put. Compared: the
// output per partition (as multisets: both tasks write to one output
// partition), the store's changelog per partition in order (each task
// writes its own), the changelog's config, and describe().
func TestPlainWindowStoreMatchesKafkaStreams(t *testing.T) {
	t.Parallel()
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	events := []struct {
		key, value string
		sec        int64
		partition  int32
	}{
		{"a", "1", 0, 0}, {"a", "2", 3, 0}, {"b", "x", 4, 1}, {"a", "3", 12, 0}, {"a", "4", 25, 0},
		{"b", "y", 9, 1}, {"a", "5", 14, 0}, {"a", "clear", 26, 0}, {"a", "6", 27, 0}, {"b", "z", 31, 1},
		{"a", "7", 95, 0}, {"a", "old", 20, 0}, {"a", "8", 96, 0}, {"b", "clear", 33, 1},
	}
	var recs []testkafka.Record
	for _, e := range events {
		recs = append(recs, testkafka.Record{Partition: e.partition, Key: []byte(e.key), Value: []byte(e.value),
			Timestamp: time.UnixMilli(epochBase + e.sec*1000)})
	}
	runDifferential(t, diffCase{
		app: windowstore.Name, props: filepath.Join(root, "examples", "windowstore", "streams.properties"),
		input: recs, outputs: len(recs), unordered: true,
		changelogs: map[string]int{windowstore.Store + "-changelog": len(recs)},
	})
}

// TestPlainWindowStoreCachedMatchesKafkaStreams: the same processor over
// the store with its record cache on (withCachingEnabled), beside a store
// "seen" that retains duplicates and asks for the cache too, which Kafka
// Streams builds without it, on both engines. The input has, per
// partition, several keys: appends, deletions ("clear"), a window put and
// deleted in one record ("undo", of a window the store never had too),
// fetchAll ("all", whose order is by key within each minute-long segment
// of the store), and a put older than the retention, which the cache
// still answers, as it answers the expired windows it holds. Each engine
// commits once, after it has processed everything (commit.interval.ms 20
// s, with the transaction timeout above it, as Kafka Streams requires),
// so each window reaches the changelog once: with its last value, in the
// order of the last puts, with the timestamp of the record that put it.
// "seen" logs every put, two of one timestamp included. Compared as in
// TestPlainWindowStoreMatchesKafkaStreams: output, changelogs, internal
// topics with their configs ("seen"'s delete-only), describe().
func TestPlainWindowStoreCachedMatchesKafkaStreams(t *testing.T) {
	t.Parallel()
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	events := []struct {
		key, value string
		sec        int64
		partition  int32
	}{
		// Partition 0: keys a, aa and c.
		{"a", "1", 0, 0}, {"aa", "x", 2, 0}, {"a", "2", 5, 0}, {"c", "y", 8, 0},
		{"a", "undo", 12, 0}, // a window the store never had: one tombstone
		{"aa", "z", 15, 0}, {"a", "3", 25, 0},
		{"a", "all", 26, 0}, // a@0, a@20, aa@0, aa@10, c@0
		{"c", "clear", 9, 0},
		{"a", "4", 58, 0}, {"aa", "w", 61, 0}, {"a", "5", 72, 0},
		{"aa", "all", 75, 0}, // a@50, then a@70 before aa@60 in the next segment
		{"a", "old", 10, 0},  // older than the retention: read back from the cache
		{"a", "all", 12, 0},  // windows the store has expired, from the cache
		// Partition 1: keys b and bb.
		{"b", "1", 3, 1}, {"bb", "2", 4, 1},
		{"b", "undo", 5, 1}, // a window the store had
		{"b", "3", 6, 1}, {"bb", "clear", 7, 1}, {"bb", "all", 9, 1},
		{"b", "4", 31, 1}, {"bb", "5", 44, 1}, {"b", "all", 45, 1},
		{"b", "clear", 33, 1}, {"b", "6", 35, 1},
		{"b", "7", 35, 1}, // "seen" keeps both puts of one timestamp
		{"bb", "all", 41, 1},
	}
	var recs []testkafka.Record
	written := map[string]bool{} // the windows of "recent" each task writes
	for _, e := range events {
		recs = append(recs, testkafka.Record{Partition: e.partition, Key: []byte(e.key), Value: []byte(e.value),
			Timestamp: time.UnixMilli(epochBase + e.sec*1000)})
		if e.value != "all" {
			written[fmt.Sprintf("%d %s@%d", e.partition, e.key, e.sec/10)] = true
		}
	}
	runDifferential(t, diffCase{
		app: windowstore.CachedName, props: filepath.Join(root, "examples", "windowstore", "streams.properties"),
		input: recs, outputs: len(recs), unordered: true,
		changelogs: map[string]int{windowstore.Store + "-changelog": len(written), windowstore.SeenStore + "-changelog": len(recs)},
		set: map[string]string{"statestore.cache.max.bytes": "10485760", "commit.interval.ms": "20000",
			"producer.transaction.timeout.ms": "60000"},
	})
}
