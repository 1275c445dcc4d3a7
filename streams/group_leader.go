package streams

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/stoatflow/stoatflow/compat"
	"github.com/stoatflow/stoatflow/internal/assignment"
	"github.com/stoatflow/stoatflow/internal/taskassign"
	"github.com/stoatflow/stoatflow/kstreams"
)

// futureProcessID is the client Kafka Streams' leader files every member
// of a future subscription version under (its FUTURE_ID).
var futureProcessID assignment.ProcessID

// leaderOffsetsWait bounds the leader's reads of changelog end offsets; a
// leader that cannot read them in time keeps the previous assignment and
// asks for another rebalance, as Kafka Streams' falls back.
const leaderOffsetsWait = 10 * time.Second

// MemberBalancer is the leader's side: it decodes every member's
// subscription (JVM and StoatFlow members alike) and returns the topics
// whose partition counts franz-go loads before Balance.
func (a *streamAssignor) MemberBalancer(members []kmsg.JoinGroupResponseMember) (kgo.GroupMemberBalancer, map[string]struct{}, error) {
	r := &leaderRound{a: a, members: members, decoded: make([]*assignment.MemberMetadata, len(members))}
	for i, m := range members {
		md, err := assignment.DecodeMemberMetadata(m.ProtocolMetadata)
		if err != nil {
			r.bad = append(r.bad, fmt.Sprintf("member %s (%d bytes of subscription): %v", m.MemberID, len(m.ProtocolMetadata), err))
			continue
		}
		r.decoded[i] = md
	}
	return r, memberTopics(members, r.decoded), nil
}

// leaderRound is one assignment computed by a StoatFlow leader: what a
// Kafka Streams 4.4 leader computes from the same subscriptions (its
// StreamsPartitionAssignor.assign with the HighAvailabilityTaskAssignor, or
// the StickyTaskAssignor task.assignor.class names).
type leaderRound struct {
	a       *streamAssignor
	members []kmsg.JoinGroupResponseMember
	decoded []*assignment.MemberMetadata
	bad     []string // subscriptions that did not decode
}

// syncPlan is the SyncGroup assignments of every member.
type syncPlan []kmsg.SyncGroupRequestGroupAssignment

func (p syncPlan) IntoSyncAssignment() []kmsg.SyncGroupRequestGroupAssignment { return p }

// Balance computes the group's assignment; it never fails the rebalance:
// what Kafka Streams answers with an error code, every member gets.
func (r *leaderRound) Balance(topics map[string]int32) kgo.IntoSyncAssignment {
	log := r.a.s.log
	if r.a.t != nil {
		log = r.a.t.log
	}
	if len(r.bad) > 0 {
		log.Error("a member's subscription does not decode; every member gets ASSIGNMENT_ERROR and no partition",
			"members", strings.Join(r.bad, "; "))
		return r.errorPlan(assignment.ErrorAssignment)
	}
	for i, md := range r.decoded {
		if md.Info.ErrorCode == assignment.ErrorShutdownRequested {
			log.Warn("a member of the group asks every instance to shut down (SHUTDOWN_APPLICATION); assigning no partitions",
				"member", r.members[i].MemberID)
			return r.errorPlan(assignment.ErrorShutdownRequested)
		}
	}
	plan, code, err := r.assign(topics, log)
	if err != nil {
		log.Error("the task assignment failed; every member gets "+code.String()+" and no partition", "err", err)
		return r.errorPlan(code)
	}
	return plan
}

// errorPlan gives every member no partition and the error code.
func (r *leaderRound) errorPlan(code assignment.ErrorCode) syncPlan {
	info := &assignment.AssignmentInfo{
		Version: assignment.LatestSupportedVersion, CommonlySupportedVersion: assignment.LatestSupportedVersion,
		ErrorCode: code, NextRebalanceMs: assignment.NoNextRebalance,
	}
	b, _ := (&assignment.MemberAssignment{Info: info}).Encode()
	out := make(syncPlan, 0, len(r.members))
	for _, m := range r.members {
		out = append(out, kmsg.SyncGroupRequestGroupAssignment{MemberID: m.MemberID, MemberAssignment: b})
	}
	return out
}

