package kstreams

// Name prefixes of the table–table join processors and result store.
const (
	prefixTableJoinThis  = "KTABLE-JOINTHIS-"
	prefixTableJoinOther = "KTABLE-JOINOTHER-"
	prefixTableJoinMerge = "KTABLE-MERGE-"
)

// tableJoinKind is which of Kafka's KTableKTable*Join processors a side uses.
type tableJoinKind int

const (
	innerJoinSide tableJoinKind = iota // KTableKTableInnerJoin
	leftJoinSide                       // KTableKTableLeftJoin: this side of a left join
	rightJoinSide                      // KTableKTableRightJoin: the other side of a left join
	outerJoinSide                      // KTableKTableOuterJoin
)

// TableTableJoin joins two tables on their keys: KTable.join(KTable,
// ValueJoiner, Named, Materialized). The result holds joiner(v, vo) for
// every key both tables hold; an update on either side looks the other up
// and forwards the new result (and, when something downstream asks for it,
// the old one), stamped with the larger of the two rows' timestamps; a
// deletion on either side deletes the result row. An update with a null key
// is dropped and counted. The processors are KTABLE-JOINTHIS-,
// KTABLE-JOINOTHER- and KTABLE-MERGE- (Named n: n-join-this, n-join-other,
// n), reading the other side through its value getter, which materializes
// an unmaterialized source table as in Kafka Streams.
//
// opts may hold a Named and a Materialized. With a Materialized the result
// has its own store (KTABLE-MERGE-STATE-STORE-<n> if unnamed) and
// changelog, queryable under its name; without one the result is computed
// on demand. A nil result (of a VR that can hold nil) deletes the row.
func TableTableJoin[K, V, VO, VR any](t *KTable[K, V], other *KTable[K, VO], joiner func(V, VO) VR, opts ...AggOption[K, VR]) *KTable[K, VR] {
	tv, ov := valueArg[V](t.view), valueArg[VO](other.view)
	return tableJoin(t, other, innerJoinSide, opts, func(v, vo any) any {
		x, _ := tv(v)
		y, _ := ov(vo)
		return nullable(joiner(x, y))
	})
}

// TableTableLeftJoin is TableTableJoin as a left join: KTable.leftJoin. The
// result holds a row for every key of t; the joiner's *VO is nil where
// other has no row, so a missing row is never taken for a zero value.
// Joining forces t to send old values (materializing it if it is an
// unmaterialized source), as Kafka Streams does.
func TableTableLeftJoin[K, V, VO, VR any](t *KTable[K, V], other *KTable[K, VO], joiner func(V, *VO) VR, opts ...AggOption[K, VR]) *KTable[K, VR] {
	tv, ov := valueArg[V](t.view), rowPointer[VO](other.view)
	return tableJoin(t, other, leftJoinSide, opts, func(v, vo any) any {
		x, _ := tv(v)
		return nullable(joiner(x, ov(vo)))
	})
}

// TableTableOuterJoin is TableTableJoin as an outer join: KTable.outerJoin.
// The result holds a row for every key of either table; the joiner's *V or
// *VO is nil where that table has no row (never both). Joining forces both
// tables to send old values.
func TableTableOuterJoin[K, V, VO, VR any](t *KTable[K, V], other *KTable[K, VO], joiner func(*V, *VO) VR, opts ...AggOption[K, VR]) *KTable[K, VR] {
	tv, ov := rowPointer[V](t.view), rowPointer[VO](other.view)
	return tableJoin(t, other, outerJoinSide, opts, func(v, vo any) any {
		return nullable(joiner(tv(v), ov(vo)))
	})
}

// rowPointer hands a table value to a joiner as a *V, nil for a missing row.
func rowPointer[V any](view *valueView) func(raw any) *V {
	arg := valueArg[V](view)
	return func(raw any) *V {
		if raw == nil {
			return nil
		}
		v, ok := arg(raw)
		if !ok {
			return nil
		}
		return &v
	}
}

