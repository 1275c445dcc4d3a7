package kstreams

import (
	"slices"
	"time"
)

// SlidingWindows are windows of a fixed time difference that slide with the
// records: Kafka's SlidingWindows. Two records fall into one window when
// their timestamps differ by at most the time difference; a window
// [start, end] includes both bounds, and only the windows that records
// create exist (each record's left window ending at it, and the right
// windows starting one millisecond after a record).
type SlidingWindows struct {
	TimeDifferenceMs int64
	GraceMs          int64
	err              error
}

// SlidingWindowsOfTimeDifferenceWithNoGrace is
// SlidingWindows.ofTimeDifferenceWithNoGrace.
func SlidingWindowsOfTimeDifferenceWithNoGrace(timeDifference time.Duration) SlidingWindows {
	return SlidingWindowsOfTimeDifferenceAndGrace(timeDifference, 0)
}

// SlidingWindowsOfTimeDifferenceAndGrace is
// SlidingWindows.ofTimeDifferenceAndGrace.
func SlidingWindowsOfTimeDifferenceAndGrace(timeDifference, grace time.Duration) SlidingWindows {
	w := SlidingWindows{TimeDifferenceMs: timeDifference.Milliseconds(), GraceMs: grace.Milliseconds()}
	if w.TimeDifferenceMs < 0 {
		w.err = errIllegalArgument("Window time difference must not be negative.")
	} else if w.GraceMs < 0 {
		w.err = errIllegalArgument("Window grace period must not be negative.")
	}
	return w
}

// SlidingWindowedKStream is a grouped stream over sliding windows; its
// aggregations are tables keyed by Windowed[K] whose End is Start plus the
// time difference.
type SlidingWindowedKStream[K, V any] struct {
	g       *KGroupedStream[K, V]
	windows SlidingWindows
	emit    EmitStrategy
}

// EmitStrategy sets when the aggregation forwards its results
// (TimeWindowedKStream.emitStrategy over SlidingWindows): with
// EmitOnWindowClose, each window once, when stream time passes its end
// plus the grace period.
func (w *SlidingWindowedKStream[K, V]) EmitStrategy(s EmitStrategy) *SlidingWindowedKStream[K, V] {
	return &SlidingWindowedKStream[K, V]{g: w.g, windows: w.windows, emit: s}
}

// WindowedBySliding aggregates per sliding window:
// KGroupedStream.windowedBy(SlidingWindows).
func WindowedBySliding[K, V any](g *KGroupedStream[K, V], w SlidingWindows) *SlidingWindowedKStream[K, V] {
	g.b.fail(w.err)
	return &SlidingWindowedKStream[K, V]{g: g, windows: w}
}

func (w SlidingWindows) size() int64 { return w.TimeDifferenceMs }

func (w SlidingWindows) hasView() bool { return false }

func (w SlidingWindows) store(b *StreamsBuilder, storeName string, mat materializedStore, key, val serdeSpec) *StoreSpec {
	return windowStoreSpec(b, storeName, mat, key, val, w.TimeDifferenceMs, 2*w.TimeDifferenceMs+w.GraceMs,
		"2 * time difference plus the grace period. Got time difference=["+itoa(int(w.TimeDifferenceMs))+
			"], grace=["+itoa(int(w.GraceMs))+"]")
}

// aggregate is KStreamSlidingWindowAggregate over store.
func (w SlidingWindows) aggregate(storeName string, emit EmitStrategy, init func() any, agg func(k, v, agg any) any,
	mk func(k any, w Window) any, old *oldValues) func() Processor {
	return func() Processor {
		return &slidingAggregate{fixedWindowAggregate: newFixedWindowAggregate(storeName, w.TimeDifferenceMs, true, emit, init, agg, mk, old),
			grace: w.GraceMs}
	}
}

func (w *SlidingWindowedKStream[K, V]) fixed() fixedWindowed[K, V] {
	return fixedWindowed[K, V]{g: w.g, windows: w.windows, emit: w.emit}
}

// Count counts records per key and sliding window.
func (w *SlidingWindowedKStream[K, V]) Count(opts ...AggOption[K, int64]) *KTable[Windowed[K], int64] {
	return w.fixed().count(false, opts)
}

// Reduce combines the values of each key and sliding window.
func (w *SlidingWindowedKStream[K, V]) Reduce(reducer func(agg, v V) V, opts ...AggOption[K, V]) *KTable[Windowed[K], V] {
	return w.fixed().reduce(reducer, opts)
}

