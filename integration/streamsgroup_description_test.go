package integration

import (
	"bytes"
	"context"
	"log/slog"
	"maps"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/stoatflow/stoatflow/examples/globaljoin"
	"github.com/stoatflow/stoatflow/examples/routing"
	"github.com/stoatflow/stoatflow/examples/wordcount"
	"github.com/stoatflow/stoatflow/internal/streamsgroup"
	"github.com/stoatflow/stoatflow/internal/testkafka"
	"github.com/stoatflow/stoatflow/streams"
)

// descriptionPluginConfig is the broker setting that makes a streams
// group's coordinator ask its members for their topology's description
// and keep it (KIP-1331); integration/kafka.sh sets it.
const descriptionPluginConfig = "group.streams.topology.description.plugin.class"

// streamsGroupDescriptionCases are streamsGroupCases and topologies whose
// descriptions have what those lack: global stores (a global table's, and
// a Processor API one with named nodes) and a sink whose
// TopicNameExtractor picks the topic.
func streamsGroupDescriptionCases(root string) []streamsGroupCase {
	props := func(example string) string { return filepath.Join(root, "examples", example, "streams.properties") }
	return append(streamsGroupCases(root),
		streamsGroupCase{name: "globaljoin", app: globaljoin.Name, props: props("globaljoin"), build: globaljoin.Build,
			args: []string{"input", "stream", "output"}},
		streamsGroupCase{name: "globalstore-papi", app: globaljoin.PAPIName, props: props("globaljoin"), build: globaljoin.BuildPAPI,
			args: []string{"input", "stream", "output"}},
		streamsGroupCase{name: "routing", app: routing.Name, props: props("routing"), build: routing.Build, args: []string{"input", "output"}},
	)
}

// TestStreamsGroupTopologyDescriptionMatchesKafkaStreams checks the
// topology description a StoatFlow member pushes to its streams group
// (streams.StreamsGroupTopologyDescription, KIP-1331) against the one
// Kafka Streams 4.4's own code builds for the same topology and config
// (StreamsGroupTopologyOracle.java: StreamThread.initStreamsRebalanceData,
// whose TopologyDescriptionConverter gives the wire form), field by field
// and then byte for byte, as StreamsGroupTopologyDescriptionUpdate v0
// carries it. No broker is involved.
func TestStreamsGroupTopologyDescriptionMatchesKafkaStreams(t *testing.T) {
	if testing.Short() {
		t.Skip("needs Java and Maven")
	}
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
	for _, c := range streamsGroupDescriptionCases(root) {
		t.Run(c.name, func(t *testing.T) {
			prefix := "sgd-" + c.name
			args := map[string]string{}
			for _, a := range c.args {
				args[a] = prefix + "-" + a
			}
			set := maps.Clone(c.set)
			if set == nil {
				set = map[string]string{}
			}
			set["application.id"] = prefix + "-app"
			cfg, err := LoadConfig([]string{c.props}, set)
			if err != nil {
				t.Fatal(err)
			}
			topo, err := c.build(args)
			if err != nil {
				t.Fatal(err)
			}
			mine, err := streams.StreamsGroupTopologyDescription(topo, cfg)
			if err != nil {
				t.Fatal(err)
			}
			if len(mine.Subtopologies) == 0 || len(mine.Subtopologies[0].Nodes) == 0 {
				t.Fatal("StoatFlow's description has no nodes")
			}
			raw, jvm := oracleTopologyDescription(ctx, t, jar, ReferenceOptions{App: c.app, Configs: []string{c.props}, Set: set, Args: args})
			diffs := diffFields("TopologyDescription", reflect.ValueOf(jvm), reflect.ValueOf(mine))
			for _, d := range diffs {
				t.Errorf("Kafka Streams' topology description differs from StoatFlow's: %s", d)
			}
			req := kmsg.NewPtrStreamsGroupTopologyDescriptionUpdateRequest()
			req.TopologyDescription = mine
			if got := req.AppendTo(nil); len(diffs) == 0 && !bytes.Equal(got, raw) {
				t.Errorf("StoatFlow's StreamsGroupTopologyDescriptionUpdate v0 is not Kafka Streams' byte for byte:\nKafka Streams %x\nStoatFlow     %x", raw, got)
			}
		})
	}
}

