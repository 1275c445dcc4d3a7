package kstreams_test

import (
	"strings"
	"testing"

	"github.com/stoatflow/stoatflow/kstreams"
)

// TestRedirectSinksLeavesInternalTopics: the output topic is renamed, the
// repartition topic is not, and a source reading the output follows it.
func TestRedirectSinksLeavesInternalTopics(t *testing.T) {
	b := kstreams.NewStreamsBuilder()
	s := kstreams.Stream[string, string](b, []string{"in"})
	kstreams.GroupBy(s, func(_, v string) string { return v }).Count().ToStream().To("counts")
	kstreams.Stream[string, int64](b, []string{"counts"}).To("again")
	topo, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	topo.RedirectSinks(func(topic string) string { return topic + "-shadow" })
	d := topo.Describe().String()
	for _, want := range []string{"(topic: counts-shadow)", "(topics: [counts-shadow])", "(topic: again-shadow)",
		"(topic: KSTREAM-AGGREGATE-STATE-STORE-0000000002-repartition)", "(topics: [in])"} {
		if !strings.Contains(d, want) {
			t.Errorf("describe() lacks %q:\n%s", want, d)
		}
	}
}
