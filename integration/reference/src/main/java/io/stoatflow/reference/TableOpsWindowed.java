package io.stoatflow.reference;

import java.time.Duration;
import java.util.Map;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KGroupedStream;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.SessionWindows;
import org.apache.kafka.streams.kstream.TimeWindows;

/**
 * Counts per key in ten-second tumbling windows and in sessions (five seconds of inactivity),
 * filters both tables to counts of at least two and writes them as "t:key@start" and
 * "s:key@start" with the count as text.
 *
 * Arguments: input (default tableops-windowed-input), output (default tableops-windowed-output).
 */
final class TableOpsWindowed {
    private TableOpsWindowed() {
    }

    static Topology topology(Map<String, String> args) {
        String input = Main.arg(args, "input", "tableops-windowed-input");
        String output = Main.arg(args, "output", "tableops-windowed-output");
        StreamsBuilder builder = new StreamsBuilder();
        KGroupedStream<String, String> grouped = builder.stream(input, Consumed.with(Serdes.String(), Serdes.String())).groupByKey();
        KStream<String, String> t = grouped.windowedBy(TimeWindows.ofSizeWithNoGrace(Duration.ofSeconds(10))).count()
                .filter((k, n) -> n >= 2).toStream()
                .map((k, n) -> KeyValue.pair("t:" + k.key() + "@" + k.window().start(), n == null ? null : n.toString()));
        KStream<String, String> s = grouped.windowedBy(SessionWindows.ofInactivityGapWithNoGrace(Duration.ofSeconds(5))).count()
                .filter((k, n) -> n >= 2).toStream()
                .map((k, n) -> KeyValue.pair("s:" + k.key() + "@" + k.window().start(), n == null ? null : n.toString()));
        t.merge(s).to(output, Produced.with(Serdes.String(), Serdes.String()));
        return Main.build(builder);
    }
}