// groupTasks are the application's tasks as a leader derives them from the
// topology and the partition counts of the topics the members subscribe
// to: task <sub>_<p> reads partition p of each source topic of
// sub-topology sub that has one.
type groupTasks struct {
	partitions map[assignment.TaskID][]assignment.TopicPartition
	all        []assignment.TaskID
	stateful   []assignment.TaskID
	// changelogs are the changelog partitions of each stateful task; the
	// ones read from a source topic (optimized source tables) are in
	// sourceChangelogs instead.
	changelogs, sourceChangelogs map[assignment.TaskID][]assignment.TopicPartition
}

// tasksFor derives the tasks. A source topic missing from topics (not
// created, or not seen by the metadata yet) is Kafka Streams'
// MissingSourceTopicException.
func (s *KafkaStreams) tasksFor(topics map[string]int32) (*groupTasks, error) {
	idx := s.topo.SourceIndex(s.cfg.ApplicationID)
	bySub := map[int][]string{}
	for topic, n := range topics {
		sub, ok, err := idx.Subtopology(topic)
		if err != nil {
			return nil, err
		}
		if ok && n > 0 {
			bySub[sub] = append(bySub[sub], topic)
		}
	}
	// A repartition topic Start has just created may not be in the
	// metadata yet: its partition count is the one Start created it with.
	// Only a missing external topic is Kafka Streams' missing source topic.
	counts := maps.Clone(topics)
	for _, st := range s.topo.Subtopologies() {
		for _, src := range st.Sources {
			if !src.Internal {
				continue
			}
			name := src.Decorated(s.cfg.ApplicationID)
			if n := s.internalCounts[name]; counts[name] <= 0 && n > 0 {
				counts[name] = n
				bySub[st.ID] = append(bySub[st.ID], name)
			}
		}
	}
	topics = counts
	var missing []string
	g := &groupTasks{
		partitions: map[assignment.TaskID][]assignment.TopicPartition{},
		changelogs: map[assignment.TaskID][]assignment.TopicPartition{}, sourceChangelogs: map[assignment.TaskID][]assignment.TopicPartition{},
	}
	for _, st := range s.topo.Subtopologies() {
		if st.Global {
			continue
		}
		if len(s.topo.SourcePatterns(st.ID)) == 0 {
			for _, src := range st.Sources {
				name := src.Name
				if src.Internal {
					name = src.Decorated(s.cfg.ApplicationID)
				}
				if topics[name] <= 0 {
					missing = append(missing, name)
				}
			}
		}
		var count int32
		for _, topic := range bySub[st.ID] {
			count = max(count, topics[topic])
		}
		var logged, sourced []string
		for _, spec := range st.Stores {
			switch {
			case spec.SourceChangelog != "":
				sourced = append(sourced, spec.SourceChangelog)
			case spec.Logging:
				logged = append(logged, kstreams.ChangelogTopic(s.cfg.ApplicationID, spec.Name))
			}
		}
		for p := range count {
			id := assignment.TaskID{Subtopology: int32(st.ID), Partition: p}
			for _, topic := range bySub[st.ID] {
				if p < topics[topic] {
					g.partitions[id] = append(g.partitions[id], assignment.TopicPartition{Topic: topic, Partition: p})
				}
			}
			assignment.SortPartitions(g.partitions[id])
			g.all = append(g.all, id)
			if len(logged)+len(sourced) > 0 {
				g.stateful = append(g.stateful, id)
			}
			for _, c := range logged {
				g.changelogs[id] = append(g.changelogs[id], assignment.TopicPartition{Topic: c, Partition: p})
			}
			for _, c := range sourced {
				g.sourceChangelogs[id] = append(g.sourceChangelogs[id], assignment.TopicPartition{Topic: c, Partition: p})
			}
		}
	}
	if len(missing) > 0 {
		slices.Sort(missing)
		return nil, fmt.Errorf("%w: %s", ErrMissingSourceTopics, strings.Join(slices.Compact(missing), ", "))
	}
	return g, nil
}

