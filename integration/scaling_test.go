package integration

import (
	"context"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/examples/wordcount"
	"github.com/stoatflow/stoatflow/internal/testkafka"
	"github.com/stoatflow/stoatflow/streams"
)

// generatedLines returns n deterministic lines over a small vocabulary, so
// every word is counted many times.
func generatedLines(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = wordLine(i)
	}
	return out
}

// checkExactlyOnceCounts asserts that every word's updates are exactly
// 1, 2, ..., n with n its number of occurrences: no duplicate, no gap,
// whatever the interleaving.
func checkExactlyOnceCounts(t *testing.T, got map[string][]int64, lines []string) {
	t.Helper()
	occ := map[string]int64{}
	for _, l := range lines {
		for _, w := range wordcount.Words(l) {
			occ[w]++
		}
	}
	for w, n := range occ {
		seq := got[w]
		ok := int64(len(seq)) == n
		for i := 0; ok && i < len(seq); i++ {
			ok = seq[i] == int64(i+1)
		}
		if !ok {
			t.Errorf("word %q: %d updates %v, want exactly 1..%d", w, len(seq), seq, n)
		}
	}
	for w := range got {
		if occ[w] == 0 {
			t.Errorf("unexpected word %q", w)
		}
	}
}

// TestTwoInstancesShareWorkAndOneLeaves runs two instances of one
// application (separate state dirs, so separate process ids and
// transactional ids) while input flows; one is closed mid-run, its tasks move
// to the other, and the output stays exactly-once.
func TestTwoInstancesShareWorkAndOneLeaves(t *testing.T) {
	t.Parallel()
	a := newWordCountApp(t, 4)
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	startInstance := func(stateDir string) *streams.KafkaStreams {
		set := a.config(t, map[string]string{"processing.guarantee": "exactly_once_v2", "state.dir": stateDir})
		cfg, err := LoadConfig([]string{filepath.Join(root, "examples", "wordcount", "streams.properties")}, set)
		if err != nil {
			t.Fatal(err)
		}
		ks, err := StartStoatFlow(ctx, wordcount.Build, map[string]string{"input": a.in, "output": a.out}, cfg)
		if err != nil {
			t.Fatal(err)
		}
		return ks
	}
	lines := generatedLines(600)
	first := startInstance(t.TempDir())
	defer first.Close(context.Background())
	second := startInstance(t.TempDir())
	defer second.Close(context.Background())

	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; i < len(lines); i += 20 {
			a.feedFrom(t, lines[i:i+20], i, 4)
			time.Sleep(50 * time.Millisecond)
		}
	}()
	time.Sleep(1500 * time.Millisecond)
	if err := second.Close(ctx); err != nil {
		t.Errorf("closing the second instance: %v", err)
	}
	wg.Wait()
	_, total := expectedUpdates(lines)
	checkExactlyOnceCounts(t, readUpdates(t, a.bootstrap, a.out, total), lines)
	if st := first.State(); st != streams.Running && st != streams.Rebalancing {
		t.Errorf("the remaining instance is %v: %v", st, first.Err())
	}
}

// feedFrom produces lines with timestamps continuing from index base.
func (a *wordCountApp) feedFrom(t *testing.T, lines []string, base, partitions int) {
	var recs []testkafka.Record
	for i, l := range lines {
		recs = append(recs, testkafka.Record{
			Topic: a.in, Partition: int32((base + i) % partitions), Value: []byte(l),
			Timestamp: time.UnixMilli(epochBase + int64(base+i)),
		})
	}
	testkafka.Produce(t, a.bootstrap, recs...)
}
