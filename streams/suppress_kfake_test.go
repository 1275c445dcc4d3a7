package streams_test

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/stoatflow/stoatflow/internal/testkafka"
	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/kstreamstest"
	"github.com/stoatflow/stoatflow/kstreams/serde"
	"github.com/stoatflow/stoatflow/streams"
	"github.com/stoatflow/stoatflow/txn"
)

// finalCountsTopology counts records per key in 10 ms tumbling windows
// without grace and emits each window's count once it closes, as
// "key@start".
func finalCountsTopology(t *testing.T, input, output string) *kstreams.Topology {
	t.Helper()
	b := kstreams.NewStreamsBuilder()
	events := kstreams.Stream[string, string](b, []string{input})
	counts := kstreams.WindowedBy(events.GroupByKey(), kstreams.TimeWindowsOfSizeWithNoGrace(10*time.Millisecond)).Count().
		Suppress(kstreams.UntilWindowCloses(kstreams.Unbounded()).WithName("final"))
	kstreams.Map(counts.ToStream(), func(k kstreams.Windowed[string], n int64) (string, int64) {
		return k.Key + "@" + strconv.FormatInt(k.Window.Start, 10), n
	}).To(output, kstreams.ProducedWith[string, int64](serde.String{}, serde.Long{}))
	topo, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return topo
}

type timedEvent struct {
	key string
	ts  int64
}

// finalCountsModel runs the same topology in the test driver, two
// partitions as on the broker, and returns its final counts by window.
type finalCountsModel struct {
	d    *kstreamstest.Driver
	want map[string]int64
}

func newFinalCountsModel(t *testing.T) *finalCountsModel {
	d, err := kstreamstest.New(finalCountsTopology(t, "in", "out"), kstreamstest.Config{Partitions: 2,
		DefaultKeySerde: serde.Erase[string](serde.String{}), DefaultValueSerde: serde.Erase[string](serde.String{})})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return &finalCountsModel{d: d, want: map[string]int64{}}
}

func (m *finalCountsModel) feed(t *testing.T, evs []timedEvent) {
	t.Helper()
	for _, e := range evs {
		if err := m.d.Pipe("in", []byte(e.key), []byte("x"), e.ts); err != nil {
			t.Fatal(err)
		}
	}
	for _, r := range m.d.ReadOutput("out") {
		if _, dup := m.want[string(r.Key)]; dup {
			t.Fatalf("the model emitted %s twice", r.Key)
		}
		m.want[string(r.Key)] = int64(binary.BigEndian.Uint64(r.Value))
	}
}

