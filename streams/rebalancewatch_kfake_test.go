package streams_test

import (
	"context"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/stoatflow/stoatflow/internal/assignment"
	"github.com/stoatflow/stoatflow/internal/testkafka"
	"github.com/stoatflow/stoatflow/streams"
)

// ghostBalancer is a member of Kafka Streams' "stream" protocol that
// assigns nothing.
type ghostBalancer struct{}

func (ghostBalancer) ProtocolName() string { return "stream" }
func (ghostBalancer) IsCooperative() bool  { return true }
func (ghostBalancer) JoinGroupMetadata(topics []string, _ map[string][]int32, generation int32) []byte {
	info := &assignment.SubscriptionInfo{Version: assignment.LatestSupportedVersion, LatestSupportedVersion: assignment.LatestSupportedVersion,
		ProcessID: assignment.ProcessID{9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9}}
	b, _ := (&assignment.MemberMetadata{Topics: topics, Info: info, Generation: generation}).Encode()
	return b
}
func (ghostBalancer) ParseSyncAssignment([]byte) (map[string][]int32, error) { return nil, nil }
func (ghostBalancer) MemberBalancer(members []kmsg.JoinGroupResponseMember) (kgo.GroupMemberBalancer, map[string]struct{}, error) {
	return ghostAssignment(members), map[string]struct{}{}, nil
}

type ghostAssignment []kmsg.JoinGroupResponseMember

func (g ghostAssignment) Balance(map[string]int32) kgo.IntoSyncAssignment { return g }
func (g ghostAssignment) IntoSyncAssignment() []kmsg.SyncGroupRequestGroupAssignment {
	info := &assignment.AssignmentInfo{Version: assignment.LatestSupportedVersion, CommonlySupportedVersion: assignment.LatestSupportedVersion,
		NextRebalanceMs: assignment.NoNextRebalance}
	b, _ := (&assignment.MemberAssignment{Info: info}).Encode()
	var out []kmsg.SyncGroupRequestGroupAssignment
	for _, m := range g {
		out = append(out, kmsg.SyncGroupRequestGroupAssignment{MemberID: m.MemberID, MemberAssignment: b})
	}
	return out
}

// TestKfakeRebalanceWaitNamesTheMemberItWaitsFor: a static member of the
// group stops without leaving it (a killed instance); an instance that
// starts then waits in REBALANCING until the member's session times out,
// and its log names that member, that the rebalance waits for it, and
// then how long the rebalance took. The instance shares the member's
// session.timeout.ms, as instances of one application do, and the end of
// the wait it logs is not before the wait ends.
func TestKfakeRebalanceWaitNamesTheMemberItWaitsFor(t *testing.T) {
	// rebalanceWatchSlack is how much later than the instance's start the
	// watch may first see the group rebalancing: its first tick, after
	// the instance has joined.
	const rebalanceWatchSlack = 3 * time.Second
	_, addr := startBroker(t)
	createTopics(t, addr, 2, "in", "out")
	const app = "ghosted"
	ghost, err := testkafka.NewClient(addr, kgo.ConsumerGroup(app), kgo.ConsumeTopics("in"), kgo.Balancers(ghostBalancer{}),
		kgo.ClientID("ghost-client"), kgo.InstanceID("ghost-instance"), kgo.SessionTimeout(12*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(20 * time.Second); ; {
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		ghost.PollRecords(ctx, 1)
		cancel()
		if _, gen := ghost.GroupMetadata(); gen > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the stopped member did not join the group in 20 s")
		}
	}
	ghost.Close() // a static member does not leave the group as it closes

	var logs lockedBuffer
	logger := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelInfo}))
	began := time.Now()
	a := startApp(t, countTopology(t, "in", "out"), appConfig(t, addr, app, t.TempDir(), "main.consumer.session.timeout.ms=12000"), streams.WithLogger(logger))
	running := time.Now()
	waited := running.Sub(began)
	out := logs.String()
	if !strings.Contains(out, "the group's rebalance waits for every member to rejoin") || !strings.Contains(out, "ghost-client (group.instance.id ghost-instance)") {
		t.Errorf("after %v in REBALANCING the log does not name the member the rebalance waits for:\n%s", waited.Round(time.Millisecond), out)
	}
	before, rest, _ := strings.Cut(out, " until=")
	untilText, _, _ := strings.Cut(rest, " ")
	until, err := time.Parse(time.RFC3339, untilText)
	switch {
	case err != nil:
		t.Errorf("the log does not say until when the rebalance waits (%v):\n%s", err, out)
	case running.After(until.Add(time.Second)) || until.After(began.Add(12*time.Second+rebalanceWatchSlack)):
		t.Errorf("the log says the wait ends by %v; it ended at %v, having begun at %v with a 12 s session", until, running, began)
	}
	for deadline := time.Now().Add(3 * time.Second); !strings.Contains(out, "the group's rebalance is over") && time.Now().Before(deadline); {
		time.Sleep(100 * time.Millisecond)
		out = logs.String()
	}
	if !strings.Contains(out, "the group's rebalance is over") {
		t.Errorf("the log does not say when the rebalance was over:\n%s", out)
	}
	line, _, _ := strings.Cut(out[strings.LastIndex(before, "\n")+1:], "\n")
	t.Logf("the instance waited %v for the stopped member's session to time out, and said so:\n%s", waited.Round(time.Millisecond), line)
	closeApp(t, a)
}
