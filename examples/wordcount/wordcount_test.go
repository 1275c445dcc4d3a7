package wordcount

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
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

// FuzzWordsMatchesRegexpSplit checks the hand-written splitter against Go's
// regexp \W+, which is ASCII-only like Java's default \W.
func FuzzWordsMatchesRegexpSplit(f *testing.F) {
	for _, s := range []string{"Hello World", "  x", "a\u00e9b", "\xff\xfeq", "__a__", "!!!", "", "a-b-", "ÄÖÜ über"} {
		f.Add(s)
	}
	nonWord := regexp.MustCompile(`\W+`)
	f.Fuzz(func(t *testing.T, line string) {
		lower := strings.ToLower(line)
		want := []string{lower}
		if nonWord.MatchString(lower) {
			want = nonWord.Split(lower, -1)
			for len(want) > 0 && want[len(want)-1] == "" {
				want = want[:len(want)-1]
			}
		}
		if got := Words(line); !slices.Equal(got, want) {
			t.Fatalf("Words(%q) = %q, want %q", line, got, want)
		}
	})
}
