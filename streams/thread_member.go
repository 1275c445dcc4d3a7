package streams

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/stoatflow/stoatflow/compat"
	"github.com/stoatflow/stoatflow/internal/assignment"
	"github.com/stoatflow/stoatflow/internal/failpoint"
	"github.com/stoatflow/stoatflow/internal/streamsgroup"
	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/state"
)

// Under group.protocol=streams (KIP-1071) each stream thread is a member of
// the streams group application.id, as each Kafka Streams 4.4 stream
// thread's consumer is: the thread heartbeats its streamsgroup.Member from
// its loop and reconciles the tasks the group's coordinator assigns. Its
// main consumer is in no group: the thread adds and removes the active
// tasks' source partitions itself (AddConsumePartitions), so the classic
// path's rebalance callbacks never run and the loop touches the tasks on
// its own goroutine only.

// memberHeartbeatWait bounds one heartbeat; a slower coordinator answer is
// retried from the loop.
const memberHeartbeatWait = 15 * time.Second

// pushRetryMax is the longest backoff between two pushes of the topology
// description that failed with a retriable error
// (streamsgroup.Member.PushTopologyDescription).
const pushRetryMax = time.Second

// memberRetry is how long the loop waits after a heartbeat that failed
// with a retriable error before it heartbeats again (Kafka's
// retry.backoff.ms, which grows to retry.backoff.max.ms).
const memberRetry = time.Second

// unreleasedWait bounds how long a thread waits for the group to release
// its static member's instance id, held by an earlier run of the instance
// (the broker's session timeout is at most 60 s), and unreleasedRetry is
// how often it tries meanwhile.
const (
	unreleasedWait  = 2 * time.Minute
	unreleasedRetry = 2 * time.Second
)

// newMemberConsumer creates the main consumer of a streams group's member
// (a consumer with no group, which the thread assigns partitions to) and
// the thread's member, which joins at the loop's first heartbeat.
func (t *streamThread) newMemberConsumer() error {
	cfg := t.s.cfg
	topo, err := StreamsGroupTopology(t.s.topo, cfg)
	if err != nil {
		return err
	}
	description, err := topologyDescriptionToPush(t.s.topo, cfg)
	if err != nil {
		return err
	}
	mcfg := streamsgroup.Config{
		GroupID:             cfg.ApplicationID,
		InstanceID:          cfg.GroupInstanceID(t.idx),
		RackID:              cfg.MainConsumerRack(),
		RebalanceTimeout:    cfg.RebalanceTimeout(),
		ProcessID:           t.s.processID,
		ClientTags:          maps.Clone(cfg.ClientTags),
		Topology:            topo,
		TopologyDescription: description,
	}
	if h := t.s.member.host; h != nil {
		mcfg.Endpoint = &streamsgroup.Endpoint{Host: h.Host, Port: uint16(h.Port)}
	}
	m, err := streamsgroup.New(mcfg)
	if err != nil {
		return err
	}
	t.memberCfg = mcfg
	mopts, err := cfg.MainConsumerOptions(t.s.processID, t.idx)
	if err != nil {
		return fmt.Errorf("main consumer: %w", err)
	}
	mopts = append(mopts, kgo.KeepControlRecords())
	mopts = append(mopts, t.s.clientObservers(t.log, "main-consumer")...)
	t.joined = make(chan struct{})
	close(t.joined)
	cl, err := kgo.NewClient(mopts...)
	if err != nil {
		return fmt.Errorf("main consumer: %w", err)
	}
	t.consumer = cl
	t.member = m
	t.committer.Consumer = cl
	// The offsets commit under the member's id and epoch, which the
	// group's coordinator checks as a classic group checks a generation.
	t.committer.Member = func() (string, int32) { return t.member.MemberID(), t.member.Epoch() }
	t.log.Info("joining the streams group", "group", cfg.ApplicationID, "member_id", m.MemberID(), "group.instance.id", mcfg.InstanceID)
	return nil
}

// topologyDescriptionToPush is the topology description the thread's
// member pushes when its streams group asks for it (KIP-1331): nil under
// topology.description.push.enabled=false, where a Kafka Streams member
// has none to push either.
func topologyDescriptionToPush(topo *kstreams.Topology, cfg *compat.Config) (*kmsg.TopologyDescription, error) {
	if !cfg.TopologyDescriptionPushEnabled {
		return nil, nil
	}
	d, err := StreamsGroupTopologyDescription(topo, cfg)
	if err != nil {
		return nil, err
	}
	return &d, nil
}

