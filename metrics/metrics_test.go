package metrics

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/prometheus/common/expfmt"

	"github.com/stoatflow/stoatflow/compat"
	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/state"
	"github.com/stoatflow/stoatflow/streams"
	"github.com/stoatflow/stoatflow/txn"
)

func scrape(t *testing.T, r *Registry) map[string]float64 {
	t.Helper()
	var buf bytes.Buffer
	r.WritePrometheus(&buf)
	var p expfmt.TextParser
	fams, err := p.TextToMetricFamilies(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatalf("not Prometheus text: %v\n%s", err, buf.String())
	}
	out := map[string]float64{}
	for name, f := range fams {
		for _, m := range f.GetMetric() {
			key := name
			for _, l := range m.GetLabel() {
				key += "," + l.GetName() + "=" + l.GetValue()
			}
			switch {
			case m.Gauge != nil:
				out[key] = m.GetGauge().GetValue()
			case m.Counter != nil:
				out[key] = m.GetCounter().GetValue()
			case m.Histogram != nil:
				out[key+",count"] = float64(m.GetHistogram().GetSampleCount())
			case m.Untyped != nil:
				out[key] = m.GetUntyped().GetValue()
			}
		}
	}
	return out
}

// config loads an application's configuration with the given settings.
func config(t testing.TB, sets ...string) *compat.Config {
	t.Helper()
	cfg, diags := compat.LoadFiles(nil, append([]string{"application.id=app", "bootstrap.servers=127.0.0.1:9092"}, sets...), nil)
	if err := diags.Err(); err != nil {
		t.Fatal(err)
	}
	return cfg
}

// debug is a configuration recording Kafka Streams' DEBUG metrics.
func debug(t testing.TB) *compat.Config { return config(t, "metrics.recording.level=DEBUG") }

func TestUncommittedBytesGauges(t *testing.T) {
	r := New(Options{})
	task := kstreams.TaskID{Subtopology: 1, Partition: 2}
	r.OnStoreUncommittedBytes(task, "counts", 100)
	r.OnStoreUncommittedBytes(task, "counts", 40)
	r.OnStoreUncommittedBytes(kstreams.TaskID{Subtopology: 1, Partition: 3}, `we"ird\store`, 7)
	r.OnThreadUncommittedBytes(1, 40)
	r.OnThreadUncommittedBytes(2, 7)
	got := scrape(t, r)
	for k, want := range map[string]float64{
		"stoatflow_store_uncommitted_bytes,store=counts,task=1_2":       40,
		`stoatflow_store_uncommitted_bytes,store=we"ird\store,task=1_3`: 7,
		"stoatflow_barrier_epoch_uncommitted_bytes":                     47,
	} {
		if got[k] != want {
			t.Errorf("%s = %v, want %v", k, got[k], want)
		}
	}
}

