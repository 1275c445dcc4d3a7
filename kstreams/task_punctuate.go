package kstreams

import (
	"cmp"
	"errors"
	"math"
	"slices"
	"time"
)

// PunctuationType chooses the clock of a punctuation.
type PunctuationType int

// Punctuation clocks, as Kafka's PunctuationType.
const (
	// StreamTime punctuations fire as the task's stream time advances,
	// aligned to multiples of the interval from 0.
	StreamTime PunctuationType = iota
	// WallClockTime punctuations fire as the wall clock advances, from the
	// time they were scheduled.
	WallClockTime
)

// Cancellable cancels a scheduled punctuation.
type Cancellable interface{ Cancel() }

// ErrScheduleInterval is Kafka's rejection of intervals under a millisecond.
//
//lint:ignore ST1005 Kafka's exact message, which users search for
var ErrScheduleInterval = errors.New("The minimum supported scheduling interval is 1 millisecond.")

type punctuation struct {
	node      *taskNode
	typ       PunctuationType
	interval  int64
	next      int64
	fn        func(ts int64) error
	cancelled bool
}

func (p *punctuation) Cancel() { p.cancelled = true }

// run calls the punctuator, turning its panic into its error.
func (p *punctuation) run(ts int64) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = p.node.recovered(r)
		}
	}()
	return p.fn(ts)
}

func (c nodeContext) Schedule(interval time.Duration, typ PunctuationType, fn func(ts int64) error) (Cancellable, error) {
	ms := interval.Milliseconds()
	if ms < 1 {
		return nil, ErrScheduleInterval
	}
	task := c.n.task
	p := &punctuation{node: c.n, typ: typ, interval: ms, fn: fn}
	if typ == WallClockTime {
		p.next = task.wallClock() + ms
	}
	task.punctuations = append(task.punctuations, p)
	return p, nil
}

// PunctuateStreamTime runs the stream-time punctuations due at the task's
// stream time; the runtime calls it after processing records (Kafka's test
// driver after each one). It reports whether any ran.
func (task *Task) PunctuateStreamTime() (bool, error) {
	if task.streamTime < 0 {
		return false, nil
	}
	return task.punctuate(StreamTime, task.streamTime)
}

// PunctuateWallClock runs the wall-clock punctuations due at now.
func (task *Task) PunctuateWallClock(now time.Time) (bool, error) {
	return task.punctuate(WallClockTime, now.UnixMilli())
}

// punctuate fires every due punctuation once, in the order of their
// scheduled times, passing the current time (as Kafka does, not the scheduled
// one), then schedules the next at the first multiple of the interval after
// now, counted from the scheduled time (Kafka's PunctuationSchedule.next).
func (task *Task) punctuate(typ PunctuationType, now int64) (bool, error) {
	var due []*punctuation
	live := task.punctuations[:0]
	for _, p := range task.punctuations {
		if p.cancelled {
			continue
		}
		live = append(live, p)
		if p.typ == typ && p.next <= now {
			due = append(due, p)
		}
	}
	task.punctuations = live
	slices.SortStableFunc(due, func(a, b *punctuation) int { return cmp.Compare(a.next, b.next) })
	for _, p := range due {
		if p.cancelled {
			continue
		}
		next := p.next + p.interval
		if now >= next {
			next = p.next + ((now-p.next)/p.interval+1)*p.interval
			if next < now {
				next = math.MaxInt64
			}
		}
		p.next = next
		prev, prevHeaders, prevMD := task.curTs, task.curHeaders, task.hasMD
		task.curTs, task.curHeaders, task.hasMD = now, nil, false
		err := p.run(now)
		task.curTs, task.curHeaders, task.hasMD = prev, prevHeaders, prevMD
		if err != nil {
			return true, &ProcessError{Task: task.id, Node: p.node.spec.name, Offset: -1, Err: err}
		}
	}
	return len(due) > 0, nil
}
