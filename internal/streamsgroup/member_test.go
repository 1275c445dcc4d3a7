package streamsgroup

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// fakeCoordinator answers heartbeats from a script and keeps what it was
// sent.
type fakeCoordinator struct {
	t     *testing.T
	sent  []*kmsg.StreamsGroupHeartbeatRequest
	reply func(req *kmsg.StreamsGroupHeartbeatRequest) *kmsg.StreamsGroupHeartbeatResponse
}

func (f *fakeCoordinator) send(_ context.Context, req *kmsg.StreamsGroupHeartbeatRequest) (*kmsg.StreamsGroupHeartbeatResponse, error) {
	f.sent = append(f.sent, req)
	return f.reply(req), nil
}

func (f *fakeCoordinator) last() *kmsg.StreamsGroupHeartbeatRequest { return f.sent[len(f.sent)-1] }

func testTopology() kmsg.StreamsGroupHeartbeatRequestTopology {
	topo := kmsg.NewStreamsGroupHeartbeatRequestTopology()
	st := kmsg.NewStreamsGroupHeartbeatRequestTopologySubtopology()
	st.SubtopologyID = "0"
	st.SourceTopics = []string{"input"}
	topo.Subtopologies = append(topo.Subtopologies, st)
	return topo
}

func newTestMember(t *testing.T, cfg Config) (*Member, *time.Time) {
	t.Helper()
	cfg.GroupID = "app"
	cfg.Topology = testTopology()
	cfg.ProcessID = "6f7a3b1e-0000-4000-8000-000000000001"
	m, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Unix(1000, 0)
	m.now = func() time.Time { return now }
	return m, &now
}

// answer is a successful response at epoch with the given active tasks
// (nil: no new target).
func answer(epoch int32, active ...TaskID) *kmsg.StreamsGroupHeartbeatResponse {
	resp := kmsg.NewPtrStreamsGroupHeartbeatResponse()
	resp.Version = 1
	resp.MemberEpoch = epoch
	resp.HeartbeatIntervalMillis = 5000
	resp.TaskOffsetIntervalMillis = 60000
	resp.AcceptableRecoveryLag = 10000
	if active != nil {
		resp.ActiveTasks = taskIDsOf(active)
		resp.StandbyTasks = []kmsg.TaskIDs{}
		resp.WarmupTasks = []kmsg.TaskIDs{}
	}
	return resp
}

func failed(err *kerr.Error) *kmsg.StreamsGroupHeartbeatResponse {
	resp := kmsg.NewPtrStreamsGroupHeartbeatResponse()
	resp.Version = 1
	resp.ErrorCode = err.Code
	resp.ErrorMessage = kmsg.StringPtr("from the fake")
	return resp
}

func task(st string, p int32) TaskID { return TaskID{Subtopology: st, Partition: p} }

// reconcile runs the member's pending reconciliation as a runtime would.
func reconcile(t *testing.T, m *Member) Reconciliation {
	t.Helper()
	r, ok := m.Pending()
	if !ok {
		t.Fatal("no reconciliation pending")
	}
	if err := m.Revoked(r); err != nil {
		t.Fatal(err)
	}
	if err := m.Assigned(r); err != nil {
		t.Fatal(err)
	}
	return r
}

