package streams

import (
	"context"
	"errors"
	"fmt"
	"slices"
)

// ExceptionResponse is what an uncaught-exception handler asks for when a
// stream thread fails (Kafka Streams' StreamThreadExceptionResponse).
type ExceptionResponse int

// The responses, in Kafka Streams' words.
const (
	// ShutdownClient stops every thread of this instance, which ends in
	// ERROR (the response without a handler).
	ShutdownClient ExceptionResponse = iota
	// ReplaceThread starts a new thread in place of the failed one. The
	// failed thread's epoch was aborted and its tasks closed without
	// committing; the new thread joins the group, gets tasks again and
	// resumes them from their committed offsets and stores.
	ReplaceThread
	// ShutdownApplication stops every instance of the application, each
	// ending in ERROR, as in Kafka Streams: the request goes through the
	// group (its protocol's user data), and the others' error is
	// ErrApplicationShutdown. It reaches the instances in the group; one
	// that joins later runs.
	ShutdownApplication
)

func (r ExceptionResponse) String() string {
	switch r {
	case ShutdownClient:
		return "SHUTDOWN_CLIENT"
	case ReplaceThread:
		return "REPLACE_THREAD"
	case ShutdownApplication:
		return "SHUTDOWN_APPLICATION"
	}
	return fmt.Sprintf("ExceptionResponse(%d)", int(r))
}

// ErrAlreadyStarted: a setting that must come before Start came after it.
var ErrAlreadyStarted = errors.New("streams: the instance has started; set this before Start")

// SetUncaughtExceptionHandler sets what happens when a stream thread fails
// (Kafka Streams' setUncaughtExceptionHandler): h receives the thread's
// error and answers with a response. It replaces the response the
// configuration names (stoatflow.thread.uncaught-exception-response, the
// sidecar's way to choose one). Without either, or when h answers
// ShutdownClient, the instance stops and ends in ERROR. It must be called
// before Start.
func (s *KafkaStreams) SetUncaughtExceptionHandler(h func(err error) ExceptionResponse) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.mu.started || s.mu.starting != nil {
		return ErrAlreadyStarted
	}
	s.mu.onThreadError = h
	return nil
}

// runThread runs t until it stops. When it fails while the instance goes
// on, the handler's response decides: a replacement thread, or the
// instance's shutdown.
func (s *KafkaStreams) runThread(ctx context.Context, t *streamThread) {
	s.wg.Add(1)
	s.startThread(ctx, t)
}

// startThread is runThread for a caller that has counted the thread in
// wg already (AddStreamThread counts it under the lock that orders it
// before the run context's end).
func (s *KafkaStreams) startThread(ctx context.Context, t *streamThread) {
	tctx, stop := context.WithCancelCause(ctx)
	done := make(chan struct{})
	s.mu.Lock()
	t.stop, t.done = stop, done
	s.mu.Unlock()
	go func() {
		defer s.wg.Done()
		defer close(done)
		defer t.stopped.Store(true)
		defer stop(nil)
		err := t.run(tctx)
		if err == nil {
			return
		}
		if t.removed.Load() {
			s.log.Warn("a removed stream thread stopped with an error", "thread", t.idx, "err", err)
			return
		}
		err = fmt.Errorf("streams: stream thread %d: %w", t.idx, err)
		if ctx.Err() != nil {
			s.fail(err)
			return
		}
		switch resp := s.respond(err); resp {
		case ReplaceThread:
			n, rerr := s.replaceThread(t)
			if rerr != nil {
				s.fail(fmt.Errorf("%w; replacing the thread failed: %w", err, rerr))
				return
			}
			s.log.Warn("stream thread failed; replaced (REPLACE_THREAD)", "thread", t.idx, "replacement", n.idx, "err", err)
			s.threadReady(n.idx, false) // REBALANCING until the new thread has its tasks
			s.runThread(ctx, n)
		case ShutdownApplication:
			s.requestApplicationShutdown(ctx, t, err)
		default:
			s.fail(err)
		}
	}()
}

// respond asks the handler, if any, what to do about a thread's error; a
// handler that panics counts as ShutdownClient.
func (s *KafkaStreams) respond(err error) (resp ExceptionResponse) {
	s.mu.Lock()
	h := s.mu.onThreadError
	s.mu.Unlock()
	if h == nil {
		return ShutdownClient
	}
	defer func() {
		if p := recover(); p != nil {
			s.log.Error("the uncaught-exception handler panicked; shutting down", "panic", fmt.Sprint(p))
			resp = ShutdownClient
		}
	}()
	return h(err)
}

// replaceThread creates the thread that takes the place of old, which has
// stopped, under the lowest index no other thread holds: old's own, unless
// a thread added meanwhile took a lower one. With old's index come its
// client ids, its group.instance.id and its transactional.id, so that under
// static membership the new consumer takes old's place in the group at
// once instead of after session.timeout.ms. (Kafka Streams gives the new
// thread the next free index, as the failed one still counts as alive.)
func (s *KafkaStreams) replaceThread(old *streamThread) (*streamThread, error) {
	idx := s.freeThreadIndex(old)
	n, err := newStreamThread(s, idx)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	threads := make([]*streamThread, 0, len(s.threads))
	for _, t := range s.threads {
		if t != old {
			threads = append(threads, t)
		}
	}
	s.threads = append(threads, n)
	delete(s.mu.threadUp, old.idx)
	s.mu.threadUp[n.idx] = false
	return n, nil
}

// freeThreadIndex is the lowest thread index no thread but skip holds
// (skip may be nil).
func (s *KafkaStreams) freeThreadIndex(skip *streamThread) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	used := map[int]bool{}
	for _, t := range s.threads {
		if t != skip {
			used[t.idx] = true
		}
	}
	idx := 1
	for used[idx] {
		idx++
	}
	return idx
}

// liveThreads returns the instance's threads, replacements included.
func (s *KafkaStreams) liveThreads() []*streamThread {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.threads)
}

// configuredResponse is the response stoatflow.thread.uncaught-exception-response
// names (compat validates it).
func configuredResponse(name string) ExceptionResponse {
	switch name {
	case "REPLACE_THREAD":
		return ReplaceThread
	case "SHUTDOWN_APPLICATION":
		return ShutdownApplication
	}
	return ShutdownClient
}
