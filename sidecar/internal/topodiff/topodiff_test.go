package topodiff_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/sidecar/internal/topodiff"
)

// testdata reads a describe() text of kstreams/testdata: golden files that
// a Kafka Streams 4.4 run (jvm/, jvmcapture/, kafka/) or StoatFlow's
// byte-identical Describe printed.
func testdata(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "..", "kstreams", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func parse(t *testing.T, text string) *topodiff.Description {
	t.Helper()
	d, err := topodiff.Parse(text)
	if err != nil {
		t.Fatalf("Parse: %v\n%s", err, text)
	}
	return d
}

func compare(t *testing.T, ks, sf string) (*topodiff.Report, string) {
	t.Helper()
	r := topodiff.Compare(parse(t, ks), parse(t, sf))
	var b strings.Builder
	if err := r.Write(&b); err != nil {
		t.Fatal(err)
	}
	return r, b.String()
}

// wordCount is the word count with extra applied to the words before they
// are grouped: the Go twin of the JVM wordcount with one more operator.
func wordCount(t *testing.T, extra func(*kstreams.KStream[string, string]) *kstreams.KStream[string, string], materialized string) string {
	t.Helper()
	b := kstreams.NewStreamsBuilder()
	lines := kstreams.Stream[string, string](b, []string{"streams-plaintext-input"})
	words := kstreams.FlatMapValues(lines, strings.Fields)
	if extra != nil {
		words = extra(words)
	}
	var opts []kstreams.AggOption[string, int64]
	if materialized != "" {
		opts = append(opts, kstreams.MaterializedAs[string, int64](materialized))
	}
	kstreams.GroupBy(words, func(_, w string) string { return w }).Count(opts...).ToStream().To("streams-wordcount-output")
	topo, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return topo.Describe().String()
}

func TestParseWordCount(t *testing.T) {
	d := parse(t, testdata(t, "jvm/wordcount.describe.txt"))
	if len(d.Subtopologies) != 2 {
		t.Fatalf("%d sub-topologies, want 2", len(d.Subtopologies))
	}
	agg := d.Subtopologies[1].Nodes[1]
	if agg.Kind != topodiff.Processor || agg.Name != "KSTREAM-AGGREGATE-0000000004" ||
		len(agg.Stores) != 1 || agg.Stores[0] != "KSTREAM-AGGREGATE-STATE-STORE-0000000003" ||
		agg.Successors[0] != "KTABLE-TOSTREAM-0000000008" || agg.Predecessors[0] != "KSTREAM-SOURCE-0000000007" {
		t.Fatalf("aggregate parsed as %+v", agg)
	}
	sink := d.Subtopologies[0].Nodes[4]
	if sink.Kind != topodiff.Sink || sink.Topics[0] != "KSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition" || sink.Successors != nil {
		t.Fatalf("sink parsed as %+v", sink)
	}
}

// TestParseEveryGolden reads every describe() text the project keeps, from
// StoatFlow and from Kafka Streams, including global stores, patterns and
// named topologies where they occur.
func TestParseEveryGolden(t *testing.T) {
	var files []string
	for _, glob := range []string{"*.describe.txt", "jvm/*.txt", "jvmcapture/*.describe.txt", "kafka/*.txt"} {
		m, err := filepath.Glob(filepath.Join("..", "..", "..", "kstreams", "testdata", glob))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) < 20 {
		t.Fatalf("only %d describe() files found", len(files))
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		d, err := topodiff.Parse(string(b))
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		if r := topodiff.Compare(d, d); !r.Same() {
			t.Errorf("%s differs from itself: %+v", f, r)
		}
	}
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"", "empty"},
		{"hello\n", `line 1: want "Topologies:"`},
		{"Topologies:\n   Sub-topology: x\n", `line 2: sub-topology id "x"`},
		{"Topologies:\n   Sub-topology: 0\n    Source: A (topics: [t])\n", `line 3: source A: want a "-->" line`},
		{"Topologies:\n   Sub-topology: 0\n    Source: A (topics: [t])\n      --> B\n", "source A has successor B"},
		{"Topologies:\n   Sub-topology: 0\n    Widget: A\n", "line 3: want a Source:, Processor: or Sink: line"},
		{"Topologies:\n   Sub-topology: 0\n    Processor: P (stores: none)\n      --> none\n      <-- none\n", `processor P: want "(stores: [...])"`},
	} {
		_, err := topodiff.Parse(tc.text)
		if !errors.Is(err, topodiff.ErrSyntax) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Parse(%q) = %v, want an ErrSyntax containing %q", tc.text, err, tc.want)
		}
	}
}

