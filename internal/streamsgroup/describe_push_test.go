package streamsgroup

import (
	"context"
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// The tests below port Kafka 4.4's
// StreamsGroupTopologyDescriptionRequestManagerTest (and the heartbeat
// manager's handling of TopologyDescriptionRequired) to a Member.

// fakePushes answers topology description pushes from a script and keeps
// what it was sent.
type fakePushes struct {
	sent  []*kmsg.StreamsGroupTopologyDescriptionUpdateRequest
	reply func() (*kmsg.StreamsGroupTopologyDescriptionUpdateResponse, error)
}

func (f *fakePushes) send(_ context.Context, req *kmsg.StreamsGroupTopologyDescriptionUpdateRequest) (*kmsg.StreamsGroupTopologyDescriptionUpdateResponse, error) {
	f.sent = append(f.sent, req)
	return f.reply()
}

func pushAnswer(err *kerr.Error, throttleMillis int32) func() (*kmsg.StreamsGroupTopologyDescriptionUpdateResponse, error) {
	return func() (*kmsg.StreamsGroupTopologyDescriptionUpdateResponse, error) {
		resp := kmsg.NewPtrStreamsGroupTopologyDescriptionUpdateResponse()
		resp.ThrottleMillis = throttleMillis
		if err != nil {
			resp.ErrorCode = err.Code
			resp.ErrorMessage = kmsg.StringPtr("from the fake")
		}
		return resp, nil
	}
}

func testDescription() *kmsg.TopologyDescription {
	d := kmsg.NewTopologyDescription()
	st := kmsg.NewTopologyDescriptionSubtopology()
	st.SubtopologyID = "0"
	n := kmsg.NewTopologyDescriptionNode()
	n.Name, n.NodeType, n.SourceTopics = "KSTREAM-SOURCE-0000000000", 1, []string{"input"}
	st.Nodes = append(st.Nodes, n)
	d.Subtopologies = append(d.Subtopologies, st)
	return &d
}

// askedMember is a member with a description to push (none when describe
// is false) that joined with a heartbeat whose answer asked for it.
func askedMember(t *testing.T, describe bool) (*Member, *time.Time) {
	t.Helper()
	cfg := Config{}
	if describe {
		cfg.TopologyDescription = testDescription()
	}
	m, now := newTestMember(t, cfg)
	f := &fakeCoordinator{t: t, reply: func(*kmsg.StreamsGroupHeartbeatRequest) *kmsg.StreamsGroupHeartbeatResponse {
		resp := answer(1)
		resp.TopologyDescriptionRequired = true
		return resp
	}}
	res, err := m.heartbeat(context.Background(), f.send)
	if err != nil {
		t.Fatal(err)
	}
	if !res.TopologyDescriptionRequired {
		t.Fatal("Result.TopologyDescriptionRequired not set from the answer")
	}
	return m, now
}

func pushDue(m *Member) bool {
	at, due := m.DescriptionPushDue()
	return due && !m.now().Before(at)
}

// A member with a description pushes it once a heartbeat's answer asks:
// group, member id, topology epoch and the description.
func TestPushSendsDescriptionWhenAsked(t *testing.T) {
	m, _ := askedMember(t, true)
	if !pushDue(m) {
		t.Fatal("no push due after the answer asked for the description")
	}
	f := &fakePushes{reply: pushAnswer(nil, 0)}
	pushed, err := m.push(context.Background(), f.send)
	if err != nil || !pushed {
		t.Fatalf("push: pushed %v, err %v", pushed, err)
	}
	if len(f.sent) != 1 {
		t.Fatalf("%d pushes sent, want 1", len(f.sent))
	}
	req := f.sent[0]
	if req.Group != "app" || req.MemberID != m.MemberID() || req.TopologyEpoch != 0 ||
		!reflect.DeepEqual(req.TopologyDescription, *testDescription()) {
		t.Fatalf("push request %+v", req)
	}
	// Kafka's testFlagClearedOnSuccess: nothing more to push.
	if _, due := m.DescriptionPushDue(); due {
		t.Fatal("a push is still due after the coordinator took it")
	}
	if pushed, err := m.push(context.Background(), f.send); pushed || err != nil || len(f.sent) != 1 {
		t.Fatalf("a second push went out: pushed %v, err %v, %d sent", pushed, err, len(f.sent))
	}
}

// With topology.description.push.enabled=false the member has no
// description (Kafka's testWireTopologyDescriptionNull): an answer asking
// for it makes no push due and sends nothing.
func TestPushDisabledSendsNothing(t *testing.T) {
	m, _ := askedMember(t, false)
	if _, due := m.DescriptionPushDue(); due {
		t.Fatal("a push is due for a member without a description")
	}
	f := &fakePushes{reply: pushAnswer(nil, 0)}
	if pushed, err := m.push(context.Background(), f.send); pushed || err != nil || len(f.sent) != 0 {
		t.Fatalf("pushed %v, err %v, %d sent; want nothing sent", pushed, err, len(f.sent))
	}
}

// Kafka's testTopologyDescriptionWhenPushFlagNotSet: a member the
// coordinator did not ask pushes nothing; an answer without the flag does
// not clear a request an earlier one made.
func TestPushOnlyWhenAsked(t *testing.T) {
	m, _ := newTestMember(t, Config{TopologyDescription: testDescription()})
	asked := false
	hb := &fakeCoordinator{t: t, reply: func(*kmsg.StreamsGroupHeartbeatRequest) *kmsg.StreamsGroupHeartbeatResponse {
		resp := answer(1)
		resp.TopologyDescriptionRequired = asked
		return resp
	}}
	if _, err := m.heartbeat(context.Background(), hb.send); err != nil {
		t.Fatal(err)
	}
	f := &fakePushes{reply: pushAnswer(nil, 0)}
	if _, due := m.DescriptionPushDue(); due {
		t.Fatal("a push is due though no answer asked")
	}
	if pushed, _ := m.push(context.Background(), f.send); pushed || len(f.sent) != 0 {
		t.Fatal("pushed though no answer asked")
	}
	asked = true
	if _, err := m.heartbeat(context.Background(), hb.send); err != nil {
		t.Fatal(err)
	}
	asked = false
	if _, err := m.heartbeat(context.Background(), hb.send); err != nil {
		t.Fatal(err)
	}
	if !pushDue(m) {
		t.Fatal("an answer without the flag dropped the request an earlier answer made")
	}
}

// Kafka's testFlagClearedOnUnknownMemberId: the push is given up, without
// an error, for the next heartbeat to rejoin.
func TestPushUnknownMemberGivesUp(t *testing.T) {
	m, _ := askedMember(t, true)
	f := &fakePushes{reply: pushAnswer(kerr.UnknownMemberID, 0)}
	if pushed, err := m.push(context.Background(), f.send); pushed || err != nil {
		t.Fatalf("pushed %v, err %v; want neither", pushed, err)
	}
	if _, due := m.DescriptionPushDue(); due {
		t.Fatal("a push is still due after UNKNOWN_MEMBER_ID")
	}
}

// Kafka's testCoordinatorErrorTriggersRediscovery and
// testCoordinatorLoadInProgressDoesNotTriggerRediscovery: the push stays
// due, after a backoff, and the error is retriable.
func TestPushCoordinatorErrorsRetry(t *testing.T) {
	for _, code := range []*kerr.Error{kerr.NotCoordinator, kerr.CoordinatorNotAvailable, kerr.CoordinatorLoadInProgress} {
		t.Run(code.Message, func(t *testing.T) {
			m, now := askedMember(t, true)
			f := &fakePushes{reply: pushAnswer(code, 0)}
			_, err := m.push(context.Background(), f.send)
			var pe *PushError
			if !errors.As(err, &pe) || !pe.Retriable || !errors.Is(err, code) {
				t.Fatalf("err %v, want a retriable *PushError of %v", err, code)
			}
			if _, due := m.DescriptionPushDue(); !due {
				t.Fatal("the push was given up")
			}
			if pushDue(m) {
				t.Fatal("pushing again at once, without a backoff")
			}
			*now = now.Add(pushBackoffMax * 2)
			if !pushDue(m) {
				t.Fatal("no push due after the backoff")
			}
		})
	}
}

// Kafka's testTerminalErrorsClearFlag: the push is given up until an answer
// asks again, and the error says so.
func TestPushTerminalErrorsGiveUp(t *testing.T) {
	for _, code := range []*kerr.Error{kerr.StreamsTopologyDescriptionUpdateFailed, kerr.InvalidRequest, kerr.UnsupportedVersion,
		kerr.GroupIDNotFound, kerr.GroupAuthorizationFailed} {
		t.Run(code.Message, func(t *testing.T) {
			m, _ := askedMember(t, true)
			f := &fakePushes{reply: pushAnswer(code, 0)}
			_, err := m.push(context.Background(), f.send)
			var pe *PushError
			if !errors.As(err, &pe) || pe.Retriable || !errors.Is(err, code) || pe.Hint == "" || pe.Message != "from the fake" {
				t.Fatalf("err %#v, want a terminal *PushError of %v with a hint", err, code)
			}
			if _, due := m.DescriptionPushDue(); due {
				t.Fatal("a push is still due after a terminal error")
			}
		})
	}
}

// Kafka's testNetworkExceptionLeavesFlagSetWithBackoff: a transport error
// keeps the push due after a backoff, which doubles from 100 ms per failure
// in a row up to 1 s (with 20% jitter), and starts over after a success.
func TestPushTransportErrorBacksOff(t *testing.T) {
	m, now := askedMember(t, true)
	down := errors.New("connection refused")
	f := &fakePushes{reply: func() (*kmsg.StreamsGroupTopologyDescriptionUpdateResponse, error) { return nil, down }}
	for i, base := range []time.Duration{100, 200, 400, 800, 1000, 1000} {
		base *= time.Millisecond
		start := *now
		_, err := m.push(context.Background(), f.send)
		var pe *PushError
		if !errors.As(err, &pe) || !pe.Retriable || !errors.Is(err, down) {
			t.Fatalf("failure %d: err %v, want a retriable *PushError", i+1, err)
		}
		at, due := m.DescriptionPushDue()
		if !due {
			t.Fatalf("failure %d gave the push up", i+1)
		}
		if wait := at.Sub(start); wait < base*8/10 || wait > base*12/10 {
			t.Fatalf("failure %d: backoff %v, want %v ± 20%%", i+1, wait, base)
		}
		if pushed, _ := m.push(context.Background(), f.send); pushed || len(f.sent) != i+1 {
			t.Fatalf("failure %d: pushed again within the backoff", i+1)
		}
		*now = at
	}
	f.reply = pushAnswer(nil, 0)
	if pushed, err := m.push(context.Background(), f.send); !pushed || err != nil {
		t.Fatalf("after the backoff: pushed %v, err %v", pushed, err)
	}
}

// Kafka's testThrottleDelayBlocksSubsequentRequest: a throttled answer
// holds the next push back by its throttle time.
func TestPushThrottleDelaysNextPush(t *testing.T) {
	m, now := askedMember(t, true)
	f := &fakePushes{reply: pushAnswer(kerr.NotCoordinator, 500)}
	if _, err := m.push(context.Background(), f.send); err == nil {
		t.Fatal("NOT_COORDINATOR gave no error")
	}
	*now = now.Add(499 * time.Millisecond)
	if pushDue(m) {
		t.Fatal("a push is due within the throttle time")
	}
	*now = now.Add(2 * time.Millisecond)
	if !pushDue(m) {
		t.Fatal("no push due after the throttle time")
	}
}

// The heartbeat manager drops the request when the member is fenced
// (FENCED_MEMBER_EPOCH, UNKNOWN_MEMBER_ID), and the member drops it when
// it leaves: the rejoined member waits for the coordinator to ask again.
func TestPushDroppedByFenceAndLeave(t *testing.T) {
	for _, code := range []*kerr.Error{kerr.FencedMemberEpoch, kerr.UnknownMemberID} {
		m, _ := askedMember(t, true)
		f := &fakeCoordinator{t: t, reply: func(*kmsg.StreamsGroupHeartbeatRequest) *kmsg.StreamsGroupHeartbeatResponse { return failed(code) }}
		if _, err := m.heartbeat(context.Background(), f.send); !errors.Is(err, ErrFenced) {
			t.Fatalf("%v: err %v, want a fence", code, err)
		}
		if _, due := m.DescriptionPushDue(); due {
			t.Fatalf("%v: a push is still due after the fence", code)
		}
	}
	m, _ := askedMember(t, true)
	f := &fakeCoordinator{t: t, reply: func(*kmsg.StreamsGroupHeartbeatRequest) *kmsg.StreamsGroupHeartbeatResponse { return answer(-1) }}
	if err := m.leave(context.Background(), f.send); err != nil {
		t.Fatal(err)
	}
	if _, due := m.DescriptionPushDue(); due {
		t.Fatal("a push is still due after the leave")
	}
}

// A push that a fence overtook while it was in flight does not count: the
// rejoined member is not marked as having pushed, nor asked to push again.
func TestPushOvertakenByFence(t *testing.T) {
	m, _ := askedMember(t, true)
	hb := &fakeCoordinator{t: t, reply: func(*kmsg.StreamsGroupHeartbeatRequest) *kmsg.StreamsGroupHeartbeatResponse {
		return failed(kerr.FencedMemberEpoch)
	}}
	f := &fakePushes{reply: func() (*kmsg.StreamsGroupTopologyDescriptionUpdateResponse, error) {
		if _, err := m.heartbeat(context.Background(), hb.send); !errors.Is(err, ErrFenced) {
			t.Errorf("heartbeat: %v, want a fence", err)
		}
		return pushAnswer(kerr.CoordinatorLoadInProgress, 0)()
	}}
	if pushed, err := m.push(context.Background(), f.send); pushed || err != nil {
		t.Fatalf("pushed %v, err %v; want neither", pushed, err)
	}
	if _, due := m.DescriptionPushDue(); due {
		t.Fatal("a push is due for the rejoining member")
	}
}
