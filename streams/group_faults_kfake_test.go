package streams_test

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/stoatflow/stoatflow/internal/assignment"
	"github.com/stoatflow/stoatflow/internal/testkafka"
	"github.com/stoatflow/stoatflow/streams"
)

// scriptedMember is a member of Kafka Streams' "stream" protocol whose
// subscription and, when it leads, whose assignment of the other members a
// test writes: it stands for a Kafka Streams instance that leads the group
// or asks for SHUTDOWN_APPLICATION.
type scriptedMember struct {
	pid assignment.ProcessID
	// errorCode is its subscription's error code.
	errorCode assignment.ErrorCode
	// garbage makes its subscription's user data undecodable.
	garbage bool
	// owned are the partitions its subscription claims to own.
	owned []assignment.TopicPartition
	// assign is what a leader gives each member; self marks its own.
	assign func(self bool) *assignment.MemberAssignment
}

func (m *scriptedMember) ProtocolName() string { return "stream" }
func (m *scriptedMember) IsCooperative() bool  { return true }

func (m *scriptedMember) JoinGroupMetadata(topics []string, _ map[string][]int32, gen int32) []byte {
	info := assignment.SubscriptionInfo{Version: 11, LatestSupportedVersion: 11, ProcessID: m.pid, ErrorCode: m.errorCode}
	b, _ := (&assignment.MemberMetadata{Topics: topics, Info: &info, Generation: gen, OwnedPartitions: m.owned}).Encode()
	if m.garbage {
		meta := kmsg.NewConsumerMemberMetadata()
		meta.Version = 3
		meta.Topics = topics
		meta.UserData = []byte{0, 0, 0, 11, 0, 0}
		b = meta.AppendTo(nil)
	}
	return b
}

func (m *scriptedMember) ParseSyncAssignment(b []byte) (map[string][]int32, error) {
	ma, err := assignment.DecodeMemberAssignment(b)
	if err != nil {
		return nil, err
	}
	out := map[string][]int32{}
	for _, tp := range ma.Partitions {
		out[tp.Topic] = append(out[tp.Topic], tp.Partition)
	}
	return out, nil
}

func (m *scriptedMember) MemberBalancer(members []kmsg.JoinGroupResponseMember) (kgo.GroupMemberBalancer, map[string]struct{}, error) {
	topics := map[string]struct{}{}
	for _, mem := range members {
		if md, err := assignment.DecodeMemberMetadata(mem.ProtocolMetadata); err == nil {
			for _, t := range md.Topics {
				topics[t] = struct{}{}
			}
		}
	}
	return scriptedPlan{m: m, members: members}, topics, nil
}

type scriptedPlan struct {
	m       *scriptedMember
	members []kmsg.JoinGroupResponseMember
}

func (p scriptedPlan) Balance(map[string]int32) kgo.IntoSyncAssignment { return p }

func (p scriptedPlan) IntoSyncAssignment() []kmsg.SyncGroupRequestGroupAssignment {
	var out []kmsg.SyncGroupRequestGroupAssignment
	for _, mem := range p.members {
		md, err := assignment.DecodeMemberMetadata(mem.ProtocolMetadata)
		ma := p.m.assign(err == nil && md.Info.ProcessID == p.m.pid)
		b, _ := ma.Encode()
		out = append(out, kmsg.SyncGroupRequestGroupAssignment{MemberID: mem.MemberID, MemberAssignment: b})
	}
	return out
}

// emptyAssignment is an assignment of nothing, with an error code.
func emptyAssignment(code assignment.ErrorCode) *assignment.MemberAssignment {
	return &assignment.MemberAssignment{Info: &assignment.AssignmentInfo{Version: 11, CommonlySupportedVersion: 11,
		ErrorCode: code, NextRebalanceMs: assignment.NoNextRebalance}}
}