func TestJoinSendsTopologyOnlyAtEpochZero(t *testing.T) {
	m, _ := newTestMember(t, Config{RackID: "rack-a", RebalanceTimeout: 5 * time.Minute,
		Endpoint: &Endpoint{Host: "h", Port: 8080}, ClientTags: map[string]string{"zone": "z1", "az": "a"}})
	f := &fakeCoordinator{t: t, reply: func(*kmsg.StreamsGroupHeartbeatRequest) *kmsg.StreamsGroupHeartbeatResponse {
		return answer(1, task("0", 0))
	}}
	res, err := m.heartbeat(context.Background(), f.send)
	if err != nil {
		t.Fatal(err)
	}
	join := f.last()
	if join.MemberEpoch != 0 || join.Topology == nil || join.MemberID != m.MemberID() || join.MemberID == "" {
		t.Fatalf("join: epoch %d, topology %v, member %q", join.MemberEpoch, join.Topology, join.MemberID)
	}
	if join.RebalanceTimeoutMillis != 300000 || *join.ProcessID != m.cfg.ProcessID || *join.RackID != "rack-a" ||
		join.UserEndpoint.Host != "h" || join.UserEndpoint.Port != 8080 || join.EndpointInformationEpoch != -1 {
		t.Fatalf("join fields: %+v", join)
	}
	if len(join.ClientTags) != 2 || join.ClientTags[0].Key != "az" {
		t.Fatalf("client tags %+v, want sorted by key", join.ClientTags)
	}
	if join.ActiveTasks == nil || len(join.ActiveTasks) != 0 || join.StandbyTasks == nil || join.WarmupTasks == nil {
		t.Fatal("a join must send empty (not null) task lists")
	}
	if res.Next != 0 {
		t.Fatalf("Next = %v with a target to reconcile, want 0", res.Next)
	}
	reconcile(t, m)

	if _, err := m.heartbeat(context.Background(), f.send); err != nil {
		t.Fatal(err)
	}
	ack := f.last()
	if ack.MemberEpoch != 1 || ack.Topology != nil || ack.ProcessID != nil || ack.UserEndpoint != nil ||
		ack.RackID != nil || ack.ClientTags != nil || ack.RebalanceTimeoutMillis != -1 {
		t.Fatalf("after the join: %+v", ack)
	}
	if !reflect.DeepEqual(tasksFrom(ack.ActiveTasks), []TaskID{task("0", 0)}) {
		t.Fatalf("acknowledged %v", ack.ActiveTasks)
	}
	if m.Epoch() != 1 || m.HeartbeatInterval() != 5*time.Second || m.TaskOffsetInterval() != time.Minute || m.AcceptableRecoveryLag() != 10000 {
		t.Fatal("the broker's settings were not kept")
	}
}

func TestOwnedTasksAndOffsetsSentOnlyWhenChanged(t *testing.T) {
	m, now := newTestMember(t, Config{InstanceID: "i-1"})
	f := &fakeCoordinator{t: t, reply: func(*kmsg.StreamsGroupHeartbeatRequest) *kmsg.StreamsGroupHeartbeatResponse {
		return answer(1)
	}}
	offs := map[TaskID]int64{task("0", 0): 5}
	m.SetTaskOffsets(offs, map[TaskID]int64{task("0", 0): 50})
	hb := func() *kmsg.StreamsGroupHeartbeatRequest {
		t.Helper()
		if _, err := m.heartbeat(context.Background(), f.send); err != nil {
			t.Fatal(err)
		}
		return f.last()
	}
	join := hb()
	if len(join.TaskOffsets) != 1 || len(join.TaskEndOffsets) != 1 || *join.InstanceID != "i-1" {
		t.Fatalf("join: offsets %v / %v, instance %v", join.TaskOffsets, join.TaskEndOffsets, join.InstanceID)
	}
	second := hb()
	if second.ActiveTasks == nil || second.TaskOffsets != nil {
		t.Fatalf("second heartbeat: owned tasks never sent outside a join go once (%v); offsets unchanged stay out (%v)", second.ActiveTasks, second.TaskOffsets)
	}
	third := hb()
	if third.ActiveTasks != nil || third.StandbyTasks != nil || third.WarmupTasks != nil || third.TaskOffsets != nil || third.TaskEndOffsets != nil {
		t.Fatalf("unchanged: %+v", third)
	}
	if *third.InstanceID != "i-1" || third.MemberEpoch != 1 || third.ShutdownApplication {
		t.Fatalf("every heartbeat carries instance id and epoch: %+v", third)
	}
	m.SetTaskOffsets(map[TaskID]int64{task("0", 0): 6}, map[TaskID]int64{task("0", 0): 50})
	if r := hb(); r.TaskOffsets != nil {
		t.Fatal("changed offsets were sent before the task offset interval passed")
	}
	*now = now.Add(time.Minute)
	r := hb()
	if len(r.TaskOffsets) != 1 || r.TaskOffsets[0].Offset != 6 || r.TaskEndOffsets != nil {
		t.Fatalf("after the interval: offsets %v, end offsets %v (unchanged: null)", r.TaskOffsets, r.TaskEndOffsets)
	}
	m.RequestShutdown()
	if r := hb(); !r.ShutdownApplication {
		t.Fatal("no shutdown flag")
	}

	// After a failed heartbeat everything goes again.
	f.reply = func(*kmsg.StreamsGroupHeartbeatRequest) *kmsg.StreamsGroupHeartbeatResponse {
		return failed(kerr.CoordinatorLoadInProgress)
	}
	if _, err := m.heartbeat(context.Background(), f.send); !errors.Is(err, ErrRetriable) {
		t.Fatalf("COORDINATOR_LOAD_IN_PROGRESS: %v", err)
	}
	f.reply = func(*kmsg.StreamsGroupHeartbeatRequest) *kmsg.StreamsGroupHeartbeatResponse { return answer(1) }
	if r := hb(); r.ActiveTasks == nil || r.TaskOffsets == nil || r.TaskEndOffsets == nil {
		t.Fatalf("after an error: %+v", r)
	}
}

