package kstreams

import (
	"fmt"
	"maps"
	"regexp"

	"github.com/stoatflow/stoatflow/kstreams/serde"
)

// Name prefixes of generated processors and stores, as Kafka Streams spells them.
const (
	prefixSource        = "KSTREAM-SOURCE-"
	prefixSink          = "KSTREAM-SINK-"
	prefixFilter        = "KSTREAM-FILTER-"
	prefixMap           = "KSTREAM-MAP-"
	prefixMapValues     = "KSTREAM-MAPVALUES-"
	prefixFlatMap       = "KSTREAM-FLATMAP-"
	prefixFlatMapValues = "KSTREAM-FLATMAPVALUES-"
	prefixKeySelect     = "KSTREAM-KEY-SELECT-"
	prefixPeek          = "KSTREAM-PEEK-"
	prefixForeach       = "KSTREAM-FOREACH-"
	prefixAggregate     = "KSTREAM-AGGREGATE-"
	prefixReduce        = "KSTREAM-REDUCE-"
	prefixTableSource   = "KTABLE-SOURCE-"
	prefixToStream      = "KTABLE-TOSTREAM-"
	prefixTableFilter   = "KTABLE-FILTER-"
	prefixTableMapVals  = "KTABLE-MAPVALUES-"
	prefixToTable       = "KSTREAM-TOTABLE-"
	prefixProcessor     = "KSTREAM-PROCESSOR-"
	prefixMerge         = "KSTREAM-MERGE-"
	repartitionSuffix   = "-repartition"
)

var generatedBase = regexp.MustCompile(`^KSTREAM.*-[0-9]{10}$`)

// StreamsBuilder builds a Topology with the DSL. Processors and stores share
// one name counter, so every generated name uses up an index in API-call
// order, as in Kafka Streams; the same calls give the same names.
type StreamsBuilder struct {
	topo          *Topology
	index         int
	err           error
	tableTopics   map[string]bool
	streamSources []streamSource
	// nullKeys is what the joins that accept null keys need at Build (see
	// dsl_table_getter.go's relaxNullKeyFilters).
	nullKeys nullKeyJoins
	built    bool
}

// streamSource is a source added by Stream: later Stream calls on the same
// topic set share its node, as Kafka Streams merges duplicate sources.
type streamSource struct {
	topics map[string]bool
	name   string
}

// NewStreamsBuilder returns an empty builder.
func NewStreamsBuilder() *StreamsBuilder {
	return &StreamsBuilder{topo: newTopology(), tableTopics: map[string]bool{}}
}

func (b *StreamsBuilder) newProcessorName(prefix string) string {
	n := fmt.Sprintf("%s%010d", prefix, b.index)
	b.index++
	return n
}

func (b *StreamsBuilder) newStoreName(prefix string) string {
	n := fmt.Sprintf("%sSTATE-STORE-%010d", prefix, b.index)
	b.index++
	return n
}

// orGenerate returns name, or a generated one. Kafka Streams 4.4 draws the
// generated name (and so uses up its index) even when a name is given.
func (b *StreamsBuilder) orGenerate(name, prefix string) string {
	b.fail(validateName(name))
	gen := b.newProcessorName(prefix)
	if name != "" {
		return name
	}
	return gen
}

// flag marks node name as changing the key, the value or both (see
// nodeSpec.keyChanging).
func (b *StreamsBuilder) flag(name string, key, value bool) {
	if n := b.topo.byName[name]; n != nil {
		n.keyChanging, n.valueChanging = n.keyChanging || key, n.valueChanging || value
	}
}

// fail records the first construction error; Build returns it.
func (b *StreamsBuilder) fail(err error) {
	if b.err == nil && err != nil {
		b.err = err
	}
}

func (b *StreamsBuilder) addNode(n *nodeSpec) {
	if b.built {
		b.fail(invalidTopology("the topology was already built"))
		return
	}
	b.fail(b.topo.addNode(n))
}

// Build returns the topology, or the first error met while it was described.
// A builder builds once; later DSL calls on it fail the build.
func (b *StreamsBuilder) Build() (*Topology, error) {
	if b.err != nil {
		return nil, b.err
	}
	if !b.built {
		b.topo.nullKeys = b.nullKeys
		b.topo.relaxNullKeyFilters()
		b.topo.finish()
		b.built = true
	}
	return b.topo, nil
}

func spec[T any](s serde.Serde[T]) serdeSpec { return serdeSpec{explicit: serde.Erase(s)} }

