package io.stoatflow.reference;

import java.time.Duration;
import java.util.Map;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.JoinWindows;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.StreamJoined;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The topology of Kafka Streams' RepartitionOptimizingTest: one map changes the key; a
 * filtered mapValues, a count, an aggregate (sum of value lengths), a filtered reduce
 * (joined with ":") and a filtered join with the counts (5 s) below it. Under
 * topology.optimization=all the four repartitions become one.
 *
 * Arguments: input (default optimized-input), output (default optimized-output); the other
 * outputs are output-processed, -aggregate, -reduce and -joined.
 */
final class Optimized {
    private Optimized() {
    }

    static Topology topology(Map<String, String> args) {
        String input = Main.arg(args, "input", "optimized-input");
        String output = Main.arg(args, "output", "optimized-output");
        StreamsBuilder builder = new StreamsBuilder();
        KStream<String, String> source = builder.stream(input,
                Consumed.with(Serdes.String(), Serdes.String()).withName("sourceStream"));
        KStream<String, String> mapped = source.map((k, v) -> KeyValue.pair(k.toUpperCase(java.util.Locale.ROOT), v),
                Named.as("source-map"));

        mapped.filter((k, v) -> k.equals("B"), Named.as("process-filter"))
                .mapValues(v -> v.toUpperCase(java.util.Locale.ROOT), Named.as("process-mapValues"))
                .to(output + "-processed", Produced.as("process-to"));

        KStream<String, Long> counts = mapped.groupByKey(Grouped.as("count-groupByKey"))
                .count(Named.as("count"), Materialized.<String, Long, KeyValueStore<Bytes, byte[]>>as("count-store")
                        .withKeySerde(Serdes.String()).withValueSerde(Serdes.Long()))
                .toStream(Named.as("count-toStream"));
        counts.to(output, Produced.with(Serdes.String(), Serdes.Long()).withName("count-to"));

        mapped.groupByKey(Grouped.as("aggregate-groupByKey"))
                .aggregate(() -> 0, (k, v, sum) -> sum + v.length(), Named.as("aggregate"),
                        Materialized.<String, Integer, KeyValueStore<Bytes, byte[]>>as("aggregate-store")
                                .withKeySerde(Serdes.String()).withValueSerde(Serdes.Integer()))
                .toStream(Named.as("aggregate-toStream"))
                .to(output + "-aggregate", Produced.with(Serdes.String(), Serdes.Integer()).withName("reduce-to"));

        mapped.filter((k, v) -> true, Named.as("reduce-filter"))
                .peek((k, v) -> { }, Named.as("reduce-peek"))
                .groupByKey(Grouped.as("reduce-groupByKey"))
                .reduce((agg, v) -> agg + ":" + v, Named.as("reducer"),
                        Materialized.<String, String, KeyValueStore<Bytes, byte[]>>as("reduce-store"))
                .toStream(Named.as("reduce-toStream"))
                .to(output + "-reduce", Produced.with(Serdes.String(), Serdes.String()));

        mapped.filter((k, v) -> k.equals("A"), Named.as("join-filter"))
                .join(counts, (v, n) -> v + ":" + n, JoinWindows.ofTimeDifferenceWithNoGrace(Duration.ofSeconds(5)),
                        StreamJoined.<String, String, Long>with(Serdes.String(), Serdes.String(), Serdes.Long()).withName("join"))
                .to(output + "-joined", Produced.as("join-to"));
        return Main.build(builder);
    }
}
