package streams_test

import (
	"fmt"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/internal/testkafka"
	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/streams"
)

// pollWatch records how many records the main consumer delivered before
// the thread first processed any.
type pollWatch struct {
	streams.NoHooks
	mu struct {
		sync.Mutex
		polled, beforeProcess int
		processed             bool
	}
}

func (w *pollWatch) OnPoll(_ int, n int, _ time.Duration) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.mu.polled += n
	if !w.mu.processed {
		w.mu.beforeProcess = w.mu.polled
	}
}

func (w *pollWatch) OnProcess(int, kstreams.TaskID, int, time.Duration) {
	w.mu.Lock()
	w.mu.processed = true
	w.mu.Unlock()
}
func (*pollWatch) OnRecordsLag(int, string, int32, int64) {}
func (*pollWatch) OnRebalance(int)                        {}
func (*pollWatch) OnTaskOpened(int, kstreams.TaskID)      {}

// twoTopicTopology reads topics hot and cold in one source node, so that
// partition p of both is one task, and forwards every record to out.
func twoTopicTopology(t *testing.T) *kstreams.Topology {
	t.Helper()
	topo := kstreams.NewTopology()
	forward := kstreams.ProcessorFunc(func(ctx kstreams.ProcessorContext, r kstreams.Record) error { return ctx.Forward(r) })
	for _, err := range []error{
		topo.AddSource("source", kstreams.SourceOptions{}, "hot", "cold"),
		topo.AddProcessor("forward", forward.Supplier(), "source"),
		topo.AddSink("sink", "out", kstreams.SinkOptions{}, "forward"),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	return topo
}

// TestKfakeBackPressureBoundsAWaitingTaskQueue: a task that waits for its
// empty partition (max.task.idle.ms) keeps polling its full one. With
// buffered.records.per.partition the full partition stops being fetched
// once a poll leaves more than the bound in its queue, so the thread holds
// at most the bound plus one poll (max.poll.records) of it until the task
// processes, instead of the whole backlog; once processing drains the
// queue, the partition is fetched again and every record comes out, in
// order.
func TestKfakeBackPressureBoundsAWaitingTaskQueue(t *testing.T) {
	const (
		backlog  = 1500
		bound    = 100
		maxPoll  = 200
		idleWait = 500 * time.Millisecond
	)
	_, addr := startBroker(t)
	createTopics(t, addr, 1, "hot", "cold", "out")
	recs := make([]testkafka.Record, backlog)
	for i := range recs {
		recs[i] = testkafka.Record{Topic: "hot", Key: []byte("k"), Value: []byte(strconv.Itoa(i))}
	}
	testkafka.Produce(t, addr, recs...)
	watch := &pollWatch{}
	cfg := appConfig(t, addr, "backpressure", t.TempDir(), "buffered.records.per.partition="+strconv.Itoa(bound),
		"max.poll.records="+strconv.Itoa(maxPoll), fmt.Sprintf("max.task.idle.ms=%d", idleWait.Milliseconds()))
	ks := startApp(t, twoTopicTopology(t), cfg, streams.WithHooks(watch))
	got, err := testkafka.ReadCommitted(addr, "out", backlog, time.Minute, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range got {
		if string(r.Value) != strconv.Itoa(i) {
			t.Fatalf("output %d is %q, want %d", i, r.Value, i)
		}
	}
	closeApp(t, ks)
	watch.mu.Lock()
	defer watch.mu.Unlock()
	if !watch.mu.processed || watch.mu.beforeProcess > bound+maxPoll {
		t.Fatalf("%d records polled before the task first processed, want at most %d (buffered.records.per.partition + max.poll.records)",
			watch.mu.beforeProcess, bound+maxPoll)
	}
	t.Logf("%d of %d records polled before the task first processed", watch.mu.beforeProcess, backlog)
}