// endOffsetSums reads each stateful task's end offset sum: the sum of its
// changelogs' end offsets, and for a changelog that is a source topic the
// group's committed offset on it, as Kafka Streams' leader reads them.
func (r *leaderRound) endOffsetSums(ctx context.Context, g *groupTasks) (map[assignment.TaskID]int64, error) {
	s := r.a.s
	var cl *kgo.Client
	if r.a.t != nil && r.a.t.restorer != nil {
		cl = r.a.t.restorer
	} else {
		return nil, fmt.Errorf("streams: no client to read changelog offsets with")
	}
	adm := kadm.NewClient(cl)
	topics := map[string]bool{}
	for _, tps := range g.changelogs {
		for _, tp := range tps {
			topics[tp.Topic] = true
		}
	}
	ends := kadm.ListedOffsets{}
	if len(topics) > 0 {
		var err error
		if ends, err = adm.ListEndOffsets(ctx, slices.Collect(maps.Keys(topics))...); err != nil {
			return nil, err
		}
	}
	var committed kadm.OffsetResponses
	if len(g.sourceChangelogs) > 0 {
		var err error
		if committed, err = adm.FetchOffsets(ctx, s.cfg.ApplicationID); err != nil {
			return nil, err
		}
	}
	sums := map[assignment.TaskID]int64{}
	for _, id := range g.stateful {
		var sum int64
		for _, tp := range g.changelogs[id] {
			o, ok := ends.Lookup(tp.Topic, tp.Partition)
			if !ok || o.Err != nil {
				return nil, fmt.Errorf("streams: end offset of changelog %s-%d unknown", tp.Topic, tp.Partition)
			}
			sum = addSaturating(sum, o.Offset)
		}
		for _, tp := range g.sourceChangelogs[id] {
			if o, ok := committed.Lookup(tp.Topic, tp.Partition); ok && o.Err == nil && o.At > 0 {
				sum = addSaturating(sum, o.At)
			}
		}
		sums[id] = sum
	}
	return sums, nil
}

func addSaturating(a, b int64) int64 {
	if b > 0 && a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}

