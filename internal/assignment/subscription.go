package assignment

import (
	"cmp"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"strings"
)

// ProcessID is a Kafka Streams instance's UUID (processId), the one kept in
// <state.dir>/<application.id>/kafka-streams-process-metadata.
type ProcessID [16]byte

// String returns the UUID in its canonical form, as Java's UUID.toString.
func (p ProcessID) String() string {
	var b [36]byte
	hex.Encode(b[0:8], p[0:4])
	b[8] = '-'
	hex.Encode(b[9:13], p[4:6])
	b[13] = '-'
	hex.Encode(b[14:18], p[6:8])
	b[18] = '-'
	hex.Encode(b[19:23], p[8:10])
	b[23] = '-'
	hex.Encode(b[24:], p[10:])
	return string(b[:])
}

// Compare orders process ids as Java's UUID.compareTo, the order of Kafka
// Streams' TreeMaps and sorted sets of clients: the most significant
// halves compared as signed 64-bit numbers, then the least significant
// ones. It is not the order of the bytes or of the strings: an id whose
// first hex digit is 8 or more sorts before one starting with 0-7.
func (p ProcessID) Compare(o ProcessID) int {
	if c := cmp.Compare(int64(binary.BigEndian.Uint64(p[:8])), int64(binary.BigEndian.Uint64(o[:8]))); c != 0 {
		return c
	}
	return cmp.Compare(int64(binary.BigEndian.Uint64(p[8:])), int64(binary.BigEndian.Uint64(o[8:])))
}

// ParseProcessID parses a UUID in its canonical 8-4-4-4-12 hex form.
func ParseProcessID(s string) (ProcessID, error) {
	var p ProcessID
	if len(s) != 36 || s[8] != '-' || s[13] != '-' || s[18] != '-' || s[23] != '-' {
		return p, fmt.Errorf("assignment: invalid process id %q", s)
	}
	h := s[0:8] + s[9:13] + s[14:18] + s[19:23] + s[24:]
	if _, err := hex.Decode(p[:], []byte(strings.ToLower(h))); err != nil {
		return p, fmt.Errorf("assignment: invalid process id %q", s)
	}
	return p, nil
}

// TaskOffsetSum is one task a member has state for, with the sum of its
// stores' changelog offsets, or LatestOffset for a running active task.
type TaskOffsetSum struct {
	Task      TaskID
	OffsetSum int64
}

// ClientTag is one client.tag.* of a member (key without the prefix).
type ClientTag struct {
	Key, Value string
}

// SubscriptionInfo is the user data of a member's subscription: what the
// leader of Kafka Streams' assignor learns about the member. Which fields a
// version carries is in the package documentation; a field the version
// lacks holds its zero value (LatestSupportedVersion: UnknownVersion).
//
// Lists keep their order on the wire, so encoding a decoded value gives the
// bytes back. Strings from the wire (UserEndPoint, named topologies, client
// tags) keep their bytes as written, even if they are not UTF-8.
type SubscriptionInfo struct {
	Version int32
	// LatestSupportedVersion is the highest version the member speaks,
	// from version 3; UnknownVersion (-1) below.
	LatestSupportedVersion int32
	ProcessID              ProcessID
	// PrevTasks and StandbyTasks (versions 1-6) are the member's running
	// active tasks and its other tasks with local state. Task ids here have
	// no named topology.
	PrevTasks    []TaskID
	StandbyTasks []TaskID
	// UserEndPoint is application.server, "host:port" (version 2+); ""
	// when unset.
	UserEndPoint string
	// TaskOffsetSums (version 7+) are the tasks the member has state for.
	// Versions 7-9 group them by sub-topology on the wire; the encoder
	// writes each run of one sub-topology as a group.
	TaskOffsetSums []TaskOffsetSum
	// UniqueField (version 8+) changes at every rejoin, so the group sees
	// new metadata and rebalances.
	UniqueField int8
	ErrorCode   ErrorCode   // version 9+
	ClientTags  []ClientTag // version 11+
}

// Future reports whether s is a subscription of a version above
// LatestSupportedVersion, of which only Version and LatestSupportedVersion
// are read: the member asks for version probing.
func (s *SubscriptionInfo) Future() bool { return s.Version > LatestSupportedVersion }

