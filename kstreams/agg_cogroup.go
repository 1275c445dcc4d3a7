package kstreams

import "strconv"

const (
	prefixCogroupAggregate = "COGROUPKSTREAM-AGGREGATE-"
	prefixCogroupMerge     = "COGROUPKSTREAM-MERGE-"
)

// CogroupedKStream aggregates several grouped streams of one key type into
// one table, each stream folding its records into the same aggregate with
// its own aggregator: Kafka's CogroupedKStream<K, VA>. Start one with
// Cogroup, add streams with CogroupWith, then call Aggregate, or window it
// with WindowedBy, WindowedBySession or WindowedBySliding.
//
// As in Kafka Streams, the store is written by one processor per stream
// (COGROUPKSTREAM-AGGREGATE-…) and the table is their merge
// (COGROUPKSTREAM-MERGE-…); a stream whose key changed upstream is
// repartitioned first, through a topic named after its Grouped name or the
// store's; and the source topics of all the streams must be co-partitioned.
type CogroupedKStream[K, VA any] struct {
	b     *StreamsBuilder
	key   serdeSpec // the first stream's key serde: the fallback of the store's
	parts []cogroupPart
	// parents holds the node each grouped stream's aggregation hangs off
	// once an aggregation of this cogroup has made it (its repartition
	// source, or the stream itself): a second aggregation reuses it, as
	// Kafka's CogroupedStreamAggregateBuilder does.
	parents map[any]string
}

// cogroupPart is one grouped stream of a cogroup with its aggregator, erased.
type cogroupPart struct {
	id                  any // the *KGroupedStream, by identity
	name                string
	key, val            serdeSpec
	repartitionRequired bool
	repartitionName     string
	// kvAgg is the aggregator of a key-value aggregation, which never sees
	// a null value (the processor drops it); winAgg that of a windowed one,
	// which leaves the aggregate as it was for a null V cannot hold.
	kvAgg, winAgg func(k, v, agg any) any
}

// Cogroup starts a cogroup with g and its aggregator:
// KGroupedStream.cogroup(aggregator).
func Cogroup[K, V, VA any](g *KGroupedStream[K, V], agg func(K, V, VA) VA) *CogroupedKStream[K, VA] {
	c := &CogroupedKStream[K, VA]{b: g.b, key: g.key, parents: map[any]string{}}
	return CogroupWith(c, g, agg)
}

// CogroupWith adds g with its aggregator to c and returns c:
// CogroupedKStream.cogroup(groupedStream, aggregator). Adding a stream a
// second time replaces its aggregator and keeps its place, as Kafka's
// ordered map of streams does.
func CogroupWith[K, V, VA any](c *CogroupedKStream[K, VA], g *KGroupedStream[K, V], agg func(K, V, VA) VA) *CogroupedKStream[K, VA] {
	if agg == nil {
		c.b.fail(errIllegalArgument("aggregator can't be null"))
		return c
	}
	arg := valueArg[V](g.view)
	p := cogroupPart{id: g, name: g.name, key: g.key, val: g.val, repartitionRequired: g.repartitionRequired,
		repartitionName: g.repartitionName,
		kvAgg: func(k, v, a any) any {
			x, _ := arg(v) // never null here: the aggregate processor drops null values
			return nullable(agg(as[K](k), x, as[VA](a)))
		},
		winAgg: windowAggregator(g.view, agg)}
	for i := range c.parts {
		if c.parts[i].id == p.id {
			c.parts[i] = p
			return c
		}
	}
	c.parts = append(c.parts, p)
	return c
}

// storeKey is the key serde of the cogroup's store: Materialized's, else the
// default (Kafka builds a cogroup's Materialized without the streams' key
// serde), else, for typed Go streams with no default, the first stream's.
func (c *CogroupedKStream[K, VA]) storeKey(m serdeSpec) serdeSpec {
	fb := c.key.explicit
	if fb == nil {
		fb = c.key.fallback
	}
	return serdeSpec{explicit: m.explicit, fallback: fb}
}

// storeName is the store's name from Materialized, or a generated
// one, which counts as unnamed with its changelog unless logging is off.
func (c *CogroupedKStream[K, VA]) storeName(name string, logged bool) string {
	if name != "" {
		return name
	}
	name = c.b.newStoreName(prefixCogroupAggregate)
	c.b.unnamedStore(name, logged)
	return name
}

