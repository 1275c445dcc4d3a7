package integration

import (
	"context"
	"encoding/binary"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/examples/wordcount"
	"github.com/stoatflow/stoatflow/internal/testkafka"
	"github.com/stoatflow/stoatflow/streams"
)

var sampleLines = []string{
	"all streams lead to Kafka",
	"hello kafka streams",
	"join kafka summit",
	"Streams: exactly once, or not at all",
	"kafka kafka KAFKA",
	"the quick brown fox jumps over the lazy dog",
	"the dog barks; the fox runs",
}

// wordCountApp is one word-count run's topics and config.
type wordCountApp struct {
	bootstrap, in, out, appID, stateDir string
}

func newWordCountApp(t *testing.T, partitions int) *wordCountApp {
	t.Helper()
	a := &wordCountApp{bootstrap: testkafka.Bootstrap(t)}
	a.in, a.out = testkafka.Topic(t, "in"), testkafka.Topic(t, "out")
	a.appID = a.in + "-app"
	a.stateDir = t.TempDir()
	testkafka.CreateTopics(t, a.bootstrap, partitions, a.in, a.out)
	return a
}

func (a *wordCountApp) feed(t *testing.T, lines []string, partitions int) {
	t.Helper()
	var recs []testkafka.Record
	for i, l := range lines {
		recs = append(recs, testkafka.Record{
			Topic: a.in, Partition: int32(i % partitions), Value: []byte(l),
			Timestamp: time.UnixMilli(epochBase + int64(i)),
		})
	}
	testkafka.Produce(t, a.bootstrap, recs...)
}

func (a *wordCountApp) config(t *testing.T, set map[string]string) map[string]string {
	m := map[string]string{
		"application.id":    a.appID,
		"bootstrap.servers": a.bootstrap,
		"state.dir":         a.stateDir,
		// A killed member leaves the group only when its session times out:
		// keep that short so crash tests do not wait 45 s per kill.
		"main.consumer.session.timeout.ms":    "6000",
		"main.consumer.heartbeat.interval.ms": "1000",
	}
	for k, v := range set {
		m[k] = v
	}
	return m
}

