package streams

import (
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/state"
)

// TestIdleDeadlineOutlivesARound ports Kafka's PartitionGroupTest cases of
// readyToProcess under a positive max.task.idle.ms: an empty partition with
// records on the broker not delivered holds its task back whatever the
// time; one caught up holds it back until max.task.idle.ms after it was
// first found so; and that deadline stays while the partition stays empty
// (the task does not wait again after it processed), until the partition
// has records again.
func TestIdleDeadlineOutlivesARound(t *testing.T) {
	th, a, _ := bpThread(t, 1000)
	th.s.cfg.MaxTaskIdle = 100 * time.Millisecond
	b := a.queueFor(state.TopicPartition{Topic: "b", Partition: 0})
	t0 := time.UnixMilli(1_700_000_000_000)
	ready := func(at time.Duration, want bool, what string) {
		t.Helper()
		if got := th.ready(a, t0.Add(at)); got != want {
			t.Fatalf("%s (at %v): ready %v, want %v", what, at, got, want)
		}
	}
	ready(0, false, "nothing buffered")
	poll(t, th, "a", "a0", "a1")
	b.logStart, b.end, b.wmKnown, b.committed = 0, 3, true, 0
	ready(0, false, "b lags")
	ready(time.Hour, false, "b still lags")
	b.end = 0 // caught up
	ready(time.Hour, false, "b caught up: its deadline starts")
	ready(time.Hour+99*time.Millisecond, false, "before the deadline")
	ready(time.Hour+100*time.Millisecond, true, "at the deadline")
	take(t, th, a, "a", 2)
	poll(t, th, "a", "a2")
	ready(time.Hour+101*time.Millisecond, true, "after a round, b still empty: no new wait")
	poll(t, th, "b", "b0")
	ready(time.Hour+102*time.Millisecond, true, "both buffered")
	take(t, th, a, "b", 1)
	b.end = 1
	ready(time.Hour+103*time.Millisecond, false, "b emptied again: a new deadline")
	ready(time.Hour+203*time.Millisecond, true, "at the new deadline")

	th.s.cfg.MaxTaskIdle = -1
	b.end = 5
	ready(time.Hour+204*time.Millisecond, true, "idling disabled, b lagging")
}