// OffsetSums returns the tasks the member has state for with their offset
// sums, for every version: TaskOffsetSums from version 7; below, PrevTasks
// with LatestOffset then StandbyTasks with UnknownOffsetSum, as Kafka
// Streams' SubscriptionInfo.taskOffsetSums reads an old subscription.
func (s *SubscriptionInfo) OffsetSums() []TaskOffsetSum {
	if s.Version >= 7 {
		return s.TaskOffsetSums
	}
	var out []TaskOffsetSum
	for _, t := range s.PrevTasks {
		out = append(out, TaskOffsetSum{Task: t, OffsetSum: LatestOffset})
	}
	for _, t := range s.StandbyTasks {
		out = append(out, TaskOffsetSum{Task: t, OffsetSum: UnknownOffsetSum})
	}
	return out
}

// AtVersion returns s shaped for version, as Kafka Streams' SubscriptionInfo
// constructor shapes a subscription from its offset sums: below version 7
// the tasks with LatestOffset become PrevTasks and the others StandbyTasks;
// fields the version lacks are cleared (LatestSupportedVersion becomes
// UnknownVersion below 3). The tasks are s.OffsetSums(). Kafka refuses
// named topologies below version 10, and so does AtVersion.
func (s *SubscriptionInfo) AtVersion(version int32) (SubscriptionInfo, error) {
	if version < 1 || version > LatestSupportedVersion {
		return SubscriptionInfo{}, &EncodeError{Message: "SubscriptionInfo", Version: version, Field: "version",
			Reason: fmt.Sprintf("not between 1 and %d", LatestSupportedVersion)}
	}
	sums := s.OffsetSums()
	out := SubscriptionInfo{
		Version:                version,
		LatestSupportedVersion: s.LatestSupportedVersion,
		ProcessID:              s.ProcessID,
		UserEndPoint:           s.UserEndPoint,
		UniqueField:            s.UniqueField,
		ErrorCode:              s.ErrorCode,
		ClientTags:             s.ClientTags,
	}
	if version < MinNamedTopologyVersion {
		for _, t := range sums {
			if t.Task.NamedTopology != "" {
				return SubscriptionInfo{}, &EncodeError{Message: "SubscriptionInfo", Version: version, Field: "taskOffsetSums",
					Reason: "named topologies are not compatible with older protocol versions"}
			}
		}
	}
	if version >= 7 {
		out.TaskOffsetSums = sums
	} else {
		for _, t := range sums {
			if t.OffsetSum == LatestOffset {
				out.PrevTasks = append(out.PrevTasks, t.Task)
			} else {
				out.StandbyTasks = append(out.StandbyTasks, t.Task)
			}
		}
	}
	if version < 3 {
		out.LatestSupportedVersion = UnknownVersion
	}
	if version < 2 {
		out.UserEndPoint = ""
	}
	if version < 8 {
		out.UniqueField = 0
	}
	if version < 9 {
		out.ErrorCode = ErrorNone
	}
	if version < 11 {
		out.ClientTags = nil
	}
	return out, nil
}

// checkVersions is Kafka's SubscriptionInfo.validateVersions: UnknownVersion
// as latestSupportedVersion only for versions 1-2, otherwise a version
// between 1 and latestSupportedVersion.
func checkVersions(version, latest int32) string {
	if latest == UnknownVersion {
		if version < 1 || version > 2 {
			return fmt.Sprintf("only versions 1 and 2 may have an unknown (-1) latestSupportedVersion, got version %d", version)
		}
		return ""
	}
	if version < 1 || version > latest {
		return fmt.Sprintf("version must be between 1 and latestSupportedVersion %d; was: %d", latest, version)
	}
	return ""
}

// DecodeSubscriptionInfo decodes a subscription's user data as Kafka
// Streams 4.4 does (SubscriptionInfo.decode). A future version (above
// LatestSupportedVersion) decodes to its Version and LatestSupportedVersion
// only; see Future.
func DecodeSubscriptionInfo(b []byte) (*SubscriptionInfo, error) {
	r := &reader{b: b, message: "SubscriptionInfo"}
	s := &SubscriptionInfo{Version: r.int32("version"), LatestSupportedVersion: UnknownVersion}
	if r.err != nil {
		return nil, r.err
	}
	r.version = s.Version
	if s.Version < 1 {
		r.fail("version", 0, ErrUnsupportedVersion, "unsupported version %d", s.Version)
		return nil, r.err
	}
	if s.Version > LatestSupportedVersion {
		s.LatestSupportedVersion = r.int32("latestSupportedVersion")
	} else {
		s.decodeFields(r)
	}
	if r.err != nil {
		return nil, r.err
	}
	if msg := checkVersions(s.Version, s.LatestSupportedVersion); msg != "" {
		r.fail("latestSupportedVersion", 4, ErrMalformed, "%s", msg)
		return nil, r.err
	}
	return s, nil
}