// memberStep heartbeats the thread's member once its heartbeat is due,
// then pushes the topology's description if the group asked for it and
// the push is due.
func (t *streamThread) memberStep(ctx context.Context, now time.Time) error {
	if !now.Before(t.nextBeat) {
		if err := t.memberHeartbeat(ctx, now); err != nil {
			return err
		}
	}
	t.pushDescription(ctx, now)
	return nil
}

// memberWait bounds the loop's poll by the member's next heartbeat and
// its next topology description push.
func (t *streamThread) memberWait(wait time.Duration) time.Duration {
	if d := time.Until(t.nextBeat); d < wait {
		wait = max(d, time.Millisecond)
	}
	if at, due := t.member.DescriptionPushDue(); due {
		if d := time.Until(at); d < wait {
			wait = max(d, time.Millisecond)
		}
	}
	return wait
}

// pushDescription pushes the topology's description to the streams group
// (streamsgroup.Member.PushTopologyDescription) when the group asked for
// it and the push is due. A failure is logged once, not on each retry;
// it never stops the thread, as in Kafka Streams, whose member pushes from
// its consumer's background thread.
func (t *streamThread) pushDescription(ctx context.Context, now time.Time) {
	if at, due := t.member.DescriptionPushDue(); !due || now.Before(at) {
		return
	}
	pctx, cancel := context.WithTimeout(ctx, memberHeartbeatWait)
	done := t.doing("pushing the topology description to the streams group")
	pushed, err := t.member.PushTopologyDescription(pctx, t.consumer)
	done()
	cancel()
	var pe *streamsgroup.PushError
	switch {
	case pushed:
		t.log.Info("pushed the topology description to the streams group (KIP-1331)", "failed_pushes", t.pushFailures)
		t.pushErr, t.pushFailures = "", 0
	case errors.As(err, &pe) && pe.Retriable:
		if ctx.Err() != nil {
			return
		}
		t.pushFailures++
		if msg := err.Error(); msg != t.pushErr {
			t.pushErr = msg
			t.log.Warn("pushing the topology description to the streams group failed; retrying with a backoff of up to "+pushRetryMax.String(), "err", err)
		}
	case err != nil:
		if ctx.Err() != nil {
			return
		}
		t.log.Warn("the streams group did not take the topology description; the broker's topology description plugin has none from this member, "+
			"which changes nothing for processing (the coordinator may ask again)", "err", err)
		t.pushErr, t.pushFailures = "", 0
	}
}

