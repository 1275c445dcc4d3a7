// Package readonlystore enriches orders from a read-only store kept from a
// prices topic, the way Kafka Streams runs the same Processor API calls:
//
//	addReadOnlyStateStore("prices" store, source PricesSource over <prices>,
//	                      processor PricesUpdater: put, or delete on a tombstone)
//	OrdersSource(<input>) → Enricher (reads "prices": order + "@" + price,
//	                                  or "@unpriced") → EnrichedSink(<output>)
//
// The store has no changelog topic: the prices topic serves as one, and a
// task restores the store from it. Arguments: input (the orders), prices and
// output. Keys and values are Strings.
package readonlystore

import (
	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/serde"
)

// Name is the stoatflow.topology value of the topology, and Store the
// read-only store's.
const (
	Name  = "readonlystore"
	Store = "prices"
)

// Build returns the topology.
func Build(args map[string]string) (*kstreams.Topology, error) {
	input, prices, output := "readonlystore-orders", "readonlystore-prices", "readonlystore-output"
	if v := args["input"]; v != "" {
		input = v
	}
	if v := args["prices"]; v != "" {
		prices = v
	}
	if v := args["output"]; v != "" {
		output = v
	}
	s := serde.String{}
	strings := kstreams.SourceSerdes[string, string](s, s)
	t := kstreams.NewTopology()
	for _, step := range []func() error{
		func() error {
			return t.AddReadOnlyStateStore(kstreams.KeyValueStoreBuilder[string, string](Store, s, s), "PricesSource", strings,
				prices, "PricesUpdater", func() kstreams.Processor { return &updater{} })
		},
		func() error { return t.AddSource("OrdersSource", strings, input) },
		func() error {
			return t.AddProcessor("Enricher", func() kstreams.Processor { return &enricher{} }, "OrdersSource")
		},
		func() error { return t.ConnectProcessorAndStateStores("Enricher", Store) },
		func() error {
			return t.AddSink("EnrichedSink", output, kstreams.SinkSerdes[string, string](s, s), "Enricher")
		},
	} {
		if err := step(); err != nil {
			return nil, err
		}
	}
	return t, nil
}

// updater keeps the store: each price record's value under its key, a
// tombstone deleting it.
type updater struct{ store *kstreams.KeyValueStore }

func (p *updater) Init(ctx kstreams.ProcessorContext) error {
	st, err := ctx.StateStore(Store)
	if err != nil {
		return err
	}
	p.store = st.(*kstreams.KeyValueStore)
	return nil
}

func (p *updater) Process(r kstreams.Record) error {
	if r.Value == nil {
		return p.store.Delete(r.Key)
	}
	return p.store.Put(r.Key, r.Value)
}

func (p *updater) Close() error { return nil }

// enricher appends the price of the order's key to the order.
type enricher struct {
	ctx   kstreams.ProcessorContext
	store *kstreams.KeyValueStore
}

func (p *enricher) Init(ctx kstreams.ProcessorContext) error {
	st, err := ctx.StateStore(Store)
	if err != nil {
		return err
	}
	p.ctx, p.store = ctx, st.(*kstreams.KeyValueStore)
	return nil
}

func (p *enricher) Process(r kstreams.Record) error {
	price, ok, err := p.store.Get(r.Key)
	if err != nil {
		return err
	}
	v, _ := r.Value.(string)
	if ok {
		v += "@" + price.(string)
	} else {
		v += "@unpriced"
	}
	r.Value = v
	return p.ctx.Forward(r)
}

func (p *enricher) Close() error { return nil }
