package kstreams

import (
	"slices"

	"github.com/stoatflow/stoatflow/internal/storeformat"
	"github.com/stoatflow/stoatflow/kstreams/serde"
)

// TimeWindowedKStream is a grouped stream over time windows.
type TimeWindowedKStream[K, V any] struct {
	g       *KGroupedStream[K, V]
	windows TimeWindows
	emit    EmitStrategy
}

// EmitStrategy is when a windowed aggregation forwards its results: Kafka's
// EmitStrategy.
type EmitStrategy int

// The emit strategies.
const (
	// EmitOnWindowUpdate forwards every update of a window (through the
	// record cache when the store caches): EmitStrategy.onWindowUpdate(),
	// the default.
	EmitOnWindowUpdate EmitStrategy = iota
	// EmitOnWindowClose forwards each window once, with its final result,
	// when stream time passes its end plus the grace period:
	// EmitStrategy.onWindowClose(). Windows that close together come
	// ordered by start, then by serialized key; the emission is throttled
	// to one per __emit.interval.ms.kstreams.windowed.aggregation__ of
	// wall-clock time (1 s by default), and the close time of the last one
	// is committed with the task's offsets, so a restarted task (of either
	// engine) goes on from there.
	EmitOnWindowClose
)

// EmitStrategy sets when the aggregation forwards its results:
// TimeWindowedKStream.emitStrategy.
func (w *TimeWindowedKStream[K, V]) EmitStrategy(s EmitStrategy) *TimeWindowedKStream[K, V] {
	return &TimeWindowedKStream[K, V]{g: w.g, windows: w.windows, emit: s}
}

// SessionWindowedKStream is a grouped stream over session windows.
type SessionWindowedKStream[K, V any] struct {
	g       *KGroupedStream[K, V]
	windows SessionWindows
}

// WindowedBy aggregates per time window: KGroupedStream.windowedBy(TimeWindows).
// It is a function, not a method, because a method would instantiate
// Windowed[Windowed[...]] without end.
func WindowedBy[K, V any](g *KGroupedStream[K, V], w TimeWindows) *TimeWindowedKStream[K, V] {
	g.b.fail(w.err)
	return &TimeWindowedKStream[K, V]{g: g, windows: w}
}

// WindowedBySession aggregates per session: KGroupedStream.windowedBy(SessionWindows).
func WindowedBySession[K, V any](g *KGroupedStream[K, V], w SessionWindows) *SessionWindowedKStream[K, V] {
	g.b.fail(w.err)
	return &SessionWindowedKStream[K, V]{g: g, windows: w}
}

func timeWindowedKey[K any](size int64) func(serde.Untyped) serde.Untyped {
	return func(inner serde.Untyped) serde.Untyped { return windowedKeySerde[K]{inner: inner, size: size} }
}

func sessionWindowedKey[K any]() func(serde.Untyped) serde.Untyped {
	return func(inner serde.Untyped) serde.Untyped { return windowedKeySerde[K]{inner: inner, session: true} }
}

// windowedKeySerde writes Windowed[K] keys in Kafka's formats: time windows as
// key ++ start (TimeWindowedSerializer), sessions as key ++ end ++ start.
type windowedKeySerde[K any] struct {
	inner   serde.Untyped
	size    int64
	session bool
}

func (s windowedKeySerde[K]) SerializeAny(topic string, v any) ([]byte, error) {
	if v == nil {
		return nil, nil
	}
	w, ok := v.(Windowed[K])
	if !ok {
		return nil, &serde.SerializationError{Msg: "windowed key serde got a value of another type"}
	}
	kb, err := s.inner.SerializeAny(topic, w.Key)
	if err != nil {
		return nil, err
	}
	if s.session {
		return storeformat.AppendSessionKey(make([]byte, 0, len(kb)+storeformat.SessionKeySuffix), kb, w.Window.Start, w.Window.End), nil
	}
	return storeformat.AppendTimeWindowedKey(make([]byte, 0, len(kb)+storeformat.TimeWindowedSuffix), kb, w.Window.Start), nil
}