func TestHotWarmupSendsOffsetsAtOnce(t *testing.T) {
	m, _ := newTestMember(t, Config{})
	f := &fakeCoordinator{t: t, reply: func(*kmsg.StreamsGroupHeartbeatRequest) *kmsg.StreamsGroupHeartbeatResponse {
		resp := answer(1)
		resp.ActiveTasks, resp.StandbyTasks, resp.WarmupTasks = []kmsg.TaskIDs{}, []kmsg.TaskIDs{}, taskIDsOf([]TaskID{task("0", 1)})
		return resp
	}}
	m.SetTaskOffsets(map[TaskID]int64{task("0", 1): 0}, map[TaskID]int64{task("0", 1): 50000})
	if _, err := m.heartbeat(context.Background(), f.send); err != nil {
		t.Fatal(err)
	}
	reconcile(t, m)
	if _, err := m.heartbeat(context.Background(), f.send); err != nil {
		t.Fatal(err)
	}
	m.SetTaskOffsets(map[TaskID]int64{task("0", 1): 45000}, map[TaskID]int64{task("0", 1): 50000})
	if _, err := m.heartbeat(context.Background(), f.send); err != nil {
		t.Fatal(err)
	}
	if r := f.last(); len(r.TaskOffsets) != 1 || r.TaskOffsets[0].Offset != 45000 {
		t.Fatalf("a warm-up within the acceptable recovery lag: offsets %v", r.TaskOffsets)
	}
}

