package io.stoatflow.reference;

import java.time.Duration;
import java.util.Map;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.SessionWindows;

/**
 * Counts records per key and session (five seconds of inactivity, ten minutes of grace), then
 * sends the counts through mapValues, map, filter and mapValues with null-safe lambdas, so that
 * the retractions of merged sessions reach the output as null values.
 *
 * Arguments: input (default session-tombstones-input), output (default session-tombstones-output).
 */
final class SessionTombstones {
    private SessionTombstones() {
    }

    static Topology topology(Map<String, String> args) {
        String input = Main.arg(args, "input", "session-tombstones-input");
        String output = Main.arg(args, "output", "session-tombstones-output");
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(input, Consumed.with(Serdes.String(), Serdes.String()))
                .groupByKey()
                .windowedBy(SessionWindows.ofInactivityGapAndGrace(Duration.ofSeconds(5), Duration.ofMinutes(10)))
                .count()
                .toStream()
                .mapValues(n -> n == null ? null : String.valueOf(n))
                .map((k, v) -> KeyValue.pair(k.key() + "@" + k.window().start() + "-" + k.window().end(),
                        v == null ? null : "n=" + v))
                .filter((k, v) -> v == null || !v.equals("n=2"))
                .mapValues(v -> v == null ? null : v.toUpperCase())
                .to(output, Produced.with(Serdes.String(), Serdes.String()));
        return Main.build(builder);
    }
}
