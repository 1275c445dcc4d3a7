// Package tableops holds a topology chaining KTable operators over a topic
// of updates and deletes, the way Kafka Streams runs the same calls:
//
//	table (materialized as "tableops-source")
//	  → filter: values not starting with "-" (materialized as "tableops-kept")
//	  → mapValues with the key: "key:VALUE"
//	  → filterNot: values ending in "SKIP"
//	  → toStream → output
//
// The materialized source sends old values to the filter, so a row the
// filter never passed is not deleted downstream again; the filterNot asks
// for old values too, which the unmaterialized mapValues computes from the
// filter's. Importing the package registers it. Arguments: input and
// output. Keys and values are Strings.
package tableops

import (
	"strings"

	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/serde"
)

// Name is the name the topology is registered under.
const Name = "tableops"

// The stores; their changelogs are <application.id>-<store>-changelog.
const (
	SourceStore = "tableops-source"
	KeptStore   = "tableops-kept"
)

func init() { kstreams.RegisterTopology(Name, Build) }

// Build returns the topology.
func Build(args map[string]string) (*kstreams.Topology, error) {
	input, output := "tableops-input", "tableops-output"
	if v := args["input"]; v != "" {
		input = v
	}
	if v := args["output"]; v != "" {
		output = v
	}
	b := kstreams.NewStreamsBuilder()
	table := kstreams.Table(b, input, kstreams.ConsumedWith[string, string](serde.String{}, serde.String{}),
		kstreams.MaterializedAs[string, string](SourceStore))
	kept := table.Filter(func(_, v string) bool { return !strings.HasPrefix(v, "-") },
		kstreams.MaterializedAs[string, string](KeptStore))
	labelled := kstreams.MapTableValues(kept, func(k, v string) string { return k + ":" + strings.ToUpper(v) })
	labelled.FilterNot(func(_, v string) bool { return strings.HasSuffix(v, "SKIP") }).
		ToStream().To(output, kstreams.ProducedWith[string, string](serde.String{}, serde.String{}))
	return b.Build()
}
