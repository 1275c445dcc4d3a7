package streams

import (
	"io"
	"log/slog"
	"maps"
	"slices"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/stoatflow/stoatflow/compat"
	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/serde"
	"github.com/stoatflow/stoatflow/state"
)

// bpThread is a stream thread with one running task reading partition 0 of
// topics a and b (one source node, so one task holds both), whose records
// reach processed, under buffered.records.per.partition = bound and
// max.task.idle.ms = -1 (a task processes whatever it holds). Its main
// consumer connects nowhere: only its set of paused partitions is used.
func bpThread(t *testing.T, bound int) (*streamThread, *activeTask, *[]string) {
	t.Helper()
	topo := kstreams.NewTopology()
	var processed []string
	record := kstreams.ProcessorFunc(func(ctx kstreams.ProcessorContext, r kstreams.Record) error {
		processed = append(processed, string(r.Value.([]byte)))
		return nil
	})
	bytes := serde.Erase[[]byte](serde.ByteArray{})
	for _, err := range []error{
		topo.AddSource("source", kstreams.SourceOptions{KeySerde: bytes, ValueSerde: bytes}, "a", "b"),
		topo.AddProcessor("record", record.Supplier(), "source"),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	task, err := topo.NewTask(kstreams.TaskConfig{ApplicationID: "app"})
	if err != nil {
		t.Fatal(err)
	}
	if err := task.Init(); err != nil {
		t.Fatal(err)
	}
	cl, err := kgo.NewClient(kgo.SeedBrokers("127.0.0.1:1"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cl.Close)
	s := &KafkaStreams{cfg: &compat.Config{BufferedRecordsPerPartition: bound, MaxTaskIdle: -1}, hks: NoHooks{}}
	th := &streamThread{s: s, log: slog.New(slog.NewTextHandler(io.Discard, nil)), consumer: cl, budget: &state.Budget{},
		tasks: map[kstreams.TaskID]*activeTask{}, byTP: map[tpKey]*activeTask{}}
	a := &activeTask{id: kstreams.TaskID{Subtopology: 0, Partition: 0}, task: task}
	// As if its directory had been another thread's all along: closeTask
	// then needs no state directory.
	th.waiting = map[kstreams.TaskID]bool{a.id: true}
	for _, topic := range []string{"a", "b"} {
		q := &partQueue{tp: tpKey{topic, 0}, next: -1, committed: -1, startAt: -1, delivered: -1, openTxnAt: -1, partTime: -1}
		a.queues = append(a.queues, q)
		th.byTP[q.tp] = a
	}
	th.tasks[a.id] = a
	return th, a, &processed
}

// poll hands the thread a poll's records: values of partition 0 of topic,
// at the offsets that follow those it was given before, with their offset
// as timestamp (so a task takes them in offset order across topics).
func poll(t *testing.T, th *streamThread, topic string, values ...string) {
	t.Helper()
	q := th.byTP[tpKey{topic, 0}].queueFor(state.TopicPartition{Topic: topic, Partition: 0})
	p := kgo.FetchPartition{Partition: 0, HighWatermark: -1, LastStableOffset: -1}
	off := max(q.delivered, 0)
	for _, v := range values {
		p.Records = append(p.Records, &kgo.Record{Topic: topic, Partition: 0, Offset: off, Value: []byte(v),
			Timestamp: time.UnixMilli(1_000 + off)})
		off++
	}
	if _, err := th.handle(kgo.Fetches{{Topics: []kgo.FetchTopic{{Topic: topic, Partitions: []kgo.FetchPartition{p}}}}}); err != nil {
		t.Fatal(err)
	}
}

// paused is the main consumer's paused partitions, as "topic-partition".
func paused(th *streamThread) []string {
	var out []string
	for topic, ps := range th.consumer.PauseFetchPartitions(nil) {
		for _, p := range ps {
			out = append(out, topic+"-"+string(rune('0'+p)))
		}
	}
	slices.Sort(out)
	return out
}

func wantPaused(t *testing.T, th *streamThread, what string, want ...string) {
	t.Helper()
	if got := paused(th); !slices.Equal(got, want) {
		t.Fatalf("%s: paused %v, want %v", what, got, want)
	}
}

// take processes the next n records of q as the thread's process would
// (the head, then the partition's offset), without the rest of the round.
func take(t *testing.T, th *streamThread, a *activeTask, topic string, n int) {
	t.Helper()
	q := a.queueFor(state.TopicPartition{Topic: topic, Partition: 0})
	for range n {
		m := q.recs[0]
		q.recs = q.recs[1:]
		if err := th.processOne(a, q, m); err != nil {
			t.Fatal(err)
		}
	}
}

// TestBackPressurePausesAndResumesAsKafkaStreams is Kafka's
// StreamTaskTest.shouldPauseAndResumeBasedOnBufferedRecords (bound 3): a
// partition is paused once a poll leaves more than the bound in its queue
// (the bound itself is not over it), each partition on its own, and is
// resumed only before the next poll (resumeDrained, Kafka's
// resumePollingForPartitionsWithAvailableSpace) once processing has
// brought its queue to the bound or below, not only when it is empty.
func TestBackPressurePausesAndResumesAsKafkaStreams(t *testing.T) {
	th, a, processed := bpThread(t, 3)
	poll(t, th, "a", "a0", "a1", "a2")
	wantPaused(t, th, "a queue at the bound")
	poll(t, th, "b", "b0", "b1", "b2", "b3")
	wantPaused(t, th, "b over the bound", "b-0")
	take(t, th, a, "a", 1)
	poll(t, th, "a", "a3", "a4")
	wantPaused(t, th, "a over the bound after another poll", "a-0", "b-0")
	take(t, th, a, "a", 1) // a holds 3: within the bound, but resumed only before the next poll
	wantPaused(t, th, "a drained to the bound, before the next poll", "a-0", "b-0")
	th.resumeDrained()
	wantPaused(t, th, "a drained to the bound", "b-0")
	take(t, th, a, "a", 1)
	take(t, th, a, "b", 1) // b holds 3
	th.resumeDrained()
	wantPaused(t, th, "both drained")
	th.resumeDrained()
	wantPaused(t, th, "nothing more to resume")
	if err := th.process(); err != nil {
		t.Fatal(err)
	}
	want := []string{"a0", "a1", "a2", "b0", "b1", "b2", "a3", "b3", "a4"}
	if !slices.Equal(*processed, want) {
		t.Fatalf("processed %v, want %v", *processed, want)
	}
}

// TestBackPressureThroughTheLoop: a poll of more records than the bound
// pauses the partition; the thread's process round drains the task and the
// loop's resume before its next poll fetches it again.
func TestBackPressureThroughTheLoop(t *testing.T) {
	th, _, processed := bpThread(t, 2)
	poll(t, th, "a", "a0", "a1", "a2")
	poll(t, th, "b", "b0")
	wantPaused(t, th, "after the poll", "a-0")
	if err := th.process(); err != nil {
		t.Fatal(err)
	}
	th.resumeDrained()
	wantPaused(t, th, "after processing")
	if len(*processed) != 4 {
		t.Fatalf("processed %v, want 4 records", *processed)
	}
}

// TestBackPressureBoundZeroAndBelow: with a bound of 0 any buffered record
// pauses its partition until the queue is empty again; below 0, as in Kafka
// Streams (no validator, `size <= bound` never holds), draining never
// resumes it, and only a rewind of the task or its close does.
func TestBackPressureBoundZeroAndBelow(t *testing.T) {
	th, a, _ := bpThread(t, 0)
	poll(t, th, "a", "a0")
	wantPaused(t, th, "one record over bound 0", "a-0")
	th.resumeDrained()
	wantPaused(t, th, "before processing", "a-0")
	take(t, th, a, "a", 1)
	th.resumeDrained()
	wantPaused(t, th, "queue empty")

	th, a, _ = bpThread(t, -1)
	poll(t, th, "a", "a0")
	take(t, th, a, "a", 1)
	th.resumeDrained()
	wantPaused(t, th, "bound -1, queue empty", "a-0")
	th.emptied(a)
	wantPaused(t, th, "bound -1, after a rewind")
	poll(t, th, "b", "b0")
	th.closeTask(a, true)
	wantPaused(t, th, "bound -1, after the task closed")
}

// TestBackPressureAndInstancePauseKeepTheirOwn: the instance's Pause and a
// full queue pause the same partitions without lifting each other's
// pause: Resume does not fetch a partition whose queue is still full, and
// a queue drained while the instance is paused does not fetch its
// partition before Resume.
func TestBackPressureAndInstancePauseKeepTheirOwn(t *testing.T) {
	th, a, _ := bpThread(t, 1)
	poll(t, th, "a", "a0", "a1")
	wantPaused(t, th, "a full", "a-0")
	th.s.Pause()
	th.syncPause()
	wantPaused(t, th, "instance paused", "a-0", "b-0")
	th.s.Resume()
	th.syncPause()
	wantPaused(t, th, "instance resumed, a still full", "a-0")

	poll(t, th, "b", "b0", "b1")
	wantPaused(t, th, "b full too", "a-0", "b-0")
	th.s.Pause()
	th.syncPause()
	take(t, th, a, "a", 2)
	take(t, th, a, "b", 2)
	th.resumeDrained()
	wantPaused(t, th, "drained while the instance is paused", "a-0", "b-0")
	th.s.Resume()
	th.syncPause()
	wantPaused(t, th, "instance resumed, queues drained")
}

// TestBackPressureAndRestoreKeepTheirOwn: a queue drained while its task
// restores (a rewound task whose stores replay) does not fetch the
// partitions the restore paused; the restore's end fetches the
// partitions whose queues are not full, and not the others.
func TestBackPressureAndRestoreKeepTheirOwn(t *testing.T) {
	th, a, _ := bpThread(t, 1)
	poll(t, th, "a", "a0", "a1")
	poll(t, th, "b", "b0")
	th.consumer.PauseFetchPartitions(map[string][]int32{"a": {0}, "b": {0}}) // as onAssigned pauses a restoring task
	a.restoring = 1
	take(t, th, a, "a", 1)
	th.resumeDrained()
	wantPaused(t, th, "drained while restoring", "a-0", "b-0")

	poll(t, th, "a", "a2", "a3")
	if got := fetchable(a, nil); !maps.EqualFunc(got, map[string][]int32{"b": {0}}, slices.Equal) {
		t.Fatalf("the restore's end resumes %v, want b-0 only", got)
	}
	th.emptied(a) // a rewind: the restore still holds the partitions
	wantPaused(t, th, "rewound while restoring", "a-0", "b-0")
}

// TestBackPressureLiftedWhenTheTaskCloses: a task closed without a
// revocation (a lost assignment) resumes every partition it had paused,
// full queue or restore alike, so that the task that gets them next
// fetches them.
func TestBackPressureLiftedWhenTheTaskCloses(t *testing.T) {
	th, a, _ := bpThread(t, 1)
	poll(t, th, "a", "a0", "a1")
	th.consumer.PauseFetchPartitions(map[string][]int32{"b": {0}})
	wantPaused(t, th, "before the close", "a-0", "b-0")
	th.closeTask(a, true)
	wantPaused(t, th, "after the close")
}
