package integration

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/stoatflow/stoatflow/internal/testkafka"
)

// TestMixedFleetRollingMigrationStreamsProtocol: the rolling migration of
// TestMixedFleetRollingMigration with group.protocol=streams on both
// engines, for the word count and the windowed count: two Kafka Streams
// 4.4 instances and one StoatFlow instance share one streams group while
// input flows under exactly_once_v2; each Kafka Streams instance is
// replaced by a StoatFlow one, then the fleet goes back. The broker's
// assignor places the tasks; every step moves the fewest tasks it can, with
// no duplicate or missing update, and no StoatFlow instance closes a task
// it keeps. The group's topology, founded by a Kafka Streams instance, is
// the one a StoatFlow instance founds for the same application.
func TestMixedFleetRollingMigrationStreamsProtocol(t *testing.T) {
	t.Parallel()
	for name, newApp := range map[string]func(*testing.T) *fleetApp{"wordcount": newWordCountFleet, "windowedcount": newWindowedCountFleet} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			app := newApp(t)
			app.name += ", streams protocol"
			app.extra = map[string]string{"group.protocol": "streams"}
			rollingMigration(t, app, true)
		})
	}
}

// TestStreamsProtocolStandbyFailover: the standby failover scenarios of
// TestStandbyFailover (three StoatFlow instances) and
// TestMixedStandbyFailover (two Kafka Streams and one StoatFlow) in a
// streams group, whose standbys and session the broker takes from the
// group's configs (streams.num.standby.replicas=1,
// streams.session.timeout.ms): each task the killed instance ran that the
// broker's assignor gives to the holder of its standby replays only a tail
// there and writes output again within the session timeout and 5 s; the
// output is exactly once. (The broker's StickyTaskAssignor gives a task to
// its standby only while that instance is under its quota of actives;
// checkTakeovers says what else it checks.)
func TestStreamsProtocolStandbyFailover(t *testing.T) {
	t.Parallel()
	t.Run("StoatFlow", func(t *testing.T) {
		t.Parallel()
		app := newWordCountFleet(t)
		app.name = "StoatFlow, standbys=1, streams protocol"
		app.extra = standbyFailoverSettings()
		app.extra["group.protocol"] = "streams"
		standbyFailover(t, app)
	})
	t.Run("mixed", func(t *testing.T) {
		t.Parallel()
		app := newWordCountFleet(t)
		app.name = "mixed, standbys=1, streams protocol"
		app.extra = standbyFailoverSettings()
		app.extra["group.protocol"] = "streams"
		mixedStandbyFailover(t, app)
	})
}

// checkFoundedTopology fails the test unless the topology of the fleet's
// streams group, founded by its first instance, equals the one a lone
// StoatFlow instance of the same application founds in a group of its own
// (another application.id, over topics of its own with the same partition
// counts), the names of both renamed to the fleet's.
func (fl *fleet) checkFoundedTopology(t *testing.T) {
	t.Helper()
	g, err := fl.describeStreams(t)
	if err != nil || g.Topology == nil {
		t.Fatalf("%s: the fleet's streams group has no topology: %v", fl.app.name, err)
	}
	fleetTopology := *g.Topology

	lone := &fleetApp{name: fl.app.name + " (alone)", app: fl.app.app, props: fl.app.props, bootstrap: fl.app.bootstrap,
		partitions: fl.app.partitions, extra: fl.app.extra}
	lone.in, lone.out = testkafka.Topic(t, "lone-in"), testkafka.Topic(t, "lone-out")
	lone.appID = lone.in + "-app"
	testkafka.CreateTopics(t, lone.bootstrap, lone.partitions, lone.in, lone.out)
	e := startEngine(t, false, lone.app, lone.props, lone.settings(), map[string]string{"input": lone.in, "output": lone.out})
	loneFleet := &fleet{app: lone}
	var founded kmsg.StreamsGroupDescribeResponseGroupTopology
	for deadline := time.Now().Add(time.Minute); ; {
		g, err := loneFleet.describeStreams(t)
		if err == nil && g.Topology != nil && len(g.Topology.Subtopologies) > 0 {
			founded = *g.Topology
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: the lone StoatFlow instance's group %s has no topology after a minute: %v", fl.app.name, lone.appID, err)
		}
		time.Sleep(200 * time.Millisecond)
	}
	e.stop(t)
	renamed := renameTopics(founded, strings.NewReplacer(lone.appID, fl.app.appID, lone.in, fl.app.in, lone.out, fl.app.out))
	diffs := diffFields("Topology", reflect.ValueOf(fleetTopology), reflect.ValueOf(renamed))
	for _, d := range diffs {
		t.Errorf("%s: the topology a Kafka Streams instance founded the group with differs from the one a StoatFlow instance founds: %s", fl.app.name, d)
	}
	if len(diffs) == 0 {
		t.Logf("%s: the streams group's topology (%d sub-topologies, epoch %d) is the same whichever engine founds the group",
			fl.app.name, len(fleetTopology.Subtopologies), fleetTopology.Epoch)
	}
}

// renameTopics renames every topic of a described topology with r.
func renameTopics(top kmsg.StreamsGroupDescribeResponseGroupTopology, r *strings.Replacer) kmsg.StreamsGroupDescribeResponseGroupTopology {
	names := func(ss []string) []string {
		out := make([]string, len(ss))
		for i, s := range ss {
			out[i] = r.Replace(s)
		}
		return out
	}
	infos := func(ts []kmsg.TopicInfo) []kmsg.TopicInfo {
		out := make([]kmsg.TopicInfo, len(ts))
		for i, ti := range ts {
			ti.Topic = r.Replace(ti.Topic)
			out[i] = ti
		}
		return out
	}
	out := top
	out.Subtopologies = nil
	for _, st := range top.Subtopologies {
		st.SourceTopics = names(st.SourceTopics)
		st.RepartitionSinkTopics = names(st.RepartitionSinkTopics)
		st.StateChangelogTopics = infos(st.StateChangelogTopics)
		st.RepartitionSourceTopics = infos(st.RepartitionSourceTopics)
		out.Subtopologies = append(out.Subtopologies, st)
	}
	return out
}
