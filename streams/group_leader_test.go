package streams

import (
	"errors"
	"log/slog"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/stoatflow/stoatflow/compat"
	"github.com/stoatflow/stoatflow/examples/wordcount"
	"github.com/stoatflow/stoatflow/internal/assignment"
	"github.com/stoatflow/stoatflow/internal/taskassign"
)

// TestLeaderCountsRepartitionTopicsItCreated: a repartition topic that Start
// has just created may be missing from the leader's metadata; the leader
// counts its partitions from Start's creation instead of failing the group
// with a missing source topic (only an external source topic is missing).
func TestLeaderCountsRepartitionTopicsItCreated(t *testing.T) {
	topo, err := wordcount.Build(map[string]string{"input": "in", "output": "out"})
	if err != nil {
		t.Fatal(err)
	}
	cfg, diags := compat.LoadFiles(nil, []string{"application.id=app", "bootstrap.servers=b:9092"}, nil)
	if err := diags.Err(); err != nil {
		t.Fatal(err)
	}
	s := &KafkaStreams{topo: topo, cfg: cfg}
	repartition := "app-KSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition"
	s.internalCounts = map[string]int32{repartition: 3}

	g, err := s.tasksFor(map[string]int32{"in": 3})
	if err != nil {
		t.Fatalf("the leader failed the group on a repartition topic its metadata lacks: %v", err)
	}
	if len(g.all) != 6 || len(g.stateful) != 3 {
		t.Fatalf("%d tasks (%d stateful), want 3 reading in and 3 reading %s, those stateful", len(g.all), len(g.stateful), repartition)
	}
	for _, id := range g.stateful {
		if ps := g.partitions[id]; len(ps) != 1 || ps[0].Topic != repartition || ps[0].Partition != id.Partition {
			t.Errorf("task %s reads %v, want %s-%d", id, ps, repartition, id.Partition)
		}
	}
	if _, err := s.tasksFor(map[string]int32{}); !errors.Is(err, ErrMissingSourceTopics) {
		t.Errorf("with the input topic missing: %v, want ErrMissingSourceTopics", err)
	}
}

// TestFollowupRebalanceNotAskedTwice: an assignment that holds tasks back
// (nextRebalanceMs 0) makes a member that revokes partitions rejoin through
// its consumer alone, which rejoins after every revocation; asking the group
// again then would start a third rebalance after the follow-up, which Kafka
// Streams' members never cause. A member that revokes nothing asks at once.
func TestFollowupRebalanceNotAskedTwice(t *testing.T) {
	a := &streamAssignor{s: &KafkaStreams{log: slog.New(slog.DiscardHandler)}, m: &groupMember{}}
	a.version.Store(assignment.LatestSupportedVersion)
	held := &assignment.AssignmentInfo{Version: assignment.LatestSupportedVersion, CommonlySupportedVersion: assignment.LatestSupportedVersion}
	owned := map[string][]int32{"in": {0, 1}}
	a.nextRebalance.Store(math.MaxInt64)
	a.scheduleFollowup(held, revokes(owned, map[string][]int32{"in": {0}}))
	if got := a.nextRebalance.Load(); got != math.MaxInt64 {
		t.Errorf("a member revoking a partition asks for a rebalance at %d; its consumer rejoins on its own", got)
	}
	a.scheduleFollowup(held, revokes(owned, map[string][]int32{"in": {0, 1}, "rep": {1}}))
	if got := a.nextRebalance.Load(); got != 0 {
		t.Errorf("a member revoking nothing asks for the follow-up at %d, want 0 (at once)", got)
	}
}

// TestLeaderReadsReplicaRacks: for rack-aware assignment the leader reads
// the racks of the brokers holding every replica of the tasks' source and
// changelog partitions (kfake puts every broker in rack "krack"); a topic
// the metadata lacks leaves its partitions out, which turns rack
// awareness off as in Kafka Streams.
func TestLeaderReadsReplicaRacks(t *testing.T) {
	c, err := kfake.NewCluster(kfake.NumBrokers(3), kfake.SeedTopics(3, "in"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	cl, err := kgo.NewClient(kgo.SeedBrokers(c.ListenAddrs()...))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()

	topo, err := wordcount.Build(map[string]string{"input": "in", "output": "out"})
	if err != nil {
		t.Fatal(err)
	}
	cfg, diags := compat.LoadFiles(nil, []string{"application.id=app", "bootstrap.servers=b:9092", "rack.aware.assignment.strategy=min_traffic"}, nil)
	if err := diags.Err(); err != nil {
		t.Fatal(err)
	}
	s := &KafkaStreams{topo: topo, cfg: cfg, log: slog.New(slog.DiscardHandler)}
	s.internalCounts = map[string]int32{"app-KSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition": 3}
	g, err := s.tasksFor(map[string]int32{"in": 3})
	if err != nil {
		t.Fatal(err)
	}
	if got := s.assignConfig().RackAwareAssignmentStrategy; got != taskassign.RackAwareStrategyMinTraffic {
		t.Errorf("the assignor's strategy is %q, want min_traffic", got)
	}

	r := &leaderRound{a: &streamAssignor{s: s, t: &streamThread{restorer: cl}}}
	racks := r.racks(g, s.log)
	for p := range int32(3) {
		in := assignment.TopicPartition{Topic: "in", Partition: p}
		if got := racks.Replicas[in]; len(got) == 0 || slices.ContainsFunc(got, func(r string) bool { return r != "krack" }) {
			t.Errorf("replicas of %s in racks %v, want krack", in, got)
		}
	}
	// Neither the repartition topic nor the changelog exists on this
	// broker: their partitions are unknown.
	for tp := range racks.Replicas {
		if tp.Topic != "in" {
			t.Errorf("racks of %s, a topic the broker does not have", tp)
		}
	}
	if len(racks.SourcePartitions) != 6 || len(racks.ChangelogPartitions) != 3 {
		t.Errorf("%d tasks with sources and %d with changelogs, want 6 and 3", len(racks.SourcePartitions), len(racks.ChangelogPartitions))
	}
	for id, tps := range racks.ChangelogPartitions {
		if len(tps) != 1 || !strings.HasSuffix(tps[0].Topic, "-changelog") || tps[0].Partition != id.Partition {
			t.Errorf("task %s logs to %v", id, tps)
		}
	}

	// Without a client to read the metadata with, no partition's racks
	// are known.
	r = &leaderRound{a: &streamAssignor{s: s}}
	if racks := r.racks(g, s.log); len(racks.Replicas) != 0 {
		t.Errorf("racks without a client: %v", racks.Replicas)
	}
}
