// Package tablegroupby re-groups a table, the way Kafka Streams runs the same calls:
//
//	table of user → region (materialized as "groupby-users")
//	  → groupBy(region, user) (Grouped "groupby-regions": the repartition topic groupby-regions-repartition)
//	      → count (materialized as "groupby-counts")           → "count:N"
//	      → aggregate of the member list "u1;u2;" with a subtractor
//	        (materialized as "groupby-members")                → "members:u1;u2;"
//	  → both merged into output, keyed by region
//
// A user who moves to another region is subtracted from the old region and
// added to the new one (two repartition records); an update within the same
// region is one record with both values; a deleted user is subtracted.
// Arguments: input and output. Keys and values are Strings.
package tablegroupby

import (
	"strconv"
	"strings"

	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/serde"
)

// Name is the stoatflow.topology value of the topology.
const Name = "tablegroupby"

// The stores and the repartition topic's name; their topics are
// <application.id>-<store>-changelog and <application.id>-<Regions>-repartition.
const (
	UsersStore   = "groupby-users"
	CountsStore  = "groupby-counts"
	MembersStore = "groupby-members"
	Regions      = "groupby-regions"
)

// Build returns the topology.
func Build(args map[string]string) (*kstreams.Topology, error) {
	input, output := "tablegroupby-input", "tablegroupby-output"
	if v := args["input"]; v != "" {
		input = v
	}
	if v := args["output"]; v != "" {
		output = v
	}
	s := serde.String{}
	b := kstreams.NewStreamsBuilder()
	users := kstreams.Table(b, input, kstreams.ConsumedWith[string, string](s, s), kstreams.MaterializedAs[string, string](UsersStore))
	byRegion := kstreams.GroupTableBy(users, func(user, region string) (string, string) { return region, user },
		kstreams.Grouped[string, string]{Name: Regions, KeySerde: s, ValueSerde: s})
	counts := kstreams.MapValues(byRegion.Count(kstreams.MaterializedAs[string, int64](CountsStore)).ToStream(),
		func(n int64) string { return "count:" + strconv.FormatInt(n, 10) })
	members := kstreams.AggregateTable(byRegion, func() string { return "" },
		func(_, user, agg string) string { return agg + user + ";" },
		func(_, user, agg string) string { return strings.Replace(agg, user+";", "", 1) },
		kstreams.Materialized[string, string]{Name: MembersStore, ValueSerde: s})
	listed := kstreams.MapValues(members.ToStream(), func(m string) string { return "members:" + m })
	counts.Merge(listed).To(output, kstreams.ProducedWith[string, string](s, s))
	return b.Build()
}