// SerializeBaseKey returns the key's bytes without the window.
func (s windowedKeySerde[K]) SerializeBaseKey(topic string, v any) ([]byte, error) {
	w, ok := v.(Windowed[K])
	if !ok {
		return nil, &serde.SerializationError{Msg: "windowed key serde got a value of another type"}
	}
	return s.inner.SerializeAny(topic, w.Key)
}

func (s windowedKeySerde[K]) DeserializeAny(topic string, b []byte) (any, error) {
	if len(b) == 0 { // null, as Kafka's windowed deserializers read empty input
		return nil, nil
	}
	var kb []byte
	var win Window
	var err error
	if s.session {
		kb, win, err = serde.SplitSessionWindowed(b)
	} else {
		kb, win.Start, err = serde.SplitTimeWindowed(b)
		win.End = storeformat.WindowEnd(win.Start, s.size)
	}
	if err != nil {
		return nil, err
	}
	k, err := s.inner.DeserializeAny(topic, kb)
	if err != nil {
		return nil, err
	}
	return Windowed[K]{Key: as[K](k), Window: win}, nil
}

// materializedStore is what a windowed store takes from a Materialized,
// whatever its value type.
type materializedStore struct {
	storeType StoreType
	noLog     bool
	logConfig map[string]string
	noCache   bool
	retention int64
	versioned *VersionedStoreSupplier // MaterializedAsVersioned: only key-value aggregations take one
}

func storeOf[K, V any](m Materialized[K, V]) materializedStore {
	return materializedStore{storeType: m.StoreType, noLog: m.LoggingDisabled, logConfig: m.LogConfig,
		noCache: m.CachingDisabled, retention: m.Retention.Milliseconds(), versioned: m.versioned}
}

// notVersioned fails the build when a windowed aggregation was given a
// versioned store (Kafka's types allow only a window or session store there).
func (m materializedStore) notVersioned(b *StreamsBuilder, storeName string) {
	if m.versioned != nil {
		b.fail(invalidTopology("store %s: a windowed aggregation keeps a window or session store; "+
			"a versioned store (MaterializedAsVersioned) can hold only a key-value table or aggregation", storeName))
	}
}

// fixedWindows are windows of one size that an aggregation keeps in a
// timestamped window store by start: TimeWindows and SlidingWindows. The
// aggregations over them are one implementation (fixedWindowed) that asks
// the windows for what sets them apart.
type fixedWindows interface {
	// size is how long the windows are in milliseconds, the end of a
	// window less its start: the size, or the time difference.
	size() int64
	// store is the window store of an aggregation, with Kafka's check of
	// its retention.
	store(b *StreamsBuilder, storeName string, mat materializedStore, key, val serdeSpec) *StoreSpec
	// aggregate is the aggregation's processor supplier; mk makes its
	// windowed keys.
	aggregate(storeName string, emit EmitStrategy, init func() any, agg func(k, v, agg any) any,
		mk func(k any, w Window) any, old *oldValues) func() Processor
	// hasView says whether the aggregation's table can be looked up by key
	// (KStreamWindowAggregate's view()); a sliding aggregation's cannot yet.
	hasView() bool
}

func (w TimeWindows) size() int64 { return w.SizeMs }

func (w TimeWindows) hasView() bool { return true }

func (w TimeWindows) store(b *StreamsBuilder, storeName string, mat materializedStore, key, val serdeSpec) *StoreSpec {
	return windowStoreSpec(b, storeName, mat, key, val, w.SizeMs, w.SizeMs+w.GraceMs,
		"its window size plus the grace period. Got size=["+itoa(int(w.SizeMs))+"], grace=["+itoa(int(w.GraceMs))+"]")
}

// aggregate is KStreamWindowAggregate over store.
func (w TimeWindows) aggregate(storeName string, emit EmitStrategy, init func() any, agg func(k, v, agg any) any,
	mk func(k any, w Window) any, old *oldValues) func() Processor {
	return func() Processor {
		return &windowAggregate{fixedWindowAggregate: newFixedWindowAggregate(storeName, w.SizeMs, false, emit, init, agg, mk, old),
			windows: w}
	}
}

