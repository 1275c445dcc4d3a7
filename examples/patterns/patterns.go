// Package patterns reads topics by pattern beside a named topic, the way
// Kafka Streams runs the same calls:
//
//	stream(<input>)                            ─┐
//	stream(Pattern "\Q<input>\E-[a-z]+")        │
//	  → processValues(value = topic + ":" + value) → to(<output>)
//	  → merge ─────────────────────────────────┘
//	  → groupByKey → count → mapValues("count:" + n) → to(<output>)
//
// The tagger shows that a record read through the pattern carries the topic
// it came from. Arguments: input and output. Keys and values are Strings.
package patterns

import (
	"regexp"
	"strconv"

	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/serde"
)

// Name is the stoatflow.topology value of the topology.
const Name = "patterns"

// Pattern is the pattern the topology reads for input: input's name
// quoted, a dash and a lower-case suffix.
func Pattern(input string) *regexp.Regexp {
	return regexp.MustCompile(`\Q` + input + `\E-[a-z]+`)
}

// Build returns the topology.
func Build(args map[string]string) (*kstreams.Topology, error) {
	input, output := "patterns-input", "patterns-output"
	if v := args["input"]; v != "" {
		input = v
	}
	if v := args["output"]; v != "" {
		output = v
	}
	s := serde.String{}
	consumed := kstreams.ConsumedWith[string, string](s, s)
	produced := kstreams.ProducedWith[string, string](s, s)
	b := kstreams.NewStreamsBuilder()
	direct := kstreams.Stream(b, []string{input}, consumed)
	matched := kstreams.StreamPattern(b, Pattern(input), consumed)
	tagged := kstreams.ProcessValues[string](matched, func() kstreams.FixedKeyProcessor { return &topicTagger{} }, "")
	tagged.To(output, produced)
	counts := tagged.Merge(direct).GroupByKey(kstreams.Grouped[string, string]{KeySerde: s, ValueSerde: s}).Count()
	kstreams.MapValues(counts.ToStream(), func(n int64) string { return "count:" + strconv.FormatInt(n, 10) }).To(output, produced)
	return b.Build()
}

// topicTagger prefixes each value with the topic its record was read from.
type topicTagger struct {
	ctx kstreams.FixedKeyProcessorContext
}

func (p *topicTagger) Init(ctx kstreams.FixedKeyProcessorContext) error { p.ctx = ctx; return nil }

func (p *topicTagger) Process(r kstreams.FixedKeyRecord) error {
	md, _ := p.ctx.RecordMetadata()
	v, _ := r.Value.(string)
	return p.ctx.Forward(r.WithValue(md.Topic + ":" + v))
}

func (p *topicTagger) Close() error { return nil }
