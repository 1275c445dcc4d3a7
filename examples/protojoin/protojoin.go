// Package protojoin enriches a stream of Protobuf clicks with a table of
// Protobuf profiles of the same keys, both as an inner and as a left join,
// written as Protobuf EnrichedClick records: the twin of the Kafka Streams
// application ProtoJoin of the reference project. Values are in the
// Confluent wire format (magic byte 0, the 4-byte schema id, the message
// indexes, the Protobuf encoding), written and read by registry.Protobuf
// through the schema registry; keys are Strings.
//
//	stream(input: Click) ─┬─ join(table(table: Profile))      EnrichedClick{page, n, name, tier, kind: "inner"} → output
//	                      └─ leftJoin(table(table: Profile))  EnrichedClick{page, n, name, tier, kind: "left"}  → output
//
// A left join without a profile leaves name and tier unset. The table is
// materialized by the joins in the store it drew (<table>-STATE-STORE-
// 0000000001), whose changelog carries Profile records in the wire format.
//
// Arguments: input (default protojoin-clicks), table (default
// protojoin-profiles), output (default protojoin-enriched) and registry (the
// schema registry's URL, as schema.registry.url; default
// $STOATFLOW_TEST_REGISTRY_URL).
package protojoin

import (
	"errors"
	"os"

	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/dynamicpb"

	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/serde"
	"github.com/stoatflow/stoatflow/kstreams/serde/registry"
)

// Name is the stoatflow.topology value of the topology.
const Name = "protojoin"

// RegistryEnv names the environment variable that gives the registry's URL
// when the registry argument is not given.
const RegistryEnv = "STOATFLOW_TEST_REGISTRY_URL"

func arg(args map[string]string, name, def string) string {
	if v := args[name]; v != "" {
		return v
	}
	return def
}

// Serdes returns the Protobuf serdes of the three messages on the registry
// at url, with Confluent's defaults (auto.register.schemas=true,
// TopicNameStrategy).
func Serdes(url string) (clicks, profiles, enriched *registry.Protobuf[*dynamicpb.Message], err error) {
	cl, err := registry.NewClient(registry.ClientConfig{URL: url})
	if err != nil {
		return nil, nil, nil, err
	}
	of := func(t protoreflect.MessageType) (*registry.Protobuf[*dynamicpb.Message], error) {
		return registry.NewProtobuf(cl, registry.DefaultSerdeConfig(false), func() *dynamicpb.Message { return dynamicpb.NewMessage(t.Descriptor()) })
	}
	if clicks, err = of(Click); err != nil {
		return nil, nil, nil, err
	}
	if profiles, err = of(Profile); err != nil {
		return nil, nil, nil, err
	}
	if enriched, err = of(EnrichedClick); err != nil {
		return nil, nil, nil, err
	}
	return clicks, profiles, enriched, nil
}

// Enrich is the joiner: the click's page and n, the profile's name and
// tier (unset without a profile), and kind.
func Enrich(kind string, click, profile *dynamicpb.Message) *dynamicpb.Message {
	fields := map[string]any{"page": Get(click, "page").String(), "n": Get(click, "n").Int(), "kind": kind}
	if profile != nil {
		fields["name"] = Get(profile, "name").String()
		fields["tier"] = Get(profile, "tier").String()
	}
	return New(EnrichedClick, fields)
}

// Build returns the topology.
func Build(args map[string]string) (*kstreams.Topology, error) {
	url := arg(args, "registry", os.Getenv(RegistryEnv))
	if url == "" {
		return nil, errors.New("protojoin: no schema registry: give the argument registry=<schema.registry.url> or set " + RegistryEnv)
	}
	clicks, profiles, enriched, err := Serdes(url)
	if err != nil {
		return nil, err
	}
	b := kstreams.NewStreamsBuilder()
	events := kstreams.Stream(b, []string{arg(args, "input", "protojoin-clicks")}, kstreams.ConsumedWith[string, *dynamicpb.Message](serde.String{}, clicks))
	rows := kstreams.Table(b, arg(args, "table", "protojoin-profiles"), kstreams.ConsumedWith[string, *dynamicpb.Message](serde.String{}, profiles))
	output := arg(args, "output", "protojoin-enriched")
	produced := kstreams.ProducedWith[string, *dynamicpb.Message](serde.String{}, enriched)
	kstreams.StreamTableJoin(events, rows, func(_ string, c, p *dynamicpb.Message) *dynamicpb.Message { return Enrich("inner", c, p) }).
		To(output, produced)
	kstreams.StreamTableLeftJoin(events, rows, func(_ string, c *dynamicpb.Message, p **dynamicpb.Message) *dynamicpb.Message {
		var row *dynamicpb.Message
		if p != nil {
			row = *p
		}
		return Enrich("left", c, row)
	}).To(output, produced)
	return b.Build()
}
