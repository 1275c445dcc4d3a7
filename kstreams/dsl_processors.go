package kstreams

import "fmt"

func filterSupplier[K, V any](pred func(K, V) bool, not bool, view *valueView) func() Processor {
	arg := valueArg[V](view)
	return stateless(func(ctx ProcessorContext, r Record) error {
		v, ok := arg(r.Value)
		if !ok || pred(as[K](r.Key), v) != not {
			return ctx.Forward(r) // a null V cannot hold passes unjudged
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

// storeOp is what a table operator holds of its key-value store: the
// store, if it has one (storeName "" for none), and whether it sends old
// values downstream.
type storeOp struct {
	ctx       ProcessorContext
	storeName string
	store     tableKV
	old       *oldValues
	sendOld   bool
}

// Init looks the store up, if there is one, and forwards the entries its
// cache flushes as table updates.
func (p *storeOp) Init(ctx ProcessorContext) (err error) {
	p.ctx, p.sendOld = ctx, p.old.sending()
	if p.storeName == "" {
		return nil
	}
	if p.store, err = openTableKV(ctx, p.storeName); err != nil {
		return err
	}
	p.store.onFlush(forwardChange(ctx, p.sendOld))
	return nil
}

// write puts a row into the operator's store and says whether to forward
// c now: not when the store dropped the row (a versioned store's write older
// than its history retention) or caches it until a flush. c is marked as
// not the latest when the row went into a versioned store's history.
func (p *storeOp) write(key, value any, ts int64, c *Change) (forward bool, err error) {
	stored, latest, err := p.store.putTable(key, value, ts)
	if err != nil || !stored {
		return false, err
	}
	c.notLatest = !latest
	return !p.store.Caching(), nil
}

// kvAggregate is KStreamAggregate / KStreamReduce: fold each record into the
// key's aggregate in a timestamped store and forward the new aggregate with
// timestamp max(record, previous aggregate).
type kvAggregate struct {
	storeOp
	init func() any // nil for reduce: the first value is the aggregate
	agg  func(k, v, agg any) any
}

func kvAggregateSupplier(store string, old *oldValues, init func() any, agg func(k, v, agg any) any) func() Processor {
	return func() Processor {
		return &kvAggregate{storeOp: storeOp{storeName: store, old: old}, init: init, agg: agg}
	}
}

// forwardChange forwards a flushed cache entry of a key-value store as a
// table update, stamped with the value's timestamp (Kafka's
// TimestampedCacheFlushListener). The old value, sent when sendOld, is the
// one the store held before the flush, as Kafka's caching store reads it.
func forwardChange(ctx ProcessorContext, sendOld bool) func(e *cacheEntry) error {
	return func(e *cacheEntry) error {
		ts := e.ctxTs
		if e.value != nil {
			ts = e.ts
		}
		c := Change{New: e.value}
		if sendOld {
			c.Old = e.old
		}
		return ctx.Forward(Record{Key: e.keyVal, Value: c, Timestamp: ts, Headers: e.headers})
	}
}

// fold adds r's value to an aggregate: to old with timestamp oldTs when
// found, else to a new initial aggregate or, for a reduce (init nil), as
// the first value. It returns the new aggregate and its timestamp, the
// larger of r's and the old aggregate's.
func fold(init func() any, agg func(k, v, agg any) any, r Record, old any, oldTs int64, found bool) (any, int64) {
	switch {
	case !found && init == nil:
		return r.Value, r.Timestamp
	case !found:
		return agg(r.Key, r.Value, init()), r.Timestamp
	}
	return agg(r.Key, r.Value, old), max(r.Timestamp, oldTs)
}

func (p *kvAggregate) Process(r Record) error {
	if r.Key == nil || r.Value == nil {
		p.ctx.RecordDropped("Skipping record due to null key or value.")
		return nil
	}
	old, oldTs, ok, err := p.store.latest(r.Key)
	if err != nil {
		return err
	}
	next, ts := fold(p.init, p.agg, r, old, oldTs, ok)
	c := Change{New: next}
	if p.sendOld && ok {
		c.Old = old
	}
	if fwd, err := p.write(r.Key, next, ts, &c); !fwd {
		return err // or forwarded when the cache is flushed
	}
	return p.ctx.Forward(Record{Key: r.Key, Value: c, Timestamp: ts, Headers: r.Headers})
}

func (p *kvAggregate) Close() error { return nil }

// tableSource is KTableSource: records become table updates, kept in the
// store when the table is materialized.
type tableSource struct {
	storeOp
}

func tableSourceSupplier(store string, old *oldValues) func() Processor {
	return func() Processor { return &tableSource{storeOp: storeOp{storeName: store, old: old}} }
}

func (p *tableSource) Process(r Record) error {
	if r.Key == nil {
		p.ctx.RecordDropped("Skipping record due to null key.")
		return nil
	}
	c := Change{New: r.Value}
	if p.store != nil {
		if p.sendOld {
			old, _, _, err := p.store.latest(r.Key)
			if err != nil {
				return err
			}
			c.Old = old
		}
		if fwd, err := p.write(r.Key, r.Value, r.Timestamp, &c); !fwd {
			return err // or forwarded when the cache is flushed
		}
	}
	return p.ctx.Forward(Record{Key: r.Key, Value: c, Timestamp: r.Timestamp, Headers: r.Headers})
}

func (p *tableSource) Close() error { return nil }
