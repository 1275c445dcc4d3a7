package streams

// Back-pressure on the main consumer, as Kafka Streams 4.4 applies
// buffered.records.per.partition (StreamTask.addRecords and
// resumePollingForPartitionsWithAvailableSpace): once a poll leaves more
// than that many records in a partition's queue, the partition stops being
// fetched; once processing has brought its queue back to the bound or
// below, it is fetched again, before the loop's next poll. A partition that
// fills faster than its task drains it (a task waiting for another of its
// partitions, max.task.idle.ms) therefore cannot grow its queue without
// bound, and while it is paused the fetches carry the other partitions'
// records (franz-go drops what it had fetched of a paused partition and
// fetches it again from the consumer's position on resume).
//
// franz-go keeps one set of paused partitions, which three causes share:
// a task still restoring (restore.go), the instance's Pause (pause.go) and
// a full queue (partQueue.full). No cause resumes a partition that another
// still holds: a partition is fetched only when its task runs, the
// instance is not paused and its queue is not full (fetchWanted).

// fetchWanted reports whether a's partitions are to be fetched as far as
// causes other than a full queue go: the task runs (it does not restore,
// nor wait to be rebuilt) and the instance is not paused.
func (t *streamThread) fetchWanted(a *activeTask) bool { return a.running() && !t.fetchPaused }

// pauseIfFull marks q full when it holds more records than the bound,
// adding its partition to *pause (made when nil); a queue already full
// stays so.
func (t *streamThread) pauseIfFull(q *partQueue, pause *map[string][]int32) {
	if q.full || len(q.recs) <= t.s.cfg.BufferedRecordsPerPartition {
		return
	}
	q.full = true
	if *pause == nil {
		*pause = map[string][]int32{}
	}
	(*pause)[q.tp.topic] = append((*pause)[q.tp.topic], q.tp.partition)
	t.log.Debug("input partition paused: its queue is over buffered.records.per.partition", "topic", q.tp.topic,
		"partition", q.tp.partition, "buffered", len(q.recs), "bound", t.s.cfg.BufferedRecordsPerPartition)
}

// resumeDrained fetches again the full partitions whose queues processing
// brought back to the bound or below, unless another cause keeps them
// paused (their flag is cleared all the same: that cause's own resume then
// fetches them). As in Kafka Streams, a bound below zero never resumes a
// partition this way; only its task's close or rewind does.
func (t *streamThread) resumeDrained() {
	var resume map[string][]int32
	bound := t.s.cfg.BufferedRecordsPerPartition
	for _, a := range t.tasks {
		for _, q := range a.queues {
			if !q.full || len(q.recs) > bound {
				continue
			}
			q.full = false
			t.log.Debug("input partition resumed: its queue is within buffered.records.per.partition", "topic", q.tp.topic,
				"partition", q.tp.partition, "buffered", len(q.recs), "bound", bound)
			if t.fetchWanted(a) {
				if resume == nil {
					resume = map[string][]int32{}
				}
				resume[q.tp.topic] = append(resume[q.tp.topic], q.tp.partition)
			}
		}
	}
	if len(resume) > 0 {
		t.consumer.ResumeFetchPartitions(resume)
	}
}

// fetchable returns a's partitions whose queues are not full, for a cause
// that lifts its own pause (a restore that ended, the instance's Resume)
// without lifting back-pressure's.
func fetchable(a *activeTask, into map[string][]int32) map[string][]int32 {
	if into == nil {
		into = map[string][]int32{}
	}
	for _, q := range a.queues {
		if !q.full {
			into[q.tp.topic] = append(into[q.tp.topic], q.tp.partition)
		}
	}
	return into
}

// emptied clears the full flag of a's queues, whose records were dropped
// (a rewind), and resumes their partitions if a is to be fetched.
func (t *streamThread) emptied(a *activeTask) {
	resume := map[string][]int32{}
	for _, q := range a.queues {
		if q.full {
			q.full = false
			if t.fetchWanted(a) {
				resume[q.tp.topic] = append(resume[q.tp.topic], q.tp.partition)
			}
		}
	}
	if len(resume) > 0 {
		t.consumer.ResumeFetchPartitions(resume)
	}
}

// unpauseClosed resumes every partition of a task being closed, whatever
// paused it: pauses outlive assignments in franz-go, and a task closed
// without a revocation that resumes its partitions (a lost assignment)
// would leave them paused for the task that gets them next.
func (t *streamThread) unpauseClosed(a *activeTask) {
	if t.consumer == nil {
		return
	}
	parts := map[string][]int32{}
	for _, q := range a.queues {
		q.full = false
		parts[q.tp.topic] = append(parts[q.tp.topic], q.tp.partition)
	}
	if len(parts) > 0 {
		t.consumer.ResumeFetchPartitions(parts)
	}
}