func TestRevokeBeforeAssign(t *testing.T) {
	m, _ := newTestMember(t, Config{})
	target := []TaskID{task("0", 0), task("0", 1)}
	f := &fakeCoordinator{t: t, reply: func(*kmsg.StreamsGroupHeartbeatRequest) *kmsg.StreamsGroupHeartbeatResponse {
		return answer(1, target...)
	}}
	if _, err := m.heartbeat(context.Background(), f.send); err != nil {
		t.Fatal(err)
	}
	if r := reconcile(t, m); len(r.Revoke) != 0 {
		t.Fatalf("nothing to revoke on the first assignment: %v", r.Revoke)
	}
	if _, err := m.heartbeat(context.Background(), f.send); err != nil {
		t.Fatal(err)
	}

	// The broker moves 0_1 away and gives 1_0.
	target = []TaskID{task("0", 0), task("1", 0)}
	f.reply = func(*kmsg.StreamsGroupHeartbeatRequest) *kmsg.StreamsGroupHeartbeatResponse {
		return answer(2, target...)
	}
	if _, err := m.heartbeat(context.Background(), f.send); err != nil {
		t.Fatal(err)
	}
	r, ok := m.Pending()
	if !ok || !reflect.DeepEqual(r.Revoke, []TaskID{task("0", 1)}) {
		t.Fatalf("Pending: %v %v", r, ok)
	}
	if err := m.Assigned(r); !errors.Is(err, ErrNotRevoked) {
		t.Fatalf("Assigned before Revoked: %v", err)
	}
	// Not revoked yet: still reported owned (unchanged, so not sent).
	f.reply = func(*kmsg.StreamsGroupHeartbeatRequest) *kmsg.StreamsGroupHeartbeatResponse { return answer(2) }
	if _, err := m.heartbeat(context.Background(), f.send); err != nil {
		t.Fatal(err)
	}
	if f.last().ActiveTasks != nil || !reflect.DeepEqual(m.Owned().Active, []TaskID{task("0", 0), task("0", 1)}) {
		t.Fatalf("before Revoked: sent %v, owned %v", f.last().ActiveTasks, m.Owned().Active)
	}
	if err := m.Revoked(r); err != nil {
		t.Fatal(err)
	}
	if _, err := m.heartbeat(context.Background(), f.send); err != nil {
		t.Fatal(err)
	}
	if got := tasksFrom(f.last().ActiveTasks); !reflect.DeepEqual(got, []TaskID{task("0", 0)}) {
		t.Fatalf("after Revoked the member reports %v", got)
	}
	r2, ok := m.Pending()
	if !ok || len(r2.Revoke) != 0 {
		t.Fatalf("after Revoked: %v %v", r2, ok)
	}
	if err := m.Assigned(r2); err != nil {
		t.Fatal(err)
	}
	res, err := m.heartbeat(context.Background(), f.send)
	if err != nil {
		t.Fatal(err)
	}
	if got := tasksFrom(f.last().ActiveTasks); !reflect.DeepEqual(got, target) {
		t.Fatalf("after Assigned the member reports %v, want %v", got, target)
	}
	if _, ok := m.Pending(); ok || res.Next != 5*time.Second {
		t.Fatalf("reconciled: pending %v, next %v", ok, res.Next)
	}
}

func TestFencedOrUnknownRejoinsAtEpochZero(t *testing.T) {
	for _, code := range []*kerr.Error{kerr.FencedMemberEpoch, kerr.UnknownMemberID} {
		t.Run(code.Message, func(t *testing.T) {
			m, _ := newTestMember(t, Config{})
			f := &fakeCoordinator{t: t, reply: func(*kmsg.StreamsGroupHeartbeatRequest) *kmsg.StreamsGroupHeartbeatResponse {
				return answer(3, task("0", 0))
			}}
			if _, err := m.heartbeat(context.Background(), f.send); err != nil {
				t.Fatal(err)
			}
			stale := reconcile(t, m)
			f.reply = func(*kmsg.StreamsGroupHeartbeatRequest) *kmsg.StreamsGroupHeartbeatResponse { return failed(code) }
			_, err := m.heartbeat(context.Background(), f.send)
			var fe *FencedError
			if !errors.As(err, &fe) || !errors.Is(err, ErrFenced) || !errors.Is(err, ErrRetriable) || !errors.Is(err, code) {
				t.Fatalf("error %v", err)
			}
			if !reflect.DeepEqual(fe.Lost.Active, []TaskID{task("0", 0)}) || len(m.Owned().Active) != 0 {
				t.Fatalf("lost %v, still owned %v", fe.Lost.Active, m.Owned().Active)
			}
			if err := m.Assigned(stale); !errors.Is(err, ErrStaleReconciliation) {
				t.Fatalf("a reconciliation from before the fence: %v", err)
			}
			f.reply = func(*kmsg.StreamsGroupHeartbeatRequest) *kmsg.StreamsGroupHeartbeatResponse { return answer(4) }
			id := m.MemberID()
			if _, err := m.heartbeat(context.Background(), f.send); err != nil {
				t.Fatal(err)
			}
			rejoin := f.last()
			if rejoin.MemberEpoch != 0 || rejoin.Topology == nil || len(rejoin.ActiveTasks) != 0 || rejoin.ActiveTasks == nil || rejoin.MemberID != id {
				t.Fatalf("rejoin: %+v", rejoin)
			}
		})
	}
}

