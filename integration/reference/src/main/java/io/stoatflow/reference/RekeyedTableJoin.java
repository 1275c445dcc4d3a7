package io.stoatflow.reference;

import java.util.Map;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Joined;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.Produced;

/**
 * A stream re-keyed by the value up to its first ':' and joined with a table: first a join
 * named by-user ("inner:" + v + "+" + row, through by-user-repartition), then an unnamed left
 * join ("left:" + v + "+" + row), which reuses that repartition.
 *
 * Arguments: input (the stream), table, output.
 */
final class RekeyedTableJoin {
    private RekeyedTableJoin() {
    }

    static Topology topology(Map<String, String> args) {
        StreamsBuilder builder = new StreamsBuilder();
        Consumed<String, String> consumed = Consumed.with(Serdes.String(), Serdes.String());
        Produced<String, String> produced = Produced.with(Serdes.String(), Serdes.String());
        KStream<String, String> events = builder.stream(Main.arg(args, "input", "joins-stream"), consumed);
        KTable<String, String> rows = builder.table(Main.arg(args, "table", "joins-table"), consumed);
        String output = Main.arg(args, "output", "joins-output");
        KStream<String, String> byUser = events.selectKey((k, v) -> v.substring(0, v.indexOf(':')));
        byUser.join(rows, (v, row) -> "inner:" + v + "+" + row, Joined.as("by-user")).to(output, produced);
        byUser.leftJoin(rows, (v, row) -> "left:" + v + "+" + row).to(output, produced);
        return Main.build(builder);
    }
}
