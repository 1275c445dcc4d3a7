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
 * A stream joined with itself (10 s before, 5 s after, 20 s grace; named "self", stores
 * "self-store"), each result "key:left+right". Under topology.optimization=all Kafka Streams
 * keeps one window store (single.store.self.join).
 *
 * Arguments: input (default selfjoin-input), output (default selfjoin-output).
 */
final class SelfJoin {
    private SelfJoin() {
    }

    static Topology topology(Map<String, String> args) {
        String input = Main.arg(args, "input", "selfjoin-input");
        String output = Main.arg(args, "output", "selfjoin-output");
        StreamsBuilder builder = new StreamsBuilder();
        KStream<String, String> in = builder.stream(input, Consumed.with(Serdes.String(), Serdes.String()));
        in.join(in, (k, l, r) -> k + ":" + l + "+" + r,
                JoinWindows.ofTimeDifferenceAndGrace(Duration.ofSeconds(10), Duration.ofSeconds(20)).after(Duration.ofSeconds(5)),
                StreamJoined.<String, String, String>with(Serdes.String(), Serdes.String(), Serdes.String())
                        .withName("self").withStoreName("self-store"))
                .to(output, Produced.with(Serdes.String(), Serdes.String()));
        return Main.build(builder);
    }
}