func orSpec[T any](s serde.Serde[T], fallback serdeSpec) serdeSpec {
	if s != nil {
		return spec(s)
	}
	return fallback
}

// KStream is a record stream: Kafka's KStream<K, V>. Type-preserving
// operations are methods; operations that change K or V are package functions
// (Map, MapValues, FlatMap, FlatMapValues, SelectKey, GroupBy, Aggregate).
type KStream[K, V any] struct {
	b                   *StreamsBuilder
	name                string
	key, val            serdeSpec
	repartitionRequired bool
	view                *valueView // set on a Nullable view: its records hold the base values
	// joinRepartition is the source of the repartition topic an earlier
	// join of this stream created under the stream's own name; a later join
	// reuses it, as Kafka Streams' repartitionForJoin does.
	joinRepartition *string
}

// same is the stream a type-preserving operation named name yields: s's
// serdes and Nullable view carry over.
func (s *KStream[K, V]) same(name string, repartition bool) *KStream[K, V] {
	return &KStream[K, V]{b: s.b, name: name, key: s.key, val: s.val, repartitionRequired: repartition, view: s.view}
}

// viewSpec is the serde spec of a value serde given for a stream's V: on a
// Nullable view the serde (one for *V) is adapted to the base records.
func viewSpec[V any](view *valueView, given serde.Serde[V], fallback serdeSpec) serdeSpec {
	if given == nil {
		return fallback
	}
	return serdeSpec{explicit: view.wrap(serde.Erase(given))}
}

func derive[K, V, KR, VR any](s *KStream[K, V], name string, key, val serdeSpec, repartition bool) *KStream[KR, VR] {
	return &KStream[KR, VR]{b: s.b, name: name, key: key, val: val, repartitionRequired: repartition}
}

// Stream adds a source reading topics: StreamsBuilder.stream.
func Stream[K, V any](b *StreamsBuilder, topics []string, consumed ...Consumed[K, V]) *KStream[K, V] {
	var c Consumed[K, V]
	if len(consumed) > 0 {
		c = consumed[0]
	}
	if len(topics) == 0 {
		b.fail(invalidTopology("You must provide at least one topic"))
	}
	set := map[string]bool{}
	for _, t := range topics {
		set[t] = true
		if b.tableTopics[t] {
			b.fail(invalidTopology("Topic %s has already been registered by another source.", t))
		}
	}
	name := b.orGenerate(c.Name, prefixSource)
	key, val := spec(c.KeySerde), spec(c.ValueSerde)
	for _, src := range b.streamSources {
		if maps.Equal(src.topics, set) {
			// The same topics again: Kafka merges the two sources into the
			// first; this call's name is drawn and dropped.
			return &KStream[K, V]{b: b, name: src.name, key: key, val: val}
		}
		for t := range set {
			if src.topics[t] {
				b.fail(invalidTopology("Two source nodes are subscribed to overlapping but not equal input topics"))
			}
		}
	}
	b.streamSources = append(b.streamSources, streamSource{topics: set, name: name})
	b.fail(c.OffsetReset.check())
	b.addNode(&nodeSpec{name: name, kind: SourceNode, topics: append([]string(nil), topics...), key: key, val: val,
		extractor: c.TimestampExtractor, reset: c.OffsetReset})
	return &KStream[K, V]{b: b, name: name, key: key, val: val}
}

