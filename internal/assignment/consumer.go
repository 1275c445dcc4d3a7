package assignment

import (
	"fmt"

	"github.com/twmb/franz-go/pkg/kmsg"
)

// ConsumerProtocolVersion is the version of the consumer protocol's
// subscription and assignment (ConsumerProtocolSubscription and
// ConsumerProtocolAssignment) that Kafka 4.4's consumer writes: version 3,
// with owned partitions (v1), generation (v2) and rack (v3).
const ConsumerProtocolVersion = 3

// MemberMetadata is the protocol metadata a member of Kafka Streams'
// assignor sends in JoinGroup: the consumer protocol's subscription with a
// SubscriptionInfo as user data. The leader takes a member's previous
// active tasks from OwnedPartitions, so a cooperative member must report
// what it owns.
type MemberMetadata struct {
	Topics          []string
	Info            *SubscriptionInfo
	OwnedPartitions []TopicPartition
	Generation      int32  // the generation the partitions were owned in; -1 unknown
	Rack            string // client.rack; "" for none
}

// Encode encodes m as kmsg.ConsumerMemberMetadata at
// ConsumerProtocolVersion, the owned partitions grouped by topic in sorted
// order.
func (m *MemberMetadata) Encode() ([]byte, error) {
	user, err := m.Info.Encode()
	if err != nil {
		return nil, err
	}
	meta := kmsg.NewConsumerMemberMetadata()
	meta.Version = ConsumerProtocolVersion
	meta.Topics = m.Topics
	meta.UserData = user
	meta.Generation = m.Generation
	if m.Rack != "" {
		meta.Rack = &m.Rack
	}
	for _, g := range groupByTopic(m.OwnedPartitions) {
		meta.OwnedPartitions = append(meta.OwnedPartitions, kmsg.ConsumerMemberMetadataOwnedPartition{Topic: g.topic, Partitions: g.partitions})
	}
	return meta.AppendTo(nil), nil
}

// DecodeMemberMetadata decodes a member's JoinGroup protocol metadata of
// Kafka Streams' assignor, any consumer protocol version, and its
// SubscriptionInfo. The owned partitions come back sorted.
func DecodeMemberMetadata(b []byte) (*MemberMetadata, error) {
	var meta kmsg.ConsumerMemberMetadata
	if err := meta.ReadFrom(b); err != nil {
		return nil, fmt.Errorf("assignment: decode consumer protocol subscription: %w", err)
	}
	info, err := DecodeSubscriptionInfo(meta.UserData)
	if err != nil {
		return nil, err
	}
	m := &MemberMetadata{Topics: meta.Topics, Info: info, Generation: meta.Generation}
	if meta.Rack != nil {
		m.Rack = *meta.Rack
	}
	for _, o := range meta.OwnedPartitions {
		for _, p := range o.Partitions {
			m.OwnedPartitions = append(m.OwnedPartitions, TopicPartition{Topic: o.Topic, Partition: p})
		}
	}
	SortPartitions(m.OwnedPartitions)
	return m, nil
}

// MemberAssignment is what the leader of Kafka Streams' assignor gives one
// member in SyncGroup: its partitions, and an AssignmentInfo as user data.
type MemberAssignment struct {
	Partitions []TopicPartition
	Info       *AssignmentInfo
}

// Encode encodes m as kmsg.ConsumerMemberAssignment at
// ConsumerProtocolVersion, the partitions grouped by topic in sorted order.
func (m *MemberAssignment) Encode() ([]byte, error) {
	user, err := m.Info.Encode()
	if err != nil {
		return nil, err
	}
	a := kmsg.NewConsumerMemberAssignment()
	a.Version = ConsumerProtocolVersion
	a.UserData = user
	for _, g := range groupByTopic(m.Partitions) {
		a.Topics = append(a.Topics, kmsg.ConsumerMemberAssignmentTopic{Topic: g.topic, Partitions: g.partitions})
	}
	return a.AppendTo(nil), nil
}

// DecodeMemberAssignment decodes a member's SyncGroup assignment of Kafka
// Streams' assignor and its AssignmentInfo. The partitions come back
// sorted, ready for PairActiveTasks.
func DecodeMemberAssignment(b []byte) (*MemberAssignment, error) {
	var a kmsg.ConsumerMemberAssignment
	if err := a.ReadFrom(b); err != nil {
		return nil, fmt.Errorf("assignment: decode consumer protocol assignment: %w", err)
	}
	info, err := DecodeAssignmentInfo(a.UserData)
	if err != nil {
		return nil, err
	}
	m := &MemberAssignment{Info: info}
	for _, t := range a.Topics {
		for _, p := range t.Partitions {
			m.Partitions = append(m.Partitions, TopicPartition{Topic: t.Topic, Partition: p})
		}
	}
	SortPartitions(m.Partitions)
	return m, nil
}

type topicGroup struct {
	topic      string
	partitions []int32
}

// groupByTopic groups partitions by topic, topics and partitions sorted.
func groupByTopic(ps []TopicPartition) []topicGroup {
	sorted := append([]TopicPartition(nil), ps...)
	SortPartitions(sorted)
	var out []topicGroup
	for _, tp := range sorted {
		if n := len(out); n == 0 || out[n-1].topic != tp.Topic {
			out = append(out, topicGroup{topic: tp.Topic})
		}
		g := &out[len(out)-1]
		g.partitions = append(g.partitions, tp.Partition)
	}
	return out
}
