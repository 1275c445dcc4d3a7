package streams_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"

	"github.com/stoatflow/stoatflow/internal/storeformat"
	"github.com/stoatflow/stoatflow/internal/testkafka"
	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/serde"
	"github.com/stoatflow/stoatflow/state"
	"github.com/stoatflow/stoatflow/streams"
)

// globalHooks records the global store's restores.
type globalHooks struct {
	streams.NoHooks
	mu       sync.Mutex
	starts   map[int32]int64 // partition → restore start offset
	full     bool
	restored int64
}

func (h *globalHooks) OnRestoreStart(store string, tp state.TopicPartition, start, _ int64, full bool) {
	if store != "g-store" {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.starts[tp.Partition] = start
	h.full = h.full || full
}

func (h *globalHooks) OnRestoreEnd(store string, _ state.TopicPartition, total int64) {
	if store != "g-store" {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.restored += total
}

func globalJoinTopology(t *testing.T, global, input, output string) *kstreams.Topology {
	t.Helper()
	b := kstreams.NewStreamsBuilder()
	str := kstreams.ConsumedWith[string, string](serde.String{}, serde.String{})
	g := kstreams.GlobalTable(b, global, str, kstreams.MaterializedAs[string, string]("g-store"))
	s := kstreams.Stream(b, []string{input}, str)
	kstreams.LeftJoinGlobal(s, g, func(_, v string) string { return v }, func(v string, gv *string) string {
		if gv == nil {
			return v + "=null"
		}
		return v + "=" + *gv
	}).To(output, kstreams.ProducedWith[string, string](serde.String{}, serde.String{}))
	topo, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return topo
}

// globalValue reads key from the global store at iso, "" when absent.
func globalValue(t *testing.T, ks *streams.KafkaStreams, key string, iso state.IsolationLevel) string {
	t.Helper()
	ls := ks.LocalStores("g-store")
	if len(ls) != 1 || !ls[0].Global {
		t.Fatalf("LocalStores(g-store) = %+v, want the one global store", ls)
	}
	b, err := ls[0].Store.(state.KeyValueStore).ReadOnly(iso).Get([]byte(key))
	if err != nil {
		t.Fatal(err)
	}
	if b == nil {
		return ""
	}
	_, raw, err := storeformat.SplitTimestamped(b)
	if err != nil {
		t.Fatal(err)
	}
	return string(raw)
}

func waitGlobal(t *testing.T, ks *streams.KafkaStreams, key, want string, iso state.IsolationLevel) {
	t.Helper()
	waitGlobalWithin(t, ks, key, want, iso, 30*time.Second)
}

func waitGlobalWithin(t *testing.T, ks *streams.KafkaStreams, key, want string, iso state.IsolationLevel, d time.Duration) {
	t.Helper()
	deadline := time.Now().Add(d)
	for globalValue(t, ks, key, iso) != want {
		if time.Now().After(deadline) {
			t.Fatalf("global store %s = %q at %s, want %q", key, globalValue(t, ks, key, iso), iso, want)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestKfakeGlobalTableRestoresThenUpdatesAndRestartsFromStoredOffsets: the
// global thread restores the whole topic (both partitions) before the
// stream thread joins anything, keeps the table up to date after, keeps
// its state under <state.dir>/<app>/global with the topic offsets in the
// store, and on restart reads only what was written since.
func TestKfakeGlobalTableRestoresThenUpdatesAndRestartsFromStoredOffsets(t *testing.T) {
	_, addr := startBroker(t)
	createTopics(t, addr, 2, "g", "s", "out")
	var recs []testkafka.Record
	for _, kv := range [][2]string{{"a", "A"}, {"b", "B"}, {"c", "C"}, {"d", "D"}, {"a", "A1"}} {
		recs = append(recs, testkafka.Record{Topic: "g", Partition: testkafka.AnyPartition, Key: []byte(kv[0]), Value: []byte(kv[1])})
	}
	testkafka.Produce(t, addr, recs...)
	dir := t.TempDir()
	topo := globalJoinTopology(t, "g", "s", "out")
	hooks := &globalHooks{starts: map[int32]int64{}}
	ks := startApp(t, topo, appConfig(t, addr, "global-app", dir), streams.WithHooks(hooks))
	if hooks.restored != 5 || !hooks.full {
		t.Errorf("first start restored %d records (full %v), want all 5 in full", hooks.restored, hooks.full)
	}
	// Restored before the stream thread ran: the first stream records
	// already see every row.
	testkafka.Produce(t, addr, testkafka.Record{Topic: "s", Partition: testkafka.AnyPartition, Key: []byte("1"), Value: []byte("a")},
		testkafka.Record{Topic: "s", Partition: testkafka.AnyPartition, Key: []byte("2"), Value: []byte("d")},
		testkafka.Record{Topic: "s", Partition: testkafka.AnyPartition, Key: []byte("3"), Value: []byte("z")})
	// Updated after: a new value and a tombstone, visible to the stream
	// thread once the global thread applied them.
	testkafka.Produce(t, addr, testkafka.Record{Topic: "g", Partition: testkafka.AnyPartition, Key: []byte("b"), Value: []byte("B2")},
		testkafka.Record{Topic: "g", Partition: testkafka.AnyPartition, Key: []byte("c"), Value: nil})
	waitGlobal(t, ks, "b", "B2", state.ReadUncommitted)
	waitGlobal(t, ks, "c", "", state.ReadUncommitted)
	waitGlobal(t, ks, "b", "B2", state.ReadCommitted) // committed within commit.interval.ms
	testkafka.Produce(t, addr, testkafka.Record{Topic: "s", Partition: testkafka.AnyPartition, Key: []byte("4"), Value: []byte("b")},
		testkafka.Record{Topic: "s", Partition: testkafka.AnyPartition, Key: []byte("5"), Value: []byte("c")})
	got, err := testkafka.ReadCommitted(addr, "out", 5, time.Minute, 500*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"1": "a=A1", "2": "d=D", "3": "z=null", "4": "b=B2", "5": "c=null"}
	if len(got) != len(want) {
		t.Fatalf("output %+v, want %v", got, want)
	}
	for _, r := range got {
		if want[string(r.Key)] != string(r.Value) {
			t.Errorf("output %s = %s, want %s", r.Key, r.Value, want[string(r.Key)])
		}
	}
	closeApp(t, ks)

	if _, err := os.Stat(filepath.Join(dir, "global-app", "global", "rocksdb", "g-store")); err != nil {
		t.Errorf("global store files: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "global-app", "global", ".checkpoint")); err == nil {
		t.Errorf("a .checkpoint file was written; offsets belong in the store")
	}
	topics, err := testkafka.Admin(t, addr).ListTopics(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range topics.Names() {
		if strings.HasPrefix(name, "global-app-") {
			t.Errorf("internal topic %s created; a global table has no changelog", name)
		}
	}

	// One more row while stopped: the restart reads it alone.
	testkafka.Produce(t, addr, testkafka.Record{Topic: "g", Partition: testkafka.AnyPartition, Key: []byte("e"), Value: []byte("E")})
	hooks2 := &globalHooks{starts: map[int32]int64{}}
	ks = startApp(t, topo, appConfig(t, addr, "global-app", dir), streams.WithHooks(hooks2))
	if hooks2.full || hooks2.restored != 1 {
		t.Errorf("restart restored %d records (full %v), want the 1 new record from the stored offsets", hooks2.restored, hooks2.full)
	}
	for p, start := range hooks2.starts {
		if start == 0 {
			t.Errorf("restart restored partition %d from offset 0, not from its stored offset", p)
		}
	}
	for key, v := range map[string]string{"a": "A1", "b": "B2", "c": "", "d": "D", "e": "E"} {
		if got := globalValue(t, ks, key, state.ReadCommitted); got != v {
			t.Errorf("after restart %s = %q, want %q", key, got, v)
		}
	}
	closeApp(t, ks)
}

// upperStore is the processor of a global store: it keeps each value upper-cased.
type upperStore struct{ store *kstreams.KeyValueStore }

func (p *upperStore) Init(ctx kstreams.ProcessorContext) error {
	s, err := ctx.StateStore("upper")
	if err != nil {
		return err
	}
	p.store = s.(*kstreams.KeyValueStore)
	return nil
}

func (p *upperStore) Process(r kstreams.Record) error {
	if r.Value == nil {
		return p.store.Delete(r.Key)
	}
	return p.store.Put(r.Key, strings.ToUpper(r.Value.(string)))
}

func (p *upperStore) Close() error { return nil }

// TestKfakeGlobalStoreFedByProcessor: AddGlobalStore's processor writes the
// store during restore and after, and a stream task reads it by name.
func TestKfakeGlobalStoreFedByProcessor(t *testing.T) {
	_, addr := startBroker(t)
	createTopics(t, addr, 1, "gp", "sp", "outp")
	testkafka.Produce(t, addr, testkafka.Record{Topic: "gp", Partition: 0, Key: []byte("a"), Value: []byte("alpha")})
	b := kstreams.NewStreamsBuilder()
	str := kstreams.ConsumedWith[string, string](serde.String{}, serde.String{})
	kstreams.AddGlobalStore(b, kstreams.KeyValueStoreBuilder[string, string]("upper", serde.String{}, serde.String{}), "gp", str,
		func() kstreams.Processor { return &upperStore{} })
	s := kstreams.Stream(b, []string{"sp"}, str)
	kstreams.Process[string, string](s, func() kstreams.Processor { return &lookup{} }, "lookup").
		To("outp", kstreams.ProducedWith[string, string](serde.String{}, serde.String{}))
	topo, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	ks := startApp(t, topo, appConfig(t, addr, "global-store-app", t.TempDir()))
	testkafka.Produce(t, addr, testkafka.Record{Topic: "sp", Partition: 0, Key: []byte("1"), Value: []byte("a")})
	testkafka.Produce(t, addr, testkafka.Record{Topic: "gp", Partition: 0, Key: []byte("b"), Value: []byte("beta")})
	deadline := time.Now().Add(30 * time.Second)
	for {
		b, err := ks.LocalStores("upper")[0].Store.(state.KeyValueStore).ReadOnly(state.ReadUncommitted).Get([]byte("b"))
		if err != nil {
			t.Fatal(err)
		}
		if string(b) == "BETA" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("global store b = %q, want BETA", b)
		}
		time.Sleep(20 * time.Millisecond)
	}
	testkafka.Produce(t, addr, testkafka.Record{Topic: "sp", Partition: 0, Key: []byte("2"), Value: []byte("b")})
	got, err := testkafka.ReadCommitted(addr, "outp", 2, time.Minute, 500*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || string(got[0].Value) != "ALPHA" || string(got[1].Value) != "BETA" {
		t.Errorf("output %+v, want ALPHA then BETA", got)
	}
	closeApp(t, ks)
}

// lookup replaces each value by the global store's value under it.
type lookup struct {
	ctx   kstreams.ProcessorContext
	store *kstreams.KeyValueStore
}

func (p *lookup) Init(ctx kstreams.ProcessorContext) error {
	s, err := ctx.StateStore("upper")
	if err != nil {
		return err
	}
	p.ctx, p.store = ctx, s.(*kstreams.KeyValueStore)
	return nil
}

func (p *lookup) Process(r kstreams.Record) error {
	v, _, err := p.store.Get(r.Value)
	if err != nil {
		return err
	}
	r.Value = v
	return p.ctx.Forward(r)
}

func (p *lookup) Close() error { return nil }

// TestKfakeGlobalStoreIsolationAndUncommittedBudget: with commits every eight
// seconds, an update the global thread applied is in the overlay only:
// READ_UNCOMMITTED sees it, READ_COMMITTED still sees the restored row. An
// update larger than the global thread's share of
// statestore.uncommitted.max.bytes (200 / (1 stream thread + 1) = 100
// bytes) makes it commit at once. sidecar/internal/httpapi's
// TestKfakeHTTPGlobalStoreAtBothIsolations checks the same through the
// HTTP routes.
func TestKfakeGlobalStoreIsolationAndUncommittedBudget(t *testing.T) {
	_, addr := startBroker(t)
	createTopics(t, addr, 2, "g", "s", "out")
	testkafka.Produce(t, addr, testkafka.Record{Topic: "g", Partition: testkafka.AnyPartition, Key: []byte("b"), Value: []byte("B")})
	topo := globalJoinTopology(t, "g", "s", "out")
	ks := startApp(t, topo, appConfig(t, addr, "global-iso", t.TempDir(),
		"commit.interval.ms=8000", "statestore.uncommitted.max.bytes=200"))

	testkafka.Produce(t, addr, testkafka.Record{Topic: "g", Partition: testkafka.AnyPartition, Key: []byte("b"), Value: []byte("B2")})
	waitGlobal(t, ks, "b", "B2", state.ReadUncommitted)
	if got := globalValue(t, ks, "b", state.ReadCommitted); got != "B" {
		t.Errorf("READ_COMMITTED b = %q before the global thread committed, want the restored B", got)
	}

	big := strings.Repeat("x", 300)
	testkafka.Produce(t, addr, testkafka.Record{Topic: "g", Partition: testkafka.AnyPartition, Key: []byte("c"), Value: []byte(big)})
	// Committed for the budget, well before commit.interval.ms.
	waitGlobalWithin(t, ks, "c", big, state.ReadCommitted, 3*time.Second)
	if got := globalValue(t, ks, "b", state.ReadCommitted); got != "B2" {
		t.Errorf("READ_COMMITTED b = %q after the budget commit, want B2", got)
	}
	closeApp(t, ks)
}

// dropHooks counts the records skipped, by reason.
type dropHooks struct {
	streams.NoHooks
	mu      sync.Mutex
	dropped map[string]int
}

func (h *dropHooks) OnDroppedRecord(_ kstreams.TaskID, _, reason string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.dropped[reason]++
}

// longStore keeps the global topic's Long values.
type longStore struct{ store *kstreams.KeyValueStore }

func (p *longStore) Init(ctx kstreams.ProcessorContext) error {
	s, err := ctx.StateStore("longs")
	if err != nil {
		return err
	}
	p.store = s.(*kstreams.KeyValueStore)
	return nil
}

func (p *longStore) Process(r kstreams.Record) error { return p.store.Put(r.Key, r.Value) }
func (p *longStore) Close() error                    { return nil }

func longGlobalTopology(t *testing.T) *kstreams.Topology {
	t.Helper()
	b := kstreams.NewStreamsBuilder()
	kstreams.AddGlobalStore(b, kstreams.KeyValueStoreBuilder[string, int64]("longs", serde.String{}, serde.Long{}), "gl",
		kstreams.ConsumedWith[string, int64](serde.String{}, serde.Long{}), func() kstreams.Processor { return &longStore{} })
	kstreams.Stream(b, []string{"sl"}, kstreams.ConsumedWith[string, string](serde.String{}, serde.String{})).To("outl")
	topo, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return topo
}

// TestKfakeGlobalRecordFailingToDeserialize: a global topic record whose
// value is no Long goes through deserialization.exception.handler, during
// restore and after: LogAndContinue skips and counts it; LogAndFail stops
// the start (restore) or the instance (update) with an error naming it.
func TestKfakeGlobalRecordFailingToDeserialize(t *testing.T) {
	_, addr := startBroker(t)
	createTopics(t, addr, 1, "gl", "sl", "outl")
	eight := []byte{0, 0, 0, 0, 0, 0, 0, 8}
	testkafka.Produce(t, addr, testkafka.Record{Topic: "gl", Partition: 0, Key: []byte("a"), Value: eight},
		testkafka.Record{Topic: "gl", Partition: 0, Key: []byte("bad"), Value: []byte("xyz")})
	topo := longGlobalTopology(t)

	hooks := &dropHooks{dropped: map[string]int{}}
	ks := startApp(t, topo, appConfig(t, addr, "global-deser", t.TempDir(),
		"deserialization.exception.handler=org.apache.kafka.streams.errors.LogAndContinueExceptionHandler"), streams.WithHooks(hooks))
	testkafka.Produce(t, addr, testkafka.Record{Topic: "gl", Partition: 0, Key: []byte("bad2"), Value: []byte("no")},
		testkafka.Record{Topic: "gl", Partition: 0, Key: []byte("c"), Value: eight})
	deadline := time.Now().Add(30 * time.Second)
	for {
		v, err := ks.LocalStores("longs")[0].Store.(state.KeyValueStore).ReadOnly(state.ReadUncommitted).Get([]byte("c"))
		if err != nil {
			t.Fatal(err)
		}
		if v != nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the record after the bad one never reached the global store")
		}
		time.Sleep(20 * time.Millisecond)
	}
	hooks.mu.Lock()
	if n := hooks.dropped["deserialization-error"]; n != 2 {
		t.Errorf("%d records skipped for deserialization, want 2 (one restored, one updated)", n)
	}
	hooks.mu.Unlock()
	closeApp(t, ks)

	// LogAndFail (the default): the restore stops the start.
	cfg := appConfig(t, addr, "global-deser-fail", t.TempDir())
	ks2, err := streams.New(topo, cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	err = ks2.Start(ctx)
	if err == nil || !strings.Contains(err.Error(), "gl-0@1") || !strings.Contains(err.Error(), "deserialization") {
		t.Errorf("Start = %v, want the deserialization failure of gl-0@1", err)
	}
	_ = ks2.Close(ctx)
}

// TestKfakeGlobalTableRestoresInBatches: a restore of more records than one
// write batch holds ends with every row and the topic's last offset in the
// store.
func TestKfakeGlobalTableRestoresInBatches(t *testing.T) {
	_, addr := startBroker(t)
	createTopics(t, addr, 1, "g", "s", "out")
	const n = 9000
	recs := make([]testkafka.Record, 0, n)
	for i := 0; i < n; i++ {
		recs = append(recs, testkafka.Record{Topic: "g", Partition: 0, Key: []byte(fmt.Sprint("k", i%5000)), Value: []byte(fmt.Sprint("v", i))})
	}
	testkafka.Produce(t, addr, recs...)
	hooks := &globalHooks{starts: map[int32]int64{}}
	dir := t.TempDir()
	topo := globalJoinTopology(t, "g", "s", "out")
	ks := startApp(t, topo, appConfig(t, addr, "global-batches", dir), streams.WithHooks(hooks))
	if hooks.restored != n {
		t.Errorf("restored %d records, want %d", hooks.restored, n)
	}
	for _, i := range []int{0, 3999, 4000, 4999} {
		if got, want := globalValue(t, ks, fmt.Sprint("k", i), state.ReadCommitted), fmt.Sprint("v", i+5000*((n-1-i)/5000)); got != want {
			t.Errorf("k%d = %q, want %q", i, got, want)
		}
	}
	off, ok, err := ks.LocalStores("g-store")[0].Store.CommittedOffset(state.TopicPartition{Topic: "g", Partition: 0})
	if err != nil || !ok || off != n-1 {
		t.Errorf("store offset of g-0 = %d %v %v, want %d", off, ok, err, n-1)
	}
	closeApp(t, ks)
}

// TestKfakeGlobalStoreOlderThanLogStartRestoresInFull: records after the
// offset a stopped instance's global store holds were deleted (the log
// start moved past it), so the store is emptied and restored from the log
// start: rows of the deleted records do not survive.
func TestKfakeGlobalStoreOlderThanLogStartRestoresInFull(t *testing.T) {
	_, addr := startBroker(t)
	createTopics(t, addr, 1, "g", "s", "out")
	rec := func(k, v string) testkafka.Record {
		return testkafka.Record{Topic: "g", Partition: 0, Key: []byte(k), Value: []byte(v)}
	}
	testkafka.Produce(t, addr, rec("a", "A"), rec("b", "B"))
	dir := t.TempDir()
	topo := globalJoinTopology(t, "g", "s", "out")
	ks := startApp(t, topo, appConfig(t, addr, "global-logstart", dir))
	closeApp(t, ks) // the store holds offset 1

	testkafka.Produce(t, addr, rec("c", "C"), rec("d", "D")) // offsets 2 and 3
	adm := testkafka.Admin(t, addr)
	offs := kadm.Offsets{}
	offs.Add(kadm.Offset{Topic: "g", Partition: 0, At: 3})
	if _, err := adm.DeleteRecords(context.Background(), offs); err != nil {
		t.Fatal(err)
	}
	hooks := &globalHooks{starts: map[int32]int64{}}
	ks = startApp(t, topo, appConfig(t, addr, "global-logstart", dir), streams.WithHooks(hooks))
	if !hooks.full || hooks.starts[0] != 3 || hooks.restored != 1 {
		t.Errorf("restore full=%v from %d, %d records; want a full restore of the 1 record from the log start 3",
			hooks.full, hooks.starts[0], hooks.restored)
	}
	for key, want := range map[string]string{"a": "", "b": "", "c": "", "d": "D"} {
		if got := globalValue(t, ks, key, state.ReadCommitted); got != want {
			t.Errorf("%s = %q, want %q", key, got, want)
		}
	}
	closeApp(t, ks)
}