func (a *wordCountApp) start(t *testing.T, ctx context.Context, set map[string]string, counters *Counters) *streams.KafkaStreams {
	t.Helper()
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := LoadConfig([]string{filepath.Join(root, "examples", "wordcount", "streams.properties")}, a.config(t, set))
	if err != nil {
		t.Fatal(err)
	}
	opts := []streams.Option{}
	if counters != nil {
		opts = append(opts, streams.WithHooks(counters))
	}
	ks, err := StartStoatFlow(ctx, wordcount.Build, map[string]string{"input": a.in, "output": a.out}, cfg, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return ks
}

// expectedUpdates folds lines as the word count does and returns, per word,
// the counts it must emit with caching off.
func expectedUpdates(lines []string) (map[string][]int64, int) {
	counts := map[string]int64{}
	updates := map[string][]int64{}
	total := 0
	for _, l := range lines {
		for _, w := range wordcount.Words(l) {
			counts[w]++
			updates[w] = append(updates[w], counts[w])
			total++
		}
	}
	return updates, total
}

// readUpdates reads the output read_committed and returns each word's count
// sequence.
func readUpdates(t *testing.T, bootstrap, topic string, want int) map[string][]int64 {
	t.Helper()
	recs, err := testkafka.ReadCommitted(bootstrap, topic, want, 2*time.Minute, 3*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][]int64{}
	for _, r := range recs {
		if len(r.Value) != 8 {
			t.Fatalf("value of %q at %s-%d@%d is %d bytes, want an 8-byte Long", r.Key, r.Topic, r.Partition, r.Offset, len(r.Value))
		}
		got[string(r.Key)] = append(got[string(r.Key)], int64(binary.BigEndian.Uint64(r.Value)))
	}
	return got
}

func checkUpdates(t *testing.T, got, want map[string][]int64) {
	t.Helper()
	for w, seq := range want {
		if fmt.Sprint(got[w]) != fmt.Sprint(seq) {
			t.Errorf("word %q: updates %v, want %v", w, got[w], seq)
		}
	}
	for w := range got {
		if _, ok := want[w]; !ok {
			t.Errorf("unexpected word %q: %v", w, got[w])
		}
	}
}

func TestStoatFlowWordCount(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		guarantee string
		threads   int
	}{
		{"exactly_once_v2", 1},
		{"exactly_once_v2", 2},
		{"at_least_once", 1},
		{"at_least_once", 2},
	} {
		t.Run(fmt.Sprintf("%s/threads=%d", tc.guarantee, tc.threads), func(t *testing.T) {
			t.Parallel()
			a := newWordCountApp(t, 2)
			a.feed(t, sampleLines, 2)
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
			defer cancel()
			ks := a.start(t, ctx, map[string]string{
				"processing.guarantee": tc.guarantee,
				"num.stream.threads":   fmt.Sprint(tc.threads),
				"commit.interval.ms":   "100",
			}, nil)
			defer ks.Close(context.Background())
			want, total := expectedUpdates(sampleLines)
			checkUpdates(t, readUpdates(t, a.bootstrap, a.out, total), want)
			if err := ks.Close(ctx); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestRestartAfterCleanCloseReplaysNothing: a clean close commits every
// store with its changelog offset, so the next start restores zero records,
// and counting goes on from where it stopped.
func TestRestartAfterCleanCloseReplaysNothing(t *testing.T) {
	t.Parallel()
	a := newWordCountApp(t, 2)
	first, second := sampleLines[:4], sampleLines[4:]
	a.feed(t, first, 2)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	set := map[string]string{"processing.guarantee": "exactly_once_v2"}
	ks := a.start(t, ctx, set, nil)
	_, n1 := expectedUpdates(first)
	readUpdates(t, a.bootstrap, a.out, n1)
	if err := ks.Close(ctx); err != nil {
		t.Fatal(err)
	}

	a.feed(t, second, 2)
	counters := NewCounters()
	ks = a.start(t, ctx, set, counters)
	defer ks.Close(context.Background())
	want, total := expectedUpdates(sampleLines)
	checkUpdates(t, readUpdates(t, a.bootstrap, a.out, total), want)
	const store = "KSTREAM-AGGREGATE-STATE-STORE-0000000003"
	if n := counters.Restored(store); n != 0 {
		t.Errorf("restart after a clean close restored %d changelog records, want 0", n)
	}
	if n := counters.FullRestores(store); n != 0 {
		t.Errorf("restart after a clean close did %d full restores, want 0", n)
	}
}

// TestRestartAfterKillReplaysOnlyTail: a store that was flushed by a clean
// close keeps its offset; after the next run is killed with SIGKILL, the
// restart replays only the changelog written since that offset, never the
// whole changelog, and the output stays exactly-once.
func TestRestartAfterKillReplaysOnlyTail(t *testing.T) {
	t.Parallel()
	a := newWordCountApp(t, 2)
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	spec := childSpec{
		Topology: wordcount.Name,
		Args:     map[string]string{"input": a.in, "output": a.out},
		Files:    []string{filepath.Join(root, "examples", "wordcount", "streams.properties")},
		Set:      a.config(t, map[string]string{"processing.guarantee": "exactly_once_v2"}),
	}
	lines := generatedLines(90)
	b1, b2, b3 := lines[:30], lines[30:60], lines[60:]
	_, n1 := expectedUpdates(b1)
	_, n12 := expectedUpdates(lines[:60])

	a.feedFrom(t, b1, 0, 2)
	c := startChild(t, spec)
	c.wait(t, "RUNNING", 2*time.Minute)
	readUpdates(t, a.bootstrap, a.out, n1)
	c.stop(t) // clean: stores flushed with their offsets

	a.feedFrom(t, b2, 30, 2)
	c = startChild(t, spec)
	c.wait(t, "RUNNING", 2*time.Minute)
	readUpdates(t, a.bootstrap, a.out, n12)
	c.kill() // the offsets committed in this run were never flushed

	a.feedFrom(t, b3, 60, 2)
	c = startChild(t, spec)
	c.wait(t, "RUNNING", 2*time.Minute)
	_, total := expectedUpdates(lines)
	checkExactlyOnceCounts(t, readUpdates(t, a.bootstrap, a.out, total), lines)
	c.stop(t)

	// Every word count of the second batch is one changelog record.
	var replayed int64
	for tp, r := range c.restores() {
		if r.full {
			t.Errorf("%s: full restore after SIGKILL although the store had a valid offset", tp)
		}
		if !r.done {
			t.Errorf("%s: restore did not finish", tp)
		}
		replayed += r.records
	}
	if want := int64(n12 - n1); replayed != want {
		t.Errorf("replayed %d changelog records after SIGKILL, want the tail of %d written since the last flush", replayed, want)
	}
}

// TestWordCountWithRecordCache: with Kafka's default record cache (10 MiB)
// updates of a key are folded between commits, so fewer records come out,
// but each word's counts still rise to its exact total.
func TestWordCountWithRecordCache(t *testing.T) {
	t.Parallel()
	a := newWordCountApp(t, 2)
	lines := generatedLines(200)
	a.feedFrom(t, lines, 0, 2)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	ks := a.start(t, ctx, map[string]string{
		"processing.guarantee":       "exactly_once_v2",
		"statestore.cache.max.bytes": "10485760",
		"commit.interval.ms":         "1000",
	}, nil)
	defer ks.Close(context.Background())
	occ := map[string]int64{}
	for _, l := range lines {
		for _, w := range wordcount.Words(l) {
			occ[w]++
		}
	}
	// Wait until every word reached its total; the cache emits at commits.
	deadline := time.Now().Add(2 * time.Minute)
	for {
		recs, _ := testkafka.ReadCommitted(a.bootstrap, a.out, 1, 10*time.Second, 2*time.Second)
		last := map[string]int64{}
		prev := map[string]int64{}
		n := 0
		for _, r := range recs {
			w, v := string(r.Key), int64(binary.BigEndian.Uint64(r.Value))
			if v <= prev[w] {
				t.Fatalf("word %q: count went from %d to %d", w, prev[w], v)
			}
			prev[w], last[w] = v, v
			n++
		}
		done := len(last) == len(occ)
		for w, total := range occ {
			done = done && last[w] == total
		}
		if done {
			_, uncached := expectedUpdates(lines)
			t.Logf("%d records with the cache, %d without", n, uncached)
			if n >= uncached {
				t.Errorf("the cache folded nothing: %d records, as many as without it", n)
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("final counts %v, want %v", last, occ)
		}
	}
}
