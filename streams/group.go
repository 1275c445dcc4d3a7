package streams

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/stoatflow/stoatflow/internal/assignment"
	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/state"
)

// streamProtocol is the assignor protocol of Kafka Streams' classic group
// (StreamsPartitionAssignor.name()): StoatFlow's main consumers join the
// application's group under it, beside Kafka Streams instances.
const streamProtocol = "stream"

// Errors of the group protocol, as Kafka Streams names them.
var (
	// ErrMissingSourceTopics is a thread's error when the group's leader
	// found a source topic missing (assignor error
	// INCOMPLETE_SOURCE_TOPIC_METADATA): every instance stops, as Kafka
	// Streams' threads throw MissingSourceTopicException.
	ErrMissingSourceTopics = errors.New("streams: one or more source topics were missing during rebalance")
	// ErrTaskAssignment is a thread's error when the group's leader could
	// not compute an assignment (ASSIGNMENT_ERROR) or handed out one that
	// this instance's topology cannot run.
	ErrTaskAssignment = errors.New("streams: task assignment failed")
)

// groupMember is what every main consumer of an instance says about it in
// its subscription, and what the instance learnt from its last assignment.
type groupMember struct {
	pid      assignment.ProcessID
	endpoint string // application.server, "" when unset
	host     *assignment.HostInfo
	tags     []assignment.ClientTag
	rack     string
	// dir is the instance's state directory, whose task locks say which
	// thread of the instance has each task open: one thread at a time
	// opens a task's stores, as Kafka Streams' StateDirectory locks a task
	// directory for one thread, and the cleaner deletes no directory a
	// thread holds (cleaner.go).
	dir *state.Directory
	// now is the instance's clock, which dates a task directory when a
	// thread lets it go.
	now func() time.Time

	mu struct {
		sync.Mutex
		// onDisk are the offset sums of the stateful tasks whose state is
		// in the state directory while no thread of the instance has them
		// open: found there at start-up (scanTaskDirs) or left by a thread
		// that closed them, until the cleaner deletes their directory.
		// Every subscription reports them, so that a leader can prefer this
		// instance for them, as Kafka Streams' TaskManager reports the task
		// directories it can lock.
		onDisk map[assignment.TaskID]int64
		// hosts are the group's partitions by host from the last
		// assignment (active and standby), for query routing.
		hosts, standbyHosts map[assignment.HostInfo][]assignment.TopicPartition
	}
}

func newGroupMember(s *KafkaStreams) (*groupMember, error) {
	pid, err := assignment.ParseProcessID(s.processID)
	if err != nil {
		return nil, fmt.Errorf("streams: process id: %w", err)
	}
	m := &groupMember{pid: pid, endpoint: s.cfg.ApplicationServer, rack: s.cfg.MainConsumerRack(), dir: s.dir, now: s.now}
	if m.endpoint != "" {
		if m.host, err = assignment.ParseHostInfo(m.endpoint); err != nil {
			return nil, fmt.Errorf("streams: application.server: %w", err)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(s.cfg.ClientTags)) {
		m.tags = append(m.tags, assignment.ClientTag{Key: k, Value: s.cfg.ClientTags[k]})
	}
	m.mu.onDisk = map[assignment.TaskID]int64{}
	return m, nil
}

// claimTask gives thread t task id's directory: false while another
// thread of the instance has the task open (its stores are in use there
// until that thread's own rebalance callback lets them go; the task waits,
// as a Kafka Streams task waits for its directory's lock) or while the
// cleaner deletes the directory. Claimed, the task leaves onDisk: t
// reports it from now on.
func (m *groupMember) claimTask(id assignment.TaskID, t *streamThread) bool {
	if !m.dir.LockTask(taskDirName(id), t) {
		return false
	}
	m.mu.Lock()
	delete(m.mu.onDisk, id)
	m.mu.Unlock()
	return true
}

// releaseTask ends thread t's claim on task id, whose stores t has closed;
// with onDisk set, sum is the sum of the offsets they hold on disk, which
// the subscriptions report from now on. The task directory is dated now
// before it is let go, as Kafka Streams' state manager dates it when it
// closes, so that the cleaner counts state.cleanup.delay.ms from here.
func (m *groupMember) releaseTask(id assignment.TaskID, t *streamThread, sum int64, onDisk bool) {
	name := taskDirName(id)
	if m.dir.TaskOwner(name) != t {
		return
	}
	if onDisk {
		m.mu.Lock()
		m.mu.onDisk[id] = sum
		m.mu.Unlock()
	}
	if err := m.dir.TouchTask(name, m.now()); err != nil {
		t.log.Warn("Failed to update modification time of state directory; the cleaner may delete it before state.cleanup.delay.ms has passed",
			"task", name, "err", err)
	}
	m.dir.UnlockTask(name, t)
}

// forgetTaskDir drops what onDisk says of task id, whose directory the
// cleaner is deleting: nothing of it stays to report.
func (m *groupMember) forgetTaskDir(id assignment.TaskID) {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.mu.onDisk, id)
}