// assign computes every member's assignment. It returns the error code
// every member gets when it fails.
func (r *leaderRound) assign(topics map[string]int32, log *slog.Logger) (syncPlan, assignment.ErrorCode, error) {
	s := r.a.s
	g, err := s.tasksFor(topics)
	if err != nil {
		if errors.Is(err, ErrMissingSourceTopics) {
			return nil, assignment.ErrorIncompleteSourceTopicMetadata, err
		}
		return nil, assignment.ErrorAssignment, err
	}
	taskFor := map[assignment.TopicPartition]assignment.TaskID{}
	for id, tps := range g.partitions {
		for _, tp := range tps {
			taskFor[tp] = id
		}
	}

	// Clients by process id, as Kafka Streams groups consumers.
	minVersion, minSupported := int32(assignment.LatestSupportedVersion), int32(assignment.LatestSupportedVersion)
	future := false
	clients := map[assignment.ProcessID]*taskassign.ClientState{}
	endpoints := map[assignment.ProcessID]*assignment.HostInfo{}
	ownedBy := map[assignment.TopicPartition]string{}
	var twice []string
	for i, md := range r.decoded {
		// A partition two members claim to own: Kafka Streams' leader
		// says so and assigns on, the later claim counting.
		for _, tp := range md.OwnedPartitions {
			if other, ok := ownedBy[tp]; ok {
				twice = append(twice, fmt.Sprintf("%s by %s and %s", tp, other, r.members[i].MemberID))
			}
			ownedBy[tp] = r.members[i].MemberID
		}
		info := md.Info
		pid := info.ProcessID
		if info.Future() {
			future, pid = true, futureProcessID
		} else {
			minVersion = min(minVersion, info.Version)
		}
		if info.LatestSupportedVersion > 0 {
			minSupported = min(minSupported, info.LatestSupportedVersion)
		}
		c, ok := clients[pid]
		if !ok {
			tags := map[string]string{}
			for _, t := range info.ClientTags {
				tags[t.Key] = t.Value
			}
			c = taskassign.NewClientState(pid, tags)
			clients[pid] = c
			if info.UserEndPoint != "" && !info.Future() {
				if h, err := assignment.ParseHostInfo(info.UserEndPoint); err == nil {
					endpoints[pid] = h
				}
			}
		}
		sums := map[assignment.TaskID]int64{}
		for _, o := range info.OffsetSums() {
			sums[o.Task] = o.OffsetSum
		}
		c.AddConsumer(r.members[i].MemberID, md.OwnedPartitions, sums, md.Rack)
	}
	if len(twice) > 0 {
		log.Warn("the previous assignment contains a partition more than once (members that each claim to own it); "+
			"assigning on, as Kafka Streams' leader does", "owned_twice", strings.Join(twice, "; "))
	}
	if future && minVersion < assignment.EarliestProbeableVersion {
		return nil, assignment.ErrorAssignment, fmt.Errorf("received a future (version probing) subscription and an incompatible pre Kafka 2.0 subscription (version %d) at the same time", minVersion)
	}

	ctx, cancel := context.WithTimeout(s.runCtx(), leaderOffsetsWait)
	ends, err := r.endOffsetSums(ctx, g)
	cancel()
	fallback := err != nil
	if fallback {
		log.Warn("could not read the changelogs' end offsets, so the tasks' lags are unknown: keeping tasks where they are and asking for another rebalance", "err", err)
		ends = map[assignment.TaskID]int64{}
		for _, id := range g.stateful {
			ends[id] = assignment.UnknownOffsetSum
		}
	}
	list := make([]*taskassign.ClientState, 0, len(clients))
	for _, pid := range slices.SortedFunc(maps.Keys(clients), assignment.ProcessID.Compare) {
		c := clients[pid]
		if err := c.Init(taskFor, ends); err != nil {
			return nil, assignment.ErrorAssignment, err
		}
		list = append(list, c)
	}
	cfg := s.assignConfig()
	var racks *taskassign.Racks
	if cfg.RackAwareAssignmentStrategy != taskassign.RackAwareStrategyNone {
		racks = r.racks(g, log)
	}
	var probing bool
	if s.cfg.TaskAssignor == compat.TaskAssignorSticky {
		// Kafka Streams' custom-assignor path (task.assignor.class): no
		// probing rebalance, with or without the end offsets.
		err = taskassign.AssignSticky(r.clientsAsMet(clients), g.all, g.stateful, racks, cfg)
	} else {
		probing, err = taskassign.Assign(list, g.all, g.stateful, racks, cfg)
		if err == nil && (probing || fallback) && r.a.m != nil {
			if c, ok := clients[r.a.m.pid]; ok {
				c.SetFollowupRebalance(true)
			}
		}
	}
	if err != nil {
		return nil, assignment.ErrorAssignment, err
	}
	byConsumer, _, err := taskassign.AssignThreads(list, g.partitions, g.stateful)
	if err != nil {
		return nil, assignment.ErrorAssignment, err
	}

	// The group's host maps, from the clients with an endpoint.
	var hosts, standbyHosts map[assignment.HostInfo][]assignment.TopicPartition
	if minVersion >= 2 {
		hosts, standbyHosts = map[assignment.HostInfo][]assignment.TopicPartition{}, map[assignment.HostInfo][]assignment.TopicPartition{}
		for pid, h := range endpoints {
			c := clients[pid]
			var act, sb []assignment.TopicPartition
			for _, id := range c.ActiveTasks() {
				act = append(act, g.partitions[id]...)
			}
			for _, id := range c.StandbyTasks() {
				sb = append(sb, g.partitions[id]...)
			}
			assignment.SortPartitions(act)
			assignment.SortPartitions(sb)
			hosts[*h], standbyHosts[*h] = act, sb
		}
	}
	probingAt := time.Now().Add(s.cfg.ProbingRebalanceInterval).UnixMilli()
	if fallback {
		probingAt = time.Now().Add(time.Second).UnixMilli()
	}
	plan := make(syncPlan, 0, len(r.members))
	for _, m := range r.members {
		ca := byConsumer[m.MemberID]
		info := &assignment.AssignmentInfo{
			Version: minVersion, CommonlySupportedVersion: minSupported,
			ActiveTasks:      ca.Active,
			StandbyTasks:     map[assignment.TaskID][]assignment.TopicPartition{},
			PartitionsByHost: hosts, StandbyPartitionsByHost: standbyHosts,
			NextRebalanceMs: assignment.NoNextRebalance,
		}
		for _, id := range ca.Standby {
			info.StandbyTasks[id] = g.partitions[id]
		}
		switch ca.Followup {
		case taskassign.FollowupNow:
			info.NextRebalanceMs = 0
		case taskassign.FollowupProbing:
			info.NextRebalanceMs = probingAt
		}
		b, err := (&assignment.MemberAssignment{Partitions: ca.Partitions, Info: info}).Encode()
		if err != nil {
			return nil, assignment.ErrorAssignment, fmt.Errorf("encoding the assignment of member %s: %w", m.MemberID, err)
		}
		plan = append(plan, kmsg.SyncGroupRequestGroupAssignment{MemberID: m.MemberID, MemberAssignment: b})
	}
	if f := s.snapshots; f != nil {
		f(r.snapshot(g, ends, cfg, list, probing))
	}
	var placed []string
	for _, c := range list {
		placed = append(placed, fmt.Sprintf("%s=active%v standby%v", c.ProcessID(), c.ActiveTasks(), c.StandbyTasks()))
	}
	log.Info("computed the group's assignment as its leader (Kafka Streams' "+s.cfg.TaskAssignor.String()+")",
		"tasks", len(g.all), "stateful", len(g.stateful), "clients", len(list), "members", len(r.members),
		"version", minVersion, "probing_rebalance", probing, "placement", strings.Join(placed, "; "))
	return plan, assignment.ErrorNone, nil
}

