package taskassign

import (
	"fmt"
	"maps"
	"slices"

	"github.com/stoatflow/stoatflow/internal/assignment"
)

// ClientState is one Kafka Streams instance (one process id) as the
// group leader sees it: its consumers (one per stream thread; their number
// is the client's capacity), what they owned and reported, its client tags,
// its lag on every stateful task, and, after Assign, the tasks placed on
// it. Build one with NewClientState and AddConsumer, then Init, as Kafka
// Streams' leader does from the subscriptions; or with
// NewClientStateFromLags when the lags are already known.
type ClientState struct {
	id       assignment.ProcessID
	tags     map[string]string
	capacity int

	consumers       []string // in String.compareTo order
	ownedPartitions map[assignment.TopicPartition]string
	prevByConsumer  map[string][]assignment.TaskID // the tasks each consumer reported an offset sum for
	racks           map[string]string
	offsetSums      map[assignment.TaskID]int64
	// firstRack is the rack of the first consumer added: the client's rack
	// as Kafka Streams' KIP-924 ApplicationState gives it ("" for none).
	firstRack string

	prevActive, prevStandby taskSet
	lags                    map[assignment.TaskID]int64
	initialized             bool

	active, standby, warmup taskSet
	followupRebalance       bool
	// kafkaTasks is, after AssignSticky, the iteration order of the
	// client's KafkaStreamsAssignment (a HashMap of its tasks, active and
	// standby, in the order they were placed), from which Kafka Streams
	// builds the hash sets its thread-level step reads; nil after Assign,
	// whose sets are sorted.
	kafkaTasks *hashOrder[assignment.TaskID]
}

// NewClientState returns a client without consumers. tags are its
// client.tag.* values.
func NewClientState(id assignment.ProcessID, tags map[string]string) *ClientState {
	return &ClientState{
		id:              id,
		tags:            maps.Clone(tags),
		ownedPartitions: map[assignment.TopicPartition]string{},
		prevByConsumer:  map[string][]assignment.TaskID{},
		racks:           map[string]string{},
		offsetSums:      map[assignment.TaskID]int64{},
		lags:            map[assignment.TaskID]int64{},
	}
}

// NewClientStateFromLags returns a client of the given capacity whose
// previous tasks and lags are known, as Kafka's assignor tests build them.
// Consumers are not known, so it serves client-level placement only.
func NewClientStateFromLags(id assignment.ProcessID, capacity int, prevActive, prevStandby []assignment.TaskID,
	lags map[assignment.TaskID]int64, tags map[string]string) *ClientState {
	c := NewClientState(id, tags)
	c.capacity = capacity
	c.prevActive = newTaskSet(prevActive...)
	c.prevStandby = newTaskSet(prevStandby...)
	c.lags = maps.Clone(lags)
	if c.lags == nil {
		c.lags = map[assignment.TaskID]int64{}
	}
	c.initialized = true
	return c
}

// AddConsumer adds one member (stream thread) of this client: what it
// owned before this rebalance (the OwnedPartitions of its subscription),
// the offset sums it reported per stateful task, and its rack (empty when
// unset). The first consumer's rack is the client's for AssignSticky, as
// Kafka Streams' KIP-924 state takes it. Each consumer adds one to the capacity. When two consumers
// report the same task, the later one's offset sum counts. A task of a
// named topology is refused with ErrUnsupported, and the client is left
// as it was.
func (c *ClientState) AddConsumer(memberID string, owned []assignment.TopicPartition, offsetSums map[assignment.TaskID]int64, rack string) error {
	if err := checkUnnamedKeys(offsetSums); err != nil {
		return fmt.Errorf("consumer %s: %w", memberID, err)
	}
	if len(c.prevByConsumer) == 0 {
		c.firstRack = rack
	}
	i, found := slices.BinarySearchFunc(c.consumers, memberID, javaStringCompare)
	if !found {
		c.consumers = slices.Insert(c.consumers, i, memberID)
	}
	c.capacity++
	for _, tp := range owned {
		c.ownedPartitions[tp] = memberID
	}
	maps.Copy(c.offsetSums, offsetSums)
	prev := make([]assignment.TaskID, 0, len(offsetSums))
	for t := range offsetSums {
		prev = append(prev, t)
	}
	slices.SortFunc(prev, assignment.TaskID.Compare)
	c.prevByConsumer[memberID] = prev
	c.racks[memberID] = rack
	return nil
}

// Init derives the previous tasks and the lags, as Kafka Streams' leader
// does before assigning: a task is previously active when one of the
// client's consumers owned one of its partitions or reported
// assignment.LatestOffset for it, previously standby when another offset
// sum was reported; the lag on each stateful task (the keys of
// endOffsetSums) is its end offset sum minus the reported offset sum,
// LatestOffset or UnknownOffsetSum when reported so, the end offset sum
// when nothing was reported or the reported sum is past the end (a
// corrupted task restores from scratch). A task of a named topology is
// refused with ErrUnsupported.
func (c *ClientState) Init(taskForPartition map[assignment.TopicPartition]assignment.TaskID, endOffsetSums map[assignment.TaskID]int64) error {
	if c.initialized {
		return fmt.Errorf("%w: client %s initialized twice", ErrInvalid, c.id)
	}
	for _, t := range taskForPartition {
		if err := checkUnnamed(t); err != nil {
			return err
		}
	}
	if err := checkUnnamedKeys(endOffsetSums); err != nil {
		return err
	}
	for tp := range c.ownedPartitions {
		if t, ok := taskForPartition[tp]; ok {
			c.prevActive.add(t)
		}
	}
	for t, sum := range c.offsetSums {
		if c.prevActive.contains(t) {
			continue
		}
		if sum == assignment.LatestOffset {
			c.prevActive.add(t)
		} else {
			c.prevStandby.add(t)
		}
	}
	for t, end := range endOffsetSums {
		sum := c.offsetSums[t]
		switch {
		case sum == assignment.LatestOffset, sum == assignment.UnknownOffsetSum:
			c.lags[t] = sum
		case end < sum:
			c.lags[t] = end
		default:
			c.lags[t] = end - sum
		}
	}
	c.initialized = true
	return nil
}

