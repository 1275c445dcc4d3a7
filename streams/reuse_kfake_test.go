package streams_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/internal/testkafka"
	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/serde"
	"github.com/stoatflow/stoatflow/state"
	"github.com/stoatflow/stoatflow/streams"
)

// restoreLog records the restores of one store.
type restoreLog struct {
	streams.NoHooks
	store string
	mu    sync.Mutex
	lines []string
}

func (h *restoreLog) OnRestoreStart(store string, tp state.TopicPartition, start, end int64, full bool) {
	if store != h.store {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.lines = append(h.lines, fmt.Sprintf("%s from %d to %d", tp, start, end))
}

func (h *restoreLog) OnRestoreEnd(store string, tp state.TopicPartition, total int64) {
	if store != h.store {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.lines = append(h.lines, fmt.Sprintf("%s restored %d", tp, total))
}

func (h *restoreLog) String() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return strings.Join(h.lines, "; ")
}

// reuseTopology joins the stream "in" with the table over "tbl", whose
// store is "prices".
func reuseTopology(t *testing.T) *kstreams.Topology {
	t.Helper()
	s := serde.String{}
	b := kstreams.NewStreamsBuilder()
	prices := kstreams.Table(b, "tbl", kstreams.ConsumedWith[string, string](s, s), kstreams.MaterializedAs[string, string]("prices"))
	orders := kstreams.Stream(b, []string{"in"}, kstreams.ConsumedWith[string, string](s, s))
	kstreams.StreamTableJoin(orders, prices, func(_, order, price string) string { return order + "@" + price }).
		To("out", kstreams.ProducedWith[string, string](s, s))
	topo, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return topo
}

// TestKfakeReuseSourceTopicRestoresTheTableFromIt: under
// topology.optimization=reuse.ktable.source.topics the table's store gets
// no changelog topic; on an empty state directory it is restored from its
// source topic up to the group's committed offset, not past it, and the
// table updates after that offset are processed: a join after the restart
// sees the restored rows and the new ones.
func TestKfakeReuseSourceTopicRestoresTheTableFromIt(t *testing.T) {
	_, addr := startBroker(t)
	createTopics(t, addr, 1, "tbl", "in", "out")
	rec := func(topic, k, v string) testkafka.Record {
		return testkafka.Record{Topic: topic, Partition: 0, Key: []byte(k), Value: []byte(v)}
	}
	run := func(hooks *restoreLog, produce func(), wantOut int) []string {
		t.Helper()
		cfg := appConfig(t, addr, "reuse", t.TempDir(), "topology.optimization=reuse.ktable.source.topics")
		ks := startApp(t, reuseTopology(t), cfg, streams.WithHooks(hooks))
		produce()
		got, err := testkafka.ReadCommitted(addr, "out", wantOut, 30*time.Second, time.Second)
		if err != nil {
			t.Fatal(err)
		}
		closeApp(t, ks)
		var out []string
		for _, r := range got {
			out = append(out, string(r.Key)+"="+string(r.Value))
		}
		return out
	}

	first := &restoreLog{store: "prices"}
	out := run(first, func() {
		testkafka.Produce(t, addr, rec("tbl", "apple", "1"), rec("tbl", "pear", "2"), rec("tbl", "apple", "3"))
		time.Sleep(2 * time.Second) // the table first, then the orders that join it
		testkafka.Produce(t, addr, rec("in", "apple", "o1"), rec("in", "pear", "o2"))
	}, 2)
	if want := []string{"apple=o1@3", "pear=o2@2"}; !slices.Equal(out, want) {
		t.Fatalf("first run: %v, want %v", out, want)
	}
	topics, err := testkafka.Admin(t, addr).ListTopics(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range topics.Names() {
		if strings.Contains(name, "prices") {
			t.Errorf("topic %s exists: the table's store should use its source topic as its changelog", name)
		}
	}

	// Written while no instance runs: past the committed offset, so the
	// restart processes it rather than restores it.
	testkafka.Produce(t, addr, rec("tbl", "plum", "4"))
	second := &restoreLog{store: "prices"}
	out = run(second, func() {
		time.Sleep(2 * time.Second)
		testkafka.Produce(t, addr, rec("in", "apple", "o3"), rec("in", "plum", "o4"), rec("in", "pear", "o5"))
	}, 5)
	if want := []string{"apple=o1@3", "pear=o2@2", "apple=o3@3", "plum=o4@4", "pear=o5@2"}; !slices.Equal(out, want) {
		t.Errorf("after the restart on an empty state directory: %v, want %v", out, want)
	}
	if got, want := second.String(), "tbl-0 from 0 to 3; tbl-0 restored 3"; got != want {
		t.Errorf("restore: %q, want %q", got, want)
	}
}
