package streamsgroup

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// The backoff between failed pushes of the topology description: Kafka's
// RequestState over the consumer's retry.backoff.ms and
// retry.backoff.max.ms defaults, doubling from 100 ms to 1 s, with 20%
// jitter.
const (
	pushBackoff    = 100 * time.Millisecond
	pushBackoffMax = time.Second
)

// PushError is a StreamsGroupTopologyDescriptionUpdate (KIP-1331) that
// failed: an error code in the answer, or a failure to reach the
// coordinator. It unwraps to the kerr error or the transport's error.
type PushError struct {
	Group   string
	Err     error  // a *kerr.Error, or the transport's error
	Message string // the broker's error message, if any
	// Hint says what happens next and what to do, in a sentence.
	Hint string
	// Retriable is true when the member pushes again after a backoff; false
	// when it gave up until a heartbeat's answer asks again.
	Retriable bool
}

func (e *PushError) Error() string {
	s := fmt.Sprintf("streamsgroup: pushing the topology description of group %s: %v", e.Group, e.Err)
	if e.Message != "" {
		s += ": " + e.Message
	}
	if e.Hint != "" {
		s += " (" + e.Hint + ")"
	}
	return s
}

func (e *PushError) Unwrap() error { return e.Err }

// DescriptionPushDue reports whether the member has a topology description
// to push (the coordinator asked for it, and Config.TopologyDescription
// is set) and from when: after a failed push, once its backoff passed;
// after a throttled answer, once the throttle passed.
func (m *Member) DescriptionPushDue() (time.Time, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if !m.mu.pushRequired {
		return time.Time{}, false
	}
	return m.mu.pushNotBefore, true
}

// PushTopologyDescription sends the member's topology description to the
// group's coordinator with StreamsGroupTopologyDescriptionUpdate (API key
// 93, KIP-1331) if it is due (DescriptionPushDue), and does nothing
// otherwise. It reads the answer as Kafka 4.4's
// StreamsGroupTopologyDescriptionRequestManager does:
//   - success: nothing more to push until a heartbeat's answer asks again;
//   - NOT_COORDINATOR, COORDINATOR_NOT_AVAILABLE (the coordinator is looked
//     up again), COORDINATOR_LOAD_IN_PROGRESS, or a transport error: pushed
//     again after a backoff that doubles from 100 ms to 1 s;
//   - UNKNOWN_MEMBER_ID: given up, the next heartbeat rejoins;
//   - any other error (STREAMS_TOPOLOGY_DESCRIPTION_UPDATE_FAILED,
//     INVALID_REQUEST, UNSUPPORTED_VERSION, GROUP_ID_NOT_FOUND,
//     GROUP_AUTHORIZATION_FAILED): given up until a heartbeat's answer asks
//     again.
//
// A throttled answer delays the next push by its throttle time. pushed
// reports a description the coordinator took. Failures are returned as
// *PushError; a push given up for UNKNOWN_MEMBER_ID returns neither, as
// the member's next heartbeat handles it. It is not called concurrently
// with Heartbeat or Leave.
func (m *Member) PushTopologyDescription(ctx context.Context, cl *kgo.Client) (pushed bool, err error) {
	m.sendMu.Lock()
	defer m.sendMu.Unlock()
	return m.push(ctx, func(ctx context.Context, req *kmsg.StreamsGroupTopologyDescriptionUpdateRequest) (*kmsg.StreamsGroupTopologyDescriptionUpdateResponse, error) {
		return m.coord.pushDescription(ctx, cl, m.cfg.GroupID, req)
	})
}

type pushFunc func(context.Context, *kmsg.StreamsGroupTopologyDescriptionUpdateRequest) (*kmsg.StreamsGroupTopologyDescriptionUpdateResponse, error)

