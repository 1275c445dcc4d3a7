package integration

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/examples/processvalues"
	"github.com/stoatflow/stoatflow/internal/testkafka"
)

// TestProcessValuesMatchesKafkaStreams: fixed-key processors, one with a
// store, on both engines. A count after processValues reads its stream
// without a repartition topic (processValues keeps keys); a count after a
// selectKey and a processValues goes through one. Compared: the output per
// partition (as multisets: the two sub-topologies write the same output
// partitions), the tagger's store changelog and both counts', the internal
// topics with their configs, and describe(). All input is on partition 0, so
// each repartition partition has one writer and the counts after it come
// in the one order an engine can give them.
func TestProcessValuesMatchesKafkaStreams(t *testing.T) {
	t.Parallel()
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	values := []string{"ant", "bee", "drop", "cat", "bee", "ant"}
	var recs []testkafka.Record
	kept := 0
	for i := range 60 {
		v := values[i%len(values)]
		if v != "drop" {
			kept++
		}
		recs = append(recs, testkafka.Record{Partition: 0, Key: []byte(fmt.Sprintf("k%d", i%4)), Value: []byte(v),
			Timestamp: time.UnixMilli(epochBase + int64(i)*100)})
	}
	runDifferential(t, diffCase{
		app: processvalues.Name, props: filepath.Join(root, "examples", "processvalues", "streams.properties"),
		input: recs, outputs: 2*kept + len(recs), unordered: true,
		changelogs: map[string]int{
			processvalues.SeenStore + "-changelog":               kept,
			"KSTREAM-AGGREGATE-STATE-STORE-0000000003-changelog": kept,
			"KSTREAM-AGGREGATE-STATE-STORE-0000000010-changelog": len(recs),
		},
	})
}
