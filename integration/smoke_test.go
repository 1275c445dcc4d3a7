package integration

import (
	"context"
	"encoding/binary"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/stoatflow/stoatflow/internal/testkafka"
)

var update = flag.Bool("update", false, "rewrite golden files from the Kafka Streams reference")

// TestBrokerIsKafka44 pins the broker the suite runs against.
func TestBrokerIsKafka44(t *testing.T) {
	t.Parallel()
	bootstrap := testkafka.Bootstrap(t)
	admin := testkafka.Admin(t, bootstrap)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	desc, err := admin.BrokerMetadata(ctx)
	if err != nil {
		t.Fatalf("describe cluster at %s: %v", bootstrap, err)
	}
	if len(desc.Brokers) != 1 {
		t.Fatalf("want one broker, got %d", len(desc.Brokers))
	}
	// The broker's version is pinned by the jars integration/kafka.sh runs.
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, ".cache", "kafka-4.4.0", "lib", "kafka_2.13-4.4.0.jar")); err != nil &&
		os.Getenv("CI") == "true" {
		t.Fatalf("Kafka 4.4.0 jars not found where integration/kafka.sh puts them: %v", err)
	}
	t.Logf("broker %s: cluster %v, %d node(s)", bootstrap, desc.Cluster, len(desc.Brokers))
}

// TestTransactionalProducerCommitAndAbort checks what exactly-once rests on:
// a read_committed consumer sees committed transactions and never aborted
// ones.
func TestTransactionalProducerCommitAndAbort(t *testing.T) {
	t.Parallel()
	bootstrap := testkafka.Bootstrap(t)
	topic := testkafka.Topic(t, "txn")
	testkafka.CreateTopics(t, bootstrap, 1, topic)

	p, err := testkafka.NewClient(bootstrap,
		kgo.TransactionalID(topic+"-producer"),
		kgo.TransactionTimeout(10*time.Second),
		kgo.DefaultProduceTopic(topic),
		kgo.RecordPartitioner(testkafka.Partitioner()),
	)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	txn := func(commit bool, vals ...string) {
		t.Helper()
		if err := p.BeginTransaction(); err != nil {
			t.Fatal(err)
		}
		for _, v := range vals {
			p.Produce(ctx, &kgo.Record{Partition: 0, Value: []byte(v)}, func(_ *kgo.Record, err error) {
				if err != nil {
					t.Errorf("produce %q: %v", v, err)
				}
			})
		}
		// Flush first so the aborted records reach the log: aborting
		// with records still buffered would drop them unsent, which
		// would prove nothing.
		if err := p.Flush(ctx); err != nil {
			t.Fatalf("flush: %v", err)
		}
		if err := p.EndTransaction(ctx, kgo.TransactionEndTry(commit)); err != nil {
			t.Fatalf("end transaction (commit %v): %v", commit, err)
		}
	}
	txn(true, "c1", "c2")
	txn(false, "a1", "a2", "a3")
	txn(true, "c3")
	txn(false, "a4")

	recs, err := testkafka.ReadCommitted(bootstrap, topic, 3, 30*time.Second, 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range recs {
		got = append(got, string(r.Value))
	}
	if strings.Join(got, ",") != "c1,c2,c3" {
		t.Fatalf("read_committed saw %v, want [c1 c2 c3]", got)
	}
	// The aborted records and the markers occupy offsets: the last committed
	// record must sit past them, or nothing was aborted on the log.
	if last := recs[len(recs)-1].Offset; last < 5 {
		t.Fatalf("offset of c3 is %d: the aborted records never reached the log", last)
	}
}

var wordSplit = regexp.MustCompile(`\W+`)

// wordCountUpdates folds lines the way the word-count topology does and
// returns, per word, the sequence of counts it must emit with caching off.
func wordCountUpdates(lines []string) map[string][]int64 {
	counts := map[string]int64{}
	updates := map[string][]int64{}
	for _, l := range lines {
		for _, w := range javaSplit(wordSplit, strings.ToLower(l)) {
			counts[w]++
			updates[w] = append(updates[w], counts[w])
		}
	}
	return updates
}

// javaSplit splits as Java's String.split(regex): no match gives the input
// itself; otherwise trailing empty strings are removed (a leading one, from a
// match at 0, stays).
func javaSplit(re *regexp.Regexp, s string) []string {
	if !re.MatchString(s) {
		return []string{s}
	}
	parts := re.Split(s, -1)
	for len(parts) > 0 && parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1]
	}
	return parts
}

