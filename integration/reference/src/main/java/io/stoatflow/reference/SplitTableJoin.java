package io.stoatflow.reference;

import java.util.Map;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;

/**
 * Stream-table and table-table joins over one topic: records whose value starts with "T" are
 * the rows of a table (toTable, materialized as split-rows), those that start with "S" are
 * looked up in it, as a left join ("left:" + v + "+" + row) and as an inner join
 * ("inner:" + v + "+" + row), and those that start with "U" are the rows of a second table
 * (split-other) that the first joins ("tables:" + row + "+" + other, materialized as
 * split-joined), all written to output. One sub-topology reads everything, so the results
 * follow the topic's order alone.
 *
 * Arguments: input, output.
 */
final class SplitTableJoin {
    private SplitTableJoin() {
    }

    static Topology topology(Map<String, String> args) {
        StreamsBuilder builder = new StreamsBuilder();
        Produced<String, String> produced = Produced.with(Serdes.String(), Serdes.String());
        KStream<String, String> in = builder.stream(Main.arg(args, "input", "splitjoin-input"),
                Consumed.with(Serdes.String(), Serdes.String()));
        String output = Main.arg(args, "output", "splitjoin-output");
        KTable<String, String> rows = in.filter((k, v) -> v.startsWith("T"))
                .toTable(Materialized.as("split-rows"));
        KStream<String, String> events = in.filter((k, v) -> v.startsWith("S"));
        events.leftJoin(rows, (v, row) -> "left:" + v + "+" + row).to(output, produced);
        events.join(rows, (v, row) -> "inner:" + v + "+" + row).to(output, produced);
        KTable<String, String> other = in.filter((k, v) -> v.startsWith("U"))
                .toTable(Materialized.as("split-other"));
        rows.join(other, (row, o) -> "tables:" + row + "+" + o, Materialized.as("split-joined"))
                .toStream().to(output, produced);
        return Main.build(builder);
    }
}
