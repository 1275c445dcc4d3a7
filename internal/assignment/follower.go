package assignment

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
)

// TopicPartition is a partition of a topic.
type TopicPartition struct {
	Topic     string
	Partition int32
}

// String returns the partition as Kafka's TopicPartition.toString writes
// it: "topic-partition".
func (tp TopicPartition) String() string {
	return tp.Topic + "-" + strconv.Itoa(int(tp.Partition))
}

// ComparePartitions orders partitions by topic (Java's string order), then
// partition: Kafka Streams' PARTITION_COMPARATOR, the order in which an
// assignment's partitions pair with AssignmentInfo.ActiveTasks.
func ComparePartitions(a, b TopicPartition) int {
	if c := compareJava(a.Topic, b.Topic); c != 0 {
		return c
	}
	return cmpInt(int(a.Partition), int(b.Partition))
}

// SortPartitions sorts ps with ComparePartitions.
func SortPartitions(ps []TopicPartition) {
	slices.SortFunc(ps, ComparePartitions)
}

// ErrActiveTaskCount is wrapped by PairActiveTasks when an assignment's
// partitions and its active tasks differ in number (Kafka Streams throws a
// TaskAssignmentException there).
var ErrActiveTaskCount = errors.New("assignment: assigned partitions do not match the active tasks")

// PairActiveTasks returns a member's active tasks with their partitions, as
// Kafka Streams' onAssignment reads them: the assigned partitions, sorted
// by ComparePartitions, pair one to one with info.ActiveTasks, the i-th
// partition belonging to the i-th task (a task with several input topics
// appears once per partition). Each task's partitions are in sorted order.
// partitions is not modified.
func PairActiveTasks(partitions []TopicPartition, info *AssignmentInfo) (map[TaskID][]TopicPartition, error) {
	if len(partitions) != len(info.ActiveTasks) {
		return nil, fmt.Errorf("%w: number of assigned partitions %d is not equal to the number of active taskIds %d",
			ErrActiveTaskCount, len(partitions), len(info.ActiveTasks))
	}
	sorted := slices.Clone(partitions)
	SortPartitions(sorted)
	tasks := make(map[TaskID][]TopicPartition, len(sorted))
	for i, tp := range sorted {
		t := info.ActiveTasks[i]
		if !slices.Contains(tasks[t], tp) {
			tasks[t] = append(tasks[t], tp)
		}
	}
	return tasks, nil
}
