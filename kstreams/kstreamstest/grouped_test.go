package kstreamstest_test

import (
	"strings"
	"testing"

	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/kstreamstest"
	"github.com/stoatflow/stoatflow/kstreams/serde"
)

// TestGroupedWithSerdesWriteTheRepartitionTopic: GroupedWith's serdes, not
// the String defaults, write the repartition topic of a GroupBy to a Long
// key, as Grouped.with(keySerde, valueSerde) does in Kafka Streams.
func TestGroupedWithSerdesWriteTheRepartitionTopic(t *testing.T) {
	b := kstreams.NewStreamsBuilder()
	src := kstreams.Stream(b, []string{"in"}, kstreams.ConsumedWith[string, string](serde.String{}, serde.String{}))
	kstreams.GroupBy(src, func(_, v string) int64 { return int64(len(v)) },
		kstreams.GroupedWith[int64, string](serde.Long{}, serde.String{})).Count().
		ToStream().To("out", kstreams.ProducedWith[int64, int64](serde.Long{}, serde.Long{}))
	d := build(t, b, kstreamstest.Config{ApplicationID: "grouped",
		DefaultKeySerde: serde.Erase[string](serde.String{}), DefaultValueSerde: serde.Erase[string](serde.String{})})
	in := kstreamstest.NewInputTopic(d, "in", serde.String{}, serde.String{})
	if err := in.Pipe("a", "stoat", 10); err != nil {
		t.Fatal(err)
	}
	var repartition []kstreamstest.Record
	for _, topic := range d.Topics() {
		if strings.HasSuffix(topic, "-repartition") {
			repartition = d.Records(topic)
		}
	}
	check(t, "repartition", repartition, []kv{{string(long(5)), []byte("stoat"), 10}})
	check(t, "output", d.Records("out"), []kv{{string(long(5)), long(1), 10}})
}
