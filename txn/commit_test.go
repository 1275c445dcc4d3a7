package txn_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/stoatflow/stoatflow/internal/failpoint"
	"github.com/stoatflow/stoatflow/internal/testkafka"
	"github.com/stoatflow/stoatflow/state"
	"github.com/stoatflow/stoatflow/state/rocksdb"
	"github.com/stoatflow/stoatflow/txn"
)

func TestBarrierEndsEpochOnIntervalAndMemoryPressure(t *testing.T) {
	var pending int64
	b := txn.Barrier{Interval: 100 * time.Millisecond, MaxUncommitted: 1000, Uncommitted: func() int64 { return pending }}
	t0 := time.Unix(1000, 0)
	b.Start(t0)
	if _, due := b.Due(t0.Add(50 * time.Millisecond)); due {
		t.Fatal("due before the interval with nothing pending")
	}
	pending = 1001
	if tr, due := b.Due(t0.Add(time.Millisecond)); !due || tr != txn.TriggerMemoryPressure {
		t.Fatalf("over the budget: due=%v trigger=%v, want MEMORY_PRESSURE", due, tr)
	}
	pending = 0
	if tr, due := b.Due(t0.Add(100 * time.Millisecond)); !due || tr != txn.TriggerTime {
		t.Fatalf("at the interval: due=%v trigger=%v, want TIME", due, tr)
	}
	b.Next(t0.Add(100 * time.Millisecond))
	if _, due := b.Due(t0.Add(150 * time.Millisecond)); due {
		t.Fatal("due right after a new epoch began")
	}
	unbounded := txn.Barrier{Interval: time.Hour, MaxUncommitted: -1, Uncommitted: func() int64 { return 1 << 40 }}
	unbounded.Start(t0)
	if _, due := unbounded.Due(t0); due {
		t.Fatal("MaxUncommitted -1 must disable the bound")
	}
}

// fixture is one stream thread's clients on the real broker: a consumer in
// a group reading in, a transactional producer, and a RocksDB store whose
// changelog is changelog.
type fixture struct {
	bootstrap, in, out, changelog string
	consumer                      *kgo.Client
	producer                      *txn.Producer
	store                         state.KeyValueStore
	tp                            state.TopicPartition
	committer                     *txn.Committer
}

func newFixture(t *testing.T, eos bool) *fixture {
	t.Helper()
	f := &fixture{bootstrap: testkafka.Bootstrap(t)}
	f.in, f.out, f.changelog = testkafka.Topic(t, "in"), testkafka.Topic(t, "out"), testkafka.Topic(t, "changelog")
	testkafka.CreateTopics(t, f.bootstrap, 1, f.in, f.out, f.changelog)
	var err error
	f.consumer, err = kgo.NewClient(kgo.SeedBrokers(f.bootstrap), kgo.ConsumerGroup(f.in+"-group"),
		kgo.ConsumeTopics(f.in), kgo.FetchIsolationLevel(kgo.ReadCommitted()), kgo.DisableAutoCommit(),
		kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(f.consumer.Close)
	popts := []kgo.Opt{kgo.SeedBrokers(f.bootstrap), kgo.ProducerLinger(5 * time.Millisecond)}
	if eos {
		popts = append(popts, kgo.TransactionalID(f.in+"-txn"), kgo.TransactionTimeout(10*time.Second))
	}
	f.producer, err = txn.NewProducer(popts, eos)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.producer.Close(context.Background()) })
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := f.producer.Init(ctx); err != nil {
		t.Fatal(err)
	}
	f.store, err = rocksdb.OpenKeyValue(t.TempDir(), state.KeyValueOptions{Name: "counts"}, rocksdb.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.store.Close() })
	f.tp = state.TopicPartition{Topic: f.changelog, Partition: 0}
	f.committer = &txn.Committer{Producer: f.producer, Consumer: f.consumer, Group: f.in + "-group", EOS: eos}
	return f
}

// process polls n input records and, for each, writes the store, its
// changelog record and an output record; it returns the offsets to commit.
func (f *fixture) process(t *testing.T, n int) []txn.Offset {
	t.Helper()
	var next int64
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for got := 0; got < n; {
		fs := f.consumer.PollRecords(ctx, n-got)
		if ctx.Err() != nil {
			t.Fatalf("polled %d of %d input records", got, n)
		}
		for _, m := range fs.Records() {
			got++
			next = m.Offset + 1
			if err := f.store.Put(m.Key, m.Value); err != nil {
				t.Fatal(err)
			}
			if err := f.producer.Send(context.Background(), f.changelog, 0, m.Key, m.Value, 1, nil); err != nil {
				t.Fatal(err)
			}
			if err := f.producer.Send(context.Background(), f.out, 0, m.Key, m.Value, 1, nil); err != nil {
				t.Fatal(err)
			}
		}
	}
	return []txn.Offset{{Topic: f.in, Partition: 0, Offset: next}}
}