func produceTimed(t *testing.T, addr, topic string, evs []timedEvent) {
	t.Helper()
	p, err := kgo.NewClient(kgo.SeedBrokers(addr))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	recs := make([]*kgo.Record, len(evs))
	for i, e := range evs {
		recs[i] = &kgo.Record{Topic: topic, Key: []byte(e.key), Value: []byte("x"), Timestamp: time.UnixMilli(e.ts)}
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := p.ProduceSync(ctx, recs...).FirstErr(); err != nil {
		t.Fatal(err)
	}
}

// checkFinalCounts reads the committed output and wants every window of
// the model exactly once with its count, and nothing else.
func checkFinalCounts(t *testing.T, addr, output string, want map[string]int64) {
	t.Helper()
	recs, err := testkafka.ReadCommitted(addr, output, len(want), time.Minute, time.Second)
	if err != nil {
		t.Fatalf("reading %s: %v", output, err)
	}
	got := map[string]int64{}
	for _, r := range recs {
		k := string(r.Key)
		if _, dup := got[k]; dup {
			t.Errorf("window %s emitted twice", k)
		}
		got[k] = int64(binary.BigEndian.Uint64(r.Value))
	}
	for k, n := range want {
		if g, ok := got[k]; !ok || g != n {
			t.Errorf("window %s: count %d (emitted %v), want %d", k, g, ok, n)
		}
	}
	if len(got) != len(want) {
		t.Errorf("%d windows emitted, want %d", len(got), len(want))
	}
}

func timedEvents(from, n int, base int64) []timedEvent {
	evs := make([]timedEvent, n)
	for i := range evs {
		j := from + i
		evs[i] = timedEvent{key: fmt.Sprintf("k%d", j%5), ts: base + int64(j)*3}
	}
	return evs
}

// refuseOnceWithChangelog makes the broker refuse, once, the offsets of a
// transaction that wrote to changelog (TRANSACTION_ABORTABLE), which
// aborts that epoch. It returns how many it refused.
func refuseOnceWithChangelog(t *testing.T, c *kfake.Cluster, addr, changelog string) *atomic.Int32 {
	t.Helper()
	changelogID := topicID(t, addr, changelog)
	var inTxn atomic.Int32
	refused := &atomic.Int32{}
	c.ControlKey(kmsg.Produce.Int16(), func(req kmsg.Request) (kmsg.Response, error, bool) {
		c.KeepControl()
		r := req.(*kmsg.ProduceRequest)
		for _, tp := range r.Topics {
			if r.TransactionID != nil && (tp.Topic == changelog || tp.TopicID == changelogID) {
				inTxn.Store(1)
			}
		}
		return nil, nil, false
	})
	c.ControlKey(kmsg.EndTxn.Int16(), func(kmsg.Request) (kmsg.Response, error, bool) {
		c.KeepControl()
		inTxn.Store(0)
		return nil, nil, false
	})
	c.ControlKey(kmsg.AddOffsetsToTxn.Int16(), func(req kmsg.Request) (kmsg.Response, error, bool) {
		c.KeepControl()
		if inTxn.Load() == 0 || refused.Load() > 0 {
			return nil, nil, false
		}
		refused.Add(1)
		resp := req.ResponseKind().(*kmsg.AddOffsetsToTxnResponse)
		resp.ErrorCode = 120 // TRANSACTION_ABORTABLE
		return resp, nil, true
	})
	return refused
}

// TestKfakeSuppressExactlyOnceAcrossAbortAndRestart: final window counts
// under exactly_once_v2. An epoch that changed the suppression buffer (and
// emitted from it) aborts: the rebuilt processors reload the committed
// buffer, and no window is emitted twice or lost. The instance then stops
// and a new one starts on an empty state directory: the in-memory buffer
// comes back from its changelog, so windows buffered before the restart and
// closed after it by a jump in time are still emitted, once.
func TestKfakeSuppressExactlyOnceAcrossAbortAndRestart(t *testing.T) {
	c, addr := startBroker(t)
	createTopics(t, addr, 2, "in", "out")
	base := time.Now().Add(-time.Hour).UnixMilli() / 1000 * 1000
	model := newFinalCountsModel(t)
	hooks := newCommitHooks(t)
	ks := startApp(t, finalCountsTopology(t, "in", "out"), appConfig(t, addr, "sx", t.TempDir()), streams.WithHooks(hooks))

	first := timedEvents(0, 100, base)
	model.feed(t, first)
	produceTimed(t, addr, "in", first)
	checkFinalCounts(t, addr, "out", model.want)

	refused := refuseOnceWithChangelog(t, c, addr, "sx-final-store-changelog")
	second := timedEvents(100, 100, base)
	model.feed(t, second)
	produceTimed(t, addr, "in", second)
	waitFor(t, time.Minute, "a commit to fail", func() bool { _, failed := hooks.counts(); return len(failed) > 0 })
	if refused.Load() != 1 {
		t.Fatalf("AddOffsetsToTxn refused %d times, want 1", refused.Load())
	}
	if _, failed := hooks.counts(); !errors.Is(failed[0], txn.ErrAbortable) {
		t.Fatalf("commit error = %v, want txn.ErrAbortable", failed[0])
	}
	checkFinalCounts(t, addr, "out", model.want)
	closeApp(t, ks)

	// Far later records close every window open at the restart; only the
	// restored buffer knows their counts.
	ks = startApp(t, finalCountsTopology(t, "in", "out"), appConfig(t, addr, "sx", t.TempDir()))
	third := timedEvents(0, 50, base+10_000)
	model.feed(t, third)
	produceTimed(t, addr, "in", third)
	if len(model.want) < 60 {
		t.Fatalf("the model closed only %d windows", len(model.want))
	}
	checkFinalCounts(t, addr, "out", model.want)
	closeApp(t, ks)
}
