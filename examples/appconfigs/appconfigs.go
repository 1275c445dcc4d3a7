// Package appconfigs shows what a processor reads of the application's
// configuration, the way Kafka Streams' ProcessorContext.appConfigs()
// gives it:
//
//	source(<input>) → Reader (value = "key=value;" for each of Keys, then
//	                          the keys under "orders." with their values)
//	                → sink(<output>)
//
// Values are in their text form (a class by its name, a list
// comma-separated); a key without a value reads "null". Arguments: input and
// output. Keys and values are Strings.
package appconfigs

import (
	"maps"
	"slices"
	"strings"

	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/serde"
)

// Name is the stoatflow.topology value of the topology.
const Name = "appconfigs"

// Keys are the keys Reader reads: the application's own, Kafka Streams
// keys left at their defaults (some of which Kafka Streams sets for its
// clients or for exactly_once_v2) and keys the example's file sets.
var Keys = []string{
	"orders.ttl.ms", "bootstrap.servers", "processing.guarantee", "commit.interval.ms",
	"num.stream.threads", "replication.factor", "statestore.cache.max.bytes", "default.key.serde",
	"default.timestamp.extractor", "buffered.records.per.partition", "max.task.idle.ms", "topology.optimization",
	"application.server", "client.id", "rocksdb.config.setter", "acceptable.recovery.lag", "num.standby.replicas",
	"poll.ms", "upgrade.from", "dsl.store.suppliers.class", "processing.exception.handler",
}

// Build returns the topology.
func Build(args map[string]string) (*kstreams.Topology, error) {
	input, output := "appconfigs-input", "appconfigs-output"
	if v := args["input"]; v != "" {
		input = v
	}
	if v := args["output"]; v != "" {
		output = v
	}
	s := serde.String{}
	t := kstreams.NewTopology()
	reader := kstreams.ProcessorFunc(func(ctx kstreams.ProcessorContext, r kstreams.Record) error {
		all := ctx.AppConfigs()
		var b strings.Builder
		for _, k := range Keys {
			v, ok := all[k]
			if !ok {
				v = "null"
			}
			b.WriteString(k + "=" + v + ";")
		}
		orders := ctx.AppConfigsWithPrefix("orders.")
		for _, k := range slices.Sorted(maps.Keys(orders)) {
			b.WriteString("orders." + k + "=" + orders[k] + ";")
		}
		r.Value = b.String()
		return ctx.Forward(r)
	})
	for _, step := range []func() error{
		func() error { return t.AddSource("Source", kstreams.SourceSerdes[string, string](s, s), input) },
		func() error { return t.AddProcessor("Reader", reader.Supplier(), "Source") },
		func() error { return t.AddSink("Sink", output, kstreams.SinkSerdes[string, string](s, s), "Reader") },
	} {
		if err := step(); err != nil {
			return nil, err
		}
	}
	return t, nil
}
