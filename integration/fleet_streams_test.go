package integration

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/stoatflow/stoatflow/internal/streamsgroup"
	"github.com/stoatflow/stoatflow/internal/testkafka"
)

// A fleet whose application sets group.protocol=streams runs one streams
// group (KIP-1071): the broker assigns the tasks, StreamsGroupDescribe
// shows them, and the group epoch counts the rebalances, as the classic
// group's stabilized generations do.

// streamsProtocol reports whether the fleet's group is a streams group.
func (f *fleetApp) streamsProtocol() bool { return f.settings()["group.protocol"] == "streams" }

// streamsClient is the client the fleet describes its streams group with.
func (fl *fleet) streamsClient(t *testing.T) *kgo.Client {
	t.Helper()
	if fl.sgClient == nil {
		cl, err := testkafka.NewClient(fl.app.bootstrap)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(cl.Close)
		fl.sgClient = cl
	}
	return fl.sgClient
}

// describeStreams describes the fleet's streams group.
func (fl *fleet) describeStreams(t *testing.T) (kmsg.StreamsGroupDescribeResponseGroup, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return streamsgroup.Describe(ctx, fl.streamsClient(t), fl.app.appID)
}

// waitStreamsSplit waits until the streams group is stable with n members,
// each holding active tasks, and returns it.
func (fl *fleet) waitStreamsSplit(t *testing.T, n int) kmsg.StreamsGroupDescribeResponseGroup {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		g, err := fl.describeStreams(t)
		if err == nil && strings.EqualFold(g.State, "Stable") && len(g.Members) == n {
			split := true
			for _, m := range g.Members {
				if len(describedTasks(m.Assignment.ActiveTasks)) == 0 {
					split = false
				}
			}
			if split {
				return g
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("streams group %s did not settle with %d members holding tasks in 2 minutes: state %q, %d members, %v", fl.app.appID, n, g.State, len(g.Members), err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// streamsTaskOwners maps each active task of a streams group to the
// instance holding it, named as taskOwners names it.
func streamsTaskOwners(g kmsg.StreamsGroupDescribeResponseGroup, app *fleetApp) map[string]string {
	owners := map[string]string{}
	for _, m := range g.Members {
		for _, id := range describedTasks(m.Assignment.ActiveTasks) {
			owners[id.String()] = memberInstance(m, app)
		}
	}
	return owners
}

// memberInstance names the instance of a streams group's member, as
// taskOwners names it: its client id up to the thread's name, without the
// application.id.
func memberInstance(m kmsg.StreamsGroupDescribeResponseGroupMember, app *fleetApp) string {
	inst := m.ClientID
	if i := strings.Index(inst, "-StreamThread-"); i >= 0 {
		inst = inst[:i]
	}
	return strings.TrimPrefix(inst, app.appID+"-")
}

// streamsStandbys maps each task of a streams group that has standby
// replicas to the instances holding them, or returns nil for a classic
// group, whose assignor (Kafka Streams' HighAvailabilityTaskAssignor)
// gives a dead instance's tasks to caught-up standbys whatever the
// balance.
func (fl *fleet) streamsStandbys(t *testing.T) map[string][]string {
	t.Helper()
	if !fl.app.streamsProtocol() {
		return nil
	}
	g, err := fl.describeStreams(t)
	if err != nil {
		t.Fatalf("%s: describing the streams group for its standbys: %v", fl.app.name, err)
	}
	out := map[string][]string{}
	for _, m := range g.Members {
		for _, id := range describedTasks(m.Assignment.StandbyTasks) {
			out[id.String()] = append(out[id.String()], memberInstance(m, fl.app))
		}
	}
	return out
}

// streamsEpoch is the streams group's epoch, which each change of its
// members or topology raises: -1 when it cannot be described.
func (fl *fleet) streamsEpoch(t *testing.T) int {
	g, err := fl.describeStreams(t)
	if err != nil {
		return -1
	}
	return int(g.Epoch)
}

// configureStreamsGroup sets the streams group configs of the fleet's group
// from its settings (setStreamsGroupConfigs).
func (fl *fleet) configureStreamsGroup(t *testing.T) {
	t.Helper()
	setStreamsGroupConfigs(t, fl.streamsClient(t), fl.app.appID, fl.app.settings())
}

// setStreamsGroupConfigs sets the configs of the streams group that the
// client-side keys of settings name (testkafka.StreamsGroupConfigs), as an
// operator does before the group's first member starts.
func setStreamsGroupConfigs(t *testing.T, cl *kgo.Client, group string, settings map[string]string) {
	t.Helper()
	configs := testkafka.StreamsGroupConfigs(settings)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := testkafka.SetGroupConfigs(ctx, cl, group, configs); err != nil {
		t.Fatal(err)
	}
	if len(configs) > 0 {
		t.Logf("streams group %s configured with %v", group, configs)
	}
}

// streamsLag is the streams group's lag: the records between its committed
// offsets and the ends of their partitions, summed, and the partitions it
// has committed. (kadm's Lag describes a classic group.)
func (fl *fleet) streamsLag(t *testing.T) (int64, int, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	committed, err := fl.admin.FetchOffsets(ctx, fl.app.appID)
	if err != nil {
		return 0, 0, err
	}
	if err := committed.Error(); err != nil {
		return 0, 0, err
	}
	ends, err := fl.admin.ListEndOffsets(ctx, committed.Offsets().TopicsSet().Topics()...)
	if err != nil {
		return 0, 0, err
	}
	var lag int64
	n := 0
	committed.Each(func(o kadm.OffsetResponse) {
		if e, ok := ends.Lookup(o.Topic, o.Partition); ok && e.Err == nil {
			lag += max(0, e.Offset-o.At)
			n++
		}
	})
	return lag, n, nil
}
