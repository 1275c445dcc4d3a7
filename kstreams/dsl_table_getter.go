package kstreams

import (
	"fmt"
	"slices"
)

// valueGetter looks a table's row up by key as the table holds it now: the
// value and its timestamp, ok false when the table has no row for key.
// Kafka Streams' KTableValueGetter. A join reads the other side through one.
type valueGetter func(key any) (value any, ts int64, ok bool, err error)

// asOfGetter looks a versioned table's row up as it was at asOf: the
// version valid then (Kafka's KTableValueGetter.get(key, asOfTimestamp)).
type asOfGetter func(key any, asOf int64) (value any, ts int64, ok bool, err error)

// getterSupplier is Kafka's KTableValueGetterSupplier: the stores a getter
// reads, which the DSL connects to every processor that uses it (so that
// describe() lists them and the processor may open them), and how to build
// the getter in a processor's Init.
type getterSupplier struct {
	stores []string
	init   func(ctx ProcessorContext) (valueGetter, error)
	// asOf builds the getter at a timestamp; it is set exactly when the
	// table's rows are versioned (Kafka's isVersioned).
	asOf func(ctx ProcessorContext) (asOfGetter, error)
}

// valueGetterSupplier returns the table's getter supplier, as
// KTableImpl.valueGetterSupplier: a table with its own key-value store reads
// it; an unmaterialized filter, mapValues or join computes its rows from its
// parents' getters; an unmaterialized source table is materialized now, in
// the store whose name it drew when it was created.
func (t *KTable[K, V]) valueGetterSupplier() (getterSupplier, error) {
	if t.getter != nil {
		return t.getter()
	}
	if t.storeName != "" {
		return storeGetter(t.b, t.storeName)
	}
	return getterSupplier{}, invalidTopology("table %s cannot be looked up by key: it has no store and no parent to compute its rows from", t.name)
}

// storeGetter reads a table's timestamped key-value store (Kafka's
// KTableMaterializedValueGetterSupplier).
func storeGetter(b *StreamsBuilder, store string) (getterSupplier, error) {
	spec, ok := b.topo.stores[store]
	if !ok {
		return getterSupplier{}, invalidTopology("StateStore %s is not added yet.", store)
	}
	if spec.Kind == VersionedStoreKind {
		open := func(ctx ProcessorContext) (*VersionedKeyValueStore, error) {
			return storeAs[*VersionedKeyValueStore](ctx, store)
		}
		return getterSupplier{stores: []string{store},
			init: func(ctx ProcessorContext) (valueGetter, error) {
				s, err := open(ctx)
				if err != nil {
					return nil, err
				}
				return s.latest, nil
			},
			asOf: func(ctx ProcessorContext) (asOfGetter, error) {
				s, err := open(ctx)
				if err != nil {
					return nil, err
				}
				return func(key any, asOf int64) (any, int64, bool, error) {
					r, err := s.GetAsOf(key, asOf)
					if err != nil || r == nil {
						return nil, 0, false, err
					}
					return r.Value, r.Timestamp, true, nil
				}, nil
			}}, nil
	}
	if spec.Kind != KeyValueStoreKind || !spec.Timestamped {
		return getterSupplier{}, invalidTopology("table store %s is a %s store: joins over windowed tables are not supported yet", store, spec.Kind)
	}
	return getterSupplier{stores: []string{store}, init: func(ctx ProcessorContext) (valueGetter, error) {
		s, err := storeAs[*TimestampedKeyValueStore](ctx, store)
		if err != nil {
			return nil, err
		}
		return s.Get, nil
	}}, nil
}

