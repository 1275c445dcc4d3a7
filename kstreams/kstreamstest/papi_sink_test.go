package kstreamstest_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/kstreamstest"
	"github.com/stoatflow/stoatflow/kstreams/serde"
)

// TestProcessorAPIDynamicSink: a Processor API sink with a topic-name
// extractor writes each record to the topic it picks, which sees the
// record's own source topic; describe() names the extractor as Kafka does.
func TestProcessorAPIDynamicSink(t *testing.T) {
	topo := kstreams.NewTopology()
	route := kstreams.TopicNameExtractor[any, any]{Name: "ByValue", Extract: func(_, v any, rc kstreams.RecordContext) string {
		return rc.Topic + "-" + v.(string)
	}}
	s := serde.Erase[string](serde.String{})
	if err := errors.Join(
		topo.AddSource("source", kstreams.SourceOptions{KeySerde: s, ValueSerde: s}, "in"),
		topo.AddDynamicSink("sink", route, kstreams.SinkOptions{KeySerde: s, ValueSerde: s}, "source"),
	); err != nil {
		t.Fatal(err)
	}
	if err := topo.AddDynamicSink("sink-2", kstreams.TopicNameExtractor[any, any]{}, kstreams.SinkOptions{}, "source"); err == nil ||
		err.Error() != "topic extractor must not be null" {
		t.Errorf("a sink without an extractor: %v", err)
	}
	if got := topo.Describe().String(); !strings.Contains(got, "Sink: sink (extractor class: ByValue)\n      <-- source") {
		t.Errorf("describe():\n%s", got)
	}
	d, err := kstreamstest.New(topo, kstreamstest.Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	in := kstreamstest.NewInputTopic(d, "in", serde.String{}, serde.String{})
	for _, v := range []string{"a", "b", "a"} {
		if err := in.Pipe("k", v, 1); err != nil {
			t.Fatal(err)
		}
	}
	if a, b := len(d.Records("in-a")), len(d.Records("in-b")); a != 2 || b != 1 {
		t.Errorf("in-a got %d records, in-b %d; want 2 and 1", a, b)
	}
}