// memberHeartbeat heartbeats the thread's member and reconciles the
// target assignment the answer carried: the revoked active tasks are
// committed and closed before the member reports them released, then the
// new tasks open.
func (t *streamThread) memberHeartbeat(ctx context.Context, now time.Time) error {
	t.setTaskOffsets()
	hctx, cancel := context.WithTimeout(ctx, memberHeartbeatWait)
	done := t.doing("heartbeating to the streams group")
	res, err := t.member.Heartbeat(hctx, t.consumer)
	done()
	cancel()
	var fenced *streamsgroup.FencedError
	switch {
	case errors.As(err, &fenced):
		// The member lost its tasks: nothing can commit under its old
		// epoch. It rejoins at the next heartbeat, at once.
		t.log.Warn("fenced by the streams group; closing the tasks without committing and rejoining", "err", err)
		t.dropActive(true)
		t.memberJoined, t.nextBeat = false, time.Time{}
		return nil
	case errors.Is(err, kerr.UnreleasedInstanceID) && t.member.Epoch() == streamsgroup.JoinEpoch &&
		(t.unreleasedSince.IsZero() || now.Sub(t.unreleasedSince) < unreleasedWait):
		// An earlier incarnation of this instance was killed: its static
		// members hold their instance ids until their session times out.
		// Kafka's member fails here; a StoatFlow instance, static by
		// default, restarted at once would then fail every restart, so it
		// waits, with a member of its own each try (a fatal error ends a
		// member).
		if t.unreleasedSince.IsZero() {
			t.unreleasedSince = now
			t.log.Warn("the group still holds this thread's static member from an earlier run of the instance (stopped without leaving); "+
				"joining once its session times out (the broker's group.streams.session.timeout.ms, 45 s by default), retrying every "+
				unreleasedRetry.String()+"; the thread fails if the group still holds it at the time until gives",
				"group.instance.id", t.memberCfg.InstanceID, "until", ceilSecond(now.Add(unreleasedWait)))
		}
		m, merr := streamsgroup.New(t.memberCfg)
		if merr != nil {
			return merr
		}
		t.member = m
		t.nextBeat = now.Add(unreleasedRetry)
		return nil
	case errors.Is(err, streamsgroup.ErrFatal):
		return t.topologyRefused(ctx, err)
	case err != nil:
		if ctx.Err() != nil {
			return nil
		}
		// Once per error until a heartbeat goes through: a coordinator
		// away for minutes is one line, not one a second.
		t.heartbeatFailures++
		if msg := err.Error(); msg != t.heartbeatErr {
			t.heartbeatErr = msg
			t.log.Warn("heartbeat to the streams group failed; retrying every "+memberRetry.String(), "err", err)
		}
		t.nextBeat = now.Add(memberRetry)
		return nil
	}
	if t.heartbeatFailures > 0 {
		t.log.Info("heartbeat to the streams group went through again", "failed_heartbeats", t.heartbeatFailures)
		t.heartbeatFailures, t.heartbeatErr = 0, ""
	}
	t.unreleasedSince = time.Time{}
	if res.TopologyDescriptionRequired {
		if t.memberCfg.TopologyDescription != nil {
			t.log.Info("the streams group asks for the topology description (KIP-1331); pushing it")
		} else if !t.descriptionDeclined {
			t.descriptionDeclined = true
			t.log.Info("the streams group asks for the topology description (KIP-1331); topology.description.push.enabled=false keeps it from the broker")
		}
	}
	t.s.member.setEndpointPartitions(t.member.PartitionsByEndpoint())
	if !slices.Equal(res.Statuses, t.memberStatuses) {
		t.memberStatuses = slices.Clone(res.Statuses)
		if len(res.Statuses) > 0 {
			t.log.Info("the streams group reports", "statuses", fmt.Sprint(res.Statuses))
		}
	}
	if res.Has(streamsgroup.StatusShutdownApplication) {
		t.s.shutdownByGroup()
	}
	if err := t.memberTopicStatuses(res, now); err != nil {
		return err
	}
	if r, ok := t.member.Pending(); ok {
		if err := t.reconcile(r); err != nil {
			if errors.Is(err, streamsgroup.ErrStaleReconciliation) {
				t.nextBeat = time.Time{}
				return nil
			}
			return err
		}
		res.Next = 0
	} else if !t.memberJoined && t.member.Epoch() > 0 && !res.Has(streamsgroup.StatusAssignmentDelayed) {
		// In the group with nothing to reconcile (no task for this
		// thread): the thread is ready all the same.
		t.memberJoined = true
		if err := t.onAssigned(nil); err != nil {
			return err
		}
	}
	t.nextBeat = now.Add(res.Next)
	return nil
}

// memberTopicStatuses acts on the statuses about the group's topics as
// Kafka Streams 4.4's StreamThread.handleStreamsRebalanceData does:
// INCORRECTLY_PARTITIONED_TOPICS fails the thread at once (Kafka's
// TopologyException); MISSING_SOURCE_TOPICS is waited out for two
// heartbeat intervals, then fails the thread (MissingSourceTopicException),
// the wait starting over once the topics are there. The others
// (STALE_TOPOLOGY, MISSING_INTERNAL_TOPICS, which the coordinator creates,
// ASSIGNMENT_DELAYED, MISSING_CLIENT_TAGS) are logged only.
func (t *streamThread) memberTopicStatuses(res streamsgroup.Result, now time.Time) error {
	var missing string
	found := false
	for _, st := range res.Statuses {
		switch st.Code {
		case streamsgroup.StatusIncorrectlyPartitionedTopics:
			return fmt.Errorf("%w: the streams group found the topology's co-partitioned topics partitioned differently: %s",
				kstreams.ErrInvalidTopology, st.Detail)
		case streamsgroup.StatusMissingSourceTopics:
			missing, found = st.Detail, true
		}
	}
	if !found {
		t.topicsMissingSince = time.Time{}
		return nil
	}
	wait := 2 * t.member.HeartbeatInterval()
	if t.topicsMissingSince.IsZero() {
		t.topicsMissingSince = now
		t.log.Info("the streams group reports missing source topics; failing if they are still missing after "+wait.String(), "detail", missing)
		return nil
	}
	if elapsed := now.Sub(t.topicsMissingSince); elapsed >= wait {
		return fmt.Errorf("%w: %s; still missing after %v (create them, or fix the topology's topic names)", ErrMissingSourceTopics, missing, elapsed.Round(time.Millisecond))
	}
	return nil
}

