package integration

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/stoatflow/stoatflow/examples/wordcount"
	"github.com/stoatflow/stoatflow/internal/assignment"
	"github.com/stoatflow/stoatflow/internal/testkafka"
)

// TestLiveJVMGroupMessagesDecode: the group messages a live Kafka Streams
// 4.4 instance sends decode in Go to what the instance is, and encode back
// to bytes that decode the same. A probe member of Kafka Streams' "stream"
// protocol joins the word count's group twice: first before the Kafka
// Streams instance, so that it leads and receives the instance's
// subscription (SubscriptionInfo version 11: its application.server, its
// client tag, its running tasks' offset sums -2 once it has run), and
// hands it no tasks, which Kafka Streams accepts; then after it, so that
// the instance leads and the probe receives its assignment
// (AssignmentInfo: the probe's tasks paired with its partitions, the
// instance's endpoint in the host map).
func TestLiveJVMGroupMessagesDecode(t *testing.T) {
	t.Parallel()
	a := newWordCountApp(t, 4)
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	rep := a.appID + "-KSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition"
	props := filepath.Join(root, "examples", "wordcount", "streams.properties")
	set := a.config(t, map[string]string{"processing.guarantee": "exactly_once_v2", "commit.interval.ms": "100",
		"application.server": "localhost:7171", "client.tag.zone": "z1"})
	args := map[string]string{"input": a.in, "output": a.out}

	// 1. The probe leads; the Kafka Streams instance joins and runs idle.
	leader := newProbe(t, a.bootstrap, a.appID, []string{a.in, rep}, true)
	jvm := startEngine(t, true, wordcount.Name, props, set, args)
	sub := leader.waitSubscription(t)
	leader.close()
	info := sub.Info
	t.Logf("live subscription: %d bytes, version %d, latest %d, process %s, endpoint %q, tags %v, offset sums %v",
		len(sub.raw), info.Version, info.LatestSupportedVersion, info.ProcessID, info.UserEndPoint, info.ClientTags, info.TaskOffsetSums)
	if info.Version != assignment.LatestSupportedVersion || info.LatestSupportedVersion != assignment.LatestSupportedVersion {
		t.Errorf("Kafka Streams 4.4 subscribed at version %d (latest %d), want %d", info.Version, info.LatestSupportedVersion, assignment.LatestSupportedVersion)
	}
	if info.UserEndPoint != "localhost:7171" {
		t.Errorf("endpoint %q, want the instance's application.server localhost:7171", info.UserEndPoint)
	}
	if !reflect.DeepEqual(info.ClientTags, []assignment.ClientTag{{Key: "zone", Value: "z1"}}) {
		t.Errorf("client tags %v, want zone=z1", info.ClientTags)
	}
	if !slicesHave(sub.topics, a.in) {
		t.Errorf("subscribed topics %v lack the input %s", sub.topics, a.in)
	}
	roundTrip(t, "subscription", sub.raw, func(b []byte) (any, error) { return assignment.DecodeMemberMetadata(b) },
		func(v any) ([]byte, error) { return v.(*assignment.MemberMetadata).Encode() })

	// 2. The Kafka Streams instance leads; the probe joins and receives its
	// assignment.
	a.feed(t, generatedLines(40), 4)
	follower := newProbe(t, a.bootstrap, a.appID, []string{a.in, rep}, false)
	ma := follower.waitAssignment(t)
	follower.close()
	ai := ma.Info
	t.Logf("live assignment: %d bytes, version %d, common %d, %d partitions, active %v, by host %v, error %s, next rebalance %d",
		len(ma.raw), ai.Version, ai.CommonlySupportedVersion, len(ma.Partitions), ai.ActiveTasks, ai.PartitionsByHost, ai.ErrorCode, ai.NextRebalanceMs)
	if ai.Version != assignment.LatestSupportedVersion || ai.ErrorCode != assignment.ErrorNone {
		t.Errorf("assignment version %d error %s, want %d and none", ai.Version, ai.ErrorCode, assignment.LatestSupportedVersion)
	}
	paired, err := assignment.PairActiveTasks(ma.Partitions, ai)
	if err != nil {
		t.Errorf("the Kafka Streams leader's tasks do not pair with the partitions: %v", err)
	}
	for id, tps := range paired {
		for _, tp := range tps {
			want := map[int32]string{0: a.in, 1: rep}[id.Subtopology]
			if tp.Topic != want || tp.Partition != id.Partition {
				t.Errorf("task %s paired with %s, want %s-%d", id, tp, want, id.Partition)
			}
		}
	}
	if _, ok := ai.PartitionsByHost[assignment.HostInfo{Host: "localhost", Port: 7171}]; !ok {
		t.Errorf("the host map %v lacks the leader's own endpoint localhost:7171", ai.PartitionsByHost)
	}
	roundTrip(t, "assignment", ma.raw, func(b []byte) (any, error) { return assignment.DecodeMemberAssignment(b) },
		func(v any) ([]byte, error) { return v.(*assignment.MemberAssignment).Encode() })
	jvm.stop(t)
}

