package groupoffsets

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/stoatflow/stoatflow/internal/testkafka"
)

// TestStableFetchWaitsOnlyForItsPartitions: on the real broker, with
// partitions 0 and 1 committed (3 and 5) and an open transaction holding
// the group's offsets of partitions 0 and 2 (7 and 9), a stable read of
// partition 1 answers 5 at once, while partitions 0 and 2 answer
// UNSTABLE_OFFSET_COMMIT. A stable read of the whole group, as kadm's
// FetchOffsetsForTopics makes, fails on partition 0's pending offset
// however little the reader cares about it, and says nothing of
// partition 2 (the broker lists committed partitions only), which it
// then takes for never committed. Once the transaction aborts, the
// committed offsets read again.
func TestStableFetchWaitsOnlyForItsPartitions(t *testing.T) {
	bootstrap := testkafka.Bootstrap(t)
	topic := testkafka.Topic(t, "in")
	group := testkafka.Topic(t, "group")
	txnID := group + "-txn"
	testkafka.CreateTopics(t, bootstrap, 4, topic)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	adm := testkafka.Admin(t, bootstrap)
	var committed kadm.Offsets
	committed.AddOffset(topic, 0, 3, -1)
	committed.AddOffset(topic, 1, 5, -1)
	if err := adm.CommitAllOffsets(ctx, group, committed); err != nil {
		t.Fatal(err)
	}

	cl, err := testkafka.NewClient(bootstrap, kgo.TransactionalID(txnID), kgo.TransactionTimeout(time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	if err := cl.BeginTransaction(); err != nil {
		t.Fatal(err)
	}
	pendingOffsets(ctx, t, cl, adm, txnID, group, topic, map[int32]int64{0: 7, 2: 9})

	got, err := Fetch(ctx, cl, group, map[string][]int32{topic: {1, 3}}, true)
	if err != nil {
		t.Fatal(err)
	}
	if c := got[topic][1]; c.Err != nil || c.Offset != 5 {
		t.Errorf("partition 1: %+v, want offset 5 (the open transaction holds other partitions only)", c)
	}
	if c := got[topic][3]; c.Err != nil || c.Offset != -1 {
		t.Errorf("partition 3, never committed: %+v, want -1", c)
	}
	got, err = Fetch(ctx, cl, group, map[string][]int32{topic: {0, 2}}, true)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []int32{0, 2} {
		if c := got[topic][p]; !errors.Is(c.Err, kerr.UnstableOffsetCommit) {
			t.Errorf("partition %d under the open transaction: %+v, want UNSTABLE_OFFSET_COMMIT", p, c)
		}
	}
	all, err := adm.FetchOffsetsForTopics(kadm.RequireStable(ctx), group, topic)
	if !errors.Is(err, kerr.UnstableOffsetCommit) {
		o, _ := all.Lookup(topic, 2)
		t.Logf("a stable read of the whole group: %v, partition 2 %+v (Kafka 4.4 fails it with UNSTABLE_OFFSET_COMMIT)", err, o)
	}
	// Not stable: the last committed offsets.
	got, err = Fetch(ctx, cl, group, map[string][]int32{topic: {0, 2}}, false)
	if err != nil {
		t.Fatal(err)
	}
	if c := got[topic][0]; c.Err != nil || c.Offset != 3 {
		t.Errorf("partition 0 read without require_stable: %+v, want 3", c)
	}
	if c := got[topic][2]; c.Err != nil || c.Offset != -1 {
		t.Errorf("partition 2 read without require_stable: %+v, want -1", c)
	}

	// The client does not know of the offsets written by hand: the abort
	// goes by hand too.
	id, epoch, err := cl.ProducerID(ctx)
	if err != nil {
		t.Fatal(err)
	}
	end := kmsg.NewPtrEndTxnRequest()
	end.TransactionalID, end.ProducerID, end.ProducerEpoch, end.Commit = txnID, id, epoch, false
	endResp, err := end.RequestWith(ctx, cl)
	answered(t, "EndTxn", err, func() int16 { return endResp.ErrorCode })
	// The coordinator clears the pending offsets when the abort's marker
	// reaches the offsets topic.
	for {
		got, err = Fetch(ctx, cl, group, map[string][]int32{topic: {0, 1, 2}}, true)
		if err != nil {
			t.Fatal(err)
		}
		if !errors.Is(got[topic][0].Err, kerr.UnstableOffsetCommit) && !errors.Is(got[topic][2].Err, kerr.UnstableOffsetCommit) {
			break
		}
		if ctx.Err() != nil {
			t.Fatalf("the pending offsets were not cleared after the abort: %+v", got)
		}
		time.Sleep(50 * time.Millisecond)
	}
	for p, want := range map[int32]int64{0: 3, 1: 5, 2: -1} {
		if c := got[topic][p]; c.Err != nil || c.Offset != want {
			t.Errorf("partition %d after the abort: %+v, want %d", p, c, want)
		}
	}
}

// pendingOffsets writes offsets of topic's partitions into cl's open
// transaction for group (AddOffsetsToTxn, TxnOffsetCommit).
func pendingOffsets(ctx context.Context, t *testing.T, cl *kgo.Client, adm *kadm.Client, txnID, group, topic string, offsets map[int32]int64) {
	t.Helper()
	id, epoch, err := cl.ProducerID(ctx)
	if err != nil {
		t.Fatal(err)
	}
	add := kmsg.NewPtrAddOffsetsToTxnRequest()
	add.TransactionalID, add.ProducerID, add.ProducerEpoch, add.Group = txnID, id, epoch, group
	addResp, err := add.RequestWith(ctx, cl)
	answered(t, "AddOffsetsToTxn", err, func() int16 { return addResp.ErrorCode })
	listed, err := adm.ListTopics(ctx, topic)
	if err != nil {
		t.Fatal(err)
	}
	commit := kmsg.NewPtrTxnOffsetCommitRequest()
	commit.TransactionalID, commit.Group, commit.ProducerID, commit.ProducerEpoch = txnID, group, id, epoch
	commit.Generation, commit.MemberID = -1, ""
	ct := kmsg.NewTxnOffsetCommitRequestTopic()
	ct.Topic, ct.TopicID = topic, listed[topic].ID
	for p, o := range offsets {
		cp := kmsg.NewTxnOffsetCommitRequestTopicPartition()
		cp.Partition, cp.Offset, cp.LeaderEpoch = p, o, -1
		ct.Partitions = append(ct.Partitions, cp)
	}
	commit.Topics = append(commit.Topics, ct)
	resp, err := commit.RequestWith(ctx, cl)
	if err != nil {
		t.Fatalf("TxnOffsetCommit: %v", err)
	}
	for _, rt := range resp.Topics {
		for _, p := range rt.Partitions {
			if err := kerr.ErrorForCode(p.ErrorCode); err != nil {
				t.Fatalf("TxnOffsetCommit of partition %d: %v", p.Partition, err)
			}
		}
	}
}

// answered fails the test when request what failed or its answer carries
// an error code (code, read only when the request went through).
func answered(t *testing.T, what string, err error, code func() int16) {
	t.Helper()
	if err == nil {
		err = kerr.ErrorForCode(code())
	}
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}