// reconcile moves the thread's tasks to r.Target, as Kafka Streams'
// DefaultStreamsRebalanceListener does: the revoked active tasks commit
// (with every other task, in the thread's one transaction) and close, or
// become standbys when the target keeps them here as such; then the
// target's new active tasks open on their source partitions, and its
// standby and warm-up tasks open, stay or close.
func (t *streamThread) reconcile(r streamsgroup.Reconciliation) error {
	if !t.memberJoined && !r.Target.GroupReady && len(r.Target.Active)+len(r.Target.Standby)+len(r.Target.Warmup) == 0 {
		// The group is not ready (its internal topics are being
		// created, the first assignment is delayed): nothing to run yet,
		// and the instance stays REBALANCING until the group assigns.
		if err := t.member.Revoked(r); err != nil {
			return err
		}
		return t.member.Assigned(r)
	}
	// The crash suite's rebalance failpoint, as in a classic group's
	// callbacks: before the revocation, and between the revocation's
	// commit and its acknowledgement.
	if err := failpoint.Hit(failpoint.RebalanceCallback); err != nil {
		return err
	}
	t.memberStandbys = map[kstreams.TaskID]bool{}
	for _, id := range slices.Concat(r.Target.Standby, r.Target.Warmup) {
		kid, err := t.memberTaskID(id)
		if err != nil {
			return err
		}
		t.memberStandbys[kid] = true
	}
	if len(r.Revoke) > 0 {
		revoked := map[string][]int32{}
		for _, id := range r.Revoke {
			kid, err := t.memberTaskID(id)
			if err != nil {
				return err
			}
			if a := t.tasks[kid]; a != nil {
				for _, q := range a.queues {
					revoked[q.tp.topic] = append(revoked[q.tp.topic], q.tp.partition)
				}
			}
		}
		if err := t.onRevoked(revoked, false); err != nil {
			return err
		}
		t.consumer.RemoveConsumePartitions(revoked)
		if err := failpoint.Hit(failpoint.RebalanceCallback); err != nil {
			return err
		}
	}
	if err := t.member.Revoked(r); err != nil {
		return err
	}
	assigned := map[string][]int32{}
	for _, id := range r.Target.Active {
		kid, err := t.memberTaskID(id)
		if err != nil {
			return err
		}
		if t.tasks[kid] != nil {
			continue
		}
		for _, topic := range t.taskSources(kid.Subtopology) {
			assigned[topic] = append(assigned[topic], kid.Partition)
		}
	}
	if err := t.onAssigned(assigned); err != nil {
		return err
	}
	t.memberJoined = true
	return t.member.Assigned(r)
}

// memberTaskID is the runtime's task of a streams group's task, checked
// against this topology: the coordinator assigns the tasks of the topology
// the group holds, which a member with another topology must not run.
func (t *streamThread) memberTaskID(id streamsgroup.TaskID) (kstreams.TaskID, error) {
	sub, err := strconv.Atoi(id.Subtopology)
	if err != nil || len(t.taskSources(sub)) == 0 {
		return kstreams.TaskID{}, fmt.Errorf("streams: the streams group assigned task %s, which this topology does not have "+
			"(the group's topology differs from this instance's)", id)
	}
	return kstreams.TaskID{Subtopology: sub, Partition: id.Partition}, nil
}

// taskSources are the source topics (decorated) whose partition p makes
// task sub_p, or nil for no such sub-topology.
func (t *streamThread) taskSources(sub int) []string {
	for _, st := range t.s.topo.Subtopologies() {
		if st.ID != sub || st.Global {
			continue
		}
		var out []string
		for _, src := range st.Sources {
			if name := src.Decorated(t.s.cfg.ApplicationID); !slices.Contains(out, name) {
				out = append(out, name)
			}
		}
		return out
	}
	return nil
}

// consumeAssigned adds newly assigned partitions to the main consumer of a
// streams group's member at their committed offsets; a partition without
// one starts where its reset policy says.
func (t *streamThread) consumeAssigned(parts []tpKey, committed []committedOffset) error {
	var reset []tpKey
	add := map[string]map[int32]kgo.Offset{}
	at := func(tp tpKey, o int64) {
		if add[tp.topic] == nil {
			add[tp.topic] = map[int32]kgo.Offset{}
		}
		add[tp.topic][tp.partition] = kgo.NewOffset().At(o)
	}
	for _, c := range committed {
		if c.offset >= 0 {
			at(c.tp, c.offset)
		}
	}
	for _, tp := range parts {
		if _, ok := add[tp.topic][tp.partition]; !ok {
			reset = append(reset, tp)
		}
	}
	if len(reset) > 0 {
		offsets, err := t.resetOffsets(reset)
		if err != nil {
			return fmt.Errorf("streams: %w", err)
		}
		for tp, o := range offsets {
			at(tp, o)
		}
	}
	t.consumer.AddConsumePartitions(add)
	return nil
}

