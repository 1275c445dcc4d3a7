// Package wordcount is the classic word count, the twin of the Kafka Streams
// reference app of the same name: each line is lowercased and split on runs
// of non-word characters, the words are grouped and counted, and every new
// count is written to the output topic as a Long.
//
// Arguments: input (default streams-plaintext-input) and output (default
// streams-wordcount-output). Input keys and values, and the repartitioned
// words, use default.key.serde and default.value.serde (Strings).
package wordcount

import (
	"strings"

	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/serde"
)

// Name is the stoatflow.topology value of the topology.
const Name = "wordcount"

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

// Words lowercases line and splits it as Java's
// line.toLowerCase(Locale.ROOT).split("\\W+") does: a line without a match
// is one word; trailing empty strings are dropped, a leading one (from
// leading punctuation) is kept. \W is ASCII in Java's default mode: every
// byte other than [0-9A-Za-z_] separates words, including each byte of a
// multi-byte UTF-8 character.
func Words(line string) []string {
	line = strings.ToLower(line)
	var words []string
	start, split := 0, false
	for i := 0; i < len(line); {
		if isWordByte(line[i]) {
			i++
			continue
		}
		j := i + 1
		for j < len(line) && !isWordByte(line[j]) {
			j++
		}
		words = append(words, line[start:i])
		start, i, split = j, j, true
	}
	if !split {
		return []string{line}
	}
	words = append(words, line[start:])
	for len(words) > 0 && words[len(words)-1] == "" {
		words = words[:len(words)-1]
	}
	return words
}

func isWordByte(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

func arg(args map[string]string, name, def string) string {
	if v, ok := args[name]; ok && v != "" {
		return v
	}
	return def
}
