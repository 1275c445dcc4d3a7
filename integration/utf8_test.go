package integration

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/examples/passthrough"
	"github.com/stoatflow/stoatflow/internal/testkafka"
	"github.com/stoatflow/stoatflow/kstreams"
)

// malformedUTF8 are byte strings that are not valid UTF-8, one of each kind
// Java's decoder tells apart, with well-formed text around some of them.
var malformedUTF8 = [][]byte{
	{0xff}, {0x80}, {0xbf, 0xbf}, {0xc0, 0xaf}, {0xc1, 0xbf}, // stray continuation bytes, overlong 2-byte forms
	{0xe0, 0x80, 0xaf}, {0xe0, 0x9f, 0xbf}, // overlong 3-byte forms
	{0xed, 0xa0, 0x80}, {'k', 0xed, 0xbf, 0xbf, 'z'}, // encoded surrogates
	{0xe2, 0x82}, {'a', 0xe2, 0x82, 'b'}, {0xe2}, // cut short: at the end, by ASCII
	{0xf0, 0x80, 0x80, 0x80}, {0xf0, 0x90, 0x80}, {0xf0, 0x90, 'x'}, {0xf4, 0x90, 0x80, 0x80}, // 4-byte: overlong, cut short, past U+10FFFF
	{0xf5, 0x80, 0x80, 0x80}, {0xf8, 0x88, 0x80, 0x80, 0x80}, {0xfe, 0xfe, 0xff, 0xff},
	{'u', 's', 'e', 'r', '-', 0xc3}, {0xc3, 0x28}, {0xe9, 'c', 'o', 'l', 'e'}, // Latin-1, not UTF-8
}

// TestPassthroughMalformedUTF8MatchesKafkaStreams runs the passthrough
// topology (String serdes for keys and values, from default.key.serde and
// default.value.serde) on Kafka Streams 4.4 and on StoatFlow over keys and
// values that are not valid UTF-8, and compares the output topic's partitions
// byte for byte. Kafka Streams reads each malformed sequence as U+FFFD and
// writes the replaced bytes back; the key it partitions by is the replaced
// one, so records land on other partitions than their raw keys hash to.
func TestPassthroughMalformedUTF8MatchesKafkaStreams(t *testing.T) {
	t.Parallel()
	bootstrap := testkafka.Bootstrap(t)
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	const outPartitions = 6
	in := testkafka.Topic(t, "in")
	outJVM, outGo := in+"-out-jvm", in+"-out-go"
	testkafka.CreateTopics(t, bootstrap, 1, in)
	testkafka.CreateTopics(t, bootstrap, outPartitions, outJVM, outGo)

	var recs []testkafka.Record
	want := 0
	ts := time.UnixMilli(epochBase)
	add := func(key, value []byte) {
		recs = append(recs, testkafka.Record{Topic: in, Partition: 0, Key: key, Value: value, Timestamp: ts})
		ts = ts.Add(time.Second)
		if !bytes.HasPrefix(value, []byte("#")) {
			want++
		}
	}
	for i, m := range malformedUTF8 {
		// The malformed bytes as key and as value, and each next to the
		// other kinds.
		add(m, append([]byte("value "), m...))
		add(append([]byte(fmt.Sprintf("key-%d-", i)), m...), m)
		add(malformedUTF8[(i+7)%len(malformedUTF8)], append(append([]byte{}, m...), "mixed"...))
	}
	add([]byte("valid-\u00e9\u20ac\U0001d11e"), []byte("stays \u00e9\u20ac\U0001d11e"))
	add([]byte{0xff, 0xfe}, []byte{'#', 0xff}) // dropped by the filter on both
	testkafka.Produce(t, bootstrap, recs...)

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	props := filepath.Join(root, "examples", "passthrough", "streams.properties")
	set := func(app string) map[string]string {
		return map[string]string{
			"bootstrap.servers": bootstrap, "application.id": app, "state.dir": t.TempDir(),
			"processing.guarantee": "exactly_once_v2", "statestore.cache.max.bytes": "0",
		}
	}
	ref, err := StartReference(ctx, ReferenceOptions{
		App: passthrough.Name, Configs: []string{props}, Set: set(in + "-jvm"),
		Args: map[string]string{"input": in, "output": outJVM},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer ref.Stop(45 * time.Second)
	if err := ref.WaitState(ctx, "RUNNING"); err != nil {
		t.Fatal(err)
	}
	jvmOut, err := testkafka.ReadCommitted(bootstrap, outJVM, want, 2*time.Minute, 3*time.Second)
	if err != nil {
		t.Fatalf("Kafka Streams output: %v\n%s", err, ref.Stderr())
	}
	if err := ref.Stop(45 * time.Second); err != nil {
		t.Error(err)
	}

	cfg, err := LoadConfig([]string{props}, set(in+"-go"))
	if err != nil {
		t.Fatal(err)
	}
	ks, err := StartStoatFlow(ctx, passthrough.Build, map[string]string{"input": in, "output": outGo}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer ks.Close(context.Background())
	goOut, err := testkafka.ReadCommitted(bootstrap, outGo, want, 2*time.Minute, 3*time.Second)
	if err != nil {
		t.Fatalf("StoatFlow output: %v", err)
	}

	if len(jvmOut) != want || len(goOut) != want {
		t.Errorf("records: Kafka Streams %d, StoatFlow %d, want %d", len(jvmOut), len(goOut), want)
	}
	for p := int32(0); p < outPartitions; p++ {
		j, g := partitionRecords(jvmOut, p), partitionRecords(goOut, p)
		if strings.Join(j, "\n") != strings.Join(g, "\n") {
			t.Errorf("partition %d differs:\n--- Kafka Streams\n%s\n--- StoatFlow\n%s", p, strings.Join(j, "\n"), strings.Join(g, "\n"))
		}
	}

	// The test means something only if Kafka Streams did rewrite the bytes
	// and moved records off the partitions of their raw keys.
	replaced, moved := 0, 0
	rawPartition := map[string]int32{}
	for _, r := range recs {
		rawPartition[fmt.Sprintf("%d", r.Timestamp.UnixMilli())] = kstreams.DefaultPartition(r.Key, outPartitions)
	}
	for _, r := range jvmOut {
		if bytes.Contains(r.Key, []byte("\uFFFD")) {
			replaced++
		}
		if rawPartition[fmt.Sprintf("%d", r.Timestamp.UnixMilli())] != r.Partition {
			moved++
		}
	}
	t.Logf("%d records; Kafka Streams replaced malformed UTF-8 in %d keys and wrote %d records to another partition than the raw key's", len(jvmOut), replaced, moved)
	if replaced == 0 || moved == 0 {
		t.Errorf("the input did not exercise the replacement: %d keys replaced, %d records moved", replaced, moved)
	}
}
