package streams

import (
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/internal/streamsgroup"
	"github.com/stoatflow/stoatflow/kstreams"
)

// TestMemberTopicStatuses: the streams group's statuses about its topics
// act as in Kafka Streams 4.4's StreamThread: INCORRECTLY_PARTITIONED_TOPICS
// fails the thread at once with an invalid topology; MISSING_SOURCE_TOPICS
// fails it only once the topics stayed missing for two heartbeat
// intervals, the wait starting over once they are back; the other
// statuses never fail it.
func TestMemberTopicStatuses(t *testing.T) {
	m, err := streamsgroup.New(streamsgroup.Config{GroupID: "app"})
	if err != nil {
		t.Fatal(err)
	}
	th := &streamThread{log: slog.New(slog.DiscardHandler), member: m}
	status := func(codes ...streamsgroup.StatusCode) streamsgroup.Result {
		var r streamsgroup.Result
		for _, c := range codes {
			r.Statuses = append(r.Statuses, streamsgroup.Status{Code: c, Detail: "detail of " + c.String()})
		}
		return r
	}
	now := time.Unix(1000, 0)

	err = th.memberTopicStatuses(status(streamsgroup.StatusIncorrectlyPartitionedTopics), now)
	if !errors.Is(err, kstreams.ErrInvalidTopology) || !strings.Contains(err.Error(), "detail of INCORRECTLY_PARTITIONED_TOPICS") {
		t.Fatalf("INCORRECTLY_PARTITIONED_TOPICS: %v, want ErrInvalidTopology with the broker's detail", err)
	}

	others := status(streamsgroup.StatusStaleTopology, streamsgroup.StatusMissingInternalTopics,
		streamsgroup.StatusAssignmentDelayed, streamsgroup.StatusMissingClientTags)
	if err := th.memberTopicStatuses(others, now); err != nil {
		t.Fatalf("the other statuses failed the thread: %v", err)
	}

	missing := status(streamsgroup.StatusMissingSourceTopics)
	if err := th.memberTopicStatuses(missing, now); err != nil {
		t.Fatalf("MISSING_SOURCE_TOPICS failed the thread at once: %v", err)
	}
	// Back before the wait ended: the wait starts over.
	if err := th.memberTopicStatuses(streamsgroup.Result{}, now.Add(time.Millisecond)); err != nil || !th.topicsMissingSince.IsZero() {
		t.Fatalf("topics back: %v, missing since %v", err, th.topicsMissingSince)
	}
	later := now.Add(time.Minute)
	if err := th.memberTopicStatuses(missing, later); err != nil {
		t.Fatalf("MISSING_SOURCE_TOPICS again failed the thread at once: %v", err)
	}
	// Two heartbeat intervals (none known yet: 0) passed.
	err = th.memberTopicStatuses(missing, later.Add(2*m.HeartbeatInterval()))
	if !errors.Is(err, ErrMissingSourceTopics) || !strings.Contains(err.Error(), "detail of MISSING_SOURCE_TOPICS") {
		t.Fatalf("MISSING_SOURCE_TOPICS after two intervals: %v, want ErrMissingSourceTopics with the broker's detail", err)
	}
}
