// Package routing repartitions and routes records, the way Kafka Streams runs the same calls:
//
//	stream → repartition("routing-spread", 3 partitions, a StreamPartitioner:
//	           "multi-…" keys to every partition, "drop-…" keys to none,
//	           "hash-…" keys to the default partitioner, others by key length)
//	       → mapValues(upper case) → to(a topic-name extractor: keys starting
//	           with "x" to <output>-x, the others to <output>)
//
// Arguments: input and output. Keys and values are Strings.
package routing

import (
	"strings"

	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/serde"
)

// Name is the stoatflow.topology value of the topology.
const Name = "routing"

// Spread names the repartition topic (<application.id>-routing-spread-repartition)
// and Partitions is its partition count.
const (
	Spread     = "routing-spread"
	Partitions = 3
	// XSuffix is the suffix of the second output topic.
	XSuffix = "-x"
	// ExtractorName is what describe() shows for the topic-name extractor.
	ExtractorName = "routing-by-prefix"
)

// Spreader is the repartition's partitioner.
func Spreader(_ string, key string, _ string, n int) ([]int32, bool) {
	switch {
	case strings.HasPrefix(key, "multi-"):
		all := make([]int32, n)
		for i := range all {
			all[i] = int32(i)
		}
		return all, true
	case strings.HasPrefix(key, "drop-"):
		return []int32{}, true
	case strings.HasPrefix(key, "hash-"):
		return nil, false
	}
	return []int32{int32(len(key) % n)}, true
}

// Build returns the topology.
func Build(args map[string]string) (*kstreams.Topology, error) {
	input, output := "routing-input", "routing-output"
	if v := args["input"]; v != "" {
		input = v
	}
	if v := args["output"]; v != "" {
		output = v
	}
	s := serde.String{}
	b := kstreams.NewStreamsBuilder()
	spread := kstreams.Stream(b, []string{input}, kstreams.ConsumedWith[string, string](s, s)).
		Repartition(kstreams.Repartitioned[string, string]{Name: Spread, NumberOfPartitions: Partitions, Partitioner: Spreader})
	upper := kstreams.MapValues(spread, strings.ToUpper)
	upper.ToDynamic(kstreams.TopicNameExtractor[string, string]{Name: ExtractorName,
		Extract: func(key, _ string, _ kstreams.RecordContext) string {
			if strings.HasPrefix(key, "x") {
				return output + XSuffix
			}
			return output
		}}, kstreams.ProducedWith[string, string](s, s))
	return b.Build()
}
