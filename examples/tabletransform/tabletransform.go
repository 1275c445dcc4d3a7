// Package tabletransform runs a stateful value transformer over a table, the way Kafka Streams
// runs the same calls:
//
//	table (values may be null: a deletion reaches the transformer)
//	  → transformValues with the store "transform-updates" (updates per key), materialized as
//	    "transform-result": "key->value!#n", "key->null!#n" for a deletion
//	  → toStream → output
//
// Arguments: input and output. Keys and values are Strings.
package tabletransform

import (
	"strconv"

	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/serde"
)

// Name is the stoatflow.topology value of the topology.
const Name = "tabletransform"

// The stores; their changelogs are <application.id>-<store>-changelog.
const (
	UpdatesStore = "transform-updates"
	ResultStore  = "transform-result"
)

// exclaim counts each key's updates in its store and labels the value.
type exclaim struct{ updates *kstreams.KeyValueStore }

func (e *exclaim) Init(ctx kstreams.ProcessorContext) error {
	s, err := ctx.StateStore(UpdatesStore)
	if err != nil {
		return err
	}
	e.updates = s.(*kstreams.KeyValueStore)
	return nil
}

func (e *exclaim) Transform(k string, v *string) (*string, error) {
	n, ok, err := e.updates.Get(k)
	if err != nil {
		return nil, err
	}
	next := int64(1)
	if ok {
		next = n.(int64) + 1
	}
	if err := e.updates.Put(k, next); err != nil {
		return nil, err
	}
	s := "null"
	if v != nil {
		s = *v
	}
	out := k + "->" + s + "!#" + strconv.FormatInt(next, 10)
	return &out, nil
}

func (e *exclaim) Close() error { return nil }

// Build returns the topology.
func Build(args map[string]string) (*kstreams.Topology, error) {
	input, output := "tabletransform-input", "tabletransform-output"
	if v := args["input"]; v != "" {
		input = v
	}
	if v := args["output"]; v != "" {
		output = v
	}
	s, ns := serde.String{}, serde.Nullable[string](serde.String{})
	b := kstreams.NewStreamsBuilder()
	b.AddStateStore(kstreams.KeyValueStoreBuilder[string, int64](UpdatesStore, s, serde.Long{}))
	rows := kstreams.Table(b, input, kstreams.ConsumedWith[string, *string](s, ns))
	kstreams.TransformTableValues(rows, func() kstreams.ValueTransformerWithKey[string, *string, *string] { return &exclaim{} },
		[]string{UpdatesStore}, kstreams.Materialized[string, *string]{Name: ResultStore, ValueSerde: ns}).
		ToStream().To(output, kstreams.ProducedWith[string, *string](s, ns))
	return b.Build()
}