// windowStoreSpec is the store of an aggregation over fixed windows of
// size, with Kafka's check that its retention is at least min (minRule
// says what min is, for the error).
func windowStoreSpec(b *StreamsBuilder, storeName string, mat materializedStore, key, val serdeSpec, size, min int64,
	minRule string) *StoreSpec {
	mat.notVersioned(b, storeName)
	ret := mat.retention
	if ret == 0 {
		ret = min
	} else if ret < min {
		b.fail(errIllegalArgument("The retention period of the window store " + storeName + " must be no smaller than " +
			minRule + ", retention=[" + itoa(int(ret)) + "]"))
	}
	return &StoreSpec{Name: storeName, Kind: WindowStoreKind, Timestamped: true, Type: mat.storeType, Caching: !mat.noCache,
		Logging: !mat.noLog, LogConfig: mat.logConfig, Retention: ret, WindowSize: size, key: key, val: val}
}

// fixedWindowedTable is the table of an aggregation over fixed windows.
func fixedWindowedTable[K any](b *StreamsBuilder, name string, key, val serdeSpec, storeName string, old *oldValues,
	windows fixedWindows) *KTable[Windowed[K], any] {
	tkey := serdeSpec{explicit: key.explicit, fallback: key.fallback, wrap: timeWindowedKey[K](windows.size())}
	t := &KTable[Windowed[K], any]{b: b, name: name, key: tkey, val: val, storeName: storeName, old: old}
	if windows.hasView() {
		t.getter = windowGetter[K](storeName)
	}
	return t
}

// fixedWindowed is a grouped stream over time or sliding windows, which
// TimeWindowedKStream and SlidingWindowedKStream aggregate through.
type fixedWindowed[K, V any] struct {
	g       *KGroupedStream[K, V]
	windows fixedWindows
	emit    EmitStrategy
}

func (w fixedWindowed[K, V]) build(prefix, named, storeName string, mat Materialized[K, any], val serdeSpec,
	init func() any, agg func(k, v, agg any) any) *KTable[Windowed[K], any] {
	g := w.g
	key := orSpec(mat.KeySerde, g.key)
	st := w.windows.store(g.b, storeName, storeOf(mat), key, val)
	st.TimeOrdered = w.emit == EmitOnWindowClose
	old := aggregateOldValues()
	name := g.aggregation(prefix, named, storeName, mat.Name != "", st, w.windows.aggregate(storeName, w.emit, init, agg, windowedMaker[K], old))
	return fixedWindowedTable[K](g.b, name, key, val, storeName, old, w.windows)
}

// count counts records per key and window; burn is Kafka's burning of a
// store index for a Materialized without a name (TimeWindowedKStream's
// count does, SlidingWindowedKStream's does not).
func (w fixedWindowed[K, V]) count(burn bool, opts []AggOption[K, int64]) *KTable[Windowed[K], int64] {
	o := parseAggOpts(w.g.b, opts)
	var storeName string
	if burn {
		storeName = o.countStoreName(w.g.b)
	} else {
		storeName = o.storeName(w.g.b, prefixAggregate)
	}
	val := orSpec(o.mat.ValueSerde, spec[int64](serde.Long{}))
	return retype[Windowed[K], int64](w.build(prefixAggregate, o.named, storeName, anyMat(o.mat), val, countInit, countAdd))
}

func (w fixedWindowed[K, V]) reduce(reducer func(agg, v V) V, opts []AggOption[K, V]) *KTable[Windowed[K], V] {
	o := parseAggOpts(w.g.b, opts)
	storeName := o.storeName(w.g.b, prefixReduce)
	val := viewSpec(w.g.view, o.mat.ValueSerde, w.g.val)
	t := w.build(prefixReduce, o.named, storeName, anyMat(o.mat), val, nil, windowReducer(w.g.view, reducer))
	t.view = w.g.view
	return retype[Windowed[K], V](t)
}