// Table adds a table over topic: StreamsBuilder.table. The table's store is
// materialized (and changelogged) only when m names it.
func Table[K, V any](b *StreamsBuilder, topic string, c Consumed[K, V], m ...Materialized[K, V]) *KTable[K, V] {
	var mat Materialized[K, V]
	if len(m) > 0 {
		mat = m[0]
	}
	b.fail(validateName(mat.Name))
	b.fail(validateName(c.Name))
	storeName := mat.Name
	if storeName == "" {
		storeName = b.newStoreName(topic + "-")
		b.unnamedStore(storeName, !mat.LoggingDisabled)
	}
	registered := b.tableTopics[topic]
	for _, src := range b.streamSources {
		registered = registered || src.topics[topic]
	}
	if registered {
		b.fail(invalidTopology("Topic %s has already been registered by another source.", topic))
	}
	b.tableTopics[topic] = true
	// A named Consumed names the table processor; its source gets "-source".
	sourceName := b.newProcessorName(prefixSource)
	tableName := b.newProcessorName(prefixTableSource)
	if c.Name != "" {
		sourceName, tableName = c.Name+"-source", c.Name
	}
	key, val := orSpec(mat.KeySerde, spec(c.KeySerde)), orSpec(mat.ValueSerde, spec(c.ValueSerde))
	b.fail(c.OffsetReset.check())
	b.addNode(&nodeSpec{name: sourceName, kind: SourceNode, topics: []string{topic}, key: spec(c.KeySerde), val: spec(c.ValueSerde),
		extractor: c.TimestampExtractor, reset: c.OffsetReset})
	materialized := mat.Name != ""
	store := ""
	if materialized {
		store = storeName
	}
	newSpec := func() *StoreSpec {
		s := materializedSpec(b, mat, storeName, key, val)
		s.tableTopic = topic
		return s
	}
	src := newSourceTable(b, tableName, storeName, materialized, newSpec)
	b.addNode(&nodeSpec{name: tableName, kind: ProcessorNode, preds: []string{sourceName}, supplier: src.supplier()})
	if materialized {
		b.fail(b.topo.addStore(newSpec()))
		b.fail(b.topo.connectStore(tableName, storeName))
	}
	return &KTable[K, V]{b: b, name: tableName, key: key, val: val, storeName: store, old: src.old, getter: src.getter,
		versioned: mat.isVersioned()}
}

func kvStoreSpec(name string, st StoreType, noLog bool, logCfg map[string]string, noCache bool, key, val serdeSpec) *StoreSpec {
	return &StoreSpec{Name: name, Kind: KeyValueStoreKind, Timestamped: true, Type: st, Caching: !noCache,
		Logging: !noLog, LogConfig: logCfg, key: key, val: val}
}

func (s *KStream[K, V]) processor(prefix string, named []Named, supplier func() Processor) string {
	name := s.b.orGenerate(firstNamed(named), prefix)
	s.b.addNode(&nodeSpec{name: name, kind: ProcessorNode, preds: []string{s.name}, supplier: supplier})
	return name
}

// Filter keeps the records pred accepts. A null value that V cannot hold
// passes without a call (pred cannot judge a value it cannot see); filter
// Nullable(s) to decide on tombstones.
func (s *KStream[K, V]) Filter(pred func(K, V) bool, named ...Named) *KStream[K, V] {
	name := s.processor(prefixFilter, named, filterSupplier(pred, false, s.view))
	return s.same(name, s.repartitionRequired)
}

// FilterNot drops the records pred accepts. A null value that V cannot hold
// passes without a call, as in Filter.
func (s *KStream[K, V]) FilterNot(pred func(K, V) bool, named ...Named) *KStream[K, V] {
	name := s.processor(prefixFilter, named, filterSupplier(pred, true, s.view))
	return s.same(name, s.repartitionRequired)
}

// Peek calls fn for each record and forwards it unchanged. fn is not called
// for a null value that V cannot hold; the record is forwarded all the same.
func (s *KStream[K, V]) Peek(fn func(K, V), named ...Named) *KStream[K, V] {
	arg := valueArg[V](s.view)
	name := s.processor(prefixPeek, named, stateless(func(ctx ProcessorContext, r Record) error {
		if v, ok := arg(r.Value); ok {
			fn(as[K](r.Key), v)
		}
		return ctx.Forward(r)
	}))
	return s.same(name, s.repartitionRequired)
}

// Foreach calls fn for each record; the stream ends here. fn is not called
// for a null value that V cannot hold.
func (s *KStream[K, V]) Foreach(fn func(K, V), named ...Named) {
	arg := valueArg[V](s.view)
	s.processor(prefixForeach, named, stateless(func(_ ProcessorContext, r Record) error {
		if v, ok := arg(r.Value); ok {
			fn(as[K](r.Key), v)
		}
		return nil
	}))
}

// To writes the stream to topic: KStream.to. Serdes not given in p are the
// stream's own, else the application defaults.
func (s *KStream[K, V]) To(topic string, p ...Produced[K, V]) {
	var pr Produced[K, V]
	if len(p) > 0 {
		pr = p[0]
	}
	name := s.b.orGenerate(pr.Name, prefixSink)
	s.b.addNode(&nodeSpec{name: name, kind: SinkNode, preds: []string{s.name}, topic: topic,
		key: orSpec(pr.KeySerde, s.key), val: viewSpec(s.view, pr.ValueSerde, s.val), partitioner: pr.Partitioner.untyped(s.view)})
}