// TestStreamsGroupTopologyDescriptionPushedAsKafkaStreams runs each
// topology twice on the broker under group.protocol=streams, as a Kafka
// Streams 4.4 application and as a StoatFlow one, each in a streams group
// of its own (application.id). The broker's topology description plugin
// asks the first member of each group for the topology's description; the
// description StreamsGroupDescribe v1 then gives for StoatFlow's group
// must be the one it gives for Kafka Streams' group, once the internal
// topics' application id prefix is replaced. The source topics exist, so
// both run.
func TestStreamsGroupTopologyDescriptionPushedAsKafkaStreams(t *testing.T) {
	bootstrap := testkafka.Bootstrap(t)
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	cl, err := testkafka.NewClient(bootstrap)
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	admin := kadm.NewClient(cl)
	requireDescriptionPlugin(ctx, t, admin, bootstrap)

	for _, c := range streamsGroupDescriptionCases(root) {
		t.Run(c.name, func(t *testing.T) {
			prefix := testkafka.Topic(t, "sgd")
			args := map[string]string{}
			for _, a := range c.args {
				args[a] = prefix + "-" + a
			}
			topo, err := c.build(args)
			if err != nil {
				t.Fatal(err)
			}
			// Every source topic, three partitions each, so that the
			// co-partitioned ones agree with a repartition topic of three.
			var sources []string
			for _, st := range topo.Subtopologies() {
				for _, src := range st.Sources {
					if !src.Internal && !slices.Contains(sources, src.Name) {
						sources = append(sources, src.Name)
					}
				}
			}
			for _, g := range topo.GlobalStores() {
				sources = append(sources, g.Topic)
			}
			testkafka.CreateTopics(t, bootstrap, 3, sources...)

			settings := func(appID string) map[string]string {
				set := maps.Clone(c.set)
				if set == nil {
					set = map[string]string{}
				}
				set["application.id"] = appID
				set["bootstrap.servers"] = bootstrap
				set["group.protocol"] = "streams"
				set["state.dir"] = t.TempDir()
				return set
			}
			jvmApp, goApp := prefix+"-jvm", prefix+"-go"
			defer func() {
				dctx, dcancel := context.WithTimeout(context.Background(), 10*time.Second)
				defer dcancel()
				for _, app := range []string{jvmApp, goApp} {
					r, err := admin.DeleteGroup(dctx, app)
					if err == nil {
						err = r.Err
					}
					if err != nil {
						t.Logf("deleting the group %s: %v", app, err)
					}
				}
			}()

			ref, err := StartReference(ctx, ReferenceOptions{App: c.app, Configs: []string{c.props}, Set: settings(jvmApp), Args: args})
			if err != nil {
				t.Fatal(err)
			}
			defer func() {
				if err := ref.Stop(60 * time.Second); err != nil {
					t.Error(err)
				}
			}()

			cfg, err := LoadConfig([]string{c.props}, settings(goApp))
			if err != nil {
				t.Fatal(err)
			}
			ks, err := streams.New(topo, cfg)
			if err != nil {
				t.Fatal(err)
			}
			defer ks.Close(context.Background())
			if err := ks.Start(ctx); err != nil {
				t.Fatalf("Start: %v", err)
			}

			jvm := storedTopologyDescription(ctx, t, cl, jvmApp, func() string { return ref.Stderr() })
			goes := storedTopologyDescription(ctx, t, cl, goApp, func() string { return "StoatFlow " + ks.State().String() })
			// The broker stores each group's own internal topic names.
			renamed := renameDescriptionTopics(goes, goApp+"-", jvmApp+"-")
			for _, d := range diffFields("TopologyDescription", reflect.ValueOf(jvm), reflect.ValueOf(renamed)) {
				t.Errorf("the broker's description from Kafka Streams differs from the one from StoatFlow: %s", d)
			}
			if err := ks.Err(); err != nil {
				t.Errorf("StoatFlow failed: %v", err)
			}
		})
	}
}

