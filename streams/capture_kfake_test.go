package streams_test

import (
	"encoding/binary"
	"sync"
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/internal/testkafka"
	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/streams"
)

// captured collects what a Capture delivers.
type captured struct {
	mu      sync.Mutex
	recs    []streams.CapturedRecord
	batches int
}

func (c *captured) deliver(recs []streams.CapturedRecord) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.recs = append(c.recs, recs...)
	c.batches++
}

// counts returns each word's delivered counts in order once n have come.
func (c *captured) counts(t *testing.T, n int) map[string][]int64 {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		c.mu.Lock()
		got := len(c.recs)
		c.mu.Unlock()
		if got >= n || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	time.Sleep(500 * time.Millisecond) // nothing more may come
	c.mu.Lock()
	defer c.mu.Unlock()
	out := map[string][]int64{}
	for _, r := range c.recs {
		if r.Topic != "out" || len(r.Value) != 8 {
			t.Fatalf("captured %s[%d] with a value of %d bytes, want Longs of out", r.Topic, r.Partition, len(r.Value))
		}
		if want := int32(kstreams.DefaultPartition(r.Key, 2)); r.Partition != want {
			t.Errorf("captured %q in partition %d, the default partitioner's is %d", r.Key, r.Partition, want)
		}
		out[string(r.Key)] = append(out[string(r.Key)], int64(binary.BigEndian.Uint64(r.Value)))
	}
	return out
}

// TestKfakeCaptureDeliversOnlyCommittedEpochs: with a Capture on the output
// topic, nothing is written to it, and the captured records are those a
// read_committed reader of it would have read: every count once and in
// order, though epochs abort on the way (the output's serde fails for two
// seconds, as a registry serde does while its registry is down) after part
// of their output was sent.
func TestKfakeCaptureDeliversOnlyCommittedEpochs(t *testing.T) {
	_, addr := startBroker(t)
	createTopics(t, addr, 2, "in", "out")
	out := &outageLong{}
	c := &captured{}
	ks := startApp(t, outageTopology(t, "in", "out", out), appConfig(t, addr, "capture", t.TempDir()),
		streams.WithCapture(streams.Capture{Topics: func(topic string) bool { return topic == "out" }, Deliver: c.deliver}))
	words(t, addr, "in", 0, 200, vocab)
	checkCounts(t, c.counts(t, 200), wantCounts(200, vocab))
	closeApp(t, ks)
	if out.failed() == 0 {
		t.Fatal("the serde never failed: no epoch aborted")
	}
	written, err := testkafka.ReadCommitted(addr, "out", 1, 2*time.Second, 0)
	if err == nil && len(written) > 0 {
		t.Fatalf("%d records were written to the captured topic", len(written))
	}
	t.Logf("%d records in %d batches; %d serializations failed", len(c.recs), c.batches, out.failed())
}
