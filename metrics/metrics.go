package metrics

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	vm "github.com/VictoriaMetrics/metrics"

	"github.com/stoatflow/stoatflow/compat"
	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/state"
	"github.com/stoatflow/stoatflow/streams"
	"github.com/stoatflow/stoatflow/txn"
)

// Options name what the metrics are labelled with.
type Options struct {
	// ThreadID names stream thread n (from 1) in thread_id labels, as Kafka
	// Streams does (<client.id>-StreamThread-<n>); default StreamThread-<n>.
	ThreadID func(n int) string
	// StoreSubtopology maps a store name to the sub-topology whose tasks
	// host it, so that restore metrics carry Kafka's task ids
	// (<sub-topology>_<partition>). Stores missing from it are labelled by
	// store only.
	StoreSubtopology map[string]int
	// Config is the configuration whose metrics keys apply, as Kafka
	// Streams applies them: metrics.num.samples and
	// metrics.sample.window.ms (the samples rates, averages and maxima
	// are measured over) and metrics.recording.level (which metrics are
	// recorded). Nil: Kafka's defaults, 2 samples of 30 s at INFO.
	Config *compat.Config
}

// Registry holds every metric of one StoatFlow instance and implements
// streams.Hooks and streams.ActivityHooks to feed them. All methods are safe for
// concurrent use.
type Registry struct {
	streams.NoHooks

	set  *vm.Set
	opts Options
	samp sampling
	// level is metrics.recording.level; debug says whether it records
	// Kafka Streams' DEBUG sensors.
	level compat.RecordingLevel
	debug bool
	now   func() time.Time

	barrierCompleted *vm.Counter
	barrierFailed    *vm.Counter
	commitLatency    *vm.PrometheusHistogram
	clientState      *vm.Gauge
	dur              durGauges

	mu struct {
		sync.Mutex
		threadBytes map[int]int64
		storeBytes  map[storeTask]*vm.Gauge
		threads     map[int]*threadStats
		tasks       map[kstreams.TaskID]*taskStats
		taskThread  map[kstreams.TaskID]int // the thread that last opened each task
		counters    map[string]*vm.Counter
		// restoring holds the records still to restore per changelog
		// partition; a partition leaves it when its restore ends.
		restoring map[state.TopicPartition]*restoreProgress
		lag       map[string]*vm.Gauge
		// state and alive are the client's; the Kafka-named gauges that
		// show them exist once SetProcess named the client.
		state         streams.State
		alive         int
		stateKS       *vm.Gauge
		aliveThreadKS *vm.Gauge
	}
}

type restoreProgress struct {
	remaining int64
}

// threadStats are Kafka's stream-thread-metrics of one thread, all of its
// sensors of level INFO.
type threadStats struct {
	commit, poll, pollRecords, process *sensor
	commitTotal, pollTotal             *vm.Counter
	processTotal, rebalanceTotal       *vm.Counter
}

// taskStats are Kafka's stream-task-metrics of one task. The sensors of
// process, restore and update are of level DEBUG in Kafka Streams 4.4
// (TaskMetrics.processLatencySensor, restoreSensor, updateSensor and the
// task-level parent of ProcessorNodeMetrics.processAtSourceSensor), those
// of dropped records and of the records still to restore of level INFO.
type taskStats struct {
	dropped      *sensor // INFO
	droppedTotal *vm.Counter
	restored     *sensor // DEBUG, with restoreTotal
	restoreTotal *vm.Counter
	process      *sensor // DEBUG, with processTotal
	processTotal *vm.Counter
	remaining    map[state.TopicPartition]int64 // INFO
	names        []string                       // every metric registered for the task
	// updateTotal and updated are Kafka's update-total and update-rate
	// (DEBUG), registered once the task runs as a standby; standbyLag is
	// its lag by store while it does, read by lagName's gauge.
	updateTotal *vm.Counter
	updated     *sensor
	standbyLag  map[string]int64
	lagName     string
}