// taskDirName is task id's directory name in the state directory.
func taskDirName(id assignment.TaskID) string {
	return state.TaskDirName(int(id.Subtopology), int(id.Partition))
}

// diskSums are the offset sums of the tasks with state on disk that no
// thread has open.
func (m *groupMember) diskSums() map[assignment.TaskID]int64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	return maps.Clone(m.mu.onDisk)
}

// streamAssignor is one main consumer's side of Kafka Streams' "stream"
// assignor: its subscription (consumer protocol v3 with a SubscriptionInfo),
// the reading of its assignment (an AssignmentInfo), and, when the consumer
// leads the group, the assignment of the whole group (group_leader.go).
// The protocol is cooperative only, as in Kafka Streams 4.4. franz-go calls
// it on the group's goroutine, so what it shares with the stream thread
// goes through atomics and its mutex.
type streamAssignor struct {
	s *KafkaStreams
	t *streamThread // nil for the consumer that only carries a shutdown request
	m *groupMember

	unique  atomic.Uint32 // the subscription's uniqueField, bumped at every join
	version atomic.Int32  // the SubscriptionInfo version used (version probing lowers it)

	mu struct {
		sync.Mutex
		// last is the last assignment received: its partitions, sorted,
		// and its AssignmentInfo; nil under another protocol.
		last *assignment.MemberAssignment
		// decodeErr is why the last assignment could not be read.
		decodeErr error
		// owned is what the member owns: the partitions of the last
		// assignment it took.
		owned map[string][]int32
	}
	// nextRebalance is when the thread asks the group for a rebalance,
	// unix milliseconds; math.MaxInt64 for never.
	nextRebalance atomic.Int64
}

func newStreamAssignor(s *KafkaStreams, t *streamThread) *streamAssignor {
	a := &streamAssignor{s: s, t: t, m: s.member}
	a.version.Store(assignment.LatestSupportedVersion)
	a.nextRebalance.Store(math.MaxInt64)
	return a
}

func (a *streamAssignor) ProtocolName() string { return streamProtocol }

// IsCooperative is true: Kafka Streams 4.4 supports only the cooperative
// rebalance protocol.
func (a *streamAssignor) IsCooperative() bool { return true }

// JoinGroupMetadata is the subscription: the consumer protocol at version
// 3 with what the member owns, and a SubscriptionInfo at the version in
// use (11 unless version probing lowered it).
func (a *streamAssignor) JoinGroupMetadata(interests []string, current map[string][]int32, generation int32) []byte {
	info := a.subscriptionInfo()
	if v := a.version.Load(); v != info.Version {
		if shaped, err := info.AtVersion(v); err == nil {
			info = shaped
		}
	}
	md := assignment.MemberMetadata{Topics: interests, Info: &info, Generation: generation, Rack: a.m.rack}
	for topic, ps := range current {
		for _, p := range ps {
			md.OwnedPartitions = append(md.OwnedPartitions, assignment.TopicPartition{Topic: topic, Partition: p})
		}
	}
	b, err := md.Encode()
	if err != nil {
		// Only a value the version cannot carry fails; the member then
		// joins with the latest version, which carries everything.
		info = a.subscriptionInfo()
		md.Info = &info
		b, _ = md.Encode()
	}
	return b
}

// subscriptionInfo is this member's SubscriptionInfo at the latest version.
func (a *streamAssignor) subscriptionInfo() assignment.SubscriptionInfo {
	info := assignment.SubscriptionInfo{
		Version:                assignment.LatestSupportedVersion,
		LatestSupportedVersion: assignment.LatestSupportedVersion,
		ProcessID:              a.m.pid,
		UserEndPoint:           a.m.endpoint,
		UniqueField:            int8(a.unique.Add(1)),
		ClientTags:             a.m.tags,
	}
	if a.s.shutdownAsked.Load() {
		info.ErrorCode = assignment.ErrorShutdownRequested
	}
	sums := a.m.diskSums()
	if a.t != nil {
		if own := a.t.offsetSums.Load(); own != nil {
			maps.Copy(sums, *own)
		}
	}
	for _, id := range slices.SortedFunc(maps.Keys(sums), assignment.TaskID.Compare) {
		info.TaskOffsetSums = append(info.TaskOffsetSums, assignment.TaskOffsetSum{Task: id, OffsetSum: sums[id]})
	}
	return info
}

