package io.stoatflow.reference;

import java.util.Map;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Two tables joined three ways, each written with toStream to output: join materialized as
 * tables-inner ("inner:" + l + "+" + r), leftJoin ("left:" + l + "+" + r), and outerJoin named
 * tables-outer with an unnamed Materialized ("outer:" + l + "+" + r). The right table is
 * materialized as tables-right; the left one is materialized by the joins.
 *
 * Arguments: input (the left table), right, output.
 */
final class TableTableJoin {
    private TableTableJoin() {
    }

    static Topology topology(Map<String, String> args) {
        StreamsBuilder builder = new StreamsBuilder();
        Consumed<String, String> consumed = Consumed.with(Serdes.String(), Serdes.String());
        Produced<String, String> produced = Produced.with(Serdes.String(), Serdes.String());
        KTable<String, String> left = builder.table(Main.arg(args, "input", "joins-left"), consumed);
        KTable<String, String> right = builder.table(Main.arg(args, "right", "joins-right"), consumed,
                Materialized.<String, String, KeyValueStore<Bytes, byte[]>>as("tables-right"));
        String output = Main.arg(args, "output", "joins-output");
        left.join(right, (l, r) -> "inner:" + l + "+" + r,
                        Materialized.<String, String, KeyValueStore<Bytes, byte[]>>as("tables-inner"))
                .toStream().to(output, produced);
        left.leftJoin(right, (l, r) -> "left:" + l + "+" + r).toStream().to(output, produced);
        left.outerJoin(right, (l, r) -> "outer:" + l + "+" + r, Named.as("tables-outer"),
                        Materialized.<String, String, KeyValueStore<Bytes, byte[]>>with(Serdes.String(), Serdes.String()))
                .toStream().to(output, produced);
        return Main.build(builder);
    }
}
