package kstreamstest_test

import (
	"fmt"
	"testing"

	"github.com/stoatflow/stoatflow/kstreams/kstreamstest"
	"github.com/stoatflow/stoatflow/kstreams/serde"
)

// BenchmarkWordCount pipes lines of words through the word count topology
// (flatMapValues, groupBy with a repartition topic routed in process, count
// on a state key-value store, changelog): one op is one input line.
func BenchmarkWordCount(b *testing.B) {
	for _, words := range []int{1, 10} {
		b.Run(fmt.Sprintf("words=%d", words), func(b *testing.B) {
			topo, err := wordCountBuilder().Build()
			if err != nil {
				b.Fatal(err)
			}
			d, err := kstreamstest.New(topo, kstreamstest.Config{DefaultKeySerde: serde.Erase[string](serde.String{}),
				DefaultValueSerde: serde.Erase[string](serde.String{})})
			if err != nil {
				b.Fatal(err)
			}
			defer d.Close()
			lines := make([][]byte, 64)
			for i := range lines {
				var line []byte
				for w := 0; w < words; w++ {
					line = fmt.Appendf(line, "w%d ", (i*7+w*13)%500)
				}
				lines[i] = line
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if err := d.Pipe("streams-plaintext-input", nil, lines[i%len(lines)], int64(i)); err != nil {
					b.Fatal(err)
				}
				if i%1024 == 0 {
					d.ReadOutput("streams-wordcount-output")
				}
			}
		})
	}
}
