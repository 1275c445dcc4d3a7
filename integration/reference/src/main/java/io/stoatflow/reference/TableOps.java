package io.stoatflow.reference;

import java.util.Map;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Chains KTable operators over a topic of updates and deletes: a table materialized as
 * tableops-source, a filter materialized as tableops-kept (values not starting with "-"),
 * mapValues with the key ("key:VALUE"), filterNot (values ending in "SKIP"), toStream.
 *
 * Arguments: input (default tableops-input), output (default tableops-output).
 */
final class TableOps {
    private TableOps() {
    }

    static Topology topology(Map<String, String> args) {
        String input = Main.arg(args, "input", "tableops-input");
        String output = Main.arg(args, "output", "tableops-output");
        StreamsBuilder builder = new StreamsBuilder();
        builder.table(input, Consumed.with(Serdes.String(), Serdes.String()),
                        Materialized.<String, String, KeyValueStore<Bytes, byte[]>>as("tableops-source"))
                .filter((k, v) -> !v.startsWith("-"),
                        Materialized.<String, String, KeyValueStore<Bytes, byte[]>>as("tableops-kept"))
                .mapValues((k, v) -> k + ":" + v.toUpperCase())
                .filterNot((k, v) -> v.endsWith("SKIP"))
                .toStream()
                .to(output, Produced.with(Serdes.String(), Serdes.String()));
        return Main.build(builder);
    }
}
