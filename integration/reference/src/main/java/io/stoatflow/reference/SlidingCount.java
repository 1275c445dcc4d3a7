package io.stoatflow.reference;

import java.time.Duration;
import java.util.Map;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.EmitStrategy;
import org.apache.kafka.streams.kstream.KGroupedStream;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.SlidingWindows;
import org.apache.kafka.streams.kstream.WindowedSerdes;
import org.apache.kafka.streams.state.WindowStore;

/**
 * Counts (sliding-counts, "count:N") and joined values (sliding-values, "values:a,b") per key
 * in sliding windows of ten seconds with five seconds of grace, merged into one output with the
 * time-windowed key.
 *
 * Arguments: input (default slidingcount-input), output (default slidingcount-output).
 */
final class SlidingCount {
    private SlidingCount() {
    }

    static Topology topology(Map<String, String> args) {
        return build(args, EmitStrategy.onWindowUpdate());
    }

    /** The same with emitStrategy(onWindowClose): each window once, with its final result. */
    static Topology finalResults(Map<String, String> args) {
        return build(args, EmitStrategy.onWindowClose());
    }

    private static Topology build(Map<String, String> args, EmitStrategy emit) {
        String input = Main.arg(args, "input", "slidingcount-input");
        String output = Main.arg(args, "output", "slidingcount-output");
        StreamsBuilder builder = new StreamsBuilder();
        KGroupedStream<String, String> grouped = builder
                .stream(input, Consumed.with(Serdes.String(), Serdes.String()))
                .groupByKey();
        SlidingWindows windows = SlidingWindows.ofTimeDifferenceAndGrace(Duration.ofSeconds(10), Duration.ofSeconds(5));
        grouped.windowedBy(windows)
                .emitStrategy(emit)
                .count(Materialized.<String, Long, WindowStore<Bytes, byte[]>>as("sliding-counts"))
                .toStream()
                .mapValues(n -> "count:" + n)
                .merge(grouped.windowedBy(windows)
                        .emitStrategy(emit)
                        .reduce((a, v) -> a + "," + v, Materialized.<String, String, WindowStore<Bytes, byte[]>>as("sliding-values"))
                        .toStream()
                        .mapValues(v -> "values:" + v))
                .to(output, Produced.with(WindowedSerdes.timeWindowedSerdeFrom(String.class, 10_000L), Serdes.String()));
        return Main.build(builder);
    }
}