// New returns a registry with every application-level metric registered
// (so they read 0 before the first event rather than being absent).
func New(opts Options) *Registry {
	if opts.ThreadID == nil {
		opts.ThreadID = func(n int) string { return "StreamThread-" + strconv.Itoa(n) }
	}
	// Emit # HELP/# TYPE lines: strict Prometheus parsers type every family
	// from them.
	vm.ExposeMetadata(true)
	r := &Registry{set: vm.NewSet(), opts: opts, samp: samplingOf(opts.Config), now: time.Now}
	if opts.Config != nil {
		r.level = opts.Config.MetricsRecordingLevel
	}
	r.debug = r.level.Records(compat.RecordingDebug)
	r.mu.threadBytes = map[int]int64{}
	r.mu.storeBytes = map[storeTask]*vm.Gauge{}
	r.mu.threads = map[int]*threadStats{}
	r.mu.tasks = map[kstreams.TaskID]*taskStats{}
	r.mu.taskThread = map[kstreams.TaskID]int{}
	r.mu.counters = map[string]*vm.Counter{}
	r.mu.restoring = map[state.TopicPartition]*restoreProgress{}
	r.mu.lag = map[string]*vm.Gauge{}

	r.set.NewGauge("stoatflow_barrier_epoch_uncommitted_bytes", func() float64 {
		r.mu.Lock()
		defer r.mu.Unlock()
		var sum int64
		for _, n := range r.mu.threadBytes {
			sum += n
		}
		return float64(sum)
	})
	r.barrierCompleted = r.set.NewCounter("stoatflow_barrier_completed_total")
	r.barrierFailed = r.set.NewCounter("stoatflow_barrier_failed_total")
	r.commitLatency = r.set.NewPrometheusHistogram("stoatflow_barrier_commit_latency")
	for _, t := range []txn.Trigger{txn.TriggerTime, txn.TriggerMemoryPressure, txn.TriggerRequested} {
		r.counterLocked(name("stoatflow_barrier_trigger_total", "trigger", t.String()))
	}
	// The runtime's own drop reasons read 0 from the start, so that a rate
	// over them is defined before the first drop; a processor's own reasons
	// appear with their first drop.
	for _, reason := range runtimeDropReasons {
		r.counterLocked(name("stoatflow_dropped_records_total", "reason", reason))
	}
	r.set.NewGauge("stoatflow_restoration_in_progress", func() float64 {
		r.mu.Lock()
		defer r.mu.Unlock()
		return float64(len(r.mu.restoring))
	})
	r.clientState = r.set.NewGauge("stoatflow_client_state", nil)
	return r
}

// WritePrometheus writes every metric in the Prometheus text format.
func (r *Registry) WritePrometheus(w io.Writer) { r.set.WritePrometheus(w) }

// SetProcess names the client once its process id is known (after
// streams.KafkaStreams.Start): it registers Kafka Streams' client-level
// gauges, labelled as Kafka labels them, client_id (Kafka Streams'
// client.id, compat.Config.EffectiveClientID) and process_id: the state,
// the alive stream threads and the recording level. Calls after the first
// do nothing.
func (r *Registry) SetProcess(clientID, processID string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.mu.stateKS != nil {
		return
	}
	r.mu.stateKS = r.set.NewGauge(name("kafka_streams_stream_metrics_client_state", "client_id", clientID, "process_id", processID), nil)
	r.mu.aliveThreadKS = r.set.NewGauge(name("kafka_streams_stream_metrics_alive_stream_threads", "client_id", clientID), nil)
	// Kafka Streams 4.4's recording-level (ClientMetrics): 0 INFO, 1 DEBUG,
	// 2 TRACE.
	r.set.NewGauge(name("kafka_streams_stream_metrics_recording_level", "client_id", clientID, "process_id", processID), nil).
		Set(float64(r.level))
	r.mu.stateKS.Set(float64(r.mu.state))
	r.mu.aliveThreadKS.Set(float64(r.mu.alive))
}

