package txn_test

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/stoatflow/stoatflow/txn"
)

// delivered reports whether the producer has delivered a record to t-0 by
// the deadline, without flushing it.
func delivered(p *txn.Producer, within time.Duration) bool {
	deadline := time.Now().Add(within)
	for time.Now().Before(deadline) {
		if _, ok := p.TakeOffsets()[txn.TopicPartition{Topic: "t", Partition: 0}]; ok {
			return true
		}
		time.Sleep(10 * time.Millisecond)
	}
	return false
}

// TestLingeringPartitionIsSentAtBatchSize: with a linger far longer than the
// test, a partition that buffers batch.size bytes is sent at once, as the
// Java producer sends a full batch; without BatchBytes the same records wait
// for the linger (or a Flush).
func TestLingeringPartitionIsSentAtBatchSize(t *testing.T) {
	c, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.SeedTopics(1, "t"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	opts := []kgo.Opt{kgo.SeedBrokers(strings.Join(c.ListenAddrs(), ",")), kgo.ProducerLinger(time.Minute)}
	ctx := context.Background()
	value := bytes.Repeat([]byte("v"), 200)
	for _, tc := range []struct {
		name      string
		popts     []txn.ProducerOpt
		delivered bool
	}{
		{"batch.size=1000", []txn.ProducerOpt{txn.BatchBytes(1000)}, true},
		{"no batch.size", nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := txn.NewProducer(opts, false, tc.popts...)
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close(ctx)
			for range 6 { // 1200 bytes of values
				if err := p.Send(ctx, "t", 0, nil, value, -1, nil); err != nil {
					t.Fatal(err)
				}
			}
			if got := delivered(p, 2*time.Second); got != tc.delivered {
				t.Fatalf("records delivered without a flush: %v, want %v", got, tc.delivered)
			}
			if err := p.Flush(ctx); err != nil {
				t.Fatal(err)
			}
		})
	}
}
