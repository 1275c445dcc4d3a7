package wordcount

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestWordsSplitsAsJava(t *testing.T) {
	cases := map[string][]string{
		"Hello World":         {"hello", "world"},
		"a, b;;c":             {"a", "b", "c"},
		"  leading space":     {"", "leading", "space"},
		"trailing!!!":         {"trailing"},
		"!!!":                 {},
		"":                    {""},
		"one":                 {"one"},
		"snake_case and 42nd": {"snake_case", "and", "42nd"},
	}
	for in, want := range cases {
		if got := Words(in); !slices.Equal(got, want) {
			t.Errorf("Words(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestDescribeMatchesKafkaStreams compares the topology's describe() with the
// text Kafka Streams 4.4 printed for its twin.
func TestDescribeMatchesKafkaStreams(t *testing.T) {
	topo, err := Build(nil)
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join("..", "..", "kstreams", "testdata", "jvm", "wordcount.describe.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if got := topo.Describe().String(); got != string(want) {
		t.Fatalf("describe() differs from Kafka Streams 4.4:\n--- got\n%s--- want\n%s", got, want)
	}
}