// build adds the cogroup's repartition topics, its store, one aggregate
// processor per stream and the merge, in Kafka's naming order, and returns
// the merge's name: the table's node. A repartition topic named after the
// store counts as unnamed unless the Materialized named the store
// (storeNamed); Kafka Streams counts it again for every later aggregation
// of the grouped stream, which reuses the topic.
func (c *CogroupedKStream[K, VA]) build(named, storeName string, storeNamed bool, st *StoreSpec, processor func(p cogroupPart) func() Processor) string {
	b := c.b
	if len(c.parts) == 0 {
		b.fail(invalidTopology("a cogroup needs at least one grouped stream"))
		return ""
	}
	parents := make([]string, len(c.parts))
	nodes := make([]string, len(c.parts))
	for i, p := range c.parts {
		nodes[i] = p.name
		if !p.repartitionRequired {
			parents[i] = p.name
			continue
		}
		base := p.repartitionName
		if base == "" {
			base = storeName
			if !storeNamed {
				b.unnamedRepartition(base)
			}
		}
		if n, ok := c.parents[p.id]; ok {
			// Kafka draws the repartition's three names again before it
			// finds the node it made for an earlier aggregation.
			for range 3 {
				b.newProcessorName(prefixSink)
			}
			parents[i] = n
			continue
		}
		parents[i] = createRepartition(b, p.name, base, p.key, p.val)
		c.parents[p.id] = parents[i]
	}
	b.copartition(nodes...)
	b.fail(b.topo.addStore(st))
	aggs := make([]string, len(c.parts))
	for i, p := range c.parts {
		aggs[i] = b.orGenerate(suffixed(named, "-cogroup-agg-"+strconv.Itoa(i)), prefixCogroupAggregate)
		b.addNode(&nodeSpec{name: aggs[i], kind: ProcessorNode, preds: []string{parents[i]}, supplier: processor(p)})
		b.fail(b.topo.connectStore(aggs[i], storeName))
	}
	merge := b.orGenerate(suffixed(named, "-cogroup-merge"), prefixCogroupMerge)
	b.addNode(&nodeSpec{name: merge, kind: ProcessorNode, preds: aggs, supplier: stateless(func(ctx ProcessorContext, r Record) error {
		return ctx.Forward(r) // KTablePassThrough: the aggregates' changes as they come
	})})
	return merge
}

// suffixed is a Named name with Kafka's suffix for one of an operation's
// processors, or "" when the operation is not named.
func suffixed(named, suffix string) string {
	if named == "" {
		return ""
	}
	return named + suffix
}

// cogroupAggregation is what every aggregation of a cogroup starts with: its
// options, store name, serdes, old values and initializer.
type cogroupAggregation struct {
	named, storeName string
	storeNamed       bool // the Materialized named the store
	mat              materializedStore
	key, val         serdeSpec
	old              *oldValues
	init             func() any
}

func (c *CogroupedKStream[K, VA]) aggregation(init func() VA, opts []AggOption[K, VA]) cogroupAggregation {
	o := parseAggOpts(c.b, opts)
	if init == nil {
		c.b.fail(errIllegalArgument("initializer can't be null"))
	}
	return cogroupAggregation{named: o.named, storeName: c.storeName(o.mat.Name, !o.mat.LoggingDisabled), storeNamed: o.mat.Name != "", mat: storeOf(o.mat),
		key: c.storeKey(spec(o.mat.KeySerde)), val: spec(o.mat.ValueSerde), old: aggregateOldValues(),
		init: func() any { return nullable(init()) }}
}

// Aggregate folds the records of every stream of the cogroup into one
// aggregate per key: CogroupedKStream.aggregate. Records with a null key or
// value are skipped and counted as dropped; a nil aggregate (of a VA that
// can hold nil) deletes the key.
func (c *CogroupedKStream[K, VA]) Aggregate(init func() VA, opts ...AggOption[K, VA]) *KTable[K, VA] {
	a := c.aggregation(init, opts)
	st := kvStoreSpec(a.storeName, a.mat.storeType, a.mat.noLog, a.mat.logConfig, a.mat.noCache, a.key, a.val)
	if v := a.mat.versioned; v != nil {
		if v.err != nil {
			c.b.fail(v.err)
		}
		st = versionedStoreSpec(v, a.mat.noLog, a.mat.logConfig, a.key, a.val)
	}
	name := c.build(a.named, a.storeName, a.storeNamed, st, func(p cogroupPart) func() Processor {
		return kvAggregateSupplier(a.storeName, a.old, a.init, p.kvAgg)
	})
	return &KTable[K, VA]{b: c.b, name: name, key: a.key, val: a.val, storeName: a.storeName, old: a.old, versioned: a.mat.versioned != nil}
}

// TimeWindowedCogroupedKStream is a cogroup over time windows:
// Kafka's TimeWindowedCogroupedKStream.
type TimeWindowedCogroupedKStream[K, VA any] struct {
	c       *CogroupedKStream[K, VA]
	windows TimeWindows
}

