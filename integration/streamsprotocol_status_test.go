package integration

import (
	"context"
	"errors"
	"maps"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/examples/wordcount"
	"github.com/stoatflow/stoatflow/internal/testkafka"
	"github.com/stoatflow/stoatflow/streams"
)

// TestStreamsProtocolMissingSourceTopic: the word count in a streams group
// whose input topic is deleted while it runs. The coordinator answers each
// heartbeat with MISSING_SOURCE_TOPICS; Kafka Streams 4.4 waits two
// heartbeat intervals, then its thread fails with
// MissingSourceTopicException and, under the default handler, the client
// ends in ERROR. StoatFlow does the same, its error naming the topic. (A
// topic missing at start is refused by Start, with the topic's name.)
func TestStreamsProtocolMissingSourceTopic(t *testing.T) {
	t.Parallel()
	bootstrap := testkafka.Bootstrap(t)
	props := wordCountProps(t)
	for _, engine := range []string{"Kafka Streams", "StoatFlow"} {
		t.Run(engine, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
			defer cancel()
			in, out := testkafka.Topic(t, "in"), testkafka.Topic(t, "out")
			testkafka.CreateTopics(t, bootstrap, 2, in, out)
			args := map[string]string{"input": in, "output": out}
			set := map[string]string{"application.id": in + "-app", "bootstrap.servers": bootstrap, "group.protocol": "streams",
				"state.dir": t.TempDir(), "processing.guarantee": "exactly_once_v2"}
			admin := testkafka.Admin(t, bootstrap)
			deleteInput := func() time.Time {
				t.Helper()
				if _, err := admin.DeleteTopics(ctx, in); err != nil {
					t.Fatal(err)
				}
				return time.Now()
			}
			if engine == "Kafka Streams" {
				ref, err := StartReference(ctx, ReferenceOptions{App: wordcount.Name, Configs: []string{props}, Set: set, Args: args})
				if err != nil {
					t.Fatal(err)
				}
				defer ref.Kill()
				if err := ref.WaitState(ctx, "RUNNING"); err != nil {
					t.Fatal(err)
				}
				deleted := deleteInput()
				if err := ref.WaitState(ctx, "ERROR"); err != nil {
					t.Fatal(err)
				}
				t.Logf("Kafka Streams ended in ERROR %v after its input was deleted", time.Since(deleted).Round(time.Millisecond))
				return
			}
			ks := startWordCount(ctx, t, props, set, args)
			waitRunning(ctx, t, ks, "StoatFlow")
			deleted := deleteInput()
			waitStopped(ctx, t, ks, "StoatFlow, its input deleted,")
			if ks.State() != streams.Error || !errors.Is(ks.Err(), streams.ErrMissingSourceTopics) || !strings.Contains(ks.Err().Error(), in) {
				t.Fatalf("StoatFlow ended %s with %v, want ERROR with ErrMissingSourceTopics naming %s", ks.State(), ks.Err(), in)
			}
			t.Logf("StoatFlow ended in ERROR %v after its input was deleted: %v", time.Since(deleted).Round(time.Millisecond), ks.Err())
		})
	}
}

// TestStreamsProtocolTopologyDiffers: an instance whose topology differs
// from the one its streams group holds (here it reads another input
// topic) is refused by the coordinator, which keeps the topology the group
// was founded with (INVALID_REQUEST, "Topology updates are not supported
// yet."). Kafka Streams 4.4 ends in ERROR; StoatFlow too, with
// ErrTopologyDiffers naming the difference, while the group's running
// member goes on. The group keeps its topology once empty: a later start
// of the other topology is refused the same way.
func TestStreamsProtocolTopologyDiffers(t *testing.T) {
	t.Parallel()
	bootstrap := testkafka.Bootstrap(t)
	props := wordCountProps(t)
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	in, other, out := testkafka.Topic(t, "in"), testkafka.Topic(t, "other"), testkafka.Topic(t, "out")
	testkafka.CreateTopics(t, bootstrap, 2, in, other, out)
	set := map[string]string{"application.id": in + "-app", "bootstrap.servers": bootstrap, "group.protocol": "streams",
		"processing.guarantee": "exactly_once_v2"}
	start := func(input string) *streams.KafkaStreams {
		t.Helper()
		s := maps.Clone(set)
		s["state.dir"] = t.TempDir()
		return startWordCount(ctx, t, props, s, map[string]string{"input": input, "output": out})
	}
	refused := func(when string) {
		t.Helper()
		ks := start(other)
		waitStopped(ctx, t, ks, when+": StoatFlow with another topology")
		if ks.State() != streams.Error || !errors.Is(ks.Err(), streams.ErrTopologyDiffers) || !strings.Contains(ks.Err().Error(), other) ||
			!strings.Contains(ks.Err().Error(), "source topics") {
			t.Fatalf("%s: StoatFlow with another topology ended %s with %v, want ERROR with ErrTopologyDiffers naming the source topics", when, ks.State(), ks.Err())
		}
		t.Logf("%s: StoatFlow with another topology ended in ERROR: %v", when, ks.Err())
	}

	founder := start(in)
	waitRunning(ctx, t, founder, "the founding instance")
	s := maps.Clone(set)
	s["state.dir"] = t.TempDir()
	ref, err := StartReference(ctx, ReferenceOptions{App: wordcount.Name, Configs: []string{props}, Set: s,
		Args: map[string]string{"input": other, "output": out}})
	if err != nil {
		t.Fatal(err)
	}
	defer ref.Kill()
	if err := ref.WaitState(ctx, "ERROR"); err != nil {
		t.Fatalf("Kafka Streams with another topology: %v", err)
	}
	t.Logf("Kafka Streams with another topology ended in ERROR")
	ref.Kill()
	refused("beside the founder")
	if founder.State() != streams.Running {
		t.Fatalf("the founding instance is %s after the refused ones, want RUNNING", founder.State())
	}
	if err := founder.CloseWith(ctx, streams.CloseOptions{LeaveGroup: true}); err != nil {
		t.Fatal(err)
	}
	refused("in the empty group")
}

// startWordCount starts a StoatFlow instance of the word count from the
// example's properties with set over them, closed at the test's end.
func startWordCount(ctx context.Context, t *testing.T, props string, set, args map[string]string) *streams.KafkaStreams {
	t.Helper()
	cfg, err := LoadConfig([]string{props}, set)
	if err != nil {
		t.Fatal(err)
	}
	topo, err := wordcount.Build(args)
	if err != nil {
		t.Fatal(err)
	}
	ks, err := streams.New(topo, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ks.Close(context.Background()) })
	if err := ks.Start(ctx); err != nil {
		t.Fatalf("Start: %v", err)
	}
	return ks
}

// waitRunning waits until ks is RUNNING, failing the test when ctx ends.
func waitRunning(ctx context.Context, t *testing.T, ks *streams.KafkaStreams, what string) {
	t.Helper()
	for ks.State() != streams.Running {
		if ctx.Err() != nil {
			t.Fatalf("%s is still %s", what, ks.State())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// waitStopped waits until ks stopped by itself, failing the test when ctx
// ends first.
func waitStopped(ctx context.Context, t *testing.T, ks *streams.KafkaStreams, what string) {
	t.Helper()
	select {
	case <-ks.Done():
	case <-ctx.Done():
		t.Fatalf("%s is still %s", what, ks.State())
	}
}

// wordCountProps is the path of the word count example's properties.
func wordCountProps(t *testing.T) string {
	t.Helper()
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Join(root, "examples", "wordcount", "streams.properties")
}