func (s *SubscriptionInfo) decodeFields(r *reader) {
	v := s.Version
	if v >= 3 {
		s.LatestSupportedVersion = r.int32("latestSupportedVersion")
	}
	copy(s.ProcessID[:], r.take("processId", 16))
	if v <= 6 {
		s.PrevTasks = r.taskIDs("prevTasks")
		s.StandbyTasks = r.taskIDs("standbyTasks")
	}
	if v >= 2 {
		s.UserEndPoint = string(r.bytes("userEndPoint"))
	}
	if v >= 7 {
		s.TaskOffsetSums = r.taskOffsetSums("taskOffsetSums")
	}
	if v >= 8 {
		s.UniqueField = r.int8("uniqueField")
	}
	if v >= 9 {
		s.ErrorCode = ErrorCode(r.int32("errorCode"))
	}
	if v >= 11 {
		n := r.arrayCount("clientTags", 8)
		for i := 0; i < n && r.err == nil; i++ {
			k := r.bytes("clientTags")
			val := r.bytes("clientTags")
			s.ClientTags = append(s.ClientTags, ClientTag{Key: string(k), Value: string(val)})
		}
	}
}

func (r *reader) taskIDs(field string) []TaskID {
	n := r.arrayCount(field, 8)
	var out []TaskID
	if n > 0 {
		out = make([]TaskID, 0, n)
	}
	for i := 0; i < n && r.err == nil; i++ {
		out = append(out, TaskID{Subtopology: r.int32(field), Partition: r.int32(field)})
	}
	return out
}

func (r *reader) taskOffsetSums(field string) []TaskOffsetSum {
	var out []TaskOffsetSum
	if r.version >= MinNamedTopologyVersion {
		n := r.arrayCount(field, 18)
		for i := 0; i < n && r.err == nil; i++ {
			var t TaskOffsetSum
			t.Task.Subtopology = r.int32(field)
			t.Task.Partition = r.int32(field)
			t.OffsetSum = r.int64(field)
			t.Task.NamedTopology = r.nullableString(field)
			out = append(out, t)
		}
		return out
	}
	groups := r.arrayCount(field, 8)
	for i := 0; i < groups && r.err == nil; i++ {
		sub := r.int32(field)
		n := r.arrayCount(field, 12)
		for j := 0; j < n && r.err == nil; j++ {
			t := TaskOffsetSum{Task: TaskID{Subtopology: sub, Partition: r.int32(field)}}
			t.OffsetSum = r.int64(field)
			out = append(out, t)
		}
	}
	return out
}

// Encode encodes s at s.Version as Kafka Streams 4.4 does
// (SubscriptionInfo.encode, MessageUtil.toByteBuffer). Like Kafka's
// generated writer it refuses a value in a field s.Version lacks (see
// AtVersion to shape a subscription for a version), and like Kafka Streams
// it refuses a future version.
func (s *SubscriptionInfo) Encode() ([]byte, error) {
	return s.AppendTo(nil)
}

