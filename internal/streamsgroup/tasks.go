package streamsgroup

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/twmb/franz-go/pkg/kmsg"
)

// TaskID names a task as a streams group does: the sub-topology's id (the
// decimal sub-topology number Kafka Streams sends) and a partition.
type TaskID struct {
	Subtopology string
	Partition   int32
}

// String is Kafka's TaskId text for a streams group task, "0_1".
func (t TaskID) String() string { return fmt.Sprintf("%s_%d", t.Subtopology, t.Partition) }

func compareTaskIDs(a, b TaskID) int {
	return cmp.Or(cmp.Compare(a.Subtopology, b.Subtopology), cmp.Compare(a.Partition, b.Partition))
}

// Assignment is a member's active, standby and warm-up tasks, each sorted
// by sub-topology and partition. GroupReady is false while the group
// reports a status that stops processing (missing source or internal
// topics, incorrectly partitioned topics, a delayed assignment), as
// Kafka's StreamsRebalanceData.Assignment.isGroupReady.
type Assignment struct {
	Active, Standby, Warmup []TaskID
	GroupReady              bool
}

// Equal reports whether a and b hold the same tasks and readiness.
func (a Assignment) Equal(b Assignment) bool {
	return a.GroupReady == b.GroupReady && slices.Equal(a.Active, b.Active) &&
		slices.Equal(a.Standby, b.Standby) && slices.Equal(a.Warmup, b.Warmup)
}

func (a Assignment) clone() Assignment {
	return Assignment{Active: slices.Clone(a.Active), Standby: slices.Clone(a.Standby), Warmup: slices.Clone(a.Warmup), GroupReady: a.GroupReady}
}

// tasksFrom flattens a heartbeat's task lists, sorted and deduplicated.
func tasksFrom(ids []kmsg.TaskIDs) []TaskID {
	var out []TaskID
	for _, st := range ids {
		for _, p := range st.Partitions {
			out = append(out, TaskID{Subtopology: st.SubtopologyID, Partition: p})
		}
	}
	slices.SortFunc(out, compareTaskIDs)
	return slices.Compact(out)
}

// taskIDsOf groups tasks by sub-topology for a heartbeat. Never nil: an
// empty list on the wire says "owns none", where null says "unchanged".
func taskIDsOf(tasks []TaskID) []kmsg.TaskIDs {
	out := []kmsg.TaskIDs{}
	for _, t := range tasks {
		if n := len(out); n > 0 && out[n-1].SubtopologyID == t.Subtopology {
			out[n-1].Partitions = append(out[n-1].Partitions, t.Partition)
			continue
		}
		ids := kmsg.NewTaskIDs()
		ids.SubtopologyID = t.Subtopology
		ids.Partitions = []int32{t.Partition}
		out = append(out, ids)
	}
	return out
}

// minus returns the tasks of a not in b; both sorted.
func minus(a, b []TaskID) []TaskID {
	var out []TaskID
	for _, t := range a {
		if _, found := slices.BinarySearchFunc(b, t, compareTaskIDs); !found {
			out = append(out, t)
		}
	}
	return out
}

// taskOffsetsOf lists offsets sorted by task, as a heartbeat carries them.
func taskOffsetsOf(offsets map[TaskID]int64) []kmsg.TaskOffset {
	out := make([]kmsg.TaskOffset, 0, len(offsets))
	for t, o := range offsets {
		to := kmsg.NewTaskOffset()
		to.SubtopologyID, to.Partition, to.Offset = t.Subtopology, t.Partition, o
		out = append(out, to)
	}
	slices.SortFunc(out, func(a, b kmsg.TaskOffset) int {
		return compareTaskIDs(TaskID{a.SubtopologyID, a.Partition}, TaskID{b.SubtopologyID, b.Partition})
	})
	return out
}

// Endpoint is a member's application.server, host and port.
type Endpoint struct {
	Host string
	Port uint16
}

// String is host:port.
func (e Endpoint) String() string { return fmt.Sprintf("%s:%d", e.Host, e.Port) }

// TopicPartition is one partition of a topic.
type TopicPartition struct {
	Topic     string
	Partition int32
}

// EndpointPartitions are the partitions the members at one endpoint host:
// Active those of their active tasks, Standby those of their standby and
// warm-up tasks, each sorted by topic and partition.
type EndpointPartitions struct {
	Active, Standby []TopicPartition
}
