package integration

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/stoatflow/stoatflow/examples/wordcount"
	"github.com/stoatflow/stoatflow/internal/streamsgroup"
	"github.com/stoatflow/stoatflow/internal/testkafka"
	"github.com/stoatflow/stoatflow/streams"
)

// TestStreamsGroupMemberJoinsBesideKafkaStreams runs a streamsgroup.Member
// in one streams group (group.protocol=streams) with a Kafka Streams 4.4
// word count of the same application.id and topology: the broker moves a
// share of the active tasks from the JVM to the Go member, the two
// members' assignments (StreamsGroupDescribe) are disjoint and cover every
// task, the partitions by endpoint name both endpoints, and once the Go
// member leaves the JVM gets every task back. The Go member processes
// nothing; the input stays empty so that nothing is lost.
func TestStreamsGroupMemberJoinsBesideKafkaStreams(t *testing.T) {
	bootstrap := testkafka.Bootstrap(t)
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()

	const partitions = 4
	prefix := testkafka.Topic(t, "sgm")
	appID, input, output := prefix+"-app", prefix+"-input", prefix+"-output"
	testkafka.CreateTopics(t, bootstrap, partitions, input, output)
	props := filepath.Join(root, "examples", "wordcount", "streams.properties")
	set := map[string]string{"application.id": appID}
	cfg, err := LoadConfig([]string{props}, set)
	if err != nil {
		t.Fatal(err)
	}
	topo, err := wordcount.Build(map[string]string{"input": input, "output": output})
	if err != nil {
		t.Fatal(err)
	}
	hbTopo, err := streams.StreamsGroupTopology(topo, cfg)
	if err != nil {
		t.Fatal(err)
	}
	allTasks := 0
	for range hbTopo.Subtopologies {
		allTasks += partitions // the repartition topic has the input's count
	}

	cl, err := testkafka.NewClient(bootstrap)
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	admin := kadm.NewClient(cl)

	jvmEndpoint := streamsgroup.Endpoint{Host: "localhost", Port: 7701}
	live := map[string]string{"application.id": appID, "bootstrap.servers": bootstrap, "group.protocol": "streams", "state.dir": t.TempDir(),
		"application.server": jvmEndpoint.String()}
	ref, err := StartReference(ctx, ReferenceOptions{App: wordcount.Name, Configs: []string{props}, Set: live,
		Args: map[string]string{"input": input, "output": output}})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := ref.Stop(60 * time.Second); err != nil {
			t.Error(err)
		}
		dctx, dcancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer dcancel()
		if r, err := admin.DeleteGroup(dctx, appID); err != nil || r.Err != nil {
			t.Logf("deleting the group %s: %v %v", appID, err, r.Err)
		}
	}()
	if err := ref.WaitState(ctx, "RUNNING"); err != nil {
		t.Fatalf("the reference application: %v\n%s", err, ref.Stderr())
	}

	goEndpoint := streamsgroup.Endpoint{Host: "localhost", Port: 7702}
	m, err := streamsgroup.New(streamsgroup.Config{GroupID: appID, Topology: hbTopo, Endpoint: &goEndpoint,
		ProcessID: "0b5c7f3e-1d2a-4c6b-9e8f-7a6b5c4d3e2f", RebalanceTimeout: 5 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	// beat heartbeats and reconciles at once, as a runtime would, until
	// done says so.
	beat := func(what string, done func() (bool, string)) {
		t.Helper()
		deadline := time.Now().Add(2 * time.Minute)
		var last string
		for {
			res, err := m.Heartbeat(ctx, cl)
			if err != nil {
				t.Fatalf("heartbeat: %v", err)
			}
			if r, ok := m.Pending(); ok {
				if err := m.Revoked(r); err != nil {
					t.Fatal(err)
				}
				if err := m.Assigned(r); err != nil {
					t.Fatal(err)
				}
				res.Next = 0
			}
			ok, state := done()
			if ok {
				return
			}
			last = fmt.Sprintf("%s; statuses %v", state, res.Statuses)
			if time.Now().After(deadline) {
				t.Fatalf("%s: not after 2 minutes (last: %s)\n%s", what, last, ref.Stderr())
			}
			time.Sleep(min(max(res.Next, 100*time.Millisecond), time.Second))
		}
	}

	var members []kmsg.StreamsGroupDescribeResponseGroupMember
	shared := func() (bool, string) {
		if len(m.Owned().Active) == 0 {
			return false, "the Go member owns no active task"
		}
		var err error
		members, err = describeStreamsGroupMembers(ctx, cl, appID)
		if err != nil {
			return false, err.Error()
		}
		if len(members) != 2 {
			return false, fmt.Sprintf("%d members", len(members))
		}
		var sets [][]streamsgroup.TaskID
		for _, mem := range members {
			sets = append(sets, describedTasks(mem.Assignment.ActiveTasks))
		}
		all := append(slices.Clone(sets[0]), sets[1]...)
		slices.SortFunc(all, func(a, b streamsgroup.TaskID) int { return cmpTask(a, b) })
		if len(sets[0]) == 0 || len(sets[1]) == 0 || len(slices.Compact(slices.Clone(all))) != allTasks {
			return false, fmt.Sprintf("assignments %v and %v", sets[0], sets[1])
		}
		return true, ""
	}
	beat("the Go member gets a share of the tasks", shared)
	var sets [][]streamsgroup.TaskID
	for _, mem := range members {
		got := describedTasks(mem.Assignment.ActiveTasks)
		sets = append(sets, got)
		if mem.MemberID == m.MemberID() && !slices.Equal(got, m.Owned().Active) {
			t.Errorf("the broker says the Go member owns %v, the member %v", got, m.Owned().Active)
		}
	}
	all := append(slices.Clone(sets[0]), sets[1]...)
	slices.SortFunc(all, cmpTask)
	if len(slices.Compact(slices.Clone(all))) != len(all) || len(all) != allTasks {
		t.Errorf("the two members' active tasks %v and %v are not disjoint or do not cover all %d tasks", sets[0], sets[1], allTasks)
	}
	beat("the partitions by endpoint name both endpoints", func() (bool, string) {
		by := m.PartitionsByEndpoint()
		return len(by[jvmEndpoint].Active) > 0 && len(by[goEndpoint].Active) > 0, fmt.Sprintf("partitions by endpoint %v", by)
	})

	if err := m.Leave(ctx, cl); err != nil {
		t.Fatalf("leave: %v", err)
	}
	deadline := time.Now().Add(2 * time.Minute)
	for {
		members, err := describeStreamsGroupMembers(ctx, cl, appID)
		last := fmt.Sprint(err)
		if err == nil && len(members) == 1 && len(describedTasks(members[0].Assignment.ActiveTasks)) == allTasks {
			break
		}
		if err == nil {
			last = fmt.Sprintf("%d members", len(members))
		}
		if time.Now().After(deadline) {
			t.Fatalf("the JVM did not get every task back after the Go member left (last: %s)\n%s", last, ref.Stderr())
		}
		time.Sleep(time.Second)
	}
}

func cmpTask(a, b streamsgroup.TaskID) int {
	if a.Subtopology != b.Subtopology {
		if a.Subtopology < b.Subtopology {
			return -1
		}
		return 1
	}
	return int(a.Partition) - int(b.Partition)
}

// describedTasks flattens a described assignment's tasks, sorted.
func describedTasks(ids []kmsg.TaskIDs) []streamsgroup.TaskID {
	var out []streamsgroup.TaskID
	for _, st := range ids {
		for _, p := range st.Partitions {
			out = append(out, streamsgroup.TaskID{Subtopology: st.SubtopologyID, Partition: p})
		}
	}
	slices.SortFunc(out, cmpTask)
	return out
}

// describeStreamsGroupMembers returns the members of the streams group
// appID, as StreamsGroupDescribe gives them.
func describeStreamsGroupMembers(ctx context.Context, cl *kgo.Client, appID string) ([]kmsg.StreamsGroupDescribeResponseGroupMember, error) {
	rctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	g, err := streamsgroup.Describe(rctx, cl, appID)
	return g.Members, err
}
