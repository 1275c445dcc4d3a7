// Package globaljoin holds two topologies over a global topic: each
// instance reads every partition of it into a global store, and a stream
// reads that store without being co-partitioned with the topic.
//
// The first (Name) joins a stream with a global table, inner and left, in
// one topology:
//
//	globalTable(input) (store <input>-STATE-STORE-0000000000)
//	stream(stream)
//	  → join(global, key = the value's second comma-separated token)  → "inner:<value>+<row>"  → output
//	  → leftJoin(global, same key)                                     → "left:<value>+<row or null>" → output
//
// A value without a second token selects a null key: the inner join drops
// it, the left join joins it with null, as Kafka Streams 4.4 does.
//
// The second (StoreName) adds a global store fed by a processor that keeps
// each value upper-cased (a tombstone deletes), and a stream processor that
// replaces each value v by "v=<stored value or null>" looked up in it.
//
// The third (PAPIName) is the second written with the Processor API:
// Topology.addGlobalStore (source GlobalSource, processor GlobalUpper) and
// StreamSource → lookup → Sink.
//
// Arguments: input (the global topic), stream and output. Keys and values
// are Strings.
package globaljoin

import (
	"strings"

	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/serde"
)

// Name is the stoatflow.topology value of the join topology.
const Name = "globaljoin"

// StoreName is the stoatflow.topology value of the global store topology.
const StoreName = "globalstore"

// PAPIName is the stoatflow.topology value of the Processor API global
// store topology.
const PAPIName = "globalstore-papi"

// UpperStore is the global store of StoreName's and PAPIName's topologies.
const UpperStore = "globalstore-upper"

func topics(args map[string]string) (global, stream, output string) {
	global, stream, output = "globaljoin-global", "globaljoin-stream", "globaljoin-output"
	if v := args["input"]; v != "" {
		global = v
	}
	if v := args["stream"]; v != "" {
		stream = v
	}
	if v := args["output"]; v != "" {
		output = v
	}
	return global, stream, output
}

// foreignKey is the value's second comma-separated token, nil (null) when
// there is none.
func foreignKey(_, v string) *string {
	tokens := strings.Split(v, ",")
	if len(tokens) > 1 {
		return &tokens[1]
	}
	return nil
}

// Build returns the join topology.
func Build(args map[string]string) (*kstreams.Topology, error) {
	global, stream, output := topics(args)
	b := kstreams.NewStreamsBuilder()
	table := kstreams.GlobalTable(b, global, kstreams.ConsumedWith[*string, string](serde.Nullable[string](serde.String{}), serde.String{}))
	s := kstreams.Stream(b, []string{stream}, kstreams.ConsumedWith[string, string](serde.String{}, serde.String{}))
	produced := kstreams.ProducedWith[string, string](serde.String{}, serde.String{})
	kstreams.JoinGlobal(s, table, foreignKey, func(v, row string) string { return "inner:" + v + "+" + row }).To(output, produced)
	kstreams.LeftJoinGlobal(s, table, foreignKey, func(v string, row *string) string {
		if row == nil {
			return "left:" + v + "+null"
		}
		return "left:" + v + "+" + *row
	}).To(output, produced)
	return b.Build()
}

// BuildStore returns the global store topology.
func BuildStore(args map[string]string) (*kstreams.Topology, error) {
	global, stream, output := topics(args)
	b := kstreams.NewStreamsBuilder()
	str := kstreams.ConsumedWith[string, string](serde.String{}, serde.String{})
	kstreams.AddGlobalStore(b, kstreams.KeyValueStoreBuilder[string, string](UpperStore, serde.String{}, serde.String{}), global, str,
		func() kstreams.Processor { return &upper{} })
	s := kstreams.Stream(b, []string{stream}, str)
	kstreams.Process[string, string](s, func() kstreams.Processor { return &lookup{} }, "lookup").
		To(output, kstreams.ProducedWith[string, string](serde.String{}, serde.String{}))
	return b.Build()
}

// BuildPAPI returns PAPIName's topology.
func BuildPAPI(args map[string]string) (*kstreams.Topology, error) {
	global, stream, output := topics(args)
	str := kstreams.SourceSerdes[string, string](serde.String{}, serde.String{})
	t := kstreams.NewTopology()
	for _, step := range []func() error{
		func() error {
			return t.AddGlobalStore(kstreams.KeyValueStoreBuilder[string, string](UpperStore, serde.String{}, serde.String{}).WithLoggingDisabled(),
				"GlobalSource", str, global, "GlobalUpper", func() kstreams.Processor { return &upper{} })
		},
		func() error { return t.AddSource("StreamSource", str, stream) },
		func() error {
			return t.AddProcessor("lookup", func() kstreams.Processor { return &lookup{} }, "StreamSource")
		},
		func() error {
			return t.AddSink("Sink", output, kstreams.SinkSerdes[string, string](serde.String{}, serde.String{}), "lookup")
		},
	} {
		if err := step(); err != nil {
			return nil, err
		}
	}
	return t, nil
}

// upper keeps each value of the global topic upper-cased in UpperStore.
type upper struct{ store *kstreams.KeyValueStore }

func (p *upper) Init(ctx kstreams.ProcessorContext) error {
	s, err := ctx.StateStore(UpperStore)
	if err != nil {
		return err
	}
	p.store = s.(*kstreams.KeyValueStore)
	return nil
}

func (p *upper) Process(r kstreams.Record) error {
	if r.Value == nil {
		return p.store.Delete(r.Key)
	}
	return p.store.Put(r.Key, strings.ToUpper(r.Value.(string)))
}

func (p *upper) Close() error { return nil }

// lookup replaces each value v by "v=<UpperStore's value under v>".
type lookup struct {
	ctx   kstreams.ProcessorContext
	store *kstreams.KeyValueStore
}

func (p *lookup) Init(ctx kstreams.ProcessorContext) error {
	s, err := ctx.StateStore(UpperStore)
	if err != nil {
		return err
	}
	p.ctx, p.store = ctx, s.(*kstreams.KeyValueStore)
	return nil
}

func (p *lookup) Process(r kstreams.Record) error {
	v, _ := r.Value.(string)
	row, ok, err := p.store.Get(v)
	if err != nil {
		return err
	}
	out := v + "=null"
	if ok {
		out = v + "=" + row.(string)
	}
	r.Value = out
	return p.ctx.Forward(r)
}

func (p *lookup) Close() error { return nil }
