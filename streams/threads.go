package streams

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/twmb/franz-go/pkg/kadm"

	"github.com/stoatflow/stoatflow/compat"
)

// ErrNotRunning: a thread can be added or removed only while the instance
// is RUNNING or REBALANCING, as in Kafka Streams (whose calls then return an
// empty Optional).
var ErrNotRunning = errors.New("streams: the instance is not RUNNING or REBALANCING")

// errThreadRemoved ends the run of a thread RemoveStreamThread removes: it
// stops as it would at Close, committing and closing its tasks.
var errThreadRemoved = fmt.Errorf("%w: the thread was removed", errShuttingDown)

// AddStreamThread starts one more stream thread, Kafka Streams'
// addStreamThread: it takes the lowest thread index no thread holds (with
// its client ids, group.instance.id and transactional.id), joins the group,
// and the rebalance that follows gives it tasks. It returns the thread's
// name, <client.id>-StreamThread-<n>. The record cache is shared anew among
// the threads as tasks are assigned.
func (s *KafkaStreams) AddStreamThread() (string, error) {
	if st := s.State(); st != Running && st != Rebalancing {
		return "", ErrNotRunning
	}
	s.mu.Lock()
	ctx := s.mu.runCtx
	s.mu.Unlock()
	idx := s.freeThreadIndex(nil)
	t, err := newStreamThread(s, idx)
	if err != nil {
		return "", fmt.Errorf("streams: adding stream thread %d: %w", idx, err)
	}
	s.mu.Lock()
	if st := s.mu.state; (st != Running && st != Rebalancing) || ctx.Err() != nil {
		s.mu.Unlock()
		t.closeClients(context.Background())
		return "", ErrNotRunning
	}
	s.threads = append(s.threads, t)
	s.mu.threadUp[idx] = false
	// Counted before the lock is released: the run context ends only
	// under this lock (fail, Close), so the instance's own place in wg is
	// still held here, and its last goroutine waits for this thread too.
	s.wg.Add(1)
	s.mu.Unlock()
	s.threadReady(idx, false) // REBALANCING until the new thread has its tasks
	s.log.Info("stream thread added", "thread", idx)
	s.startThread(ctx, t)
	return s.cfg.ThreadClientID(s.processID, idx), nil
}

// RemoveStreamThread stops one stream thread, Kafka Streams'
// removeStreamThread: the first one (in the order the threads were started
// or added) that is still running. It commits and closes its tasks and
// leaves the group, which gives them to the other threads; under static
// membership its member is removed from the group at once, as Kafka
// Streams removes it, instead of after session.timeout.ms. It returns the
// thread's name once the thread has stopped, or ctx's error if ctx ends
// first (the thread goes on stopping).
func (s *KafkaStreams) RemoveStreamThread(ctx context.Context) (string, error) {
	if st := s.State(); st != Running && st != Rebalancing {
		return "", ErrNotRunning
	}
	s.mu.Lock()
	var t *streamThread
	for _, c := range s.threads {
		if c.stop != nil && !c.stopped.Load() && !c.removed.Load() {
			t = c
			break
		}
	}
	var stop context.CancelCauseFunc
	var done chan struct{}
	if t != nil {
		t.removed.Store(true)
		stop, done = t.stop, t.done
	}
	s.mu.Unlock()
	if t == nil {
		return "", fmt.Errorf("%w: no stream thread is left to remove", ErrNotRunning)
	}
	stop(errThreadRemoved)
	select {
	case <-done:
	case <-ctx.Done():
		return "", fmt.Errorf("streams: removing stream thread %d: %w", t.idx, context.Cause(ctx))
	}
	s.mu.Lock()
	s.threads = slices.DeleteFunc(s.threads, func(c *streamThread) bool { return c == t })
	delete(s.mu.threadUp, t.idx)
	s.mu.Unlock()
	// A streams group's member left at epoch -1 as its thread closed
	// (leaveMemberGroup).
	if id := s.cfg.GroupInstanceID(t.idx); id != "" && s.cfg.GroupProtocol != compat.GroupProtocolStreams {
		if err := s.removeStaticMember(ctx, id); err != nil {
			s.log.Warn("removing the thread's static member from the group failed; its tasks move after session.timeout.ms",
				"thread", t.idx, "group.instance.id", id, "err", err)
		}
	}
	s.updateReadiness()
	s.log.Info("stream thread removed", "thread", t.idx)
	return s.cfg.ThreadClientID(s.processID, t.idx), nil
}

// removeStaticMember removes a static member from the application's group,
// as Kafka Streams does for a removed thread: a static member's leaving is
// otherwise noticed only when its session times out.
func (s *KafkaStreams) removeStaticMember(ctx context.Context, instanceID string) error {
	via := s.runningThread()
	if via == nil {
		return errors.New("no running stream thread is left to send the request")
	}
	resp, err := kadm.NewClient(via.restorer).LeaveGroup(ctx, kadm.LeaveGroup(s.cfg.ApplicationID).InstanceIDs(instanceID))
	if err != nil {
		return err
	}
	return resp.Error()
}

// runningThread is a stream thread whose clients are up, through which the
// instance sends a request of its own; nil when none runs.
func (s *KafkaStreams) runningThread() *streamThread {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, t := range s.threads {
		// The restore consumer is made with the thread, before its
		// goroutine starts; the main consumer is the thread's to set.
		if t.restorer != nil && !t.stopped.Load() {
			return t
		}
	}
	return nil
}
