package io.stoatflow.reference;

import java.util.Map;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.Repartitioned;

/**
 * Joins whose co-partition groups meet in one sub-topology, for the topology a streams group
 * member sends (integration/streamsgroup_topology_test.go): orders joined with customers and
 * payments joined with accounts, merged (one sub-topology reads all four topics, in two
 * co-partition groups) and written to output; the merged stream repartitioned into a topic of
 * three partitions, joined with regions and counted, the counts written to output-counts.
 *
 * <pre>
 * stream(input-orders) ⋈ table(input-customers) ─┬─ merge → output
 * stream(input-payments) ⋈ table(input-accounts) ┘    └─ repartition(3) ⋈ table(input-regions) → groupByKey.count → output-counts
 * </pre>
 *
 * Arguments: input (the topics' prefix) and output. Keys and values are Strings.
 */
final class CopartitionedJoins {
    private CopartitionedJoins() {
    }

    static Topology topology(Map<String, String> args) {
        StreamsBuilder builder = new StreamsBuilder();
        Consumed<String, String> consumed = Consumed.with(Serdes.String(), Serdes.String());
        String input = Main.arg(args, "input", "copartitioned");
        String output = Main.arg(args, "output", "copartitioned-output");
        KStream<String, String> orders = builder.stream(input + "-orders", consumed);
        KTable<String, String> customers = builder.table(input + "-customers", consumed);
        KStream<String, String> payments = builder.stream(input + "-payments", consumed);
        KTable<String, String> accounts = builder.table(input + "-accounts", consumed);
        KStream<String, String> merged = orders.join(customers, (o, c) -> o + "+" + c)
                .merge(payments.join(accounts, (p, a) -> p + "+" + a));
        merged.to(output, Produced.with(Serdes.String(), Serdes.String()));
        KTable<String, String> regions = builder.table(input + "-regions", consumed);
        merged.repartition(Repartitioned.<String, String>numberOfPartitions(3)
                        .withKeySerde(Serdes.String()).withValueSerde(Serdes.String()))
                .join(regions, (m, r) -> m + "@" + r)
                .groupByKey()
                .count()
                .toStream()
                .to(output + "-counts", Produced.with(Serdes.String(), Serdes.Long()));
        return Main.build(builder);
    }
}
