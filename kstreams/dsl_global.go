package kstreams

import "errors"

// Name prefix of the processor of a stream–global table join. Kafka Streams
// 4.4 names inner and left joins with a GlobalKTable alike, KSTREAM-LEFTJOIN-
// (KStreamImpl.doGlobalTableJoinWithStreamAndMappedKey).
const prefixLeftJoin = "KSTREAM-LEFTJOIN-"

// ErrGlobalStoreReadOnly is returned by a write of a stream task to a global
// store: only the global thread writes them, as in Kafka Streams, where a
// stream task's view of a global store is read-only.
var ErrGlobalStoreReadOnly = errors.New("kstreams: global store is read-only")

// globalStore is one global store of the topology: a source over the
// global topic and the processor that writes the store, a sub-topology of
// their own that generates no tasks.
type globalStore struct {
	source, processor, store, topic string
	// reprocess runs the records through the processor during restore
	// (AddGlobalStore); a global table's restore copies the topic's bytes
	// into the store instead (Kafka's reprocessOnRestore=false).
	reprocess bool
}

// globalOf returns the global store whose sub-topology is id, if any.
func (t *Topology) globalOf(id int) (*globalStore, bool) {
	for _, g := range t.globals {
		if t.groupOf[g.source] == id {
			return g, true
		}
	}
	return nil, false
}

func (t *Topology) isGlobalStore(name string) bool {
	for _, g := range t.globals {
		if g.store == name {
			return true
		}
	}
	return false
}

// addGlobal adds a global store's source and processor and the store, as
// InternalTopologyBuilder.addGlobalStore does.
func (b *StreamsBuilder) addGlobal(g *globalStore, spec *StoreSpec, src *nodeSpec, supplier func() Processor) {
	if b.tableTopics[g.topic] {
		b.fail(invalidTopology("Topic %s has already been registered by another source.", g.topic))
	}
	for _, s := range b.streamSources {
		if s.topics[g.topic] {
			b.fail(invalidTopology("Topic %s has already been registered by another source.", g.topic))
		}
	}
	if _, ok := b.topo.stores[spec.Name]; ok {
		b.fail(invalidTopology("A different GlobalStateStore has already been added with the name %s", spec.Name))
		return
	}
	if b.built {
		b.fail(invalidTopology("the topology was already built"))
		return
	}
	b.tableTopics[g.topic] = true
	b.fail(b.topo.addGlobalStore(g, spec, src, supplier))
}

// addGlobalStore adds the nodes and the store of global store g: src (its
// source, named and pointed at g's topic here), the processor that keeps
// the store, and spec, which has no changelog (its topic is one).
func (t *Topology) addGlobalStore(g *globalStore, spec *StoreSpec, src *nodeSpec, supplier func() Processor) error {
	spec.Logging = false
	src.name, src.kind, src.topics = g.source, SourceNode, []string{g.topic}
	for _, step := range []func() error{
		func() error { return t.addNode(src) },
		func() error {
			return t.addNode(&nodeSpec{name: g.processor, kind: ProcessorNode, preds: []string{g.source}, supplier: supplier})
		},
		func() error { return t.addStore(spec) },
		func() error { return t.connectStore(g.processor, spec.Name) },
	} {
		if err := step(); err != nil {
			return err
		}
	}
	t.globals = append(t.globals, g)
	return nil
}

// AddGlobalStore adds a global store that processorName keeps from every
// partition of topic, through the source sourceName: Topology.addGlobalStore.
// The store is restored by running topic's records through the processor
// (Kafka's reprocessOnRestore); every task of the instance reads it. The
// topic is the store's changelog: sb's logging setting has no effect, as
// in Kafka. StoatFlow's global stores are key-value stores.
func (t *Topology) AddGlobalStore(sb StoreBuilder, sourceName string, opts SourceOptions, topic, processorName string, supplier func() Processor) error {
	switch {
	case supplier == nil:
		return errIllegalArgument("supplier must not be null")
	case t.byName[sourceName] != nil:
		return invalidTopology("Processor %s is already added.", sourceName)
	case t.byName[processorName] != nil:
		return invalidTopology("Processor %s is already added.", processorName)
	case t.stores[sb.Name] != nil && !t.isGlobalStore(sb.Name):
		return invalidTopology("A different StateStore has already been added with the name %s", sb.Name)
	case t.isGlobalStore(sb.Name):
		return invalidTopology("A different GlobalStateStore has already been added with the name %s", sb.Name)
	case sourceName == processorName:
		return invalidTopology("sourceName and processorName must be different.")
	case sb.Kind != KeyValueStoreKind:
		return invalidTopology("store %s: global stores are key-value stores in StoatFlow; a %s store is not supported", sb.Name, sb.Kind)
	case sb.LRU:
		// Kafka's stream tasks would reorder it with their reads, from
		// threads other than the one that writes it.
		return invalidTopology("store %s: a global store over Stores.lruMap (InMemoryLRU) is not supported", sb.Name)
	case t.sourceOf(topic):
		return invalidTopology("Topic %s has already been registered by another source.", topic)
	}
	g := &globalStore{source: sourceName, processor: processorName, store: sb.Name, topic: topic, reprocess: true}
	src := &nodeSpec{key: serdeSpec{explicit: opts.KeySerde}, val: serdeSpec{explicit: opts.ValueSerde}, extractor: opts.TimestampExtractor}
	if err := t.addGlobalStore(g, globalStoreSpec(sb), src, supplier); err != nil {
		return err
	}
	t.finish()
	return nil
}

