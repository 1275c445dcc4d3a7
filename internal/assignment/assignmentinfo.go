package assignment

import (
	"fmt"
	"slices"
)

// AssignmentInfo is the user data of one member's assignment: what the
// leader of Kafka Streams' assignor tells each member besides its
// partitions. Which fields a version carries is in the package
// documentation; a field the version lacks holds its zero value
// (CommonlySupportedVersion: UnknownVersion, NextRebalanceMs:
// NoNextRebalance).
//
// The maps are sets on the wire (Java HashMaps and HashSets): a decoded
// partition list keeps the first of duplicate entries in wire order, a
// duplicate key the last entry, as Java's collections do.
type AssignmentInfo struct {
	Version int32
	// CommonlySupportedVersion is the highest version every member speaks
	// (version 3+; UnknownVersion below). Above Version it tells the
	// member to upgrade and rejoin.
	CommonlySupportedVersion int32
	// ActiveTasks has one task per assigned partition, the i-th for the
	// i-th partition in (topic, partition) order; see PairActiveTasks.
	ActiveTasks []TaskID
	// StandbyTasks are the member's standby (and warm-up) tasks with their
	// changelog (or source-changelog) partitions.
	StandbyTasks map[TaskID][]TopicPartition
	// PartitionsByHost (version 2+) and StandbyPartitionsByHost (version
	// 6+) are the group's partitions by application.server, for
	// interactive-query routing; only members with an endpoint appear.
	PartitionsByHost        map[HostInfo][]TopicPartition
	StandbyPartitionsByHost map[HostInfo][]TopicPartition
	ErrorCode               ErrorCode // version 4+
	// NextRebalanceMs (version 7+) asks for a followup rebalance at this
	// wall-clock time in milliseconds: 0 at once, NoNextRebalance never.
	NextRebalanceMs int64
}

// minTaskIDSize is the least bytes of an AssignmentInfo task id at version.
func minTaskIDSize(version int32) int {
	if version >= MinNamedTopologyVersion {
		return 12
	}
	return 8
}

// DecodeAssignmentInfo decodes an assignment's user data as Kafka Streams
// 4.4 does (AssignmentInfo.decode).
func DecodeAssignmentInfo(b []byte) (*AssignmentInfo, error) {
	r := &reader{b: b, message: "AssignmentInfo"}
	a := &AssignmentInfo{Version: r.int32("version"), CommonlySupportedVersion: UnknownVersion, NextRebalanceMs: NoNextRebalance}
	if r.err != nil {
		return nil, r.err
	}
	v := a.Version
	r.version = v
	if v < 1 || v > LatestSupportedVersion {
		r.fail("version", 0, ErrUnsupportedVersion, "unsupported version %d (latest supported %d)", v, LatestSupportedVersion)
		return nil, r.err
	}
	if v >= 3 {
		a.CommonlySupportedVersion = r.int32("commonlySupportedVersion")
	}
	n := r.count("activeTasks", minTaskIDSize(v))
	if n > 0 {
		a.ActiveTasks = make([]TaskID, 0, n)
	}
	for i := 0; i < n && r.err == nil; i++ {
		a.ActiveTasks = append(a.ActiveTasks, r.taskID("activeTasks"))
	}
	n = r.count("standbyTasks", minTaskIDSize(v)+4)
	for i := 0; i < n && r.err == nil; i++ {
		t := r.taskID("standbyTasks")
		ps := r.inlinePartitions("standbyTasks")
		if r.err == nil {
			if a.StandbyTasks == nil {
				a.StandbyTasks = map[TaskID][]TopicPartition{}
			}
			a.StandbyTasks[t] = ps
		}
	}
	switch {
	case v >= 2 && v <= 4:
		a.PartitionsByHost = r.inlineHostMap("partitionsByHost")
	case v >= 5:
		dict := r.topicDictionary("topicDictionary")
		a.PartitionsByHost = r.hostMap("partitionsByHost", dict)
		if v >= 6 {
			a.StandbyPartitionsByHost = r.hostMap("standbyPartitionsByHost", dict)
		}
	}
	if v >= 4 {
		a.ErrorCode = ErrorCode(r.int32("errCode"))
	}
	if v >= 7 {
		a.NextRebalanceMs = r.int64("nextRebalanceMs")
	}
	if r.err != nil {
		return nil, r.err
	}
	return a, nil
}