// Merge interleaves s and other into one stream: KStream.merge. The result
// repartitions before a grouping if either input would have.
func (s *KStream[K, V]) Merge(other *KStream[K, V], named ...Named) *KStream[K, V] {
	if other.b != s.b {
		s.b.fail(invalidTopology("Merging streams from different builders is not allowed."))
		return s
	}
	if (s.view == nil) != (other.view == nil) {
		// The records of a view hold base values, those of a pointer stream
		// pointers: merged, one stream would hold both.
		s.b.fail(invalidTopology("kstreams: cannot merge a Nullable view with a stream of pointer values; merge the streams, then take the view"))
		return s
	}
	name := s.b.orGenerate(firstNamed(named), prefixMerge)
	s.b.addNode(&nodeSpec{name: name, kind: ProcessorNode, preds: []string{s.name, other.name},
		supplier: stateless(func(ctx ProcessorContext, r Record) error { return ctx.Forward(r) })})
	if n := s.b.topo.byName[name]; n != nil {
		n.merge = true
	}
	out := derive[K, V, K, V](s, name, serdeSpec{}, serdeSpec{}, s.repartitionRequired || other.repartitionRequired)
	out.view = s.view
	return out
}

// Map changes key and value; downstream grouping repartitions. The key fn
// returns is null only when it is a nil (a KR that can hold nil), never
// because it is KR's zero value. For a null value that V cannot hold, fn is
// called with V's zero value (the key must still be mapped) and the result's
// value is dropped: the record stays a tombstone.
func Map[K, V, KR, VR any](s *KStream[K, V], fn func(K, V) (KR, VR), named ...Named) *KStream[KR, VR] {
	arg := valueArg[V](s.view)
	name := s.processor(prefixMap, named, stateless(func(ctx ProcessorContext, r Record) error {
		v, ok := arg(r.Value)
		k, out := fn(as[K](r.Key), v)
		r.Key, r.Value = resultKey(k), nullable(out)
		if !ok {
			r.Value = nil
		}
		return ctx.Forward(r)
	}))
	s.b.flag(name, true, false)
	return derive[K, V, KR, VR](s, name, serdeSpec{}, serdeSpec{}, true)
}

// MapValues changes the value only. A null value that V cannot hold is
// forwarded as null without a call; a nil result of a VR that can hold nil
// is forwarded as null.
func MapValues[K, V, VR any](s *KStream[K, V], fn func(V) VR, named ...Named) *KStream[K, VR] {
	arg := valueArg[V](s.view)
	name := s.processor(prefixMapValues, named, stateless(func(ctx ProcessorContext, r Record) error {
		if v, ok := arg(r.Value); ok {
			r.Value = nullable(fn(v))
		}
		return ctx.Forward(r)
	}))
	s.b.flag(name, false, true)
	return derive[K, V, K, VR](s, name, s.key, serdeSpec{}, s.repartitionRequired)
}

// FlatMap turns each record into zero or more records with new keys, null
// only where fn returns a nil key, as in Map. For a null value that V
// cannot hold, fn is called with V's zero value for the keys and every
// record it returns carries a null value.
func FlatMap[K, V, KR, VR any](s *KStream[K, V], fn func(K, V) []KeyValue[KR, VR], named ...Named) *KStream[KR, VR] {
	arg := valueArg[V](s.view)
	name := s.processor(prefixFlatMap, named, stateless(func(ctx ProcessorContext, r Record) error {
		v, ok := arg(r.Value)
		for _, kv := range fn(as[K](r.Key), v) {
			out := r
			out.Key, out.Value = resultKey(kv.Key), nullable(kv.Value)
			if !ok {
				out.Value = nil
			}
			if err := ctx.Forward(out); err != nil {
				return err
			}
		}
		return nil
	}))
	s.b.flag(name, true, false)
	return derive[K, V, KR, VR](s, name, serdeSpec{}, serdeSpec{}, true)
}

// FlatMapValues turns each value into zero or more values under the same
// key. A null value that V cannot hold is forwarded once, as null, without a
// call.
func FlatMapValues[K, V, VR any](s *KStream[K, V], fn func(V) []VR, named ...Named) *KStream[K, VR] {
	arg := valueArg[V](s.view)
	name := s.processor(prefixFlatMapValues, named, stateless(func(ctx ProcessorContext, r Record) error {
		v, ok := arg(r.Value)
		if !ok {
			return ctx.Forward(r)
		}
		for _, v := range fn(v) {
			out := r
			out.Value = nullable(v)
			if err := ctx.Forward(out); err != nil {
				return err
			}
		}
		return nil
	}))
	s.b.flag(name, false, true)
	return derive[K, V, K, VR](s, name, s.key, serdeSpec{}, s.repartitionRequired)
}

