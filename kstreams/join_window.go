package kstreams

import (
	"strconv"
	"time"
)

// JoinWindows are the windows of a stream-stream join: Kafka's JoinWindows.
// A record of the left stream at time t joins the right stream's records
// with the same key in [t - BeforeMs, t + AfterMs]; a record of the right
// stream at time t joins the left records in [t - AfterMs, t + BeforeMs].
// Records that arrive later than GraceMs after a window's end (in stream
// time) no longer join, and a left or outer join emits a record that found
// no partner only once its window has closed.
type JoinWindows struct {
	BeforeMs int64
	AfterMs  int64
	GraceMs  int64
	err      error
}

// JoinWindowsOfTimeDifferenceWithNoGrace is
// JoinWindows.ofTimeDifferenceWithNoGrace: records join when their
// timestamps differ by at most timeDifference, and a window closes as soon
// as stream time passes its end.
func JoinWindowsOfTimeDifferenceWithNoGrace(timeDifference time.Duration) JoinWindows {
	return JoinWindowsOfTimeDifferenceAndGrace(timeDifference, 0)
}

// JoinWindowsOfTimeDifferenceAndGrace is JoinWindows.ofTimeDifferenceAndGrace:
// records join when their timestamps differ by at most timeDifference, and
// records up to afterWindowEnd late still join.
func JoinWindowsOfTimeDifferenceAndGrace(timeDifference, afterWindowEnd time.Duration) JoinWindows {
	d := timeDifference.Milliseconds()
	return newJoinWindows(d, d, afterWindowEnd.Milliseconds())
}

func newJoinWindows(before, after, grace int64) JoinWindows {
	w := JoinWindows{BeforeMs: before, AfterMs: after, GraceMs: grace}
	switch {
	case before+after < 0:
		w.err = errIllegalArgument("Window interval (ie, beforeMs+afterMs) must not be negative.")
	case grace < 0:
		w.err = errIllegalArgument("Grace period must not be negative.")
	}
	return w
}

// Before sets how much earlier than a left record a right record may be:
// JoinWindows.before. The other bounds stay.
func (w JoinWindows) Before(timeDifference time.Duration) JoinWindows {
	return w.keepError(newJoinWindows(timeDifference.Milliseconds(), w.AfterMs, w.GraceMs))
}

// After sets how much later than a left record a right record may be:
// JoinWindows.after. The other bounds stay.
func (w JoinWindows) After(timeDifference time.Duration) JoinWindows {
	return w.keepError(newJoinWindows(w.BeforeMs, timeDifference.Milliseconds(), w.GraceMs))
}

// keepError returns next, failing with w's error if w was already invalid:
// the first invalid step is the one Kafka would have thrown at.
func (w JoinWindows) keepError(next JoinWindows) JoinWindows {
	if w.err != nil {
		next.err = w.err
	}
	return next
}

// Size is the window size, BeforeMs + AfterMs: JoinWindows.size.
func (w JoinWindows) Size() int64 { return w.BeforeMs + w.AfterMs }

// GracePeriodMs is the grace period: JoinWindows.gracePeriodMs.
func (w JoinWindows) GracePeriodMs() int64 { return w.GraceMs }

// Err returns the validation error of the windows (Kafka's
// IllegalArgumentException), or nil; a join over invalid windows fails the
// build with it.
func (w JoinWindows) Err() error { return w.err }

// String formats the windows as Kafka's JoinWindows.toString does.
func (w JoinWindows) String() string {
	return "JoinWindows{beforeMs=" + strconv.FormatInt(w.BeforeMs, 10) + ", afterMs=" + strconv.FormatInt(w.AfterMs, 10) +
		", graceMs=" + strconv.FormatInt(w.GraceMs, 10) + "}"
}