// joinScripted has the scripted member join group app; the test's end
// closes it.
func joinScripted(t *testing.T, addr, app string, m *scriptedMember) *kgo.Client {
	t.Helper()
	cl, err := testkafka.NewClient(addr, kgo.ConsumerGroup(app), kgo.ConsumeTopics("in"), kgo.Balancers(m),
		kgo.SessionTimeout(6*time.Second), kgo.ClientID("jvm-StreamThread-1-consumer"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cl.Close)
	return cl
}

// startScripted has the scripted member join group app alone and waits
// until it leads a stable group.
func startScripted(t *testing.T, addr, app string, m *scriptedMember) *kgo.Client {
	t.Helper()
	cl := joinScripted(t, addr, app, m)
	waitGroup(t, kadm.NewClient(cl), app, func(g kadm.DescribedGroup) bool { return g.State == "Stable" && g.Protocol == "stream" }, cl)
	return cl
}

// startFailing starts an instance that is expected to stop with an error,
// and returns that error.
func startFailing(t *testing.T, addr, app string, opts ...streams.Option) error {
	t.Helper()
	ks, err := streams.New(countTopology(t, "in", "out"), appConfig(t, addr, app, t.TempDir()), opts...)
	if err != nil {
		t.Fatal(err)
	}
	if err := ks.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = ks.Close(context.Background()) }() // its error is the one returned
	select {
	case <-ks.Done():
		return ks.Err()
	case <-time.After(time.Minute):
		t.Fatalf("the instance is still %s after a minute", ks.State())
		return nil
	}
}

// TestKfakeLeaderAssignsUnknownTaskStopsBeforeAnyStoreOpens: a leader (a
// Kafka Streams instance running another topology) pairs a partition with a
// task this topology does not have. The StoatFlow instance opens no task and
// stops with both mappings and the hint to compare describe().
func TestKfakeLeaderAssignsUnknownTaskStopsBeforeAnyStoreOpens(t *testing.T) {
	_, addr := startBroker(t)
	createTopics(t, addr, 2, "in", "out")
	const app = "wrongtask"
	lead := &scriptedMember{pid: assignment.ProcessID{1}}
	lead.assign = func(self bool) *assignment.MemberAssignment {
		a := emptyAssignment(assignment.ErrorNone)
		if !self {
			a.Partitions = []assignment.TopicPartition{{Topic: "in", Partition: 0}}
			a.Info.ActiveTasks = []assignment.TaskID{{Subtopology: 5, Partition: 0}}
		}
		return a
	}
	startScripted(t, addr, app, lead)
	opens := newTaskOpens()
	err := startFailing(t, addr, app, streams.WithHooks(opens))
	if !errors.Is(err, streams.ErrTaskAssignment) || !strings.Contains(err.Error(), "in-0 -> task 5_0 (this topology makes it task 0_0)") ||
		!strings.Contains(err.Error(), "describe") {
		t.Fatalf("error %v, want ErrTaskAssignment naming in-0 -> task 5_0 and the describe() hint", err)
	}
	if n := len(opens.snapshot()); n != 0 {
		t.Errorf("%d tasks were opened before the assignment was refused", n)
	}
}

// TestKfakeLeaderPartitionCountMismatchStops: an assignment whose partitions
// and active tasks differ in number (Kafka Streams' TaskAssignmentException).
func TestKfakeLeaderPartitionCountMismatchStops(t *testing.T) {
	_, addr := startBroker(t)
	createTopics(t, addr, 2, "in", "out")
	const app = "taskcount"
	lead := &scriptedMember{pid: assignment.ProcessID{1}}
	lead.assign = func(self bool) *assignment.MemberAssignment {
		a := emptyAssignment(assignment.ErrorNone)
		if !self {
			a.Partitions = []assignment.TopicPartition{{Topic: "in", Partition: 0}, {Topic: "in", Partition: 1}}
			a.Info.ActiveTasks = []assignment.TaskID{{Subtopology: 0, Partition: 0}}
		}
		return a
	}
	startScripted(t, addr, app, lead)
	err := startFailing(t, addr, app)
	if !errors.Is(err, streams.ErrTaskAssignment) || !strings.Contains(err.Error(), "number of assigned partitions 2 is not equal to the number of active taskIds 1") {
		t.Fatalf("error %v, want ErrTaskAssignment with both counts", err)
	}
}

// TestKfakeLeaderReportsMissingSourceTopics: a leader that found a source
// topic missing (INCOMPLETE_SOURCE_TOPIC_METADATA) stops the instance with
// Kafka Streams' message.
func TestKfakeLeaderReportsMissingSourceTopics(t *testing.T) {
	_, addr := startBroker(t)
	createTopics(t, addr, 2, "in", "out")
	const app = "missingsource"
	lead := &scriptedMember{pid: assignment.ProcessID{1}}
	lead.assign = func(bool) *assignment.MemberAssignment {
		return emptyAssignment(assignment.ErrorIncompleteSourceTopicMetadata)
	}
	startScripted(t, addr, app, lead)
	err := startFailing(t, addr, app)
	if !errors.Is(err, streams.ErrMissingSourceTopics) {
		t.Fatalf("error %v, want ErrMissingSourceTopics", err)
	}
}

