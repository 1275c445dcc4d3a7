// Package processvalues runs fixed-key processors (KStream.processValues),
// the way Kafka Streams runs the same calls:
//
//	stream(input) → processValues(tagger, "seen") ─┬→ output      value "v#n", n the key's count so far
//	                                               └→ groupByKey → count → "count:n" → output
//	stream(input) → selectKey(value) → processValues(upper) → groupByKey → count → "rekeyed:n" → output
//
// The tagger counts each key's records in the store "seen" and drops the
// value "drop". A processValues keeps keys, so the first count reads the
// tagger's stream without repartitioning; the second is repartitioned
// because of the selectKey before it. Arguments: input and output. Keys and
// values are Strings.
package processvalues

import (
	"strconv"
	"strings"

	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/serde"
)

// Name is the stoatflow.topology value of the topology.
const Name = "processvalues"

// SeenStore is the tagger's store.
const SeenStore = "seen"

// Build returns the topology.
func Build(args map[string]string) (*kstreams.Topology, error) {
	input, output := "processvalues-input", "processvalues-output"
	if v := args["input"]; v != "" {
		input = v
	}
	if v := args["output"]; v != "" {
		output = v
	}
	s := serde.String{}
	produced := kstreams.ProducedWith[string, string](s, s)
	b := kstreams.NewStreamsBuilder()
	b.AddStateStore(kstreams.KeyValueStoreBuilder[string, int64](SeenStore, s, serde.Long{}))
	in := kstreams.Stream(b, []string{input}, kstreams.ConsumedWith[string, string](s, s))
	tagged := kstreams.ProcessValues[string](in, func() kstreams.FixedKeyProcessor { return &tagger{} }, "", SeenStore)
	tagged.To(output, produced)
	grouped := kstreams.Grouped[string, string]{KeySerde: s, ValueSerde: s}
	kstreams.MapValues(tagged.GroupByKey(grouped).Count().ToStream(), func(n int64) string { return "count:" + strconv.FormatInt(n, 10) }).
		To(output, produced)
	rekeyed := kstreams.SelectKey(in, func(_, v string) string { return v })
	upper := kstreams.ProcessValues[string](rekeyed, func() kstreams.FixedKeyProcessor { return &upperCase{} }, "")
	kstreams.MapValues(upper.GroupByKey(grouped).Count().ToStream(), func(n int64) string { return "rekeyed:" + strconv.FormatInt(n, 10) }).
		To(output, produced)
	return b.Build()
}

// tagger appends each key's running count to the value.
type tagger struct {
	ctx  kstreams.FixedKeyProcessorContext
	seen *kstreams.KeyValueStore
}

func (p *tagger) Init(ctx kstreams.FixedKeyProcessorContext) error {
	st, err := ctx.StateStore(SeenStore)
	if err != nil {
		return err
	}
	p.ctx, p.seen = ctx, st.(*kstreams.KeyValueStore)
	return nil
}

func (p *tagger) Process(r kstreams.FixedKeyRecord) error {
	v, _ := r.Value.(string)
	if v == "drop" {
		return nil
	}
	n, ok, err := p.seen.Get(r.Key())
	if err != nil {
		return err
	}
	next := int64(1)
	if ok {
		next = n.(int64) + 1
	}
	if err := p.seen.Put(r.Key(), next); err != nil {
		return err
	}
	return p.ctx.Forward(r.WithValue(v + "#" + strconv.FormatInt(next, 10)))
}

func (p *tagger) Close() error { return nil }

// upperCase upper-cases values.
type upperCase struct {
	ctx kstreams.FixedKeyProcessorContext
}

func (p *upperCase) Init(ctx kstreams.FixedKeyProcessorContext) error { p.ctx = ctx; return nil }

func (p *upperCase) Process(r kstreams.FixedKeyRecord) error {
	v, _ := r.Value.(string)
	return p.ctx.Forward(r.WithValue(strings.ToUpper(v)))
}

func (p *upperCase) Close() error { return nil }
