package io.stoatflow.reference;

import java.time.Duration;
import java.util.Map;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.EmitStrategy;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.TimeWindows;
import org.apache.kafka.streams.kstream.WindowedSerdes;
import org.apache.kafka.streams.state.WindowStore;

/**
 * Counts records per key in tumbling ten-second windows with five seconds of grace; writes the
 * time-windowed key and the count (Long). Key and value serdes of the input come from
 * default.key.serde / default.value.serde.
 *
 * Arguments: input (default windowed-input), output (default windowed-counts).
 */
final class WindowedCount {
    private WindowedCount() {
    }

    static Topology topology(Map<String, String> args) {
        String input = Main.arg(args, "input", "windowed-input");
        String output = Main.arg(args, "output", "windowed-counts");
        StreamsBuilder builder = new StreamsBuilder();
        builder.<String, String>stream(input)
                .groupByKey()
                .windowedBy(TimeWindows.ofSizeAndGrace(Duration.ofSeconds(10), Duration.ofSeconds(5)))
                .count()
                .toStream()
                .to(output, Produced.with(WindowedSerdes.timeWindowedSerdeFrom(String.class, 10_000L), Serdes.Long()));
        return Main.build(builder);
    }

    /**
     * The same count over hopping windows (ten seconds advancing by five, five seconds of grace)
     * with emitStrategy(onWindowClose), in store final-counts that keeps windows a minute: each
     * window written once, with its final count.
     *
     * Arguments: input (default windowed-input), output (default windowed-final).
     */
    static Topology finalResults(Map<String, String> args) {
        String input = Main.arg(args, "input", "windowed-input");
        String output = Main.arg(args, "output", "windowed-final");
        StreamsBuilder builder = new StreamsBuilder();
        builder.<String, String>stream(input)
                .groupByKey()
                .windowedBy(TimeWindows.ofSizeAndGrace(Duration.ofSeconds(10), Duration.ofSeconds(5))
                        .advanceBy(Duration.ofSeconds(5)))
                .emitStrategy(EmitStrategy.onWindowClose())
                .count(Materialized.<String, Long, WindowStore<Bytes, byte[]>>as("final-counts")
                        .withRetention(Duration.ofMinutes(1)))
                .toStream()
                .to(output, Produced.with(WindowedSerdes.timeWindowedSerdeFrom(String.class, 10_000L), Serdes.Long()));
        return Main.build(builder);
    }
}
