// Package assignment owns the wire formats of Kafka Streams' classic-protocol
// assignor ("stream", StreamsPartitionAssignor): the user data a member puts
// in its consumer-protocol subscription (SubscriptionInfo) and the user data
// the group leader puts in each member's assignment (AssignmentInfo), as
// Kafka Streams 4.4 writes and reads them. A StoatFlow member that joins one
// consumer group beside Kafka Streams JVM instances speaks these bytes; this
// package only encodes and decodes them and holds the small helpers a
// follower needs to read an assignment (pairing partitions with tasks,
// parsing application.server). It decides nothing about who gets what.
//
// # SubscriptionInfo
//
// Versions 1 to 11 (LatestSupportedVersion), in Kafka's classic,
// non-flexible message encoding (SubscriptionInfoData.json): big-endian
// integers, int32 array and bytes lengths, int16 string lengths with -1 for
// null, a UUID as two int64s, no tagged fields.
//
//	int32 version
//	int32 latestSupportedVersion                   v3+ (-1 below)
//	uuid  processId
//	[]{int32 subtopology, int32 partition}         prevTasks, v1-6
//	[]{int32 subtopology, int32 partition}         standbyTasks, v1-6
//	bytes userEndPoint                             v2+, UTF-8 "host:port", empty when unset
//	[]{int32 subtopology, []{int32 partition, int64 offsetSum}}                    taskOffsetSums, v7-9
//	[]{int32 subtopology, int32 partition, int64 offsetSum, string namedTopology}  taskOffsetSums, v10+
//	int8  uniqueField                              v8+
//	int32 errorCode                                v9+
//	[]{bytes key, bytes value}                     clientTags, v11+
//
// A version above 11 is a "future" subscription (version probing): only its
// version and latestSupportedVersion are read, as Kafka Streams reads it.
// An offset sum is the sum of a task's changelog offsets, LatestOffset (-2)
// for a running active task, UnknownOffsetSum (-3) for a task an old
// (v1-6) subscription listed as standby.
//
// # AssignmentInfo
//
// Versions 1 to 11, hand-written by Kafka Streams with a DataOutputStream:
// big-endian, strings by writeUTF (uint16 length + modified UTF-8: NUL as
// 0xC0 0x80, a supplementary character as its two UTF-16 surrogates of three
// bytes each).
//
//	int32 version
//	int32 commonlySupportedVersion                 v3+ (-1 below)
//	int32 n, n x taskId                            activeTasks, one per assigned partition
//	int32 n, n x (taskId, int32 k, k x (utf topic, int32 partition))     standbyTasks
//	int32 n, n x (utf host, int32 port, int32 k, k x (utf topic, int32 partition))  partitionsByHost, v2-4
//	int32 d, d x (int32 index, utf topic)          topic dictionary, v5+
//	int32 n, n x (utf host, int32 port, int32 k, k x (int32 index, int32 partition)) partitionsByHost, v5+
//	same shape                                     standbyPartitionsByHost, v6+
//	int32 errCode                                  v4+
//	int64 nextRebalanceMs                          v7+ (math.MaxInt64: none)
//
// A taskId is int32 subtopology, int32 partition and, from version 10, the
// named topology as int32 count + count UTF-16 code units (0 for none).
// Kafka Streams builds the maps from HashMaps, so their order on the wire is
// no contract: this package decodes them into Go maps and encodes them in a
// sorted order.
//
// # Decoding untrusted bytes
//
// Decoders never panic and never allocate more than the input can hold: a
// count is checked against the bytes left before anything is read. They
// fail where Kafka Streams fails (truncation, negative counts, a version out
// of range, a latestSupportedVersion below the version) with a *DecodeError
// naming the version, the field and the byte offset; like Kafka Streams they
// ignore trailing bytes. Where Kafka Streams reads on with a hole (a topic
// index missing from the dictionary becomes a null topic) they fail.
//
// The format facts and their sources are in
// shared/reference/kafka-streams-group-protocols.md, sections 1.1-1.5; the
// golden vectors under testdata/ were written by the Kafka Streams 4.4 jar
// (see testdata/README.md).
package assignment
