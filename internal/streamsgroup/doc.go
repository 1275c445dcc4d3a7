// Package streamsgroup is the member side of Kafka Streams' rebalance
// protocol KIP-1071 (group.protocol=streams): a member that heartbeats
// with StreamsGroupHeartbeat (API key 88) to its group's coordinator,
// which assigns it active, standby and warm-up tasks. It follows Kafka
// 4.4's consumer (StreamsGroupHeartbeatRequestManager,
// StreamsMembershipManager, StreamsRebalanceData) and imports neither the
// runtime nor the DSL: the topology comes as the
// kmsg.StreamsGroupHeartbeatRequestTopology streams.StreamsGroupTopology
// builds.
//
// # Heartbeats
//
// A Member joins at epoch 0 with its topology, rebalance timeout, process
// id, endpoint, rack and client tags, and sends them again only when it
// rejoins (after FENCED_MEMBER_EPOCH or UNKNOWN_MEMBER_ID, or after it
// left). Every heartbeat carries the group, member id, epoch, endpoint
// information epoch, instance id and the shutdown flag. The owned tasks
// go only when they differ from those the last heartbeat sent; the task
// offsets and end offsets (SetTaskOffsets) only with changed owned tasks,
// once the broker's task offset interval passed, or when a warm-up task
// has caught up within the acceptable recovery lag, and then each only if
// it changed. After any failed heartbeat the next one sends all of them.
//
// Heartbeat returns when to heartbeat next (Result.Next: the broker's
// interval, or 0 while joining or with a reconciliation to acknowledge)
// and the group's statuses. Errors are *HeartbeatError, of class
// ErrRetriable (coordinator moved or loading, topic authorization, a
// transport error) or ErrFatal (group authorization, invalid or fenced
// topology, unreleased instance id, group full, group deleted,
// unsupported version); a fence is a *FencedError (also ErrFenced and
// ErrRetriable) carrying the tasks the member lost.
//
// # Reconciliation
//
// The broker's target assignment is reconciled by the caller, revocation
// first, as Kafka's member does it:
//
//	if r, ok := m.Pending(); ok {
//		closeAndCommit(r.Revoke) // active tasks the target no longer has
//		m.Revoked(r)             // reported released from the next heartbeat
//		run(r.Target)            // open the new tasks, drop lost standbys
//		m.Assigned(r)            // owned = target; acknowledged at once
//	}
//
// Until Revoked the member reports the revoked tasks as owned, so the
// coordinator gives them to no one else. Kafka's member reports the
// revocation together with the assignment; reporting it at Revoked lets
// the coordinator move the tasks on while the new ones are still opening,
// and owned stays a subset of the target either way. A reconciliation
// overtaken by a fence or a leave fails with ErrStaleReconciliation.
//
// # Topology description
//
// A heartbeat's answer may ask for the topology's description (KIP-1331,
// TopologyDescriptionRequired), which the broker hands to its
// group.streams.topology.description.plugin.class. A member given a
// Config.TopologyDescription then pushes it with
// StreamsGroupTopologyDescriptionUpdate (API key 93) once
// DescriptionPushDue says so, and retries and gives up as Kafka 4.4's
// StreamsGroupTopologyDescriptionRequestManager does
// (PushTopologyDescription); a fence or a leave drops the request. A
// member without one pushes nothing. DescribeTopologyDescription reads
// what the broker stored.
//
// # Leaving
//
// Leave sends epoch -1, or -2 for a static member (Config.InstanceID),
// whose tasks the coordinator holds for it until its session times out.
//
// kgo does not route StreamsGroupHeartbeat to a coordinator, so the
// member finds it with FindCoordinator and sends to that broker.
package streamsgroup
