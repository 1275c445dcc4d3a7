package assignment

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// TaskID names a task: partition Partition of sub-topology Subtopology
// (Kafka's topicGroupId), in the named topology NamedTopology ("" for none;
// named topologies are an experimental Kafka Streams feature that only
// protocol versions 10 and later carry).
type TaskID struct {
	Subtopology   int32
	Partition     int32
	NamedTopology string
}

// namedTopologyDelimiter separates a named topology from the rest of a task
// id's text (TaskId.NAMED_TOPOLOGY_DELIMITER).
const namedTopologyDelimiter = "__"

// String returns the task id as Kafka prints it: "0_1", or "name__0_1" in a
// named topology.
func (t TaskID) String() string {
	s := strconv.Itoa(int(t.Subtopology)) + "_" + strconv.Itoa(int(t.Partition))
	if t.NamedTopology != "" {
		return t.NamedTopology + namedTopologyDelimiter + s
	}
	return s
}

// Compare orders task ids as Kafka's TaskId.compareTo does: by named
// topology (in Java's string order), sub-topology, then partition. Java
// refuses to compare a named with an unnamed task id; here the unnamed one
// comes first.
func (t TaskID) Compare(o TaskID) int {
	if c := compareJava(t.NamedTopology, o.NamedTopology); c != 0 {
		return c
	}
	if c := cmpInt(int(t.Subtopology), int(o.Subtopology)); c != 0 {
		return c
	}
	return cmpInt(int(t.Partition), int(o.Partition))
}

// ErrTaskIDFormat is wrapped by ParseTaskID's errors (Kafka's
// TaskIdFormatException).
var ErrTaskIDFormat = errors.New("assignment: invalid task id")

// ParseTaskID parses a task id as Kafka's TaskId.parse does: "0_1", or
// "name__0_1" for a task of a named topology; an empty name ("__0_1") is no
// name. The numbers are decimal int32s and may carry a sign, as
// Integer.parseInt reads them.
func ParseTaskID(s string) (TaskID, error) {
	name, rest := "", s
	if i := strings.Index(s, namedTopologyDelimiter); i >= 0 {
		name, rest = s[:i], s[i+len(namedTopologyDelimiter):]
	}
	sub, part, ok := strings.Cut(rest, "_")
	if !ok {
		return TaskID{}, fmt.Errorf("%w: %q", ErrTaskIDFormat, s)
	}
	st, err1 := strconv.ParseInt(sub, 10, 32)
	p, err2 := strconv.ParseInt(part, 10, 32)
	if err1 != nil || err2 != nil {
		return TaskID{}, fmt.Errorf("%w: %q", ErrTaskIDFormat, s)
	}
	return TaskID{Subtopology: int32(st), Partition: int32(p), NamedTopology: name}, nil
}

// readTaskID reads an AssignmentInfo task id (ConsumerProtocolUtils).
func (r *reader) taskID(field string) TaskID {
	t := TaskID{Subtopology: r.int32(field), Partition: r.int32(field)}
	if r.version >= MinNamedTopologyVersion {
		t.NamedTopology = r.utf16Chars(field)
	}
	return t
}

// taskID appends an AssignmentInfo task id (ConsumerProtocolUtils). Below
// version 10 a named topology cannot be written, and Kafka Streams refuses
// it.
func (w *writer) taskID(field string, t TaskID) {
	w.b = appendInt32(appendInt32(w.b, t.Subtopology), t.Partition)
	switch {
	case w.version >= MinNamedTopologyVersion:
		w.b = appendUTF16Chars(w.b, t.NamedTopology)
	case t.NamedTopology != "" && w.err == nil:
		w.err = &EncodeError{Message: "AssignmentInfo", Version: w.version, Field: field,
			Reason: fmt.Sprintf("task %s: named topologies are not compatible with protocol version %d", t, w.version)}
	}
}
