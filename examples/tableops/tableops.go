// Package tableops holds two topologies. The first (Name) chains KTable operators over a topic
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
// filter's. Arguments: input and output. Keys and values are Strings.
package tableops

import (
	"strconv"
	"strings"
	"time"

	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/serde"
)

// Name is the stoatflow.topology value of the topology.
const Name = "tableops"

// The stores; their changelogs are <application.id>-<store>-changelog.
const (
	SourceStore = "tableops-source"
	KeptStore   = "tableops-kept"
)

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

// WindowedName is the name of the second topology: counts per key in
// ten-second tumbling windows and in sessions (five seconds of inactivity),
// each filtered to counts of at least two. The aggregations hold their old
// counts, so the filters forward no tombstone for a window whose count
// never passed. Both are written as "t:key@start" and "s:key@start" with
// the count as text.
const WindowedName = "tableopswindowed"

// BuildWindowed returns the windowed topology.
func BuildWindowed(args map[string]string) (*kstreams.Topology, error) {
	input, output := "tableops-windowed-input", "tableops-windowed-output"
	if v := args["input"]; v != "" {
		input = v
	}
	if v := args["output"]; v != "" {
		output = v
	}
	b := kstreams.NewStreamsBuilder()
	events := kstreams.Stream(b, []string{input}, kstreams.ConsumedWith[string, string](serde.String{}, serde.String{}))
	atLeastTwo := func(_ kstreams.Windowed[string], n int64) bool { return n >= 2 }
	label := func(prefix string) func(kstreams.Windowed[string], int64) (string, string) {
		return func(k kstreams.Windowed[string], n int64) (string, string) {
			return prefix + k.Key + "@" + strconv.FormatInt(k.Window.Start, 10), strconv.FormatInt(n, 10)
		}
	}
	// Built in the twin's call order, which decides the generated names.
	timed := kstreams.WindowedBy(events.GroupByKey(), kstreams.TimeWindowsOfSizeWithNoGrace(10*time.Second)).Count()
	t := kstreams.Map(timed.Filter(atLeastTwo).ToStream(), label("t:"))
	sessions := kstreams.WindowedBySession(events.GroupByKey(), kstreams.SessionWindowsOfInactivityGapWithNoGrace(5*time.Second)).Count()
	s := kstreams.Map(sessions.Filter(atLeastTwo).ToStream(), label("s:"))
	t.Merge(s).To(output, kstreams.ProducedWith[string, string](serde.String{}, serde.String{}))
	return b.Build()
}