// SelectKey sets a new key; downstream grouping repartitions. The key is
// null only when fn returns a nil (a KR that can hold nil), never because it
// is KR's zero value. For a null value that V cannot hold, fn sees V's zero
// value; the value stays null.
func SelectKey[K, V, KR any](s *KStream[K, V], fn func(K, V) KR, named ...Named) *KStream[KR, V] {
	name := s.processor(prefixKeySelect, named, keySelectSupplier(fn, s.view))
	s.b.flag(name, true, false)
	out := derive[K, V, KR, V](s, name, serdeSpec{}, s.val, true)
	out.view = s.view
	return out
}

func keySelectSupplier[K, V, KR any](fn func(K, V) KR, view *valueView) func() Processor {
	arg := valueArg[V](view)
	return stateless(func(ctx ProcessorContext, r Record) error {
		v, _ := arg(r.Value) // the key is computed; the value is forwarded as it came
		r.Key = resultKey(fn(as[K](r.Key), v))
		return ctx.Forward(r)
	})
}

// KGroupedStream is a grouped stream awaiting an aggregation.
type KGroupedStream[K, V any] struct {
	b                   *StreamsBuilder
	name                string
	key, val            serdeSpec
	repartitionRequired bool
	repartitionName     string
	view                *valueView
}

// GroupByKey groups by the current key; if an earlier operation changed the
// key, the aggregation repartitions first.
func (s *KStream[K, V]) GroupByKey(grouped ...Grouped[K, V]) *KGroupedStream[K, V] {
	var g Grouped[K, V]
	if len(grouped) > 0 {
		g = grouped[0]
	}
	return &KGroupedStream[K, V]{b: s.b, name: s.name, key: orSpec(g.KeySerde, s.key), val: viewSpec(s.view, g.ValueSerde, s.val),
		repartitionRequired: s.repartitionRequired, repartitionName: g.Name, view: s.view}
}

// GroupBy groups by a new key: a KSTREAM-KEY-SELECT processor (named by
// Grouped.Name if given) and, at aggregation, a repartition topic. As in
// SelectKey, fn sees V's zero value for a null value that V cannot hold,
// and its result is a null key only when it is a nil: the repartition's
// filter drops such a record, while "" is a key, grouped and counted.
func GroupBy[K, V, KR any](s *KStream[K, V], fn func(K, V) KR, grouped ...Grouped[KR, V]) *KGroupedStream[KR, V] {
	var g Grouped[KR, V]
	if len(grouped) > 0 {
		g = grouped[0]
	}
	var named []Named
	if g.Name != "" {
		named = []Named{Named(g.Name)}
	}
	name := s.processor(prefixKeySelect, named, keySelectSupplier(fn, s.view))
	s.b.flag(name, true, false)
	return &KGroupedStream[KR, V]{b: s.b, name: name, key: spec(g.KeySerde), val: viewSpec(s.view, g.ValueSerde, s.val),
		repartitionRequired: true, repartitionName: g.Name, view: s.view}
}

// repartitionIfRequired inserts the repartition topic with its sink, null-key
// filter and source, and returns the node the aggregation hangs off. The
// topic is named after Grouped, else after the store; only a topic named
// after a generated store name counts as unnamed (storeNamed: the
// Materialized named the store).
func (g *KGroupedStream[K, V]) repartitionIfRequired(storeName string, storeNamed bool) string {
	if !g.repartitionRequired {
		return g.name
	}
	base := g.repartitionName
	if base == "" {
		base = storeName
		if !storeNamed {
			g.b.unnamedRepartition(base)
		}
	}
	return createRepartition(g.b, g.name, base, g.key, g.val)
}

// createRepartition adds a repartition topic with its sink, null-key filter
// and source. The filter is relaxed at Build when the topic feeds a left or
// outer join, which handles null keys itself (StreamsBuilder.nullKeys).
func createRepartition(b *StreamsBuilder, parent, base string, key, val serdeSpec) string {
	u := addRepartition(b, parent, base, key, val)
	b.topo.optimizable = append(b.topo.optimizable, u)
	return u.source
}

