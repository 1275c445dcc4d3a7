package streams_test

import (
	"encoding/binary"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/internal/testkafka"
	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/serde"
)

// outageLong is a Long serde whose serializer, from its 40th call on, fails
// for two seconds with an error of the serde.ErrUnavailable class, as a
// registry serde fails while its registry is down.
type outageLong struct {
	mu       sync.Mutex
	calls    int
	until    time.Time
	failures int
}

func (o *outageLong) Serialize(topic string, v int64) ([]byte, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.calls++
	if o.calls == 40 {
		o.until = time.Now().Add(2 * time.Second)
	}
	if time.Now().Before(o.until) {
		o.failures++
		return nil, fmt.Errorf("test registry: connection refused: %w", serde.ErrUnavailable)
	}
	return serde.Long{}.Serialize(topic, v)
}

func (o *outageLong) Deserialize(topic string, b []byte) (int64, error) {
	return serde.Long{}.Deserialize(topic, b)
}

func (o *outageLong) failed() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.failures
}

func outageTopology(t *testing.T, input, output string, out *outageLong) *kstreams.Topology {
	t.Helper()
	b := kstreams.NewStreamsBuilder()
	words := kstreams.Stream[string, string](b, []string{input})
	counts := kstreams.GroupBy(words, func(_, w string) string { return w }).
		Count(kstreams.MaterializedAs[string, int64]("counts"))
	counts.ToStream().To(output, kstreams.ProducedWith[string, int64](serde.String{}, out))
	topo, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return topo
}

// TestKfakeServiceOutageAbortsTheEpochAndRetries: while the output's serde
// cannot reach its service, every epoch that tries to write aborts and is
// processed again after a pause; once the service answers, the output holds
// every count exactly once, in order, under exactly_once_v2 (nothing of an
// aborted epoch is visible read_committed), and no exception handler ever
// saw a record.
func TestKfakeServiceOutageAbortsTheEpochAndRetries(t *testing.T) {
	_, addr := startBroker(t)
	createTopics(t, addr, 2, "in", "out")
	out := &outageLong{}
	ks := startApp(t, outageTopology(t, "in", "out", out), appConfig(t, addr, "outage", t.TempDir()))
	words(t, addr, "in", 0, 200, vocab)
	checkCounts(t, readCounts(t, addr, "out", 200), wantCounts(200, vocab))
	closeApp(t, ks)
	if out.failed() == 0 {
		t.Fatal("the serde never failed: the test did not exercise the outage")
	}
	t.Logf("%d serializations failed during the outage", out.failed())
}

// TestKfakeServiceOutageUnderAtLeastOnceLosesNothing: under at_least_once
// there is no transaction to abort: what the aborted epochs sent (here to
// the repartition topic) is sent again, so counts may be repeated and run
// past the exact ones, but every count from 1 to the exact final one is in
// the output: no record is lost.
func TestKfakeServiceOutageUnderAtLeastOnceLosesNothing(t *testing.T) {
	_, addr := startBroker(t)
	createTopics(t, addr, 2, "in", "out")
	out := &outageLong{}
	ks := startApp(t, outageTopology(t, "in", "out", out),
		appConfig(t, addr, "outage-alos", t.TempDir(), "processing.guarantee=at_least_once"))
	words(t, addr, "in", 0, 200, vocab)
	want := wantCounts(200, vocab)
	lost := func(got map[string][]int64) []string {
		var missing []string
		for w, seq := range want {
			for _, n := range seq {
				if !slices.Contains(got[w], n) {
					missing = append(missing, fmt.Sprintf("%s:%d", w, n))
				}
			}
		}
		return missing
	}
	deadline := time.Now().Add(time.Minute)
	for {
		recs, err := testkafka.ReadCommitted(addr, "out", 200, 30*time.Second, time.Second)
		if err != nil {
			t.Fatal(err)
		}
		got := map[string][]int64{}
		for _, r := range recs {
			got[string(r.Key)] = append(got[string(r.Key)], int64(binary.BigEndian.Uint64(r.Value)))
		}
		missing := lost(got)
		if len(missing) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("counts missing from the output: %v", missing)
		}
		time.Sleep(time.Second)
	}
	closeApp(t, ks)
	if out.failed() == 0 {
		t.Fatal("the serde never failed: the test did not exercise the outage")
	}
}
