// Package resets reads three topics whose sources start differently when
// the group has no committed offset, the way Kafka Streams runs the same
// calls:
//
//	input   (auto.offset.reset: earliest in streams.properties) ─┐
//	late    (Consumed.withOffsetResetPolicy(latest))              ├→ merge → output
//	recent  (Consumed.withOffsetResetPolicy(byDuration(1 h)))     ┘
//
// so what was produced to late before the first start, and what is older
// than an hour on recent, is never read. Arguments: input, late, recent and
// output. Keys and values are Strings.
package resets

import (
	"time"

	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/serde"
)

// Name is the stoatflow.topology value of the topology.
const Name = "resets"

// Recent is how far back the recent source starts.
const Recent = time.Hour

func arg(args map[string]string, name, dflt string) string {
	if v := args[name]; v != "" {
		return v
	}
	return dflt
}

// Build returns the topology.
func Build(args map[string]string) (*kstreams.Topology, error) {
	s := serde.String{}
	c := kstreams.ConsumedWith[string, string](s, s)
	b := kstreams.NewStreamsBuilder()
	all := kstreams.Stream(b, []string{arg(args, "input", "resets-input")}, c)
	late := kstreams.Stream(b, []string{arg(args, "late", "resets-late")}, c.WithOffsetResetPolicy(kstreams.OffsetResetLatest()))
	recent := kstreams.Stream(b, []string{arg(args, "recent", "resets-recent")}, c.WithOffsetResetPolicy(kstreams.OffsetResetByDuration(Recent)))
	all.Merge(late).Merge(recent).To(arg(args, "output", "resets-output"), kstreams.ProducedWith[string, string](s, s))
	return b.Build()
}
