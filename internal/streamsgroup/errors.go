package streamsgroup

import (
	"errors"
	"fmt"

	"github.com/twmb/franz-go/pkg/kerr"
)

// The classes of a heartbeat's errors, checked with errors.Is.
var (
	// ErrRetriable: the member stays in the group; heartbeat again, after
	// HeartbeatError.Backoff.
	ErrRetriable = errors.New("streamsgroup: retriable heartbeat error")
	// ErrFatal: the member cannot stay in the group; Heartbeat returns the
	// same error until the process is fixed and restarted.
	ErrFatal = errors.New("streamsgroup: fatal heartbeat error")
	// ErrFenced: the coordinator no longer knows the member at its epoch
	// (FENCED_MEMBER_EPOCH, UNKNOWN_MEMBER_ID). The member has dropped its
	// tasks (FencedError.Lost) and rejoins at epoch 0 on its next
	// heartbeat. Also retriable.
	ErrFenced = errors.New("streamsgroup: member fenced")
	// ErrStaleReconciliation is returned by Revoked and Assigned for a
	// Reconciliation from before the member was fenced or left.
	ErrStaleReconciliation = errors.New("streamsgroup: reconciliation no longer current")
	// ErrNotRevoked is returned by Assigned before the Reconciliation's
	// revocation was acknowledged with Revoked.
	ErrNotRevoked = errors.New("streamsgroup: tasks assigned before the revoked ones were released")
)

// HeartbeatError is an error code a StreamsGroupHeartbeat response
// carried, or a failure to reach the coordinator. It unwraps to the
// kerr error (when the broker answered) and to its class, ErrRetriable or
// ErrFatal.
type HeartbeatError struct {
	Group   string
	Err     error  // a *kerr.Error, or the transport's error
	Message string // the broker's error message, if any
	// Hint says what to do about it, in a sentence.
	Hint string
	// Retriable is false for a fatal error.
	Retriable bool
	// Backoff is false when the next heartbeat should go out at once
	// (the coordinator moved, the member was fenced).
	Backoff bool
}

func (e *HeartbeatError) Error() string {
	s := fmt.Sprintf("streamsgroup: heartbeat of group %s: %v", e.Group, e.Err)
	if e.Message != "" {
		s += ": " + e.Message
	}
	if e.Hint != "" {
		s += " (" + e.Hint + ")"
	}
	return s
}

func (e *HeartbeatError) Unwrap() []error {
	if e.Retriable {
		return []error{e.Err, ErrRetriable}
	}
	return []error{e.Err, ErrFatal}
}

// FencedError is returned when the coordinator fenced the member. Lost are
// the tasks it owned: the caller closes them without committing (another
// member may own them already) before the next heartbeat rejoins.
type FencedError struct {
	HeartbeatError
	Lost Assignment
}

func (e *FencedError) Unwrap() []error { return append(e.HeartbeatError.Unwrap(), ErrFenced) }

// classify turns a response's error code into a HeartbeatError, with the
// classes Kafka's StreamsGroupHeartbeatRequestManager.onErrorResponse
// gives them.
func classify(group string, code int16, msg *string) *HeartbeatError {
	e := &HeartbeatError{Group: group, Err: kerr.ErrorForCode(code), Backoff: true}
	if msg != nil {
		e.Message = *msg
	}
	switch e.Err {
	case kerr.NotCoordinator, kerr.CoordinatorNotAvailable:
		e.Retriable, e.Backoff = true, false
		e.Hint = "looking the coordinator up again"
	case kerr.CoordinatorLoadInProgress:
		e.Retriable = true
		e.Hint = "the coordinator is loading the group; retry after a backoff"
	case kerr.FencedMemberEpoch, kerr.UnknownMemberID:
		e.Retriable, e.Backoff = true, false
		e.Hint = "the member lost its tasks and rejoins at epoch 0"
	case kerr.TopicAuthorizationFailed:
		// Kafka keeps the member in its state so that it recovers once
		// the ACLs are added.
		e.Retriable = true
		e.Hint = "grant the application's principal access to its source and internal topics"
	case kerr.GroupAuthorizationFailed:
		e.Hint = "grant the application's principal READ on group " + group
	case kerr.UnreleasedInstanceID:
		e.Hint = "another member holds this group.instance.id; give each instance its own, or wait for the old one's session to time out"
	case kerr.GroupMaxSizeReached:
		e.Hint = "the group has group.streams.max.size members already; stop one or raise the broker's limit"
	case kerr.StreamsInvalidTopology:
		e.Hint = "the broker rejected the topology this member sent; check its internal topics' configs against the broker's"
	case kerr.StreamsInvalidTopologyEpoch:
		e.Hint = "the topology's epoch is invalid for the group; a changed topology needs a new application.id"
	case kerr.StreamsTopologyFenced:
		e.Hint = "the group runs a newer topology; upgrade this instance or use a new application.id"
	case kerr.GroupIDNotFound:
		// The coordinator answers so both for a group deleted under a
		// member and for one of another type that has members ("Group
		// %s is not a streams group."); an empty classic group is
		// converted instead.
		e.Hint = "the group was deleted while the member was in it, or it is a group of another protocol with members: " +
			SwitchProtocolHint(group, "streams")
	case kerr.UnsupportedVersion:
		e.Hint = "the cluster does not support the streams group protocol (StreamsGroupHeartbeat v0-1): on Kafka 4.2+ enable it with " +
			"`kafka-features.sh --bootstrap-server HOST:PORT upgrade --feature streams.version=1`, or set group.protocol=classic"
	case kerr.InvalidRequest:
		e.Hint = "the broker found the heartbeat malformed"
	default:
		e.Hint = "unexpected error"
	}
	return e
}

// SwitchProtocolHint says what to do when an application's group runs
// under another group protocol than the member's, as the coordinator keeps
// a group of one type while it has members: switching an application
// between group.protocol=classic and group.protocol=streams is an offline
// step, as in Kafka. to is the protocol the member uses.
func SwitchProtocolHint(group, to string) string {
	from, tool := "classic", "kafka-consumer-groups.sh"
	if to == "classic" {
		from, tool = "streams", "kafka-streams-groups.sh"
	}
	return fmt.Sprintf("group %s has members under group.protocol=%s (Kafka Streams or StoatFlow instances of the application, "+
		"or ones killed whose session has not yet timed out); switching protocols is an offline step: stop every instance, "+
		"wait until `%s --bootstrap-server HOST:PORT --describe --group %s --members` shows none, then start them all with "+
		"group.protocol=%s (the coordinator converts the empty group and keeps its committed offsets), "+
		"or set group.protocol=%s on this instance as on the others", group, from, tool, group, to, from)
}
