package io.stoatflow.reference;

import java.time.Duration;
import java.util.Map;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.SessionWindows;
import org.apache.kafka.streams.kstream.WindowedSerdes;

/**
 * Counts records per key and session (five seconds of inactivity, ten minutes of grace); writes
 * the session-windowed key and the count (Long), and a null for each session a merge retracts.
 * Key and value serdes of the input come from default.key.serde / default.value.serde.
 *
 * Arguments: input (default session-input), output (default session-counts).
 */
final class SessionCount {
    private SessionCount() {
    }

    static Topology topology(Map<String, String> args) {
        String input = Main.arg(args, "input", "session-input");
        String output = Main.arg(args, "output", "session-counts");
        StreamsBuilder builder = new StreamsBuilder();
        builder.<String, String>stream(input)
                .groupByKey()
                .windowedBy(SessionWindows.ofInactivityGapAndGrace(Duration.ofSeconds(5), Duration.ofMinutes(10)))
                .count()
                .toStream()
                .to(output, Produced.with(WindowedSerdes.sessionWindowedSerdeFrom(String.class), Serdes.Long()));
        return Main.build(builder);
    }
}
