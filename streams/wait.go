package streams

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"github.com/confluentinc/confluent-kafka-go/v2/kafka"
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

// waitSlice bounds one blocking librdkafka call (metadata, watermarks,
// committed offsets). Those calls take a timeout in milliseconds and cannot
// be cancelled, so a wait of up to a bound is made of calls of at most a
// second, with ctx checked in between: a shutdown is never held up longer.
const waitSlice = time.Second

// sliced calls call with timeouts of at most waitSlice, until it returns
// something other than a timeout or transport error, bound has passed, or
// ctx ends. It calls once even when ctx has ended already (a look-up that
// answers at once is not refused). The error names what was waited for;
// when ctx ended, it wraps ctx's cause.
func sliced(ctx context.Context, what string, bound time.Duration, call func(timeoutMs int) error) error {
	until := time.Now().Add(bound)
	ctxFirst := false // ctx's deadline comes before bound
	if d, ok := ctx.Deadline(); ok && d.Before(until) {
		until, ctxFirst = d, true
	}
	for {
		left := time.Until(until)
		if left <= 0 {
			left = time.Millisecond // one last try
		}
		err := call(int(min(left, waitSlice).Milliseconds()) + 1)
		if err == nil {
			return nil
		}
		var ke kafka.Error
		retriable := errors.As(err, &ke) && (ke.Code() == kafka.ErrTimedOut || ke.Code() == kafka.ErrTransport ||
			ke.Code() == kafka.ErrAllBrokersDown || ke.Code() == kafka.ErrTimedOutQueue)
		if !retriable {
			return fmt.Errorf("%s: %w", what, err)
		}
		if ctx.Err() != nil {
			return fmt.Errorf("%s: %w; gave up: %w", what, err, context.Cause(ctx))
		}
		if !time.Now().Before(until) {
			if ctxFirst {
				<-ctx.Done() // its deadline has passed: it ends now, with its cause
				return fmt.Errorf("%s: %w; gave up: %w", what, err, context.Cause(ctx))
			}
			return fmt.Errorf("%s: no answer within %v: %w", what, bound, err)
		}
		if ke.Code() != kafka.ErrTimedOut {
			// A transport error comes back at once: do not spin.
			select {
			case <-ctx.Done():
			case <-time.After(min(100*time.Millisecond, time.Until(until))):
			}
		}
	}
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