// derivedGetter is the getter of an unmaterialized KTableFilter or
// KTableMapValues: the parent's row, passed through compute (nil: no row),
// with the parent's timestamp. A materialized one reads its own store.
func derivedGetter[K, V any](parent *KTable[K, V], store string, compute func(k, v any) any) func() (getterSupplier, error) {
	if store != "" {
		b := parent.b
		return func() (getterSupplier, error) { return storeGetter(b, store) }
	}
	return func() (getterSupplier, error) {
		up, err := parent.valueGetterSupplier()
		if err != nil {
			return getterSupplier{}, err
		}
		g := getterSupplier{stores: up.stores, init: func(ctx ProcessorContext) (valueGetter, error) {
			get, err := up.init(ctx)
			if err != nil {
				return nil, err
			}
			return func(key any) (any, int64, bool, error) {
				v, ts, ok, err := get(key)
				return computed(compute, key, v, ts, ok, err)
			}, nil
		}}
		if up.asOf != nil {
			g.asOf = func(ctx ProcessorContext) (asOfGetter, error) {
				get, err := up.asOf(ctx)
				if err != nil {
					return nil, err
				}
				return func(key any, asOf int64) (any, int64, bool, error) {
					v, ts, ok, err := get(key, asOf)
					return computed(compute, key, v, ts, ok, err)
				}, nil
			}
		}
		return g, nil
	}
}

// computed is a derived getter's row: the parent's, passed through
// compute (nil: no row), with the parent's timestamp.
func computed(compute func(k, v any) any, key, v any, ts int64, ok bool, err error) (any, int64, bool, error) {
	if err != nil || !ok {
		return nil, 0, false, err
	}
	if nv := compute(key, v); nv != nil {
		return nv, ts, true, nil
	}
	return nil, 0, false, nil
}

// sourceTable is a KTableSource (StreamsBuilder.table, KStream.toTable) and
// what it takes to materialize it later. Kafka Streams draws the store name
// when the table is created, even when it builds no store; a getter or a
// forced request for old values (a join, a re-grouping) then materializes
// the table in that store, with its own changelog, as
// KTableSource.materialize does.
type sourceTable struct {
	b            *StreamsBuilder
	node         string
	store        string
	materialized bool
	spec         func() *StoreSpec
	old          *oldValues
}

// newSourceTable describes the source node node whose store is store;
// materialized says whether the table was materialized at creation (the
// caller then adds the store itself). spec builds the store's spec if the
// table is materialized later.
func newSourceTable(b *StreamsBuilder, node, store string, materialized bool, spec func() *StoreSpec) *sourceTable {
	s := &sourceTable{b: b, node: node, store: store, materialized: materialized, spec: spec}
	s.old = &oldValues{enable: func(force bool) bool {
		// It is not possible to send old values without the store: a
		// forced request materializes the table.
		if force {
			s.materialize()
		}
		return s.materialized
	}}
	return s
}

// supplier is the source processor's supplier as the table stands now.
func (s *sourceTable) supplier() func() Processor {
	if !s.materialized {
		return tableSourceSupplier("", s.old)
	}
	return tableSourceSupplier(s.store, s.old)
}

// materialize gives the table its store. The store takes the place in the
// topology's store order that Kafka Streams gives it (stores are registered
// by the first processor using them, and the source comes first), so that
// caches flush in the same order.
func (s *sourceTable) materialize() {
	if s.materialized {
		return
	}
	b := s.b
	if b.built {
		b.fail(invalidTopology("the topology was already built"))
		return
	}
	n, ok := b.topo.byName[s.node]
	if !ok {
		b.fail(invalidTopology("Processor %s is not added yet.", s.node))
		return
	}
	s.materialized = true
	b.fail(b.topo.addStore(s.spec()))
	b.fail(b.topo.connectStore(s.node, s.store))
	b.topo.placeStore(s.store)
	n.supplier = s.supplier()
}

// getter is the source table's getter supplier: it reads the store,
// materializing the table first.
func (s *sourceTable) getter() (getterSupplier, error) {
	s.materialize()
	if !s.materialized {
		return getterSupplier{}, fmt.Errorf("kstreams: table %s could not be materialized", s.node)
	}
	return storeGetter(s.b, s.store)
}