func TestCommitRestoreAndDropMetrics(t *testing.T) {
	r := New(Options{ThreadID: func(n int) string { return "app-1-StreamThread-" + string(rune('0'+n)) },
		StoreSubtopology: map[string]int{"counts": 1}, Config: debug(t)})
	before := scrape(t, r)
	for _, k := range []string{"stoatflow_barrier_completed_total", "stoatflow_barrier_trigger_total,trigger=MEMORY_PRESSURE",
		"stoatflow_restoration_in_progress", "stoatflow_barrier_epoch_uncommitted_bytes"} {
		if _, ok := before[k]; !ok {
			t.Errorf("%s missing before any event", k)
		}
	}
	r.OnCommit(1, txn.CommitStats{Trigger: txn.TriggerTime, KafkaCommit: 4 * time.Millisecond, StoreCommit: 2 * time.Millisecond}, nil)
	r.OnCommit(1, txn.CommitStats{Trigger: txn.TriggerMemoryPressure}, errors.New("boom"))
	tp := state.TopicPartition{Topic: "app-counts-changelog", Partition: 3}
	r.OnRestoreStart("counts", tp, 10, 110, false)
	r.OnRestoreBatch("counts", tp, 60)
	mid := scrape(t, r)
	r.OnRestoreBatch("counts", tp, 40)
	r.OnRestoreEnd("counts", tp, 100)
	r.OnDroppedRecord(kstreams.TaskID{Subtopology: 0, Partition: 1}, "", "deserialization-error")
	// A record dropped for a negative extracted timestamp counts in the
	// task's dropped-records, as Kafka Streams' RecordQueue records it.
	r.OnDroppedRecord(kstreams.TaskID{Subtopology: 0, Partition: 1}, "KSTREAM-SOURCE-0000000000", kstreams.DroppedNegativeTimestamp)
	r.SetClientState(streams.Running)
	r.SetProcess("app-1", "pid-1")
	r.SetProcess("app-2", "pid-2")
	got := scrape(t, r)
	for k, want := range map[string]float64{
		"stoatflow_barrier_completed_total":                                                     1,
		"stoatflow_barrier_failed_total":                                                        1,
		"stoatflow_barrier_commit_latency,count":                                                1,
		"stoatflow_barrier_trigger_total,trigger=TIME":                                          1,
		"stoatflow_barrier_trigger_total,trigger=MEMORY_PRESSURE":                               1,
		"kafka_streams_stream_thread_metrics_commit_total,thread_id=app-1-StreamThread-1":       1,
		"kafka_streams_stream_thread_metrics_commit_latency_avg,thread_id=app-1-StreamThread-1": 6,
		"stoatflow_restoration_records_restored_total,store=counts":                             100,
		"kafka_streams_stream_task_metrics_restore_total,task_id=1_3":                           100,
		"kafka_streams_stream_task_metrics_restore_remaining_records_total,task_id=1_3":         0,
		"stoatflow_restoration_in_progress":                                                     0,
		"stoatflow_dropped_records_total,reason=deserialization-error":                          1,
		"stoatflow_dropped_records_total,reason=negative-timestamp":                             1,
		"kafka_streams_stream_task_metrics_dropped_records_total,task_id=0_1":                   2,
		"kafka_streams_stream_metrics_client_state,client_id=app-1,process_id=pid-1":            2,
	} {
		if v, ok := got[k]; !ok || v != want {
			t.Errorf("%s = %v (present %v), want %v", k, v, ok, want)
		}
	}
	if mid["kafka_streams_stream_task_metrics_restore_remaining_records_total,task_id=1_3"] != 40 || mid["stoatflow_restoration_in_progress"] != 1 {
		t.Errorf("mid-restore: remaining %v, in progress %v", mid["kafka_streams_stream_task_metrics_restore_remaining_records_total,task_id=1_3"],
			mid["stoatflow_restoration_in_progress"])
	}
	if rate := got["kafka_streams_stream_thread_metrics_commit_rate,thread_id=app-1-StreamThread-1"]; rate <= 0 || rate > 1 {
		t.Errorf("commit rate %v", rate)
	}
}

func TestActivityHooksFeedKafkaNames(t *testing.T) {
	r := New(Options{Config: debug(t)})
	var h any = r
	rh := h.(streams.ActivityHooks)
	rh.OnPoll(1, 10, 2*time.Millisecond)
	rh.OnProcess(1, kstreams.TaskID{Subtopology: 0, Partition: 0}, 4, 8*time.Millisecond)
	rh.OnRecordsLag(1, "in", 0, 12)
	rh.OnRebalance(1)
	got := scrape(t, r)
	for k, want := range map[string]float64{
		"kafka_streams_stream_thread_metrics_poll_total,thread_id=StreamThread-1":                       1,
		"kafka_streams_stream_thread_metrics_poll_records_avg,thread_id=StreamThread-1":                 10,
		"kafka_streams_stream_thread_metrics_process_total,thread_id=StreamThread-1":                    4,
		"kafka_streams_stream_thread_metrics_process_latency_avg,thread_id=StreamThread-1":              2,
		"kafka_streams_stream_task_metrics_process_total,task_id=0_0":                                   4,
		"stoatflow_consumer_lag_records,topic=in,partition=0":                                           12,
		"kafka_consumer_consumer_coordinator_metrics_rebalance_total,client_id=StreamThread-1-consumer": 1,
	} {
		if got[k] != want {
			t.Errorf("%s = %v, want %v", k, got[k], want)
		}
	}
}

