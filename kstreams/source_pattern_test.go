package kstreams_test

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/kstreamstest"
	"github.com/stoatflow/stoatflow/kstreams/serde"
)

// The messages and the accepted cases are those Kafka Streams 4.4.0 gives
// for the same calls (StreamsBuilder.build() and Topology.addSource).
func TestPatternSourcesOverlapAsKafkaRejects(t *testing.T) {
	ab := regexp.MustCompile("a|b")
	dsl := map[string]struct {
		build func(b *kstreams.StreamsBuilder)
		msg   string // "" when Kafka accepts it
	}{
		"topic then pattern": {func(b *kstreams.StreamsBuilder) {
			kstreams.Stream[string, string](b, []string{"a"})
			kstreams.StreamPattern[string, string](b, ab)
		}, "Invalid topology: Pattern a|b will match a topic that has already been registered by another source."},
		"pattern then topic": {func(b *kstreams.StreamsBuilder) {
			kstreams.StreamPattern[string, string](b, ab)
			kstreams.Stream[string, string](b, []string{"a"})
		}, "Invalid topology: Topic a matches a Pattern already registered by another source."},
		"pattern then table": {func(b *kstreams.StreamsBuilder) {
			kstreams.StreamPattern[string, string](b, ab)
			kstreams.Table(b, "b", kstreams.Consumed[string, string]{})
		}, "Invalid topology: Topic b matches a Pattern already registered by another source."},
		"pattern then global table": {func(b *kstreams.StreamsBuilder) {
			kstreams.StreamPattern[string, string](b, ab)
			kstreams.GlobalTable(b, "b", kstreams.Consumed[string, string]{})
		}, "Invalid topology: Topic b matches a Pattern already registered by another source."},
		"global table then pattern": {func(b *kstreams.StreamsBuilder) {
			kstreams.GlobalTable(b, "b", kstreams.Consumed[string, string]{})
			kstreams.StreamPattern[string, string](b, ab)
		}, ""},
		"a pattern matching its own repartition topic": {func(b *kstreams.StreamsBuilder) {
			s := kstreams.StreamPattern[string, string](b, regexp.MustCompile(".*"))
			kstreams.SelectKey(s, func(_, v string) string { return v }).GroupByKey().Count()
		}, "Invalid topology: Topic KSTREAM-AGGREGATE-STATE-STORE-0000000002-repartition matches a Pattern already registered by another source."},
		"a pattern matched only in part": {func(b *kstreams.StreamsBuilder) {
			kstreams.Stream[string, string](b, []string{"ab"})
			kstreams.StreamPattern[string, string](b, ab)
		}, ""},
	}
	for name, c := range dsl {
		t.Run(name, func(t *testing.T) {
			b := kstreams.NewStreamsBuilder()
			c.build(b)
			_, err := b.Build()
			switch {
			case c.msg == "" && err != nil:
				t.Fatalf("Build: %v, want it accepted as Kafka accepts it", err)
			case c.msg != "" && (err == nil || err.Error() != c.msg):
				t.Fatalf("Build: %v, want %q", err, c.msg)
			}
		})
	}

	papi := map[string]struct {
		add func(t *kstreams.Topology) error
		msg string
	}{
		"topic then pattern": {func(t *kstreams.Topology) error {
			if err := t.AddSource("s1", kstreams.SourceOptions{}, "a"); err != nil {
				return err
			}
			return t.AddSourcePattern("s2", kstreams.SourceOptions{}, ab)
		}, "Invalid topology: Pattern a|b will match a topic that has already been registered by another source."},
		"pattern then topic": {func(t *kstreams.Topology) error {
			if err := t.AddSourcePattern("s2", kstreams.SourceOptions{}, ab); err != nil {
				return err
			}
			return t.AddSource("s1", kstreams.SourceOptions{}, "b")
		}, "Invalid topology: Topic b matches a Pattern already registered by another source."},
		"a name taken": {func(t *kstreams.Topology) error {
			if err := t.AddSource("s1", kstreams.SourceOptions{}, "c"); err != nil {
				return err
			}
			return t.AddSourcePattern("s1", kstreams.SourceOptions{}, ab)
		}, "Invalid topology: Processor s1 is already added."},
		"no pattern": {func(t *kstreams.Topology) error {
			return t.AddSourcePattern("s1", kstreams.SourceOptions{}, nil)
		}, "topicPattern can't be null"},
	}
	for name, c := range papi {
		t.Run("processor API "+name, func(t *testing.T) {
			err := c.add(kstreams.NewTopology())
			if err == nil || !strings.Contains(err.Error(), c.msg) {
				t.Fatalf("got %v, want %q", err, c.msg)
			}
		})
	}
}

