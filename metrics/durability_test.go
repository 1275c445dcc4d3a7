package metrics

import (
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/state"
)

func TestDurableLagAndLastRestoreGauges(t *testing.T) {
	r := New(Options{StoreSubtopology: map[string]int{"counts": 1}})
	task := kstreams.TaskID{Subtopology: 1, Partition: 2}
	r.OnStoreDurableLag(task, "counts", state.DurableLag{Records: 900, Age: 1500 * time.Millisecond, Flushes: 3})
	r.OnStoreDurableLag(task, "counts", state.DurableLag{Records: 120, Age: 250 * time.Millisecond, Flushes: 4})
	tp := state.TopicPartition{Topic: "app-counts-changelog", Partition: 2}
	r.OnRestoreStart("counts", tp, 1000, 1400, false)
	r.OnRestoreBatch("counts", tp, 390)
	r.OnRestoreEnd("counts", tp, 390)
	other := state.TopicPartition{Topic: "app-other-changelog", Partition: 0}
	r.OnRestoreStart("other", other, 0, 50, true)
	r.OnRestoreEnd("other", other, 50)
	got := scrape(t, r)
	for k, want := range map[string]float64{
		"stoatflow_store_durable_lag_records,store=counts,task=1_2":        120,
		"stoatflow_store_durable_lag_ms,store=counts,task=1_2":             250,
		"stoatflow_store_policy_flushes,store=counts,task=1_2":             4,
		"stoatflow_restoration_last_planned_records,store=counts,task=1_2": 400,
		"stoatflow_restoration_last_records,store=counts,task=1_2":         390,
		"stoatflow_restoration_last_full,store=counts,task=1_2":            0,
		"stoatflow_restoration_last_records,store=other,partition=0":       50,
		"stoatflow_restoration_last_full,store=other,partition=0":          1,
		"stoatflow_restoration_full_total,store=other":                     1,
		"stoatflow_restoration_full_total,store=counts":                    0,
	} {
		if g, ok := got[k]; !ok || g != want {
			t.Errorf("%s = %v (present %v), want %v", k, g, ok, want)
		}
	}
}