// SlidingAggregate folds the values of each key and sliding window:
// SlidingWindowedKStream (TimeWindowedKStream over SlidingWindows).aggregate.
func SlidingAggregate[K, V, VA any](w *SlidingWindowedKStream[K, V], init func() VA, agg func(K, V, VA) VA, opts ...AggOption[K, VA]) *KTable[Windowed[K], VA] {
	return fixedWindowedAggregate(w.fixed(), init, agg, opts)
}

// slidingAggregate is KStreamSlidingWindowAggregate (emitting on every
// update): with size the time difference, a record updates the existing
// windows that contain it, creates its own left window [ts-size, ts] and,
// when a later record exists within size, its right window
// [ts+1, ts+1+size]; an earlier record's right window is created when this
// record is the first in it. Windows are visited newest first, as Kafka
// Streams' reverse iteration visits them, so the updates go downstream in
// the same order.
type slidingAggregate struct {
	fixedWindowAggregate
	grace int64
}

// slidingAgg is a window's aggregate with its timestamp (the largest record
// timestamp in it); has is false for "no aggregate".
type slidingAgg struct {
	value any
	ts    int64
	has   bool
}

func (p *slidingAggregate) Process(r Record) error {
	if r.Key == nil || r.Value == nil {
		p.ctx.RecordDropped("Skipping record due to null key or value.")
		return nil
	}
	p.streamTime = max(p.streamTime, r.Timestamp)
	closeTime := p.streamTime - p.grace
	if r.Timestamp+p.size < closeTime {
		p.ctx.RecordDropped("Skipping record for expired window.")
		return nil
	}
	if r.Timestamp < p.size {
		return p.processEarly(r, closeTime) // no final results here, as in Kafka Streams
	}
	if err := p.process(r, closeTime); err != nil || !p.onClose {
		return err
	}
	return p.emitClosed(r, closeTime)
}

// emitClosed forwards the final result of every window that closed since
// the last emission: those whose end (inclusive) is before closeTime.
func (p *slidingAggregate) emitClosed(r Record, closeTime int64) error {
	if !p.emit.due(closeTime) {
		return nil
	}
	upper := closeTime - p.size - 1
	if upper < 0 {
		return nil
	}
	lower := int64(0)
	if last := p.emit.last; last != noTimestamp {
		lower = max(0, last-p.size)
	}
	return p.forwardClosed(r, lower, upper, closeTime)
}

// windows returns key's windows with start in [from, to], newest first.
func (p *slidingAggregate) windows(key any, from, to int64) ([]TimestampedWindow, error) {
	ws, err := p.store.FetchRange(key, from, to)
	slices.Reverse(ws)
	return ws, err
}

func (p *slidingAggregate) process(r Record, closeTime int64) error {
	ws, err := p.windows(r.Key, max(0, r.Timestamp-2*p.size), r.Timestamp+1)
	if err != nil {
		return err
	}
	starts := map[int64]bool{}
	var left, right slidingAgg
	leftCreated, rightCreated := false, false
	var prev *int64
	for _, w := range ws {
		starts[w.Start] = true
		end := w.Start + p.size
		cur := slidingAgg{value: w.Value, ts: w.Timestamp, has: true}
		switch {
		case w.Start == r.Timestamp+1:
			rightCreated = true
		case end > r.Timestamp:
			if !right.has {
				right = cur
			}
			if err := p.update(w.Start, cur, r, closeTime); err != nil {
				return err
			}
		case end == r.Timestamp:
			leftCreated = true
			if err := p.update(w.Start, cur, r, closeTime); err != nil {
				return err
			}
			if w.Timestamp >= r.Timestamp {
				return nil // the record's own timestamp was here before: every window exists
			}
			ts := w.Timestamp
			prev = &ts
		default: // end < r.Timestamp: the newest window before the record's
			left = cur
			ts := w.Timestamp
			prev = &ts
			return p.create(r, closeTime, starts, right, left, leftCreated, rightCreated, prev)
		}
	}
	return p.create(r, closeTime, starts, right, left, leftCreated, rightCreated, prev)
}