// TestStoatFlowWordCountSameAsKafkaStreams: the Go word count describes as
// the JVM twin's captured text.
func TestStoatFlowWordCountSameAsKafkaStreams(t *testing.T) {
	r, out := compare(t, testdata(t, "jvm/wordcount.describe.txt"), wordCount(t, nil, ""))
	if !r.Same() || !strings.HasPrefix(out, "same:") {
		t.Fatalf("want same, got:\n%s", out)
	}
}

// TestExtraOperatorNamedOnceNotEveryShiftedNode: one mapValues more in the
// Go topology shifts every generated index after it; the report names that
// mapValues as the one difference, and the rest as shifts, with the fixes
// that keep the store and repartition topic.
func TestExtraOperatorNamedOnceNotEveryShiftedNode(t *testing.T) {
	sf := wordCount(t, func(s *kstreams.KStream[string, string]) *kstreams.KStream[string, string] {
		return kstreams.MapValues(s, strings.ToLower)
	}, "")
	r, out := compare(t, testdata(t, "jvm/wordcount.describe.txt"), sf)
	if len(r.Differences) != 1 {
		t.Fatalf("want 1 difference, got %d:\n%s", len(r.Differences), out)
	}
	d := r.Differences[0]
	if d.Subtopology != 0 || !strings.Contains(d.What, "StoatFlow's topology has processor KSTREAM-MAPVALUES-0000000002 (mapValues())") ||
		!strings.Contains(d.What, "after KSTREAM-FLATMAPVALUES-0000000001") {
		t.Errorf("difference: %+v", d)
	}
	want := map[string]topodiff.Rename{
		"KSTREAM-AGGREGATE-STATE-STORE-0000000003":             {Kind: "store", StoatFlow: "KSTREAM-AGGREGATE-STATE-STORE-0000000004", Delta: 1},
		"KSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition": {Kind: "topic", StoatFlow: "KSTREAM-AGGREGATE-STATE-STORE-0000000004-repartition", Delta: 1},
		"KSTREAM-AGGREGATE-0000000004":                         {Kind: "processor", StoatFlow: "KSTREAM-AGGREGATE-0000000005", Delta: 1},
		"KSTREAM-SINK-0000000009":                              {Kind: "sink", StoatFlow: "KSTREAM-SINK-0000000010", Delta: 1},
	}
	for _, s := range r.Shifted {
		if w, ok := want[s.KafkaStreams]; ok {
			if s.Kind != w.Kind || s.StoatFlow != w.StoatFlow || s.Delta != w.Delta {
				t.Errorf("shift of %s: %+v, want %+v", s.KafkaStreams, s, w)
			}
			delete(want, s.KafkaStreams)
		}
		if s.Delta != 1 {
			t.Errorf("shift %+v: want +1", s)
		}
	}
	for k := range want {
		t.Errorf("no shift reported for %s:\n%s", k, out)
	}
	// Every name after the mapValues moves: 2 source/sink/processor names
	// of sub-topology 0 after it, 4 of sub-topology 1, the store and the
	// repartition topic; nothing before it.
	if len(r.Shifted) != 9 {
		t.Errorf("%d shifted names, want 9:\n%s", len(r.Shifted), out)
	}
	for _, s := range []string{
		`fix: Materialized.as("KSTREAM-AGGREGATE-STATE-STORE-0000000003") on the Go count()/aggregate() that creates KSTREAM-AGGREGATE-0000000005`,
		"7 node name(s), from KSTREAM-KEY-SELECT-0000000002 vs KSTREAM-KEY-SELECT-0000000003 (+1) on",
	} {
		if !strings.Contains(out, s) {
			t.Errorf("report lacks %q:\n%s", s, out)
		}
	}
	if strings.Contains(out, "2. ") {
		t.Errorf("report lists more than one cause:\n%s", out)
	}
}

// TestMissingOperator is the same the other way: the Kafka Streams
// application has the operator the Go topology lacks.
func TestMissingOperator(t *testing.T) {
	ks := wordCount(t, func(s *kstreams.KStream[string, string]) *kstreams.KStream[string, string] {
		return s.Filter(func(_, v string) bool { return v != "" })
	}, "")
	r, out := compare(t, ks, testdata(t, "jvm/wordcount.describe.txt"))
	if len(r.Differences) != 1 || !strings.Contains(r.Differences[0].What,
		"the Kafka Streams application has processor KSTREAM-FILTER-0000000002 (filter()/filterNot()) after KSTREAM-FLATMAPVALUES-0000000001 that StoatFlow's topology lacks") {
		t.Fatalf("report:\n%s", out)
	}
	for _, s := range r.Shifted {
		if s.Delta != -1 {
			t.Errorf("shift %+v: want -1", s)
		}
	}
}

