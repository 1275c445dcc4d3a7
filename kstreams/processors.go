package kstreams

import "fmt"

func filterSupplier[K, V any](pred func(K, V) bool, not bool) func() Processor {
	return stateless(func(ctx ProcessorContext, r Record) error {
		if pred(as[K](r.Key), as[V](r.Value)) != not {
			return ctx.Forward(r)
		}
		return nil
	})
}

func storeAs[T any](ctx ProcessorContext, name string) (T, error) {
	var zero T
	s, err := ctx.StateStore(name)
	if err != nil {
		return zero, err
	}
	t, ok := s.(T)
	if !ok {
		return zero, fmt.Errorf("kstreams: store %s is a %T, want %T", name, s, zero)
	}
	return t, nil
}

// kvAggregate is KStreamAggregate / KStreamReduce: fold each record into the
// key's aggregate in a timestamped store and forward the new aggregate with
// timestamp max(record, previous aggregate).
type kvAggregate struct {
	ctx       ProcessorContext
	store     *TimestampedKeyValueStore
	storeName string
	init      func() any // nil for reduce: the first value is the aggregate
	agg       func(k, v, agg any) any
}

func kvAggregateSupplier(store string, init func() any, agg func(k, v, agg any) any) func() Processor {
	return func() Processor { return &kvAggregate{storeName: store, init: init, agg: agg} }
}

func (p *kvAggregate) Init(ctx ProcessorContext) (err error) {
	p.ctx = ctx
	p.store, err = storeAs[*TimestampedKeyValueStore](ctx, p.storeName)
	return err
}

func (p *kvAggregate) Process(r Record) error {
	if r.Key == nil || r.Value == nil {
		p.ctx.RecordDropped("Skipping record due to null key or value.")
		return nil
	}
	old, oldTs, ok, err := p.store.Get(r.Key)
	if err != nil {
		return err
	}
	var next any
	ts := r.Timestamp
	switch {
	case !ok && p.init == nil:
		next = r.Value
	case !ok:
		next = p.agg(r.Key, r.Value, p.init())
	default:
		next = p.agg(r.Key, r.Value, old)
		ts = max(ts, oldTs)
	}
	if err := p.store.Put(r.Key, next, ts); err != nil {
		return err
	}
	return p.ctx.Forward(Record{Key: r.Key, Value: Change{New: next}, Timestamp: ts, Headers: r.Headers})
}

func (p *kvAggregate) Close() error { return nil }

// tableSource is KTableSource: records become table updates, kept in the
// store when the table is materialized.
type tableSource struct {
	ctx       ProcessorContext
	storeName string
	store     *TimestampedKeyValueStore
}

func tableSourceSupplier(store string) func() Processor {
	return func() Processor { return &tableSource{storeName: store} }
}

func (p *tableSource) Init(ctx ProcessorContext) (err error) {
	p.ctx = ctx
	if p.storeName != "" {
		p.store, err = storeAs[*TimestampedKeyValueStore](ctx, p.storeName)
	}
	return err
}

func (p *tableSource) Process(r Record) error {
	if r.Key == nil {
		p.ctx.RecordDropped("Skipping record due to null key.")
		return nil
	}
	if p.store != nil {
		if err := p.store.Put(r.Key, r.Value, r.Timestamp); err != nil {
			return err
		}
	}
	return p.ctx.Forward(Record{Key: r.Key, Value: Change{New: r.Value}, Timestamp: r.Timestamp, Headers: r.Headers})
}

func (p *tableSource) Close() error { return nil }