// SetClientState records the instance's state, as the ordinal of Kafka
// Streams' KafkaStreams.State (CREATED 0, REBALANCING 1, RUNNING 2,
// PENDING_SHUTDOWN 3, NOT_RUNNING 4, PENDING_ERROR 5, ERROR 6), the value of
// Kafka's client-state metric.
func (r *Registry) SetClientState(s streams.State) {
	r.clientState.Set(float64(s))
	r.mu.Lock()
	defer r.mu.Unlock()
	r.mu.state = s
	if r.mu.stateKS != nil {
		r.mu.stateKS.Set(float64(s))
	}
}

// SetAliveStreamThreads records how many stream threads run.
func (r *Registry) SetAliveStreamThreads(n int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.mu.alive = n
	if r.mu.aliveThreadKS != nil {
		r.mu.aliveThreadKS.Set(float64(n))
	}
}

// OnCommit implements streams.Hooks: barrier and commit metrics.
func (r *Registry) OnCommit(thread int, stats txn.CommitStats, err error) {
	now := r.now()
	took := stats.Flush + stats.KafkaCommit + stats.StoreCommit
	r.mu.Lock()
	r.counterLocked(name("stoatflow_barrier_trigger_total", "trigger", stats.Trigger.String())).Inc()
	ts := r.threadLocked(thread)
	r.mu.Unlock()
	if err != nil {
		r.barrierFailed.Inc()
		return
	}
	r.barrierCompleted.Inc()
	r.commitLatency.Update(took.Seconds())
	ts.commit.record(now, ms(took), 1)
	ts.commitTotal.Inc()
}

// OnRestoreStart implements streams.Hooks.
func (r *Registry) OnRestoreStart(store string, tp state.TopicPartition, start, end int64, full bool) {
	r.restoreStarted(store, tp, start, end, full)
	r.mu.Lock()
	defer r.mu.Unlock()
	r.counterLocked(name("stoatflow_restoration_records_restored_total", "store", store))
	if task, ok := r.taskOf(store, tp.Partition); ok {
		ts := r.taskLocked(task)
		ts.remaining[tp] = max(end-start, 0)
	}
	if end > start {
		r.mu.restoring[tp] = &restoreProgress{remaining: end - start}
	}
}

// OnRestoreBatch implements streams.Hooks.
// The task's restore-total and restore-rate are recorded at DEBUG only.
func (r *Registry) OnRestoreBatch(store string, tp state.TopicPartition, n int) {
	now := r.now()
	r.mu.Lock()
	r.counterLocked(name("stoatflow_restoration_records_restored_total", "store", store)).Add(n)
	var ts *taskStats
	if task, ok := r.taskOf(store, tp.Partition); ok {
		ts = r.taskLocked(task)
		ts.remaining[tp] = max(ts.remaining[tp]-int64(n), 0)
	}
	if p := r.mu.restoring[tp]; p != nil {
		p.remaining = max(p.remaining-int64(n), 0)
	}
	r.mu.Unlock()
	if ts != nil && r.debug {
		ts.restoreTotal.Add(n)
		ts.restored.record(now, float64(n), 1)
	}
}

// OnRestoreEnd implements streams.Hooks.
func (r *Registry) OnRestoreEnd(store string, tp state.TopicPartition, total int64) {
	r.restoreEnded(store, tp, total)
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.mu.restoring, tp)
	if task, ok := r.taskOf(store, tp.Partition); ok {
		r.taskLocked(task).remaining[tp] = 0
	}
}

// runtimeDropReasons are the reasons the runtime itself drops input
// records for, as streams passes them to OnDroppedRecord.
var runtimeDropReasons = []string{"deserialization-error", "processing-error", kstreams.DroppedNegativeTimestamp, kstreams.DroppedProductionError}

// OnDroppedRecord implements streams.Hooks.
func (r *Registry) OnDroppedRecord(task kstreams.TaskID, _ string, reason string) {
	now := r.now()
	r.mu.Lock()
	r.counterLocked(name("stoatflow_dropped_records_total", "reason", reason)).Inc()
	ts := r.taskLocked(task)
	r.mu.Unlock()
	ts.droppedTotal.Inc()
	ts.dropped.record(now, 1, 1)
}