// TestDifferentOperatorInPlace: the same shape, another operator.
func TestDifferentOperatorInPlace(t *testing.T) {
	ks := wordCount(t, func(s *kstreams.KStream[string, string]) *kstreams.KStream[string, string] {
		return s.Filter(func(_, v string) bool { return v != "" })
	}, "")
	sf := wordCount(t, func(s *kstreams.KStream[string, string]) *kstreams.KStream[string, string] {
		return kstreams.MapValues(s, strings.ToLower)
	}, "")
	r, out := compare(t, ks, sf)
	if len(r.Differences) != 1 || len(r.Shifted) != 0 ||
		!strings.Contains(r.Differences[0].What, "the Kafka Streams application has processor KSTREAM-FILTER-0000000002 (filter()/filterNot()), StoatFlow's topology processor KSTREAM-MAPVALUES-0000000002 (mapValues())") {
		t.Fatalf("report:\n%s", out)
	}
}

// TestNamedStoreOnOneSide: Kafka Streams' own TopologyTest texts, a count
// with Materialized.as("count-store") against one without: the store is the
// difference, Materialized.as the fix, and the processor's index shift
// follows from it.
func TestNamedStoreOnOneSide(t *testing.T) {
	r, out := compare(t, testdata(t, "kafka/TopologyTest.kGroupedStreamNamedMaterializedCount.txt"),
		testdata(t, "kafka/TopologyTest.kGroupedStreamZeroArgCount.txt"))
	if len(r.Differences) != 1 {
		t.Fatalf("report:\n%s", out)
	}
	d := r.Differences[0]
	if !strings.Contains(d.What, "the store of KSTREAM-AGGREGATE-0000000001 is count-store in the Kafka Streams application and KSTREAM-AGGREGATE-STATE-STORE-0000000001 in StoatFlow's topology") ||
		d.Fix != `Materialized.as("count-store") on the Go count()/aggregate() that creates KSTREAM-AGGREGATE-0000000002` {
		t.Errorf("difference: %+v", d)
	}
	if len(r.Shifted) != 1 || r.Shifted[0] != (topodiff.Rename{Kind: "processor", KafkaStreams: "KSTREAM-AGGREGATE-0000000001", StoatFlow: "KSTREAM-AGGREGATE-0000000002", Delta: 1}) {
		t.Errorf("shifted: %+v", r.Shifted)
	}
}

// TestNamedRepartitionAndStore: the JVM word count with
// Materialized.as("counts-store") against a Go one without: the store and
// its repartition topic differ, both fixed by the one Materialized.as; with
// the same Materialized.as in Go they are the same.
func TestNamedRepartitionAndStore(t *testing.T) {
	ks := testdata(t, "wordcount-materialized.describe.txt")
	r, out := compare(t, ks, testdata(t, "jvm/wordcount.describe.txt"))
	if len(r.Differences) != 2 {
		t.Fatalf("report:\n%s", out)
	}
	topic, store := r.Differences[0], r.Differences[1]
	if !strings.Contains(topic.What, "the repartition topic of counts-store-repartition-sink is counts-store-repartition in the Kafka Streams application and KSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition") ||
		!strings.Contains(topic.Fix, "follows from the store's name") {
		t.Errorf("topic difference: %+v", topic)
	}
	if !strings.Contains(store.What, "counts-store") || !strings.HasPrefix(store.Fix, `Materialized.as("counts-store")`) {
		t.Errorf("store difference: %+v", store)
	}
	if r, out := compare(t, ks, wordCount(t, nil, "counts-store")); !r.Same() {
		t.Errorf("with the fix applied:\n%s", out)
	}
}

