package streamsgroup

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// Epochs a member sends that are not the group's.
const (
	// JoinEpoch joins the group (or rejoins after a fence).
	JoinEpoch int32 = 0
	// LeaveEpoch leaves the group (a dynamic member).
	LeaveEpoch int32 = -1
	// StaticLeaveEpoch leaves the group for now, a static member keeping
	// its instance id's tasks for the session timeout.
	StaticLeaveEpoch int32 = -2
)

// Config is what a member tells the group about itself. Only Topology and
// GroupID are required.
type Config struct {
	// GroupID is the application.id.
	GroupID string
	// InstanceID is group.instance.id; "" for a dynamic member.
	InstanceID string
	// RackID is client.rack; "" for none.
	RackID string
	// RebalanceTimeout is max.poll.interval.ms, which Kafka Streams sends
	// as the rebalance timeout (default 300000 ms).
	RebalanceTimeout time.Duration
	// ProcessID is the process's id, the UUID of the state directory, in
	// java.util.UUID's text form.
	ProcessID string
	// Endpoint is application.server; nil for none.
	Endpoint *Endpoint
	// ClientTags are rack.aware.assignment.tags' client.tag.* values.
	ClientTags map[string]string
	// Topology is the topology the member describes at epoch 0 (as
	// streams.StreamsGroupTopology builds it).
	Topology kmsg.StreamsGroupHeartbeatRequestTopology
	// TopologyDescription is the topology's description the member pushes
	// when a heartbeat's answer asks for it (KIP-1331, as
	// streams.StreamsGroupTopologyDescription builds it); nil pushes
	// nothing (topology.description.push.enabled=false).
	TopologyDescription *kmsg.TopologyDescription
}

// state is where the member stands, as Kafka's MemberState for the states
// a StoatFlow member passes through.
type state int8

const (
	joining       state = iota // epoch 0 with the topology, until the first answer
	stable                     // owns its target
	reconciling                // the target differs from what it owns
	acknowledging              // reconciled; the next heartbeat says so at once
	left                       // sent its leave; the next heartbeat rejoins
	fatal                      // a fatal error; no more heartbeats
)

// Status is a status a heartbeat's response carries, with its detail.
type Status struct {
	Code   StatusCode
	Detail string
}

// StatusCode is one of the statuses of StreamsGroupHeartbeatResponse.
type StatusCode int8

// The status codes of KIP-1071.
const (
	StatusStaleTopology                StatusCode = 0
	StatusMissingSourceTopics          StatusCode = 1
	StatusIncorrectlyPartitionedTopics StatusCode = 2
	StatusMissingInternalTopics        StatusCode = 3
	StatusShutdownApplication          StatusCode = 4
	StatusAssignmentDelayed            StatusCode = 5
	StatusMissingClientTags            StatusCode = 6
)

var statusNames = map[StatusCode]string{
	StatusStaleTopology:                "STALE_TOPOLOGY",
	StatusMissingSourceTopics:          "MISSING_SOURCE_TOPICS",
	StatusIncorrectlyPartitionedTopics: "INCORRECTLY_PARTITIONED_TOPICS",
	StatusMissingInternalTopics:        "MISSING_INTERNAL_TOPICS",
	StatusShutdownApplication:          "SHUTDOWN_APPLICATION",
	StatusAssignmentDelayed:            "ASSIGNMENT_DELAYED",
	StatusMissingClientTags:            "MISSING_CLIENT_TAGS",
}

// String is Kafka's name of the status.
func (c StatusCode) String() string {
	if s, ok := statusNames[c]; ok {
		return s
	}
	return fmt.Sprintf("STATUS_%d", int8(c))
}

// stopsProcessing reports whether the group is not ready while the status
// holds (StreamsMembershipManager.isGroupReady).
func (c StatusCode) stopsProcessing() bool {
	switch c {
	case StatusMissingSourceTopics, StatusMissingInternalTopics, StatusIncorrectlyPartitionedTopics, StatusAssignmentDelayed:
		return true
	}
	return false
}

// Result is what a successful heartbeat tells the caller.
type Result struct {
	// Next is when to heartbeat again: the broker's heartbeat interval,
	// or 0 while the member joins or has a reconciliation to acknowledge.
	Next time.Duration
	// Statuses are the group's statuses; empty when all is well. A
	// SHUTDOWN_APPLICATION status asks every member to shut down.
	Statuses []Status
	// TopologyDescriptionRequired: the broker asks for the topology's
	// description (KIP-1331, StreamsGroupTopologyDescriptionUpdate).
	TopologyDescriptionRequired bool
}

