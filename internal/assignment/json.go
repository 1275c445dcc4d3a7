package assignment

import (
	"encoding/json"
	"slices"
)

// The JSON forms below are for logs, debugging and the golden vectors: the
// reference harness (integration/reference AssignorVectors.java) prints
// what Kafka Streams decodes in the same form. Maps and sets are printed as
// lists in a fixed order (tasks by TaskID.Compare, hosts by
// HostInfo.Compare, partitions by ComparePartitions); ordered lists
// (SubscriptionInfo's, ActiveTasks) as they are.

type taskJSON struct {
	Subtopology   int32  `json:"subtopology"`
	Partition     int32  `json:"partition"`
	NamedTopology string `json:"namedTopology,omitempty"`
}

// MarshalJSON writes the task id as {"subtopology":0,"partition":1}, with
// "namedTopology" when it has one.
func (t TaskID) MarshalJSON() ([]byte, error) {
	return json.Marshal(taskJSON(t))
}

type partitionJSON struct {
	Topic     string `json:"topic"`
	Partition int32  `json:"partition"`
}

type offsetSumJSON struct {
	Subtopology   int32  `json:"subtopology"`
	Partition     int32  `json:"partition"`
	NamedTopology string `json:"namedTopology,omitempty"`
	OffsetSum     int64  `json:"offsetSum"`
}

type clientTagJSON struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

type subscriptionJSON struct {
	Version                int32           `json:"version"`
	LatestSupportedVersion int32           `json:"latestSupportedVersion"`
	Future                 bool            `json:"future"`
	ProcessID              string          `json:"processId"`
	PrevTasks              []TaskID        `json:"prevTasks"`
	StandbyTasks           []TaskID        `json:"standbyTasks"`
	UserEndPoint           string          `json:"userEndPoint"`
	TaskOffsetSums         []offsetSumJSON `json:"taskOffsetSums"`
	UniqueField            int8            `json:"uniqueField"`
	ErrorCode              int32           `json:"errorCode"`
	ClientTags             []clientTagJSON `json:"clientTags"`
}

// MarshalJSON writes every field of the subscription, lists in wire order.
func (s *SubscriptionInfo) MarshalJSON() ([]byte, error) {
	j := subscriptionJSON{
		Version:                s.Version,
		LatestSupportedVersion: s.LatestSupportedVersion,
		Future:                 s.Future(),
		ProcessID:              s.ProcessID.String(),
		PrevTasks:              nonNil(s.PrevTasks),
		StandbyTasks:           nonNil(s.StandbyTasks),
		UserEndPoint:           s.UserEndPoint,
		TaskOffsetSums:         []offsetSumJSON{},
		UniqueField:            s.UniqueField,
		ErrorCode:              int32(s.ErrorCode),
		ClientTags:             []clientTagJSON{},
	}
	for _, t := range s.TaskOffsetSums {
		j.TaskOffsetSums = append(j.TaskOffsetSums, offsetSumJSON{t.Task.Subtopology, t.Task.Partition, t.Task.NamedTopology, t.OffsetSum})
	}
	for _, t := range s.ClientTags {
		j.ClientTags = append(j.ClientTags, clientTagJSON(t))
	}
	return json.Marshal(j)
}

type standbyJSON struct {
	Task       TaskID          `json:"task"`
	Partitions []partitionJSON `json:"partitions"`
}

type hostJSON struct {
	Host       string          `json:"host"`
	Port       int32           `json:"port"`
	Partitions []partitionJSON `json:"partitions"`
}

type assignmentJSON struct {
	Version                  int32         `json:"version"`
	CommonlySupportedVersion int32         `json:"commonlySupportedVersion"`
	ActiveTasks              []TaskID      `json:"activeTasks"`
	StandbyTasks             []standbyJSON `json:"standbyTasks"`
	PartitionsByHost         []hostJSON    `json:"partitionsByHost"`
	StandbyPartitionsByHost  []hostJSON    `json:"standbyPartitionsByHost"`
	ErrCode                  int32         `json:"errCode"`
	NextRebalanceMs          int64         `json:"nextRebalanceMs"`
}

// MarshalJSON writes every field of the assignment, ActiveTasks in order,
// the maps and sets sorted.
func (a *AssignmentInfo) MarshalJSON() ([]byte, error) {
	j := assignmentJSON{
		Version:                  a.Version,
		CommonlySupportedVersion: a.CommonlySupportedVersion,
		ActiveTasks:              nonNil(a.ActiveTasks),
		StandbyTasks:             []standbyJSON{},
		PartitionsByHost:         hostsJSON(a.PartitionsByHost),
		StandbyPartitionsByHost:  hostsJSON(a.StandbyPartitionsByHost),
		ErrCode:                  int32(a.ErrorCode),
		NextRebalanceMs:          a.NextRebalanceMs,
	}
	for t, ps := range a.StandbyTasks {
		j.StandbyTasks = append(j.StandbyTasks, standbyJSON{Task: t, Partitions: partitionsJSON(ps)})
	}
	slices.SortFunc(j.StandbyTasks, func(x, y standbyJSON) int { return x.Task.Compare(y.Task) })
	return json.Marshal(j)
}

func hostsJSON(m map[HostInfo][]TopicPartition) []hostJSON {
	out := []hostJSON{}
	for _, h := range sortedHosts(m) {
		out = append(out, hostJSON{Host: h.Host, Port: h.Port, Partitions: partitionsJSON(m[h])})
	}
	return out
}

func partitionsJSON(ps []TopicPartition) []partitionJSON {
	sorted := slices.Clone(ps)
	SortPartitions(sorted)
	out := make([]partitionJSON, 0, len(sorted))
	for _, tp := range sorted {
		out = append(out, partitionJSON(tp))
	}
	return out
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
