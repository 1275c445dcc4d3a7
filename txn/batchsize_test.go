package txn_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
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
			// The first record of a topic waits for its metadata, and
			// lingers once that arrives: the test starts after it.
			if err := p.Send(ctx, "t", 0, nil, value, -1, nil); err != nil {
				t.Fatal(err)
			}
			if err := p.Flush(ctx); err != nil {
				t.Fatal(err)
			}
			p.TakeOffsets()
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

// TestRecordOverMaxRequestSizeFailsBeforeTheTransaction: a record larger
// than max.request.size (as the Java producer estimates it) is refused by
// Send without reaching the client, so the epoch's transaction stays
// committable: OnFailed sees it with its origin and, answering nil, lets
// the epoch commit the other records. Without OnFailed the commit fails.
func TestRecordOverMaxRequestSizeFailsBeforeTheTransaction(t *testing.T) {
	for _, eos := range []bool{false, true} {
		for _, resume := range []bool{true, false} {
			t.Run(fmt.Sprintf("eos=%v/resume=%v", eos, resume), func(t *testing.T) {
				c, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.SeedTopics(1, "t"))
				if err != nil {
					t.Fatal(err)
				}
				defer c.Close()
				seeds := kgo.SeedBrokers(strings.Join(c.ListenAddrs(), ","))
				opts := []kgo.Opt{seeds, kgo.ProducerBatchMaxBytes(1000)}
				if eos {
					opts = append(opts, kgo.TransactionalID("too-large"))
				}
				ctx := context.Background()
				p, err := txn.NewProducer(opts, eos)
				if err != nil {
					t.Fatal(err)
				}
				defer p.Close(ctx)
				if err := p.Init(ctx); err != nil {
					t.Fatal(err)
				}
				origin := &txn.Origin{Tag: "task 0_0"}
				for _, v := range [][]byte{[]byte("small"), bytes.Repeat([]byte("x"), 1000), []byte("after")} {
					if err := p.SendFrom(ctx, origin, "t", 0, []byte("k"), v, 1, nil); err != nil {
						t.Fatal(err)
					}
				}
				var seen []txn.Failed
				cm := &txn.Committer{Producer: p, EOS: eos}
				if resume {
					cm.OnFailed = func(_ context.Context, failed []txn.Failed) error {
						seen = append(seen, failed...)
						return nil
					}
				}
				_, err = cm.Commit(ctx, txn.TriggerRequested, nil, nil)
				if !resume {
					if err == nil || !errors.Is(err, kerr.MessageTooLarge) {
						t.Fatalf("commit without OnFailed: %v, want the record's error", err)
					}
					return
				}
				if err != nil {
					t.Fatalf("commit: %v", err)
				}
				var tooLarge *txn.RecordTooLargeError
				if len(seen) != 1 || seen[0].Origin != "task 0_0" || len(seen[0].Value) != 1000 || !errors.As(seen[0].Err, &tooLarge) ||
					tooLarge.Max != 1000 || tooLarge.Size != 61+21+(1+1)+(2+1000)+1 {
					// The Java estimate: batch header, record overhead, key,
					// value and header count with their varint lengths (as
					// Kafka's "The message is 2000090 bytes" for a 2000000-byte
					// value under a 2-byte key).
					t.Fatalf("OnFailed saw %d records (%v), want the 1000-byte record of task 0_0, 1087 bytes by the Java estimate", len(seen), seen[0].Err)
				}
				cl, err := kgo.NewClient(seeds, kgo.ConsumeTopics("t"), kgo.FetchIsolationLevel(kgo.ReadCommitted()))
				if err != nil {
					t.Fatal(err)
				}
				defer cl.Close()
				var got []string
				for len(got) < 2 {
					pctx, cancel := context.WithTimeout(ctx, 5*time.Second)
					fs := cl.PollFetches(pctx)
					timedOut := pctx.Err() != nil
					cancel()
					if timedOut {
						t.Fatalf("read %v, want small and after", got)
					}
					fs.EachRecord(func(r *kgo.Record) { got = append(got, string(r.Value)) })
				}
				if strings.Join(got, ",") != "small,after" {
					t.Errorf("committed %v, want small and after", got)
				}
			})
		}
	}
}
