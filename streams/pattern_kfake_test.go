package streams_test

import (
	"regexp"
	"slices"
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/internal/testkafka"
	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/serde"
)

// TestKfakePatternSourceReadsNewTopics: a pattern source reads the topics
// that match at the start, a topic created while it runs once the main
// consumer's metadata refresh finds it, and never a topic that does not
// match; each record carries the topic it came from.
func TestKfakePatternSourceReadsNewTopics(t *testing.T) {
	_, addr := startBroker(t)
	createTopics(t, addr, 2, "orders-eu", "orders-us", "ordersx", "out")
	b := kstreams.NewStreamsBuilder()
	s := serde.String{}
	in := kstreams.StreamPattern(b, regexp.MustCompile(`orders-[a-z]+`), kstreams.ConsumedWith[string, string](s, s))
	kstreams.ProcessValues[string](in, func() kstreams.FixedKeyProcessor { return &topicTagger{} }, "").
		To("out", kstreams.ProducedWith[string, string](s, s))
	topo, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	startApp(t, topo, appConfig(t, addr, "patterns", t.TempDir(), "metadata.max.age.ms=500"))
	testkafka.Produce(t, addr,
		testkafka.Record{Topic: "orders-eu", Partition: 0, Key: []byte("k1"), Value: []byte("a")},
		testkafka.Record{Topic: "orders-us", Partition: 1, Key: []byte("k2"), Value: []byte("b")},
		testkafka.Record{Topic: "ordersx", Partition: 0, Key: []byte("k3"), Value: []byte("never")})
	if _, err := testkafka.ReadCommitted(addr, "out", 2, 30*time.Second, time.Second); err != nil {
		t.Fatal(err)
	}
	createTopics(t, addr, 2, "orders-asia")
	testkafka.Produce(t, addr, testkafka.Record{Topic: "orders-asia", Partition: 1, Key: []byte("k4"), Value: []byte("c")})
	got, err := testkafka.ReadCommitted(addr, "out", 3, 30*time.Second, 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	var values []string
	for _, r := range got {
		values = append(values, string(r.Value))
	}
	slices.Sort(values)
	if want := []string{"orders-asia:c", "orders-eu:a", "orders-us:b"}; !slices.Equal(values, want) {
		t.Fatalf("output %q, want %q", values, want)
	}
}

type topicTagger struct {
	ctx kstreams.FixedKeyProcessorContext
}

func (p *topicTagger) Init(ctx kstreams.FixedKeyProcessorContext) error { p.ctx = ctx; return nil }

func (p *topicTagger) Process(r kstreams.FixedKeyRecord) error {
	md, _ := p.ctx.RecordMetadata()
	return p.ctx.Forward(r.WithValue(md.Topic + ":" + r.Value.(string)))
}

func (p *topicTagger) Close() error { return nil }
