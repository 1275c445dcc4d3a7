package taskassign

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"slices"
	"strings"
	"unicode/utf16"

	"github.com/stoatflow/stoatflow/internal/assignment"
)

// The assignor works on the ids of package assignment, the ones the
// subscriptions carry: assignment.TaskID, assignment.ProcessID (ordered as
// Java's UUID.compareTo) and assignment.TopicPartition. What follows are
// the few Java behaviours only the assignor needs: the hash codes that fix
// HashSet iteration orders, String.compareTo for member ids, and the check
// that keeps named topologies out.

// checkUnnamed reports a task of a named topology, which the assignor
// does not place: Kafka Streams' TaskId.compareTo refuses to order a named
// task against an unnamed one, and the hash orders here are those of
// unnamed tasks.
func checkUnnamed(t assignment.TaskID) error {
	if t.NamedTopology != "" {
		return fmt.Errorf("%w: task %s has named topology %q; named topologies are not supported",
			ErrUnsupported, t, t.NamedTopology)
	}
	return nil
}

// checkUnnamedAll is checkUnnamed over a list of tasks.
func checkUnnamedAll(tasks []assignment.TaskID) error {
	for _, t := range tasks {
		if err := checkUnnamed(t); err != nil {
			return err
		}
	}
	return nil
}

// checkUnnamedKeys is checkUnnamed over the keys of a map.
func checkUnnamedKeys[V any](m map[assignment.TaskID]V) error {
	for t := range m {
		if err := checkUnnamed(t); err != nil {
			return err
		}
	}
	return nil
}

// taskHash is TaskId.hashCode, Objects.hash(subtopology, partition,
// topologyName), for a task without a named topology (checkUnnamed keeps
// the others out).
func taskHash(t assignment.TaskID) int32 {
	h := int32(1)
	h = 31*h + t.Subtopology
	h = 31*h + t.Partition
	return 31 * h // the null topology name hashes to 0
}

// subtopologyHash is the hash of Kafka Streams' Subtopology key,
// Objects.hash(nodeGroupId, namedTopology), without a named topology.
func subtopologyHash(sub int32) int32 {
	return 31 * (31 + sub) // the null topology name hashes to 0
}

// javaStringHash is String.hashCode: s[0]*31^(n-1) + ... + s[n-1] over
// the UTF-16 code units, wrapping as Java's int does.
func javaStringHash(s string) int32 {
	var h int32
	if isASCII(s) {
		for i := 0; i < len(s); i++ {
			h = 31*h + int32(s[i])
		}
		return h
	}
	for _, u := range utf16.Encode([]rune(s)) {
		h = 31*h + int32(u)
	}
	return h
}

// processHash is UUID.hashCode: the xor of the two halves, folded.
func processHash(p assignment.ProcessID) int32 {
	x := int64(binary.BigEndian.Uint64(p[:8]) ^ binary.BigEndian.Uint64(p[8:]))
	return int32(x>>32) ^ int32(x)
}

// javaStringCompare is String.compareTo, the order of member ids: UTF-16
// code units compared as unsigned numbers. It differs from Go's byte order
// only for characters beyond U+FFFF against U+E000-U+FFFF.
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
type taskSet struct{ s []assignment.TaskID }

func newTaskSet(tasks ...assignment.TaskID) taskSet {
	var t taskSet
	for _, x := range tasks {
		t.add(x)
	}
	return t
}

func (t *taskSet) find(x assignment.TaskID) (int, bool) {
	return slices.BinarySearchFunc(t.s, x, assignment.TaskID.Compare)
}

func (t *taskSet) add(x assignment.TaskID) bool {
	i, ok := t.find(x)
	if ok {
		return false
	}
	t.s = slices.Insert(t.s, i, x)
	return true
}

func (t *taskSet) remove(x assignment.TaskID) bool {
	i, ok := t.find(x)
	if !ok {
		return false
	}
	t.s = slices.Delete(t.s, i, i+1)
	return true
}

func (t *taskSet) contains(x assignment.TaskID) bool {
	_, ok := t.find(x)
	return ok
}

func (t *taskSet) len() int { return len(t.s) }

// items returns a copy, in order.
func (t *taskSet) items() []assignment.TaskID { return slices.Clone(t.s) }
