package kstreams

import (
	"errors"
	"fmt"
	"reflect"

	"github.com/stoatflow/stoatflow/internal/storeformat"
	"github.com/stoatflow/stoatflow/kstreams/serde"
)

const (
	prefixTableSelect    = "KTABLE-SELECT-"
	prefixTableAggregate = "KTABLE-AGGREGATE-"
	prefixTableReduce    = "KTABLE-REDUCE-"
)

// KGroupedTable is a table re-grouped by a new key, awaiting an aggregation
// that adds each row's new value and subtracts its old one: Kafka's
// KGroupedTable.
type KGroupedTable[K, V any] struct {
	b        *StreamsBuilder
	name     string // the KTABLE-SELECT processor
	key, val serdeSpec
	// repartitionName is Grouped.Name: it names the repartition topic, and
	// aggregations of the same grouped table then share it.
	repartitionName string
	shared          string // the shared repartition source, once made
}

// GroupTableBy re-groups a table by a key (and value) computed from each
// row: Kafka's KTable.groupBy, through a KTABLE-SELECT processor (named by
// Grouped.Name if given) and, at aggregation, a repartition topic whose
// records carry the row's new and old value. fn sees only values that are
// present: a deleted row is subtracted under the key its old value mapped
// to. A row for which fn returns a null key or value (a nil of a type that
// can hold nil) is not grouped. The table must send old values, so a
// source table is materialized for it, as in Kafka Streams.
func GroupTableBy[K, V, KR, VR any](t *KTable[K, V], fn func(K, V) (KR, VR), grouped ...Grouped[KR, VR]) *KGroupedTable[KR, VR] {
	var g Grouped[KR, VR]
	if len(grouped) > 0 {
		g = grouped[0]
	}
	name := t.b.orGenerate(g.Name, prefixTableSelect)
	arg := valueArg[V](t.view)
	pair := func(k, v any) (kr, vr any) {
		x, _ := arg(v) // called for present values only
		a, b := fn(as[K](k), x)
		return nullable(a), nullable(b)
	}
	versioned := t.versioned
	t.b.addNode(&nodeSpec{name: name, kind: ProcessorNode, preds: []string{t.name}, supplier: stateless(func(ctx ProcessorContext, r Record) error {
		return selectForGroup(ctx, r, pair, versioned)
	})})
	if !t.old.request(true) {
		t.b.fail(invalidTopology("groupBy over table %s needs its old values, which it cannot send; materialize it (Materialized)", t.name))
	}
	return &KGroupedTable[KR, VR]{b: t.b, name: name, key: spec(g.KeySerde), val: spec(g.ValueSerde), repartitionName: g.Name}
}

// selectForGroup is KTableRepartitionMap's processor: the old value's pair
// first (a subtraction under the old key), then the new value's; one record
// with both values when the key stays the same. Over a versioned table an
// out-of-order update is skipped: the aggregate holds the latest rows only.
func selectForGroup(ctx ProcessorContext, r Record, pair func(k, v any) (any, any), versioned bool) error {
	if r.Key == nil {
		return errors.New("kstreams: Record key for the grouping KTable should not be null")
	}
	in, _ := r.Value.(Change)
	if versioned && in.notLatest {
		return nil
	}
	var newK, newV, oldK, oldV any
	if in.New != nil {
		newK, newV = pair(r.Key, in.New)
	}
	if in.Old != nil {
		oldK, oldV = pair(r.Key, in.Old)
	}
	hasOld, hasNew := oldK != nil && oldV != nil, newK != nil && newV != nil
	if hasOld && hasNew && sameKey(oldK, newK) {
		return ctx.Forward(Record{Key: newK, Value: Change{New: newV, Old: oldV}, Timestamp: r.Timestamp, Headers: r.Headers})
	}
	if hasOld {
		if err := ctx.Forward(Record{Key: oldK, Value: Change{Old: oldV}, Timestamp: r.Timestamp, Headers: r.Headers}); err != nil {
			return err
		}
	}
	if hasNew {
		return ctx.Forward(Record{Key: newK, Value: Change{New: newV}, Timestamp: r.Timestamp, Headers: r.Headers})
	}
	return nil
}

// sameKey is Java's equals for the key types a Go topology uses: values of
// a comparable type are compared, anything else (a []byte, as Java's byte[]
// compares by identity) is never the same key.
func sameKey(a, b any) bool {
	ta := reflect.TypeOf(a)
	if ta != reflect.TypeOf(b) || !ta.Comparable() {
		return false
	}
	return a == b
}

