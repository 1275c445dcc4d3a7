// Package demoinput is the word-count demo's input and output format,
// shared by the sidecar's demo (make demo, make demo-kafka) and its Kafka
// Streams 4.4 twin (make demo-jvm, integration/cmd/refdemo): both feed the
// same lines and print each count the same way, so that their outputs
// compare line by line.
package demoinput

import (
	"encoding/binary"
	"fmt"
)

// Batches returns the demo's lines in the batches the sidecar's demo feeds
// them: it counts and commits the first, then shows what each isolation
// level sees of the second before its commit. The twin feeds them all at
// once; with no record cache, both emit one count per word.
func Batches() [][]string {
	return [][]string{
		{"all streams lead to kafka", "hello kafka streams", "join kafka summit"},
		{"hello stoatflow"},
	}
}

// Lines returns every line of Batches, in order.
func Lines() []string {
	var out []string
	for _, b := range Batches() {
		out = append(out, b...)
	}
	return out
}

// CountLine is how both demos print one count record of the output topic:
// its word and its Long count, -1 for a value that is not 8 bytes.
func CountLine(word string, value []byte) string {
	n := int64(-1)
	if len(value) == 8 {
		n = int64(binary.BigEndian.Uint64(value))
	}
	return fmt.Sprintf("  %-10s %d\n", word, n)
}
