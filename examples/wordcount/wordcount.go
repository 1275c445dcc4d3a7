// Package wordcount is the classic word count, the twin of the Kafka Streams
// reference app of the same name: each line is lowercased and split on runs
// of non-word characters, the words are grouped and counted, and every new
// count is written to the output topic as a Long.
//
// Importing the package registers the topology as "wordcount". Arguments:
// input (default streams-plaintext-input) and output (default
// streams-wordcount-output). Input keys and values, and the repartitioned
// words, use default.key.serde and default.value.serde (Strings).
package wordcount

import (
	"regexp"
	"strings"

	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/serde"
)

// Name is the name the topology is registered under.
const Name = "wordcount"

func init() { kstreams.RegisterTopology(Name, Build) }

// Build returns the word-count topology.
func Build(args map[string]string) (*kstreams.Topology, error) {
	input, output := arg(args, "input", "streams-plaintext-input"), arg(args, "output", "streams-wordcount-output")
	b := kstreams.NewStreamsBuilder()
	lines := kstreams.Stream[string, string](b, []string{input})
	words := kstreams.FlatMapValues(lines, Words)
	counts := kstreams.GroupBy(words, func(_, word string) string { return word }).Count()
	counts.ToStream().To(output, kstreams.ProducedWith[string, int64](serde.String{}, serde.Long{}))
	return b.Build()
}

var nonWord = regexp.MustCompile(`\W+`)

// Words lowercases line and splits it as Java's
// line.toLowerCase(Locale.ROOT).split("\\W+") does: a line without a match
// is one word; trailing empty strings are dropped, a leading one (from
// leading punctuation) is kept.
func Words(line string) []string {
	line = strings.ToLower(line)
	if !nonWord.MatchString(line) {
		return []string{line}
	}
	parts := nonWord.Split(line, -1)
	for len(parts) > 0 && parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1]
	}
	return parts
}

func arg(args map[string]string, name, def string) string {
	if v, ok := args[name]; ok && v != "" {
		return v
	}
	return def
}