// OnStoreUncommittedBytes implements streams.Hooks:
// stoatflow_store_uncommitted_bytes{store,task}.
// It is called for every store after every processing round, so the
// common case is one map lookup without building the metric name.
func (r *Registry) OnStoreUncommittedBytes(task kstreams.TaskID, store string, n int64) {
	key := storeTask{store, task}
	r.mu.Lock()
	g := r.mu.storeBytes[key]
	if g == nil {
		g = r.set.NewGauge(name("stoatflow_store_uncommitted_bytes", "store", store, "task", task.String()), nil)
		r.mu.storeBytes[key] = g
	}
	r.mu.Unlock()
	g.Set(float64(n))
}

// storeTask names one store partition.
type storeTask struct {
	store string
	task  kstreams.TaskID
}

// OnThreadUncommittedBytes implements streams.Hooks: the threads' sum is
// stoatflow_barrier_epoch_uncommitted_bytes.
func (r *Registry) OnThreadUncommittedBytes(thread int, n int64) {
	r.mu.Lock()
	r.mu.threadBytes[thread] = n
	r.mu.Unlock()
}

var _ streams.ActivityHooks = (*Registry)(nil)
var _ streams.Hooks = (*Registry)(nil)

// OnPoll implements streams.ActivityHooks.
func (r *Registry) OnPoll(thread int, records int, took time.Duration) {
	now := r.now()
	r.mu.Lock()
	ts := r.threadLocked(thread)
	r.mu.Unlock()
	ts.poll.record(now, ms(took), 1)
	ts.pollRecords.record(now, float64(records), 1)
	ts.pollTotal.Inc()
}

// OnProcess implements streams.ActivityHooks: each of the records counts
// as one observation of the round's time over its records. The task's
// process metrics are recorded at DEBUG only; below it the round costs
// the thread's metrics alone.
func (r *Registry) OnProcess(thread int, task kstreams.TaskID, records int, took time.Duration) {
	if records <= 0 {
		return
	}
	now := r.now()
	r.mu.Lock()
	th := r.threadLocked(thread)
	var tk *taskStats
	if r.debug {
		tk = r.taskLocked(task)
	}
	r.mu.Unlock()
	per := ms(took) / float64(records)
	th.process.record(now, per, records)
	th.processTotal.Add(records)
	if tk != nil {
		tk.process.record(now, per, records)
		tk.processTotal.Add(records)
	}
}

