package integration

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/examples/patterns"
	"github.com/stoatflow/stoatflow/internal/testkafka"
)

// patternRecords are n records for each of keys, keyed by prefix+index,
// each key on one partition (its index's parity): a key's records come
// from one partition of one topic, so every engine counts them in the same
// order, whatever order a task reading several partitions takes them in.
func patternRecords(prefix string, keys, n int, from int64) []testkafka.Record {
	var out []testkafka.Record
	for i := range n {
		k := i % keys
		out = append(out, testkafka.Record{Partition: int32(k % 2), Key: []byte(fmt.Sprintf("%s%d", prefix, k)),
			Value: []byte(fmt.Sprintf("v%d", i)), Timestamp: time.UnixMilli(epochBase + from + int64(i)*100)})
	}
	return out
}

// TestPatternSourceMatchesKafkaStreams: a pattern source beside a named
// topic, merged and counted in one sub-topology. The pattern matches two
// of the input topics (and not the named one, the outputs or the
// internal topics); each record read through it carries its own topic.
// Compared: the output and the count's changelog per partition (as
// multisets: each task reads three partitions), the internal topics with
// their configs, and describe(), which prints the pattern.
func TestPatternSourceMatchesKafkaStreams(t *testing.T) {
	t.Parallel()
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	direct := patternRecords("d", 4, 20, 0)
	a, b := patternRecords("a", 4, 30, 50), patternRecords("b", 3, 25, 70)
	matched := len(a) + len(b)
	runDifferential(t, diffCase{
		app: patterns.Name, props: filepath.Join(root, "examples", "patterns", "streams.properties"),
		input: direct, inputs: map[string][]testkafka.Record{"a": a, "b": b},
		outputs: 2*matched + len(direct), unordered: true, unorderedChangelogs: true,
		changelogs: map[string]int{"KSTREAM-AGGREGATE-STATE-STORE-0000000005-changelog": matched + len(direct)},
	})
}

// TestPatternSourceReadsATopicCreatedLaterLikeKafkaStreams: both engines
// run side by side on the same input topics; a topic the pattern matches
// is created while they run, and each reads it from its next metadata
// refresh (metadata.max.age.ms=1000 in the example's file) on. Their
// outputs are compared per partition as multisets.
func TestPatternSourceReadsATopicCreatedLaterLikeKafkaStreams(t *testing.T) {
	t.Parallel()
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	props := filepath.Join(root, "examples", "patterns", "streams.properties")
	bootstrap := testkafka.Bootstrap(t)
	in := testkafka.Topic(t, "in")
	outJVM, outGo := in+"-out-jvm", in+"-out-go"
	testkafka.CreateTopics(t, bootstrap, 2, in, in+"-a", outJVM, outGo)
	first := patternRecords("a", 4, 20, 0)
	for i := range first {
		first[i].Topic = in + "-a"
	}
	testkafka.Produce(t, bootstrap, first...)

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	set := func(app string) map[string]string {
		return map[string]string{"bootstrap.servers": bootstrap, "application.id": app, "state.dir": t.TempDir()}
	}
	ref, err := StartReference(ctx, ReferenceOptions{App: patterns.Name, Configs: []string{props},
		Set: set(in + "-jvm"), Args: map[string]string{"input": in, "output": outJVM}})
	if err != nil {
		t.Fatal(err)
	}
	defer ref.Stop(45 * time.Second)
	cfg, err := LoadConfig([]string{props}, set(in+"-go"))
	if err != nil {
		t.Fatal(err)
	}
	ks, err := StartStoatFlow(ctx, patterns.Build, map[string]string{"input": in, "output": outGo}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer ks.Close(context.Background())
	if err := ref.WaitState(ctx, "RUNNING"); err != nil {
		t.Fatal(err)
	}
	for name, out := range map[string]string{"Kafka Streams": outJVM, "StoatFlow": outGo} {
		if _, err := testkafka.ReadCommitted(bootstrap, out, 2*len(first), 2*time.Minute, time.Second); err != nil {
			t.Fatalf("%s before the new topic: %v", name, err)
		}
	}

	later := patternRecords("c", 3, 15, 10_000)
	for i := range later {
		later[i].Topic = in + "-c"
	}
	testkafka.CreateTopics(t, bootstrap, 2, in+"-c")
	testkafka.Produce(t, bootstrap, later...)
	want := 2 * (len(first) + len(later))
	jvmOut, err := testkafka.ReadCommitted(bootstrap, outJVM, want, 2*time.Minute, 3*time.Second)
	if err != nil {
		t.Fatalf("Kafka Streams output: %v\n%s", err, ref.Stderr())
	}
	goOut, err := testkafka.ReadCommitted(bootstrap, outGo, want, 2*time.Minute, 3*time.Second)
	if err != nil {
		t.Fatalf("StoatFlow output: %v", err)
	}
	if len(jvmOut) != want || len(goOut) != want {
		t.Errorf("records: Kafka Streams %d, StoatFlow %d, want %d", len(jvmOut), len(goOut), want)
	}
	compareUnordered(t, "output", jvmOut, goOut)
}