// TestNamedProcessor: Named.as on one side.
func TestNamedProcessor(t *testing.T) {
	b := kstreams.NewStreamsBuilder()
	s := kstreams.Stream[string, string](b, []string{"in"})
	s.Filter(func(_, v string) bool { return v != "" }, "drop-empty").To("out")
	topo, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	b2 := kstreams.NewStreamsBuilder()
	kstreams.Stream[string, string](b2, []string{"in"}).Filter(func(_, v string) bool { return v != "" }).To("out")
	topo2, err := b2.Build()
	if err != nil {
		t.Fatal(err)
	}
	r, out := compare(t, topo.Describe().String(), topo2.Describe().String())
	if len(r.Differences) != 1 || r.Differences[0].Fix != `Named.as("drop-empty") on the Go filter()/filterNot() that creates KSTREAM-FILTER-0000000001` {
		t.Fatalf("report:\n%s", out)
	}
	r, out = compare(t, topo2.Describe().String(), topo.Describe().String())
	if len(r.Differences) != 1 || !strings.Contains(r.Differences[0].What, "StoatFlow's topology names the processor drop-empty where the Kafka Streams application generates KSTREAM-FILTER-0000000001") {
		t.Fatalf("report:\n%s", out)
	}
}

// TestTopicNamesDiffer: an input topic the Go topology was built with
// differently.
func TestTopicNamesDiffer(t *testing.T) {
	ks := testdata(t, "jvm/wordcount.describe.txt")
	sf := strings.ReplaceAll(ks, "streams-wordcount-output", "wordcount-out")
	r, out := compare(t, ks, sf)
	if len(r.Differences) != 1 || !strings.Contains(r.Differences[0].What,
		"sink KSTREAM-SINK-0000000009 reads or writes streams-wordcount-output in the Kafka Streams application and wordcount-out") {
		t.Fatalf("report:\n%s", out)
	}
}

// TestExtraSubtopology: a selectKey before a groupByKey adds a repartition,
// hence a sub-topology; the extra operator is the first difference.
func TestExtraSubtopology(t *testing.T) {
	build := func(rekey bool) string {
		b := kstreams.NewStreamsBuilder()
		s := kstreams.Stream[string, string](b, []string{"in"})
		if rekey {
			s = kstreams.SelectKey(s, func(_, v string) string { return v })
		}
		s.GroupByKey().Count().ToStream().To("out")
		topo, err := b.Build()
		if err != nil {
			t.Fatal(err)
		}
		return topo.Describe().String()
	}
	r, out := compare(t, build(false), build(true))
	if r.Same() || len(r.Differences) == 0 ||
		!strings.Contains(r.Differences[0].What, "KSTREAM-KEY-SELECT-0000000001") {
		t.Fatalf("report:\n%s", out)
	}
}

// TestOrderOnly: the same nodes, printed in another order, are reported.
func TestOrderOnly(t *testing.T) {
	ks := testdata(t, "jvm/wordcount.describe.txt")
	d := parse(t, ks)
	sf := parse(t, ks)
	n := sf.Subtopologies[1].Nodes
	n[2], n[3] = n[3], n[2]
	r := topodiff.Compare(d, sf)
	if len(r.Differences) != 1 || !strings.Contains(r.Differences[0].What, "lists its nodes in another order") {
		t.Fatalf("report: %+v", r)
	}
}

// TestGlobalTableStoreNamed: a global table's store named on the Kafka
// Streams side only; the global sub-topology pairs with the global one.
func TestGlobalTableStoreNamed(t *testing.T) {
	build := func(store string) string {
		b := kstreams.NewStreamsBuilder()
		var m []kstreams.Materialized[string, string]
		if store != "" {
			m = append(m, kstreams.MaterializedAs[string, string](store))
		}
		g := kstreams.GlobalTable(b, "prices", kstreams.Consumed[string, string]{}, m...)
		s := kstreams.Stream[string, string](b, []string{"orders"})
		kstreams.JoinGlobal(s, g, func(k, _ string) string { return k }, func(v, p string) string { return v + p }).To("priced")
		topo, err := b.Build()
		if err != nil {
			t.Fatal(err)
		}
		return topo.Describe().String()
	}
	ks, sf := build("prices-store"), build("")
	if !strings.Contains(ks, "for global store") {
		t.Fatalf("no global store:\n%s", ks)
	}
	r, out := compare(t, ks, sf)
	if len(r.Differences) != 1 || !strings.Contains(r.Differences[0].What, "is prices-store in the Kafka Streams application") ||
		!strings.HasPrefix(r.Differences[0].Fix, `Materialized.as("prices-store")`) {
		t.Fatalf("report:\n%s\n--- ks\n%s--- sf\n%s", out, ks, sf)
	}
	if r, out := compare(t, ks, build("prices-store")); !r.Same() {
		t.Fatalf("same topology:\n%s", out)
	}
}