func fixedWindowedAggregate[K, V, VA any](w fixedWindowed[K, V], init func() VA, agg func(K, V, VA) VA,
	opts []AggOption[K, VA]) *KTable[Windowed[K], VA] {
	o := parseAggOpts(w.g.b, opts)
	storeName := o.storeName(w.g.b, prefixAggregate)
	return retype[Windowed[K], VA](w.build(prefixAggregate, o.named, storeName, anyMat(o.mat), spec(o.mat.ValueSerde),
		func() any { return nullable(init()) }, windowAggregator(w.g.view, agg)))
}

func (w *TimeWindowedKStream[K, V]) fixed() fixedWindowed[K, V] {
	return fixedWindowed[K, V]{g: w.g, windows: w.windows, emit: w.emit}
}

func retype[K, V any](t *KTable[K, any]) *KTable[K, V] {
	return &KTable[K, V]{b: t.b, name: t.name, key: t.key, val: t.val, storeName: t.storeName, view: t.view, old: t.old,
		getter: t.getter}
}

// windowReducer is the aggregator of a windowed or session reduce. Kafka
// Streams hands null values to windowed aggregations (a windowed count
// counts them); a null that V cannot hold leaves the aggregate as it was,
// the result of a null-safe Java reducer.
func windowReducer[V any](view *valueView, reducer func(agg, v V) V) func(_, v, agg any) any {
	arg := valueArg[V](view)
	return func(_, v, agg any) any {
		if agg == nil { // the first value of a session is its aggregate
			return v
		}
		x, ok := arg(v)
		if !ok {
			return agg
		}
		a, _ := arg(agg)
		return view.unboxed(reducer(a, x))
	}
}

// windowAggregator is the aggregator of a windowed or session aggregate; a
// null that V cannot hold leaves the aggregate as it was.
func windowAggregator[K, V, VA any](view *valueView, agg func(K, V, VA) VA) func(k, v, a any) any {
	arg := valueArg[V](view)
	return func(k, v, a any) any {
		x, ok := arg(v)
		if !ok {
			return a
		}
		return nullable(agg(as[K](k), x, as[VA](a)))
	}
}

func anyMat[K, V any](m Materialized[K, V]) Materialized[K, any] {
	return Materialized[K, any]{Name: m.Name, KeySerde: m.KeySerde, StoreType: m.StoreType, LoggingDisabled: m.LoggingDisabled,
		LogConfig: m.LogConfig, CachingDisabled: m.CachingDisabled, Retention: m.Retention, versioned: m.versioned}
}

// Count counts records per key and window.
func (w *TimeWindowedKStream[K, V]) Count(opts ...AggOption[K, int64]) *KTable[Windowed[K], int64] {
	return w.fixed().count(true, opts)
}

// Reduce combines the values of each key and window. A null value that V
// cannot hold leaves the window's aggregate unchanged (reducer is not
// called); as the first value of a window it is its (null) aggregate.
func (w *TimeWindowedKStream[K, V]) Reduce(reducer func(agg, v V) V, opts ...AggOption[K, V]) *KTable[Windowed[K], V] {
	return w.fixed().reduce(reducer, opts)
}

// WindowedAggregate folds the values of each key and time window:
// TimeWindowedKStream.aggregate. A null value that V cannot hold leaves the
// aggregate unchanged (agg is not called).
func WindowedAggregate[K, V, VA any](w *TimeWindowedKStream[K, V], init func() VA, agg func(K, V, VA) VA, opts ...AggOption[K, VA]) *KTable[Windowed[K], VA] {
	return fixedWindowedAggregate(w.fixed(), init, agg, opts)
}

// sessionWindowStore is the session store of a session aggregation, with
// Kafka's check of its retention.
func sessionWindowStore(b *StreamsBuilder, windows SessionWindows, storeName string, mat materializedStore, key, val serdeSpec) *StoreSpec {
	mat.notVersioned(b, storeName)
	min := windows.GapMs + windows.GraceMs
	ret := mat.retention
	if ret == 0 {
		ret = min
	} else if ret < min {
		b.fail(errIllegalArgument("The retention period of the session store " + storeName +
			" must be no smaller than the session inactivity gap plus the grace period. Got gap=[" + itoa(int(windows.GapMs)) +
			"], grace=[" + itoa(int(windows.GraceMs)) + "], retention=[" + itoa(int(ret)) + "]"))
	}
	return &StoreSpec{Name: storeName, Kind: SessionStoreKind, Type: mat.storeType, Caching: !mat.noCache,
		Logging: !mat.noLog, LogConfig: mat.logConfig, Retention: ret, key: key, val: val}
}