// WindowedBy aggregates the cogroup per time window:
// CogroupedKStream.windowedBy(Windows).
func (c *CogroupedKStream[K, VA]) WindowedBy(w TimeWindows) *TimeWindowedCogroupedKStream[K, VA] {
	c.b.fail(w.err)
	return &TimeWindowedCogroupedKStream[K, VA]{c: c, windows: w}
}

// Aggregate folds the records of every stream into one aggregate per key
// and window: TimeWindowedCogroupedKStream.aggregate.
func (w *TimeWindowedCogroupedKStream[K, VA]) Aggregate(init func() VA, opts ...AggOption[K, VA]) *KTable[Windowed[K], VA] {
	return fixedWindowedCogroupAggregate(w.c, w.windows, init, opts)
}

// fixedWindowedCogroupAggregate is the aggregation of a cogroup over time
// or sliding windows.
func fixedWindowedCogroupAggregate[K, VA any](c *CogroupedKStream[K, VA], windows fixedWindows, init func() VA,
	opts []AggOption[K, VA]) *KTable[Windowed[K], VA] {
	a := c.aggregation(init, opts)
	st := windows.store(c.b, a.storeName, a.mat, a.key, a.val)
	name := c.build(a.named, a.storeName, a.storeNamed, st, func(p cogroupPart) func() Processor {
		return windows.aggregate(a.storeName, EmitOnWindowUpdate, a.init, p.winAgg, windowedMaker[K], a.old)
	})
	return retype[Windowed[K], VA](fixedWindowedTable[K](c.b, name, a.key, a.val, a.storeName, a.old, windows))
}

// SessionWindowedCogroupedKStream is a cogroup over session windows:
// Kafka's SessionWindowedCogroupedKStream.
type SessionWindowedCogroupedKStream[K, VA any] struct {
	c       *CogroupedKStream[K, VA]
	windows SessionWindows
}

// WindowedBySession aggregates the cogroup per session:
// CogroupedKStream.windowedBy(SessionWindows).
func (c *CogroupedKStream[K, VA]) WindowedBySession(w SessionWindows) *SessionWindowedCogroupedKStream[K, VA] {
	c.b.fail(w.err)
	return &SessionWindowedCogroupedKStream[K, VA]{c: c, windows: w}
}

// Aggregate folds the records of every stream into one aggregate per key
// and session; merge combines the aggregates of sessions a record joins:
// SessionWindowedCogroupedKStream.aggregate.
func (w *SessionWindowedCogroupedKStream[K, VA]) Aggregate(init func() VA, merge func(K, VA, VA) VA, opts ...AggOption[K, VA]) *KTable[Windowed[K], VA] {
	c, a := w.c, w.c.aggregation(init, opts)
	if merge == nil {
		c.b.fail(errIllegalArgument("sessionMerger can't be null"))
	}
	st := sessionWindowStore(c.b, w.windows, a.storeName, a.mat, a.key, a.val)
	mergeAny := func(k, x, y any) any { return nullable(merge(as[K](k), as[VA](x), as[VA](y))) }
	name := c.build(a.named, a.storeName, a.storeNamed, st, func(p cogroupPart) func() Processor {
		return sessionAggregateSupplier[K](a.storeName, w.windows, a.init, p.winAgg, mergeAny, a.old)
	})
	return retype[Windowed[K], VA](sessionWindowedTable[K](c.b, name, a.key, a.val, a.storeName, a.old))
}

// SlidingWindowedCogroupedKStream is a cogroup over sliding windows: Kafka's
// TimeWindowedCogroupedKStream over SlidingWindows.
type SlidingWindowedCogroupedKStream[K, VA any] struct {
	c       *CogroupedKStream[K, VA]
	windows SlidingWindows
}

// WindowedBySliding aggregates the cogroup per sliding window:
// CogroupedKStream.windowedBy(SlidingWindows).
func (c *CogroupedKStream[K, VA]) WindowedBySliding(w SlidingWindows) *SlidingWindowedCogroupedKStream[K, VA] {
	c.b.fail(w.err)
	return &SlidingWindowedCogroupedKStream[K, VA]{c: c, windows: w}
}

// Aggregate folds the records of every stream into one aggregate per key
// and sliding window.
func (w *SlidingWindowedCogroupedKStream[K, VA]) Aggregate(init func() VA, opts ...AggOption[K, VA]) *KTable[Windowed[K], VA] {
	return fixedWindowedCogroupAggregate(w.c, w.windows, init, opts)
}
