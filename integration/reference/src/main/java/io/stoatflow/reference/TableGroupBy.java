package io.stoatflow.reference;

import java.util.Map;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.KGroupedTable;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * A table of users by region (materialized as groupby-users), re-grouped by region
 * (Grouped "groupby-regions"): a count (groupby-counts) written as "count:N" and a member
 * list "u1;u2;" with a subtractor (groupby-members) written as "members:...", merged into
 * one output keyed by region.
 *
 * Arguments: input (default tablegroupby-input), output (default tablegroupby-output).
 */
final class TableGroupBy {
    private TableGroupBy() {
    }

    static Topology topology(Map<String, String> args) {
        String input = Main.arg(args, "input", "tablegroupby-input");
        String output = Main.arg(args, "output", "tablegroupby-output");
        StreamsBuilder builder = new StreamsBuilder();
        KGroupedTable<String, String> byRegion = builder
                .table(input, Consumed.with(Serdes.String(), Serdes.String()),
                        Materialized.<String, String, KeyValueStore<Bytes, byte[]>>as("groupby-users"))
                .groupBy((user, region) -> KeyValue.pair(region, user),
                        Grouped.with("groupby-regions", Serdes.String(), Serdes.String()));
        KStream<String, String> counts = byRegion
                .count(Materialized.<String, Long, KeyValueStore<Bytes, byte[]>>as("groupby-counts"))
                .toStream()
                .mapValues(n -> "count:" + n);
        KStream<String, String> members = byRegion
                .aggregate(() -> "",
                        (region, user, agg) -> agg + user + ";",
                        (region, user, agg) -> agg.replaceFirst(java.util.regex.Pattern.quote(user + ";"), ""),
                        Materialized.<String, String, KeyValueStore<Bytes, byte[]>>as("groupby-members")
                                .withValueSerde(Serdes.String()))
                .toStream()
                .mapValues(m -> "members:" + m);
        counts.merge(members).to(output, Produced.with(Serdes.String(), Serdes.String()));
        return Main.build(builder);
    }
}