// repartition adds the repartition topic of one aggregation: a sink and a
// source (no null-key filter: the select never forwards a null key), named
// after Named (name-sink, name-source) or generated, the topic after
// Grouped.Name or the store. The names are drawn even when a shared topic
// is reused, as Kafka Streams draws them.
func (g *KGroupedTable[K, V]) repartition(named, storeName string) string {
	var sink, source string
	if named != "" {
		g.b.newProcessorName(prefixSink)
		sink = named + "-sink"
		g.b.newProcessorName(prefixSource)
		source = named + "-source"
		g.b.fail(validateName(sink))
		g.b.fail(validateName(source))
	} else {
		sink, source = g.b.newProcessorName(prefixSink), g.b.newProcessorName(prefixSource)
	}
	if g.shared != "" {
		return g.shared
	}
	base := g.repartitionName
	if base == "" {
		base = storeName
	}
	topic := base + repartitionSuffix
	if _, dup := g.b.topo.repartition[topic]; dup {
		g.b.fail(invalidTopology("Topic %s has already been registered by another source.", topic))
	}
	g.b.topo.repartition[topic] = &repartitionSpec{name: topic}
	val := serdeSpec{explicit: g.val.explicit, wrap: changedValues}
	g.b.addNode(&nodeSpec{name: sink, kind: SinkNode, preds: []string{g.name}, topic: topic, key: g.key, val: val})
	g.b.addNode(&nodeSpec{name: source, kind: SourceNode, topics: []string{topic}, key: g.key, val: val, extractor: FailOnInvalidTimestamp{}})
	if g.repartitionName != "" {
		g.shared = source
	}
	return source
}

// aggregate adds a KTABLE-AGGREGATE or KTABLE-REDUCE aggregation in Kafka's
// naming order: the store (drawn by the caller), sink, source, processor.
func (g *KGroupedTable[K, V]) aggregate(prefix string, o aggOpts[K, V], storeName string, st *StoreSpec, supplier func() Processor) string {
	parent := g.repartition(o.named, storeName)
	procName := g.b.orGenerate(o.named, prefix)
	g.b.fail(g.b.topo.addStore(st))
	g.b.addNode(&nodeSpec{name: procName, kind: ProcessorNode, preds: []string{parent}, supplier: supplier})
	g.b.fail(g.b.topo.connectStore(procName, storeName))
	return procName
}

// tableAggStore draws the store name of a grouped-table aggregation: the
// Materialized name, else KTABLE-AGGREGATE-STATE-STORE-N (for reduce too,
// as in Kafka Streams), which counts as unnamed with its changelog. The
// repartition topic named after it does not count: Kafka Streams 4.4 does
// not collect a KGroupedTable's.
func tableAggStore[K, V any](b *StreamsBuilder, o aggOpts[K, V]) string {
	if o.mat.Name != "" {
		return o.mat.Name
	}
	name := b.newStoreName(prefixTableAggregate)
	b.unnamedStore(name, !o.mat.LoggingDisabled)
	return name
}

// Count counts the rows per new key: KGroupedTable.count. A row moving to
// another key is subtracted from its old key's count, which may reach 0 and
// stays (a count is never deleted).
func (g *KGroupedTable[K, V]) Count(opts ...AggOption[K, int64]) *KTable[K, int64] {
	o := parseAggOpts(g.b, opts)
	storeName := tableAggStore(g.b, o)
	key, val := orSpec(o.mat.KeySerde, g.key), orSpec(o.mat.ValueSerde, spec[int64](serde.Long{}))
	st := materializedSpec(g.b, o.mat, storeName, key, val)
	old := aggregateOldValues()
	name := g.aggregate(prefixTableAggregate, aggOpts[K, V]{named: o.named}, storeName, st, tableAggregateSupplier(storeName, old,
		func() any { return int64(0) },
		func(_, _, agg any) any { return agg.(int64) + 1 },
		func(_, _, agg any) any { return agg.(int64) - 1 }))
	return &KTable[K, int64]{b: g.b, name: name, key: key, val: val, storeName: storeName, old: old, versioned: o.mat.isVersioned()}
}

// Reduce combines the values per new key: KGroupedTable.reduce. adder adds a
// row's new value, subtractor removes its old one; the first value of a key
// is its aggregate. A nil result (of a V that can hold nil) deletes the key.
func (g *KGroupedTable[K, V]) Reduce(adder, subtractor func(agg, v V) V, opts ...AggOption[K, V]) *KTable[K, V] {
	o := parseAggOpts(g.b, opts)
	storeName := tableAggStore(g.b, o)
	key, val := orSpec(o.mat.KeySerde, g.key), orSpec(o.mat.ValueSerde, g.val)
	st := materializedSpec(g.b, o.mat, storeName, key, val)
	old := aggregateOldValues()
	typed := func(fn func(agg, v V) V) func(_, v, agg any) any {
		return func(_, v, agg any) any { return nullable(fn(as[V](agg), as[V](v))) }
	}
	name := g.aggregate(prefixTableReduce, o, storeName, st, tableAggregateSupplier(storeName, old, nil, typed(adder), typed(subtractor)))
	return &KTable[K, V]{b: g.b, name: name, key: key, val: val, storeName: storeName, old: old, versioned: o.mat.isVersioned()}
}

