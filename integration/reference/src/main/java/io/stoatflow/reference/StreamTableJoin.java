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
 * A stream joined with a table of the same keys, as an inner join ("inner:" + v + "+" + row)
 * and as a left join named enrich-left ("left:" + v + "+" + row), both written to output.
 * The table is materialized by the joins, not by its own call.
 *
 * Arguments: input (the stream), table, output.
 */
final class StreamTableJoin {
    private StreamTableJoin() {
    }

    static Topology topology(Map<String, String> args) {
        StreamsBuilder builder = new StreamsBuilder();
        Consumed<String, String> consumed = Consumed.with(Serdes.String(), Serdes.String());
        Produced<String, String> produced = Produced.with(Serdes.String(), Serdes.String());
        KStream<String, String> events = builder.stream(Main.arg(args, "input", "joins-stream"), consumed);
        KTable<String, String> rows = builder.table(Main.arg(args, "table", "joins-table"), consumed);
        String output = Main.arg(args, "output", "joins-output");
        events.join(rows, (v, row) -> "inner:" + v + "+" + row).to(output, produced);
        events.leftJoin(rows, (v, row) -> "left:" + v + "+" + row, Joined.as("enrich-left")).to(output, produced);
        return Main.build(builder);
    }
}
