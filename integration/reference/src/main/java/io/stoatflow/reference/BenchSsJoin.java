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

/**
 * The stream-stream join of the benchmark (integration/bench, workload ssjoin-eos) and of the
 * crash and migration tests (examples/ssjoin, ssjoincrash): one topic's records split by the
 * first letter of their value into a left ("L...") and a right stream ("R..."), left-joined
 * within 10 s (30 ms for ssjoincrash) and no grace. Results are left + "+" + right, or
 * left + "+null" once a left record's window has closed without a partner.
 *
 * Arguments: input, output.
 */
final class BenchSsJoin {
    private BenchSsJoin() {
    }

    static Topology topology(Map<String, String> args) {
        return leftJoin(Main.arg(args, "input", "benchssjoin-input"), Main.arg(args, "output", "benchssjoin-output"),
                Duration.ofSeconds(10));
    }

    static Topology crash(Map<String, String> args) {
        return leftJoin(Main.arg(args, "input", "ssjoincrash-input"), Main.arg(args, "output", "ssjoincrash-output"),
                Duration.ofMillis(30));
    }

    private static Topology leftJoin(String input, String output, Duration window) {
        StreamsBuilder builder = new StreamsBuilder();
        KStream<String, String> in = builder.stream(input, Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> left = in.filter((k, v) -> v.startsWith("L"));
        KStream<String, String> right = in.filter((k, v) -> v.startsWith("R"));
        left.leftJoin(right, (l, r) -> l + "+" + r,
                        JoinWindows.ofTimeDifferenceWithNoGrace(window),
                        StreamJoined.with(Serdes.String(), Serdes.String(), Serdes.String()))
                .to(output, Produced.with(Serdes.String(), Serdes.String()));
        return Main.build(builder);
    }
}
