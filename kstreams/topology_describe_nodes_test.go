package kstreams_test

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/serde"
)

// Describe gives the nodes as Kafka's TopologyDescription interface does,
// beside its text: a pattern source's pattern and no topic set, a
// repartition topic marked internal and undecorated on both its sink and
// its source, a TopicNameExtractor's sink without a topic, a global store
// as its source and processor, and predecessors that mirror successors.
func TestDescribeNodes(t *testing.T) {
	b := kstreams.NewStreamsBuilder()
	str := kstreams.ConsumedWith[string, string](serde.String{}, serde.String{})
	s := kstreams.StreamPattern(b, regexp.MustCompile("in-.*"), str)
	kstreams.GroupBy(s, func(_, v string) string { return v }).Count().ToStream().
		ToDynamic(kstreams.TopicNameExtractor[string, int64]{Name: "by-word",
			Extract: func(string, int64, kstreams.RecordContext) string { return "out" }},
			kstreams.ProducedWith[string, int64](serde.String{}, serde.Long{}))
	kstreams.GlobalTable(b, "global", str)
	topo, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	d := topo.Describe()
	text := d.String()

	subs := d.Subtopologies()
	if len(subs) != 2 || subs[0].ID != 0 || subs[1].ID != 1 {
		t.Fatalf("sub-topologies %+v, want 0 and 1", subs)
	}
	byName := map[string]kstreams.DescribedNode{}
	var order []string
	for _, st := range subs {
		for _, n := range st.Nodes {
			byName[n.Name] = n
			order = append(order, n.Name)
			if !strings.Contains(text, ": "+n.Name+" (") {
				t.Errorf("node %s is not in the text:\n%s", n.Name, text)
			}
		}
	}
	// The nodes come in the order the text prints them.
	if !slices.IsSortedFunc(order, func(a, b string) int {
		return strings.Index(text, ": "+a+" (") - strings.Index(text, ": "+b+" (")
	}) {
		t.Errorf("nodes %v are not in the text's order", order)
	}
	for _, n := range byName {
		for _, succ := range n.Successors {
			if !slices.Contains(byName[succ].Predecessors, n.Name) {
				t.Errorf("%s → %s, but %s's predecessors are %v", n.Name, succ, succ, byName[succ].Predecessors)
			}
		}
	}

	src := byName["KSTREAM-SOURCE-0000000000"]
	if src.Kind != kstreams.SourceNode || src.Topics != nil || src.Pattern != "in-.*" {
		t.Errorf("pattern source %+v, want pattern in-.* and no topics", src)
	}
	rp := kstreams.TopicRef{Name: "KSTREAM-AGGREGATE-STATE-STORE-0000000002-repartition", Internal: true}
	var sink, rsource, dynamic *kstreams.DescribedNode
	for _, n := range byName {
		switch {
		case n.Kind == kstreams.SinkNode && n.Topic != nil:
			sink = &n
		case n.Kind == kstreams.SinkNode:
			dynamic = &n
		case n.Kind == kstreams.SourceNode && n.Pattern == "":
			rsource = &n
		}
	}
	if sink == nil || *sink.Topic != rp {
		t.Errorf("repartition sink %+v, want topic %+v", sink, rp)
	}
	if rsource == nil || !slices.Equal(rsource.Topics, []kstreams.TopicRef{rp}) {
		t.Errorf("repartition source %+v, want topics [%+v]", rsource, rp)
	}
	if dynamic == nil || dynamic.Extractor != "by-word" || len(dynamic.Predecessors) != 1 {
		t.Errorf("dynamic sink %+v, want extractor by-word and one predecessor", dynamic)
	}
	agg := byName["KSTREAM-AGGREGATE-0000000003"]
	if agg.Kind != kstreams.ProcessorNode || !slices.Equal(agg.Stores, []string{"KSTREAM-AGGREGATE-STATE-STORE-0000000002"}) {
		t.Errorf("aggregate %+v, want its store", agg)
	}

	globals := d.GlobalStores()
	if len(globals) != 1 {
		t.Fatalf("global stores %+v, want 1", globals)
	}
	g := globals[0]
	if g.ID != 2 || g.Source.Kind != kstreams.SourceNode || !slices.Equal(g.Source.Topics, []kstreams.TopicRef{{Name: "global"}}) ||
		!slices.Equal(g.Source.Successors, []string{g.Processor.Name}) || g.Processor.Kind != kstreams.ProcessorNode ||
		!slices.Equal(g.Processor.Predecessors, []string{g.Source.Name}) || len(g.Processor.Stores) != 1 {
		t.Errorf("global store %+v", g)
	}
	if !strings.Contains(text, "Source: "+g.Source.Name+" (topics: [global])") ||
		!strings.Contains(text, "Processor: "+g.Processor.Name+" (stores: ["+g.Processor.Stores[0]+"])") {
		t.Errorf("global store %+v is not the text's:\n%s", g, text)
	}
}
