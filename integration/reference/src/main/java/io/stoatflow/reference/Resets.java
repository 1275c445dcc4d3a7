package io.stoatflow.reference;

import java.time.Duration;
import java.util.Map;

import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.AutoOffsetReset;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Produced;

/**
 * Three sources merged into output: input (auto.offset.reset decides), late (reset policy
 * latest) and recent (reset policy byDuration(1 h)).
 *
 * Arguments: input, late, recent, output.
 */
final class Resets {
    private Resets() {
    }

    static Topology topology(Map<String, String> args) {
        Serde<String> s = Serdes.String();
        StreamsBuilder builder = new StreamsBuilder();
        Consumed<String, String> c = Consumed.with(s, s);
        KStream<String, String> all = builder.stream(Main.arg(args, "input", "resets-input"), c);
        KStream<String, String> late = builder.stream(Main.arg(args, "late", "resets-late"),
                c.withOffsetResetPolicy(AutoOffsetReset.latest()));
        KStream<String, String> recent = builder.stream(Main.arg(args, "recent", "resets-recent"),
                c.withOffsetResetPolicy(AutoOffsetReset.byDuration(Duration.ofHours(1))));
        all.merge(late).merge(recent).to(Main.arg(args, "output", "resets-output"), Produced.with(s, s));
        return Main.build(builder);
    }
}
