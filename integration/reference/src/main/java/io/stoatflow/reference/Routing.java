package io.stoatflow.reference;

import java.util.Collections;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.Repartitioned;
import org.apache.kafka.streams.processor.RecordContext;
import org.apache.kafka.streams.processor.StreamPartitioner;
import org.apache.kafka.streams.processor.TopicNameExtractor;

/**
 * A repartition (routing-spread, three partitions) with a stream partitioner: "multi-" keys to
 * every partition, "drop-" keys to none, "hash-" keys to the default partitioner, the others by
 * key length; then upper-cased values routed by a topic-name extractor: keys starting with "x" to
 * OUTPUT-x, the others to OUTPUT.
 *
 * Arguments: input (default routing-input), output (default routing-output).
 */
final class Routing {
    private Routing() {
    }

    static final class Spreader implements StreamPartitioner<String, String> {
        @Override
        public Optional<Set<Integer>> partitions(String topic, String key, String value, int numPartitions) {
            if (key.startsWith("multi-")) {
                Set<Integer> all = new HashSet<>();
                for (int i = 0; i < numPartitions; i++) {
                    all.add(i);
                }
                return Optional.of(all);
            }
            if (key.startsWith("drop-")) {
                return Optional.of(Collections.emptySet());
            }
            if (key.startsWith("hash-")) {
                return Optional.empty();
            }
            return Optional.of(Collections.singleton(key.length() % numPartitions));
        }
    }

    static final class ByPrefix implements TopicNameExtractor<String, String> {
        private final String output;

        ByPrefix(String output) {
            this.output = output;
        }

        @Override
        public String extract(String key, String value, RecordContext recordContext) {
            return key.startsWith("x") ? output + "-x" : output;
        }

        @Override
        public String toString() {
            return "routing-by-prefix";
        }
    }

    static Topology topology(Map<String, String> args) {
        String input = Main.arg(args, "input", "routing-input");
        String output = Main.arg(args, "output", "routing-output");
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(input, Consumed.with(Serdes.String(), Serdes.String()))
                .repartition(Repartitioned.<String, String>as("routing-spread")
                        .withNumberOfPartitions(3)
                        .withStreamPartitioner(new Spreader()))
                .mapValues(v -> v.toUpperCase())
                .to(new ByPrefix(output), Produced.with(Serdes.String(), Serdes.String()));
        return Main.build(builder);
    }
}