func TestLeaveEpochs(t *testing.T) {
	for _, c := range []struct {
		instance string
		epoch    int32
		forGood  bool // LeaveGroup
	}{{"", LeaveEpoch, false}, {"static-1", StaticLeaveEpoch, false}, {"", LeaveEpoch, true}, {"static-1", LeaveEpoch, true}} {
		m, _ := newTestMember(t, Config{InstanceID: c.instance})
		f := &fakeCoordinator{t: t, reply: func(req *kmsg.StreamsGroupHeartbeatRequest) *kmsg.StreamsGroupHeartbeatResponse {
			if req.MemberEpoch < 0 {
				return answer(req.MemberEpoch)
			}
			return answer(1, task("0", 0))
		}}
		if _, err := m.heartbeat(context.Background(), f.send); err != nil {
			t.Fatal(err)
		}
		reconcile(t, m)
		leave := m.leave
		if c.forGood {
			leave = func(ctx context.Context, send sendFunc) error { return m.leaveAt(ctx, send, LeaveEpoch) }
		}
		if err := leave(context.Background(), f.send); err != nil {
			t.Fatal(err)
		}
		l := f.last()
		if l.MemberEpoch != c.epoch || l.Topology != nil || l.ActiveTasks == nil || len(l.ActiveTasks) != 0 {
			t.Fatalf("instance %q: leave %+v", c.instance, l)
		}
		if c.instance != "" && *l.InstanceID != c.instance {
			t.Fatalf("static leave without its instance id")
		}
		if _, err := m.heartbeat(context.Background(), f.send); err != nil {
			t.Fatal(err)
		}
		if r := f.last(); r.MemberEpoch != 0 || r.Topology == nil {
			t.Fatalf("a heartbeat after Leave rejoins: %+v", r)
		}
	}
}

func TestErrorClasses(t *testing.T) {
	fatalCodes := []*kerr.Error{kerr.UnreleasedInstanceID, kerr.GroupMaxSizeReached, kerr.StreamsInvalidTopology,
		kerr.StreamsInvalidTopologyEpoch, kerr.StreamsTopologyFenced, kerr.GroupIDNotFound, kerr.GroupAuthorizationFailed,
		kerr.UnsupportedVersion, kerr.InvalidRequest}
	retriable := []*kerr.Error{kerr.NotCoordinator, kerr.CoordinatorNotAvailable, kerr.CoordinatorLoadInProgress, kerr.TopicAuthorizationFailed}
	for _, code := range append(fatalCodes, retriable...) {
		m, _ := newTestMember(t, Config{})
		f := &fakeCoordinator{t: t, reply: func(*kmsg.StreamsGroupHeartbeatRequest) *kmsg.StreamsGroupHeartbeatResponse { return failed(code) }}
		_, err := m.heartbeat(context.Background(), f.send)
		var he *HeartbeatError
		if !errors.As(err, &he) || !errors.Is(err, code) || he.Hint == "" || he.Message != "from the fake" {
			t.Fatalf("%s: %v", code.Message, err)
		}
		wantFatal := !slicesContains(retriable, code)
		if errors.Is(err, ErrFatal) != wantFatal || errors.Is(err, ErrRetriable) == wantFatal {
			t.Fatalf("%s: fatal %v, want %v", code.Message, errors.Is(err, ErrFatal), wantFatal)
		}
		n := len(f.sent)
		_, again := m.heartbeat(context.Background(), f.send)
		if wantFatal && (len(f.sent) != n || !errors.Is(again, code)) {
			t.Fatalf("%s: a fatal member heartbeated again (%v)", code.Message, again)
		}
		if !wantFatal && len(f.sent) != n+1 {
			t.Fatalf("%s: a retriable error stopped the heartbeats", code.Message)
		}
		if !wantFatal && f.last().Topology == nil {
			t.Fatalf("%s: a member not yet joined resends its topology", code.Message)
		}
	}
}

func slicesContains(list []*kerr.Error, e *kerr.Error) bool {
	for _, x := range list {
		if x == e {
			return true
		}
	}
	return false
}