func tableJoin[K, V, VO, VR any](t *KTable[K, V], other *KTable[K, VO], kind tableJoinKind, opts []AggOption[K, VR],
	joiner func(v, vo any) any) *KTable[K, VR] {
	b := t.b
	if other.b != b {
		b.fail(invalidTopology("kstreams: the tables of a join must come from the same builder"))
		return &KTable[K, VR]{b: b, name: t.name}
	}
	o := parseAggOpts(b, opts)
	store := ""
	if o.hasMat {
		store = o.mat.Name
		if store == "" {
			store = b.newStoreName(prefixTableJoinMerge)
			b.unnamedStore(store, !o.mat.LoggingDisabled)
		}
	}
	mergeName := b.orGenerate(o.named, prefixTableJoinMerge)
	b.copartition(t.name, other.name)
	if kind == leftJoinSide || kind == outerJoinSide {
		t.old.request(true)
	}
	if kind == outerJoinSide {
		other.old.request(true)
	}
	thisName := b.suffixOrGenerate(o.named, "-join-this", prefixTableJoinThis)
	otherName := b.suffixOrGenerate(o.named, "-join-other", prefixTableJoinOther)

	thisGetter, err := t.valueGetterSupplier()
	b.fail(err)
	otherGetter, err := other.valueGetterSupplier()
	b.fail(err)

	// Downstream requests for old values reach both sides: a table-table
	// join needs its parents' old values to compute its own.
	old := &oldValues{enable: func(bool) bool {
		t.old.request(true)
		other.old.request(true)
		return true
	}}
	reversed := func(vo, v any) any { return joiner(v, vo) }
	thisKind, otherKind := kind, kind
	if kind == leftJoinSide {
		otherKind = rightJoinSide
	}
	b.addNode(&nodeSpec{name: thisName, kind: ProcessorNode, preds: []string{t.name},
		supplier: tableJoinSupplier(thisKind, otherGetter, joiner, old, t.versioned)})
	b.addNode(&nodeSpec{name: otherName, kind: ProcessorNode, preds: []string{other.name},
		supplier: tableJoinSupplier(otherKind, thisGetter, reversed, old, other.versioned)})
	b.addNode(&nodeSpec{name: mergeName, kind: ProcessorNode, preds: []string{thisName, otherName},
		supplier: func() Processor { return &tableJoinMerger{storeOp: storeOp{storeName: store, old: old}} }})
	b.connectGetter(thisName, otherGetter)
	b.connectGetter(otherName, thisGetter)

	key, val := orSpec(o.mat.KeySerde, t.key), spec(o.mat.ValueSerde)
	if store != "" {
		b.fail(b.topo.addStore(materializedSpec(b, o.mat, store, key, val)))
		b.fail(b.topo.connectStore(mergeName, store))
	}
	result := &KTable[K, VR]{b: b, name: mergeName, key: key, val: val, storeName: store, old: old, versioned: o.mat.isVersioned()}
	result.getter = func() (getterSupplier, error) {
		if store != "" {
			return storeGetter(b, store)
		}
		return joinGetter(kind, thisGetter, otherGetter, joiner), nil
	}
	return result
}

// suffixOrGenerate is NamedInternal.suffixWithOrElseGet: name+suffix if a
// name was given, else a generated one; the index is drawn either way.
func (b *StreamsBuilder) suffixOrGenerate(name, suffix, prefix string) string {
	gen := b.newProcessorName(prefix)
	if name == "" {
		return gen
	}
	b.fail(validateName(name + suffix))
	return name + suffix
}

