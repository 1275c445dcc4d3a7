package io.stoatflow.reference;

import java.time.Duration;
import java.util.Map;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.errors.TopologyException;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.SessionWindows;
import org.apache.kafka.streams.kstream.Suppressed;
import org.apache.kafka.streams.kstream.TimeWindows;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Two topologies that suppress table updates.
 *
 * suppressfinal: counts per key in ten-second tumbling windows with five seconds of grace and
 * in sessions (five seconds of inactivity, two of grace), each suppressed until its window
 * closes (the session one named "sessions-final"), written as "t:key@start" and
 * "s:key@start/end" with the count as text.
 *
 * suppresstimelimit: a table materialized as suppress-source, suppressed for ten seconds of
 * stream time in a buffer of at most three keys that emits early when full.
 *
 * suppressbytes: a table that is not materialized (suppress materializes it), suppressed as "held"
 * for five seconds in a buffer of at most 400 bytes that emits early when full.
 *
 * suppressshapes: suppressions over other tables (argument case: "totable", "filtered", "mapped"
 * or "reduced"), for describe(): the first three make an unmaterialized source materialize.
 *
 * suppressfilteredtime: a table filtered to values not starting with "-", suppressed for five
 * seconds of stream time; an update the filter drops never reaches the suppression.
 *
 * suppressrejected: untilWindowCloses on a table that is not windowed (argument case: "table",
 * "filtered" or "count"), which Kafka Streams rejects when the topology is built; the rejection is
 * printed to stderr as "REJECTED: message" and the process exits with status 3.
 *
 * Arguments: input, output.
 */
final class Suppress {
    private Suppress() {
    }

    static Topology finalResults(Map<String, String> args) {
        String input = Main.arg(args, "input", "suppress-final-input");
        String output = Main.arg(args, "output", "suppress-final-output");
        StreamsBuilder builder = new StreamsBuilder();
        KStream<String, String> events = builder.stream(input, Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> timed = events.groupByKey()
                .windowedBy(TimeWindows.ofSizeAndGrace(Duration.ofSeconds(10), Duration.ofSeconds(5)))
                .count()
                .suppress(Suppressed.untilWindowCloses(Suppressed.BufferConfig.unbounded()))
                .toStream()
                .map((k, n) -> KeyValue.pair("t:" + k.key() + "@" + k.window().start(), Long.toString(n)));
        KStream<String, String> sessions = events.groupByKey()
                .windowedBy(SessionWindows.ofInactivityGapAndGrace(Duration.ofSeconds(5), Duration.ofSeconds(2)))
                .count()
                .suppress(Suppressed.untilWindowCloses(Suppressed.BufferConfig.unbounded()).withName("sessions-final"))
                .toStream()
                .map((k, n) -> KeyValue.pair(
                        "s:" + k.key() + "@" + k.window().start() + "/" + k.window().end(), Long.toString(n)));
        timed.merge(sessions).to(output, Produced.with(Serdes.String(), Serdes.String()));
        return Main.build(builder);
    }

    static Topology timeLimit(Map<String, String> args) {
        String input = Main.arg(args, "input", "suppress-timelimit-input");
        String output = Main.arg(args, "output", "suppress-timelimit-output");
        StreamsBuilder builder = new StreamsBuilder();
        builder.table(input, Consumed.with(Serdes.String(), Serdes.String()),
                        Materialized.<String, String, KeyValueStore<Bytes, byte[]>>as("suppress-source"))
                .suppress(Suppressed.untilTimeLimit(Duration.ofSeconds(10),
                        Suppressed.BufferConfig.maxRecords(3).emitEarlyWhenFull()))
                .toStream()
                .to(output, Produced.with(Serdes.String(), Serdes.String()));
        return Main.build(builder);
    }

    static Topology bytes(Map<String, String> args) {
        String input = Main.arg(args, "input", "suppress-bytes-input");
        String output = Main.arg(args, "output", "suppress-bytes-output");
        StreamsBuilder builder = new StreamsBuilder();
        builder.table(input, Consumed.with(Serdes.String(), Serdes.String()))
                .suppress(Suppressed.untilTimeLimit(Duration.ofSeconds(5),
                        Suppressed.BufferConfig.maxBytes(400).emitEarlyWhenFull()).withName("held"))
                .toStream()
                .to(output, Produced.with(Serdes.String(), Serdes.String()));
        return Main.build(builder);
    }

    static Topology shapes(Map<String, String> args) {
        String input = Main.arg(args, "input", "suppress-input");
        String output = Main.arg(args, "output", "suppress-output");
        String which = Main.arg(args, "case", "totable");
        StreamsBuilder builder = new StreamsBuilder();
        Consumed<String, String> strings = Consumed.with(Serdes.String(), Serdes.String());
        Produced<String, String> out = Produced.with(Serdes.String(), Serdes.String());
        Suppressed<Object> second = Suppressed.untilTimeLimit(Duration.ofSeconds(1), Suppressed.BufferConfig.unbounded());
        switch (which) {
            case "totable" -> builder.stream(input, strings).toTable().suppress(second).toStream().to(output, out);
            case "filtered" -> builder.table(input, strings).filter((k, v) -> v.length() > 1)
                    .suppress(second).toStream().to(output, out);
            case "mapped" -> builder.table(input, strings).mapValues(v -> v + "!")
                    .suppress(second).toStream().to(output, out);
            case "reduced" -> builder.stream(input, strings).groupByKey()
                    .windowedBy(SessionWindows.ofInactivityGapWithNoGrace(Duration.ofSeconds(5)))
                    .reduce((a, b) -> a + b)
                    .suppress(Suppressed.untilWindowCloses(Suppressed.BufferConfig.unbounded()).withName("done"))
                    .toStream()
                    .map((k, v) -> KeyValue.pair(k.key(), v))
                    .to(output, out);
            default -> throw new IllegalArgumentException("unknown case " + which);
        }
        return Main.build(builder);
    }

    static Topology filteredTime(Map<String, String> args) {
        String input = Main.arg(args, "input", "suppress-input");
        String output = Main.arg(args, "output", "suppress-output");
        StreamsBuilder builder = new StreamsBuilder();
        builder.table(input, Consumed.with(Serdes.String(), Serdes.String()))
                .filter((k, v) -> !v.startsWith("-"))
                .suppress(Suppressed.untilTimeLimit(Duration.ofSeconds(5), Suppressed.BufferConfig.unbounded()))
                .toStream()
                .to(output, Produced.with(Serdes.String(), Serdes.String()));
        return Main.build(builder);
    }

    static Topology rejected(Map<String, String> args) {
        StreamsBuilder builder = new StreamsBuilder();
        String which = Main.arg(args, "case", "table");
        try {
            switch (which) {
                case "table" -> suppressFinal(builder.table("input", Consumed.with(Serdes.String(), Serdes.String())));
                case "filtered" -> suppressFinal(builder.table("input", Consumed.with(Serdes.String(), Serdes.String()))
                        .filter((k, v) -> true));
                case "count" -> suppressFinal(builder.stream("input", Consumed.with(Serdes.String(), Serdes.String()))
                        .groupByKey().count());
                default -> throw new IllegalArgumentException("unknown case " + which);
            }
        } catch (TopologyException e) {
            System.err.println("REJECTED: " + e.getMessage());
            System.exit(3);
        }
        return Main.build(builder);
    }

    // A raw KTable: the compiler would reject untilWindowCloses on a table that is not windowed.
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static void suppressFinal(KTable table) {
        table.suppress(Suppressed.untilWindowCloses(Suppressed.BufferConfig.unbounded()));
    }
}