// OnRecordsLag implements streams.ActivityHooks.
func (r *Registry) OnRecordsLag(thread int, topic string, partition int32, lag int64) {
	p := strconv.Itoa(int(partition))
	keys := []string{
		name("stoatflow_consumer_lag_records", "topic", topic, "partition", p),
		name("kafka_consumer_consumer_fetch_manager_metrics_records_lag", "client_id", r.opts.ThreadID(thread)+"-consumer",
			"topic", topic, "partition", p),
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, k := range keys {
		g := r.mu.lag[k]
		if g == nil {
			g = r.set.NewGauge(k, nil)
			r.mu.lag[k] = g
		}
		g.Set(float64(lag))
	}
}

// OnRebalance implements streams.ActivityHooks.
func (r *Registry) OnRebalance(thread int) {
	r.mu.Lock()
	ts := r.threadLocked(thread)
	r.mu.Unlock()
	ts.rebalanceTotal.Inc()
}

// taskOf is the task hosting partition of store, if the store's
// sub-topology is known.
func (r *Registry) taskOf(store string, partition int32) (kstreams.TaskID, bool) {
	sub, ok := r.opts.StoreSubtopology[store]
	return kstreams.TaskID{Subtopology: sub, Partition: partition}, ok
}

func (r *Registry) counterLocked(key string) *vm.Counter {
	c := r.mu.counters[key]
	if c == nil {
		c = r.set.NewCounter(key)
		r.mu.counters[key] = c
	}
	return c
}

// threadLocked returns thread's stats, registering its metrics the first
// time. r.mu must be held.
func (r *Registry) threadLocked(thread int) *threadStats {
	if ts := r.mu.threads[thread]; ts != nil {
		return ts
	}
	ts := &threadStats{
		commit:      newSensor(r.samp, statRate, statAvg, statMax),
		poll:        newSensor(r.samp, statRate, statAvg, statMax),
		pollRecords: newSensor(r.samp, statAvg, statMax),
		process:     newSensor(r.samp, statRate, statAvg, statMax),
	}
	r.mu.threads[thread] = ts
	id := r.opts.ThreadID(thread)
	m := func(metric string) string {
		return name("kafka_streams_stream_thread_metrics_"+metric, "thread_id", id)
	}
	ts.commitTotal = r.set.NewCounter(m("commit_total"))
	ts.pollTotal = r.set.NewCounter(m("poll_total"))
	ts.processTotal = r.set.NewCounter(m("process_total"))
	ts.rebalanceTotal = r.set.NewCounter(name("kafka_consumer_consumer_coordinator_metrics_rebalance_total", "client_id", id+"-consumer"))
	r.gauges(m, map[string]func(time.Time) float64{
		"commit_rate":         ts.commit.reader(statRate),
		"commit_latency_avg":  ts.commit.reader(statAvg),
		"commit_latency_max":  ts.commit.reader(statMax),
		"poll_rate":           ts.poll.reader(statRate),
		"poll_latency_avg":    ts.poll.reader(statAvg),
		"poll_latency_max":    ts.poll.reader(statMax),
		"poll_records_avg":    ts.pollRecords.reader(statAvg),
		"poll_records_max":    ts.pollRecords.reader(statMax),
		"process_rate":        ts.process.reader(statRate),
		"process_latency_avg": ts.process.reader(statAvg),
		"process_latency_max": ts.process.reader(statMax),
	})
	return ts
}

// OnTaskOpened implements streams.ActivityHooks: the task's metrics are
// registered, as Kafka Streams registers an active task's sensors when it
// creates the task (those of a level not recorded then read 0, or NaN),
// and carry the opening thread's thread_id from now on. A task that moved
// to another thread starts its metrics afresh under that thread, as Kafka
// Streams re-registers a task's metrics where the task runs.
func (r *Registry) OnTaskOpened(thread int, task kstreams.TaskID) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.taskOnThreadLocked(thread, task)
	r.taskLocked(task)
}

// taskOnThreadLocked labels the task's metrics with thread from now on,
// unregistering those it had under another thread. r.mu must be held.
func (r *Registry) taskOnThreadLocked(thread int, id kstreams.TaskID) {
	if old, ok := r.mu.taskThread[id]; ok && old == thread {
		return
	}
	r.mu.taskThread[id] = thread
	if ts := r.mu.tasks[id]; ts != nil {
		for _, n := range ts.names {
			r.set.UnregisterMetric(n)
		}
		delete(r.mu.tasks, id)
	}
}

var _ streams.StandbyHooks = (*Registry)(nil)

// OnStandbyUpdate implements streams.StandbyHooks: the standby task's
// update-total and update-rate (Kafka's stream-task-metrics of a standby,
// KIP-869, recorded at DEBUG only), under the thread that runs it, and
// stoatflow_standby_lag_records{task}, the changelog records it has still
// to read, summed over its stores.
func (r *Registry) OnStandbyUpdate(thread int, task kstreams.TaskID, store string, records int, lag int64) {
	now := r.now()
	r.mu.Lock()
	r.taskOnThreadLocked(thread, task)
	ts := r.taskLocked(task)
	if ts.updateTotal == nil {
		labels := []string{"thread_id", r.opts.ThreadID(thread), "task_id", task.String()}
		n := name("kafka_streams_stream_task_metrics_update_total", labels...)
		ts.updateTotal = r.set.NewCounter(n)
		ts.updated = newSensor(r.samp, statSumRate)
		rate := name("kafka_streams_stream_task_metrics_update_rate", labels...)
		read := ts.updated.reader(statSumRate)
		r.set.NewGauge(rate, func() float64 { return read(r.now()) })
		ts.names = append(ts.names, n, rate)
	}
	if ts.lagName == "" {
		ts.standbyLag = map[string]int64{}
		ts.lagName = name("stoatflow_standby_lag_records", "task", task.String())
		r.set.NewGauge(ts.lagName, func() float64 {
			r.mu.Lock()
			defer r.mu.Unlock()
			var n int64
			for _, v := range ts.standbyLag {
				n += v
			}
			return float64(n)
		})
		ts.names = append(ts.names, ts.lagName)
	}
	ts.standbyLag[store] = lag
	r.mu.Unlock()
	if records > 0 && r.debug {
		ts.updateTotal.Add(records)
		ts.updated.record(now, float64(records), 1)
	}
}