// AggregateTable folds the values per new key into an aggregate:
// KGroupedTable.aggregate. adder adds a row's new value, subtractor removes
// its old one; init starts a key's aggregate. A nil aggregate (of a VA that
// can hold nil) deletes the key.
func AggregateTable[K, V, VA any](g *KGroupedTable[K, V], init func() VA, adder, subtractor func(K, V, VA) VA, opts ...AggOption[K, VA]) *KTable[K, VA] {
	o := parseAggOpts(g.b, opts)
	storeName := tableAggStore(g.b, o)
	key, val := orSpec(o.mat.KeySerde, g.key), spec(o.mat.ValueSerde)
	st := materializedSpec(g.b, o.mat, storeName, key, val)
	old := aggregateOldValues()
	typed := func(fn func(K, V, VA) VA) func(k, v, agg any) any {
		return func(k, v, agg any) any { return nullable(fn(as[K](k), as[V](v), as[VA](agg))) }
	}
	name := g.aggregate(prefixTableAggregate, aggOpts[K, V]{named: o.named}, storeName, st, tableAggregateSupplier(storeName, old,
		func() any { return nullable(init()) }, typed(adder), typed(subtractor)))
	return &KTable[K, VA]{b: g.b, name: name, key: key, val: val, storeName: storeName, old: old, versioned: o.mat.isVersioned()}
}

// tableAggregate is KTableAggregate and KTableReduce: subtract the update's
// old value from the key's aggregate, then add its new value, and forward
// the new aggregate (with the previous one when old values are sent).
type tableAggregate struct {
	storeOp
	init     func() any // nil for reduce: the first value is the aggregate
	add, sub func(k, v, agg any) any
}

func tableAggregateSupplier(store string, old *oldValues, init func() any, add, sub func(k, v, agg any) any) func() Processor {
	return func() Processor {
		return &tableAggregate{storeOp: storeOp{storeName: store, old: old}, init: init, add: add, sub: sub}
	}
}

func (p *tableAggregate) Process(r Record) error {
	if r.Key == nil {
		return fmt.Errorf("kstreams: Record key for KTable aggregate operator with state %s should not be null", p.storeName)
	}
	in, _ := r.Value.(Change)
	oldAgg, oldTs, _, err := p.store.latest(r.Key) // a stored aggregate is never null
	if err != nil {
		return err
	}
	agg, ts := oldAgg, r.Timestamp
	if in.Old != nil && oldAgg != nil {
		agg, ts = p.sub(r.Key, in.Old, oldAgg), max(r.Timestamp, oldTs)
	}
	if in.New != nil {
		switch {
		case agg == nil && p.init == nil:
			agg = in.New
		case agg == nil:
			agg = p.add(r.Key, in.New, p.init())
		default:
			agg = p.add(r.Key, in.New, agg)
		}
		if oldAgg != nil {
			ts = max(r.Timestamp, oldTs)
		}
	}
	c := Change{New: agg}
	if p.sendOld {
		c.Old = oldAgg
	}
	if fwd, err := p.write(r.Key, agg, ts, &c); !fwd {
		return err // or forwarded when the cache is flushed
	}
	return p.ctx.Forward(Record{Key: r.Key, Value: c, Timestamp: ts, Headers: r.Headers})
}

func (p *tableAggregate) Close() error { return nil }

// changedValues wraps a value serde in Kafka Streams' ChangedSerializer and
// ChangedDeserializer: a grouped table's repartition records carry a Change.
func changedValues(inner serde.Untyped) serde.Untyped { return changedSerde{inner} }

type changedSerde struct{ inner serde.Untyped }

func (s changedSerde) SerializeAny(topic string, v any) ([]byte, error) {
	c, ok := v.(Change)
	if !ok {
		return nil, &serde.SerializationError{Msg: fmt.Sprintf("value of type %T on repartition topic %s is not a table update", v, topic)}
	}
	if c.New == nil && c.Old == nil {
		return nil, &serde.SerializationError{Msg: "Both old and new values are null in ChangeSerializer, which is not allowed."}
	}
	part := func(x any) ([]byte, error) {
		if x == nil {
			return nil, nil
		}
		b, err := s.inner.SerializeAny(topic, x)
		if b == nil && err == nil {
			b = []byte{}
		}
		return b, err
	}
	nb, err := part(c.New)
	if err != nil {
		return nil, err
	}
	ob, err := part(c.Old)
	if err != nil {
		return nil, err
	}
	return storeformat.AppendChanged(make([]byte, 0, len(nb)+len(ob)+6), nb, ob), nil
}

func (s changedSerde) DeserializeAny(topic string, b []byte) (any, error) {
	if b == nil {
		return nil, nil
	}
	nb, ob, err := storeformat.SplitChanged(b)
	if err != nil {
		return nil, &serde.SerializationError{Msg: fmt.Sprintf("table update on %s: %v", topic, err)}
	}
	var c Change
	if nb != nil {
		if c.New, err = s.inner.DeserializeAny(topic, nb); err != nil {
			return nil, err
		}
	}
	if ob != nil {
		if c.Old, err = s.inner.DeserializeAny(topic, ob); err != nil {
			return nil, err
		}
	}
	return c, nil
}
