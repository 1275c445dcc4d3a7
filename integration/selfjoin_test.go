package integration

import (
	"fmt"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/examples/selfjoin"
	"github.com/stoatflow/stoatflow/internal/testkafka"
)

// TestSelfJoinMatchesKafkaStreams joins a stream with itself under
// topology.optimization=none (two window stores) and all (Kafka Streams'
// single.store.self.join: one store, the join in the merge processor) on
// both engines. The input has out-of-order records, equal timestamps and
// asymmetric windows; each key stays on one partition. Compared each time:
// the output per partition as a multiset (the two tasks' results share
// output partitions in the order they are produced), the kept window
// store's changelog in order, the internal topics with their configs and
// describe().
func TestSelfJoinMatchesKafkaStreams(t *testing.T) {
	t.Parallel()
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	keys := []string{"a", "b", "c"}
	offsets := []int64{0, 3, 1, 8, 8, 14, 2, 20, 12, 30, 25, 26} // seconds, out of order
	var input []testkafka.Record
	for i, sec := range offsets {
		k := i % len(keys)
		input = append(input, testkafka.Record{Partition: int32(k % 2), Key: []byte(keys[k]), Value: []byte(fmt.Sprintf("v%d", i)),
			Timestamp: time.UnixMilli(epochBase + sec*1000)})
	}
	// Every pair of one key within the windows joins once, a record with
	// itself too.
	pairs := 0
	for _, l := range input {
		for _, r := range input {
			d := r.Timestamp.UnixMilli() - l.Timestamp.UnixMilli()
			if string(l.Key) == string(r.Key) && d >= -selfjoin.Windows.BeforeMs && d <= selfjoin.Windows.AfterMs {
				pairs++
			}
		}
	}
	for _, opt := range []string{"none", "all"} {
		t.Run(opt, func(t *testing.T) {
			t.Parallel()
			runDifferential(t, diffCase{
				app: selfjoin.Name, props: filepath.Join(root, "examples", "selfjoin", "streams.properties"),
				input: slices.Clone(input), outputs: pairs, unordered: true,
				changelogs: map[string]int{"self-store-this-join-store-changelog": len(input)},
				set:        map[string]string{"topology.optimization": opt},
			})
		})
	}
}
