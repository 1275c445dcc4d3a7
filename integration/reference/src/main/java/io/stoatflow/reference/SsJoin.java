package io.stoatflow.reference;

import java.time.Duration;
import java.util.Map;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.JoinWindows;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.StreamJoined;
import org.apache.kafka.streams.state.BuiltInDslStoreSuppliers;

/**
 * Joins two streams three ways in one topology: inner (10 s, no grace), left (5 s with 2 s grace, named "lj" with stores "ljstore-..." and a changelog
 * config) and outer (3 s before, 6 s after, 1 s grace, in-memory stores). Results are
 * "inner:"/"left:"/"outer:" + left + "+" + right; left and outer results with a null key are
 * re-keyed to "none". A third stream, re-keyed, is joined with itself (2 s): both sides read
 * the one repartition topic. Its results are "self:" + left + "+" + right.
 *
 * Arguments: input, left, right, output.
 */
final class SsJoin {
    private SsJoin() {
    }

    static StreamJoined<String, String, String> strings() {
        return StreamJoined.with(Serdes.String(), Serdes.String(), Serdes.String());
    }

    static Topology topology(Map<String, String> args) {
        String input = Main.arg(args, "input", "ssjoin-input");
        String leftTopic = Main.arg(args, "left", "ssjoin-left");
        String rightTopic = Main.arg(args, "right", "ssjoin-right");
        String output = Main.arg(args, "output", "ssjoin-output");
        Consumed<String, String> str = Consumed.with(Serdes.String(), Serdes.String());
        Produced<String, String> produced = Produced.with(Serdes.String(), Serdes.String());
        StreamsBuilder builder = new StreamsBuilder();
        KStream<String, String> left = builder.stream(leftTopic, str);
        KStream<String, String> right = builder.stream(rightTopic, str);

        left.join(right, (l, r) -> "inner:" + l + "+" + r,
                        JoinWindows.ofTimeDifferenceWithNoGrace(Duration.ofSeconds(10)), strings())
                .to(output, produced);

        left.leftJoin(right, (l, r) -> "left:" + l + "+" + r,
                        JoinWindows.ofTimeDifferenceAndGrace(Duration.ofSeconds(5), Duration.ofSeconds(2)),
                        strings().withName("lj").withStoreName("ljstore")
                                .withLoggingEnabled(Map.of("min.insync.replicas", "1")))
                .selectKey((k, v) -> k == null ? "none" : k)
                .to(output, produced);

        left.outerJoin(right, (l, r) -> "outer:" + l + "+" + r,
                        JoinWindows.ofTimeDifferenceAndGrace(Duration.ofSeconds(3), Duration.ofSeconds(1))
                                .after(Duration.ofSeconds(6)),
                        strings().withDslStoreSuppliers(new BuiltInDslStoreSuppliers.InMemoryDslStoreSuppliers()))
                .selectKey((k, v) -> k == null ? "none" : k)
                .to(output, produced);

        KStream<String, String> rekeyed = builder.stream(input, str).selectKey((k, v) -> k);
        rekeyed.join(rekeyed, (l, r) -> "self:" + l + "+" + r,
                        JoinWindows.ofTimeDifferenceWithNoGrace(Duration.ofSeconds(2)), strings())
                .to(output, produced);
        return Main.build(builder);
    }
}
