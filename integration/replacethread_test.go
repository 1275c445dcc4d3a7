package integration

import (
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/examples/replacethread"
	"github.com/stoatflow/stoatflow/internal/testkafka"
)

// replaceThreadMu keeps the tests that run the replacethread topology in
// this process from overlapping: whether it has failed on its poison record
// is the process's, so one test's failure would disarm the other's.
var replaceThreadMu sync.Mutex

// TestReplaceThreadMatchesKafkaStreams: a word count whose processor fails
// at the first "boom" of each process, under REPLACE_THREAD on both
// engines (stoatflow.thread.uncaught-exception-response in the shared
// file; the twin answers its handler with it). The failed thread's epoch
// aborts and the replacement resumes from the committed state: the output
// has every count once, "boom"'s included, as Kafka Streams writes it, and
// so has the count's changelog. A SHUTDOWN_CLIENT on either side would
// leave the output short of its last records.
func TestReplaceThreadMatchesKafkaStreams(t *testing.T) {
	t.Parallel()
	replaceThreadMu.Lock()
	defer replaceThreadMu.Unlock()
	replacethread.Rearm()
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	words := []string{"ant", "bee", "cat", "ant", "dog", "bee"}
	var recs []testkafka.Record
	add := func(w string) {
		recs = append(recs, testkafka.Record{Partition: 0, Key: []byte(fmt.Sprintf("k%d", len(recs))), Value: []byte(w),
			Timestamp: time.UnixMilli(epochBase + int64(len(recs))*100)})
	}
	for i := range 30 {
		add(words[i%len(words)])
	}
	add(replacethread.Poison)
	for i := range 30 {
		add(words[i%len(words)])
	}
	add(replacethread.Poison)
	runDifferential(t, diffCase{
		app: replacethread.Name, props: filepath.Join(root, "examples", "replacethread", "streams.properties"),
		input: recs, outputs: len(recs),
		changelogs: map[string]int{"KSTREAM-AGGREGATE-STATE-STORE-0000000003-changelog": len(recs)},
	})
	if !replacethread.Failed() {
		t.Fatal("StoatFlow's processor never failed: the test did not replace a thread")
	}
}
