package streams_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/stoatflow/stoatflow/internal/testkafka"
	"github.com/stoatflow/stoatflow/streams"
)

// foreignAssignor is a group balancer under a protocol name StoatFlow does
// not offer: a member joined with it stands for a consumer of another
// application still in the group.
type foreignAssignor struct{ kgo.GroupBalancer }

func (foreignAssignor) ProtocolName() string { return "foreign" }

// lockedBuffer is a log sink safe for the runtime's goroutines.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// TestTakeoverWaitsForMembersOfAnotherAssignor: while the application's
// group holds a member of a protocol StoatFlow does not offer (a consumer
// of another application sharing the group id), StoatFlow does not join,
// says in its log what it waits for, and joins and processes once that member is gone.
func TestTakeoverWaitsForMembersOfAnotherAssignor(t *testing.T) {
	_, addr := startBroker(t)
	createTopics(t, addr, 2, "in", "out")
	const app = "takeover"

	jvm, err := testkafka.NewClient(addr, kgo.ConsumerGroup(app), kgo.ConsumeTopics("in"),
		kgo.Balancers(foreignAssignor{kgo.RangeBalancer()}), kgo.SessionTimeout(6*time.Second), kgo.ClientID("jvm-StreamThread-1-consumer"))
	if err != nil {
		t.Fatal(err)
	}
	defer jvm.Close()
	adm := kadm.NewClient(jvm)
	waitGroup(t, adm, app, func(g kadm.DescribedGroup) bool { return g.State == "Stable" && g.Protocol == "foreign" }, jvm)

	var log lockedBuffer
	ks, err := streams.New(countTopology(t, "in", "out"), appConfig(t, addr, app, t.TempDir()),
		streams.WithLogger(slog.New(slog.NewTextHandler(&log, &slog.HandlerOptions{Level: slog.LevelInfo}))))
	if err != nil {
		t.Fatal(err)
	}
	running := make(chan struct{})
	var once sync.Once
	ks.SetStateListener(func(next, _ streams.State) {
		if next == streams.Running {
			once.Do(func() { close(running) })
		}
	})
	if err := ks.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer closeApp(t, ks)

	select {
	case <-running:
		t.Fatalf("RUNNING while the group still had a member of another assignor:\n%s", log.String())
	case <-ks.Done():
		t.Fatalf("stopped: %v\n%s", ks.Err(), log.String())
	case <-time.After(2 * time.Second):
	}
	if !strings.Contains(log.String(), "waiting before joining the group: it still has members of another assignor's protocol") ||
		!strings.Contains(log.String(), "jvm-StreamThread-1-consumer") {
		t.Fatalf("the log does not say what StoatFlow waits for, nor name the member:\n%s", log.String())
	}
	if g := describeGroup(t, adm, app); len(g.Members) != 1 || g.Protocol != "foreign" {
		t.Fatalf("StoatFlow joined beside the other assignor's member: %+v", g)
	}

	jvm.Close() // leaves the group
	select {
	case <-running:
	case <-ks.Done():
		t.Fatalf("stopped: %v\n%s", ks.Err(), log.String())
	case <-time.After(30 * time.Second):
		t.Fatalf("not RUNNING 30 s after the other member left:\n%s", log.String())
	}
	if !strings.Contains(log.String(), "the group's members of another assignor are gone; joining") {
		t.Errorf("the log does not say the wait ended:\n%s", log.String())
	}
	words(t, addr, "in", 0, 100, vocab)
	checkCounts(t, readCounts(t, addr, "out", 100), wantCounts(100, vocab))
}

// waitGroup polls the group (and the member's client, which joins while it
// polls) until ok holds.
func waitGroup(t *testing.T, adm *kadm.Client, group string, ok func(kadm.DescribedGroup) bool, member *kgo.Client) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		member.PollFetches(ctx)
		cancel()
		if ok(describeGroup(t, adm, group)) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("group %s: %+v", group, describeGroup(t, adm, group))
		}
	}
}

func describeGroup(t *testing.T, adm *kadm.Client, group string) kadm.DescribedGroup {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	gs, err := adm.DescribeGroups(ctx, group)
	if err != nil {
		t.Fatal(err)
	}
	return gs[group]
}

// TestStartRefusesTopologyWhoseInternalNamesDiffer: an application that ran
// before (its group committed offsets) with a changelog the topology does
// not use, while the topology's own changelog and repartition topic do not
// exist, is a topology whose generated names differ from the previous
// run's. Start fails naming both, and creates nothing.
func TestStartRefusesTopologyWhoseInternalNamesDiffer(t *testing.T) {
	_, addr := startBroker(t)
	const app = "renamed"
	old := app + "-KSTREAM-AGGREGATE-STATE-STORE-0000000003-changelog"
	createTopics(t, addr, 2, "in", "out", old)
	cl, err := testkafka.NewClient(addr)
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	adm := kadm.NewClient(cl)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var offs kadm.Offsets
	offs.Add(kadm.Offset{Topic: "in", Partition: 0, At: 5, LeaderEpoch: -1})
	if _, err := adm.CommitOffsets(ctx, app, offs); err != nil {
		t.Fatal(err)
	}

	ks, err := streams.New(countTopology(t, "in", "out"), appConfig(t, addr, app, t.TempDir()))
	if err != nil {
		t.Fatal(err)
	}
	defer ks.Close(context.Background())
	err = ks.Start(ctx)
	if !errors.Is(err, streams.ErrInternalNamesDiffer) {
		t.Fatalf("Start: %v, want ErrInternalNamesDiffer", err)
	}
	for _, name := range []string{app + "-counts-changelog", app + "-counts-repartition", old, "Materialized.As"} {
		if !strings.Contains(err.Error(), name) {
			t.Errorf("the error does not name %s: %v", name, err)
		}
	}
	md, err := adm.Metadata(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for name := range md.Topics {
		if strings.HasPrefix(name, app+"-counts") {
			t.Errorf("Start created %s before refusing", name)
		}
	}
}