// addRepartition adds the nodes of a repartition topic: createRepartition
// without marking it for merge.repartition.topics, as repartition() needs.
func addRepartition(b *StreamsBuilder, parent, base string, key, val serdeSpec) repartitionUnit {
	topic := repartitionTopic(base)
	sink := b.newProcessorName(prefixSink)
	filter := b.newProcessorName(prefixFilter)
	source := b.newProcessorName(prefixSource)
	if !generatedBase.MatchString(base) {
		sink, filter, source = topic+"-sink", topic+"-filter", topic+"-source"
	}
	if _, dup := b.topo.repartition[topic]; dup {
		b.fail(invalidTopology("Topic %s has already been registered by another source.", topic))
	}
	u := repartitionUnit{filter: filter, sink: sink, source: source, topic: topic, key: key, val: val}
	b.topo.repartition[topic] = &repartitionSpec{name: topic}
	u.add(parent, b.addNode)
	b.nullKeys.repartition(source, filter)
	return u
}

// repartitionUnit is one repartition topic with its null-key filter, sink
// and source: Kafka's repartition graph node.
type repartitionUnit struct {
	filter, sink, source, topic string
	key, val                    serdeSpec
}

// add adds u's three nodes below parent.
func (u repartitionUnit) add(parent string, add func(*nodeSpec)) {
	add(&nodeSpec{name: u.filter, kind: ProcessorNode, preds: []string{parent}, supplier: dropNullKeys})
	add(&nodeSpec{name: u.sink, kind: SinkNode, preds: []string{u.filter}, topic: u.topic, key: u.key, val: u.val})
	add(&nodeSpec{name: u.source, kind: SourceNode, topics: []string{u.topic}, key: u.key, val: u.val, extractor: FailOnInvalidTimestamp{}})
}

// dropNullKeys is a repartition's filter: a record with a null key cannot
// be partitioned and is dropped.
var dropNullKeys = stateless(func(ctx ProcessorContext, r Record) error {
	if r.Key == nil {
		return nil
	}
	return ctx.Forward(r)
})

// aggregation adds the store, the processor and, if needed, the repartition
// topic, in Kafka's naming order: store name, processor name, repartition
// names.
func (g *KGroupedStream[K, V]) aggregation(prefix, named, storeName string, storeNamed bool, store *StoreSpec, supplier func() Processor) string {
	procName := g.b.orGenerate(named, prefix)
	parent := g.repartitionIfRequired(storeName, storeNamed)
	g.b.fail(g.b.topo.addStore(store))
	g.b.addNode(&nodeSpec{name: procName, kind: ProcessorNode, preds: []string{parent}, supplier: supplier})
	g.b.fail(g.b.topo.connectStore(procName, storeName))
	return procName
}

// Count counts records per key: KGroupedStream.count. Records with a null
// key or value are skipped and counted as dropped, as in Kafka Streams.
func (g *KGroupedStream[K, V]) Count(opts ...AggOption[K, int64]) *KTable[K, int64] {
	o := parseAggOpts(g.b, opts)
	storeName := o.countStoreName(g.b)
	key, val := orSpec(o.mat.KeySerde, g.key), orSpec(o.mat.ValueSerde, spec[int64](serde.Long{}))
	st := materializedSpec(g.b, o.mat, storeName, key, val)
	old := aggregateOldValues()
	name := g.aggregation(prefixAggregate, o.named, storeName, o.mat.Name != "", st, kvAggregateSupplier(storeName, old, countInit, countAdd))
	return &KTable[K, int64]{b: g.b, name: name, key: key, val: val, storeName: storeName, old: old, versioned: o.mat.isVersioned()}
}

// countInit and countAdd are the initializer and aggregator of every count.
func countInit() any { return int64(0) }

func countAdd(_, _ any, agg any) any { return agg.(int64) + 1 }

// Count is g.Count, as a function.
func Count[K, V any](g *KGroupedStream[K, V], opts ...AggOption[K, int64]) *KTable[K, int64] {
	return g.Count(opts...)
}

// Reduce combines the values of each key: KGroupedStream.reduce. Records
// with a null key or value are skipped and counted as dropped, as in Kafka
// Streams; a nil result (of a V that can hold nil) deletes the key.
func (g *KGroupedStream[K, V]) Reduce(reducer func(agg, v V) V, opts ...AggOption[K, V]) *KTable[K, V] {
	o := parseAggOpts(g.b, opts)
	storeName := o.storeName(g.b, prefixReduce)
	key, val := orSpec(o.mat.KeySerde, g.key), viewSpec(g.view, o.mat.ValueSerde, g.val)
	st := materializedSpec(g.b, o.mat, storeName, key, val)
	arg, view := valueArg[V](g.view), g.view
	old := aggregateOldValues()
	name := g.aggregation(prefixReduce, o.named, storeName, o.mat.Name != "", st, kvAggregateSupplier(storeName, old, nil,
		func(_ any, v any, agg any) any {
			// kvAggregate skips null values, and a stored aggregate is never null.
			a, _ := arg(agg)
			x, _ := arg(v)
			return view.unboxed(reducer(a, x))
		}))
	return &KTable[K, V]{b: g.b, name: name, key: key, val: val, storeName: storeName, view: view, old: old, versioned: o.mat.isVersioned()}
}