// Has reports whether the result carries the status.
func (r Result) Has(c StatusCode) bool {
	return slices.ContainsFunc(r.Statuses, func(s Status) bool { return s.Code == c })
}

// Reconciliation is the step from the tasks a member owns to its target.
// The caller closes Revoke's active tasks (committing them), calls
// Revoked, then opens Target's tasks it does not run yet, closes its
// standbys and warm-ups Target no longer has, and calls Assigned.
type Reconciliation struct {
	// Revoke are the active tasks the member owns that Target does not.
	Revoke []TaskID
	// Target is the assignment to own.
	Target Assignment
	gen    uint64
}

// Member is one member of a streams group (KIP-1071) as Kafka's consumer
// runs it (StreamsMembershipManager and StreamsGroupHeartbeatRequestManager):
// it builds each heartbeat, reads its answer and holds the target
// assignment until the caller has reconciled it. Heartbeat and Leave are
// not called concurrently with each other; the other methods may be
// called from any goroutine.
type Member struct {
	cfg      Config
	memberID string
	now      func() time.Time // the clock of the task offset interval

	sendMu sync.Mutex // serializes Heartbeat and Leave
	coord  coordinator

	mu struct {
		sync.Mutex
		state    state
		epoch    int32
		gen      uint64 // bumped when the member is fenced or leaves
		owned    Assignment
		target   Assignment
		revoked  bool // the current gen's Revoke was released
		fatalErr error
		shutdown bool

		offsets, endOffsets map[TaskID]int64

		heartbeatInterval     time.Duration
		taskOffsetInterval    time.Duration
		acceptableRecoveryLag int64
		endpointInfoEpoch     int32
		byEndpoint            map[Endpoint]EndpointPartitions

		// What the last heartbeat sent, as Kafka's LastSentFields; nil
		// after an error, so that the next heartbeat sends everything.
		sentOwned                   *Assignment
		sentOffsets, sentEndOffsets map[TaskID]int64
		sentOffsetsAt               time.Time // zero: never

		// The topology description push (KIP-1331, describe_push.go):
		// pushRequired from a heartbeat's answer asking for it until the
		// push succeeds or is given up; pushFailures failed pushes in a
		// row; pushNotBefore the end of a backoff or throttle.
		pushRequired  bool
		pushFailures  int
		pushNotBefore time.Time
	}
}

// New returns a member that joins on its first heartbeat, with a member id
// of its own for the process's lifetime.
func New(cfg Config) (*Member, error) {
	if cfg.GroupID == "" {
		return nil, errors.New("streamsgroup: no group id (application.id)")
	}
	if cfg.RebalanceTimeout <= 0 {
		cfg.RebalanceTimeout = 300 * time.Second
	}
	m := &Member{cfg: cfg, memberID: newMemberID(), now: time.Now}
	m.coord.node = -1
	m.mu.state = joining
	m.mu.endpointInfoEpoch = -1
	m.mu.owned.GroupReady = true
	m.mu.target.GroupReady = true
	return m, nil
}

// newMemberID is a random id in the text form of Kafka's Uuid.randomUuid:
// 16 random bytes in unpadded URL-safe base64, never starting with '-'.
func newMemberID() string {
	var b [16]byte
	for {
		rand.Read(b[:])
		if s := base64.RawURLEncoding.EncodeToString(b[:]); !strings.HasPrefix(s, "-") {
			return s
		}
	}
}

// MemberID is the member's id, the same for the member's lifetime.
func (m *Member) MemberID() string { return m.memberID }

// Epoch is the member's epoch: 0 before it joined, the broker's after.
func (m *Member) Epoch() int32 {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.mu.epoch
}

// Owned is the assignment the member reports owning.
func (m *Member) Owned() Assignment {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.mu.owned.clone()
}

// HeartbeatInterval, TaskOffsetInterval and AcceptableRecoveryLag are the
// broker's group.streams.* settings as the last heartbeat gave them.
func (m *Member) HeartbeatInterval() time.Duration {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.mu.heartbeatInterval
}

// TaskOffsetInterval is how often the member reports its task offsets.
func (m *Member) TaskOffsetInterval() time.Duration {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.mu.taskOffsetInterval
}

// AcceptableRecoveryLag is the lag under which a warm-up task is caught up.
func (m *Member) AcceptableRecoveryLag() int64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.mu.acceptableRecoveryLag
}