// ParseSyncAssignment reads the leader's assignment. A member that cannot
// read it takes no partition and its thread stops with the reason (the
// callback that follows reports it); a shutdown request stops the
// instance, as Kafka Streams' threads do on SHUTDOWN_REQUESTED.
func (a *streamAssignor) ParseSyncAssignment(b []byte) (map[string][]int32, error) {
	ma, err := assignment.DecodeMemberAssignment(b)
	a.mu.Lock()
	defer a.mu.Unlock()
	a.mu.last, a.mu.decodeErr = ma, nil
	if err != nil {
		a.mu.last = nil
		a.mu.decodeErr = fmt.Errorf("%w: the group leader's assignment (%d bytes) does not decode: %w", ErrTaskAssignment, len(b), err)
		return maps.Clone(a.mu.owned), nil
	}
	info := ma.Info
	if info.ErrorCode != assignment.ErrorNone {
		// The thread stops (or the instance, on a shutdown request) with
		// what it owns: giving it up now would start a cooperative
		// rejoin that a closing member waits out for the group's members
		// that are gone.
		if info.ErrorCode == assignment.ErrorShutdownRequested {
			a.s.shutdownByGroup()
		}
		return maps.Clone(a.mu.owned), nil
	}
	out := map[string][]int32{}
	for _, tp := range ma.Partitions {
		out[tp.Topic] = append(out[tp.Topic], tp.Partition)
	}
	a.scheduleFollowup(info, revokes(a.mu.owned, out))
	a.m.mu.Lock()
	a.m.mu.hosts, a.m.mu.standbyHosts = info.PartitionsByHost, info.StandbyPartitionsByHost
	a.m.mu.Unlock()
	a.mu.owned = maps.Clone(out)
	return out, nil
}

// revokes reports whether an assignment takes away a partition the member
// owns.
func revokes(owned, assigned map[string][]int32) bool {
	for topic, ps := range owned {
		for _, p := range ps {
			if !slices.Contains(assigned[topic], p) {
				return true
			}
		}
	}
	return false
}

// scheduleFollowup decides when this member asks for the next rebalance,
// in Kafka Streams' order: version probing, then an endpoint the group
// does not know yet (a static member that changed application.server is
// handed its old assignment without a rebalance), then the leader's
// nextRebalanceMs (0: tasks held back until their owner revoked them).
// A member that revokes partitions rejoins on its own once they are
// revoked (a cooperative consumer always does); asking again then would
// start a second rebalance after that one, as Kafka Streams' threads,
// whose request and the consumer's fall into the same join, never do.
func (a *streamAssignor) scheduleFollowup(info *assignment.AssignmentInfo, revoking bool) {
	log := a.s.log
	if a.t != nil {
		log = a.t.log
	}
	switch used := a.version.Load(); {
	case info.Version < used:
		log.Info("the group's leader speaks an older assignor version; rejoining with it (version probing)",
			"version", info.Version, "was", used)
		a.version.Store(info.Version)
		a.nextRebalance.Store(0)
	case info.CommonlySupportedVersion > used && info.CommonlySupportedVersion <= assignment.LatestSupportedVersion:
		log.Info("every member of the group speaks a newer assignor version; rejoining with it (version probing)",
			"version", info.CommonlySupportedVersion, "was", used)
		a.version.Store(info.CommonlySupportedVersion)
		a.nextRebalance.Store(0)
	case !a.hostKnown(info):
		log.Info("the group's assignment lacks this instance's application.server; rejoining so that every member learns it",
			"application_server", a.m.endpoint)
		a.nextRebalance.Store(0)
	case info.NextRebalanceMs == 0 && revoking:
		log.Info("the leader held tasks back until this member revokes them; the consumer rejoins once they are revoked")
		a.nextRebalance.Store(math.MaxInt64)
	case info.NextRebalanceMs == 0:
		log.Info("the leader held tasks back until their owners revoke them; rejoining at once")
		a.nextRebalance.Store(0)
	case info.Version >= 7 && info.NextRebalanceMs < assignment.NoNextRebalance:
		log.Info("the leader asks for a probing rebalance", "at", time.UnixMilli(info.NextRebalanceMs).UTC().Format(time.RFC3339))
		a.nextRebalance.Store(info.NextRebalanceMs)
	default:
		a.nextRebalance.Store(math.MaxInt64)
	}
}