// globalStoreSpec is the spec of a global store built by sb.
func globalStoreSpec(sb StoreBuilder) *StoreSpec {
	typ := sb.Type
	if typ == DefaultStore {
		typ = RocksDB
	}
	return &StoreSpec{Name: sb.Name, Kind: sb.Kind, Timestamped: sb.Timestamped, Type: typ, Caching: sb.Caching,
		key: serdeSpec{explicit: sb.KeySerde}, val: serdeSpec{explicit: sb.ValueSerde}}
}

// GlobalKTable is a table replicated in full on every instance, fed by a
// global topic: Kafka's GlobalKTable<K, V>. Streams join it with a key
// selector (JoinGlobal, LeftJoinGlobal) and need no co-partitioning.
type GlobalKTable[K, V any] struct {
	b         *StreamsBuilder
	storeName string
}

// QueryableStoreName is the name of the table's store.
func (g *GlobalKTable[K, V]) QueryableStoreName() string { return g.storeName }

// GlobalTable adds a global table over topic: StreamsBuilder.globalTable.
// Its store is always materialized, named by m or <topic>-STATE-STORE-N, and
// never changelogged: the topic itself is its changelog. The global thread
// of each instance reads every partition of topic into it.
func GlobalTable[K, V any](b *StreamsBuilder, topic string, c Consumed[K, V], m ...Materialized[K, V]) *GlobalKTable[K, V] {
	var mat Materialized[K, V]
	if len(m) > 0 {
		mat = m[0]
	}
	b.fail(validateName(mat.Name))
	b.fail(validateName(c.Name))
	storeName := mat.Name
	if storeName == "" {
		storeName = b.newStoreName(topic + "-")
		// Without a Materialized, Kafka Streams builds one with logging
		// off: only the store counts. A Materialized is logged by default,
		// so its changelog counts too, though a global store has none.
		b.unnamedStore(storeName, len(m) > 0 && !mat.LoggingDisabled)
	}
	// As for Table: both names are drawn; a named Consumed names the
	// processor and its source gets "-source".
	sourceName := b.newProcessorName(prefixSource)
	procName := b.newProcessorName(prefixTableSource)
	if c.Name != "" {
		sourceName, procName = c.Name+"-source", c.Name
	}
	key, val := orSpec(mat.KeySerde, spec(c.KeySerde)), orSpec(mat.ValueSerde, spec(c.ValueSerde))
	if mat.isVersioned() {
		b.fail(invalidTopology("GlobalTables cannot be versioned."))
	}
	st := kvStoreSpec(storeName, mat.StoreType, true, nil, mat.CachingDisabled, key, val)
	b.addGlobal(&globalStore{source: sourceName, processor: procName, store: storeName, topic: topic},
		st, &nodeSpec{key: spec(c.KeySerde), val: spec(c.ValueSerde), extractor: c.TimestampExtractor},
		tableSourceSupplier(storeName, &oldValues{})) // a global table sends no old values
	return &GlobalKTable[K, V]{b: b, storeName: storeName}
}

// AddGlobalStore adds a global store fed by a processor:
// StreamsBuilder.addGlobalStore. The global thread runs every record of
// topic through supplier's processor, which writes the store; it is the
// store's only writer, and stream tasks read the store by name from their
// ProcessorContext without connecting it. The store is never changelogged,
// whatever sb says, as Kafka Streams disables logging of global stores; on
// restore the topic's records run through the processor again.
func AddGlobalStore[K, V any](b *StreamsBuilder, sb StoreBuilder, topic string, c Consumed[K, V], supplier func() Processor) {
	b.fail(validateName(sb.Name))
	b.fail(validateName(c.Name))
	if sb.Name == "" {
		b.fail(invalidTopology("Name is illegal, it can't be empty"))
		return
	}
	if sb.Kind != KeyValueStoreKind {
		b.fail(invalidTopology("store %s: global stores are key-value stores in StoatFlow; a %s store is not supported", sb.Name, sb.Kind))
		return
	}
	sourceName := b.newProcessorName(prefixSource)
	procName := b.newProcessorName(prefixTableSource)
	if c.Name != "" {
		sourceName, procName = c.Name+"-source", c.Name
	}
	b.addGlobal(&globalStore{source: sourceName, processor: procName, store: sb.Name, topic: topic, reprocess: true},
		globalStoreSpec(sb), &nodeSpec{key: spec(c.KeySerde), val: spec(c.ValueSerde), extractor: c.TimestampExtractor}, supplier)
}