// TestReferenceWordCountExactlyOnce runs Kafka Streams 4.4's word count with
// exactly_once_v2 and transactional state stores on the real broker and
// checks every count it emits.
func TestReferenceWordCountExactlyOnce(t *testing.T) {
	t.Parallel()
	bootstrap := testkafka.Bootstrap(t)
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	in, out := testkafka.Topic(t, "in"), testkafka.Topic(t, "out")
	testkafka.CreateTopics(t, bootstrap, 2, in, out)

	lines := []string{
		"all streams lead to Kafka",
		"hello kafka streams",
		"join kafka summit",
		"Streams: exactly once, or not at all",
		"kafka kafka KAFKA",
	}
	var recs []testkafka.Record
	for i, l := range lines {
		recs = append(recs, testkafka.Record{
			Topic: in, Partition: int32(i % 2), Value: []byte(l),
			Timestamp: time.UnixMilli(epochBase + int64(i)),
		})
	}
	testkafka.Produce(t, bootstrap, recs...)

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	app, err := StartReference(ctx, ReferenceOptions{
		App:     "wordcount",
		Configs: []string{filepath.Join(root, "examples", "wordcount", "streams.properties")},
		Set: map[string]string{
			"application.id":                   in + "-app",
			"bootstrap.servers":                bootstrap,
			"state.dir":                        t.TempDir(),
			"processing.guarantee":             "exactly_once_v2",
			"enable.transactional.statestores": "true",
			"statestore.cache.max.bytes":       "0",
			"commit.interval.ms":               "100",
		},
		Args: map[string]string{"input": in, "output": out},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := app.Stop(45 * time.Second); err != nil {
			t.Error(err)
		}
	}()
	if err := app.WaitState(ctx, "RUNNING"); err != nil {
		t.Fatal(err)
	}

	want := wordCountUpdates(lines)
	total := 0
	for _, u := range want {
		total += len(u)
	}
	got, err := testkafka.ReadCommitted(bootstrap, out, total, 2*time.Minute, 3*time.Second)
	if err != nil {
		t.Fatalf("%v\nreference app log:\n%s", err, app.Stderr())
	}
	updates := map[string][]int64{}
	for _, r := range got {
		if len(r.Value) != 8 {
			t.Fatalf("value of %q at %s-%d@%d is %d bytes, want an 8-byte Long", r.Key, r.Topic, r.Partition, r.Offset, len(r.Value))
		}
		updates[string(r.Key)] = append(updates[string(r.Key)], int64(binary.BigEndian.Uint64(r.Value)))
	}
	if len(got) != total {
		t.Errorf("read %d records, want %d", len(got), total)
	}
	for w, seq := range want {
		if !equalInts(updates[w], seq) {
			t.Errorf("word %q: updates %v, want %v", w, updates[w], seq)
		}
	}
	for w := range updates {
		if _, ok := want[w]; !ok {
			t.Errorf("unexpected word %q: %v", w, updates[w])
		}
	}
}

// TestReferenceWordCountDescribe keeps Kafka Streams 4.4's describe() of the
// word count as the golden file the Go topology is compared with. Run with
// -update to capture it again.
func TestReferenceWordCountDescribe(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("needs Java and Maven")
	}
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	got, err := Describe(ctx, ReferenceOptions{App: "wordcount"})
	if err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join(root, "kstreams", "testdata", "jvm", "wordcount.describe.txt")
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update to capture it)", err)
	}
	if got != string(want) {
		t.Fatalf("describe() of the Kafka Streams word count differs from %s:\n--- got\n%s--- want\n%s", golden, got, want)
	}
}

func equalInts(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// epochBase is the timestamp tests give their first input record: ten
// minutes before the run began, on a whole minute. Records must be recent:
// the broker deletes a segment whose newest record is older than
// retention.ms (7 days) at its next retention check, active segment included.
var epochBase = func() int64 {
	now := time.Now().UnixMilli() - 10*60_000
	return now - now%60_000
}()