// sessionAggregateSupplier is KStreamSessionWindowAggregate over store.
func sessionAggregateSupplier[K any](storeName string, windows SessionWindows, init func() any, agg func(k, v, agg any) any,
	merge func(k, a, b any) any, old *oldValues) func() Processor {
	return func() Processor {
		return &sessionAggregate{storeName: storeName, windows: windows, init: init, agg: agg, merge: merge, mk: windowedMaker[K], old: old}
	}
}

// sessionWindowedTable is the table of a session aggregation.
func sessionWindowedTable[K any](b *StreamsBuilder, name string, key, val serdeSpec, storeName string, old *oldValues) *KTable[Windowed[K], any] {
	tkey := serdeSpec{explicit: key.explicit, fallback: key.fallback, wrap: sessionWindowedKey[K]()}
	return &KTable[Windowed[K], any]{b: b, name: name, key: tkey, val: val, storeName: storeName, old: old,
		getter: sessionGetter[K](storeName)}
}

func (w *SessionWindowedKStream[K, V]) build(prefix, named, storeName string, mat Materialized[K, any], val serdeSpec,
	init func() any, agg func(k, v, agg any) any, merge func(k, a, b any) any) *KTable[Windowed[K], any] {
	g := w.g
	key := orSpec(mat.KeySerde, g.key)
	st := sessionWindowStore(g.b, w.windows, storeName, storeOf(mat), key, val)
	old := aggregateOldValues()
	name := g.aggregation(prefix, named, storeName, mat.Name != "", st, sessionAggregateSupplier[K](storeName, w.windows, init, agg, merge, old))
	return sessionWindowedTable[K](g.b, name, key, val, storeName, old)
}

// Count counts records per key and session.
func (w *SessionWindowedKStream[K, V]) Count(opts ...AggOption[K, int64]) *KTable[Windowed[K], int64] {
	o := parseAggOpts(w.g.b, opts)
	storeName := o.countStoreName(w.g.b)
	val := orSpec(o.mat.ValueSerde, spec[int64](serde.Long{}))
	return retype[Windowed[K], int64](w.build(prefixAggregate, o.named, storeName, anyMat(o.mat), val, countInit, countAdd,
		func(_, a, b any) any { return a.(int64) + b.(int64) }))
}

// Reduce combines the values of each key and session; merging sessions
// reduces their aggregates too. A null value that V cannot hold still opens
// or merges sessions and leaves the aggregate unchanged.
func (w *SessionWindowedKStream[K, V]) Reduce(reducer func(agg, v V) V, opts ...AggOption[K, V]) *KTable[Windowed[K], V] {
	o := parseAggOpts(w.g.b, opts)
	storeName := o.storeName(w.g.b, prefixReduce)
	val := viewSpec(w.g.view, o.mat.ValueSerde, w.g.val)
	red := windowReducer(w.g.view, reducer)
	t := w.build(prefixReduce, o.named, storeName, anyMat(o.mat), val,
		func() any { return nil }, red, func(k, a, b any) any { return red(k, b, a) })
	t.view = w.g.view
	return retype[Windowed[K], V](t)
}

// SessionAggregate folds the values of each key and session; merge combines
// the aggregates of sessions a new record joins: SessionWindowedKStream.aggregate.
// A null value that V cannot hold still opens or merges sessions, and leaves
// the aggregate unchanged (agg is not called).
func SessionAggregate[K, V, VA any](w *SessionWindowedKStream[K, V], init func() VA, agg func(K, V, VA) VA, merge func(K, VA, VA) VA, opts ...AggOption[K, VA]) *KTable[Windowed[K], VA] {
	o := parseAggOpts(w.g.b, opts)
	storeName := o.storeName(w.g.b, prefixAggregate)
	return retype[Windowed[K], VA](w.build(prefixAggregate, o.named, storeName, anyMat(o.mat), spec(o.mat.ValueSerde),
		func() any { return nullable(init()) }, windowAggregator(w.g.view, agg),
		func(k, a, b any) any { return nullable(merge(as[K](k), as[VA](a), as[VA](b))) }))
}