// committed reads the group's committed offset of the input partition, -1
// for none.
func (f *fixture) committed(t *testing.T) int64 {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	// Stable: a transaction's offsets count once its markers are written.
	resp, err := kadm.NewClient(f.consumer).FetchOffsets(kadm.RequireStable(ctx), f.in+"-group")
	if err != nil {
		t.Fatal(err)
	}
	o, ok := resp.Lookup(f.in, 0)
	if !ok {
		return -1
	}
	if o.Err != nil {
		t.Fatal(o.Err)
	}
	return o.At
}

// committedSoon is the group's committed offset once it is want, or what it
// is after 10 s. The broker writes a committed transaction's markers to the
// group's offsets after EndTxn has returned; until then an offset fetch can
// show no offset at all, even with require_stable (seen on Kafka 4.4 for
// about 100 ms).
func (f *fixture) committedSoon(t *testing.T, want int64) int64 {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		got := f.committed(t)
		if got == want || time.Now().After(deadline) {
			return got
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func (f *fixture) input(t *testing.T, keys ...string) {
	var recs []testkafka.Record
	for _, k := range keys {
		recs = append(recs, testkafka.Record{Topic: f.in, Partition: 0, Key: []byte(k), Value: []byte("v-" + k)})
	}
	testkafka.Produce(t, f.bootstrap, recs...)
}

func committedGet(t *testing.T, s state.KeyValueStore, key string) (string, bool) {
	t.Helper()
	v, err := s.ReadOnly(state.ReadCommitted).Get([]byte(key))
	if err != nil {
		t.Fatal(err)
	}
	return string(v), v != nil
}

func TestCommitWritesStoreOnlyAfterKafkaCommit(t *testing.T) {
	f := newFixture(t, true)
	f.input(t, "a", "b", "c")
	offsets := f.process(t, 3)
	if _, ok := committedGet(t, f.store, "a"); ok {
		t.Fatal("READ_COMMITTED sees a write before the commit")
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	stats, err := f.committer.Commit(ctx, txn.TriggerTime, offsets, []txn.StoreCommit{{Store: f.store, Changelog: &f.tp}})
	if err != nil {
		t.Fatal(err)
	}
	if v, ok := committedGet(t, f.store, "c"); !ok || v != "v-c" {
		t.Fatalf("after commit READ_COMMITTED get(c) = %q, %v", v, ok)
	}
	off, ok, err := f.store.CommittedOffset(f.tp)
	if err != nil || !ok {
		t.Fatalf("committed offset: %v %v", ok, err)
	}
	// Three changelog records at offsets 0, 1, 2 of a fresh topic.
	if off != 2 {
		t.Fatalf("store's changelog offset = %d, want 2 (the last changelog record)", off)
	}
	if stats.Stores != 1 || stats.KafkaCommit <= 0 {
		t.Fatalf("stats = %+v", stats)
	}
	out, err := testkafka.ReadCommitted(f.bootstrap, f.out, 3, 30*time.Second, time.Second)
	if err != nil || len(out) != 3 {
		t.Fatalf("read_committed output: %d records, %v", len(out), err)
	}
	if got := f.committedSoon(t, 3); got != 3 {
		t.Fatalf("group offset = %d; want 3", got)
	}
}

func TestAbortedEpochNeverReachesStoreOrOutput(t *testing.T) {
	f := newFixture(t, true)
	f.input(t, "a", "b")
	offsets := f.process(t, 2)
	if err := failpoint.Arm(failpoint.AfterSendOffsets + "=error"); err != nil {
		t.Fatal(err)
	}
	defer failpoint.Arm("")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_, err := f.committer.Commit(ctx, txn.TriggerTime, offsets, []txn.StoreCommit{{Store: f.store, Changelog: &f.tp}})
	if !errors.Is(err, txn.ErrAbortable) {
		t.Fatalf("commit error = %v, want ErrAbortable", err)
	}
	if _, ok := committedGet(t, f.store, "a"); ok {
		t.Fatal("an aborted write reached the store")
	}
	if v, _ := f.store.Get([]byte("a")); v != nil {
		t.Fatal("the overlay kept an aborted write")
	}
	if f.store.ApproximateNumUncommittedBytes() != 0 {
		t.Fatal("uncommitted bytes left after abort")
	}
	if _, ok, _ := f.store.CommittedOffset(f.tp); ok {
		t.Fatal("an aborted epoch recorded a changelog offset")
	}
	out, err := testkafka.ReadCommitted(f.bootstrap, f.out, 1, 3*time.Second, 0)
	if len(out) != 0 {
		t.Fatalf("read_committed consumer saw %d aborted records", len(out))
	}
	if !errors.Is(err, testkafka.ErrTimeout) {
		t.Fatal(err)
	}
	// The producer stays usable: the next epoch commits.
	failpoint.Arm("")
	if err := f.producer.Send(context.Background(), f.out, 0, []byte("x"), []byte("y"), 1, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := f.committer.Commit(ctx, txn.TriggerTime, nil, nil); err != nil {
		t.Fatalf("commit after abort: %v", err)
	}
}

func TestFencedProducerIsClassifiedAndDropsOverlay(t *testing.T) {
	f := newFixture(t, true)
	f.input(t, "a")
	offsets := f.process(t, 1)
	// A newer instance with the same transactional.id takes over.
	newer, err := txn.NewProducer([]kgo.Opt{kgo.SeedBrokers(f.bootstrap), kgo.TransactionalID(f.in + "-txn")}, true)
	if err != nil {
		t.Fatal(err)
	}
	defer newer.Close(context.Background())
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := newer.Init(ctx); err != nil {
		t.Fatal(err)
	}
	_, err = f.committer.Commit(ctx, txn.TriggerTime, offsets, []txn.StoreCommit{{Store: f.store, Changelog: &f.tp}})
	if !errors.Is(err, txn.ErrFenced) {
		t.Fatalf("commit by the fenced producer = %v, want ErrFenced", err)
	}
	if v, _ := f.store.Get([]byte("a")); v != nil {
		t.Fatal("overlay kept the fenced epoch's write")
	}
	if _, ok := committedGet(t, f.store, "a"); ok {
		t.Fatal("the fenced epoch's write reached the store")
	}
}

func TestAtLeastOnceCommitsOffsetsThenStores(t *testing.T) {
	f := newFixture(t, false)
	f.input(t, "a", "b")
	offsets := f.process(t, 2)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := f.committer.Commit(ctx, txn.TriggerTime, offsets, []txn.StoreCommit{{Store: f.store, Changelog: &f.tp}}); err != nil {
		t.Fatal(err)
	}
	if off, ok, _ := f.store.CommittedOffset(f.tp); !ok || off != 1 {
		t.Fatalf("store offset = %d, %v; want 1", off, ok)
	}
	if got := f.committed(t); got != 2 {
		t.Fatalf("group offset = %d; want 2", got)
	}
}

// A zombie: offsets sent with a member id and generation the group does not
// know are refused by the group coordinator (KIP-447), the transaction
// aborts, and nothing of it is committed.
func TestZombieGenerationCannotCommitOffsets(t *testing.T) {
	f := newFixture(t, true)
	f.input(t, "a", "b")
	offsets := f.process(t, 2)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	member, gen := f.consumer.GroupMetadata()
	if member == "" || gen < 0 {
		t.Fatalf("consumer not in the group: member %q generation %d", member, gen)
	}
	zombie := txn.GroupMetadata{Group: f.in + "-group", MemberID: member, Generation: gen + 7}
	err := f.producer.CommitTransaction(ctx, offsets, zombie)
	if !errors.Is(err, txn.ErrAbortable) {
		t.Fatalf("commit with a stale generation = %v, want ErrAbortable", err)
	}
	if err := f.producer.AbortTransaction(ctx); err != nil {
		t.Fatalf("abort: %v", err)
	}
	out, err := testkafka.ReadCommitted(f.bootstrap, f.out, 1, 3*time.Second, 0)
	if len(out) != 0 || !errors.Is(err, testkafka.ErrTimeout) {
		t.Fatalf("read_committed consumer saw %d records of the refused transaction (%v)", len(out), err)
	}
	// Checked after the 3 s read, so that an offset the broker made visible
	// late would show.
	if got := f.committed(t); got != -1 {
		t.Fatalf("group offset = %d after a refused commit, want none", got)
	}
	// The real member commits.
	if err := f.producer.Send(ctx, f.out, 0, []byte("x"), []byte("y"), 1, nil); err != nil {
		t.Fatal(err)
	}
	if err := f.producer.CommitTransaction(ctx, offsets, txn.GroupMetadata{Group: f.in + "-group", MemberID: member, Generation: gen}); err != nil {
		t.Fatalf("commit by the member: %v", err)
	}
	if got := f.committedSoon(t, 2); got != 2 {
		t.Fatalf("group offset = %d, want 2", got)
	}
}