// joinGetter computes a join result's row from both sides' getters, as the
// value getters of Kafka's KTableKTable*Join do (those of the this side:
// the merger of an unmaterialized join reads through them).
func joinGetter(kind tableJoinKind, this, other getterSupplier, joiner func(v, vo any) any) getterSupplier {
	return getterSupplier{stores: unionStores(this.stores, other.stores), init: func(ctx ProcessorContext) (valueGetter, error) {
		get1, err := this.init(ctx)
		if err != nil {
			return nil, err
		}
		get2, err := other.init(ctx)
		if err != nil {
			return nil, err
		}
		return func(key any) (any, int64, bool, error) {
			v1, ts1, ok1, err := get1(key)
			if err != nil {
				return nil, 0, false, err
			}
			if !ok1 && kind != outerJoinSide {
				return nil, 0, false, nil
			}
			v2, ts2, ok2, err := get2(key)
			if err != nil {
				return nil, 0, false, err
			}
			if !ok1 {
				ts1 = -1
			}
			if !ok2 {
				if kind == innerJoinSide {
					return nil, 0, false, nil
				}
				ts2 = -1
				v2 = nil
			}
			if !ok1 && !ok2 {
				return nil, 0, false, nil
			}
			if !ok1 {
				v1 = nil
			}
			r := joiner(v1, v2)
			if r == nil {
				return nil, 0, false, nil
			}
			return r, max(ts1, ts2), true, nil
		}, nil
	}}
}

func tableJoinSupplier(kind tableJoinKind, g getterSupplier, joiner func(v, vo any) any, old *oldValues, versioned bool) func() Processor {
	return func() Processor {
		return &tableJoinProcessor{kind: kind, getter: g, joiner: joiner, old: old, versioned: versioned}
	}
}

// tableJoinProcessor is one side of a table–table join: an update of this
// side's table looks the other side up and forwards the joined change.
type tableJoinProcessor struct {
	ctx     ProcessorContext
	kind    tableJoinKind
	getter  getterSupplier
	get     valueGetter
	joiner  func(v, vo any) any // this side's value first
	old     *oldValues
	sendOld bool
	// versioned: this side's table is versioned, and its out-of-order
	// updates join nothing (KIP-914).
	versioned bool
}

func (p *tableJoinProcessor) Init(ctx ProcessorContext) (err error) {
	p.ctx, p.sendOld = ctx, p.old.sending()
	p.get, err = p.getter.init(ctx)
	return err
}

func (p *tableJoinProcessor) Process(r Record) error {
	if r.Key == nil {
		p.ctx.RecordDropped("Skipping record due to null key.")
		return nil
	}
	in, _ := r.Value.(Change)
	if p.versioned && in.notLatest {
		p.ctx.RecordDropped(outOfOrderVersionedJoin)
		return nil
	}
	other, otherTs, ok, err := p.get(r.Key)
	if err != nil {
		return err
	}
	if !ok {
		other = nil
	}
	var c Change
	ts := r.Timestamp
	switch p.kind {
	case innerJoinSide, rightJoinSide:
		if other == nil {
			return nil
		}
		ts = max(ts, otherTs)
		// The right side of a left join joins even a deleted row: the left
		// row then stands alone.
		if in.New != nil || p.kind == rightJoinSide {
			c.New = p.joiner(in.New, other)
		}
		if p.sendOld && (in.Old != nil || p.kind == rightJoinSide) {
			c.Old = p.joiner(in.Old, other)
		}
	case leftJoinSide, outerJoinSide:
		if other == nil {
			if in.New == nil && in.Old == nil {
				return nil
			}
		} else {
			ts = max(ts, otherTs)
		}
		if in.New != nil || (p.kind == outerJoinSide && other != nil) {
			c.New = p.joiner(in.New, other)
		}
		if p.sendOld && (in.Old != nil || (p.kind == outerJoinSide && other != nil)) {
			c.Old = p.joiner(in.Old, other)
		}
	}
	return p.ctx.Forward(Record{Key: r.Key, Value: c, Timestamp: ts, Headers: r.Headers})
}

func (p *tableJoinProcessor) Close() error { return nil }

// tableJoinMerger is KTableKTableJoinMerger: both sides' results become
// one table, kept in the result's store when it is materialized.
type tableJoinMerger struct {
	storeOp
}

func (p *tableJoinMerger) Process(r Record) error {
	c, _ := r.Value.(Change)
	if !p.sendOld {
		c.Old = nil
	}
	if p.store != nil {
		if fwd, err := p.write(r.Key, c.New, r.Timestamp, &c); !fwd {
			return err // or forwarded when the cache is flushed
		}
	}
	r.Value = c
	return p.ctx.Forward(r)
}

func (p *tableJoinMerger) Close() error { return nil }
