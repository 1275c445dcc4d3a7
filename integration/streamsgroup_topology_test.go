package integration

import (
	"bytes"
	"context"
	"encoding/hex"
	"fmt"
	"maps"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/stoatflow/stoatflow/examples/fkjoin"
	"github.com/stoatflow/stoatflow/examples/joins"
	"github.com/stoatflow/stoatflow/examples/optimized"
	"github.com/stoatflow/stoatflow/examples/windowedcount"
	"github.com/stoatflow/stoatflow/examples/wordcount"
	"github.com/stoatflow/stoatflow/internal/streamsgroup"
	"github.com/stoatflow/stoatflow/internal/testkafka"
	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/serde"
	"github.com/stoatflow/stoatflow/streams"
)

// copartitionedName is the reference application CopartitionedJoins.java,
// whose twin is buildCopartitioned.
const copartitionedName = "copartitioned"

// buildCopartitioned is the twin of CopartitionedJoins.java: orders joined
// with customers and payments with accounts, merged into one sub-topology
// that reads four topics in two co-partition groups; the merged stream
// repartitioned into three partitions, joined with regions and counted.
// Arguments: input (the topics' prefix) and output.
func buildCopartitioned(args map[string]string) (*kstreams.Topology, error) {
	input, output := "copartitioned", "copartitioned-output"
	if v := args["input"]; v != "" {
		input = v
	}
	if v := args["output"]; v != "" {
		output = v
	}
	s := serde.String{}
	in := kstreams.ConsumedWith[string, string](s, s)
	b := kstreams.NewStreamsBuilder()
	orders := kstreams.Stream(b, []string{input + "-orders"}, in)
	customers := kstreams.Table(b, input+"-customers", in)
	payments := kstreams.Stream(b, []string{input + "-payments"}, in)
	accounts := kstreams.Table(b, input+"-accounts", in)
	merged := kstreams.StreamTableJoin(orders, customers, func(_, o, c string) string { return o + "+" + c }).
		Merge(kstreams.StreamTableJoin(payments, accounts, func(_, p, a string) string { return p + "+" + a }))
	merged.To(output, kstreams.ProducedWith[string, string](s, s))
	regions := kstreams.Table(b, input+"-regions", in)
	rekeyed := merged.Repartition(kstreams.Repartitioned[string, string]{NumberOfPartitions: 3, KeySerde: s, ValueSerde: s})
	kstreams.StreamTableJoin(rekeyed, regions, func(_, m, r string) string { return m + "@" + r }).
		GroupByKey().Count().ToStream().To(output+"-counts", kstreams.ProducedWith[string, int64](s, serde.Long{}))
	return b.Build()
}

