package streams

import "time"

// threadSummary counts what a stream thread did since it last logged its
// summary (log.summary.interval.ms), as Kafka Streams 4.4's StreamThread
// counts it for its line "Processed {} total records, ran {} punctuators,
// polled {} times and committed {} total tasks since the last update {}ms
// ago".
type threadSummary struct {
	// started is when the thread's loop began; last is when the last
	// summary was logged, zero before the first.
	started, last time.Time
	// records are the records the tasks processed; skipped those of them
	// that never reached the topology, dropped before it as Kafka Streams
	// drops them in its record queues (a deserialization error the
	// handler skips, a negative extracted timestamp), which Kafka does
	// not count.
	records, skipped int64
	// punctuators counts, per task and clock, the punctuations that ran
	// at least one punctuator, as Kafka's TaskManager.punctuate counts.
	punctuators int64
	// polls counts the loop's polls of the main consumer, one per
	// iteration.
	polls int64
	// committed counts the tasks the loop's commits committed: the
	// running tasks that processed a record or ran a punctuator since the
	// commit before (Kafka's commitNeeded). A revocation's or shutdown's
	// commit does not count, as in Kafka Streams.
	committed int64
}

// maybeLogSummary logs the summary once the interval has passed since the
// last one, the first at the loop's first iteration (Kafka Streams logs
// its first at its first runOnce), and starts counting afresh. Zero or a
// negative interval logs none.
func (t *streamThread) maybeLogSummary(now time.Time) {
	interval := t.s.cfg.LogSummaryInterval
	if interval <= 0 {
		return
	}
	sm := &t.summary
	from := sm.last
	if from.IsZero() {
		from = sm.started
	} else if now.UnixMilli()-sm.last.UnixMilli() <= interval.Milliseconds() {
		return
	}
	t.log.Info("processed records, ran punctuators, polled and committed tasks since the last summary",
		"records", sm.records-sm.skipped, "punctuators", sm.punctuators, "polls", sm.polls, "committed_tasks", sm.committed,
		"since_ms", now.UnixMilli()-from.UnixMilli())
	*sm = threadSummary{started: sm.started, last: now}
}
