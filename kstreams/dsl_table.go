package kstreams

// oldValues is one table's part in Kafka Streams' enableSendingOldValues: a
// downstream operator that needs the previous value of a key (a filter, to
// avoid needless tombstones; later a re-grouping, to subtract it) asks the
// table for it at build time, and the table asks its own parent if it
// cannot compute the old value itself. send is read when a task creates the
// processor, after the topology is built.
type oldValues struct {
	send bool
	// enable reports whether the table can send old values; force
	// materializes an unmaterialized source (a join or re-grouping needs
	// that: see sourceTable).
	enable func(force bool) bool
}

// request asks the table for old values, as KTableImpl.enableSendingOldValues.
func (o *oldValues) request(force bool) bool {
	if o == nil || o.enable == nil {
		return false
	}
	if !o.send && o.enable(force) {
		o.send = true
	}
	return o.send
}

// sending is whether the processor forwards old values.
func (o *oldValues) sending() bool { return o != nil && o.send }

// aggregateOldValues is KStreamAggProcessorSupplier's: an aggregation always
// holds the previous aggregate.
func aggregateOldValues() *oldValues {
	return &oldValues{enable: func(bool) bool { return true }}
}

// derivedOldValues is KTableFilter's and KTableMapValues': a materialized
// result reads old values from its own store, else it computes them from
// its parent's.
func derivedOldValues(parent *oldValues, materialized, initial bool) *oldValues {
	return &oldValues{send: initial, enable: func(force bool) bool {
		return materialized || parent.request(force)
	}}
}

// tableStore is the store of a materialized table operator, if any. An
// unnamed Materialized burns a store index (prefix) before the processor
// name, as Kafka Streams does, and leaves the result unmaterialized.
func tableStore[K, V any](b *StreamsBuilder, o aggOpts[K, V], prefix string) string {
	if o.hasMat && o.mat.Name == "" {
		b.newStoreName(prefix)
	}
	return o.mat.Name
}

// Filter keeps the table's rows pred accepts: KTable.filter. A row pred
// rejects reads as deleted: its update is forwarded as a tombstone, unless
// the filter knows the old value did not pass either. pred is never called
// for a deletion. opts may hold a Named (the processor name) and a
// Materialized: a named one gives the result its own store and changelog,
// queryable under that name.
func (t *KTable[K, V]) Filter(pred func(K, V) bool, opts ...AggOption[K, V]) *KTable[K, V] {
	return t.filter(pred, false, opts)
}

// FilterNot drops the table's rows pred accepts: KTable.filterNot; as Filter
// otherwise.
func (t *KTable[K, V]) FilterNot(pred func(K, V) bool, opts ...AggOption[K, V]) *KTable[K, V] {
	return t.filter(pred, true, opts)
}

func (t *KTable[K, V]) filter(pred func(K, V) bool, not bool, opts []AggOption[K, V]) *KTable[K, V] {
	o := parseAggOpts(t.b, opts)
	store := tableStore(t.b, o, prefixTableFilter)
	key, val := orSpec(o.mat.KeySerde, t.key), viewSpec(t.view, o.mat.ValueSerde, t.val)
	name := t.b.orGenerate(o.named, prefixTableFilter)
	// A filter asks a parent that can do it cheaply (a materialized one) for
	// old values, so as not to forward tombstones for rows that never passed.
	old := derivedOldValues(t.old, store != "", t.old.request(false))
	arg := valueArg[V](t.view)
	compute := func(k, v any) any {
		x, ok := arg(v)
		if v == nil || !ok || pred(as[K](k), x) == not {
			return nil
		}
		return v
	}
	t.b.addNode(&nodeSpec{name: name, kind: ProcessorNode, preds: []string{t.name},
		supplier: tableOpSupplier(store, old, compute, true, t.versioned)})
	t.addTableStore(name, store, o.mat, key, val)
	return &KTable[K, V]{b: t.b, name: name, key: key, val: val, storeName: store, view: t.view, old: old,
		getter: derivedGetter(t, store, compute), versioned: outputVersioned(t, o)}
}

// MapTableValues maps each row's value, with its key: KTable.mapValues with
// a ValueMapperWithKey. fn is never called for a deletion, which stays a
// deletion; a nil result (of a VR that can hold nil) deletes the row. opts
// may hold a Named and a Materialized, as in Filter; without a value serde
// in Materialized the result's values use the application default.
func MapTableValues[K, V, VR any](t *KTable[K, V], fn func(K, V) VR, opts ...AggOption[K, VR]) *KTable[K, VR] {
	o := parseAggOpts(t.b, opts)
	store := tableStore(t.b, o, prefixTableMapVals)
	key, val := orSpec(o.mat.KeySerde, t.key), spec(o.mat.ValueSerde)
	name := t.b.orGenerate(o.named, prefixTableMapVals)
	old := derivedOldValues(t.old, store != "", false)
	arg := valueArg[V](t.view)
	compute := func(k, v any) any {
		x, ok := arg(v)
		if v == nil || !ok {
			return nil
		}
		return nullable(fn(as[K](k), x))
	}
	t.b.addNode(&nodeSpec{name: name, kind: ProcessorNode, preds: []string{t.name},
		supplier: tableOpSupplier(store, old, compute, false, t.versioned)})
	t.addTableStore(name, store, Materialized[K, V]{StoreType: o.mat.StoreType, LoggingDisabled: o.mat.LoggingDisabled,
		LogConfig: o.mat.LogConfig, CachingDisabled: o.mat.CachingDisabled, versioned: o.mat.versioned}, key, val)
	return &KTable[K, VR]{b: t.b, name: name, key: key, val: val, storeName: store, old: old,
		getter: derivedGetter(t, store, compute), versioned: outputVersioned(t, o)}
}