// Aggregate folds the values of each key into an aggregate:
// KGroupedStream.aggregate. Records with a null key or value are skipped and
// counted as dropped, as in Kafka Streams; a nil aggregate (of a VA that can
// hold nil) deletes the key.
func Aggregate[K, V, VA any](g *KGroupedStream[K, V], init func() VA, agg func(K, V, VA) VA, opts ...AggOption[K, VA]) *KTable[K, VA] {
	o := parseAggOpts(g.b, opts)
	storeName := o.storeName(g.b, prefixAggregate)
	key, val := orSpec(o.mat.KeySerde, g.key), spec(o.mat.ValueSerde)
	st := materializedSpec(g.b, o.mat, storeName, key, val)
	arg := valueArg[V](g.view)
	old := aggregateOldValues()
	name := g.aggregation(prefixAggregate, o.named, storeName, o.mat.Name != "", st, kvAggregateSupplier(storeName, old,
		func() any { return nullable(init()) },
		func(k any, v any, a any) any {
			x, _ := arg(v) // never null here: kvAggregate skips null values
			return nullable(agg(as[K](k), x, as[VA](a)))
		}))
	return &KTable[K, VA]{b: g.b, name: name, key: key, val: val, storeName: storeName, old: old, versioned: o.mat.isVersioned()}
}

// KTable is a changelog stream: Kafka's KTable<K, V>. Internally its records
// carry change values (new and old).
type KTable[K, V any] struct {
	b         *StreamsBuilder
	name      string
	key, val  serdeSpec
	storeName string
	view      *valueView // a Reduce over a Nullable view: the records hold base values
	old       *oldValues // nil: the table cannot send old values
	// getter, if set, gives the table's value getter
	// (dsl_table_getter.go); without it the table's own store is read.
	getter func() (getterSupplier, error)
	// versioned is whether the table's updates follow versioned semantics:
	// it is kept in a versioned store, or derives from one without a
	// Materialized of its own (Kafka's isOutputVersioned).
	versioned bool
}

// QueryableStoreName is the name of the table's store, or "" if it has none.
func (t *KTable[K, V]) QueryableStoreName() string { return t.storeName }

// ToStream turns the table's updates into a stream of new values; a deleted
// key becomes a record with a null value.
func (t *KTable[K, V]) ToStream(named ...Named) *KStream[K, V] {
	name := t.b.orGenerate(firstNamed(named), prefixToStream)
	t.b.addNode(&nodeSpec{name: name, kind: ProcessorNode, preds: []string{t.name}, supplier: stateless(func(ctx ProcessorContext, r Record) error {
		if c, ok := r.Value.(Change); ok {
			r.Value = c.New
		}
		return ctx.Forward(r)
	})})
	return &KStream[K, V]{b: t.b, name: name, key: t.key, val: t.val, view: t.view}
}

// StoreBuilder describes a store added with AddStateStore for Processor API
// nodes: Kafka's StoreBuilder (Stores.keyValueStoreBuilder and friends). Key
// and value serdes may be nil for the application defaults.
type StoreBuilder struct {
	Name string
	Kind StoreKind
	// Timestamped stores hold Kafka's ValueAndTimestamp layout; plain
	// key-value stores hold the value alone.
	Timestamped bool
	Type        StoreType
	KeySerde    serde.Untyped
	ValueSerde  serde.Untyped
	// LoggingDisabled turns the changelog off; LogConfig configures it.
	LoggingDisabled bool
	LogConfig       map[string]string
	// Caching puts the record cache in front of the store
	// (WithCachingEnabled); a window store retaining duplicates is built
	// without it, as Kafka builds it.
	Caching bool
	// RetentionMs and WindowSizeMs apply to window and session stores.
	RetentionMs  int64
	WindowSizeMs int64
	// RetainDuplicates makes a plain window store keep every put, as
	// Stores.persistentWindowStore(..., retainDuplicates=true) does.
	RetainDuplicates bool
	// SegmentIntervalMs is a versioned store's segment interval; its
	// history retention is RetentionMs.
	SegmentIntervalMs int64
	// LRU makes a key-value store Stores.lruMap's (InMemoryLRU): in memory,
	// holding at most MaxCacheSize entries, the least recently used evicted
	// first.
	LRU          bool
	MaxCacheSize int

	versionedErr error // the supplier's own check (PersistentVersionedKeyValueStore)
}

