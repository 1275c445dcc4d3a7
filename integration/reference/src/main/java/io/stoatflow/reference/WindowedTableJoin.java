package io.stoatflow.reference;

import java.time.Duration;
import java.util.Map;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KGroupedStream;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.SessionWindows;
import org.apache.kafka.streams.kstream.TimeWindows;

/**
 * Windowed tables joined on their windowed keys: the counts of input and right in ten-second
 * tumbling windows (inner join, "t:key@start"), and in sessions of five seconds' inactivity
 * (left join, "s:key@start-end"), with "a=<n>,b=<m>" as the value.
 *
 * Arguments: input, right, output.
 */
final class WindowedTableJoin {
    private WindowedTableJoin() {
    }

    static Topology topology(Map<String, String> args) {
        StreamsBuilder builder = new StreamsBuilder();
        Consumed<String, String> consumed = Consumed.with(Serdes.String(), Serdes.String());
        Produced<String, String> produced = Produced.with(Serdes.String(), Serdes.String());
        KGroupedStream<String, String> a = builder.stream(Main.arg(args, "input", "joins-a"), consumed).groupByKey();
        KGroupedStream<String, String> o = builder.stream(Main.arg(args, "right", "joins-b"), consumed).groupByKey();
        String output = Main.arg(args, "output", "joins-output");
        TimeWindows tumbling = TimeWindows.ofSizeWithNoGrace(Duration.ofSeconds(10));
        a.windowedBy(tumbling).count()
                .join(o.windowedBy(tumbling).count(), (n, m) -> "a=" + n + ",b=" + m)
                .toStream()
                .map((k, v) -> KeyValue.pair("t:" + k.key() + "@" + k.window().start(), v))
                .to(output, produced);
        SessionWindows gap = SessionWindows.ofInactivityGapWithNoGrace(Duration.ofSeconds(5));
        a.windowedBy(gap).count()
                .leftJoin(o.windowedBy(gap).count(), (n, m) -> "a=" + n + ",b=" + m)
                .toStream()
                .map((k, v) -> KeyValue.pair("s:" + k.key() + "@" + k.window().start() + "-" + k.window().end(), v))
                .to(output, produced);
        return Main.build(builder);
    }
}
