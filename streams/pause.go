package streams

// Pause stops the instance's processing, as Kafka Streams' pause(): its
// stream threads stay in the group (they keep polling for rebalances, with
// every partition's fetching paused), commit what they processed before,
// and neither process records nor punctuate until Resume. Stores still
// restore, and interactive queries still answer. Pausing before Start
// starts the instance paused. The state stays what it is (RUNNING).
func (s *KafkaStreams) Pause() { s.paused.Store(true) }

// Resume lets a paused instance process again, from where it stopped.
func (s *KafkaStreams) Resume() { s.paused.Store(false) }

// IsPaused reports whether Pause was called without a Resume after it.
func (s *KafkaStreams) IsPaused() bool { return s.paused.Load() }

// syncPause brings the thread's fetching in line with the instance's pause:
// paused, every partition of a running task stops fetching; resumed, they
// fetch again, but for those whose queues are full (backpressure.go).
// Partitions of a task still restoring are paused by the restore and
// resumed when it ends (finishRestore), not here.
func (t *streamThread) syncPause() bool {
	want := t.s.paused.Load()
	if want == t.fetchPaused {
		return want
	}
	parts := map[string][]int32{}
	for _, a := range t.tasks {
		if !a.running() {
			continue
		}
		if !want {
			// A partition whose queue is full stays paused until
			// processing drains it (backpressure.go).
			parts = fetchable(a, parts)
			continue
		}
		for _, q := range a.queues {
			parts[q.tp.topic] = append(parts[q.tp.topic], q.tp.partition)
		}
	}
	if want {
		t.consumer.PauseFetchPartitions(parts)
		t.log.Info("processing paused")
	} else {
		t.consumer.ResumeFetchPartitions(parts)
		t.log.Info("processing resumed")
	}
	t.fetchPaused = want
	return want
}