// TestStreamsGroupTopologyDescriptionNotPushedWhenDisabled runs the word
// count under group.protocol=streams with
// topology.description.push.enabled=false, as a Kafka Streams 4.4
// application and as a StoatFlow one, each in a group of its own. The
// broker asks the StoatFlow member for the description (its log says
// so), and neither pushes one: the broker's plugin holds none for either
// group once both run.
func TestStreamsGroupTopologyDescriptionNotPushedWhenDisabled(t *testing.T) {
	bootstrap := testkafka.Bootstrap(t)
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 6*time.Minute)
	defer cancel()
	cl, err := testkafka.NewClient(bootstrap)
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	admin := kadm.NewClient(cl)
	requireDescriptionPlugin(ctx, t, admin, bootstrap)

	prefix := testkafka.Topic(t, "sgd")
	args := map[string]string{"input": prefix + "-input", "output": prefix + "-output"}
	testkafka.CreateTopics(t, bootstrap, 2, args["input"])
	props := filepath.Join(root, "examples", "wordcount", "streams.properties")
	settings := func(appID string) map[string]string {
		return map[string]string{"application.id": appID, "bootstrap.servers": bootstrap, "group.protocol": "streams",
			"state.dir": t.TempDir(), "topology.description.push.enabled": "false"}
	}
	jvmApp, goApp := prefix+"-jvm", prefix+"-go"
	defer func() {
		dctx, dcancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer dcancel()
		for _, app := range []string{jvmApp, goApp} {
			if r, err := admin.DeleteGroup(dctx, app); err == nil && r.Err != nil {
				t.Logf("deleting the group %s: %v", app, r.Err)
			}
		}
	}()

	ref, err := StartReference(ctx, ReferenceOptions{App: wordcount.Name, Configs: []string{props}, Set: settings(jvmApp), Args: args})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := ref.Stop(60 * time.Second); err != nil {
			t.Error(err)
		}
	}()
	cfg, err := LoadConfig([]string{props}, settings(goApp))
	if err != nil {
		t.Fatal(err)
	}
	topo, err := wordcount.Build(args)
	if err != nil {
		t.Fatal(err)
	}
	var logs lockedLog
	ks, err := streams.New(topo, cfg, streams.WithLogger(slog.New(slog.NewTextHandler(&logs, nil))))
	if err != nil {
		t.Fatal(err)
	}
	defer ks.Close(context.Background())
	if err := ks.Start(ctx); err != nil {
		t.Fatalf("Start: %v", err)
	}
	const declined = "topology.description.push.enabled=false keeps it from the broker"
	for deadline := time.Now().Add(2 * time.Minute); !strings.Contains(logs.String(), declined); {
		if time.Now().After(deadline) || ks.State() == streams.Error {
			t.Fatalf("StoatFlow (%s) never logged that the group asked for the description:\n%s", ks.State(), tail(logs.String(), 40))
		}
		time.Sleep(200 * time.Millisecond)
	}
	if err := ref.WaitState(ctx, "RUNNING"); err != nil {
		t.Fatal(err)
	}
	for ks.State() != streams.Running {
		if ctx.Err() != nil {
			t.Fatalf("StoatFlow still %s", ks.State())
		}
		time.Sleep(100 * time.Millisecond)
	}
	// A push, had there been one, goes out right after the answer that
	// asked; give both a few heartbeats more.
	time.Sleep(6 * time.Second)
	for _, app := range []string{jvmApp, goApp} {
		d, status, err := streamsgroup.DescribeTopologyDescription(ctx, cl, app)
		if err != nil {
			t.Fatal(err)
		}
		if status != streamsgroup.DescriptionNotStored || d != nil {
			t.Errorf("group %s: topology description %s, want NOT_STORED: a member pushed it with topology.description.push.enabled=false", app, status)
		}
	}
	if strings.Contains(logs.String(), "pushed the topology description") {
		t.Errorf("StoatFlow pushed with topology.description.push.enabled=false:\n%s", tail(logs.String(), 40))
	}
}