// fixedWindowAggregate is what the aggregations over time and sliding
// windows (windowAggregate, slidingAggregate) share: a timestamped window
// store of windows of one size, the aggregator, stream time, and the
// forwarding of updates, of what the record cache flushes and of the
// windows that close. Its Init and Close are theirs.
type fixedWindowAggregate struct {
	ctx       ProcessorContext
	storeName string
	store     *TimestampedWindowStore
	// size is a window's end less its start: the window size, or the
	// sliding time difference.
	size int64
	// sliding is set for sliding windows, which end at start plus size
	// as Kafka's sliding aggregation computes it; a time window ends at
	// math.MaxInt64 at the latest (storeformat.WindowEnd).
	sliding    bool
	init       func() any // nil: reduce (the first value is the aggregate)
	agg        func(k, v, agg any) any
	mk         func(k any, w Window) any
	streamTime int64
	old        *oldValues
	sendOld    bool
	// onClose is EmitOnWindowClose: the final results go out as windows
	// close (see forwardClosed), not the updates.
	onClose bool
	emit    *closeEmitter
}

func newFixedWindowAggregate(storeName string, size int64, sliding bool, emit EmitStrategy, init func() any,
	agg func(k, v, agg any) any, mk func(k any, w Window) any, old *oldValues) fixedWindowAggregate {
	return fixedWindowAggregate{storeName: storeName, size: size, sliding: sliding, onClose: emit == EmitOnWindowClose,
		init: init, agg: agg, mk: mk, old: old}
}

// window is the window starting at start.
func (p *fixedWindowAggregate) window(start int64) Window {
	if p.sliding {
		return Window{Start: start, End: start + p.size}
	}
	return Window{Start: start, End: storeformat.WindowEnd(start, p.size)}
}

func (p *fixedWindowAggregate) Init(ctx ProcessorContext) (err error) {
	p.ctx, p.sendOld = ctx, p.old.sending()
	p.streamTime = -1 << 63
	if p.store, err = storeAs[*TimestampedWindowStore](ctx, p.storeName); err != nil {
		return err
	}
	if p.onClose {
		// Nothing is forwarded at a cache flush: the cache only holds
		// the aggregates until the windows close.
		p.emit = newCloseEmitter(ctx, p.storeName)
		return nil
	}
	p.store.onFlush(func(e *cacheEntry) error {
		ts := e.ctxTs
		if e.value != nil {
			ts = e.ts
		}
		c := Change{New: e.value}
		if p.sendOld {
			c.Old = e.old
		}
		return ctx.Forward(Record{Key: p.mk(e.keyVal, p.window(e.start)), Value: c, Timestamp: ts, Headers: e.headers})
	})
	return nil
}

func (p *fixedWindowAggregate) Close() error { return nil }

// forwardsUpdates says whether updates go downstream as they are made: not
// with EmitOnWindowClose, and not through a caching store, whose flushes
// forward them.
func (p *fixedWindowAggregate) forwardsUpdates() bool { return !p.onClose && !p.store.Caching() }

// forwardUpdate forwards the update of the window of r's key starting at
// start from old (sent when the table sends old values) to next.
func (p *fixedWindowAggregate) forwardUpdate(r Record, start int64, old, next any, ts int64) error {
	c := Change{New: next}
	if p.sendOld {
		c.Old = old
	}
	return p.ctx.Forward(Record{Key: p.mk(r.Key, p.window(start)), Value: c, Timestamp: ts, Headers: r.Headers})
}

