package io.stoatflow.reference;

import java.time.Duration;
import java.util.Map;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.JoinWindows;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.StreamJoined;

/**
 * Topologies for ensure.explicit.internal.resource.naming (KIP-1111), built with the application's
 * StreamsConfig ({@link Main#configuredBuilder}), as an application must build them for Kafka
 * Streams to check the names. The variant argument picks one:
 * <ul>
 * <li>{@code named}: the values counted per value (groupBy with Grouped "by-value", count with
 * Materialized "counts"); every internal resource named;</li>
 * <li>{@code repartition}: re-keyed by value and written through repartition() without a name;</li>
 * <li>{@code store}: counted per key (groupByKey, count() without a Materialized): a generated
 * store and changelog;</li>
 * <li>{@code join}: input and other, each re-keyed by value, left-joined within a minute with a
 * StreamJoined of serdes only: generated repartition topics, stores and changelogs;</li>
 * <li>{@code table}: the input read as a table (builder.table without a Materialized) and written
 * out.</li>
 * </ul>
 * Arguments: variant, input, other (join), output.
 */
final class ExplicitNaming {
    private ExplicitNaming() {
    }

    static Topology topology(Map<String, String> args) {
        String input = Main.arg(args, "input", "naming-input");
        String other = Main.arg(args, "other", "naming-other");
        String output = Main.arg(args, "output", "naming-output");
        StreamsBuilder builder = Main.configuredBuilder();
        switch (Main.arg(args, "variant", "named")) {
            case "named" -> builder.<String, String>stream(input)
                    .groupBy((k, v) -> v, Grouped.as("by-value"))
                    .count(Materialized.as("counts"))
                    .toStream()
                    .to(output, Produced.with(Serdes.String(), Serdes.Long()));
            case "repartition" -> builder.<String, String>stream(input)
                    .selectKey((k, v) -> v)
                    .repartition()
                    .to(output);
            case "store" -> builder.<String, String>stream(input)
                    .groupByKey()
                    .count()
                    .toStream()
                    .to(output, Produced.with(Serdes.String(), Serdes.Long()));
            case "join" -> {
                KStream<String, String> left = builder.<String, String>stream(input).selectKey((k, v) -> v);
                KStream<String, String> right = builder.<String, String>stream(other).selectKey((k, v) -> v);
                left.leftJoin(right, (l, r) -> l + "+" + r, JoinWindows.ofTimeDifferenceWithNoGrace(Duration.ofMinutes(1)),
                                StreamJoined.with(Serdes.String(), Serdes.String(), Serdes.String()))
                        .to(output);
            }
            case "table" -> builder.<String, String>table(input).toStream().to(output);
            default -> throw new IllegalArgumentException("unknown variant " + args.get("variant"));
        }
        return Main.build(builder);
    }
}