// Two overlapping patterns are accepted when added (Kafka checks a
// pattern against topics only); a topic both match is refused when the
// topics are known, with Kafka's message. The describe() texts are
// Kafka Streams 4.4.0's for the same calls.
func TestPatternSourcesDescribeAndMatch(t *testing.T) {
	topo := kstreams.NewTopology()
	if err := topo.AddSourcePattern("s2", kstreams.SourceOptions{}, regexp.MustCompile("a|b")); err != nil {
		t.Fatal(err)
	}
	if err := topo.AddSourcePattern("s1", kstreams.SourceOptions{}, regexp.MustCompile("b|c")); err != nil {
		t.Fatal(err)
	}
	want := "Topologies:\n" +
		"   Sub-topology: 0\n    Source: s2 (topics: a|b)\n      --> none\n\n" +
		"  Sub-topology: 1\n    Source: s1 (topics: b|c)\n      --> none\n\n"
	if got := topo.Describe().String(); got != want {
		t.Errorf("describe():\n%s\nwant:\n%s", got, want)
	}
	if _, err := topo.MatchPatterns([]string{"a", "c"}); err != nil {
		t.Errorf("topics each pattern matches alone: %v", err)
	}
	_, err := topo.MatchPatterns([]string{"a", "b"})
	if msg := "Invalid topology: Topic b is already matched for another regex pattern a|b and hence cannot be matched to this regex pattern b|c any more."; err == nil || err.Error() != msg {
		t.Errorf("a topic both match: %v, want %q", err, msg)
	}
	x := topo.SourceIndex("app")
	if _, _, err := x.Subtopology("b"); err == nil {
		t.Error("SourceIndex accepted a topic two patterns match")
	}

	// The same pattern twice is one source, as Kafka merges them.
	b := kstreams.NewStreamsBuilder()
	kstreams.StreamPattern[string, string](b, regexp.MustCompile("x.*")).To("o1")
	kstreams.StreamPattern[string, string](b, regexp.MustCompile("x.*")).To("o2")
	merged, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	want = "Topologies:\n" +
		"   Sub-topology: 0\n    Source: KSTREAM-SOURCE-0000000000 (topics: x.*)\n      --> KSTREAM-SINK-0000000001, KSTREAM-SINK-0000000003\n" +
		"    Sink: KSTREAM-SINK-0000000001 (topic: o1)\n      <-- KSTREAM-SOURCE-0000000000\n" +
		"    Sink: KSTREAM-SINK-0000000003 (topic: o2)\n      <-- KSTREAM-SOURCE-0000000000\n\n"
	if got := merged.Describe().String(); got != want {
		t.Errorf("describe():\n%s\nwant:\n%s", got, want)
	}
}

// A pattern matches whole topic names, as Java's Pattern.matches does;
// the subscription quotes the named topics and keeps the pattern.
func TestPatternSourceMatchesWholeNames(t *testing.T) {
	b := kstreams.NewStreamsBuilder()
	s := serde.String{}
	kstreams.Stream(b, []string{"orders.v1"}, kstreams.ConsumedWith[string, string](s, s)).To("out")
	kstreams.StreamPattern(b, regexp.MustCompile(`events-\d+`), kstreams.ConsumedWith[string, string](s, s)).To("out")
	topo, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	x := topo.SourceIndex("app")
	for topic, want := range map[string]bool{"events-1": true, "events-12": true, "my-events-1": false, "events-1x": false,
		"orders.v1": true, "ordersxv1": false} {
		if _, ok, err := x.Subtopology(topic); ok != want || err != nil {
			t.Errorf("Subtopology(%q) = %v, %v; want %v", topic, ok, err, want)
		}
	}
	sub, regex := topo.SourceIndex("app").Subscription()
	if !regex || !slices.Equal(sub, []string{`^orders\.v1$`, `^(?:events-\d+)$`}) {
		t.Errorf("Subscription() = %q, %v", sub, regex)
	}
	resolved, err := topo.MatchPatterns([]string{"events-2", "events-1", "events-x", "orders.v1"})
	if err != nil {
		t.Fatal(err)
	}
	var sources []string
	for _, st := range resolved.Subtopologies() {
		for _, src := range st.Sources {
			sources = append(sources, src.Name)
		}
	}
	if !slices.Equal(sources, []string{"orders.v1", "events-1", "events-2"}) {
		t.Errorf("sources after MatchPatterns: %q", sources)
	}
	if resolved.Describe().String() != topo.Describe().String() {
		t.Errorf("MatchPatterns changed describe():\n%s", resolved.Describe())
	}
}

// The test driver routes a record piped into a topic a pattern matches to
// that source, and the processors see the topic it came from.
func TestDriverPipesIntoAPatternSource(t *testing.T) {
	b := kstreams.NewStreamsBuilder()
	s := serde.String{}
	in := kstreams.StreamPattern(b, regexp.MustCompile(`in-[a-z]+`), kstreams.ConsumedWith[string, string](s, s))
	kstreams.ProcessValues[string](in, func() kstreams.FixedKeyProcessor { return &topicPrefixer{} }, "").
		To("out", kstreams.ProducedWith[string, string](s, s))
	topo, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	d, err := kstreamstest.New(topo, kstreamstest.Config{})
	if err != nil {
		t.Fatal(err)
	}
	for _, topic := range []string{"in-a", "in-zz"} {
		if err := d.Pipe(topic, []byte("k"), []byte("v"), 1); err != nil {
			t.Fatal(err)
		}
	}
	if err := d.Pipe("in-1", []byte("k"), []byte("v"), 1); err == nil {
		t.Error("a topic the pattern does not match was accepted")
	}
	var got []string
	for _, r := range d.Records("out") {
		got = append(got, string(r.Value))
	}
	if !slices.Equal(got, []string{"in-a:v", "in-zz:v"}) {
		t.Errorf("output %q", got)
	}
}

type topicPrefixer struct {
	ctx kstreams.FixedKeyProcessorContext
}

func (p *topicPrefixer) Init(ctx kstreams.FixedKeyProcessorContext) error { p.ctx = ctx; return nil }

func (p *topicPrefixer) Process(r kstreams.FixedKeyRecord) error {
	md, _ := p.ctx.RecordMetadata()
	return p.ctx.Forward(r.WithValue(md.Topic + ":" + r.Value.(string)))
}

func (p *topicPrefixer) Close() error { return nil }