// PartitionsByEndpoint is where the group's partitions are hosted, for
// interactive-query routing: each endpoint's partitions, the union of the
// entries of the members there, from the last heartbeat that carried them.
func (m *Member) PartitionsByEndpoint() map[Endpoint]EndpointPartitions {
	m.mu.Lock()
	defer m.mu.Unlock()
	return maps.Clone(m.mu.byEndpoint)
}

// SetTaskOffsets records the member's task offsets (the summed changelog
// offsets of each task it has state for) and end offsets (the summed
// changelog end offsets), which heartbeats report every task offset
// interval, when the owned tasks change, or when a warm-up task caught up.
// The maps are the member's from now on.
func (m *Member) SetTaskOffsets(offsets, endOffsets map[TaskID]int64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.mu.offsets, m.mu.endOffsets = offsets, endOffsets
}

// RequestShutdown makes every following heartbeat ask the group to shut
// down all its members (Kafka Streams' SHUTDOWN_APPLICATION).
func (m *Member) RequestShutdown() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.mu.shutdown = true
}

// Pending returns the reconciliation the member waits for, if its owned
// assignment differs from its target.
func (m *Member) Pending() (Reconciliation, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.mu.state != reconciling {
		return Reconciliation{}, false
	}
	r := Reconciliation{Target: m.mu.target.clone(), gen: m.mu.gen}
	if !m.mu.revoked {
		r.Revoke = minus(m.mu.owned.Active, m.mu.target.Active)
	}
	return r, true
}

// Revoked tells the member that the caller released r's revoked tasks: it
// reports them no longer owned from the next heartbeat on.
func (m *Member) Revoked(r Reconciliation) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if r.gen != m.mu.gen || m.mu.state != reconciling {
		return ErrStaleReconciliation
	}
	if len(r.Revoke) > 0 {
		m.mu.owned.Active = minus(m.mu.owned.Active, r.Revoke)
	}
	m.mu.revoked = true
	return nil
}

// Assigned tells the member that the caller runs r.Target: the member owns
// it and the next heartbeat, due at once, says so. A target that changed
// meanwhile is reconciled next, as Kafka's member does.
func (m *Member) Assigned(r Reconciliation) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if r.gen != m.mu.gen || m.mu.state != reconciling {
		return ErrStaleReconciliation
	}
	if len(minus(m.mu.owned.Active, r.Target.Active)) > 0 {
		return ErrNotRevoked
	}
	m.mu.owned = r.Target.clone()
	m.mu.revoked = false
	m.mu.state = acknowledging
	return nil
}

// buildLocked builds the next heartbeat as Kafka's
// StreamsGroupHeartbeatRequestManager.HeartbeatState.buildRequestData.
func (m *Member) buildLocked(now time.Time) *kmsg.StreamsGroupHeartbeatRequest {
	req := kmsg.NewPtrStreamsGroupHeartbeatRequest()
	req.Group = m.cfg.GroupID
	req.MemberID = m.memberID
	req.MemberEpoch = m.mu.epoch
	req.EndpointInformationEpoch = m.mu.endpointInfoEpoch
	if m.cfg.InstanceID != "" {
		req.InstanceID = kmsg.StringPtr(m.cfg.InstanceID)
	}
	if m.mu.state == joining {
		topo := m.cfg.Topology
		req.Topology = &topo
		req.RebalanceTimeoutMillis = int32(m.cfg.RebalanceTimeout.Milliseconds())
		req.ProcessID = kmsg.StringPtr(m.cfg.ProcessID)
		if e := m.cfg.Endpoint; e != nil {
			req.UserEndpoint = &kmsg.StreamsGroupHeartbeatRequestUserEndpoint{Host: e.Host, Port: e.Port}
		}
		if m.cfg.RackID != "" {
			req.RackID = kmsg.StringPtr(m.cfg.RackID)
		}
		req.ClientTags = []kmsg.StreamsGroupHeartbeatRequestClientTag{}
		for _, k := range slices.Sorted(maps.Keys(m.cfg.ClientTags)) {
			tag := kmsg.NewStreamsGroupHeartbeatRequestClientTag()
			tag.Key, tag.Value = k, m.cfg.ClientTags[k]
			req.ClientTags = append(req.ClientTags, tag)
		}
		req.ActiveTasks, req.StandbyTasks, req.WarmupTasks = taskIDsOf(nil), taskIDsOf(nil), taskIDsOf(nil)
		req.TaskOffsets, req.TaskEndOffsets = taskOffsetsOf(m.mu.offsets), taskOffsetsOf(m.mu.endOffsets)
		m.mu.sentOffsets, m.mu.sentEndOffsets, m.mu.sentOffsetsAt = m.mu.offsets, m.mu.endOffsets, now
	} else {
		changed := m.mu.sentOwned == nil || !m.mu.sentOwned.Equal(m.mu.owned)
		if changed {
			req.ActiveTasks = taskIDsOf(m.mu.owned.Active)
			req.StandbyTasks = taskIDsOf(m.mu.owned.Standby)
			req.WarmupTasks = taskIDsOf(m.mu.owned.Warmup)
			owned := m.mu.owned.clone()
			m.mu.sentOwned = &owned
		}
		if changed || m.taskOffsetIntervalPassedLocked(now) || m.hotWarmupLocked() {
			if m.mu.sentOffsets == nil || !maps.Equal(m.mu.offsets, m.mu.sentOffsets) {
				req.TaskOffsets = taskOffsetsOf(m.mu.offsets)
				m.mu.sentOffsets, m.mu.sentOffsetsAt = m.mu.offsets, now
			}
			if m.mu.sentEndOffsets == nil || !maps.Equal(m.mu.endOffsets, m.mu.sentEndOffsets) {
				req.TaskEndOffsets = taskOffsetsOf(m.mu.endOffsets)
				m.mu.sentEndOffsets, m.mu.sentOffsetsAt = m.mu.endOffsets, now
			}
		}
	}
	req.ShutdownApplication = m.mu.shutdown
	return req
}

