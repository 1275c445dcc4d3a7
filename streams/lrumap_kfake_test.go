package streams_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/internal/testkafka"
	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/serde"
	"github.com/stoatflow/stoatflow/streams"
	"github.com/stoatflow/stoatflow/txn"
)

// lruTopology keeps an LRU map of three entries (Stores.lruMap, store
// "recent"): a record's value "get" reads its key, anything else is put
// under it. Each record forwards what it read ("ok" for a put) and the
// store's entries: "result|k=v,...".
func lruTopology(t *testing.T, input, output string) *kstreams.Topology {
	t.Helper()
	s := serde.String{}
	proc := kstreams.ProcessorFunc(func(ctx kstreams.ProcessorContext, r kstreams.Record) error {
		st, err := ctx.StateStore("recent")
		if err != nil {
			return err
		}
		kv := st.(*kstreams.KeyValueStore)
		res := "ok"
		if r.Value == "get" {
			v, ok, err := kv.Get(r.Key)
			if err != nil {
				return err
			}
			res = fmt.Sprint(v)
			if !ok {
				res = "null"
			}
		} else if err := kv.Put(r.Key, r.Value); err != nil {
			return err
		}
		it, err := kv.All()
		if err != nil {
			return err
		}
		defer it.Close()
		var es []string
		for it.Next() {
			es = append(es, fmt.Sprintf("%v=%v", it.Entry().Key, it.Entry().Value))
		}
		if err := it.Err(); err != nil {
			return err
		}
		return ctx.Forward(kstreams.Record{Key: r.Key, Value: res + "|" + strings.Join(es, ","), Timestamp: r.Timestamp})
	})
	topo := kstreams.NewTopology()
	if err := errors.Join(topo.AddSource("source", kstreams.SourceSerdes[string, string](s, s), input),
		topo.AddProcessor("proc", proc.Supplier(), "source"),
		topo.AddStateStore(kstreams.KeyValueStoreBuilder[string, string]("recent", s, s).InMemoryLRU(3), "proc"),
		topo.AddSink("sink", output, kstreams.SinkSerdes[string, string](s, s), "proc")); err != nil {
		t.Fatal(err)
	}
	return topo
}

// TestKfakeLRUMapOrderAfterAbortAndRestore: under exactly_once_v2 an
// aborted epoch leaves an LRU map ordered by the last committed write of
// each key, not by the reads before it, as Kafka Streams' map is once it
// has been wiped and restored from the changelog; a new instance restores
// that order from the changelog too. The order shows in which key the next
// put evicts.
//
// First a, b and c are put and a is read, all committed: the running store
// would evict b next. Then the broker refuses the offsets of the epoch that
// puts d (TRANSACTION_ABORTABLE): the epoch aborts and is processed again
// from the committed state, where a, written first, is the eldest, so d
// evicts a. b is read after d. A new instance on an empty state directory
// restores b, c, d in the order of their writes, so e evicts b, though
// the first instance had just read it.
func TestKfakeLRUMapOrderAfterAbortAndRestore(t *testing.T) {
	c, addr := startBroker(t)
	createTopics(t, addr, 1, "in", "out")
	hooks := newCommitHooks(t)
	ks := startApp(t, lruTopology(t, "in", "out"), appConfig(t, addr, "lru", t.TempDir()), streams.WithHooks(hooks))
	base := time.Now().Add(-time.Minute)
	produce := func(kvs ...string) {
		t.Helper()
		for i := 0; i < len(kvs); i += 2 {
			base = base.Add(time.Millisecond)
			testkafka.Produce(t, addr, testkafka.Record{Topic: "in", Partition: 0, Key: []byte(kvs[i]), Value: []byte(kvs[i+1]), Timestamp: base})
		}
	}
	expect := func(want ...string) {
		t.Helper()
		got, err := testkafka.ReadCommitted(addr, "out", len(want), time.Minute, time.Second)
		if err != nil {
			t.Fatal(err)
		}
		var vals []string
		for _, r := range got {
			vals = append(vals, string(r.Key)+":"+string(r.Value))
		}
		if strings.Join(vals, "\n") != strings.Join(want, "\n") {
			t.Fatalf("output:\n%s\nwant:\n%s", strings.Join(vals, "\n"), strings.Join(want, "\n"))
		}
	}
	produce("a", "1", "b", "2", "c", "3", "a", "get")
	phase1 := []string{"a:ok|a=1", "b:ok|a=1,b=2", "c:ok|a=1,b=2,c=3", "a:1|a=1,b=2,c=3"}
	expect(phase1...)

	refused := refuseOnceWithChangelog(t, c, addr, "lru-recent-changelog")
	produce("d", "4", "b", "get")
	waitFor(t, time.Minute, "a commit to fail", func() bool { _, failed := hooks.counts(); return len(failed) > 0 })
	if refused.Load() != 1 {
		t.Fatalf("AddOffsetsToTxn refused %d times, want 1", refused.Load())
	}
	if _, failed := hooks.counts(); !errors.Is(failed[0], txn.ErrAbortable) {
		t.Fatalf("commit error = %v, want txn.ErrAbortable", failed[0])
	}
	phase2 := append(phase1, "d:ok|b=2,c=3,d=4", "b:2|b=2,c=3,d=4")
	expect(phase2...)
	if ks.State() != streams.Running {
		t.Fatalf("instance in state %s after the aborted epoch, want RUNNING", ks.State())
	}
	closeApp(t, ks)

	ks = startApp(t, lruTopology(t, "in", "out"), appConfig(t, addr, "lru", t.TempDir()))
	produce("e", "5")
	expect(append(phase2, "e:ok|c=3,d=4,e=5")...)
	closeApp(t, ks)

	log, err := testkafka.ReadCommitted(addr, "lru-recent-changelog", 7, 30*time.Second, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	var recs []string
	for _, r := range log {
		v := "null"
		if r.Value != nil {
			v = string(r.Value)
		}
		recs = append(recs, string(r.Key)+"="+v)
	}
	if got, want := strings.Join(recs, " "), "a=1 b=2 c=3 a=null d=4 b=null e=5"; got != want {
		t.Errorf("changelog %s, want %s", got, want)
	}
}
