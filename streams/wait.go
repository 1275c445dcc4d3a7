package streams

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
)

// Causes of the runtime's contexts ending, told apart with errors.Is.
var (
	// errShuttingDown ends a run context: Close was called, or a thread
	// failed and the instance stops (SHUTDOWN_CLIENT). Waits on the
	// processing and rebalance paths give up; the final commit does not.
	errShuttingDown = errors.New("streams: shutting down")
	// errShutdownDeadline ends the abort context: the context given to
	// Close ended. Every wait gives up, the final commit's included.
	errShutdownDeadline = errors.New("streams: shutdown deadline passed")
	// errClosedDuringStart ends a Start that Close interrupted.
	errClosedDuringStart = errors.New("streams: closed while starting")
)

// interrupted reports whether err is a wait cut short by the shutdown, not
// a failure of its own.
func interrupted(err error) bool {
	return errors.Is(err, errShuttingDown) || errors.Is(err, errShutdownDeadline)
}

// retriable reports whether a failed broker request may succeed when made
// again: a broker not reachable (yet, or any more), or a Kafka error marked
// retriable. A context that ended, a closed client or a final answer of
// Kafka are not.
func retriable(err error) bool {
	var ke *kerr.Error
	if errors.As(err, &ke) {
		return ke.Retriable
	}
	return !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded) &&
		!errors.Is(err, kgo.ErrClientClosed)
}

// retryRequest calls call until it succeeds, fails with an error that is
// not retriable, or ctx ends. franz-go retries a request on one connection
// failure but returns a refused dial at once; a broker that is starting or
// restarting comes back. When ctx ended, the error wraps ctx's cause.
func retryRequest(ctx context.Context, call func(ctx context.Context) error) error {
	backoff := 50 * time.Millisecond
	for {
		err := call(ctx)
		if err == nil {
			return nil
		}
		if ctx.Err() != nil || !retriable(err) {
			return withCause(ctx, err)
		}
		select {
		case <-ctx.Done():
			return withCause(ctx, err)
		case <-time.After(backoff):
		}
		backoff = min(2*backoff, time.Second)
	}
}

// withCause adds ctx's cause to an error its end caused.
func withCause(ctx context.Context, err error) error {
	if err == nil || ctx.Err() == nil {
		return err
	}
	return fmt.Errorf("%w; gave up: %w", err, context.Cause(ctx))
}

// activity is what a stream thread is doing or waiting for, for Close's
// error when the shutdown deadline passes.
type activity struct {
	what  string
	since time.Time
}

// doing records what the thread does from now on and returns the function
// that restores the previous activity.
func (t *streamThread) doing(what string) (done func()) {
	prev := t.cur.Swap(&activity{what: what, since: time.Now()})
	return func() { t.cur.Store(prev) }
}

// threadActivities names what every thread that has not stopped is doing.
func threadActivities(threads []*streamThread, now time.Time) string {
	var parts []string
	for _, t := range threads {
		if t.stopped.Load() {
			continue
		}
		a := t.cur.Load()
		if a == nil {
			parts = append(parts, fmt.Sprintf("stream thread %d: running", t.idx))
			continue
		}
		parts = append(parts, fmt.Sprintf("stream thread %d: %s (for %v)", t.idx, a.what, now.Sub(a.since).Round(time.Millisecond)))
	}
	if len(parts) == 0 {
		return "stream threads stopped, instance still closing"
	}
	return strings.Join(parts, "; ")
}

// threadState is the part of a stream thread other goroutines read.
type threadState struct {
	cur     atomic.Pointer[activity]
	stopped atomic.Bool
}