// placeStore moves store, just added, in front of the first store whose
// first user was added after store's first user.
func (t *Topology) placeStore(store string) {
	pos := map[string]int{}
	for i, n := range t.nodes {
		pos[n.name] = i
	}
	first := func(name string) int {
		m := len(t.nodes)
		for _, u := range t.stores[name].users {
			m = min(m, pos[u])
		}
		return m
	}
	order := slices.DeleteFunc(slices.Clone(t.storeOrder), func(s string) bool { return s == store })
	at := len(order)
	for i, s := range order {
		if first(s) > first(store) {
			at = i
			break
		}
	}
	t.storeOrder = slices.Insert(order, at, store)
}

// connectGetter connects the stores of a getter to processor.
func (b *StreamsBuilder) connectGetter(processor string, g getterSupplier) {
	for _, s := range g.stores {
		b.fail(b.topo.connectStore(processor, s))
	}
}

// unionStores is the store names of two getters without repeats (Kafka
// collects them in a set).
func unionStores(a, b []string) []string {
	out := slices.Clone(a)
	for _, s := range b {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// nullKeyJoins tracks the joins that accept null keys (a stream-table left
// join; Kafka Streams labels them NULL_KEY_RELAXED_JOIN) and the
// repartitions of the topology: a repartition topic drops null-key records
// in its filter unless such a join lies downstream of it, as Kafka Streams'
// InternalStreamsBuilder rewrites the filters at build.
type nullKeyJoins struct {
	joins []string
	// filters maps a repartition's source to its filter.
	filters map[string]string
}

func (n *nullKeyJoins) relaxed(node string) { n.joins = append(n.joins, node) }

func (n *nullKeyJoins) repartition(source, filter string) {
	if n.filters == nil {
		n.filters = map[string]string{}
	}
	n.filters[source] = filter
}

// relaxNullKeyFilters lets null keys through the filter of every
// repartition upstream of a join that accepts them. Upstream follows the
// processors' parents, and from a repartition's source to its filter.
func (t *Topology) relaxNullKeyFilters() {
	seen := map[string]bool{}
	var walk func(name string)
	walk = func(name string) {
		if seen[name] {
			return
		}
		seen[name] = true
		n := t.byName[name]
		if n == nil {
			return
		}
		if filter, ok := t.nullKeys.filters[name]; ok {
			if f := t.byName[filter]; f != nil {
				f.supplier = stateless(func(ctx ProcessorContext, r Record) error { return ctx.Forward(r) })
			}
			walk(filter)
		}
		for _, p := range n.preds {
			walk(p)
		}
	}
	for _, j := range t.nullKeys.joins {
		walk(j)
	}
}

// windowGetter is the getter of a windowed aggregation's table
// (KStreamWindowAggregate's view): a Windowed key is looked up in the
// window store under its key and window start.
func windowGetter[K any](store string) func() (getterSupplier, error) {
	return func() (getterSupplier, error) {
		return getterSupplier{stores: []string{store}, init: func(ctx ProcessorContext) (valueGetter, error) {
			s, err := storeAs[*TimestampedWindowStore](ctx, store)
			if err != nil {
				return nil, err
			}
			return func(key any) (any, int64, bool, error) {
				w := key.(Windowed[K])
				return s.Fetch(w.Key, w.Window.Start)
			}, nil
		}}, nil
	}
}

// sessionGetter is the getter of a session aggregation's table
// (KStreamSessionWindowAggregate's view): the session of exactly the key's
// window, stamped with the session's end.
func sessionGetter[K any](store string) func() (getterSupplier, error) {
	return func() (getterSupplier, error) {
		return getterSupplier{stores: []string{store}, init: func(ctx ProcessorContext) (valueGetter, error) {
			s, err := storeAs[*SessionStore](ctx, store)
			if err != nil {
				return nil, err
			}
			return func(key any) (any, int64, bool, error) {
				w := key.(Windowed[K])
				sessions, err := s.FindSessions(w.Key, w.Window.End, w.Window.Start)
				if err != nil {
					return nil, 0, false, err
				}
				for _, e := range sessions {
					if e.Window == w.Window {
						return e.Value, w.Window.End, true, nil
					}
				}
				return nil, 0, false, nil
			}, nil
		}}, nil
	}
}