func TestStatusesAndGroupReadiness(t *testing.T) {
	m, _ := newTestMember(t, Config{})
	statuses := []int8{int8(StatusMissingSourceTopics), int8(StatusShutdownApplication)}
	f := &fakeCoordinator{t: t, reply: func(*kmsg.StreamsGroupHeartbeatRequest) *kmsg.StreamsGroupHeartbeatResponse {
		resp := answer(1, task("0", 0))
		for _, s := range statuses {
			resp.Status = append(resp.Status, kmsg.StreamsGroupHeartbeatResponseStatus{StatusCode: s, StatusDetail: "detail"})
		}
		resp.TopologyDescriptionRequired = true
		return resp
	}}
	res, err := m.heartbeat(context.Background(), f.send)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Has(StatusMissingSourceTopics) || !res.Has(StatusShutdownApplication) || res.Has(StatusStaleTopology) || !res.TopologyDescriptionRequired {
		t.Fatalf("statuses %v", res.Statuses)
	}
	if r := reconcile(t, m); r.Target.GroupReady {
		t.Fatal("MISSING_SOURCE_TOPICS leaves the group not ready")
	}
	if _, err := m.heartbeat(context.Background(), f.send); err != nil {
		t.Fatal(err)
	}
	// The statuses clear without a new target: the readiness alone is
	// reconciled.
	statuses = nil
	f.reply = func(*kmsg.StreamsGroupHeartbeatRequest) *kmsg.StreamsGroupHeartbeatResponse { return answer(1) }
	if _, err := m.heartbeat(context.Background(), f.send); err != nil {
		t.Fatal(err)
	}
	r, ok := m.Pending()
	if !ok || !r.Target.GroupReady || !reflect.DeepEqual(r.Target.Active, []TaskID{task("0", 0)}) {
		t.Fatalf("readiness change: %+v %v", r, ok)
	}
	for c := StatusStaleTopology; c <= StatusMissingClientTags; c++ {
		if c.String() == "" || c.String()[:7] == "STATUS_" {
			t.Fatalf("status %d has no name", c)
		}
	}
}