// partitionSet collects a Java set of partitions: the first of duplicates
// stays.
type partitionSet struct {
	list []TopicPartition
	seen map[TopicPartition]struct{}
}

func (s *partitionSet) add(tp TopicPartition) {
	if len(s.list) < 8 && s.seen == nil {
		if slices.Contains(s.list, tp) {
			return
		}
		s.list = append(s.list, tp)
		return
	}
	if s.seen == nil {
		s.seen = make(map[TopicPartition]struct{}, 2*len(s.list))
		for _, p := range s.list {
			s.seen[p] = struct{}{}
		}
	}
	if _, dup := s.seen[tp]; dup {
		return
	}
	s.seen[tp] = struct{}{}
	s.list = append(s.list, tp)
}

// inlinePartitions reads int32 k, k x (utf topic, int32 partition).
func (r *reader) inlinePartitions(field string) []TopicPartition {
	n := r.count(field, 6)
	var set partitionSet
	for i := 0; i < n && r.err == nil; i++ {
		tp := TopicPartition{Topic: r.utf(field)}
		tp.Partition = r.int32(field)
		if r.err == nil {
			set.add(tp)
		}
	}
	return set.list
}

// inlineHostMap reads versions 2-4's host map, topics written inline.
func (r *reader) inlineHostMap(field string) map[HostInfo][]TopicPartition {
	n := r.count(field, 10)
	var m map[HostInfo][]TopicPartition
	for i := 0; i < n && r.err == nil; i++ {
		h := HostInfo{Host: r.utf(field)}
		h.Port = r.int32(field)
		ps := r.inlinePartitions(field)
		if r.err == nil {
			if m == nil {
				m = map[HostInfo][]TopicPartition{}
			}
			m[h] = ps
		}
	}
	return m
}

// topicDictionary reads int32 d, d x (int32 index, utf topic).
func (r *reader) topicDictionary(field string) map[int32]string {
	n := r.count(field, 6)
	dict := make(map[int32]string, n)
	for i := 0; i < n && r.err == nil; i++ {
		idx := r.int32(field)
		dict[idx] = r.utf(field)
	}
	return dict
}

// hostMap reads a host map of version 5+, topics as dictionary indexes.
func (r *reader) hostMap(field string, dict map[int32]string) map[HostInfo][]TopicPartition {
	n := r.count(field, 10)
	var m map[HostInfo][]TopicPartition
	for i := 0; i < n && r.err == nil; i++ {
		h := HostInfo{Host: r.utf(field)}
		h.Port = r.int32(field)
		k := r.count(field, 8)
		var set partitionSet
		for j := 0; j < k && r.err == nil; j++ {
			at := r.off
			idx := r.int32(field)
			p := r.int32(field)
			if r.err != nil {
				break
			}
			topic, ok := dict[idx]
			if !ok {
				r.fail(field, at, ErrMalformed, "topic index %d is not in the topic dictionary", idx)
				break
			}
			set.add(TopicPartition{Topic: topic, Partition: p})
		}
		if r.err == nil {
			if m == nil {
				m = map[HostInfo][]TopicPartition{}
			}
			m[h] = set.list
		}
	}
	return m
}

// Encode encodes a at a.Version as Kafka Streams 4.4 does
// (AssignmentInfo.encode). Like Kafka Streams it leaves out what the
// version lacks (the host maps below versions 2 and 6, errCode below 4,
// nextRebalanceMs below 7, CommonlySupportedVersion below 3) and refuses a
// named topology below version 10. Map entries are written in a fixed
// order (tasks by Compare, hosts by host and port), partitions in their
// order in a; topic dictionary indexes are given in order of first use. It
// fails for a string longer than writeUTF allows.
func (a *AssignmentInfo) Encode() ([]byte, error) {
	return a.AppendTo(nil)
}