// lockedLog is a log written by several goroutines and read by the test.
type lockedLog struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// requireDescriptionPlugin fails the test when the broker has no
// topology description plugin: its coordinators then never ask for a
// description, and StreamsGroupDescribe has none to give.
func requireDescriptionPlugin(ctx context.Context, t *testing.T, admin *kadm.Client, bootstrap string) {
	t.Helper()
	brokers, err := admin.ListBrokers(ctx)
	if err != nil {
		t.Fatalf("listing the brokers: %v", err)
	}
	rcs, err := admin.DescribeBrokerConfigs(ctx, brokers.NodeIDs()...)
	if err != nil {
		t.Fatalf("describing the broker's configs: %v", err)
	}
	for _, rc := range rcs {
		for _, c := range rc.Configs {
			if c.Key == descriptionPluginConfig && c.Value != nil && *c.Value != "" {
				return
			}
		}
	}
	t.Fatalf("the broker at %s has no %s, so no streams group asks for a topology description: "+
		"restart it with integration/kafka.sh, whose server.properties sets the broker's InMemoryTopologyDescriptionPlugin", bootstrap, descriptionPluginConfig)
}

// oracleTopologyDescription returns the StreamsGroupTopologyDescriptionUpdate
// request (v0) Kafka's code builds for the reference application opts
// names (--streams-group-topology-description), as bytes and read.
func oracleTopologyDescription(ctx context.Context, t *testing.T, jar string, opts ReferenceOptions) ([]byte, kmsg.TopologyDescription) {
	t.Helper()
	raw := oracleBytes(ctx, t, jar, opts, "--streams-group-topology-description")
	req := kmsg.NewPtrStreamsGroupTopologyDescriptionUpdateRequest()
	if err := req.ReadFrom(raw); err != nil {
		t.Fatalf("reading Kafka Streams' StreamsGroupTopologyDescriptionUpdateRequest: %v", err)
	}
	return raw, req.TopologyDescription
}

// storedTopologyDescription waits until the broker's plugin holds a
// topology description of group appID and returns it, as
// StreamsGroupDescribe v1 gives it. state tells, in a failure, how the
// application is doing.
func storedTopologyDescription(ctx context.Context, t *testing.T, cl *kgo.Client, appID string, state func() string) kmsg.TopologyDescription {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	last := "not described yet"
	for {
		rctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		d, status, err := streamsgroup.DescribeTopologyDescription(rctx, cl, appID)
		cancel()
		switch {
		case err != nil:
			last = err.Error()
		case d != nil:
			return *d
		default:
			last = "topology description " + status.String()
		}
		if time.Now().After(deadline) {
			t.Fatalf("the streams group %s has no stored topology description after 2 minutes (last: %s)\n%s", appID, last, state())
		}
		select {
		case <-ctx.Done():
			t.Fatalf("waiting for the topology description of %s: %v", appID, ctx.Err())
		case <-time.After(500 * time.Millisecond):
		}
	}
}

// renameDescriptionTopics returns d with every topic name that starts with from
// starting with to instead.
func renameDescriptionTopics(d kmsg.TopologyDescription, from, to string) kmsg.TopologyDescription {
	rename := func(n kmsg.TopologyDescriptionNode) kmsg.TopologyDescriptionNode {
		topics := make([]string, len(n.SourceTopics))
		for i, topic := range n.SourceTopics {
			if rest, ok := strings.CutPrefix(topic, from); ok {
				topic = to + rest
			}
			topics[i] = topic
		}
		n.SourceTopics = topics
		if n.SinkTopic != nil {
			if rest, ok := strings.CutPrefix(*n.SinkTopic, from); ok {
				n.SinkTopic = kmsg.StringPtr(to + rest)
			}
		}
		return n
	}
	out := kmsg.TopologyDescription{}
	for _, st := range d.Subtopologies {
		c := st
		c.Nodes = nil
		for _, n := range st.Nodes {
			c.Nodes = append(c.Nodes, rename(n))
		}
		out.Subtopologies = append(out.Subtopologies, c)
	}
	for _, g := range d.GlobalStores {
		g.Source, g.Processor = rename(g.Source), rename(g.Processor)
		out.GlobalStores = append(out.GlobalStores, g)
	}
	return out
}