// hostKnown reports whether the group's host maps name this instance, or
// say nothing (no member has an endpoint, or the version has no maps).
func (a *streamAssignor) hostKnown(info *assignment.AssignmentInfo) bool {
	if a.m.host == nil || len(info.PartitionsByHost)+len(info.StandbyPartitionsByHost) == 0 {
		return true
	}
	_, ok := info.PartitionsByHost[*a.m.host]
	_, ok2 := info.StandbyPartitionsByHost[*a.m.host]
	return ok || ok2
}

// lastAssignment is the assignment the member last received under the
// stream protocol, or the error that kept it from being read; nil and nil
// under another protocol (a group still on StoatFlow's older range
// protocol).
func (a *streamAssignor) lastAssignment() (*assignment.MemberAssignment, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.mu.last, a.mu.decodeErr
}

// checkAssignment is the follower's check of an assignment before any store
// opens: the leader's error code, then every active task against this
// instance's own topology. It returns the tasks and their partitions.
func (t *streamThread) checkAssignment(ma *assignment.MemberAssignment) (map[kstreams.TaskID][]tpKey, error) {
	info := ma.Info
	switch info.ErrorCode {
	case assignment.ErrorNone:
	case assignment.ErrorShutdownRequested:
		return nil, nil // the instance is shutting down (shutdownByGroup)
	case assignment.ErrorIncompleteSourceTopicMetadata:
		t.log.Error("the group's leader found a source topic missing (INCOMPLETE_SOURCE_TOPIC_METADATA): create the topics the topology reads, then restart")
		return nil, ErrMissingSourceTopics
	case assignment.ErrorVersionProbing:
		t.log.Info("received version probing code", "code", info.ErrorCode.String())
		return nil, nil
	case assignment.ErrorAssignment:
		return nil, fmt.Errorf("%w: the group's leader hit an unexpected exception during the task assignment phase of the rebalance (ASSIGNMENT_ERROR); its log says why", ErrTaskAssignment)
	default:
		return nil, fmt.Errorf("%w: the group's leader sent the unrecognized error code %d", ErrTaskAssignment, info.ErrorCode)
	}
	paired, err := assignment.PairActiveTasks(ma.Partitions, info)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrTaskAssignment, err)
	}
	out := make(map[kstreams.TaskID][]tpKey, len(paired))
	var wrong []string
	for id, tps := range paired {
		kid := kstreams.TaskID{Subtopology: int(id.Subtopology), Partition: id.Partition}
		for _, tp := range tps {
			sub, ok, err := t.sources.Subtopology(tp.Topic)
			if err != nil {
				return nil, err
			}
			switch {
			case id.NamedTopology != "":
				wrong = append(wrong, fmt.Sprintf("%s-%d -> task %s (named topologies are not supported)", tp.Topic, tp.Partition, id))
			case !ok:
				wrong = append(wrong, fmt.Sprintf("%s-%d -> task %s (no sub-topology of this topology reads %s)", tp.Topic, tp.Partition, id, tp.Topic))
			case sub != kid.Subtopology || tp.Partition != kid.Partition:
				wrong = append(wrong, fmt.Sprintf("%s-%d -> task %s (this topology makes it task %d_%d)", tp.Topic, tp.Partition, id, sub, tp.Partition))
			case t.s.taskCounts[sub] > 0 && int(tp.Partition) >= t.s.taskCounts[sub] && len(t.s.topo.SourcePatterns(sub)) == 0:
				wrong = append(wrong, fmt.Sprintf("%s-%d -> task %s (sub-topology %d has %d tasks)", tp.Topic, tp.Partition, id, sub, t.s.taskCounts[sub]))
			}
			out[kid] = append(out[kid], tpKey{tp.Topic, tp.Partition})
		}
	}
	if len(wrong) > 0 {
		slices.Sort(wrong)
		return nil, fmt.Errorf("%w: the group's leader assigned tasks that this instance's topology does not have as it has them: %s; "+
			"the application's instances run different topologies: compare `sidecar describe` with the JVM application's "+
			"Topology.describe() (the sub-topology numbering must be the same)", ErrTaskAssignment, strings.Join(wrong, "; "))
	}
	return out, nil
}

