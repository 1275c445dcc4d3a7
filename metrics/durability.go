package metrics

import (
	"strconv"
	"sync"

	vm "github.com/VictoriaMetrics/metrics"

	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/state"
	"github.com/stoatflow/stoatflow/streams"
)

var _ streams.DurabilityHooks = (*Registry)(nil)

// durGauges are the per-store gauges of what a crash would cost and what
// the last restore cost.
type durGauges struct {
	mu     sync.Mutex
	gauges map[string]*vm.Gauge
}

func (r *Registry) durGauge(key string) *vm.Gauge {
	r.dur.mu.Lock()
	defer r.dur.mu.Unlock()
	if r.dur.gauges == nil {
		r.dur.gauges = map[string]*vm.Gauge{}
	}
	g := r.dur.gauges[key]
	if g == nil {
		g = r.set.NewGauge(key, nil)
		r.dur.gauges[key] = g
	}
	return g
}

// OnStoreDurableLag implements streams.DurabilityHooks:
// stoatflow_store_durable_lag_records and stoatflow_store_durable_lag_ms
// {store,task}, and stoatflow_store_policy_flushes{store,task}.
func (r *Registry) OnStoreDurableLag(task kstreams.TaskID, store string, lag state.DurableLag) {
	t := task.String()
	r.durGauge(name("stoatflow_store_durable_lag_records", "store", store, "task", t)).Set(float64(lag.Records))
	r.durGauge(name("stoatflow_store_durable_lag_ms", "store", store, "task", t)).Set(float64(lag.Age.Milliseconds()))
	r.durGauge(name("stoatflow_store_policy_flushes", "store", store, "task", t)).Set(float64(lag.Flushes))
}

// restoreLabels labels a store partition's restore gauges by task when the
// store's sub-topology is known, else by changelog partition.
func (r *Registry) restoreLabels(store string, tp state.TopicPartition) []string {
	if task, ok := r.taskOf(store, tp.Partition); ok {
		return []string{"store", store, "task", task.String()}
	}
	return []string{"store", store, "partition", strconv.Itoa(int(tp.Partition))}
}

// restoreStarted records what a restore is about to replay:
// stoatflow_restoration_last_planned_records and
// stoatflow_restoration_last_full (1 for a restore from the log start),
// and counts full restores in stoatflow_restoration_full_total{store}.
func (r *Registry) restoreStarted(store string, tp state.TopicPartition, start, end int64, full bool) {
	l := r.restoreLabels(store, tp)
	r.durGauge(name("stoatflow_restoration_last_planned_records", l...)).Set(float64(max(end-start, 0)))
	f := r.durGauge(name("stoatflow_restoration_last_full", l...))
	full0 := r.durCounter(name("stoatflow_restoration_full_total", "store", store))
	if full {
		f.Set(1)
		full0.Inc()
	} else {
		f.Set(0)
	}
}

// restoreEnded records the records the last restore replayed:
// stoatflow_restoration_last_records.
func (r *Registry) restoreEnded(store string, tp state.TopicPartition, total int64) {
	r.durGauge(name("stoatflow_restoration_last_records", r.restoreLabels(store, tp)...)).Set(float64(total))
}

func (r *Registry) durCounter(key string) *vm.Counter {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.counterLocked(key)
}