// JoinGlobal joins each record of s with the row of g under the key
// keySelector picks: KStream.join(GlobalKTable, KeyValueMapper, ValueJoiner).
// A record whose value is null, or whose selected key is null (a nil KG),
// is dropped and counted; one that finds no row yields nothing. The result
// keeps the record's key and timestamp. Table updates yield nothing.
func JoinGlobal[K, V, KG, VG, VR any](s *KStream[K, V], g *GlobalKTable[KG, VG], keySelector func(K, V) KG, joiner func(V, VG) VR, named ...Named) *KStream[K, VR] {
	return globalJoin(s, g, keySelector, func(_ K, v V, gv *VG) VR { return joiner(v, *gv) }, false, named)
}

// JoinGlobalWithKey is JoinGlobal with a joiner that also sees the record's
// key (ValueJoinerWithKey; the zero K for a null key).
func JoinGlobalWithKey[K, V, KG, VG, VR any](s *KStream[K, V], g *GlobalKTable[KG, VG], keySelector func(K, V) KG, joiner func(K, V, VG) VR, named ...Named) *KStream[K, VR] {
	return globalJoin(s, g, keySelector, func(k K, v V, gv *VG) VR { return joiner(k, v, *gv) }, false, named)
}

// LeftJoinGlobal is the left join of s with g: KStream.leftJoin(GlobalKTable,
// ...). Every record with a value yields a result; the joiner gets nil for a
// missing row (Kafka's null), never a zero VG. A record with a null value is
// dropped and counted; one whose selected key is null joins with nil.
func LeftJoinGlobal[K, V, KG, VG, VR any](s *KStream[K, V], g *GlobalKTable[KG, VG], keySelector func(K, V) KG, joiner func(V, *VG) VR, named ...Named) *KStream[K, VR] {
	return globalJoin(s, g, keySelector, func(_ K, v V, gv *VG) VR { return joiner(v, gv) }, true, named)
}

// LeftJoinGlobalWithKey is LeftJoinGlobal with a joiner that also sees the
// record's key.
func LeftJoinGlobalWithKey[K, V, KG, VG, VR any](s *KStream[K, V], g *GlobalKTable[KG, VG], keySelector func(K, V) KG, joiner func(K, V, *VG) VR, named ...Named) *KStream[K, VR] {
	return globalJoin(s, g, keySelector, joiner, true, named)
}

func globalJoin[K, V, KG, VG, VR any](s *KStream[K, V], g *GlobalKTable[KG, VG], keySelector func(K, V) KG, joiner func(K, V, *VG) VR, left bool, named []Named) *KStream[K, VR] {
	if g.b != s.b {
		s.b.fail(invalidTopology("kstreams: joining with a GlobalKTable of another builder is not allowed"))
	}
	arg := valueArg[V](s.view)
	store := g.storeName
	name := s.processor(prefixLeftJoin, named, func() Processor {
		return &globalJoinProcessor[K, V, KG, VG, VR]{store: store, arg: arg, keySelector: keySelector, joiner: joiner, left: left}
	})
	return derive[K, V, K, VR](s, name, s.key, serdeSpec{}, s.repartitionRequired)
}

// globalJoinProcessor is KStreamKTableJoinProcessor over a global table's
// store, as Kafka Streams 4.4 runs it: the key selector is asked first; a
// left join keeps a record with a value whose selected key is null; any
// other record with a null value or a null selected key is dropped.
type globalJoinProcessor[K, V, KG, VG, VR any] struct {
	ctx         ProcessorContext
	store       string
	table       *TimestampedKeyValueStore
	arg         func(any) (V, bool)
	keySelector func(K, V) KG
	joiner      func(K, V, *VG) VR
	left        bool
}

func (p *globalJoinProcessor[K, V, KG, VG, VR]) Init(ctx ProcessorContext) (err error) {
	p.ctx = ctx
	p.table, err = storeAs[*TimestampedKeyValueStore](ctx, p.store)
	return err
}

func (p *globalJoinProcessor[K, V, KG, VG, VR]) Process(r Record) error {
	v, ok := p.arg(r.Value)
	if !ok {
		// A null V cannot hold: the selector is not handed a made-up value,
		// and the record is dropped as Kafka drops a null value.
		p.ctx.RecordDropped("Skipping record due to null join key or value.")
		return nil
	}
	k := as[K](r.Key)
	mapped := nullable(p.keySelector(k, v))
	if r.Value == nil || (mapped == nil && !p.left) {
		p.ctx.RecordDropped("Skipping record due to null join key or value.")
		return nil
	}
	var gv *VG
	if mapped != nil {
		tv, _, found, err := p.table.Get(mapped)
		if err != nil {
			return err
		}
		if found {
			x := as[VG](tv)
			gv = &x
		}
	}
	if gv == nil && !p.left {
		return nil
	}
	r.Value = nullable(p.joiner(k, v, gv))
	return p.ctx.Forward(r)
}

func (p *globalJoinProcessor[K, V, KG, VG, VR]) Close() error { return nil }