// TestTaskMetricsCarryTheThreadThatRunsTheTask: task metrics are labelled
// with the thread that opened the task, as Kafka's stream-task-metrics carry
// thread-id; a task that moves starts afresh under its new thread, and one
// reopened by the same thread keeps its counts.
func TestTaskMetricsCarryTheThreadThatRunsTheTask(t *testing.T) {
	r := New(Options{ThreadID: func(n int) string { return fmt.Sprintf("app-StreamThread-%d", n) }, Config: debug(t)})
	task := kstreams.TaskID{Subtopology: 0, Partition: 2}
	series := func(thread int) string {
		return fmt.Sprintf("kafka_streams_stream_task_metrics_process_total,thread_id=app-StreamThread-%d,task_id=0_2", thread)
	}
	r.OnTaskOpened(1, task)
	r.OnProcess(1, task, 4, time.Millisecond)
	if got := scrape(t, r); got[series(1)] != 4 {
		t.Fatalf("after processing on thread 1: %v", got)
	}
	r.OnTaskOpened(2, task)
	r.OnProcess(2, task, 3, time.Millisecond)
	r.OnTaskOpened(2, task)
	r.OnProcess(2, task, 1, time.Millisecond)
	got := scrape(t, r)
	if _, ok := got[series(1)]; ok {
		t.Errorf("the task's series under thread 1 is still exported after it moved to thread 2")
	}
	if got[series(2)] != 4 {
		t.Errorf("%s = %v, want 4 (3 after the move, 1 after reopening on the same thread)", series(2), got[series(2)])
	}
}

func BenchmarkOnStoreUncommittedBytes(b *testing.B) {
	r := New(Options{})
	task := kstreams.TaskID{Subtopology: 1, Partition: 7}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		r.OnStoreUncommittedBytes(task, "counts", int64(i))
	}
}

// TestStandbyMetrics: a standby task's updates are Kafka's update-total
// and update-rate under the thread that runs it, its lag the sum over its
// stores; the lag goes when the standby closes, the counts stay.
func TestStandbyMetrics(t *testing.T) {
	r := New(Options{ThreadID: func(n int) string { return fmt.Sprintf("app-StreamThread-%d", n) }, Config: debug(t)})
	var h any = r
	sh := h.(streams.StandbyHooks)
	task := kstreams.TaskID{Subtopology: 1, Partition: 0}
	sh.OnStandbyUpdate(2, task, "counts", 0, 500)
	sh.OnStandbyUpdate(2, task, "other", 0, 20)
	sh.OnStandbyUpdate(2, task, "counts", 300, 200)
	got := scrape(t, r)
	for k, want := range map[string]float64{
		"kafka_streams_stream_task_metrics_update_total,thread_id=app-StreamThread-2,task_id=1_0": 300,
		"stoatflow_standby_lag_records,task=1_0":                                                  220,
	} {
		if v, ok := got[k]; !ok || v != want {
			t.Errorf("%s = %v (present %v), want %v", k, v, ok, want)
		}
	}
	if rate := got["kafka_streams_stream_task_metrics_update_rate,thread_id=app-StreamThread-2,task_id=1_0"]; rate <= 0 {
		t.Errorf("update rate %v, want > 0", rate)
	}
	sh.OnStandbyClosed(2, task)
	got = scrape(t, r)
	if _, ok := got["stoatflow_standby_lag_records,task=1_0"]; ok {
		t.Errorf("the lag of a closed standby is still exported")
	}
	if v := got["kafka_streams_stream_task_metrics_update_total,thread_id=app-StreamThread-2,task_id=1_0"]; v != 300 {
		t.Errorf("update_total after close = %v, want 300", v)
	}
	sh.OnStandbyUpdate(2, task, "counts", 5, 0)
	if v := scrape(t, r)["stoatflow_standby_lag_records,task=1_0"]; v != 0 {
		t.Errorf("lag of the reopened standby = %v, want 0", v)
	}
}

