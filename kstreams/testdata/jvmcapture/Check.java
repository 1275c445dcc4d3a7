import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.*;
import org.apache.kafka.streams.kstream.*;
import org.apache.kafka.streams.state.*;
import java.time.Duration;
import java.util.*;
import java.nio.file.*;

public class Check {
    static void out(String name, StreamsBuilder b) throws Exception {
        Files.writeString(Path.of("out/" + name + ".describe.txt"), b.build().describe().toString());
    }
    public static void main(String[] a) throws Exception {
        Files.createDirectories(Path.of("out"));
        {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> src = b.stream("streams-plaintext-input", Consumed.with(Serdes.String(), Serdes.String()));
            src.flatMapValues(v -> Arrays.asList(v.split(" "))).groupBy((k, w) -> w).count()
               .toStream().to("streams-wordcount-output", Produced.with(Serdes.String(), Serdes.Long()));
            out("wordcount", b);
        }
        {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> src = b.stream("streams-plaintext-input", Consumed.with(Serdes.String(), Serdes.String()));
            src.flatMapValues(v -> Arrays.asList(v.split(" "))).groupBy((k, w) -> w).count(Materialized.as("counts-store"))
               .toStream().to("streams-wordcount-output", Produced.with(Serdes.String(), Serdes.Long()));
            out("wordcount-materialized", b);
        }
        {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> src = b.stream("input");
            KStream<String, String> f = src.filter((k, v) -> true).filterNot((k, v) -> false);
            KStream<String, Integer> m = f.map((k, v) -> KeyValue.pair(v, 1));
            KStream<String, String> mv = m.mapValues(n -> "x", Named.as("to-x"));
            mv.peek((k, v) -> {}).to("output");
            mv.foreach((k, v) -> {});
            out("stateless", b);
        }
        {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> src = b.stream("clicks", Consumed.with(Serdes.String(), Serdes.String()));
            src.selectKey((k, v) -> v).groupByKey()
               .windowedBy(TimeWindows.ofSizeAndGrace(Duration.ofMinutes(1), Duration.ofSeconds(10)).advanceBy(Duration.ofSeconds(30)))
               .count().toStream().to("clicks-per-minute");
            out("windowed-count", b);
        }
        {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> src = b.stream("events", Consumed.with(Serdes.String(), Serdes.String()));
            src.groupBy((k, v) -> v, Grouped.as("by-user"))
               .windowedBy(SessionWindows.ofInactivityGapWithNoGrace(Duration.ofMinutes(5)))
               .count(Materialized.as("sessions")).toStream(Named.as("sessions-out")).to("session-counts");
            out("session-count", b);
        }
        {
            StreamsBuilder b = new StreamsBuilder();
            b.table("users", Consumed.with(Serdes.String(), Serdes.String())).toStream().to("users-out");
            b.table("prices", Consumed.<String, String>as("prices-source"), Materialized.<String, String, KeyValueStore<Bytes, byte[]>>as("prices-store")).toStream().to("prices-out");
            out("table-source", b);
        }
        {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> src = b.stream(Arrays.asList("a", "b"));
            KGroupedStream<String, String> g = src.groupByKey();
            g.reduce((x, y) -> x + y).toStream().to("reduced");
            g.aggregate(() -> 0L, (k, v, agg) -> agg + v.length(), Named.as("agg"),
                Materialized.<String, Long, KeyValueStore<Bytes, byte[]>>with(null, Serdes.Long()).withLoggingDisabled()).toStream().to("lengths");
            out("reduce-aggregate", b);
        }

        {
            StreamsBuilder b = new StreamsBuilder();
            b.stream(Arrays.asList("topic-z", "topic-a", "t10", "t2", "orders", "Payments", "x", "y", "zz", "alpha", "beta", "gamma", "delta", "epsilon", "eta", "theta", "iota", "kappa")).to("out");
            out("multi-topic", b);
        }
        {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> src = b.stream("in", Consumed.with(Serdes.String(), Serdes.String()));
            src.filter((k, v) -> true).mapValues(v -> v).to("o1");
            src.filterNot((k, v) -> true).to("o2");
            KStream<String, String> p = src.peek((k, v) -> {});
            p.selectKey((k, v) -> v).mapValues(v -> v).filter((k, v) -> true).groupByKey(Grouped.as("grp")).count(Named.as("cnt")).toStream().to("o3", Produced.with(Serdes.String(), Serdes.Long()));
            p.flatMap((k, v) -> List.of(KeyValue.pair(k, v))).to("o4");
            p.map((k, v) -> KeyValue.pair(k, v)).peek((k, v) -> {}).peek((k, v) -> {}).to("o5");
            src.foreach((k, v) -> {});
            src.flatMapValues(v -> List.of(v)).to("o6");
            out("branches", b);
        }
        {
            StreamsBuilder b = new StreamsBuilder();
            KGroupedStream<String, String> g = b.stream("in", Consumed.with(Serdes.String(), Serdes.String())).groupByKey();
            g.windowedBy(TimeWindows.ofSizeWithNoGrace(Duration.ofSeconds(5))).reduce((x, y) -> x + y).toStream().to("w-reduce");
            g.windowedBy(TimeWindows.ofSizeWithNoGrace(Duration.ofSeconds(5))).aggregate(() -> "", (k, v, agg) -> agg + v, Named.as("w-agg"), Materialized.as("w-agg-store")).toStream().to("w-agg");
            g.windowedBy(SessionWindows.ofInactivityGapWithNoGrace(Duration.ofSeconds(5))).reduce((x, y) -> x + y).toStream().to("s-reduce");
            g.windowedBy(SessionWindows.ofInactivityGapWithNoGrace(Duration.ofSeconds(5))).aggregate(() -> "", (k, v, agg) -> agg + v, (k, x, y) -> x + y).toStream().to("s-agg");
            out("windowed-variants", b);
        }
        {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> keyed = b.stream("in", Consumed.with(Serdes.String(), Serdes.String())).selectKey((k, v) -> v);
            keyed.groupByKey().count().toStream().to("c1");
            keyed.groupByKey().reduce((x, y) -> x + y).toStream().to("c2");
            keyed.mapValues(v -> v).groupByKey(Grouped.as("named-repartition")).count().toStream().to("c3");
            out("two-repartitions", b);
        }
        {
            StreamsBuilder b = new StreamsBuilder();
            b.stream("a").filter((k, v) -> true).to("x");
            b.stream("b").to("z");
            b.stream("a").mapValues(v -> v).to("y");
            out("merged-sources", b);
        }
        {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> x = b.stream("x");
            KStream<String, String> y = b.stream("y");
            KStream<String, String> z = b.<String, String>stream("z").selectKey((k, v) -> v);
            KStream<String, String> m = x.filter((k, v) -> true).merge(y).merge(z, Named.as("m2"));
            m.peek((k, v) -> {}).to("out");
            m.groupByKey().count().toStream().to("counts");
            x.merge(y).to("xy");
            out("merge", b);
        }
        {
            StreamsBuilder b = new StreamsBuilder();
            Map<String, KStream<String, String>> m = b.<String, String>stream("in")
                .split()
                .branch((k, v) -> v.startsWith("a"))
                .branch((k, v) -> v.startsWith("b"), Branched.as("bee"))
                .branch((k, v) -> v.startsWith("c"), Branched.withFunction(s -> s.mapValues(v -> v + "!")))
                .defaultBranch();
            for (Map.Entry<String, KStream<String, String>> e : new TreeMap<>(m).entrySet()) e.getValue().to("out-" + e.getKey());
            out("split", b);
        }
        {
            StreamsBuilder b = new StreamsBuilder();
            Map<String, KStream<String, String>> m = b.<String, String>stream("in")
                .split(Named.as("s-"))
                .branch((k, v) -> v.startsWith("a"))
                .branch((k, v) -> v.startsWith("b"), Branched.as("bee"))
                .branch((k, v) -> v.startsWith("c"), Branched.withConsumer(s -> s.to("c-out")))
                .noDefaultBranch();
            for (Map.Entry<String, KStream<String, String>> e : new TreeMap<>(m).entrySet()) e.getValue().to("out-" + e.getKey());
            b.<String, String>stream("x").split().defaultBranch(Branched.as("d"));
            b.<String, String>stream("y").filter((k, v) -> true).to("y-out");
            out("split-named", b);
        }
        {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, String> t = b.table("tin", Consumed.with(Serdes.String(), Serdes.String()));
            KTable<String, String> f = t.filter((k, v) -> true).filterNot((k, v) -> false, Materialized.as("not-store"));
            KTable<String, Integer> m = f.mapValues((k, v) -> 1, Named.as("mv"));
            KTable<String, String> m2 = m.mapValues(v -> "x", Materialized.with(Serdes.String(), Serdes.String()));
            m2.filter((k, v) -> true, Named.as("f2")).toStream().to("tout");
            b.table("tin2", Materialized.as("src-store")).mapValues(v -> v, Materialized.as("mv-store")).toStream(Named.as("ts")).to("tout2");
            out("ktable-ops", b);
        }
        {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> s = b.stream("sin", Consumed.with(Serdes.String(), Serdes.String()));
            s.toTable().toStream().to("sout1");
            s.selectKey((k, v) -> v).toTable(Named.as("keyed"), Materialized.as("keyed-store"))
             .filter((k, v) -> true, Materialized.as("f-store")).toStream().to("sout2");
            s.selectKey((k, v) -> v).toTable().toStream().to("sout3");
            out("totable", b);
        }
    }
}