// AppendTo appends s's encoding to b; see Encode.
func (s *SubscriptionInfo) AppendTo(b []byte) ([]byte, error) {
	v := s.Version
	bad := func(field, format string, args ...any) ([]byte, error) {
		return b, &EncodeError{Message: "SubscriptionInfo", Version: v, Field: field, Reason: fmt.Sprintf(format, args...)}
	}
	if v < 1 || v > LatestSupportedVersion {
		return bad("version", "not between 1 and %d", LatestSupportedVersion)
	}
	if msg := checkVersions(v, s.LatestSupportedVersion); msg != "" && v >= 3 {
		return bad("latestSupportedVersion", "%s", msg)
	}
	switch {
	case v < 3 && s.LatestSupportedVersion != UnknownVersion:
		return bad("latestSupportedVersion", "must be %d below version 3, is %d", UnknownVersion, s.LatestSupportedVersion)
	case v < 2 && s.UserEndPoint != "":
		return bad("userEndPoint", "needs version 2")
	case v > 6 && (len(s.PrevTasks) > 0 || len(s.StandbyTasks) > 0):
		return bad("prevTasks", "only versions 1-6 carry prevTasks and standbyTasks; use TaskOffsetSums")
	case v < 7 && len(s.TaskOffsetSums) > 0:
		return bad("taskOffsetSums", "needs version 7; use PrevTasks and StandbyTasks (or AtVersion)")
	case v < 8 && s.UniqueField != 0:
		return bad("uniqueField", "needs version 8")
	case v < 9 && s.ErrorCode != ErrorNone:
		return bad("errorCode", "needs version 9")
	case v < 11 && len(s.ClientTags) > 0:
		return bad("clientTags", "needs version 11")
	}
	for _, ts := range [][]TaskID{s.PrevTasks, s.StandbyTasks} {
		for _, t := range ts {
			if t.NamedTopology != "" {
				return bad("prevTasks", "task %s: named topologies need version %d", t, MinNamedTopologyVersion)
			}
		}
	}
	for _, t := range s.TaskOffsetSums {
		if v < MinNamedTopologyVersion && t.Task.NamedTopology != "" {
			return bad("taskOffsetSums", "task %s: named topologies are not compatible with older protocol versions", t.Task)
		}
		if len(t.Task.NamedTopology) > 0x7FFF {
			return bad("taskOffsetSums", "named topology of %d bytes is too long to be serialized", len(t.Task.NamedTopology))
		}
	}

	b = appendInt32(b, v)
	if v >= 3 {
		b = appendInt32(b, s.LatestSupportedVersion)
	}
	b = append(b, s.ProcessID[:]...)
	if v <= 6 {
		for _, ts := range [][]TaskID{s.PrevTasks, s.StandbyTasks} {
			b = appendInt32(b, int32(len(ts)))
			for _, t := range ts {
				b = appendInt32(appendInt32(b, t.Subtopology), t.Partition)
			}
		}
	}
	if v >= 2 {
		b = appendBytes(b, []byte(s.UserEndPoint))
	}
	if v >= MinNamedTopologyVersion {
		b = appendInt32(b, int32(len(s.TaskOffsetSums)))
		for _, t := range s.TaskOffsetSums {
			b = appendInt32(appendInt32(b, t.Task.Subtopology), t.Task.Partition)
			b = appendInt64(b, t.OffsetSum)
			if t.Task.NamedTopology == "" {
				b = appendInt16(b, -1)
			} else {
				b = appendInt16(b, int16(len(t.Task.NamedTopology)))
				b = append(b, t.Task.NamedTopology...)
			}
		}
	} else if v >= 7 {
		b = appendGroupedOffsetSums(b, s.TaskOffsetSums)
	}
	if v >= 8 {
		b = append(b, byte(s.UniqueField))
	}
	if v >= 9 {
		b = appendInt32(b, int32(s.ErrorCode))
	}
	if v >= 11 {
		b = appendInt32(b, int32(len(s.ClientTags)))
		for _, t := range s.ClientTags {
			b = appendBytes(appendBytes(b, []byte(t.Key)), []byte(t.Value))
		}
	}
	return b, nil
}

// appendGroupedOffsetSums writes versions 7-9's taskOffsetSums: one group
// per run of tasks of one sub-topology, in order.
func appendGroupedOffsetSums(b []byte, sums []TaskOffsetSum) []byte {
	groups := 0
	for i := range sums {
		if i == 0 || sums[i].Task.Subtopology != sums[i-1].Task.Subtopology {
			groups++
		}
	}
	b = appendInt32(b, int32(groups))
	for i := 0; i < len(sums); {
		j := i + 1
		for j < len(sums) && sums[j].Task.Subtopology == sums[i].Task.Subtopology {
			j++
		}
		b = appendInt32(b, sums[i].Task.Subtopology)
		b = appendInt32(b, int32(j-i))
		for _, t := range sums[i:j] {
			b = appendInt64(appendInt32(b, t.Task.Partition), t.OffsetSum)
		}
		i = j
	}
	return b
}