func TestPartitionsByEndpointUnionsMembers(t *testing.T) {
	m, _ := newTestMember(t, Config{})
	ep := func(host string, port uint16, active ...int32) kmsg.StreamsGroupHeartbeatResponsePartitionsByUserEndpoint {
		e := kmsg.NewStreamsGroupHeartbeatResponsePartitionsByUserEndpoint()
		e.UserEndpoint.Host, e.UserEndpoint.Port = host, port
		e.ActivePartitions = []kmsg.StreamsGroupHeartbeatResponsePartitionsByUserEndpointActivePartition{{Topic: "input", Partitions: active}}
		return e
	}
	f := &fakeCoordinator{t: t, reply: func(*kmsg.StreamsGroupHeartbeatRequest) *kmsg.StreamsGroupHeartbeatResponse {
		resp := answer(1)
		resp.EndpointInformationEpoch = 7
		resp.PartitionsByUserEndpoint = append(resp.PartitionsByUserEndpoint, ep("a", 1, 2, 0), ep("a", 1, 1), ep("b", 2, 3))
		return resp
	}}
	if _, err := m.heartbeat(context.Background(), f.send); err != nil {
		t.Fatal(err)
	}
	got := m.PartitionsByEndpoint()
	want := map[Endpoint]EndpointPartitions{
		{"a", 1}: {Active: []TopicPartition{{"input", 0}, {"input", 1}, {"input", 2}}},
		{"b", 2}: {Active: []TopicPartition{{"input", 3}}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	f.reply = func(*kmsg.StreamsGroupHeartbeatRequest) *kmsg.StreamsGroupHeartbeatResponse { return answer(1) }
	if _, err := m.heartbeat(context.Background(), f.send); err != nil {
		t.Fatal(err)
	}
	if f.last().EndpointInformationEpoch != 7 || len(m.PartitionsByEndpoint()) != 2 {
		t.Fatal("the endpoint information epoch is sent back, and a null answer keeps the last map")
	}
}

// TestCoordinatorMovesMidReconciliation: the group's coordinator moves
// (NOT_COORDINATOR, COORDINATOR_NOT_AVAILABLE) while the member reconciles
// a target, before and after it released the revoked tasks. The member
// keeps its epoch and its reconciliation, and its next heartbeat, to the
// new coordinator, sends every field again (as Kafka's heartbeat state
// resets on a failure) that a member past its join sends, owned tasks
// included, so that the new coordinator learns what it released.
func TestCoordinatorMovesMidReconciliation(t *testing.T) {
	for _, moved := range []*kerr.Error{kerr.NotCoordinator, kerr.CoordinatorNotAvailable} {
		for _, afterRevoke := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s, after the revocation %v", moved.Message, afterRevoke), func(t *testing.T) {
				m, _ := newTestMember(t, Config{})
				target := []TaskID{task("0", 0), task("0", 1)}
				f := &fakeCoordinator{t: t, reply: func(*kmsg.StreamsGroupHeartbeatRequest) *kmsg.StreamsGroupHeartbeatResponse {
					return answer(1, target...)
				}}
				if _, err := m.heartbeat(context.Background(), f.send); err != nil {
					t.Fatal(err)
				}
				reconcile(t, m)
				if _, err := m.heartbeat(context.Background(), f.send); err != nil {
					t.Fatal(err)
				}

				// A new target moves 0_1 away; the coordinator moves then.
				target = []TaskID{task("0", 0), task("1", 0)}
				f.reply = func(*kmsg.StreamsGroupHeartbeatRequest) *kmsg.StreamsGroupHeartbeatResponse {
					return answer(2, target...)
				}
				if _, err := m.heartbeat(context.Background(), f.send); err != nil {
					t.Fatal(err)
				}
				r, ok := m.Pending()
				if !ok || !reflect.DeepEqual(r.Revoke, []TaskID{task("0", 1)}) {
					t.Fatalf("Pending: %v %v", r, ok)
				}
				if afterRevoke {
					if err := m.Revoked(r); err != nil {
						t.Fatal(err)
					}
				}
				f.reply = func(*kmsg.StreamsGroupHeartbeatRequest) *kmsg.StreamsGroupHeartbeatResponse { return failed(moved) }
				_, err := m.heartbeat(context.Background(), f.send)
				var he *HeartbeatError
				if !errors.As(err, &he) || !errors.Is(err, ErrRetriable) || he.Backoff {
					t.Fatalf("the coordinator moved: %v (want retriable at once)", err)
				}
				if m.Epoch() != 2 {
					t.Fatalf("epoch %d after the coordinator moved, want 2 kept", m.Epoch())
				}

				// The new coordinator answers with no new target.
				f.reply = func(*kmsg.StreamsGroupHeartbeatRequest) *kmsg.StreamsGroupHeartbeatResponse { return answer(2) }
				if _, err := m.heartbeat(context.Background(), f.send); err != nil {
					t.Fatal(err)
				}
				sent := f.last()
				wantOwned := []TaskID{task("0", 0), task("0", 1)}
				if afterRevoke {
					wantOwned = []TaskID{task("0", 0)}
				}
				if sent.MemberEpoch != 2 || sent.ActiveTasks == nil || !reflect.DeepEqual(tasksFrom(sent.ActiveTasks), wantOwned) ||
					sent.StandbyTasks == nil || sent.WarmupTasks == nil {
					t.Fatalf("first heartbeat to the new coordinator: epoch %d, active %v (want %v sent again), standby %v, warm-up %v",
						sent.MemberEpoch, sent.ActiveTasks, wantOwned, sent.StandbyTasks, sent.WarmupTasks)
				}
				r2, ok := m.Pending()
				if !ok || !reflect.DeepEqual(r2.Target.Active, target) {
					t.Fatalf("the reconciliation after the move: %v %v, want target %v", r2, ok, target)
				}
				if !afterRevoke {
					if err := m.Revoked(r2); err != nil {
						t.Fatal(err)
					}
				}
				if err := m.Assigned(r2); err != nil {
					t.Fatal(err)
				}
				if _, err := m.heartbeat(context.Background(), f.send); err != nil {
					t.Fatal(err)
				}
				if got := tasksFrom(f.last().ActiveTasks); !reflect.DeepEqual(got, target) {
					t.Fatalf("reconciled after the move: the member reports %v, want %v", got, target)
				}
			})
		}
	}
}