func (m *Member) taskOffsetIntervalPassedLocked(now time.Time) bool {
	return m.mu.sentOffsetsAt.IsZero() || !m.mu.sentOffsetsAt.Add(m.mu.taskOffsetInterval).After(now)
}

// hotWarmupLocked reports whether a warm-up task the member owns has
// caught up to within the acceptable recovery lag, which Kafka reports at
// once rather than at the next task offset interval.
func (m *Member) hotWarmupLocked() bool {
	for _, t := range m.mu.owned.Warmup {
		off, ok1 := m.mu.offsets[t]
		end, ok2 := m.mu.endOffsets[t]
		const unknown = int64(^uint64(0) >> 1) // Long.MAX_VALUE
		if ok1 && ok2 && off != unknown && end != unknown && end-off <= m.mu.acceptableRecoveryLag {
			return true
		}
	}
	return false
}

// resetSentLocked forgets what was sent, as Kafka's HeartbeatState.reset
// after any failed heartbeat.
func (m *Member) resetSentLocked() {
	m.mu.sentOwned, m.mu.sentOffsets, m.mu.sentEndOffsets = nil, nil, nil
	m.mu.sentOffsetsAt = time.Time{}
}

// Heartbeat sends the member's next heartbeat to the group's coordinator
// and reads its answer. On an error the member's state is as Kafka's
// member leaves it: a *FencedError after a fence (the member dropped its
// tasks and rejoins at epoch 0), a *HeartbeatError of class ErrRetriable
// or ErrFatal otherwise; after a fatal error every call returns it.
func (m *Member) Heartbeat(ctx context.Context, cl *kgo.Client) (Result, error) {
	m.sendMu.Lock()
	defer m.sendMu.Unlock()
	return m.heartbeat(ctx, func(ctx context.Context, req *kmsg.StreamsGroupHeartbeatRequest) (*kmsg.StreamsGroupHeartbeatResponse, error) {
		return m.coord.heartbeat(ctx, cl, m.cfg.GroupID, req)
	})
}

type sendFunc func(context.Context, *kmsg.StreamsGroupHeartbeatRequest) (*kmsg.StreamsGroupHeartbeatResponse, error)

func (m *Member) heartbeat(ctx context.Context, send sendFunc) (Result, error) {
	m.mu.Lock()
	if m.mu.state == fatal {
		err := m.mu.fatalErr
		m.mu.Unlock()
		return Result{}, err
	}
	if m.mu.state == left {
		m.rejoinLocked()
	}
	req := m.buildLocked(m.now())
	if m.mu.state == acknowledging {
		m.mu.state = stable
		if !m.mu.owned.Equal(m.mu.target) {
			m.mu.state = reconciling
		}
	}
	m.mu.Unlock()

	resp, err := send(ctx, req)

	m.mu.Lock()
	defer m.mu.Unlock()
	if err != nil {
		m.resetSentLocked()
		var he *HeartbeatError
		if errors.As(err, &he) {
			if !he.Retriable {
				m.failLocked(he)
			}
			return Result{}, he
		}
		return Result{}, &HeartbeatError{Group: m.cfg.GroupID, Err: err, Retriable: true, Backoff: true,
			Hint: "the coordinator could not be reached; retry after a backoff"}
	}
	if resp.ErrorCode != 0 {
		m.resetSentLocked()
		he := classify(m.cfg.GroupID, resp.ErrorCode, resp.ErrorMessage)
		switch {
		case he.Err == kerr.FencedMemberEpoch || he.Err == kerr.UnknownMemberID:
			lost := m.mu.owned.clone()
			m.rejoinLocked()
			return Result{}, &FencedError{HeartbeatError: *he, Lost: lost}
		case !he.Retriable:
			m.failLocked(he)
		}
		return Result{}, he
	}
	return m.onSuccessLocked(resp)
}

