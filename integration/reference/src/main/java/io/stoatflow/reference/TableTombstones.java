package io.stoatflow.reference;

import java.util.Map;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Reads a table (materialized as tombstone-table) whose topic holds deletes and writes its
 * updates through mapValues, filter and map with null-safe lambdas: a delete stays a null value.
 *
 * Arguments: input (default table-tombstones-input), output (default table-tombstones-output).
 */
final class TableTombstones {
    private TableTombstones() {
    }

    static Topology topology(Map<String, String> args) {
        String input = Main.arg(args, "input", "table-tombstones-input");
        String output = Main.arg(args, "output", "table-tombstones-output");
        StreamsBuilder builder = new StreamsBuilder();
        builder.table(input, Consumed.with(Serdes.String(), Serdes.String()),
                        Materialized.<String, String, KeyValueStore<Bytes, byte[]>>as("tombstone-table"))
                .toStream()
                .mapValues(v -> v == null ? null : v.toUpperCase())
                .filter((k, v) -> v == null || !v.equals("SKIP"))
                .map((k, v) -> KeyValue.pair(k + "!", v == null ? null : "<" + v + ">"))
                .to(output, Produced.with(Serdes.String(), Serdes.String()));
        return Main.build(builder);
    }
}
