package integration

import (
	"fmt"
	"testing"

	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/serde"
)

// regroupCrashName reads a table of user → region (store "regroup-users"),
// re-groups it by region and counts the users of each region (store
// "region-counts"), written to "output" as a Long. A user who moves is
// subtracted from the old region and added to the new one, through the
// repartition topic regroup-regions-repartition.
const regroupCrashName = "regroupcrash"

// buildRegroupCrash builds the regroupCrashName topology.
func buildRegroupCrash(args map[string]string) (*kstreams.Topology, error) {
	s := serde.String{}
	b := kstreams.NewStreamsBuilder()
	users := kstreams.Table(b, args["input"], kstreams.ConsumedWith[string, string](s, s), kstreams.MaterializedAs[string, string]("regroup-users"))
	byRegion := kstreams.GroupTableBy(users, func(user, region string) (string, string) { return region, user },
		kstreams.Grouped[string, string]{Name: "regroup-regions", KeySerde: s, ValueSerde: s})
	byRegion.Count(kstreams.MaterializedAs[string, int64]("region-counts")).ToStream().
		To(args["output"], kstreams.ProducedWith[string, int64](s, serde.Long{}))
	return b.Build()
}

// regroupCrashWorkload: 12 users moving among 5 regions. One input
// partition, so one task writes the repartition topic and each region's
// count sequence is the in-process one (with two, the subtractions and
// additions of two tasks would interleave as the broker pleases).
var regroupCrashWorkload = crashWorkload{
	name: "tablegroupby", topology: regroupCrashName, example: "tablegroupby", outputs: []string{"output"},
	storeOutput: map[string]string{"region-counts": "output"}, unqueried: []string{"regroup-users"},
	partitions: 1, stepMs: 1, perRound: 10, perTick: 10,
	input: func(i int) (string, string) {
		return fmt.Sprintf("user-%d", (i*7+i/11)%12), fmt.Sprintf("region-%d", crashKey(i, 5))
	},
}

// TestCrashTableGroupByExactlyOnce is the crash test of a table re-grouped
// with a subtractor: the source table's store, the repartition topic's
// old-and-new records and the count store, under exactly_once_v2. A
// subtraction and its addition are committed together or not at all, so no
// region's count is ever off by a user who moved.
func TestCrashTableGroupByExactlyOnce(t *testing.T) {
	r := newCrashRun(t, regroupCrashWorkload, "exactly_once_v2", nil)
	r.runKills(crashWorkloadKills(t, defaultCrashKills))
}