// onSuccessLocked reads an answer without error, as Kafka's
// onSuccessResponse and StreamsMembershipManager.onHeartbeatSuccess.
func (m *Member) onSuccessLocked(resp *kmsg.StreamsGroupHeartbeatResponse) (Result, error) {
	m.mu.heartbeatInterval = time.Duration(resp.HeartbeatIntervalMillis) * time.Millisecond
	m.mu.taskOffsetInterval = time.Duration(resp.TaskOffsetIntervalMillis) * time.Millisecond
	m.mu.acceptableRecoveryLag = resp.AcceptableRecoveryLag
	if resp.Version < 1 {
		m.mu.acceptableRecoveryLag = int64(resp.AcceptableRecoveryLagLegacy)
	}
	m.mu.endpointInfoEpoch = resp.EndpointInformationEpoch
	if resp.PartitionsByUserEndpoint != nil {
		m.mu.byEndpoint = partitionsByEndpoint(resp.PartitionsByUserEndpoint)
	}
	res := Result{Next: m.mu.heartbeatInterval, TopologyDescriptionRequired: resp.TopologyDescriptionRequired}
	if resp.TopologyDescriptionRequired && m.cfg.TopologyDescription != nil {
		// As Kafka's heartbeat manager, only a member with a description
		// to push takes the request up; it stays until the push ends.
		m.mu.pushRequired = true
	}
	ready := true
	for _, s := range resp.Status {
		c := StatusCode(s.StatusCode)
		res.Statuses = append(res.Statuses, Status{Code: c, Detail: s.StatusDetail})
		if c.stopsProcessing() {
			ready = false
		}
	}
	if resp.MemberEpoch < 0 {
		return res, nil // the answer to a leave
	}
	m.mu.epoch = resp.MemberEpoch
	if m.mu.state == joining {
		m.mu.state = stable
	}
	a, s, w := resp.ActiveTasks, resp.StandbyTasks, resp.WarmupTasks
	switch {
	case a != nil && s != nil && w != nil:
		m.newTargetLocked(Assignment{Active: tasksFrom(a), Standby: tasksFrom(s), Warmup: tasksFrom(w), GroupReady: ready})
	case a != nil || s != nil || w != nil:
		he := &HeartbeatError{Group: m.cfg.GroupID, Err: kerr.InvalidRequest, Backoff: true,
			Hint: "the broker's answer has some task lists but not all; they must be all null or all non-null"}
		m.failLocked(he)
		return Result{}, he
	case ready != m.mu.target.GroupReady:
		t := m.mu.target.clone()
		t.GroupReady = ready
		m.newTargetLocked(t)
	}
	if m.mu.state == reconciling || m.mu.state == acknowledging {
		res.Next = 0
	}
	return res, nil
}

func (m *Member) newTargetLocked(t Assignment) {
	if !t.Equal(m.mu.target) {
		m.mu.target = t
		m.mu.revoked = false
	}
	switch {
	case !m.mu.owned.Equal(m.mu.target):
		m.mu.state = reconciling
	case m.mu.state == reconciling:
		m.mu.state = stable
	}
}

// rejoinLocked drops the member's tasks and target and makes the next
// heartbeat join at epoch 0 with its topology.
func (m *Member) rejoinLocked() {
	m.mu.state = joining
	m.mu.epoch = JoinEpoch
	m.mu.gen++
	m.mu.owned = Assignment{GroupReady: true}
	m.mu.target = Assignment{GroupReady: true}
	m.mu.revoked = false
	m.mu.pushRequired = false
	m.resetSentLocked()
}

func (m *Member) failLocked(he *HeartbeatError) {
	he.Retriable = false
	m.mu.state = fatal
	m.mu.fatalErr = he
	m.mu.gen++
	m.mu.pushRequired = false
}