// maybeRequestRebalance asks the group for the rebalance the last
// assignment scheduled, once its time has come.
func (t *streamThread) maybeRequestRebalance(now time.Time) {
	if t.assignor == nil {
		return
	}
	at := t.assignor.nextRebalance.Load()
	if at == math.MaxInt64 || now.UnixMilli() < at {
		return
	}
	t.assignor.nextRebalance.Store(math.MaxInt64)
	t.log.Info("asking the group for a rebalance")
	t.consumer.ForceRebalance()
}

// publishOffsetSums publishes the offset sums of the thread's tasks for its
// next subscription, as Kafka Streams' TaskManager.taskOffsetSums gives
// them: LatestOffset for a running active task, else (a restoring active
// task, a standby) the sum of its stores' committed changelog offsets.
// Called by the thread whenever its tasks change.
func (t *streamThread) publishOffsetSums() {
	sums := make(map[assignment.TaskID]int64, len(t.tasks)+len(t.standbys))
	for id, a := range t.tasks {
		if !stateful(a.stores) {
			continue
		}
		if a.running() {
			sums[wireTaskID(id)] = assignment.LatestOffset
			continue
		}
		sums[wireTaskID(id)], _ = offsetSum(a.stores)
	}
	for id, sb := range t.standbys {
		if stateful(sb.stores) {
			sums[wireTaskID(id)], _ = offsetSum(sb.stores)
		}
	}
	t.offsetSums.Store(&sums)
	t.sumsMoved, t.sumsPublished = false, time.Now()
}

// sumsEvery is how often a thread publishes the offset sums its standbys
// and restores moved since the last publication: a subscription, which
// may come at any time (a probing rebalance checks whether warm-ups
// caught up), reports them at most that stale.
const sumsEvery = time.Second

// maybePublishOffsetSums publishes the offset sums once they moved and
// sumsEvery has passed since the last publication.
func (t *streamThread) maybePublishOffsetSums(now time.Time) {
	if t.sumsMoved && now.Sub(t.sumsPublished) >= sumsEvery {
		t.publishOffsetSums()
	}
}

// stateful reports whether a task's stores include one with a changelog:
// what the group's leader calls a stateful task.
func stateful(stores []*taskStore) bool {
	for _, ts := range stores {
		if ts.changelog != nil {
			return true
		}
	}
	return false
}

// offsetSum is the sum of the committed changelog offsets of a task's
// stores, as Kafka Streams sums a task's checkpointed offsets (a store
// without one adds nothing; ok reports whether any had one);
// math.MaxInt64 on overflow.
func offsetSum(stores []*taskStore) (sum int64, ok bool) {
	for _, ts := range stores {
		if ts.changelog == nil {
			continue
		}
		off, has, err := ts.store.CommittedOffset(*ts.changelog)
		if err != nil || !has || off < 0 {
			continue
		}
		ok = true
		sum = addSum(sum, off)
	}
	return sum, ok
}

// persistent reports whether a task's logged stores keep their state on
// disk when it closes.
func persistent(stores []*taskStore) bool {
	for _, ts := range stores {
		if ts.changelog != nil && !ts.store.Persistent() {
			return false
		}
	}
	return true
}

func wireTaskID(id kstreams.TaskID) assignment.TaskID {
	return assignment.TaskID{Subtopology: int32(id.Subtopology), Partition: id.Partition}
}

// groupBalancers are the protocols a main consumer offers: Kafka Streams'
// "stream" first, then the range protocol of earlier StoatFlow releases,
// so that during a rolling upgrade of StoatFlow the group keeps the older
// protocol until its last older member is gone (the coordinator picks a
// protocol every member offers).
func groupBalancers(a *streamAssignor) kgo.Opt {
	return kgo.Balancers(a, appBalancer{GroupBalancer: kgo.RangeBalancer(), s: a.s, stream: a})
}

// forget drops the last stream-protocol assignment: the group chose the
// range protocol for this generation.
func (a *streamAssignor) forget() {
	a.mu.Lock()
	a.mu.last, a.mu.decodeErr, a.mu.owned = nil, nil, nil
	a.mu.Unlock()
}

var _ kgo.GroupBalancer = (*streamAssignor)(nil)

// memberTopics is the union of the topics the members subscribe to.
func memberTopics(members []kmsg.JoinGroupResponseMember, decoded []*assignment.MemberMetadata) map[string]struct{} {
	topics := map[string]struct{}{}
	for i := range members {
		if decoded[i] == nil {
			continue
		}
		for _, t := range decoded[i].Topics {
			topics[t] = struct{}{}
		}
	}
	return topics
}
