package taskassign

import (
	"fmt"
	"testing"

	"github.com/stoatflow/stoatflow/internal/assignment"
)

// The expected values in this file were printed by OpenJDK 17 for the same
// operations on java.util.UUID, Objects.hash, HashSet and PriorityQueue.

func mustPID(t *testing.T, s string) assignment.ProcessID {
	t.Helper()
	p, err := assignment.ParseProcessID(s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestProcessIDHashIsJava(t *testing.T) {
	if h := processHash(mustPID(t, "f1e2d3c4-b5a6-9788-6950-4a3b2c1d0e0f")); h != 17367160 {
		t.Errorf("UUID hash %d, want 17367160", h)
	}
	var pids []assignment.ProcessID
	for _, s := range []string{
		"00000000-0000-0000-0000-000000000001",
		"80000000-0000-0000-0000-000000000002",
		"12345678-9abc-def0-1234-56789abcdef0",
		"ffffffff-ffff-ffff-ffff-fffffffffff0",
		"0000000f-0000-0000-0000-000000000000",
	} {
		pids = append(pids, mustPID(t, s))
	}
	wantHashed := []string{ // HashSet<UUID> iteration
		"12345678-9abc-def0-1234-56789abcdef0",
		"00000000-0000-0000-0000-000000000001",
		"80000000-0000-0000-0000-000000000002",
		"ffffffff-ffff-ffff-ffff-fffffffffff0",
		"0000000f-0000-0000-0000-000000000000",
	}
	if got := fmt.Sprint(javaHashSetOrder(pids, processHash)); got != fmt.Sprint(wantHashed) {
		t.Errorf("hash order %s, want %s", got, wantHashed)
	}
}

func TestTaskIDHashSetOrderIsJava(t *testing.T) {
	if h := taskHash(task(3, 11)); h != 33015 {
		t.Errorf("TaskId hash %d, want 33015", h)
	}
	in := []assignment.TaskID{t00, t01, t02, t10, t11, t12, t20, task(2, 5), task(3, 11), task(0, 7), task(1, 9), t22, task(3, 3), task(0, 4)}
	want := "[1_0 2_0 3_11 1_9 0_7 0_4 2_5 0_2 0_1 1_2 0_0 1_1 2_2 3_3]"
	if got := fmt.Sprint(javaHashSetOrder(in, taskHash)); got != want {
		t.Errorf("hash order %s, want %s", got, want)
	}
}

func TestHashSetGrowsAsJava(t *testing.T) {
	ident := func(i int32) int32 { return i }
	// Nine in one bucket of sixteen: Java doubles the table instead of
	// making the bucket a tree.
	var nine []int32
	for i := int32(8); i >= 0; i-- {
		nine = append(nine, i*16)
	}
	if got, want := fmt.Sprint(javaHashSetOrder(nine, ident)), "[128 96 64 32 0 112 80 48 16]"; got != want {
		t.Errorf("nine colliding: %s, want %s", got, want)
	}
	// Thirteen elements pass the load factor of sixteen buckets.
	var thirteen []int32
	for i := int32(0); i < 13; i++ {
		thirteen = append(thirteen, 70000+5*i)
	}
	want := "[70050 70020 70055 70025 70060 70030 70000 70035 70005 70040 70010 70045 70015]"
	if got := fmt.Sprint(javaHashSetOrder(thirteen, ident)); got != want {
		t.Errorf("thirteen: %s, want %s", got, want)
	}
}

func TestPriorityQueueIsJava(t *testing.T) {
	q := newJavaPQFrom([]int{9, 3, 7, 1, 8, 2, 6, 5, 4, 0}, func(a, b int) int { return a - b })
	if got, want := fmt.Sprint(q.es), "[0 1 2 4 3 7 6 5 9 8]"; got != want {
		t.Errorf("heapified %s, want %s", got, want)
	}
	q.remove(3)
	q.poll()
	q.offer(-1)
	q.remove(8)
	if got, want := fmt.Sprint(q.es), "[-1 1 2 4 5 7 6 9]"; got != want {
		t.Errorf("after remove, poll, offer, remove: %s, want %s", got, want)
	}
}

func TestJavaStringOrder(t *testing.T) {
	// U+1F600 is D83D DE00 in UTF-16, below U+FF5E, so Java puts it
	// first; Go's byte order (F0 9F... against EF BD 9E) puts it last.
	if c := javaStringCompare("\U0001F600", "\uFF5E"); c >= 0 {
		t.Errorf("compare emoji, U+FF5E = %d, want < 0", c)
	}
	if c := javaStringCompare("member-1", "member-10"); c >= 0 {
		t.Errorf("prefix compares %d", c)
	}
}