// Leave sends the heartbeat that leaves the group: epoch -1, or -2 for a
// static member, whose tasks the group keeps for it until its session
// times out. The caller has closed the member's tasks first. The member
// owns nothing after it; a later Heartbeat rejoins at epoch 0. The leave
// is sent once, as Kafka sends it: an error is returned but the member has
// left all the same.
func (m *Member) Leave(ctx context.Context, cl *kgo.Client) error {
	return m.leaveWith(ctx, cl, m.cfg.InstanceID != "")
}

// LeaveGroup leaves the group as Leave does, but at epoch -1 for a static
// member too, which the group then forgets at once, its tasks going to the
// other members (a close that leaves the group, Kafka Streams'
// CloseOptions.GroupMembershipOperation.LEAVE_GROUP).
func (m *Member) LeaveGroup(ctx context.Context, cl *kgo.Client) error {
	return m.leaveWith(ctx, cl, false)
}

func (m *Member) leaveWith(ctx context.Context, cl *kgo.Client, static bool) error {
	m.sendMu.Lock()
	defer m.sendMu.Unlock()
	send := func(ctx context.Context, req *kmsg.StreamsGroupHeartbeatRequest) (*kmsg.StreamsGroupHeartbeatResponse, error) {
		return m.coord.heartbeat(ctx, cl, m.cfg.GroupID, req)
	}
	if static {
		return m.leave(ctx, send)
	}
	return m.leaveAt(ctx, send, LeaveEpoch)
}

func (m *Member) leave(ctx context.Context, send sendFunc) error {
	if m.cfg.InstanceID != "" {
		return m.leaveAt(ctx, send, StaticLeaveEpoch)
	}
	return m.leaveAt(ctx, send, LeaveEpoch)
}

func (m *Member) leaveAt(ctx context.Context, send sendFunc, epoch int32) error {
	m.mu.Lock()
	if m.mu.state == fatal || m.mu.state == left {
		m.mu.Unlock()
		return nil
	}
	m.mu.owned = Assignment{GroupReady: true}
	m.mu.target = Assignment{GroupReady: true}
	m.mu.state = stable // built as a member in the group, not a joining one
	req := m.buildLocked(m.now())
	req.MemberEpoch = epoch
	m.mu.state = left
	m.mu.epoch = JoinEpoch
	m.mu.gen++
	m.mu.pushRequired = false
	m.resetSentLocked()
	m.mu.Unlock()

	resp, err := send(ctx, req)
	if err != nil {
		return fmt.Errorf("streamsgroup: leaving group %s: %w", m.cfg.GroupID, err)
	}
	if resp.ErrorCode != 0 {
		return classify(m.cfg.GroupID, resp.ErrorCode, resp.ErrorMessage)
	}
	return nil
}

// partitionsByEndpoint unions the entries of each endpoint: the broker
// sends one per member, and members may share an endpoint.
func partitionsByEndpoint(entries []kmsg.StreamsGroupHeartbeatResponsePartitionsByUserEndpoint) map[Endpoint]EndpointPartitions {
	type sets struct{ active, standby map[TopicPartition]struct{} }
	all := map[Endpoint]*sets{}
	for _, e := range entries {
		ep := Endpoint{Host: e.UserEndpoint.Host, Port: e.UserEndpoint.Port}
		s := all[ep]
		if s == nil {
			s = &sets{map[TopicPartition]struct{}{}, map[TopicPartition]struct{}{}}
			all[ep] = s
		}
		for _, tp := range e.ActivePartitions {
			for _, p := range tp.Partitions {
				s.active[TopicPartition{tp.Topic, p}] = struct{}{}
			}
		}
		for _, tp := range e.StandbyPartitions {
			for _, p := range tp.Partitions {
				s.standby[TopicPartition{tp.Topic, p}] = struct{}{}
			}
		}
	}
	out := make(map[Endpoint]EndpointPartitions, len(all))
	for ep, s := range all {
		out[ep] = EndpointPartitions{Active: sortedPartitions(s.active), Standby: sortedPartitions(s.standby)}
	}
	return out
}

func sortedPartitions(set map[TopicPartition]struct{}) []TopicPartition {
	out := slices.Collect(maps.Keys(set))
	slices.SortFunc(out, func(a, b TopicPartition) int {
		if c := strings.Compare(a.Topic, b.Topic); c != 0 {
			return c
		}
		return int(a.Partition) - int(b.Partition)
	})
	return out
}