// dropActive closes every active task, without committing when lost, and
// stops consuming their partitions.
func (t *streamThread) dropActive(lost bool) {
	parts := map[string][]int32{}
	for tp := range t.byTP {
		parts[tp.topic] = append(parts[tp.topic], tp.partition)
	}
	if lost {
		if err := t.onRevoked(parts, true); err != nil {
			t.log.Warn("closing the tasks of a lost assignment", "err", err)
		}
	}
	t.consumer.RemoveConsumePartitions(parts)
}

// setTaskOffsets gives the member the offset sums of the thread's stateful
// tasks, which its heartbeats report: the sum of each task's stores'
// changelog offsets, for active, standby and warm-up tasks alike, and the
// sum of their changelogs' ends as far as the thread knows them (a running
// active task is at its end; a restoring task or a standby is behind by
// what its reads have still to apply), by which the group's coordinator
// sees a warm-up task caught up.
func (t *streamThread) setTaskOffsets() {
	offsets := map[streamsgroup.TaskID]int64{}
	ends := map[streamsgroup.TaskID]int64{}
	for id, a := range t.tasks {
		if stateful(a.stores) {
			offsets[memberTask(id)], _ = offsetSum(a.stores)
		}
	}
	for id, sb := range t.standbys {
		if stateful(sb.stores) {
			offsets[memberTask(id)], _ = offsetSum(sb.stores)
		}
	}
	maps.Copy(ends, offsets)
	behind := func(reads map[state.TopicPartition]*restoreState) {
		for _, rs := range reads {
			var id kstreams.TaskID
			switch {
			case rs.task != nil:
				id = rs.task.id
			case rs.standby != nil:
				id = rs.standby.id
			default:
				continue
			}
			if _, ok := ends[memberTask(id)]; ok {
				ends[memberTask(id)] = addSum(ends[memberTask(id)], rs.lag())
			}
		}
	}
	behind(t.restores)
	behind(t.standbyReads)
	t.member.SetTaskOffsets(offsets, ends)
}

func memberTask(id kstreams.TaskID) streamsgroup.TaskID {
	return streamsgroup.TaskID{Subtopology: strconv.Itoa(id.Subtopology), Partition: id.Partition}
}

// leaveMemberGroup sends the member's leave once its tasks are closed:
// epoch -1, or -2 for a static member, whose tasks the group keeps for it
// until its session times out, unless the Close leaves the group
// (CloseOptions.LeaveGroup) or the thread is removed (RemoveStreamThread),
// which send -1 for a static member too, as Kafka Streams removes a
// removed thread's static member.
func (t *streamThread) leaveMemberGroup(ctx context.Context) {
	leave := t.member.Leave
	if t.s.leaveOnClose.Load() || t.removed.Load() {
		leave = t.member.LeaveGroup
	}
	if err := leave(ctx, t.consumer); err != nil {
		t.log.Warn("leaving the streams group failed; the thread's tasks move when its session times out", "err", err)
		return
	}
	t.log.Info("left the streams group", "member_id", t.member.MemberID())
}

// setEndpointPartitions takes the group's partitions by endpoint from a
// streams group's heartbeat, for query routing (metadata.go).
func (m *groupMember) setEndpointPartitions(by map[streamsgroup.Endpoint]streamsgroup.EndpointPartitions) {
	hosts := map[assignment.HostInfo][]assignment.TopicPartition{}
	standbys := map[assignment.HostInfo][]assignment.TopicPartition{}
	conv := func(tps []streamsgroup.TopicPartition) []assignment.TopicPartition {
		out := make([]assignment.TopicPartition, len(tps))
		for i, tp := range tps {
			out[i] = assignment.TopicPartition{Topic: tp.Topic, Partition: tp.Partition}
		}
		return out
	}
	for e, p := range by {
		h := assignment.HostInfo{Host: e.Host, Port: int32(e.Port)}
		if len(p.Active) > 0 {
			hosts[h] = conv(p.Active)
		}
		if len(p.Standby) > 0 {
			standbys[h] = conv(p.Standby)
		}
	}
	m.mu.Lock()
	m.mu.hosts, m.mu.standbyHosts = hosts, standbys
	m.mu.Unlock()
}