// TestDroppedRecordsTotalIsPresentFromTheStart: docs/metrics.md lists
// stoatflow_dropped_records_total among the application-level metrics,
// which read 0 before the first event: one series per runtime drop reason.
func TestDroppedRecordsTotalIsPresentFromTheStart(t *testing.T) {
	got := scrape(t, New(Options{}))
	for _, reason := range []string{"deserialization-error", "processing-error", "negative-timestamp", "production-error"} {
		key := "stoatflow_dropped_records_total,reason=" + reason
		if v, ok := got[key]; !ok || v != 0 {
			t.Errorf("%s = %v (present %v), want 0 before any drop", key, v, ok)
		}
	}
}

// TestSamplingComesFromTheConfig: metrics.num.samples and
// metrics.sample.window.ms decide the rates, averages and maxima as
// Kafka's SampledStat does; Kafka's defaults (2 samples of 30 s) give
// other values at every step below.
func TestSamplingComesFromTheConfig(t *testing.T) {
	now := time.UnixMilli(1_700_000_000_000)
	r := New(Options{Config: config(t, "metrics.num.samples=3", "metrics.sample.window.ms=10000")})
	r.now = func() time.Time { return now }
	series := func(metric string) string {
		return "kafka_streams_stream_thread_metrics_" + metric + ",thread_id=StreamThread-1"
	}
	commit := func(took time.Duration) {
		r.OnCommit(1, txn.CommitStats{Trigger: txn.TriggerTime, KafkaCommit: took}, nil)
	}
	commit(12 * time.Millisecond)
	now = now.Add(5 * time.Second)
	// One commit over 5 s plus the 2 windows of 10 s before (2 × 30 s:
	// 1/35).
	if got := scrape(t, r)[series("commit_rate")]; !near(got, 1.0/25, eps) {
		t.Errorf("commit rate after 5 s = %v, want 1/25", got)
	}
	now = now.Add(10 * time.Second)
	commit(2 * time.Millisecond) // a new sample: the first is a window old
	now = now.Add(10 * time.Second)
	commit(10 * time.Millisecond)
	now = now.Add(6 * time.Second)
	// 31 s after the first commit its sample (last event at 0 s) is purged,
	// 3 windows of 10 s having passed; under 2 × 30 s it would count.
	got := scrape(t, r)
	if v := got[series("commit_latency_avg")]; v != 6 {
		t.Errorf("commit latency avg = %v, want 6 (the mean of 2 and 10 ms; 2 × 30 s: 8)", v)
	}
	if v := got[series("commit_latency_max")]; v != 10 {
		t.Errorf("commit latency max = %v, want 10 (2 × 30 s: 12)", v)
	}
	// The oldest live sample started at 15 s: 16 s is one full window, so
	// one more is counted: 2 commits over 26 s (2 × 30 s: 3 over 31 s).
	if v := got[series("commit_rate")]; !near(v, 2.0/26, eps) {
		t.Errorf("commit rate = %v, want 2/26", v)
	}
	now = now.Add(30 * time.Second)
	got = scrape(t, r)
	if v := got[series("commit_latency_avg")]; !math.IsNaN(v) {
		t.Errorf("commit latency avg 30 s after the last commit = %v, want NaN", v)
	}
	if v := got[series("commit_total")]; v != 3 {
		t.Errorf("commit total = %v, want 3: totals never expire", v)
	}
}