// ProcessID is the client's process id.
func (c *ClientState) ProcessID() assignment.ProcessID { return c.id }

// Capacity is the number of the client's consumers (stream threads).
func (c *ClientState) Capacity() int { return c.capacity }

// Tags are the client's client.tag.* values.
func (c *ClientState) Tags() map[string]string { return maps.Clone(c.tags) }

// Consumers are the client's member ids, in Java's String order.
func (c *ClientState) Consumers() []string { return slices.Clone(c.consumers) }

// PrevActiveTasks are the tasks the client ran as active before, sorted.
func (c *ClientState) PrevActiveTasks() []assignment.TaskID { return c.prevActive.items() }

// PrevStandbyTasks are the other tasks the client reported state for.
func (c *ClientState) PrevStandbyTasks() []assignment.TaskID { return c.prevStandby.items() }

// Lag is the client's lag on a stateful task: assignment.LatestOffset
// when it ran the task as active, assignment.UnknownOffsetSum when
// unknown.
func (c *ClientState) Lag(t assignment.TaskID) (int64, bool) {
	l, ok := c.lags[t]
	return l, ok
}

// ActiveTasks are the tasks Assign placed on the client as active, sorted.
func (c *ClientState) ActiveTasks() []assignment.TaskID { return c.active.items() }

// StandbyTasks are the tasks Assign placed on the client as standby,
// warm-ups included (they travel to the member as standbys), sorted.
func (c *ClientState) StandbyTasks() []assignment.TaskID { return c.standby.items() }

// WarmupTasks are the standbys that are warm-up replicas: placed so that
// the client can take the task over once caught up, counted against
// max.warmup.replicas.
func (c *ClientState) WarmupTasks() []assignment.TaskID { return c.warmup.items() }

// FollowupRebalance reports whether this client carries the probing
// rebalance deadline (set by AssignThreads' caller for the leader's own
// client when Assign asked for one).
func (c *ClientState) FollowupRebalance() bool { return c.followupRebalance }

// SetFollowupRebalance marks this client as the one whose first consumer
// carries the probing rebalance deadline.
func (c *ClientState) SetFollowupRebalance(v bool) { c.followupRebalance = v }

// checkUnnamed refuses a client that knows a task of a named topology
// (one built by NewClientStateFromLags; AddConsumer and Init check theirs).
func (c *ClientState) checkUnnamed() error {
	for _, err := range []error{checkUnnamedAll(c.prevActive.s), checkUnnamedAll(c.prevStandby.s), checkUnnamedKeys(c.lags)} {
		if err != nil {
			return fmt.Errorf("client %s: %w", c.id, err)
		}
	}
	return nil
}

func (c *ClientState) lagFor(t assignment.TaskID) int64 {
	l, ok := c.lags[t]
	if !ok {
		panic(assignError(fmt.Sprintf("no lag of client %s for task %s", c.id, t)))
	}
	return l
}

func (c *ClientState) isStateful(t assignment.TaskID) bool {
	_, ok := c.lags[t]
	return ok
}

func (c *ClientState) assignedCount() int { return c.active.len() + c.standby.len() }

func (c *ClientState) assignedLoad() float64 {
	return float64(c.assignedCount()) / float64(c.capacity)
}

func (c *ClientState) activeLoad() float64 {
	return float64(c.active.len()) / float64(c.capacity)
}

func (c *ClientState) hasAssigned(t assignment.TaskID) bool {
	return c.active.contains(t) || c.standby.contains(t)
}

func (c *ClientState) assignActive(t assignment.TaskID) {
	if c.hasAssigned(t) {
		panic(assignError(fmt.Sprintf("task %s already assigned to client %s", t, c.id)))
	}
	c.active.add(t)
}

func (c *ClientState) unassignActive(t assignment.TaskID) {
	if !c.active.remove(t) {
		panic(assignError(fmt.Sprintf("active task %s not assigned to client %s", t, c.id)))
	}
}

func (c *ClientState) assignStandby(t assignment.TaskID) {
	if c.hasAssigned(t) {
		panic(assignError(fmt.Sprintf("task %s already assigned to client %s", t, c.id)))
	}
	c.standby.add(t)
}

func (c *ClientState) unassignStandby(t assignment.TaskID) {
	if !c.standby.remove(t) {
		panic(assignError(fmt.Sprintf("standby task %s not assigned to client %s", t, c.id)))
	}
	c.warmup.remove(t)
}

// assignError is a broken invariant inside the assignor, where Kafka
// Streams throws; Assign turns it into an error.
type assignError string