// OnStandbyClosed implements streams.StandbyHooks: the standby's lag
// gauge goes; its update counts stay with the task's other metrics.
func (r *Registry) OnStandbyClosed(_ int, task kstreams.TaskID) {
	r.mu.Lock()
	defer r.mu.Unlock()
	ts := r.mu.tasks[task]
	if ts == nil || ts.lagName == "" {
		return
	}
	r.set.UnregisterMetric(ts.lagName)
	ts.names = slices.DeleteFunc(ts.names, func(n string) bool { return n == ts.lagName })
	ts.lagName, ts.standbyLag = "", nil
}

// taskLocked returns task's stats, registering its metrics the first time,
// labelled thread_id (once a thread opened the task) and task_id as the JMX
// exporter labels Kafka's stream-task-metrics. r.mu must be held.
func (r *Registry) taskLocked(task kstreams.TaskID) *taskStats {
	if ts := r.mu.tasks[task]; ts != nil {
		return ts
	}
	ts := &taskStats{
		remaining: map[state.TopicPartition]int64{},
		dropped:   newSensor(r.samp, statRate),
		restored:  newSensor(r.samp, statSumRate),
		process:   newSensor(r.samp, statRate, statAvg, statMax),
	}
	r.mu.tasks[task] = ts
	id := task.String()
	labels := []string{"task_id", id}
	if thread, ok := r.mu.taskThread[task]; ok {
		labels = []string{"thread_id", r.opts.ThreadID(thread), "task_id", id}
	}
	m := func(metric string) string {
		n := name("kafka_streams_stream_task_metrics_"+metric, labels...)
		ts.names = append(ts.names, n)
		return n
	}
	ts.droppedTotal = r.set.NewCounter(m("dropped_records_total"))
	ts.restoreTotal = r.set.NewCounter(m("restore_total"))
	ts.processTotal = r.set.NewCounter(m("process_total"))
	r.gauges(m, map[string]func(time.Time) float64{
		"dropped_records_rate": ts.dropped.reader(statRate),
		"restore_rate":         ts.restored.reader(statSumRate),
		"process_rate":         ts.process.reader(statRate),
		"process_latency_avg":  ts.process.reader(statAvg),
		"process_latency_max":  ts.process.reader(statMax),
	})
	r.set.NewGauge(m("restore_remaining_records_total"), func() float64 {
		r.mu.Lock()
		defer r.mu.Unlock()
		var n int64
		for _, v := range ts.remaining {
			n += v
		}
		return float64(n)
	})
	return ts
}

func (r *Registry) gauges(m func(string) string, fns map[string]func(time.Time) float64) {
	for metric, fn := range fns {
		r.set.NewGauge(m(metric), func() float64 { return fn(r.now()) })
	}
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// name renders a metric name with labels, values escaped as the Prometheus
// text format requires.
func name(metric string, labels ...string) string {
	if len(labels) == 0 {
		return metric
	}
	var b strings.Builder
	b.WriteString(metric)
	b.WriteByte('{')
	for i := 0; i+1 < len(labels); i += 2 {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `%s="%s"`, labels[i], labelEscaper.Replace(labels[i+1]))
	}
	b.WriteByte('}')
	return b.String()
}

// labelEscaper escapes a label value as the Prometheus text format wants.
var labelEscaper = strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)
