package testkafka

import (
	"context"
	"fmt"
	"maps"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/stoatflow/stoatflow/kstreams"
)

// fakeBroker starts an in-process broker for the helpers' own tests.
func fakeBroker(t *testing.T) string {
	t.Helper()
	c, err := kfake.NewCluster(kfake.NumBrokers(1))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c.ListenAddrs()[0]
}

// TestProducePlacesRecordsAsJava: keyed records without a partition land
// where Java's default partitioner puts them, explicit partitions are kept,
// and ReadCommitted returns them in per-partition offset order.
func TestProducePlacesRecordsAsJava(t *testing.T) {
	addr := fakeBroker(t)
	CreateTopics(t, addr, 4, "in")
	var recs []Record
	for i := 0; i < 40; i++ {
		recs = append(recs, Record{Topic: "in", Partition: AnyPartition, Key: []byte(fmt.Sprint("key-", i)), Value: []byte(fmt.Sprint(i))})
	}
	recs = append(recs, Record{Topic: "in", Partition: 3, Key: []byte("key-0"), Value: []byte("pinned"),
		Timestamp: time.UnixMilli(1_700_000_000_000)})
	Produce(t, addr, recs...)
	got, err := ReadCommitted(addr, "in", len(recs), 30*time.Second, 200*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(recs) {
		t.Fatalf("read %d records, want %d", len(got), len(recs))
	}
	last := map[int32]int64{}
	for _, r := range got {
		if prev, ok := last[r.Partition]; ok && r.Offset <= prev {
			t.Errorf("partition %d: offset %d after %d", r.Partition, r.Offset, prev)
		}
		last[r.Partition] = r.Offset
		if string(r.Value) == "pinned" {
			if r.Partition != 3 || r.Timestamp.UnixMilli() != 1_700_000_000_000 {
				t.Errorf("pinned record at partition %d, timestamp %d; want 3, 1700000000000", r.Partition, r.Timestamp.UnixMilli())
			}
			continue
		}
		if want := kstreams.DefaultPartition(r.Key, 4); r.Partition != want {
			t.Errorf("key %s at partition %d, Java's partitioner puts it at %d", r.Key, r.Partition, want)
		}
	}
}

// TestReadCommittedHidesAbortedTransactions: aborted records are never
// returned, and with linger a read waits for records that should not come.
func TestReadCommittedHidesAbortedTransactions(t *testing.T) {
	addr := fakeBroker(t)
	CreateTopics(t, addr, 1, "txn")
	p, err := NewClient(addr, kgo.TransactionalID("t1"), kgo.DefaultProduceTopic("txn"))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for _, tx := range []struct {
		v      string
		commit bool
	}{{"a", true}, {"b", false}, {"c", true}} {
		if err := p.BeginTransaction(); err != nil {
			t.Fatal(err)
		}
		if err := p.ProduceSync(ctx, &kgo.Record{Value: []byte(tx.v)}).FirstErr(); err != nil {
			t.Fatal(err)
		}
		if err := p.EndTransaction(ctx, kgo.TransactionEndTry(tx.commit)); err != nil {
			t.Fatal(err)
		}
	}
	got, err := ReadCommitted(addr, "txn", 2, 20*time.Second, 500*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	var vals []string
	for _, r := range got {
		vals = append(vals, string(r.Value))
	}
	if fmt.Sprint(vals) != "[a c]" {
		t.Fatalf("read_committed got %v, want [a c]", vals)
	}
	if _, err := ReadCommitted(addr, "txn", 3, time.Second, 0); err == nil {
		t.Fatal("a read for more records than committed should time out")
	}
}

// TestCommittedAndListedOffsets: a group without commits reads -1, a
// committed offset reads back, and end offsets count the records.
func TestCommittedAndListedOffsets(t *testing.T) {
	addr := fakeBroker(t)
	CreateTopics(t, addr, 2, "in")
	Produce(t, addr, Record{Topic: "in", Partition: 0, Value: []byte("x")}, Record{Topic: "in", Partition: 0, Value: []byte("y")},
		Record{Topic: "in", Partition: 1, Value: []byte("z")})
	got, err := Committed(addr, "g", "in", 2, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(got) != "[-1 -1]" {
		t.Fatalf("committed offsets of a new group %v, want [-1 -1]", got)
	}
	admin := Admin(t, addr)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var offs kadm.Offsets
	offs.Add(kadm.Offset{Topic: "in", Partition: 0, At: 2, LeaderEpoch: -1})
	if err := admin.CommitAllOffsets(ctx, "g", offs); err != nil {
		t.Fatal(err)
	}
	if got, err = CommittedWith(admin, "g", "in", 2, 10*time.Second); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(got) != "[2 -1]" {
		t.Fatalf("committed offsets %v, want [2 -1]", got)
	}
	for _, committed := range []bool{false, true} {
		ends, err := ListOffsets(ctx, admin, committed, "in")
		if err != nil {
			t.Fatal(err)
		}
		if ends["in"][0] != 2 || ends["in"][1] != 1 {
			t.Errorf("end offsets (committed %v) %v, want 0:2 1:1", committed, ends["in"])
		}
	}
	starts, err := StartOffsets(ctx, admin, "in")
	if err != nil {
		t.Fatal(err)
	}
	if starts["in"][0] != 0 || starts["in"][1] != 0 {
		t.Errorf("start offsets %v, want 0 and 0", starts["in"])
	}
}

func TestStreamsGroupConfigs(t *testing.T) {
	got := StreamsGroupConfigs(map[string]string{"acceptable.recovery.lag": "9223372036854775807",
		"main.consumer.heartbeat.interval.ms": "1000", "commit.interval.ms": "100", "group.protocol": "streams"})
	want := map[string]string{"streams.acceptable.recovery.lag": "9223372036854775807", "streams.heartbeat.interval.ms": "1000"}
	if !maps.Equal(got, want) {
		t.Fatalf("group configs %v, want %v", got, want)
	}
}