// TestStreamsGroupTopologyMatchesKafkaStreams checks the topology StoatFlow
// would send in a streams group heartbeat (streams.StreamsGroupTopology)
// against Kafka Streams 4.4's, for topologies with repartition topics,
// window changelogs, topic.* settings, a source table read as its
// changelog, foreign-key joins, co-partition groups in Kafka's hash orders
// and a repartition topic of a fixed partition count. Twice for each:
//
//   - the request Kafka's own code builds in the reference jar
//     (StreamsGroupTopologyOracle.java: StreamThread.initStreamsRebalanceData
//     and the heartbeat manager's conversion), every field including the
//     co-partition groups, which a broker does not describe;
//   - live: the reference application runs with group.protocol=streams and
//     founds a group on the broker, whose StreamsGroupDescribe (key 89) then
//     gives the topology the group stored from its first heartbeat. Its
//     source topics are never created, so the broker keeps the topology as
//     the member sent it (a group whose source topics exist is described
//     with the partition counts the broker configured instead).
func TestStreamsGroupTopologyMatchesKafkaStreams(t *testing.T) {
	bootstrap := testkafka.Bootstrap(t)
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	jar, err := ReferenceJar(ctx)
	if err != nil {
		t.Fatal(err)
	}
	cases := streamsGroupCases(root)
	cl, err := testkafka.NewClient(bootstrap)
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	admin := kadm.NewClient(cl)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			prefix := testkafka.Topic(t, "sg")
			appID := prefix + "-app"
			args := map[string]string{}
			for _, a := range c.args {
				args[a] = prefix + "-" + a // never created
			}
			set := maps.Clone(c.set)
			if set == nil {
				set = map[string]string{}
			}
			set["application.id"] = appID
			cfg, err := LoadConfig([]string{c.props}, set)
			if err != nil {
				t.Fatal(err)
			}
			topo, err := c.build(args)
			if err != nil {
				t.Fatal(err)
			}
			want, err := streams.StreamsGroupTopology(topo, cfg)
			if err != nil {
				t.Fatal(err)
			}
			if len(want.Subtopologies) == 0 {
				t.Fatal("StoatFlow's topology has no sub-topology")
			}

			opts := ReferenceOptions{App: c.app, Configs: []string{c.props}, Set: set, Args: args}
			jvm := oracleGroupTopology(ctx, t, jar, opts)
			for _, d := range diffFields("Topology", reflect.ValueOf(jvm), reflect.ValueOf(want)) {
				t.Errorf("Kafka Streams' heartbeat topology differs from StoatFlow's: %s", d)
			}

			live := maps.Clone(set)
			live["bootstrap.servers"] = bootstrap
			live["group.protocol"] = "streams"
			live["state.dir"] = t.TempDir()
			opts.Set = live
			ref, err := StartReference(ctx, opts)
			if err != nil {
				t.Fatal(err)
			}
			defer func() {
				if err := ref.Stop(60 * time.Second); err != nil {
					t.Error(err)
				}
				dctx, dcancel := context.WithTimeout(context.Background(), 10*time.Second)
				defer dcancel()
				r, err := admin.DeleteGroup(dctx, appID)
				if err == nil {
					err = r.Err
				}
				if err != nil {
					t.Logf("deleting the group %s: %v", appID, err)
				}
			}()
			described := describeStreamsGroupTopology(ctx, t, cl, appID, ref)
			for _, d := range diffFields("Topology", reflect.ValueOf(described), reflect.ValueOf(asDescribed(want))) {
				t.Errorf("the broker's topology of the Kafka Streams group differs from StoatFlow's: %s", d)
			}
		})
	}
}

// streamsGroupCase is one topology of the streams group tests: a
// reference application and its Go twin, with the .properties file both
// load, the names of the arguments that each get a topic of their own,
// and settings.
type streamsGroupCase struct {
	name, app, props string
	build            kstreams.TopologyFactory
	args             []string
	set              map[string]string
}

// streamsGroupCases are the topologies of the streams group tests:
// repartition topics, window changelogs, topic.* settings, a source table
// read as its changelog, foreign-key joins, co-partition groups and a
// repartition topic of a fixed partition count.
func streamsGroupCases(root string) []streamsGroupCase {
	props := func(example string) string { return filepath.Join(root, "examples", example, "streams.properties") }
	return []streamsGroupCase{
		{name: "wordcount", app: wordcount.Name, props: props("wordcount"), build: wordcount.Build, args: []string{"input", "output"},
			set: map[string]string{"topic.segment.bytes": "1048576", "replication.factor": "1"}},
		{name: "windowedcount", app: windowedcount.Name, props: props("windowedcount"), build: windowedcount.Build, args: []string{"input", "output"},
			set: map[string]string{"windowstore.changelog.additional.retention.ms": "3600000", "topic.min.insync.replicas": "1"}},
		{name: "rekeyed-reused-table", app: joins.RekeyedName, props: props("joins"), build: joins.BuildRekeyed,
			args: []string{"input", "table", "output"}, set: map[string]string{"topology.optimization": "all"}},
		{name: "fkjoin", app: fkjoin.Name, props: props("fkjoin"), build: fkjoin.Build, args: []string{"left", "right", "output", "left-output"}},
		{name: "optimized", app: optimized.Name, props: props("optimized"), build: optimized.Build, args: []string{"input", "output"}},
		{name: "copartitioned", app: copartitionedName, props: props("joins"), build: buildCopartitioned, args: []string{"input", "output"}},
	}
}

// oracleGroupTopology returns the topology Kafka's code builds for the
// reference application opts names (--streams-group-topology).
func oracleGroupTopology(ctx context.Context, t *testing.T, jar string, opts ReferenceOptions) kmsg.StreamsGroupHeartbeatRequestTopology {
	t.Helper()
	raw := oracleBytes(ctx, t, jar, opts, "--streams-group-topology")
	req := kmsg.NewPtrStreamsGroupHeartbeatRequest()
	req.Version = 1
	if err := req.ReadFrom(raw); err != nil {
		t.Fatalf("reading Kafka Streams' StreamsGroupHeartbeatRequest: %v", err)
	}
	if req.Topology == nil {
		t.Fatal("Kafka Streams' StreamsGroupHeartbeatRequest has no topology")
	}
	return *req.Topology
}

