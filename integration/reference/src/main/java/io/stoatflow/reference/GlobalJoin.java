package io.stoatflow.reference;

import java.util.Map;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.GlobalKTable;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.KeyValueMapper;
import org.apache.kafka.streams.kstream.Produced;

/**
 * A stream joined with a global table, inner and left, both results to one output: the key
 * selector takes the value's second comma-separated token (null when there is none); the inner
 * join writes "inner:value+row", the left join "left:value+row" with "null" for a missing row.
 *
 * Arguments: input (the global topic, default globaljoin-global), stream (default
 * globaljoin-stream), output (default globaljoin-output).
 */
final class GlobalJoin {
    private GlobalJoin() {
    }

    static Topology topology(Map<String, String> args) {
        String global = Main.arg(args, "input", "globaljoin-global");
        String stream = Main.arg(args, "stream", "globaljoin-stream");
        String output = Main.arg(args, "output", "globaljoin-output");
        StreamsBuilder builder = new StreamsBuilder();
        GlobalKTable<String, String> table = builder.globalTable(global, Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> s = builder.stream(stream, Consumed.with(Serdes.String(), Serdes.String()));
        // Kafka Streams calls the selector for a null value too, before it drops the record.
        KeyValueMapper<String, String, String> foreignKey = (k, v) -> {
            if (v == null) {
                return null;
            }
            String[] tokens = v.split(",", -1);
            return tokens.length > 1 ? tokens[1] : null;
        };
        Produced<String, String> produced = Produced.with(Serdes.String(), Serdes.String());
        s.join(table, foreignKey, (v, row) -> "inner:" + v + "+" + row).to(output, produced);
        s.leftJoin(table, foreignKey, (v, row) -> "left:" + v + "+" + row).to(output, produced);
        return Main.build(builder);
    }
}
