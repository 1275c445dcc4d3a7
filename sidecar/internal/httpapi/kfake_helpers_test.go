package httpapi_test

// Helpers of the tests that serve the HTTP routes of a running instance on
// kfake, an in-process Kafka-protocol broker: minimal copies of streams' own
// (streams/kfake_test.go), which this package cannot import.

import (
	"context"
	"encoding/binary"
	"fmt"
	"log/slog"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/stoatflow/stoatflow/compat"
	"github.com/stoatflow/stoatflow/internal/storeformat"
	"github.com/stoatflow/stoatflow/internal/testkafka"
	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/serde"
	"github.com/stoatflow/stoatflow/state"
	"github.com/stoatflow/stoatflow/streams"
)

// startBroker starts a one-broker kfake cluster for the test.
func startBroker(t *testing.T) (*kfake.Cluster, string) {
	t.Helper()
	c, err := kfake.NewCluster(kfake.NumBrokers(1))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c, strings.Join(c.ListenAddrs(), ",")
}

// appConfig is an exactly_once_v2 application on the broker at addr, with
// String default serdes, commits every 100 ms and fast rebalances.
func appConfig(t *testing.T, addr, appID, stateDir string, extra ...string) *compat.Config {
	t.Helper()
	sets := []string{
		"application.id=" + appID,
		"bootstrap.servers=" + addr,
		"state.dir=" + stateDir,
		"processing.guarantee=exactly_once_v2",
		"commit.interval.ms=100",
		"default.key.serde=org.apache.kafka.common.serialization.Serdes$StringSerde",
		"default.value.serde=org.apache.kafka.common.serialization.Serdes$StringSerde",
		"statestore.cache.max.bytes=0",
		"replication.factor=1",
		"main.consumer.session.timeout.ms=6000",
		"main.consumer.heartbeat.interval.ms=500",
	}
	cfg, diags := compat.LoadFiles(nil, append(sets, extra...), nil)
	if err := diags.Err(); err != nil {
		t.Fatal(err)
	}
	return cfg
}

// countTopology is the word count over whole values: each input value is
// one word, repartitioned by word and counted in store "counts"; every new
// count goes to output as a Long.
func countTopology(t *testing.T, input, output string) *kstreams.Topology {
	t.Helper()
	b := kstreams.NewStreamsBuilder()
	words := kstreams.Stream[string, string](b, []string{input})
	counts := kstreams.GroupBy(words, func(_, w string) string { return w }).
		Count(kstreams.MaterializedAs[string, int64]("counts"))
	counts.ToStream().To(output, kstreams.ProducedWith[string, int64](serde.String{}, serde.Long{}))
	topo, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return topo
}

// globalJoinTopology left-joins input with the global table of topic
// global (store "g-store") and writes "value=global value" to output.
func globalJoinTopology(t *testing.T, global, input, output string) *kstreams.Topology {
	t.Helper()
	b := kstreams.NewStreamsBuilder()
	str := kstreams.ConsumedWith[string, string](serde.String{}, serde.String{})
	g := kstreams.GlobalTable(b, global, str, kstreams.MaterializedAs[string, string]("g-store"))
	s := kstreams.Stream(b, []string{input}, str)
	kstreams.LeftJoinGlobal(s, g, func(_, v string) string { return v }, func(v string, gv *string) string {
		if gv == nil {
			return v + "=null"
		}
		return v + "=" + *gv
	}).To(output, kstreams.ProducedWith[string, string](serde.String{}, serde.String{}))
	topo, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return topo
}

// startApp starts topo and waits until the instance is RUNNING.
func startApp(t *testing.T, topo *kstreams.Topology, cfg *compat.Config) *streams.KafkaStreams {
	t.Helper()
	quiet := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	ks, err := streams.New(topo, cfg, streams.WithLogger(quiet))
	if err != nil {
		t.Fatal(err)
	}
	running := make(chan struct{})
	var once sync.Once
	ks.SetStateListener(func(next, _ streams.State) {
		if next == streams.Running {
			once.Do(func() { close(running) })
		}
	})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := ks.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		_ = ks.Close(ctx)
	})
	select {
	case <-running:
	case <-ks.Done():
		t.Fatalf("instance stopped before RUNNING: %v", ks.Err())
	case <-time.After(time.Minute):
		t.Fatalf("instance not RUNNING after a minute (state %s)", ks.State())
	}
	return ks
}

