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
	"github.com/twmb/franz-go/pkg/kmsg"

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

// stickyMember is one instance's member in a leader test: its process id,
// the partitions it owned and the stateful tasks it ran.
type stickyMember struct {
	id    string
	pid   byte
	owned []assignment.TopicPartition
	ran   []assignment.TaskID
}

func joinMembers(t *testing.T, topics []string, ms []stickyMember) []kmsg.JoinGroupResponseMember {
	t.Helper()
	var out []kmsg.JoinGroupResponseMember
	for _, m := range ms {
		info := assignment.SubscriptionInfo{Version: 11, LatestSupportedVersion: 11}
		info.ProcessID[15] = m.pid
		for _, id := range m.ran {
			info.TaskOffsetSums = append(info.TaskOffsetSums, assignment.TaskOffsetSum{Task: id, OffsetSum: assignment.LatestOffset})
		}
		b, err := (&assignment.MemberMetadata{Topics: topics, Info: &info, OwnedPartitions: m.owned, Generation: 1}).Encode()
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, kmsg.JoinGroupResponseMember{MemberID: m.id, ProtocolMetadata: b})
	}
	return out
}

// TestLeaderStickyAssignorKeepsOwners: with task.assignor.class naming
// Kafka Streams' StickyTaskAssignor, a StoatFlow leader leaves each task
// with the instance that ran it as long as that instance stays within its
// share (two of the six tasks for each of three instances): the instance
// that ran two keeps them, the one that ran four keeps two, and the
// newcomer gets the other two, held back until their owner revoked them.
// No probing rebalance is asked for, though the changelogs' end offsets
// could not be read.
func TestLeaderStickyAssignorKeepsOwners(t *testing.T) {
	topo, err := wordcount.Build(map[string]string{"input": "in", "output": "out"})
	if err != nil {
		t.Fatal(err)
	}
	cfg, diags := compat.LoadFiles(nil, []string{"application.id=app", "bootstrap.servers=b:9092",
		"task.assignor.class=" + compat.StickyTaskAssignorClass}, nil)
	if err := diags.Err(); err != nil {
		t.Fatal(err)
	}
	if cfg.TaskAssignor != compat.TaskAssignorSticky {
		t.Fatalf("task assignor %v", cfg.TaskAssignor)
	}
	s := &KafkaStreams{topo: topo, cfg: cfg, log: slog.New(slog.DiscardHandler)}
	rep := "app-KSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition"
	s.internalCounts = map[string]int32{rep: 3}
	in := func(p int32) assignment.TopicPartition { return assignment.TopicPartition{Topic: "in", Partition: p} }
	rp := func(p int32) assignment.TopicPartition { return assignment.TopicPartition{Topic: rep, Partition: p} }
	task := func(sub, p int32) assignment.TaskID { return assignment.TaskID{Subtopology: sub, Partition: p} }
	members := joinMembers(t, []string{"in", rep}, []stickyMember{
		{id: "a-1", pid: 1, owned: []assignment.TopicPartition{in(0), in(1), rp(0), rp(1)}, ran: []assignment.TaskID{task(1, 0), task(1, 1)}},
		{id: "b-1", pid: 2, owned: []assignment.TopicPartition{in(2), rp(2)}, ran: []assignment.TaskID{task(1, 2)}},
		{id: "c-1", pid: 3},
	})
	bal, _, err := (&streamAssignor{s: s}).MemberBalancer(members)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]*assignment.MemberAssignment{}
	for _, a := range bal.Balance(map[string]int32{"in": 3}).IntoSyncAssignment() {
		ma, err := assignment.DecodeMemberAssignment(a.MemberAssignment)
		if err != nil {
			t.Fatal(err)
		}
		got[a.MemberID] = ma
	}
	actives := func(member string) []assignment.TaskID {
		var ids []assignment.TaskID
		for _, id := range got[member].Info.ActiveTasks {
			if !slices.Contains(ids, id) {
				ids = append(ids, id)
			}
		}
		return ids
	}
	if a := actives("b-1"); len(a) != 2 || !slices.Contains(a, task(0, 2)) || !slices.Contains(a, task(1, 2)) {
		t.Errorf("b-1 runs %v, want 0_2 and 1_2, which it ran", a)
	}
	ranByA := []assignment.TaskID{task(0, 0), task(0, 1), task(1, 0), task(1, 1)}
	kept := actives("a-1")
	for _, id := range kept {
		if !slices.Contains(ranByA, id) {
			t.Errorf("a-1 runs %s, which it did not run", id)
		}
	}
	if len(kept) != 2 {
		t.Errorf("a-1 runs %v, want two of the four it ran", kept)
	}
	if a := actives("c-1"); len(a) != 0 || len(got["c-1"].Info.StandbyTasks) != 0 {
		t.Errorf("c-1 runs %v before a-1 revoked them", a)
	}
	if next := got["c-1"].Info.NextRebalanceMs; next != 0 {
		t.Errorf("c-1's follow-up rebalance at %d, want 0 (at once, for the tasks held back)", next)
	}
	for _, m := range []string{"a-1", "b-1"} {
		if next := got[m].Info.NextRebalanceMs; next != assignment.NoNextRebalance {
			t.Errorf("%s asks for a rebalance at %d; the sticky assignor asks for no probing rebalance", m, next)
		}
	}
}

// TestLeaderMeetsClientsInSubscriptionOrder: the sticky assignor's ties
// follow the order a Kafka Streams leader meets the clients, the first of
// their members in the HashMap of subscriptions.
func TestLeaderMeetsClientsInSubscriptionOrder(t *testing.T) {
	members := joinMembers(t, []string{"in"}, []stickyMember{{id: "b", pid: 1}, {id: "Aa", pid: 2}, {id: "BB", pid: 3}, {id: "zz", pid: 1}})
	bal, _, err := (&streamAssignor{s: &KafkaStreams{}}).MemberBalancer(members)
	if err != nil {
		t.Fatal(err)
	}
	clients := map[assignment.ProcessID]*taskassign.ClientState{}
	for n := byte(1); n <= 3; n++ {
		var pid assignment.ProcessID
		pid[15] = n
		clients[pid] = taskassign.NewClientState(pid, nil)
	}
	var got []byte
	for _, c := range bal.(*leaderRound).clientsAsMet(clients) {
		got = append(got, c.ProcessID()[15])
	}
	// Java's HashMap of 16 buckets by member id: "Aa", "BB" (both hash
	// 2112) and "zz" (3904) in bucket 0, in the order they joined, then
	// "b" (98) in bucket 2. The client of "b" and "zz" comes last.
	if want := []byte{2, 3, 1}; !slices.Equal(got, want) {
		t.Errorf("clients met as %v, want %v", got, want)
	}

	// A snapshot of the round lists the clients, and each client's
	// members, in that order too: replayed through Kafka Streams' leader,
	// whose HashMap of clients it fills in the order of the list, it
	// breaks ties as the live round did.
	cfg, diags := compat.LoadFiles(nil, []string{"application.id=app", "bootstrap.servers=b:9092"}, nil)
	if err := diags.Err(); err != nil {
		t.Fatal(err)
	}
	r := bal.(*leaderRound)
	r.a.s.cfg = cfg
	snap := r.snapshot(&groupTasks{}, nil, taskassign.DefaultConfig(), nil, false)
	var order []string
	for _, c := range snap.Clients {
		for _, m := range c.Consumers {
			order = append(order, m.MemberID)
		}
	}
	if want := []string{"Aa", "BB", "zz", "b"}; !slices.Equal(order, want) {
		t.Errorf("the snapshot lists the members as %v, want %v", order, want)
	}
}
