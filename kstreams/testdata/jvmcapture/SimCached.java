import org.apache.kafka.common.serialization.*;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.*;
import org.apache.kafka.streams.kstream.*;
import org.apache.kafka.streams.state.*;
import org.apache.kafka.streams.test.TestRecord;
import java.time.Duration;
import java.util.*;
import java.nio.file.*;

// Pipes the scenarios of kstreams/kstreamstest/jvm_test.go through Kafka
// Streams 4.4.0's TopologyTestDriver (in-memory stores, caching off) and
// writes every record of the listed topics as "topic key=<hex> value=<hex|null> ts=<ms>".
public class SimCached {
    static String hex(byte[] b) {
        if (b == null) return "null";
        StringBuilder sb = new StringBuilder();
        for (byte x : b) sb.append(String.format("%02x", x));
        return sb.toString();
    }

    interface Feed { void run(TopologyTestDriver d); }

    static void run(String name, StreamsBuilder b, Feed feed, String... topics) throws Exception {
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, "app");
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "dummy:9092");
        
        p.put(StreamsConfig.DSL_STORE_SUPPLIERS_CLASS_CONFIG, BuiltInDslStoreSuppliers.InMemoryDslStoreSuppliers.class);
        p.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        p.put(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        StringBuilder sb = new StringBuilder();
        try (TopologyTestDriver d = new TopologyTestDriver(b.build(), p)) {
            feed.run(d);
            for (String t : topics) {
                TestOutputTopic<byte[], byte[]> out = d.createOutputTopic(t, new ByteArrayDeserializer(), new ByteArrayDeserializer());
                for (TestRecord<byte[], byte[]> r : out.readRecordsToList()) {
                    sb.append(t).append(" key=").append(hex(r.key())).append(" value=").append(hex(r.value())).append(" ts=").append(r.timestamp());
                    for (org.apache.kafka.common.header.Header h : r.headers()) sb.append(" h:").append(h.key()).append("=").append(hex(h.value()));
                    sb.append("\n");
                }
            }
        }
        Files.writeString(Path.of("out/" + name + ".cached.txt"), sb.toString());
    }

    static TestInputTopic<String, String> in(TopologyTestDriver d, String t) {
        return d.createInputTopic(t, new StringSerializer(), new StringSerializer());
    }

    public static void main(String[] a) throws Exception {
        Files.createDirectories(Path.of("out"));
        {
            StreamsBuilder b = new StreamsBuilder();
            Map<String, KStream<String, String>> m = b.stream("in", Consumed.with(Serdes.String(), Serdes.String()))
                .split(Named.as("s-"))
                .branch((k, v) -> v.startsWith("a"))
                .branch((k, v) -> v.startsWith("b") || v.startsWith("a"), Branched.withFunction(s -> s.mapValues(v -> v + "!"), "bee"))
                .defaultBranch();
            for (Map.Entry<String, KStream<String, String>> e : new TreeMap<>(m).entrySet()) e.getValue().to("out-" + e.getKey());
            run("split", b, d -> {
                TestInputTopic<String, String> i = in(d, "in");
                i.pipeInput("k", "apple", 1); i.pipeInput("k", "banana", 2); i.pipeInput("k", "cherry", 3); i.pipeInput("j", "avocado", 4);
            }, "out-s-0", "out-s-1", "out-s-bee");
        }
        {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> src = b.stream("in", Consumed.with(Serdes.String(), Serdes.String()));
            src.filter((k, v) -> !v.isEmpty()).filterNot((k, v) -> "skip".equals(k))
                .mapValues(v -> (long) v.length()).to("lens", Produced.with(Serdes.String(), Serdes.Long()));
            // Go functions see a null key as "" (the zero string): the Java twin says so.
            src.map((k, v) -> KeyValue.pair(v, k == null ? "" : k)).to("swapped");
            src.flatMap((k, v) -> List.of(KeyValue.pair((k == null ? "" : k) + "1", v), KeyValue.pair((k == null ? "" : k) + "2", v))).to("pairs");
            src.flatMapValues(v -> Arrays.asList(v.split(","))).selectKey((k, v) -> v).peek((k, v) -> {}).to("parts");
            run("stateless", b, d -> {
                TestInputTopic<String, String> i = in(d, "in");
                org.apache.kafka.common.header.internals.RecordHeaders hs = new org.apache.kafka.common.header.internals.RecordHeaders();
                hs.add("h1", new byte[]{1, 2});
                i.pipeInput(new TestRecord<>("a", "x,yz", hs, 7L));
                i.pipeInput("skip", "q", 8);
                i.pipeInput("b", "", 9);
                i.pipeInput(null, "n", 10);
            }, "lens", "swapped", "pairs", "parts");
        }
        {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> src = b.stream("in", Consumed.with(Serdes.String(), Serdes.String()));
            src.groupBy((k, v) -> v, Grouped.with("by-v", Serdes.String(), Serdes.String()))
                .aggregate(() -> "", (k, v, agg) -> agg + v.length(), Materialized.with(Serdes.String(), Serdes.String()))
                .toStream().to("out");
            run("headers-aggregate", b, d -> {
                TestInputTopic<String, String> i = in(d, "in");
                org.apache.kafka.common.header.internals.RecordHeaders hs = new org.apache.kafka.common.header.internals.RecordHeaders();
                hs.add("trace", "t1".getBytes());
                i.pipeInput(new TestRecord<>("a", "x", hs, 3L));
                i.pipeInput("b", "x", 2);
            }, "out", "app-by-v-repartition", "app-KSTREAM-AGGREGATE-STATE-STORE-0000000002-changelog");
        }
        {
            StreamsBuilder b = new StreamsBuilder();
            b.stream("streams-plaintext-input", Consumed.with(Serdes.String(), Serdes.String()))
                .flatMapValues(v -> Arrays.asList(v.toLowerCase(Locale.ROOT).split("\\s+")))
                .groupBy((k, w) -> w).count()
                .toStream().to("streams-wordcount-output", Produced.with(Serdes.String(), Serdes.Long()));
            run("wordcount", b, d -> {
                in(d, "streams-plaintext-input").pipeInput("k1", "Hello Kafka Streams", 100);
                in(d, "streams-plaintext-input").pipeInput("k2", "hello world", 50);
            }, "streams-wordcount-output", "app-KSTREAM-AGGREGATE-STATE-STORE-0000000003-changelog", "app-KSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition");
        }
        {
            StreamsBuilder b = new StreamsBuilder();
            KGroupedStream<String, String> g = b.stream("in", Consumed.with(Serdes.String(), Serdes.String())).groupByKey();
            g.reduce((x, y) -> x + "+" + y, Materialized.as("reduced")).toStream().to("reduced-out");
            g.aggregate(() -> 10L, (k, v, agg) -> agg + v.length(), Materialized.<String, Long, KeyValueStore<Bytes, byte[]>>as("lengths").withValueSerde(Serdes.Long()))
                .toStream().to("lengths-out", Produced.with(Serdes.String(), Serdes.Long()));
            run("reduce-aggregate", b, d -> {
                TestInputTopic<String, String> i = in(d, "in");
                i.pipeInput("k", "a", 5); i.pipeInput("k", "bb", 3); i.pipeInput("k", "ccc", 9);
                i.pipeInput(null, "x", 10); i.pipeInput("k", null, 11);
            }, "reduced-out", "lengths-out", "app-reduced-changelog", "app-lengths-changelog");
        }
        {
            StreamsBuilder b = new StreamsBuilder();
            b.stream("in", Consumed.with(Serdes.String(), Serdes.String())).groupByKey()
                .windowedBy(TimeWindows.ofSizeAndGrace(Duration.ofMillis(10), Duration.ofMillis(5)))
                .count(Materialized.as("counts")).toStream()
                .to("out", Produced.with(WindowedSerdes.timeWindowedSerdeFrom(String.class, 10), Serdes.Long()));
            run("windowed-count", b, d -> {
                for (long ts : new long[]{1, 12, 3, 16, 4}) in(d, "in").pipeInput("k", "v", ts);
            }, "out", "app-counts-changelog");
        }
        {
            StreamsBuilder b = new StreamsBuilder();
            b.stream("in", Consumed.with(Serdes.String(), Serdes.String())).groupByKey()
                .windowedBy(TimeWindows.ofSizeWithNoGrace(Duration.ofMillis(10)).advanceBy(Duration.ofMillis(5)))
                .count().toStream()
                .to("out", Produced.with(WindowedSerdes.timeWindowedSerdeFrom(String.class, 10), Serdes.Long()));
            run("hopping-count", b, d -> {
                for (long ts : new long[]{7, 13, 2}) in(d, "in").pipeInput("k", "v", ts);
            }, "out", "app-KSTREAM-AGGREGATE-STATE-STORE-0000000001-changelog");
        }
        {
            StreamsBuilder b = new StreamsBuilder();
            b.stream("in", Consumed.with(Serdes.String(), Serdes.String())).groupByKey()
                .windowedBy(SessionWindows.ofInactivityGapAndGrace(Duration.ofMillis(10), Duration.ofMillis(20)))
                .count(Materialized.as("sessions")).toStream()
                .to("out", Produced.with(WindowedSerdes.sessionWindowedSerdeFrom(String.class), Serdes.Long()));
            run("session-count", b, d -> {
                for (long ts : new long[]{0, 30, 15, 22}) in(d, "in").pipeInput("k", "v", ts);
                in(d, "in").pipeInput("other", "v", 1);
            }, "out", "app-sessions-changelog");
        }
        {
            StreamsBuilder b = new StreamsBuilder();
            b.table("users", Consumed.with(Serdes.String(), Serdes.String()), Materialized.as("users-store")).toStream().to("users-out");
            run("table-source", b, d -> {
                in(d, "users").pipeInput("u1", "alice", 5);
                in(d, "users").pipeInput("u1", (String) null, 6);
                in(d, "users").pipeInput("u2", "bob", 4);
            }, "users-out", "app-users-store-changelog");
        }
        {
            StreamsBuilder b = new StreamsBuilder();
            b.stream("in", Consumed.with(Serdes.String(), Serdes.String()))
                .selectKey((k, v) -> v).groupByKey(Grouped.as("by-value"))
                .windowedBy(SessionWindows.ofInactivityGapWithNoGrace(Duration.ofMillis(5)))
                .reduce((x, y) -> x + y).toStream()
                .to("out", Produced.with(WindowedSerdes.sessionWindowedSerdeFrom(String.class), Serdes.String()));
            run("session-reduce", b, d -> {
                TestInputTopic<String, String> i = in(d, "in");
                i.pipeInput("a", "x", 1); i.pipeInput("b", "x", 4); i.pipeInput("c", "y", 4); i.pipeInput("d", "x", 20);
            }, "out", "app-by-value-repartition", "app-KSTREAM-REDUCE-STATE-STORE-0000000002-changelog");
        }
    }
}