// AppendTo appends a's encoding to b; see Encode.
func (a *AssignmentInfo) AppendTo(b []byte) ([]byte, error) {
	v := a.Version
	if v < 1 || v > LatestSupportedVersion {
		return b, &EncodeError{Message: "AssignmentInfo", Version: v, Field: "version",
			Reason: fmt.Sprintf("not between 1 and %d", LatestSupportedVersion)}
	}
	w := &writer{b: b, version: v}
	w.int32(v)
	if v >= 3 {
		w.int32(a.CommonlySupportedVersion)
	}
	w.int32(int32(len(a.ActiveTasks)))
	for _, t := range a.ActiveTasks {
		w.taskID("activeTasks", t)
	}
	tasks := make([]TaskID, 0, len(a.StandbyTasks))
	for t := range a.StandbyTasks {
		tasks = append(tasks, t)
	}
	slices.SortFunc(tasks, TaskID.Compare)
	w.int32(int32(len(tasks)))
	for _, t := range tasks {
		w.taskID("standbyTasks", t)
		w.inlinePartitions("standbyTasks", a.StandbyTasks[t])
	}
	switch {
	case v >= 2 && v <= 4:
		hosts := sortedHosts(a.PartitionsByHost)
		w.int32(int32(len(hosts)))
		for _, h := range hosts {
			w.utf("partitionsByHost", h.Host)
			w.int32(h.Port)
			w.inlinePartitions("partitionsByHost", a.PartitionsByHost[h])
		}
	case v >= 5:
		maps := []map[HostInfo][]TopicPartition{a.PartitionsByHost}
		if v >= 6 {
			maps = append(maps, a.StandbyPartitionsByHost)
		}
		hosts := make([][]HostInfo, len(maps))
		dict := map[string]int32{}
		var order []string
		for i, m := range maps {
			hosts[i] = sortedHosts(m)
			for _, h := range hosts[i] {
				for _, tp := range m[h] {
					if _, ok := dict[tp.Topic]; !ok {
						dict[tp.Topic] = int32(len(order))
						order = append(order, tp.Topic)
					}
				}
			}
		}
		w.int32(int32(len(order)))
		for i, topic := range order {
			w.int32(int32(i))
			w.utf("topicDictionary", topic)
		}
		for i, m := range maps {
			w.int32(int32(len(hosts[i])))
			for _, h := range hosts[i] {
				w.utf("partitionsByHost", h.Host)
				w.int32(h.Port)
				w.int32(int32(len(m[h])))
				for _, tp := range m[h] {
					w.int32(dict[tp.Topic])
					w.int32(tp.Partition)
				}
			}
		}
	}
	if v >= 4 {
		w.int32(int32(a.ErrorCode))
	}
	if v >= 7 {
		w.b = appendInt64(w.b, a.NextRebalanceMs)
	}
	if w.err != nil {
		return b, w.err
	}
	return w.b, nil
}

// writer appends AssignmentInfo fields, keeping the first failure.
type writer struct {
	b       []byte
	version int32
	err     error
}

func (w *writer) int32(v int32) { w.b = appendInt32(w.b, v) }

func (w *writer) utf(field, s string) {
	var ok bool
	w.b, ok = appendUTF(w.b, s)
	if !ok && w.err == nil {
		w.err = &EncodeError{Message: "AssignmentInfo", Version: w.version, Field: field,
			Reason: fmt.Sprintf("encoded string too long: %d bytes", modifiedUTF8Len(s))}
	}
}

func (w *writer) inlinePartitions(field string, ps []TopicPartition) {
	w.int32(int32(len(ps)))
	for _, tp := range ps {
		w.utf(field, tp.Topic)
		w.int32(tp.Partition)
	}
}

func sortedHosts(m map[HostInfo][]TopicPartition) []HostInfo {
	hosts := make([]HostInfo, 0, len(m))
	for h := range m {
		hosts = append(hosts, h)
	}
	slices.SortFunc(hosts, HostInfo.Compare)
	return hosts
}
