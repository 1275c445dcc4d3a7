package integration

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/examples/optimized"
	"github.com/stoatflow/stoatflow/internal/testkafka"
)

// TestRepartitionOptimizationMatchesKafkaStreams runs Kafka's
// RepartitionOptimizingTest topology under topology.optimization=none
// (four repartition topics) and all (one, with the reduce's and the join's
// filters behind it) on both engines. Compared each time: the counts per
// partition in order, the other four outputs per partition as multisets
// (the unoptimized join reads two repartition topics, whose records meet
// in fetch order), the three aggregation changelogs in order, the internal
// topics with their configs and describe(). The input is on one partition:
// the records of one key then reach its repartition partition in one order
// on both engines (an aggregate is stamped with the latest time it saw).
func TestRepartitionOptimizationMatchesKafkaStreams(t *testing.T) {
	t.Parallel()
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	var input []testkafka.Record
	perKey := map[string]int{}
	for i := range 12 {
		k := []string{"a", "b", "c"}[i%3]
		perKey[k]++
		input = append(input, testkafka.Record{Partition: 0, Key: []byte(k), Value: []byte(fmt.Sprintf("v%d", i)),
			Timestamp: time.UnixMilli(epochBase + int64(i)*100)})
	}
	for _, opt := range []string{"none", "all"} {
		t.Run(opt, func(t *testing.T) {
			t.Parallel()
			out := runDifferential(t, diffCase{
				app: optimized.Name, props: filepath.Join(root, "examples", "optimized", "streams.properties"),
				input: slices.Clone(input), outputs: len(input),
				moreOutputs: map[string]int{
					optimized.ProcessedSuffix: perKey["b"], optimized.AggregateSuffix: len(input),
					optimized.ReduceSuffix: len(input), optimized.JoinedSuffix: perKey["a"] * perKey["a"],
				},
				moreUnordered: true,
				changelogs:    map[string]int{"count-store-changelog": len(input), "aggregate-store-changelog": len(input), "reduce-store-changelog": len(input)},
				set:           map[string]string{"topology.optimization": opt},
			})
			for _, r := range out {
				if k := string(r.Key); k != strings.ToUpper(k) {
					t.Errorf("count for key %q: the map upper-cases every key", k)
				}
			}
		})
	}
}