// clientsAsMet are the clients in the order a Kafka Streams leader meets
// them, which the sticky assignor's ties follow: by the first of their
// members in the HashMap of subscriptions its consumer hands it.
func (r *leaderRound) clientsAsMet(clients map[assignment.ProcessID]*taskassign.ClientState) []*taskassign.ClientState {
	out := make([]*taskassign.ClientState, 0, len(clients))
	seen := map[assignment.ProcessID]bool{}
	for _, i := range r.membersAsMet() {
		if pid := r.processOf(i); !seen[pid] {
			seen[pid] = true
			out = append(out, clients[pid])
		}
	}
	return out
}

// membersAsMet are the indexes of the round's members in the order a Kafka
// Streams leader meets them: the HashMap of subscriptions by member id its
// consumer hands it (taskassign.SubscriptionOrder).
func (r *leaderRound) membersAsMet() []int {
	index := make(map[string]int, len(r.members))
	ids := make([]string, len(r.members))
	for i, m := range r.members {
		index[m.MemberID], ids[i] = i, m.MemberID
	}
	out := make([]int, 0, len(ids))
	for _, id := range taskassign.SubscriptionOrder(ids) {
		out = append(out, index[id])
	}
	return out
}

// processOf is member i's process id as the leader groups it: one id for
// every member of a future (version probing) subscription.
func (r *leaderRound) processOf(i int) assignment.ProcessID {
	if r.decoded[i].Info.Future() {
		return futureProcessID
	}
	return r.decoded[i].Info.ProcessID
}