func (m *Member) push(ctx context.Context, send pushFunc) (bool, error) {
	m.mu.Lock()
	now := m.now()
	if !m.mu.pushRequired || now.Before(m.mu.pushNotBefore) || m.cfg.TopologyDescription == nil {
		m.mu.Unlock()
		return false, nil
	}
	req := kmsg.NewPtrStreamsGroupTopologyDescriptionUpdateRequest()
	req.Group = m.cfg.GroupID
	req.MemberID = m.memberID
	req.TopologyEpoch = m.cfg.Topology.Epoch
	req.TopologyDescription = *m.cfg.TopologyDescription
	gen := m.mu.gen
	m.mu.Unlock()

	resp, err := send(ctx, req)

	m.mu.Lock()
	defer m.mu.Unlock()
	now = m.now()
	if gen != m.mu.gen {
		// Fenced or left meanwhile: the push no longer counts, and a
		// rejoined member waits for the coordinator to ask again.
		return false, nil
	}
	if err != nil {
		pe := &PushError{Group: m.cfg.GroupID, Err: err}
		var ke *kerr.Error
		var he *HeartbeatError
		switch {
		case errors.As(err, &he): // looking up the coordinator failed
			pe.Err, pe.Message, pe.Retriable = he.Err, he.Message, he.Retriable
		case errors.As(err, &ke):
			pe.Retriable = ke.Retriable
		default:
			pe.Retriable = true
		}
		if pe.Retriable {
			m.pushFailedLocked(now)
			pe.Hint = "pushing it again after a backoff"
		} else {
			m.pushDoneLocked(now)
			pe.Hint = "the broker's topology description plugin keeps no description of this member's topology until the coordinator asks again"
		}
		return false, pe
	}
	if resp.ThrottleMillis > 0 {
		if until := now.Add(time.Duration(resp.ThrottleMillis) * time.Millisecond); until.After(m.mu.pushNotBefore) {
			m.mu.pushNotBefore = until
		}
	}
	code := kerr.ErrorForCode(resp.ErrorCode)
	if code == nil {
		m.pushDoneLocked(now)
		return true, nil
	}
	pe := &PushError{Group: m.cfg.GroupID, Err: code}
	if resp.ErrorMessage != nil {
		pe.Message = *resp.ErrorMessage
	}
	switch code {
	case kerr.NotCoordinator, kerr.CoordinatorNotAvailable:
		m.pushFailedLocked(now)
		pe.Retriable, pe.Hint = true, "looking the coordinator up again and pushing it again after a backoff"
	case kerr.CoordinatorLoadInProgress:
		m.pushFailedLocked(now)
		pe.Retriable, pe.Hint = true, "the coordinator is loading the group; pushing it again after a backoff"
	case kerr.UnknownMemberID:
		// The group dropped the member: its next heartbeat finds out and
		// rejoins, and the coordinator asks the rejoined member again.
		m.pushDoneLocked(now)
		return false, nil
	case kerr.StreamsTopologyDescriptionUpdateFailed:
		m.pushDoneLocked(now)
		pe.Hint = "the broker's topology description plugin (group.streams.topology.description.plugin.class) failed to store it; " +
			"see the broker's log; the coordinator asks again later"
	case kerr.GroupAuthorizationFailed:
		m.pushDoneLocked(now)
		pe.Hint = "grant the application's principal READ on group " + m.cfg.GroupID + ", or set topology.description.push.enabled=false"
	case kerr.UnsupportedVersion:
		m.pushDoneLocked(now)
		pe.Hint = "the broker does not take topology descriptions (StreamsGroupTopologyDescriptionUpdate v0, Kafka 4.4+); set topology.description.push.enabled=false"
	case kerr.GroupIDNotFound:
		m.pushDoneLocked(now)
		pe.Hint = "the group was deleted; its members rejoin it at their next heartbeat"
	default:
		m.pushDoneLocked(now)
		pe.Hint = "the broker refused the description; the coordinator asks again later, or set topology.description.push.enabled=false"
	}
	return false, pe
}

// pushFailedLocked backs off the next push as Kafka's
// RequestState.onFailedAttempt does: 100 ms doubled per failure in a row,
// at most 1 s, with 20% jitter.
func (m *Member) pushFailedLocked(now time.Time) {
	m.pushBackoffLocked(now, m.mu.pushFailures)
	m.mu.pushFailures++
}

// pushDoneLocked ends the push the coordinator asked for, having
// succeeded or given up. As Kafka's RequestState.onSuccessfulAttempt, the
// next push (when a heartbeat's answer asks again) waits the first
// backoff.
func (m *Member) pushDoneLocked(now time.Time) {
	m.mu.pushRequired = false
	m.mu.pushFailures = 0
	m.pushBackoffLocked(now, 0)
}

// pushBackoffLocked holds the next push back by Kafka's ExponentialBackoff
// after failures failed pushes in a row.
func (m *Member) pushBackoffLocked(now time.Time, failures int) {
	d := min(pushBackoff<<min(failures, 10), pushBackoffMax)
	d = time.Duration(float64(d) * (0.8 + 0.4*rand.Float64()))
	if until := now.Add(d); until.After(m.mu.pushNotBefore) {
		m.mu.pushNotBefore = until
	}
}