// TestRecordingLevelSkipsDebugMetricsBelowIt: Kafka Streams 4.4 registers
// the task-level process, restore and update metrics at every level but
// records them only at DEBUG or TRACE; the thread-level metrics, dropped
// records and the records still to restore are INFO.
func TestRecordingLevelSkipsDebugMetricsBelowIt(t *testing.T) {
	task := kstreams.TaskID{Subtopology: 1, Partition: 0}
	tp := state.TopicPartition{Topic: "app-counts-changelog", Partition: 0}
	for _, tc := range []struct {
		level   string
		ordinal float64
		debug   bool
	}{{"INFO", 0, false}, {"DEBUG", 1, true}, {"TRACE", 2, true}} {
		t.Run("level="+tc.level, func(t *testing.T) {
			r := New(Options{Config: config(t, "metrics.recording.level="+tc.level), StoreSubtopology: map[string]int{"counts": 1},
				ThreadID: func(n int) string { return fmt.Sprintf("app-StreamThread-%d", n) }})
			r.SetProcess("app", "pid")
			r.OnTaskOpened(1, task)
			r.OnProcess(1, task, 4, 8*time.Millisecond)
			r.OnRestoreStart("counts", tp, 0, 100, true)
			r.OnRestoreBatch("counts", tp, 60)
			r.OnDroppedRecord(task, "", "deserialization-error")
			standby := kstreams.TaskID{Subtopology: 1, Partition: 1}
			r.OnStandbyUpdate(1, standby, "counts", 30, 5)
			got := scrape(t, r)
			taskSeries := func(metric string, id kstreams.TaskID) string {
				return "kafka_streams_stream_task_metrics_" + metric + ",thread_id=app-StreamThread-1,task_id=" + id.String()
			}
			at := func(debugValue, infoValue float64) float64 {
				if tc.debug {
					return debugValue
				}
				return infoValue
			}
			for k, want := range map[string]float64{
				"kafka_streams_stream_metrics_recording_level,client_id=app,process_id=pid":      tc.ordinal,
				"kafka_streams_stream_thread_metrics_process_total,thread_id=app-StreamThread-1": 4,
				taskSeries("process_total", task):                                                at(4, 0),
				taskSeries("process_rate", task):                                                 at(4.0/30, 0),
				taskSeries("restore_total", task):                                                at(60, 0),
				taskSeries("restore_rate", task):                                                 at(60.0/30, 0),
				taskSeries("restore_remaining_records_total", task):                              40,
				taskSeries("dropped_records_total", task):                                        1,
				taskSeries("update_total", standby):                                              at(30, 0),
				taskSeries("update_rate", standby):                                               at(30.0/30, 0),
				"stoatflow_restoration_records_restored_total,store=counts":                      60,
			} {
				v, ok := got[k]
				if !ok || !near(v, want, 1e-3) {
					t.Errorf("%s = %v (present %v), want %v", k, v, ok, want)
				}
			}
			for _, metric := range []string{"process_latency_avg", "process_latency_max"} {
				v, ok := got[taskSeries(metric, task)]
				if !ok || math.IsNaN(v) == tc.debug || (tc.debug && v != 2) {
					t.Errorf("%s = %v (present %v), want %v", metric, v, ok, at(2, math.NaN()))
				}
			}
		})
	}
}

// TestOnProcessAllocatesNothing: the per-round hook costs no allocation,
// whether it records the task's metrics (DEBUG) or skips them (INFO).
func TestOnProcessAllocatesNothing(t *testing.T) {
	for _, level := range []string{"INFO", "DEBUG"} {
		r := New(Options{Config: config(t, "metrics.recording.level="+level)})
		task := kstreams.TaskID{Subtopology: 0, Partition: 3}
		r.OnTaskOpened(1, task)
		r.OnProcess(1, task, 10, time.Millisecond)
		if n := testing.AllocsPerRun(200, func() { r.OnProcess(1, task, 10, time.Millisecond) }); n != 0 {
			t.Errorf("%s: OnProcess allocates %v times per call", level, n)
		}
	}
}