func closeApp(t *testing.T, ks *streams.KafkaStreams) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := ks.Close(ctx); err != nil {
		t.Fatalf("close: %v", err)
	}
}

var vocab = []string{"otter", "badger", "stoat", "weasel", "marten", "mink", "ferret", "wolverine", "sable"}

// feed produces n records to input in batches, 50 ms apart, so that
// commits happen while records flow: the i-th with value
// vocab[i%len(vocab)] and key "k<i>".
func feed(t *testing.T, addr, input string, batch, n int) {
	t.Helper()
	// The default partitioner hashes keys with murmur2, as Java's does.
	p, err := kgo.NewClient(kgo.SeedBrokers(addr), kgo.ProducerLinger(5*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	for i := 0; i < n; i += batch {
		recs := make([]*kgo.Record, 0, batch)
		for j := i; j < min(i+batch, n); j++ {
			recs = append(recs, &kgo.Record{Topic: input, Key: []byte(fmt.Sprintf("k%d", j)), Value: []byte(vocab[j%len(vocab)])})
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		err := p.ProduceSync(ctx, recs...).FirstErr()
		cancel()
		if err != nil {
			t.Fatalf("feeding input: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// wantCounts is what the word count of records 0..n-1 over vocab writes per
// word: the counts 1, 2, ... in order.
func wantCounts(n int, vocab []string) map[string][]int64 {
	want := map[string][]int64{}
	for i := 0; i < n; i++ {
		w := vocab[i%len(vocab)]
		want[w] = append(want[w], int64(len(want[w])+1))
	}
	return want
}

// readCounts reads the output read_committed until it holds n updates (and
// 500 ms more), and returns each word's counts in offset order.
func readCounts(t *testing.T, addr, output string, n int) map[string][]int64 {
	t.Helper()
	recs, err := testkafka.ReadCommitted(addr, output, n, time.Minute, 500*time.Millisecond)
	if err != nil {
		t.Fatalf("reading %s: %v", output, err)
	}
	got := map[string][]int64{}
	for _, r := range recs {
		if len(r.Value) != 8 {
			t.Fatalf("output %s@%d: value of %d bytes, want a Long", output, r.Offset, len(r.Value))
		}
		got[string(r.Key)] = append(got[string(r.Key)], int64(binary.BigEndian.Uint64(r.Value)))
	}
	return got
}

func checkCounts(t *testing.T, got, want map[string][]int64) {
	t.Helper()
	for w, seq := range want {
		if !slices.Equal(got[w], seq) {
			t.Errorf("word %q: committed updates %v, want %v", w, got[w], seq)
		}
	}
	for w := range got {
		if _, ok := want[w]; !ok {
			t.Errorf("unexpected word %q in the output: %v", w, got[w])
		}
	}
}

// waitGlobal waits up to d until the global store "g-store" holds want
// under key at iso ("" for absent).
func waitGlobal(t *testing.T, ks *streams.KafkaStreams, key, want string, iso state.IsolationLevel, d time.Duration) {
	t.Helper()
	deadline := time.Now().Add(d)
	for {
		got := globalValue(t, ks, key, iso)
		if got == want {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("global store %s = %q at %s, want %q", key, got, iso, want)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// globalValue reads key from the global store at iso, "" when absent.
func globalValue(t *testing.T, ks *streams.KafkaStreams, key string, iso state.IsolationLevel) string {
	t.Helper()
	ls := ks.LocalStores("g-store")
	if len(ls) != 1 || !ls[0].Global {
		t.Fatalf("LocalStores(g-store) = %+v, want the one global store", ls)
	}
	b, err := ls[0].Store.(state.KeyValueStore).ReadOnly(iso).Get([]byte(key))
	if err != nil {
		t.Fatal(err)
	}
	if b == nil {
		return ""
	}
	_, raw, err := storeformat.SplitTimestamped(b)
	if err != nil {
		t.Fatal(err)
	}
	return string(raw)
}