func (t *KTable[K, V]) addTableStore(proc, store string, m Materialized[K, V], key, val serdeSpec) {
	if store == "" {
		return
	}
	s, err := m.storeSpec(store, key, val)
	if err != nil {
		t.b.fail(err)
		return
	}
	t.b.fail(t.b.topo.addStore(s))
	t.b.fail(t.b.topo.connectStore(proc, store))
}

// outputVersioned is whether a filter, mapValues or transformValues of t
// with options o is a versioned table, as Kafka Streams decides it: a
// Materialized makes it versioned exactly when it names a versioned store;
// without one the result is versioned if t is.
func outputVersioned[K, V, VR any](t *KTable[K, V], o aggOpts[K, VR]) bool {
	if o.hasMat {
		return o.mat.isVersioned()
	}
	return t.versioned
}

// ToTable turns the stream into a table: KStream.toTable, a
// KSTREAM-TOTABLE processor. Each record updates its key; a null value
// deletes it; a record with a null key is dropped. If an earlier operation
// changed the key, the stream is repartitioned first (a topic named after the
// processor). opts may hold a Named and a Materialized; only a named
// Materialized gives the table a store.
func (s *KStream[K, V]) ToTable(opts ...AggOption[K, V]) *KTable[K, V] {
	o := parseAggOpts(s.b, opts)
	name := s.b.orGenerate(o.named, prefixToTable)
	storeName, drawn := o.mat.Name, o.mat.Name
	if storeName == "" {
		// Kafka names a store it builds only if a join or re-grouping
		// materializes the table later; the name counts as unnamed
		// either way.
		drawn = s.b.newStoreName(prefixToTable)
		s.b.unnamedStore(drawn, !o.mat.LoggingDisabled)
	}
	key, val := orSpec(o.mat.KeySerde, s.key), viewSpec(s.view, o.mat.ValueSerde, s.val)
	parent := s.name
	if s.repartitionRequired {
		if o.named == "" {
			s.b.unnamedRepartition(name)
		}
		parent = createRepartition(s.b, s.name, name, key, val)
	}
	m := o.mat
	src := newSourceTable(s.b, name, drawn, storeName != "", func() *StoreSpec {
		return kvStoreSpec(drawn, m.StoreType, m.LoggingDisabled, m.LogConfig, m.CachingDisabled, key, val)
	})
	s.b.addNode(&nodeSpec{name: name, kind: ProcessorNode, preds: []string{parent}, supplier: src.supplier()})
	t := &KTable[K, V]{b: s.b, name: name, key: key, val: val, storeName: storeName, view: s.view, old: src.old, getter: src.getter,
		versioned: o.mat.isVersioned()}
	t.addTableStore(name, storeName, o.mat, key, val)
	return t
}

// tableOp is KTableFilter / KTableMapValues: compute maps a value (never
// called with a deletion's nil in a way that reaches user code) to the
// result's value; old values come from the result's store when it has one,
// else from the parent's old value.
type tableOp struct {
	storeOp
	compute func(k, v any) any
	// filter skips an update in which neither value passes, once old values
	// are known (KTableFilter does; KTableMapValues has no such case),
	// unless its parent is versioned.
	filter    bool
	versioned bool
}

func tableOpSupplier(store string, old *oldValues, compute func(k, v any) any, filter, versioned bool) func() Processor {
	return func() Processor {
		return &tableOp{storeOp: storeOp{storeName: store, old: old}, compute: compute, filter: filter, versioned: versioned}
	}
}

func (p *tableOp) Process(r Record) error {
	in, _ := r.Value.(Change)
	c := Change{New: p.compute(r.Key, in.New), notLatest: in.notLatest}
	if p.sendOld {
		if p.store != nil {
			old, _, _, err := p.store.latest(r.Key)
			if err != nil {
				return err
			}
			c.Old = old
		} else {
			c.Old = p.compute(r.Key, in.Old)
		}
		// Under versioned semantics the filter forwards it all the same,
		// as Kafka's KTableFilter does.
		if p.filter && !p.versioned && c.New == nil && c.Old == nil {
			return nil // the row was absent and stays absent downstream
		}
	}
	if p.store != nil {
		if fwd, err := p.write(r.Key, c.New, r.Timestamp, &c); !fwd {
			return err // or forwarded when the cache is flushed
		}
	}
	r.Value = c
	return p.ctx.Forward(r)
}

func (p *tableOp) Close() error { return nil }
