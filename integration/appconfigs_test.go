package integration

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/examples/appconfigs"
	"github.com/stoatflow/stoatflow/internal/testkafka"
)

// TestAppConfigsMatchKafkaStreams: a processor writes what it reads of
// the application's configuration (ProcessorContext.appConfigs() and
// appConfigsWithPrefix(), each value in its text form) on both engines:
// the application's own keys, Kafka Streams keys at their defaults (those
// it sets for exactly_once_v2 included) and the keys the file sets. The
// outputs must be the same (as multisets per partition: both tasks write
// to one output partition).
func TestAppConfigsMatchKafkaStreams(t *testing.T) {
	t.Parallel()
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	var recs []testkafka.Record
	for i := range 3 {
		recs = append(recs, testkafka.Record{Partition: int32(i % 2), Key: []byte(fmt.Sprintf("k%d", i)), Value: []byte("read"),
			Timestamp: time.UnixMilli(epochBase + int64(i)*100)})
	}
	out := runDifferential(t, diffCase{
		app: appconfigs.Name, props: filepath.Join(root, "examples", "appconfigs", "streams.properties"),
		input: recs, outputs: len(recs), noInternalTopics: true, unordered: true,
	})
	if len(out) > 0 {
		t.Logf("what a processor reads: %s", out[0].Value)
	}
}
