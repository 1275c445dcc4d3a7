package io.stoatflow.reference;

import java.time.Duration;
import java.util.Map;

import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.CogroupedKStream;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.KGroupedStream;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.TimeWindows;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Three streams of user activity cogrouped into one summary per user, "clicks/views/spent":
 * clicks (input) and views keyed by user, purchases keyed by order with value "user:amount"
 * and re-keyed by user. The summary is materialized as cogroup-activity; the same cogroup over
 * 10 s windows with a 5 s grace (named windowed-activity, store generated) goes to
 * output-windowed as "windowStart=clicks/views/spent" by user.
 *
 * Arguments: input, views, purchases, output.
 */
final class Cogroup {
    private Cogroup() {
    }

    private static int[] parse(String agg) {
        String[] p = agg.split("/");
        return new int[] {Integer.parseInt(p[0]), Integer.parseInt(p[1]), Integer.parseInt(p[2])};
    }

    private static String format(int[] a) {
        return a[0] + "/" + a[1] + "/" + a[2];
    }

    private static String click(String user, String v, String agg) {
        int[] a = parse(agg);
        a[0]++;
        return format(a);
    }

    private static String view(String user, String v, String agg) {
        int[] a = parse(agg);
        a[1]++;
        return format(a);
    }

    private static String spend(String user, String amount, String agg) {
        int[] a = parse(agg);
        a[2] += Integer.parseInt(amount);
        return format(a);
    }

    static Topology topology(Map<String, String> args) {
        String input = Main.arg(args, "input", "cogroup-clicks");
        String views = Main.arg(args, "views", "cogroup-views");
        String purchases = Main.arg(args, "purchases", "cogroup-purchases");
        String output = Main.arg(args, "output", "cogroup-output");
        Serde<String> s = Serdes.String();
        StreamsBuilder builder = new StreamsBuilder();
        Consumed<String, String> consumed = Consumed.with(s, s);
        KGroupedStream<String, String> clicks = builder.stream(input, consumed).groupByKey();
        KGroupedStream<String, String> seen = builder.stream(views, consumed).groupByKey();
        KGroupedStream<String, String> spent = builder.stream(purchases, consumed)
                .map((order, v) -> KeyValue.pair(v.substring(0, v.indexOf(':')), v.substring(v.indexOf(':') + 1)))
                .groupByKey(Grouped.with(s, s));

        CogroupedKStream<String, String> all = clicks.<String>cogroup(Cogroup::click)
                .cogroup(seen, Cogroup::view)
                .cogroup(spent, Cogroup::spend);
        all.aggregate(() -> "0/0/0",
                        Materialized.<String, String, KeyValueStore<Bytes, byte[]>>as("cogroup-activity").withValueSerde(s))
                .toStream()
                .to(output, Produced.with(s, s));

        clicks.<String>cogroup(Cogroup::click)
                .cogroup(seen, Cogroup::view)
                .cogroup(spent, Cogroup::spend)
                .windowedBy(TimeWindows.ofSizeAndGrace(Duration.ofSeconds(10), Duration.ofSeconds(5)))
                .aggregate(() -> "0/0/0", Named.as("windowed-activity"), Materialized.with(s, s))
                .toStream()
                .map((w, v) -> KeyValue.pair(w.key(), w.window().start() + "=" + v))
                .to(output + "-windowed", Produced.with(s, s));
        return Main.build(builder);
    }
}
