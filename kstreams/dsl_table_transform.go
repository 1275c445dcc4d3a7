package kstreams

import "errors"

const prefixTableTransformValues = "KTABLE-TRANSFORMVALUES-"

// ValueTransformerWithKey computes a table row's new value from its key and
// value, with access to state stores: Kafka's ValueTransformerWithKey as
// KTable.transformValues runs it. Each task gets its own instance from the
// supplier. Init receives a context whose Forward and ForwardTo fail: the
// result of Transform is the only output. Transform is called for every
// update, a deletion included when V can hold nil (it then gets nil); for a
// V that cannot, a deletion stays a deletion without a call. An error from
// Transform is the record's processing error, as an exception thrown by
// Kafka's transform (processing.exception.handler decides).
type ValueTransformerWithKey[K, V, VR any] interface {
	Init(ctx ProcessorContext) error
	Transform(key K, value V) (VR, error)
	Close() error
}

// ErrForwardNotAllowed is returned by Forward and ForwardTo of the context a
// ValueTransformerWithKey gets: Kafka's ForwardingDisabledProcessorContext.
var ErrForwardNotAllowed = errors.New("kstreams: ProcessorContext#forward() is not supported in a value transformer")

type forwardingDisabled struct{ ProcessorContext }

func (forwardingDisabled) Forward(Record) error           { return ErrForwardNotAllowed }
func (forwardingDisabled) ForwardTo(string, Record) error { return ErrForwardNotAllowed }

// TransformTableValues transforms each row's value with a stateful
// transformer: KTable.transformValues, a KTABLE-TRANSFORMVALUES processor
// connected to stores (added with AddStateStore). opts may hold a Named and a
// Materialized; as in Kafka Streams only a Materialized with a name
// materializes the result (an unnamed one changes nothing). Old values come
// from the result's store when materialized, else by transforming the
// parent's old value again. A nil result (of a VR that can hold nil) deletes
// the row.
func TransformTableValues[K, V, VR any](t *KTable[K, V], supplier func() ValueTransformerWithKey[K, V, VR], stores []string, opts ...AggOption[K, VR]) *KTable[K, VR] {
	o := parseAggOpts(t.b, opts)
	store := o.mat.Name
	key, val := orSpec(o.mat.KeySerde, t.key), spec(o.mat.ValueSerde)
	name := t.b.orGenerate(o.named, prefixTableTransformValues)
	old := derivedOldValues(t.old, store != "", false)
	arg := valueArg[V](t.view)
	t.b.addNode(&nodeSpec{name: name, kind: ProcessorNode, preds: []string{t.name}, supplier: func() Processor {
		tr := supplier()
		apply := func(k, v any) (any, error) {
			x, ok := arg(v)
			if !ok {
				return nil, nil // a deletion a V without nil cannot carry
			}
			r, err := tr.Transform(as[K](k), x)
			return nullable(r), err
		}
		return &tableTransform{tableOp: tableOp{storeOp: storeOp{storeName: store, old: old}}, apply: apply, init: tr.Init, close: tr.Close}
	}})
	t.addTableStore(name, store, Materialized[K, V]{StoreType: o.mat.StoreType, LoggingDisabled: o.mat.LoggingDisabled,
		LogConfig: o.mat.LogConfig, CachingDisabled: o.mat.CachingDisabled, versioned: o.mat.versioned}, key, val)
	for _, s := range stores {
		t.b.fail(t.b.topo.connectStore(name, s))
	}
	return &KTable[K, VR]{b: t.b, name: name, key: key, val: val, storeName: store, old: old, versioned: outputVersioned(t, o)}
}

// tableTransform is KTableTransformValues' processor: tableOp's store and
// old values, with the task's own transformer as the computation.
type tableTransform struct {
	tableOp
	apply func(k, v any) (any, error)
	init  func(ProcessorContext) error
	close func() error
}

func (p *tableTransform) Init(ctx ProcessorContext) error {
	if err := p.tableOp.Init(ctx); err != nil {
		return err
	}
	return p.init(forwardingDisabled{ctx})
}

// Process transforms the new value (and, unmaterialized, the old one); a
// failed transformation changes no store and forwards nothing.
func (p *tableTransform) Process(r Record) error {
	in, _ := r.Value.(Change)
	newV, err := p.apply(r.Key, in.New)
	if err != nil {
		return err
	}
	c := Change{New: newV, notLatest: in.notLatest}
	if p.sendOld {
		if p.store != nil {
			if c.Old, _, _, err = p.store.latest(r.Key); err != nil {
				return err
			}
		} else if c.Old, err = p.apply(r.Key, in.Old); err != nil {
			return err
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

func (p *tableTransform) Close() error { return p.close() }
