package integration

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/confluentinc/confluent-kafka-go/v2/kafka"

	"github.com/stoatflow/stoatflow/examples/wordcount"
	"github.com/stoatflow/stoatflow/internal/testkafka"
)

// TestWordCountMatchesKafkaStreams runs Kafka Streams 4.4 and StoatFlow on
// the same input, both under exactly_once_v2 with transactional stores and
// caching off, and compares: the output records of every partition in order
// (key, value, timestamp), the internal topics each created, and describe().
//
// All input goes to partition 0 of a two-partition topic, so every
// repartition partition has a single writer and the order of the output is
// deterministic on both engines.
func TestWordCountMatchesKafkaStreams(t *testing.T) {
	bootstrap := testkafka.Bootstrap(t)
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	in := testkafka.Topic(t, "in")
	outJVM, outGo := in+"-out-jvm", in+"-out-go"
	testkafka.CreateTopics(t, bootstrap, 2, in, outJVM, outGo)
	lines := append(append([]string{}, sampleLines...), sampleLines...)
	var recs []testkafka.Record
	for i, l := range lines {
		recs = append(recs, testkafka.Record{Topic: in, Partition: 0, Value: []byte(l),
			Timestamp: time.UnixMilli(1_700_000_000_000 + int64(i*1000))})
	}
	testkafka.Produce(t, bootstrap, recs...)
	_, total := expectedUpdates(lines)

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	props := filepath.Join(root, "examples", "wordcount", "streams.properties")
	common := map[string]string{
		"bootstrap.servers":                bootstrap,
		"processing.guarantee":             "exactly_once_v2",
		"enable.transactional.statestores": "true",
		"statestore.cache.max.bytes":       "0",
	}
	with := func(extra map[string]string) map[string]string {
		m := map[string]string{}
		for k, v := range common {
			m[k] = v
		}
		for k, v := range extra {
			m[k] = v
		}
		return m
	}

	jvmApp := in + "-jvm"
	ref, err := StartReference(ctx, ReferenceOptions{
		App: "wordcount", Configs: []string{props},
		Set:  with(map[string]string{"application.id": jvmApp, "state.dir": t.TempDir()}),
		Args: map[string]string{"input": in, "output": outJVM},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer ref.Stop(45 * time.Second)
	if err := ref.WaitState(ctx, "RUNNING"); err != nil {
		t.Fatal(err)
	}
	jvmOut, err := testkafka.ReadCommitted(bootstrap, outJVM, total, 2*time.Minute, 3*time.Second)
	if err != nil {
		t.Fatalf("Kafka Streams output: %v\n%s", err, ref.Stderr())
	}
	if err := ref.Stop(45 * time.Second); err != nil {
		t.Error(err)
	}

	goApp := in + "-go"
	cfg, err := LoadConfig([]string{props}, with(map[string]string{"application.id": goApp, "state.dir": t.TempDir()}))
	if err != nil {
		t.Fatal(err)
	}
	ks, err := StartStoatFlow(ctx, wordcount.Name, map[string]string{"input": in, "output": outGo}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer ks.Close(context.Background())
	goOut, err := testkafka.ReadCommitted(bootstrap, outGo, total, 2*time.Minute, 3*time.Second)
	if err != nil {
		t.Fatalf("StoatFlow output: %v", err)
	}

	if len(jvmOut) != total || len(goOut) != total {
		t.Errorf("records: Kafka Streams %d, StoatFlow %d, want %d", len(jvmOut), len(goOut), total)
	}
	for p := int32(0); p < 2; p++ {
		j, g := partitionRecords(jvmOut, p), partitionRecords(goOut, p)
		if strings.Join(j, "\n") != strings.Join(g, "\n") {
			t.Errorf("partition %d differs:\n--- Kafka Streams\n%s\n--- StoatFlow\n%s", p, strings.Join(j, "\n"), strings.Join(g, "\n"))
		}
	}

	// The changelogs must hold the same bytes: a store restored from either
	// engine's changelog holds the same state.
	const changelog = "-KSTREAM-AGGREGATE-STATE-STORE-0000000003-changelog"
	jvmLog, err := testkafka.ReadCommitted(bootstrap, jvmApp+changelog, total, time.Minute, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	goLog, err := testkafka.ReadCommitted(bootstrap, goApp+changelog, total, time.Minute, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	for p := int32(0); p < 2; p++ {
		j, g := partitionRecords(jvmLog, p), partitionRecords(goLog, p)
		if strings.Join(j, "\n") != strings.Join(g, "\n") {
			t.Errorf("changelog partition %d differs:\n--- Kafka Streams\n%s\n--- StoatFlow\n%s", p, strings.Join(j, "\n"), strings.Join(g, "\n"))
		}
	}

	jvmTopics, goTopics := internalTopics(t, bootstrap, jvmApp), internalTopics(t, bootstrap, goApp)
	t.Logf("%d output records each; internal topics: %v", total, goTopics)
	if strings.Join(jvmTopics, ",") != strings.Join(goTopics, ",") || len(goTopics) == 0 {
		t.Errorf("internal topics differ:\n Kafka Streams %v\n StoatFlow     %v", jvmTopics, goTopics)
	}

	args := map[string]string{"input": in, "output": outGo}
	jvmDescribe, err := Describe(ctx, ReferenceOptions{App: "wordcount", Args: args})
	if err != nil {
		t.Fatal(err)
	}
	topo, err := wordcount.Build(args)
	if err != nil {
		t.Fatal(err)
	}
	if got := topo.Describe().String(); got != jvmDescribe {
		t.Errorf("describe() differs:\n--- Kafka Streams\n%s--- StoatFlow\n%s", jvmDescribe, got)
	}
}

func partitionRecords(recs []testkafka.Record, p int32) []string {
	var out []string
	for _, r := range recs {
		if r.Partition == p {
			out = append(out, fmt.Sprintf("%q=%x@%d", r.Key, r.Value, r.Timestamp.UnixMilli()))
		}
	}
	return out
}

// internalTopics lists the topics named <app>-..., without the prefix, with
// their partition counts and cleanup policies.
func internalTopics(t *testing.T, bootstrap, app string) []string {
	t.Helper()
	admin, err := kafka.NewAdminClient(&kafka.ConfigMap{"bootstrap.servers": bootstrap})
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	md, err := admin.GetMetadata(nil, true, 10000)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for name := range md.Topics {
		if strings.HasPrefix(name, app+"-") {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var res []kafka.ConfigResource
	for _, n := range names {
		res = append(res, kafka.ConfigResource{Type: kafka.ResourceTopic, Name: n})
	}
	configs := map[string]string{}
	if len(res) > 0 {
		rs, err := admin.DescribeConfigs(ctx, res)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rs {
			var b bytes.Buffer
			for _, k := range []string{"cleanup.policy", "message.timestamp.type", "retention.ms", "segment.bytes"} {
				if e, ok := r.Config[k]; ok && e.Source == kafka.ConfigSourceDynamicTopic {
					fmt.Fprintf(&b, " %s=%s", k, e.Value)
				}
			}
			configs[r.Name] = b.String()
		}
	}
	out := make([]string, 0, len(names))
	for _, n := range names {
		out = append(out, fmt.Sprintf("%s[%d]%s", strings.TrimPrefix(n, app+"-"), len(md.Topics[n].Partitions), configs[n]))
	}
	return out
}