// TestKfakeShutdownRequestOfKafkaStreamsMemberStopsStoatFlow: a Kafka
// Streams member whose subscription carries SHUTDOWN_REQUESTED (error code
// 4) joins a group a StoatFlow instance leads: the leader gives every
// member the shutdown code, and the StoatFlow instance stops with
// ErrApplicationShutdown.
func TestKfakeShutdownRequestOfKafkaStreamsMemberStopsStoatFlow(t *testing.T) {
	_, addr := startBroker(t)
	createTopics(t, addr, 2, "in", "out")
	const app = "jvmshutdown"
	ks := startApp(t, countTopology(t, "in", "out"), appConfig(t, addr, app, t.TempDir()))
	asker := &scriptedMember{pid: assignment.ProcessID{2}, errorCode: assignment.ErrorShutdownRequested,
		assign: func(bool) *assignment.MemberAssignment { return emptyAssignment(assignment.ErrorShutdownRequested) }}
	joinScripted(t, addr, app, asker)
	select {
	case <-ks.Done():
	case <-time.After(time.Minute):
		t.Fatalf("the StoatFlow instance is still %s a minute after a member asked for SHUTDOWN_APPLICATION", ks.State())
	}
	if !errors.Is(ks.Err(), streams.ErrApplicationShutdown) {
		t.Fatalf("error %v, want ErrApplicationShutdown", ks.Err())
	}
}

// TestKfakeUndecodableSubscriptionGivesEveryMemberAssignmentError: a member
// whose SubscriptionInfo does not decode joins a group a StoatFlow instance
// leads. As a Kafka Streams leader does, it assigns nothing and gives every
// member ASSIGNMENT_ERROR, naming the member and the subscription's size in
// its log; its own thread stops with ErrTaskAssignment.
func TestKfakeUndecodableSubscriptionGivesEveryMemberAssignmentError(t *testing.T) {
	_, addr := startBroker(t)
	createTopics(t, addr, 2, "in", "out")
	const app = "garbage"
	var log lockedBuffer
	ks := startApp(t, countTopology(t, "in", "out"), appConfig(t, addr, app, t.TempDir()),
		streams.WithLogger(slog.New(slog.NewTextHandler(&log, &slog.HandlerOptions{Level: slog.LevelInfo}))))
	bad := &scriptedMember{pid: assignment.ProcessID{3}, garbage: true,
		assign: func(bool) *assignment.MemberAssignment { return emptyAssignment(assignment.ErrorNone) }}
	joinScripted(t, addr, app, bad)
	select {
	case <-ks.Done():
	case <-time.After(time.Minute):
		t.Fatalf("the StoatFlow instance is still %s a minute after an undecodable member joined", ks.State())
	}
	if !errors.Is(ks.Err(), streams.ErrTaskAssignment) {
		t.Fatalf("error %v, want ErrTaskAssignment", ks.Err())
	}
	if !strings.Contains(log.String(), "a member's subscription does not decode") || !strings.Contains(log.String(), "bytes of subscription") {
		t.Errorf("the leader's log does not name the undecodable member:\n%s", log.String())
	}
}

// futureMember is a member of a newer Kafka Streams release: it subscribes
// with SubscriptionInfo version 12 (only its version and latest supported
// version, as a member writes a version its leader may not know), and
// records the assignments it receives.
type futureMember struct {
	mu       sync.Mutex
	received []*assignment.MemberAssignment
}

func (m *futureMember) ProtocolName() string { return "stream" }
func (m *futureMember) IsCooperative() bool  { return true }
func (m *futureMember) JoinGroupMetadata(topics []string, _ map[string][]int32, gen int32) []byte {
	meta := kmsg.NewConsumerMemberMetadata()
	meta.Version = 3
	meta.Topics = topics
	meta.Generation = gen
	meta.UserData = []byte{0, 0, 0, 12, 0, 0, 0, 12}
	return meta.AppendTo(nil)
}
func (m *futureMember) ParseSyncAssignment(b []byte) (map[string][]int32, error) {
	ma, err := assignment.DecodeMemberAssignment(b)
	if err != nil {
		return nil, err
	}
	m.mu.Lock()
	m.received = append(m.received, ma)
	m.mu.Unlock()
	out := map[string][]int32{}
	for _, tp := range ma.Partitions {
		out[tp.Topic] = append(out[tp.Topic], tp.Partition)
	}
	return out, nil
}
func (m *futureMember) MemberBalancer([]kmsg.JoinGroupResponseMember) (kgo.GroupMemberBalancer, map[string]struct{}, error) {
	return nil, nil, errors.New("a future member never leads in this test")
}

