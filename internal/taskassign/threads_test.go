package taskassign

import (
	"fmt"
	"testing"

	"github.com/stoatflow/stoatflow/internal/assignment"
)

func tp(topic string, p int32) assignment.TopicPartition {
	return assignment.TopicPartition{Topic: topic, Partition: p}
}

// oneTopic maps task 0_p to partition p of topic "in".
func oneTopic(tasks ...assignment.TaskID) (map[assignment.TaskID][]assignment.TopicPartition, map[assignment.TopicPartition]assignment.TaskID) {
	byTask := map[assignment.TaskID][]assignment.TopicPartition{}
	byPartition := map[assignment.TopicPartition]assignment.TaskID{}
	for _, t := range tasks {
		byTask[t] = []assignment.TopicPartition{tp("in", t.Partition)}
		byPartition[tp("in", t.Partition)] = t
	}
	return byTask, byPartition
}

func endOffsets(sum int64, tasks ...assignment.TaskID) map[assignment.TaskID]int64 {
	m := map[assignment.TaskID]int64{}
	for _, t := range tasks {
		m[t] = sum
	}
	return m
}

func describe(a ConsumerAssignment) string {
	return fmt.Sprintf("active %v on %v standby %v held %v followup %d", a.Active, a.Partitions, a.Standby, a.HeldBack, a.Followup)
}

func TestThreadsKeepTheirTasks(t *testing.T) {
	all := []assignment.TaskID{t00, t01, t02, t03}
	byTask, byPartition := oneTopic(all...)
	c := NewClientState(pid(1), nil)
	addConsumer(t, c, "a", []assignment.TopicPartition{tp("in", 0), tp("in", 1)}, map[assignment.TaskID]int64{t00: assignment.LatestOffset, t01: assignment.LatestOffset})
	addConsumer(t, c, "b", nil, nil)
	if err := c.Init(byPartition, endOffsets(100, all...)); err != nil {
		t.Fatal(err)
	}
	mustAssign(t, []*ClientState{c}, all, all, DefaultConfig())
	got, followup, err := AssignThreads([]*ClientState{c}, byTask, all)
	if err != nil {
		t.Fatal(err)
	}
	if followup {
		t.Error("follow-up rebalance asked for")
	}
	want := map[string]string{
		"a": "active [0_0 0_1] on [in-0 in-1] standby [] held [] followup 0",
		"b": "active [0_2 0_3] on [in-2 in-3] standby [] held [] followup 0",
	}
	for member, w := range want {
		if d := describe(got[member]); d != w {
			t.Errorf("%s: %s, want %s", member, d, w)
		}
	}
}

func TestTaskStillOwnedElsewhereIsHeldBack(t *testing.T) {
	all := []assignment.TaskID{t00, t01}
	byTask, byPartition := oneTopic(all...)
	x := NewClientState(pid(1), nil)
	addConsumer(t, x, "x", []assignment.TopicPartition{tp("in", 0), tp("in", 1)}, nil)
	y := NewClientState(pid(2), nil)
	addConsumer(t, y, "y", nil, nil)
	for _, c := range []*ClientState{x, y} {
		if err := c.Init(byPartition, nil); err != nil {
			t.Fatal(err)
		}
	}
	mustAssign(t, []*ClientState{x, y}, all, nil, DefaultConfig())
	got, followup, err := AssignThreads([]*ClientState{x, y}, byTask, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !followup {
		t.Error("no follow-up rebalance asked for")
	}
	want := map[string]string{
		"x": "active [0_0] on [in-0] standby [] held [] followup 0",
		"y": "active [] on [] standby [] held [0_1] followup 1",
	}
	for member, w := range want {
		if d := describe(got[member]); d != w {
			t.Errorf("%s: %s, want %s", member, d, w)
		}
	}
}

func TestHeldBackTaskWithStateStaysAStandby(t *testing.T) {
	all := []assignment.TaskID{t00, t01}
	byTask, byPartition := oneTopic(all...)
	x := NewClientState(pid(1), nil)
	addConsumer(t, x, "x", []assignment.TopicPartition{tp("in", 0), tp("in", 1)}, map[assignment.TaskID]int64{t00: assignment.LatestOffset, t01: assignment.LatestOffset})
	y := NewClientState(pid(2), nil)
	addConsumer(t, y, "y", nil, map[assignment.TaskID]int64{t01: 100})
	for _, c := range []*ClientState{x, y} {
		if err := c.Init(byPartition, endOffsets(100, all...)); err != nil {
			t.Fatal(err)
		}
	}
	probing := mustAssign(t, []*ClientState{x, y}, all, all, config(0, 2, 0))
	checkProbing(t, probing, false)
	got, _, err := AssignThreads([]*ClientState{x, y}, byTask, all)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"x": "active [0_0] on [in-0] standby [] held [] followup 0",
		"y": "active [] on [] standby [0_1] held [0_1] followup 1",
	}
	for member, w := range want {
		if d := describe(got[member]); d != w {
			t.Errorf("%s: %s, want %s", member, d, w)
		}
	}
}

func TestInitComputesLags(t *testing.T) {
	_, byPartition := oneTopic(t00, t01, t02, t03)
	c := NewClientState(pid(1), nil)
	addConsumer(t, c, "a", []assignment.TopicPartition{tp("in", 0)}, map[assignment.TaskID]int64{t00: assignment.LatestOffset, t01: 40, t02: 500})
	addConsumer(t, c, "b", nil, map[assignment.TaskID]int64{t03: assignment.UnknownOffsetSum})
	if err := c.Init(byPartition, endOffsets(100, t00, t01, t02, t03, t10)); err != nil {
		t.Fatal(err)
	}
	want := map[assignment.TaskID]int64{t00: assignment.LatestOffset, t01: 60, t02: 100, t03: assignment.UnknownOffsetSum, t10: 100}
	for task, w := range want {
		if l, _ := c.Lag(task); l != w {
			t.Errorf("lag on %s: %d, want %d", task, l, w)
		}
	}
	checkTasks(t, "previous actives", c.PrevActiveTasks(), t00)
	checkTasks(t, "previous standbys", c.PrevStandbyTasks(), t01, t02, t03)
	if c.Capacity() != 2 {
		t.Errorf("capacity %d, want 2", c.Capacity())
	}
}

// addConsumer adds a consumer without a rack.
func addConsumer(t *testing.T, c *ClientState, member string, owned []assignment.TopicPartition, sums map[assignment.TaskID]int64) {
	t.Helper()
	if err := c.AddConsumer(member, owned, sums, ""); err != nil {
		t.Fatal(err)
	}
}
