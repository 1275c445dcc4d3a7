package taskassign

import (
	"cmp"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
)

// TaskID names a task: partition Partition of sub-topology Subtopology,
// written "<subtopology>_<partition>" as Kafka Streams writes it. Named
// topologies are not supported.
type TaskID struct {
	Subtopology int32
	Partition   int32
}

// String is Kafka's TaskId.toString, e.g. "0_3".
func (t TaskID) String() string {
	return strconv.Itoa(int(t.Subtopology)) + "_" + strconv.Itoa(int(t.Partition))
}

// Compare orders tasks as Kafka's TaskId.compareTo: by sub-topology, then
// partition.
func (t TaskID) Compare(o TaskID) int {
	if c := cmp.Compare(t.Subtopology, o.Subtopology); c != 0 {
		return c
	}
	return cmp.Compare(t.Partition, o.Partition)
}

// javaHash is TaskId.hashCode, Objects.hash(subtopology, partition, null).
func (t TaskID) javaHash() int32 {
	h := int32(1)
	h = 31*h + t.Subtopology
	h = 31*h + t.Partition
	return 31 * h // the null topology name hashes to 0
}

// ParseTaskID reads "<subtopology>_<partition>".
func ParseTaskID(s string) (TaskID, error) {
	a, b, ok := strings.Cut(s, "_")
	if !ok {
		return TaskID{}, fmt.Errorf("%w: task id %q", ErrInvalid, s)
	}
	sub, err1 := strconv.ParseInt(a, 10, 32)
	part, err2 := strconv.ParseInt(b, 10, 32)
	if err1 != nil || err2 != nil {
		return TaskID{}, fmt.Errorf("%w: task id %q", ErrInvalid, s)
	}
	return TaskID{Subtopology: int32(sub), Partition: int32(part)}, nil
}

// MarshalText writes the task as String does, so tasks can key JSON maps.
func (t TaskID) MarshalText() ([]byte, error) { return []byte(t.String()), nil }

// UnmarshalText reads what MarshalText writes.
func (t *TaskID) UnmarshalText(b []byte) error {
	v, err := ParseTaskID(string(b))
	if err != nil {
		return err
	}
	*t = v
	return nil
}

// ProcessID is a Kafka Streams instance's UUID (its process id), the
// sixteen bytes of the most then least significant halves, big-endian.
type ProcessID [16]byte

func (p ProcessID) halves() (msb, lsb int64) {
	return int64(binary.BigEndian.Uint64(p[:8])), int64(binary.BigEndian.Uint64(p[8:]))
}

// Compare orders process ids as Java's UUID.compareTo: the most
// significant halves compared as signed 64-bit numbers, then the least
// significant ones. It is not the order of the strings: a UUID whose first
// hex digit is 8 or more sorts before one starting with 0-7.
func (p ProcessID) Compare(o ProcessID) int {
	am, al := p.halves()
	bm, bl := o.halves()
	if c := cmp.Compare(am, bm); c != 0 {
		return c
	}
	return cmp.Compare(al, bl)
}

// javaHash is UUID.hashCode.
func (p ProcessID) javaHash() int32 {
	m, l := p.halves()
	x := m ^ l
	return int32(x>>32) ^ int32(x)
}

// String is the UUID's canonical form.
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

// ParseProcessID reads a UUID in its canonical form.
func ParseProcessID(s string) (ProcessID, error) {
	var p ProcessID
	if len(s) != 36 || s[8] != '-' || s[13] != '-' || s[18] != '-' || s[23] != '-' {
		return p, fmt.Errorf("%w: process id %q", ErrInvalid, s)
	}
	h := s[0:8] + s[9:13] + s[14:18] + s[19:23] + s[24:]
	if _, err := hex.Decode(p[:], []byte(h)); err != nil {
		return p, fmt.Errorf("%w: process id %q: %w", ErrInvalid, s, err)
	}
	return p, nil
}

// MarshalText writes the canonical form.
func (p ProcessID) MarshalText() ([]byte, error) { return []byte(p.String()), nil }

// UnmarshalText reads the canonical form.
func (p *ProcessID) UnmarshalText(b []byte) error {
	v, err := ParseProcessID(string(b))
	if err != nil {
		return err
	}
	*p = v
	return nil
}

// TopicPartition is a partition of a topic.
type TopicPartition struct {
	Topic     string
	Partition int32
}

func (tp TopicPartition) String() string {
	return tp.Topic + "-" + strconv.Itoa(int(tp.Partition))
}

// compareTopicPartitions is Kafka Streams' partition order: topic as
// String.compareTo, then partition.
func compareTopicPartitions(a, b TopicPartition) int {
	if c := javaStringCompare(a.Topic, b.Topic); c != 0 {
		return c
	}
	return cmp.Compare(a.Partition, b.Partition)
}

// javaStringCompare is String.compareTo: UTF-16 code units compared as
// unsigned numbers. It differs from Go's byte order only for characters
// beyond U+FFFF against U+E000-U+FFFF.
func javaStringCompare(a, b string) int {
	if isASCII(a) && isASCII(b) {
		return strings.Compare(a, b)
	}
	ua, ub := utf16.Encode([]rune(a)), utf16.Encode([]rune(b))
	for i := 0; i < len(ua) && i < len(ub); i++ {
		if ua[i] != ub[i] {
			return cmp.Compare(ua[i], ub[i])
		}
	}
	return cmp.Compare(len(ua), len(ub))
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// taskSet is a TreeSet<TaskId>: a set kept in TaskId order.
type taskSet struct{ s []TaskID }

func newTaskSet(tasks ...TaskID) taskSet {
	var t taskSet
	for _, x := range tasks {
		t.add(x)
	}
	return t
}

func (t *taskSet) find(x TaskID) (int, bool) {
	return slices.BinarySearchFunc(t.s, x, TaskID.Compare)
}

func (t *taskSet) add(x TaskID) bool {
	i, ok := t.find(x)
	if ok {
		return false
	}
	t.s = slices.Insert(t.s, i, x)
	return true
}

func (t *taskSet) remove(x TaskID) bool {
	i, ok := t.find(x)
	if !ok {
		return false
	}
	t.s = slices.Delete(t.s, i, i+1)
	return true
}

func (t *taskSet) contains(x TaskID) bool {
	_, ok := t.find(x)
	return ok
}

func (t *taskSet) len() int { return len(t.s) }

// items returns a copy, in order.
func (t *taskSet) items() []TaskID { return slices.Clone(t.s) }