// forwardClosed emits the final results of the windows with start in
// [lower, upper] (as Kafka's fetchAll and its time-ordered store order
// them), each with its aggregate's timestamp and the headers of the record
// r that closed them, and records the emission up to closeTime.
func (p *fixedWindowAggregate) forwardClosed(r Record, lower, upper, closeTime int64) error {
	closed, err := p.store.FetchAll(lower, upper)
	if err != nil {
		return err
	}
	for _, w := range closed {
		out := Record{Key: p.mk(w.Key, p.window(w.Start)), Value: Change{New: w.Value}, Timestamp: w.Timestamp, Headers: r.Headers}
		if err := p.ctx.Forward(out); err != nil {
			return err
		}
	}
	p.emit.emitted(closeTime)
	return nil
}

// windowAggregate is KStreamWindowAggregate: each record updates every window
// containing its timestamp whose end is after stream time minus grace; other
// windows drop it and count it as dropped.
type windowAggregate struct {
	fixedWindowAggregate
	windows TimeWindows
}

func (p *windowAggregate) Process(r Record) error {
	if r.Key == nil { // null values go to the aggregator, as in Kafka
		p.ctx.RecordDropped("Skipping record due to null key.")
		return nil
	}
	p.streamTime = max(p.streamTime, r.Timestamp)
	closeTime := p.streamTime - p.windows.GraceMs
	for _, start := range p.windows.windowsFor(r.Timestamp) {
		if p.window(start).End <= closeTime {
			p.ctx.RecordDropped("Skipping record for expired window.")
			continue
		}
		old, oldTs, ok, err := p.store.Fetch(r.Key, start)
		if err != nil {
			return err
		}
		next, ts := fold(p.init, p.agg, r, old, oldTs, ok)
		if err := p.store.Put(r.Key, start, next, ts); err != nil {
			return err
		}
		if !p.forwardsUpdates() {
			continue // forwarded when the window closes, or the cache is flushed
		}
		if !ok && p.sendOld && p.init != nil {
			// KStreamWindowAggregate sends the initial aggregate as a new
			// window's old value (null for a reduce); suppress buffers it.
			old = p.init()
		}
		if err := p.forwardUpdate(r, start, old, next, ts); err != nil {
			return err
		}
	}
	if p.onClose {
		return p.emitClosed(r, closeTime)
	}
	return nil
}

// emitClosed forwards the final result of every window that closed since
// the last emission (KStreamWindowAggregate's maybeForwardFinalResult):
// those whose end is at most closeTime. The first emission of a task that
// has none committed starts from window start 0.
func (p *windowAggregate) emitClosed(r Record, closeTime int64) error {
	if !p.emit.due(closeTime) {
		return nil
	}
	upper := closeTime - p.size // the last start whose window has closed
	if upper < 0 {
		return nil // no window has closed yet
	}
	lower := int64(0)
	if last := p.emit.last; last != noTimestamp {
		lower = max(0, last-p.size) + 1
		// Nothing to fetch while no new window has closed: the windows
		// holding upper are those holding lower-1.
		if slices.Equal(p.windows.windowsFor(upper), p.windows.windowsFor(lower-1)) {
			return nil
		}
	}
	return p.forwardClosed(r, lower, upper, closeTime)
}

// noTimestamp is Kafka's ConsumerRecord.NO_TIMESTAMP.
const noTimestamp = -1

// closeEmitter is the emission state of an aggregation with
// EmitOnWindowClose: the close time of its last emission, committed as the
// task's processor metadata under the store's name (as Kafka Streams keeps
// it), and the wall-clock throttle.
type closeEmitter struct {
	task     *Task // nil outside a task: nothing throttles or is committed
	key      string
	last     int64
	loaded   bool // last read from the task's committed metadata
	interval int64
	next     int64 // wall-clock time of the next allowed emission
}

func newCloseEmitter(ctx ProcessorContext, storeName string) *closeEmitter {
	e := &closeEmitter{key: storeName, last: noTimestamp}
	if nc, ok := ctx.(nodeContext); ok {
		e.task = nc.n.task
		e.interval = e.task.windowEmitInterval
	}
	return e
}

