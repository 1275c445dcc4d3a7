package streams_test

import (
	"context"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/compat"
	"github.com/stoatflow/stoatflow/internal/testkafka"
	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/serde"
	"github.com/stoatflow/stoatflow/streams"
)

// deadLetterTagger resumes after every send error with a dead-letter
// record whose value is its tag, and counts the errors it answered.
type deadLetterTagger struct {
	tag   string
	asked atomic.Int32
}

func (h *deadLetterTagger) HandleError(_ kstreams.ErrorHandlerContext, r kstreams.ProducerRecord, _ error) kstreams.ProductionResponse {
	h.asked.Add(1)
	return kstreams.ProductionResponse{Result: kstreams.ProductionResume,
		DeadLetterQueueRecords: []kstreams.ProducerRecord{{Topic: "dead", Partition: -1, Key: r.Key, Value: []byte(h.tag)}}}
}

func (h *deadLetterTagger) HandleSerializationError(kstreams.ErrorHandlerContext, kstreams.UnserializedRecord, error,
	kstreams.SerializationOrigin) kstreams.ProductionResponse {
	return kstreams.ProductionResponse{Result: kstreams.ProductionFail}
}

// TestKfakeInstancesBindOneHandlerClassToTheirOwnHandlers: two instances in
// one process whose configurations name the same
// production.exception.handler class each answer their send errors with
// the handler their own options bind to it. The bindings go with the
// configuration and the instance, not the process: a third configuration
// loaded without the class is refused, and an instance given no handler
// for it is not created.
func TestKfakeInstancesBindOneHandlerClassToTheirOwnHandlers(t *testing.T) {
	const class = "com.acme.streams.DeadLetterHandler"
	_, addr := startBroker(t)
	createTopics(t, addr, 1, "in-a", "out-a", "in-b", "out-b", "dead")
	load := []compat.LoadOption{compat.WithProductionHandlerClasses(class)}
	tagger := map[string]*deadLetterTagger{}
	for _, app := range []string{"a", "b"} {
		h := &deadLetterTagger{tag: app}
		tagger[app] = h
		cfg := appConfigWith(t, load, addr, "bindings-"+app, t.TempDir(), "production.exception.handler="+class, "producer.max.request.size=1000")
		startApp(t, growTopology(t, "in-"+app, "out-"+app), cfg,
			streams.WithProductionHandlers(kstreams.ProductionHandlers{class: func() kstreams.ProductionExceptionHandler { return h }}))
	}

	// One record too large for a, two for b.
	testkafka.Produce(t, addr,
		testkafka.Record{Topic: "in-a", Key: []byte("k"), Value: []byte("a1")},
		testkafka.Record{Topic: "in-a", Key: []byte("k"), Value: []byte("big")},
		testkafka.Record{Topic: "in-a", Key: []byte("k"), Value: []byte("a2")},
		testkafka.Record{Topic: "in-b", Key: []byte("k"), Value: []byte("big")},
		testkafka.Record{Topic: "in-b", Key: []byte("k"), Value: []byte("b1")},
		testkafka.Record{Topic: "in-b", Key: []byte("k"), Value: []byte("big")})
	for app, want := range map[string][]string{"a": {"a1", "a2"}, "b": {"b1"}} {
		out, err := testkafka.ReadCommitted(addr, "out-"+app, len(want), 30*time.Second, 500*time.Millisecond)
		var got []string
		for _, r := range out {
			got = append(got, string(r.Value))
		}
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("out-%s: %v (%v), want %v", app, got, err, want)
		}
	}
	dead, err := testkafka.ReadCommitted(addr, "dead", 3, 30*time.Second, 500*time.Millisecond)
	var tags []string
	for _, r := range dead {
		tags = append(tags, string(r.Value))
	}
	slices.Sort(tags)
	if err != nil || !slices.Equal(tags, []string{"a", "b", "b"}) {
		t.Errorf("dead letters tagged %v (%v), want a once and b twice", tags, err)
	}
	if a, b := tagger["a"].asked.Load(), tagger["b"].asked.Load(); a != 1 || b != 2 {
		t.Errorf("handlers asked a %d and b %d times, want 1 and 2", a, b)
	}

	// Neither instance's binding leaked into the process.
	sets := []string{"application.id=bindings-c", "bootstrap.servers=" + addr, "production.exception.handler=" + class}
	if _, diags := compat.LoadFiles(nil, sets, nil); !diags.HasErrors() {
		t.Error("a configuration loaded without the class accepted it")
	}
	cfg := appConfigWith(t, load, addr, "bindings-c", t.TempDir(), "production.exception.handler="+class)
	if _, err := streams.New(growTopology(t, "in-a", "out-c"), cfg); err == nil || !strings.Contains(err.Error(), "no Go handler is bound to this class") {
		t.Errorf("an instance without a handler for %s: %v", class, err)
	}
}

// TestDefaultSerdesGoWithTheInstance: the Schema Registry default serdes
// (and their registry client and schema cache) are built once per
// instance and shared by its users, never by two instances, even of one
// configuration.
func TestDefaultSerdesGoWithTheInstance(t *testing.T) {
	cfg := appConfig(t, "127.0.0.1:9092", "serdes", t.TempDir(),
		"default.value.serde=io.confluent.kafka.streams.serdes.avro.PrimitiveAvroSerde", "schema.registry.url=http://127.0.0.1:8081")
	var values []serde.Untyped
	for range 2 {
		ks, err := streams.New(growTopology(t, "in", "out"), cfg)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = ks.Close(context.Background()) })
		_, v1, err := ks.DefaultSerdes()
		if err != nil {
			t.Fatal(err)
		}
		_, v2, err := ks.DefaultSerdes()
		if err != nil {
			t.Fatal(err)
		}
		if v1 == nil || v1 != v2 {
			t.Fatalf("one instance's value serdes: %v and %v, want one", v1, v2)
		}
		values = append(values, v1)
	}
	if values[0] == values[1] {
		t.Error("two instances share a value serde")
	}
}
