package assignment

import (
	"math"
	"strconv"
)

// Protocol versions, Kafka Streams 4.4's StreamsAssignmentProtocolVersions.
const (
	// LatestSupportedVersion is the highest SubscriptionInfo and
	// AssignmentInfo version Kafka Streams 4.4 speaks; a 4.4 member always
	// subscribes with it.
	LatestSupportedVersion = 11
	// EarliestProbeableVersion is the lowest version that carries
	// latestSupportedVersion, so a leader can run version probing with it.
	EarliestProbeableVersion = 3
	// MinNamedTopologyVersion is the first version whose task ids carry a
	// named topology.
	MinNamedTopologyVersion = 10
	// UnknownVersion is latestSupportedVersion (v1-2 subscriptions) or
	// commonlySupportedVersion (v1-2 assignments) when the version lacks it.
	UnknownVersion = -1
)

// Offset sums a subscription reports for a task.
const (
	// LatestOffset is the offset sum of a running active task (Kafka's
	// Task.LATEST_OFFSET): the leader counts such a task as caught up.
	LatestOffset int64 = -2
	// UnknownOffsetSum is the offset sum Kafka Streams gives a standby
	// task of a v1-6 subscription, which has no offsets.
	UnknownOffsetSum int64 = -3
)

// NoNextRebalance is AssignmentInfo.NextRebalanceMs when the leader asks for
// no followup rebalance (Long.MAX_VALUE); 0 asks for one at once.
const NoNextRebalance int64 = math.MaxInt64

// ErrorCode is an assignor error (Kafka's AssignorError), carried in a
// subscription from version 9 and an assignment from version 4.
type ErrorCode int32

// The assignor errors.
const (
	// ErrorNone is no error.
	ErrorNone ErrorCode = 0
	// ErrorIncompleteSourceTopicMetadata: a source topic is missing; every
	// member gets an empty assignment with it.
	ErrorIncompleteSourceTopicMetadata ErrorCode = 1
	// ErrorVersionProbing is kept for compatibility; Kafka Streams no longer
	// sends it.
	ErrorVersionProbing ErrorCode = 2
	// ErrorAssignment: the leader's assignment failed (TaskAssignmentException).
	ErrorAssignment ErrorCode = 3
	// ErrorShutdownRequested: a member asked the whole application to shut
	// down (SHUTDOWN_APPLICATION).
	ErrorShutdownRequested ErrorCode = 4
)

// String returns Kafka's name of the error, or the number for one Kafka
// does not know.
func (c ErrorCode) String() string {
	switch c {
	case ErrorNone:
		return "NONE"
	case ErrorIncompleteSourceTopicMetadata:
		return "INCOMPLETE_SOURCE_TOPIC_METADATA"
	case ErrorVersionProbing:
		return "VERSION_PROBING"
	case ErrorAssignment:
		return "ASSIGNMENT_ERROR"
	case ErrorShutdownRequested:
		return "SHUTDOWN_REQUESTED"
	}
	return "ErrorCode(" + strconv.Itoa(int(c)) + ")"
}