// due says whether an emission may happen now for windows closing by
// closeTime: once per interval of wall-clock time, and only when the close
// time moved past the last emission's. The last emission's close time is
// read at the first record: the runtime may hand the task its committed
// metadata after building it.
func (e *closeEmitter) due(closeTime int64) bool {
	if !e.loaded && e.task != nil {
		if v, ok := e.task.processorMetadata(e.key); ok {
			e.last = v
		}
	}
	e.loaded = true
	if e.task != nil {
		now := e.task.wallClock()
		if now < e.next {
			return false
		}
		e.next = now + e.interval
	}
	return e.last == noTimestamp || e.last < closeTime
}

// emitted records an emission of the windows closed by closeTime.
func (e *closeEmitter) emitted(closeTime int64) {
	e.last = closeTime
	if e.task != nil {
		e.task.setProcessorMetadata(e.key, closeTime)
	}
}

func windowedMaker[K any](k any, w Window) any { return Windowed[K]{Key: as[K](k), Window: w} }

// sessionAggregate is KStreamSessionWindowAggregate: a record opens a session
// [ts, ts] and merges every session of its key within the inactivity gap;
// merged sessions are removed (and retracted downstream with a nil value).
type sessionAggregate struct {
	ctx        ProcessorContext
	storeName  string
	store      *SessionStore
	windows    SessionWindows
	init       func() any
	agg        func(k, v, agg any) any
	merge      func(k, a, b any) any
	mk         func(k any, w Window) any
	streamTime int64
	old        *oldValues
	sendOld    bool
}

func (p *sessionAggregate) Init(ctx ProcessorContext) (err error) {
	p.ctx, p.sendOld = ctx, p.old.sending()
	p.streamTime = -1 << 63
	if p.store, err = storeAs[*SessionStore](ctx, p.storeName); err != nil {
		return err
	}
	p.store.onFlush(func(e *cacheEntry) error {
		c := Change{New: e.value}
		if p.sendOld {
			c.Old = e.old
		}
		return ctx.Forward(Record{Key: p.mk(e.keyVal, e.win), Value: c, Timestamp: e.win.End, Headers: e.headers})
	})
	return nil
}

func (p *sessionAggregate) Process(r Record) error {
	if r.Key == nil {
		p.ctx.RecordDropped("Skipping record due to null key.")
		return nil
	}
	ts := r.Timestamp
	p.streamTime = max(p.streamTime, ts)
	// Kafka Streams 4.4 closes a session only once stream time has passed its
	// end by the grace period plus the inactivity gap.
	closeTime := p.streamTime - p.windows.GraceMs - p.windows.GapMs
	merged, err := p.store.FindSessions(r.Key, ts-p.windows.GapMs, ts+p.windows.GapMs)
	if err != nil {
		return err
	}
	win := Window{Start: ts, End: ts}
	agg := p.init()
	for _, s := range merged {
		agg = p.merge(r.Key, agg, s.Value)
		win.Start = min(win.Start, s.Window.Start)
		win.End = max(win.End, s.Window.End)
	}
	if win.End < closeTime {
		p.ctx.RecordDropped("Skipping record for expired window.")
		return nil
	}
	if win != (Window{Start: ts, End: ts}) {
		for _, s := range merged {
			if err := p.store.Remove(r.Key, s.Window); err != nil {
				return err
			}
			if p.store.Caching() {
				continue
			}
			// A merged session is retracted; its aggregate is the old value.
			c := Change{}
			if p.sendOld {
				c.Old = s.Value
			}
			if err := p.ctx.Forward(Record{Key: p.mk(r.Key, s.Window), Value: c, Timestamp: s.Window.End, Headers: r.Headers}); err != nil {
				return err
			}
		}
	}
	agg = p.agg(r.Key, r.Value, agg)
	if err := p.store.Put(r.Key, win, agg); err != nil {
		return err
	}
	if p.store.Caching() {
		return nil
	}
	return p.ctx.Forward(Record{Key: p.mk(r.Key, win), Value: Change{New: agg}, Timestamp: win.End, Headers: r.Headers})
}

func (p *sessionAggregate) Close() error { return nil }