// TestKfakeFutureSubscriptionGetsVersionProbing: a member of a newer
// release joins a group a StoatFlow instance leads, subscribing at version
// 12. As a Kafka Streams 4.4 leader does, the StoatFlow leader answers at
// its own latest version (11) so that the member downgrades and rejoins,
// gives the future member no task, and keeps its own tasks running.
func TestKfakeFutureSubscriptionGetsVersionProbing(t *testing.T) {
	_, addr := startBroker(t)
	createTopics(t, addr, 2, "in", "out")
	const app = "probing"
	ks := startApp(t, countTopology(t, "in", "out"), appConfig(t, addr, app, t.TempDir()))
	words(t, addr, "in", 0, 20, vocab)
	checkCounts(t, readCounts(t, addr, "out", 20), wantCounts(20, vocab))
	fm := &futureMember{}
	cl, err := testkafka.NewClient(addr, kgo.ConsumerGroup(app), kgo.ConsumeTopics("in"), kgo.Balancers(fm),
		kgo.SessionTimeout(6*time.Second), kgo.ClientID("future-StreamThread-1-consumer"))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	go func() {
		for {
			if fs := cl.PollFetches(context.Background()); fs.IsClientClosed() {
				return
			}
		}
	}()
	var got *assignment.MemberAssignment
	for deadline := time.Now().Add(30 * time.Second); got == nil; {
		fm.mu.Lock()
		if len(fm.received) > 0 {
			got = fm.received[0]
		}
		fm.mu.Unlock()
		if got == nil && time.Now().After(deadline) {
			t.Fatal("the future member received no assignment in 30 s")
		}
		time.Sleep(50 * time.Millisecond)
	}
	if got.Info.Version != assignment.LatestSupportedVersion || len(got.Partitions) != 0 {
		t.Errorf("the future member got version %d with %d partitions, want version %d (its leader's latest) and none",
			got.Info.Version, len(got.Partitions), assignment.LatestSupportedVersion)
	}
	cl.Close()
	words(t, addr, "in", 20, 20, vocab)
	checkCounts(t, readCounts(t, addr, "out", 40), wantCounts(40, vocab))
	if st := ks.State(); st != streams.Running && st != streams.Rebalancing {
		t.Errorf("the StoatFlow leader is %s after the future member joined: %v", st, ks.Err())
	}
	closeApp(t, ks)
}

// TestKfakePartitionOwnedByTwoMembersIsReportedAndAssigned: two members
// joining a group a StoatFlow instance leads both claim to own partition
// in-0. As Kafka Streams' leader does, the StoatFlow leader says the
// previous assignment holds a partition more than once, naming both, and
// assigns every task all the same.
func TestKfakePartitionOwnedByTwoMembersIsReportedAndAssigned(t *testing.T) {
	_, addr := startBroker(t)
	createTopics(t, addr, 2, "in", "out")
	const app = "owned-twice"
	var log lockedBuffer
	ks := startApp(t, countTopology(t, "in", "out"), appConfig(t, addr, app, t.TempDir()),
		streams.WithLogger(slog.New(slog.NewTextHandler(&log, &slog.HandlerOptions{Level: slog.LevelInfo}))))
	claim := []assignment.TopicPartition{{Topic: "in", Partition: 0}}
	for i := range 2 {
		m := &scriptedMember{pid: assignment.ProcessID{byte(7 + i)}, owned: claim,
			assign: func(bool) *assignment.MemberAssignment { return emptyAssignment(assignment.ErrorNone) }}
		joinScripted(t, addr, app, m)
	}
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(log.String(), "contains a partition more than once") {
		if time.Now().After(deadline) {
			t.Fatalf("the leader did not report the partition owned twice in 30 s:\n%s", log.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
	if !strings.Contains(log.String(), "in-0 by ") {
		t.Errorf("the report does not name the partition and its claimants:\n%s", log.String())
	}
	if st := ks.State(); st == streams.Error || st == streams.NotRunning {
		t.Errorf("the leader stopped: %s %v", st, ks.Err())
	}
	closeApp(t, ks)
}
