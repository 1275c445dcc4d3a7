package streams_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/internal/testkafka"
	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/serde"
	"github.com/stoatflow/stoatflow/streams"
)

// TestKfakeSourceOffsetResetPolicies: without committed offsets each source
// starts where its Consumed's reset policy says: a source without one as
// auto.offset.reset does (earliest here), a latest one at the end (only a
// record produced after the start is read), a by_duration one at the first
// record of the last minute (an hour-old record is skipped).
func TestKfakeSourceOffsetResetPolicies(t *testing.T) {
	_, addr := startBroker(t)
	createTopics(t, addr, 1, "early", "late", "recent", "out")
	now := time.Now()
	testkafka.Produce(t, addr,
		testkafka.Record{Topic: "early", Key: []byte("k"), Value: []byte("early-1"), Timestamp: now.Add(-time.Hour)},
		testkafka.Record{Topic: "late", Key: []byte("k"), Value: []byte("late-before"), Timestamp: now},
		testkafka.Record{Topic: "recent", Key: []byte("k"), Value: []byte("recent-old"), Timestamp: now.Add(-time.Hour)},
		testkafka.Record{Topic: "recent", Key: []byte("k"), Value: []byte("recent-new"), Timestamp: now.Add(-time.Second)})
	s := serde.String{}
	c := kstreams.ConsumedWith[string, string](s, s)
	b := kstreams.NewStreamsBuilder()
	early := kstreams.Stream(b, []string{"early"}, c)
	late := kstreams.Stream(b, []string{"late"}, c.WithOffsetResetPolicy(kstreams.OffsetResetLatest()))
	recent := kstreams.Stream(b, []string{"recent"}, c.WithOffsetResetPolicy(kstreams.OffsetResetByDuration(time.Minute)))
	early.Merge(late).Merge(recent).To("out", kstreams.ProducedWith[string, string](s, s))
	topo, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	startApp(t, topo, appConfig(t, addr, "resets", t.TempDir(), "auto.offset.reset=earliest"))
	// The latest source's start is taken once its partition is assigned:
	// wait for the other two before producing to it.
	if _, err := testkafka.ReadCommitted(addr, "out", 2, 30*time.Second, time.Second); err != nil {
		t.Fatal(err)
	}
	testkafka.Produce(t, addr, testkafka.Record{Topic: "late", Key: []byte("k"), Value: []byte("late-after"), Timestamp: time.Now()})
	got, err := testkafka.ReadCommitted(addr, "out", 3, 30*time.Second, 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	var values []string
	for _, r := range got {
		values = append(values, string(r.Value))
	}
	slices.Sort(values)
	if want := []string{"early-1", "late-after", "recent-new"}; !slices.Equal(values, want) {
		t.Fatalf("output %q, want %q", values, want)
	}
}

// TestKfakeSourceOffsetResetNoneFails: a source whose policy is none, with
// no committed offset, stops the instance with Kafka Streams' message.
func TestKfakeSourceOffsetResetNoneFails(t *testing.T) {
	_, addr := startBroker(t)
	createTopics(t, addr, 1, "strict", "out")
	s := serde.String{}
	b := kstreams.NewStreamsBuilder()
	kstreams.Stream(b, []string{"strict"}, kstreams.ConsumedWith[string, string](s, s).WithOffsetResetPolicy(kstreams.OffsetResetNone())).
		To("out", kstreams.ProducedWith[string, string](s, s))
	topo, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	ks, err := streams.New(topo, appConfig(t, addr, "strict", t.TempDir()))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := ks.Start(ctx); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = ks.Close(ctx) }()
	select {
	case <-ks.Done():
	case <-time.After(time.Minute):
		t.Fatalf("still %s after a minute", ks.State())
	}
	if ks.State() != streams.Error || ks.Err() == nil ||
		!strings.Contains(ks.Err().Error(), "No valid committed offset found for input [strict] and no valid reset policy configured.") {
		t.Fatalf("state %s, error %v: want ERROR with Kafka Streams' message", ks.State(), ks.Err())
	}
}