// describeStreamsGroupTopology waits until the streams group appID exists
// with a topology and returns it, as StreamsGroupDescribe gives it.
func describeStreamsGroupTopology(ctx context.Context, t *testing.T, cl *kgo.Client, appID string, ref *ReferenceApp) kmsg.StreamsGroupDescribeResponseGroupTopology {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	var last string
	for {
		if time.Now().After(deadline) {
			t.Fatalf("the streams group %s has no topology after 2 minutes (last: %s)\n%s", appID, last, ref.Stderr())
		}
		select {
		case <-ctx.Done():
			t.Fatalf("waiting for the streams group %s: %v", appID, ctx.Err())
		case <-ref.exited:
			t.Fatalf("the reference application exited before its group %s had a topology: %v\n%s", appID, ref.err, ref.Stderr())
		case <-time.After(500 * time.Millisecond):
		}
		rctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		g, err := streamsgroup.Describe(rctx, cl, appID)
		cancel()
		if err != nil {
			last = err.Error()
			continue
		}
		if g.Topology == nil || len(g.Topology.Subtopologies) == 0 {
			last = "no topology yet, state " + g.State
			continue
		}
		return *g.Topology
	}
}

// asDescribed is the part of a heartbeat's topology StreamsGroupDescribe
// gives back.
func asDescribed(hb kmsg.StreamsGroupHeartbeatRequestTopology) kmsg.StreamsGroupDescribeResponseGroupTopology {
	out := kmsg.StreamsGroupDescribeResponseGroupTopology{Epoch: hb.Epoch}
	for _, st := range hb.Subtopologies {
		out.Subtopologies = append(out.Subtopologies, kmsg.StreamsGroupDescribeResponseGroupTopologySubtopology{
			SubtopologyID: st.SubtopologyID, SourceTopics: st.SourceTopics, RepartitionSinkTopics: st.RepartitionSinkTopics,
			StateChangelogTopics: st.StateChangelogTopics, RepartitionSourceTopics: st.RepartitionSourceTopics,
		})
	}
	return out
}

// diffFields compares two values of one kmsg type field by field and
// returns each difference with its path; UnknownTags are left out, and a
// nil slice equals an empty one.
func diffFields(path string, got, want reflect.Value) []string {
	switch got.Kind() {
	case reflect.Pointer:
		if got.IsNil() || want.IsNil() {
			if got.IsNil() != want.IsNil() {
				return []string{fmt.Sprintf("%s: Kafka Streams %v, StoatFlow %v", path, got, want)}
			}
			return nil
		}
		return diffFields(path, got.Elem(), want.Elem())
	case reflect.Struct:
		var out []string
		for i := range got.NumField() {
			name := got.Type().Field(i).Name
			if name == "UnknownTags" {
				continue
			}
			out = append(out, diffFields(path+"."+name, got.Field(i), want.Field(i))...)
		}
		return out
	case reflect.Slice:
		var out []string
		if got.Len() != want.Len() {
			out = append(out, fmt.Sprintf("%s: Kafka Streams has %d, StoatFlow %d", path, got.Len(), want.Len()))
		}
		for i := range min(got.Len(), want.Len()) {
			out = append(out, diffFields(fmt.Sprintf("%s[%d]", path, i), got.Index(i), want.Index(i))...)
		}
		return out
	default:
		if !reflect.DeepEqual(got.Interface(), want.Interface()) {
			return []string{fmt.Sprintf("%s: Kafka Streams %v, StoatFlow %v", path, got.Interface(), want.Interface())}
		}
		return nil
	}
}

// oracleBytes runs the reference jar for the application opts names with
// an oracle option (flag), which prints a request's bytes in hex, and
// returns them.
func oracleBytes(ctx context.Context, t *testing.T, jar string, opts ReferenceOptions, flag string) []byte {
	t.Helper()
	cmd := exec.CommandContext(ctx, "java", append(append(slices.Clone(shortLivedJVM), "-jar", jar),
		append(refArgs(opts, false), flag)...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", opts.App, flag, err, tail(stderr.String(), 20))
	}
	raw, err := hex.DecodeString(strings.TrimSpace(string(out)))
	if err != nil {
		t.Fatalf("%s %s printed %q: %v", opts.App, flag, out, err)
	}
	return raw
}
