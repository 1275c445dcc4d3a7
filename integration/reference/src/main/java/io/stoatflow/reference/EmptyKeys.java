package io.stoatflow.reference;

import java.util.Map;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;

/**
 * Counts over String records whose keys and values may be empty and whose keys may be null, four
 * ways, each written as a Long. From input:
 * <ul>
 * <li>per value ({@code groupBy((k, v) -> v)}, Grouped "by-value", store "value-counts"), to
 * output: an empty value is the key "", counted, whatever the record's key;</li>
 * <li>per value with "-" mapped to null ({@code selectKey}, named "dash-is-null", then
 * groupByKey with Grouped "by-marked", store "marked-counts"), to output-marked: the null keys
 * go no further than the repartition topic's filter;</li>
 * <li>per key without a repartition ({@code groupByKey}, store "source-counts"), to
 * output-source: the count skips each null key as a dropped record.</li>
 * </ul>
 * From other, per key through an identity key selector ({@code selectKey((k, v) -> k)}, named
 * "same-key", Grouped "by-key", store "key-counts"), to output-keys: a null key stays null and is
 * filtered, an empty key is counted.
 *
 * Arguments: input (default empty-keys-input), other (default empty-keys-other), output (default
 * empty-keys-output).
 */
final class EmptyKeys {
    private EmptyKeys() {
    }

    static Topology topology(Map<String, String> args) {
        String input = Main.arg(args, "input", "empty-keys-input");
        String other = Main.arg(args, "other", "empty-keys-other");
        String output = Main.arg(args, "output", "empty-keys-output");
        Produced<String, Long> counts = Produced.with(Serdes.String(), Serdes.Long());
        StreamsBuilder builder = new StreamsBuilder();
        KStream<String, String> in = builder.stream(input, Consumed.with(Serdes.String(), Serdes.String()));
        in.groupBy((k, v) -> v, Grouped.as("by-value"))
                .count(Materialized.as("value-counts"))
                .toStream()
                .to(output, counts);
        in.selectKey((k, v) -> v.equals("-") ? null : v, Named.as("dash-is-null"))
                .groupByKey(Grouped.as("by-marked"))
                .count(Materialized.as("marked-counts"))
                .toStream()
                .to(output + "-marked", counts);
        in.groupByKey()
                .count(Materialized.as("source-counts"))
                .toStream()
                .to(output + "-source", counts);
        builder.stream(other, Consumed.with(Serdes.String(), Serdes.String()))
                .selectKey((k, v) -> k, Named.as("same-key"))
                .groupByKey(Grouped.as("by-key"))
                .count(Materialized.as("key-counts"))
                .toStream()
                .to(output + "-keys", counts);
        return Main.build(builder);
    }
}