func slicesHave(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// roundTrip decodes raw, encodes the value in Go and decodes that again:
// both decodings must be equal.
func roundTrip(t *testing.T, what string, raw []byte, decode func([]byte) (any, error), encode func(any) ([]byte, error)) {
	t.Helper()
	v, err := decode(raw)
	if err != nil {
		t.Fatalf("the live %s does not decode in Go: %v", what, err)
	}
	b, err := encode(v)
	if err != nil {
		t.Fatalf("the live %s does not encode back in Go: %v", what, err)
	}
	v2, err := decode(b)
	if err != nil {
		t.Fatalf("Go's encoding of the live %s does not decode: %v", what, err)
	}
	if !reflect.DeepEqual(v, v2) {
		t.Errorf("the live %s changed through Go's encoding:\n%+v\n%+v", what, v, v2)
	}
}

// liveSubscription is a member's JoinGroup metadata as the probe received
// it.
type liveSubscription struct {
	*assignment.MemberMetadata
	raw    []byte
	topics []string
}

// liveAssignment is the probe's SyncGroup assignment.
type liveAssignment struct {
	*assignment.MemberAssignment
	raw []byte
}

// probe is a member of Kafka Streams' "stream" protocol that records the
// group messages it receives. As the leader it assigns nothing to anyone.
type probe struct {
	cl     *kgo.Client
	leader bool
	mu     sync.Mutex
	subs   []liveSubscription
	assign *liveAssignment
	change chan struct{}
}

func newProbe(t *testing.T, bootstrap, group string, topics []string, leader bool) *probe {
	t.Helper()
	p := &probe{leader: leader, change: make(chan struct{}, 1)}
	cl, err := testkafka.NewClient(bootstrap, kgo.ConsumerGroup(group), kgo.ConsumeTopics(topics...),
		kgo.Balancers(p), kgo.SessionTimeout(6*time.Second), kgo.DisableAutoCommit(),
		kgo.FetchIsolationLevel(kgo.ReadCommitted()))
	if err != nil {
		t.Fatal(err)
	}
	p.cl = cl
	go func() {
		for {
			fs := cl.PollFetches(context.Background())
			if fs.IsClientClosed() {
				return
			}
		}
	}()
	t.Cleanup(p.close)
	return p
}

func (p *probe) close() { p.cl.Close() }

func (p *probe) notify() {
	select {
	case p.change <- struct{}{}:
	default:
	}
}

func (p *probe) ProtocolName() string { return "stream" }
func (p *probe) IsCooperative() bool  { return true }

func (p *probe) JoinGroupMetadata(topics []string, _ map[string][]int32, generation int32) []byte {
	info := &assignment.SubscriptionInfo{Version: assignment.LatestSupportedVersion, LatestSupportedVersion: assignment.LatestSupportedVersion,
		ProcessID: assignment.ProcessID{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}}
	b, err := (&assignment.MemberMetadata{Topics: topics, Info: info, Generation: generation}).Encode()
	if err != nil {
		panic(err)
	}
	return b
}

func (p *probe) ParseSyncAssignment(b []byte) (map[string][]int32, error) {
	ma, err := assignment.DecodeMemberAssignment(b)
	if err != nil {
		return nil, err
	}
	p.mu.Lock()
	if !p.leader {
		p.assign = &liveAssignment{MemberAssignment: ma, raw: append([]byte(nil), b...)}
	}
	p.mu.Unlock()
	p.notify()
	out := map[string][]int32{}
	for _, tp := range ma.Partitions {
		out[tp.Topic] = append(out[tp.Topic], tp.Partition)
	}
	return out, nil
}

func (p *probe) MemberBalancer(members []kmsg.JoinGroupResponseMember) (kgo.GroupMemberBalancer, map[string]struct{}, error) {
	topics := map[string]struct{}{}
	var subs []liveSubscription
	for _, m := range members {
		md, err := assignment.DecodeMemberMetadata(m.ProtocolMetadata)
		if err != nil {
			return nil, nil, fmt.Errorf("member %s: %w", m.MemberID, err)
		}
		for _, tp := range md.Topics {
			topics[tp] = struct{}{}
		}
		if md.Info.ProcessID != (assignment.ProcessID{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}) {
			subs = append(subs, liveSubscription{MemberMetadata: md, raw: append([]byte(nil), m.ProtocolMetadata...), topics: md.Topics})
		}
	}
	p.mu.Lock()
	p.subs = append(p.subs, subs...)
	p.mu.Unlock()
	p.notify()
	return emptyAssignment(members), topics, nil
}

// emptyAssignment gives every member no task: a valid Kafka Streams
// assignment (version 11, no error, no follow-up).
type emptyAssignment []kmsg.JoinGroupResponseMember

func (e emptyAssignment) Balance(map[string]int32) kgo.IntoSyncAssignment { return e }

func (e emptyAssignment) IntoSyncAssignment() []kmsg.SyncGroupRequestGroupAssignment {
	info := &assignment.AssignmentInfo{Version: assignment.LatestSupportedVersion, CommonlySupportedVersion: assignment.LatestSupportedVersion,
		NextRebalanceMs: assignment.NoNextRebalance}
	b, err := (&assignment.MemberAssignment{Info: info}).Encode()
	if err != nil {
		panic(err)
	}
	var out []kmsg.SyncGroupRequestGroupAssignment
	for _, m := range e {
		out = append(out, kmsg.SyncGroupRequestGroupAssignment{MemberID: m.MemberID, MemberAssignment: b})
	}
	return out
}

// waitSubscription waits until the probe, leading, received a
// subscription from another member, and returns the latest.
func (p *probe) waitSubscription(t *testing.T) liveSubscription {
	t.Helper()
	return waitProbe(t, p, "a Kafka Streams member's subscription", func() (liveSubscription, bool) {
		if len(p.subs) == 0 {
			return liveSubscription{}, false
		}
		return p.subs[len(p.subs)-1], true
	})
}

// waitAssignment waits until the probe received an assignment with at
// least one partition.
func (p *probe) waitAssignment(t *testing.T) liveAssignment {
	t.Helper()
	return waitProbe(t, p, "an assignment with tasks from the Kafka Streams leader", func() (liveAssignment, bool) {
		if p.assign == nil || len(p.assign.Partitions) == 0 {
			return liveAssignment{}, false
		}
		return *p.assign, true
	})
}

func waitProbe[T any](t *testing.T, p *probe, what string, get func() (T, bool)) T {
	t.Helper()
	deadline := time.After(2 * time.Minute)
	for {
		p.mu.Lock()
		v, ok := get()
		p.mu.Unlock()
		if ok {
			return v
		}
		select {
		case <-p.change:
		case <-time.After(time.Second):
		case <-deadline:
			t.Fatal(errors.New("the probe received no " + what + " in 2 minutes"))
		}
	}
}