// processEarly handles a record whose left window would start before 0:
// the window [0, size] stands in for it.
func (p *slidingAggregate) processEarly(r Record, closeTime int64) error {
	ws, err := p.store.FetchRange(r.Key, 0, r.Timestamp+1)
	if err != nil {
		return err
	}
	starts := map[int64]bool{}
	var combined, right slidingAgg
	combinedStart := int64(-1)
	rightCreated := false
	var prev *int64
	for _, w := range ws {
		starts[w.Start] = true
		cur := slidingAgg{value: w.Value, ts: w.Timestamp, has: true}
		switch {
		case w.Start == 0:
			combined, combinedStart = cur, 0
			if w.Timestamp < r.Timestamp {
				ts := w.Timestamp
				prev = &ts
			}
		case w.Start <= r.Timestamp:
			right = cur
			if err := p.update(w.Start, cur, r, closeTime); err != nil {
				return err
			}
		case w.Start == r.Timestamp+1:
			rightCreated = true
		}
	}
	if !right.has && combinedStart == 0 && combined.ts > r.Timestamp {
		right = combined
	}
	if !rightCreated && right.has && right.ts > r.Timestamp {
		if err := p.createRight(r, right); err != nil {
			return err
		}
	}
	if prev != nil && !starts[*prev+1] {
		if err := p.update(*prev+1, slidingAgg{value: p.initial(), ts: r.Timestamp, has: p.init != nil}, r, closeTime); err != nil {
			return err
		}
	}
	if combinedStart != 0 {
		return p.update(0, slidingAgg{value: p.initial(), ts: r.Timestamp, has: p.init != nil}, r, closeTime)
	}
	return p.update(0, combined, r, closeTime)
}

func (p *slidingAggregate) initial() any {
	if p.init == nil {
		return nil
	}
	return p.init()
}

// create makes the windows the record needs that do not exist yet: the
// previous record's right window, the record's left window and its right
// window (Kafka's createWindows).
func (p *slidingAggregate) create(r Record, closeTime int64, starts map[int64]bool, right, left slidingAgg,
	leftCreated, rightCreated bool, prev *int64) error {
	if prev != nil {
		prevRight := *prev + 1
		if !starts[prevRight] && prevRight+p.size >= r.Timestamp {
			if err := p.update(prevRight, slidingAgg{value: p.initial(), ts: r.Timestamp, has: p.init != nil}, r, closeTime); err != nil {
				return err
			}
		}
	}
	if !leftCreated {
		start := slidingAgg{value: p.initial(), ts: r.Timestamp, has: p.init != nil}
		if prev != nil && r.Timestamp-p.size <= *prev {
			start = slidingAgg{value: left.value, ts: r.Timestamp, has: left.value != nil}
		}
		if err := p.update(r.Timestamp-p.size, start, r, closeTime); err != nil {
			return err
		}
	}
	if !rightCreated && right.has && right.ts > r.Timestamp {
		return p.createRight(r, right)
	}
	return nil
}

// createRight stores the record's right window with the aggregate of the
// window it splits off from (the records after this one), unchanged.
func (p *slidingAggregate) createRight(r Record, right slidingAgg) error {
	start := r.Timestamp + 1
	if err := p.store.Put(r.Key, start, right.value, right.ts); err != nil {
		return err
	}
	return p.forward(r, start, nil, right.value, right.ts)
}

// update adds the record to the window starting at start whose aggregate
// was cur (an initial or missing one for a new window), if the window is
// still open; a closed window drops the record.
func (p *slidingAggregate) update(start int64, cur slidingAgg, r Record, closeTime int64) error {
	end := start + p.size
	if end < closeTime {
		p.ctx.RecordDropped("Skipping record for expired window.")
		return nil
	}
	var oldAgg any
	if cur.has {
		oldAgg = cur.value
	}
	var next any
	if oldAgg == nil && p.init == nil {
		next = r.Value // reduce: the first value is the aggregate
	} else {
		next = p.agg(r.Key, r.Value, oldAgg)
	}
	ts := r.Timestamp
	if oldAgg != nil {
		ts = max(r.Timestamp, cur.ts)
	}
	if err := p.store.Put(r.Key, start, next, ts); err != nil {
		return err
	}
	return p.forward(r, start, oldAgg, next, ts)
}

func (p *slidingAggregate) forward(r Record, start int64, oldAgg, newAgg any, ts int64) error {
	if !p.forwardsUpdates() {
		return nil // forwarded when the window closes, or the cache is flushed
	}
	return p.forwardUpdate(r, start, oldAgg, newAgg, ts)
}
