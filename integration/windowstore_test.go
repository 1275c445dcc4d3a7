package integration

import (
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
