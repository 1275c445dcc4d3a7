package integration

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/stoatflow/stoatflow/examples/routing"
	"github.com/stoatflow/stoatflow/internal/testkafka"
)

// TestRoutingMatchesKafkaStreams: a repartition with a partition count and
// a stream partitioner (multicast to every partition, a dropped record, the
// default partitioner, a computed partition), then a topic-name extractor
// writing two topics, on both engines. Compared: the repartition topic's
// records in order (three partitions: where each record went, written by
// one task), both output topics per partition (as multisets: three tasks
// write each), internal topics with their partition counts, describe().
func TestRoutingMatchesKafkaStreams(t *testing.T) {
	t.Parallel()
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	keys := []string{"a", "bb", "multi-1", "drop-1", "hash-1", "xa", "xbbb", "multi-x", "hash-22", "ccc", "drop-2", "xmulti", "dddd"}
	var events []tombstoneEvent
	for i, k := range keys {
		events = append(events, tombstoneEvent{str(k), str("v" + k), int64(i + 1)})
	}
	events = append(events, tombstoneEvent{nil, str("no key"), 20})
	var recs []testkafka.Record
	plain, xs, spread := 0, 0, 0
	for _, e := range events {
		recs = append(recs, e.record())
		if e.key == nil {
			continue
		}
		copies := 1
		switch k := *e.key; {
		case strings.HasPrefix(k, "multi-"):
			copies = routing.Partitions
		case strings.HasPrefix(k, "drop-"):
			copies = 0
		}
		spread += copies
		if strings.HasPrefix(*e.key, "x") {
			xs += copies
		} else {
			plain += copies
		}
	}
	runDifferential(t, diffCase{
		app: routing.Name, props: filepath.Join(root, "examples", "routing", "streams.properties"),
		input: recs, outputs: plain, moreOutputs: map[string]int{routing.XSuffix: xs}, unordered: true,
		changelogs: map[string]int{routing.Spread + "-repartition": spread},
	})
}