// KeyValueStoreBuilder is Stores.keyValueStoreBuilder over a persistent store.
func KeyValueStoreBuilder[K, V any](name string, k serde.Serde[K], v serde.Serde[V]) StoreBuilder {
	return StoreBuilder{Name: name, Kind: KeyValueStoreKind, KeySerde: serde.Erase(k), ValueSerde: serde.Erase(v)}
}

// AddStateStore adds a store that Process nodes can name: StreamsBuilder.addStateStore.
func (b *StreamsBuilder) AddStateStore(sb StoreBuilder) {
	s, err := sb.spec()
	if err != nil {
		b.fail(err)
		return
	}
	b.fail(b.topo.addStore(s))
}

// spec checks the builder and turns it into the topology's store spec.
func (sb StoreBuilder) spec() (*StoreSpec, error) {
	if err := validateName(sb.Name); err != nil {
		return nil, err
	}
	if sb.Name == "" {
		return nil, invalidTopology("Name is illegal, it can't be empty")
	}
	if err := sb.checkSizes(); err != nil {
		return nil, err
	}
	if sb.Kind == VersionedStoreKind {
		if sb.versionedErr != nil {
			return nil, sb.versionedErr
		}
		if sb.Caching {
			return nil, invalidTopology("store %s: Versioned stores do not support caching", sb.Name)
		}
		if sb.Type == InMemory {
			return nil, invalidTopology("store %s: a versioned store is always persistent (Kafka Streams has no in-memory one)", sb.Name)
		}
	}
	switch {
	case sb.LRU && sb.Kind != KeyValueStoreKind:
		return nil, invalidTopology("store %s: InMemoryLRU (Stores.lruMap) is a key-value store; a %s store cannot use it", sb.Name, sb.Kind)
	case sb.LRU && sb.Timestamped:
		// Kafka Streams accepts it, but its changelogging store then logs
		// no evictions, so a restore can bring evicted entries back.
		return nil, invalidTopology("store %s: a timestamped key-value store over Stores.lruMap (InMemoryLRU) is not supported; "+
			"use KeyValueStoreBuilder", sb.Name)
	}
	// Processor API stores name their engine (Stores.persistent* or
	// inMemory*); the DSL default never applies to them.
	typ := sb.Type
	if typ == DefaultStore {
		typ = RocksDB
	}
	return &StoreSpec{Name: sb.Name, Kind: sb.Kind, Timestamped: sb.Timestamped, Type: typ,
		Caching: sb.Caching, Logging: !sb.LoggingDisabled, LogConfig: sb.LogConfig, Retention: sb.RetentionMs,
		WindowSize: sb.WindowSizeMs, RetainDuplicates: sb.RetainDuplicates, SegmentInterval: sb.SegmentIntervalMs,
		LRU: sb.LRU, MaxCacheSize: sb.MaxCacheSize, key: serdeSpec{explicit: sb.KeySerde}, val: serdeSpec{explicit: sb.ValueSerde}}, nil
}

// Process adds a Processor API node: KStream.process. The processor receives
// K and V values and must forward KR and VR values (the type parameters come
// first so that K and V are inferred: Process[string, int64](s, ...)). It
// can use the stores it names, added with AddStateStore. As the key may
// change, a later grouping repartitions.
func Process[KR, VR, K, V any](s *KStream[K, V], supplier func() Processor, named Named, stores ...string) *KStream[KR, VR] {
	// Unlike most operators, a named process() draws no generated name
	// (KStreamImpl.process takes NamedInternal.name() as it is).
	name := string(named)
	s.b.fail(validateName(name))
	if name == "" {
		name = s.b.newProcessorName(prefixProcessor)
	}
	s.b.addNode(&nodeSpec{name: name, kind: ProcessorNode, preds: []string{s.name}, supplier: supplier})
	for _, st := range stores {
		s.b.fail(s.b.topo.connectStore(name, st))
	}
	return derive[K, V, KR, VR](s, name, serdeSpec{}, serdeSpec{}, true)
}
