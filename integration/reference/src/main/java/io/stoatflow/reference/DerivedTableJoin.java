package io.stoatflow.reference;

import java.util.Map;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.Produced;

/**
 * A stream joined with tables without stores of their own: a filter (values not starting with
 * "-") and mapValues (upper case) of a table ("derived:" + v + "+" + row), and a left join with
 * the stream's own count per key ("count:" + v + "+" + n).
 *
 * Arguments: input (the stream), table, output.
 */
final class DerivedTableJoin {
    private DerivedTableJoin() {
    }

    static Topology topology(Map<String, String> args) {
        StreamsBuilder builder = new StreamsBuilder();
        Consumed<String, String> consumed = Consumed.with(Serdes.String(), Serdes.String());
        Produced<String, String> produced = Produced.with(Serdes.String(), Serdes.String());
        KStream<String, String> events = builder.stream(Main.arg(args, "input", "joins-stream"), consumed);
        KTable<String, String> rows = builder.table(Main.arg(args, "table", "joins-table"), consumed);
        String output = Main.arg(args, "output", "joins-output");
        KTable<String, String> upper = rows.filter((k, v) -> !v.startsWith("-")).mapValues(v -> v.toUpperCase());
        events.join(upper, (v, row) -> "derived:" + v + "+" + row).to(output, produced);
        KTable<String, Long> counts = events.groupByKey().count();
        events.leftJoin(counts, (v, n) -> "count:" + v + "+" + n).to(output, produced);
        return Main.build(builder);
    }
}
