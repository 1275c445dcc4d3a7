package streams

import (
	"errors"
	"log/slog"
	"math"
	"testing"

	"github.com/stoatflow/stoatflow/compat"
	"github.com/stoatflow/stoatflow/examples/wordcount"
	"github.com/stoatflow/stoatflow/internal/assignment"
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