// runCtx is the threads' run context, or the background once Start has
// not set it.
func (s *KafkaStreams) runCtx() context.Context {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.mu.runCtx != nil {
		return s.mu.runCtx
	}
	return context.Background()
}

// assignConfig is the task assignor's configuration from the application's.
func (s *KafkaStreams) assignConfig() taskassign.Config {
	cfg := taskassign.DefaultConfig()
	cfg.NumStandbyReplicas = s.cfg.NumStandbyReplicas
	cfg.MaxWarmupReplicas = s.cfg.MaxWarmupReplicas
	cfg.AcceptableRecoveryLag = s.cfg.AcceptableRecoveryLag
	cfg.ProbingRebalanceIntervalMs = s.cfg.ProbingRebalanceInterval.Milliseconds()
	cfg.RackAwareAssignmentTags = s.cfg.RackAwareAssignmentTags
	cfg.RackAwareAssignmentStrategy = s.cfg.RackAwareAssignmentStrategy
	cfg.RackAwareTrafficCost = s.cfg.RackAwareTrafficCost
	cfg.RackAwareNonOverlapCost = s.cfg.RackAwareNonOverlapCost
	return cfg
}

// racks is what rack-aware assignment weighs: the tasks' source and
// changelog partitions (source topics read as changelogs among the
// latter, as in Kafka Streams) and the racks of their replicas. When the
// metadata cannot be read, every partition's racks are unknown and the
// assignment is that of strategy none, as a Kafka Streams leader falls
// back when it cannot describe a topic.
func (r *leaderRound) racks(g *groupTasks, log *slog.Logger) *taskassign.Racks {
	changelogs := map[assignment.TaskID][]assignment.TopicPartition{}
	for _, m := range []map[assignment.TaskID][]assignment.TopicPartition{g.changelogs, g.sourceChangelogs} {
		for id, tps := range m {
			changelogs[id] = append(changelogs[id], tps...)
		}
	}
	ctx, cancel := context.WithTimeout(r.a.s.runCtx(), leaderOffsetsWait)
	replicas, err := r.replicaRacks(ctx, g)
	cancel()
	if err != nil {
		log.Warn("could not read the partitions' replicas from the metadata, so the assignment is not rack-aware", "err", err)
	}
	return &taskassign.Racks{SourcePartitions: g.partitions, ChangelogPartitions: changelogs, Replicas: replicas, Log: log}
}

// replicaRacks reads the racks of the brokers holding each replica of the
// tasks' source and changelog partitions from one metadata request: ""
// for a broker without a rack or one the metadata does not list (Kafka's
// Node without a rack). A topic the metadata does not know has no
// partitions in the result.
func (r *leaderRound) replicaRacks(ctx context.Context, g *groupTasks) (map[assignment.TopicPartition][]string, error) {
	if r.a.t == nil || r.a.t.restorer == nil {
		return nil, fmt.Errorf("streams: no client to read the metadata with")
	}
	topics := map[string]bool{}
	for _, m := range []map[assignment.TaskID][]assignment.TopicPartition{g.partitions, g.changelogs, g.sourceChangelogs} {
		for _, tps := range m {
			for _, tp := range tps {
				topics[tp.Topic] = true
			}
		}
	}
	md, err := kadm.NewClient(r.a.t.restorer).Metadata(ctx, slices.Sorted(maps.Keys(topics))...)
	if err != nil {
		return nil, err
	}
	rackOf := map[int32]string{}
	for _, b := range md.Brokers {
		if b.Rack != nil {
			rackOf[b.NodeID] = *b.Rack
		}
	}
	out := map[assignment.TopicPartition][]string{}
	for _, td := range md.Topics {
		if td.Err != nil {
			continue
		}
		for _, pd := range td.Partitions {
			racks := make([]string, len(pd.Replicas))
			for i, id := range pd.Replicas {
				racks[i] = rackOf[id]
			}
			out[assignment.TopicPartition{Topic: td.Topic, Partition: pd.Partition}] = racks
		}
	}
	return out, nil
}
