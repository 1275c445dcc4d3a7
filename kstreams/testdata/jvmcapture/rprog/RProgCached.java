import org.apache.kafka.common.serialization.*;
import org.apache.kafka.streams.*;
import org.apache.kafka.streams.kstream.*;
import org.apache.kafka.streams.state.*;
import org.apache.kafka.streams.test.TestRecord;
import java.util.*;
import java.nio.file.*;

public class RProgCached {
    static String hex(byte[] b) {
        if (b == null) return "null";
        StringBuilder sb = new StringBuilder();
        for (byte x : b) sb.append(String.format("%02x", x));
        return sb.toString();
    }
    static void run(String name, StreamsBuilder b, java.util.function.Consumer<TopologyTestDriver> feed) throws Exception {
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, "app");
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "dummy:9092");
        
        p.put(StreamsConfig.DSL_STORE_SUPPLIERS_CLASS_CONFIG, BuiltInDslStoreSuppliers.InMemoryDslStoreSuppliers.class);
        p.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        p.put(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        StringBuilder sb = new StringBuilder();
        try (TopologyTestDriver d = new TopologyTestDriver(b.build(), p)) {
            feed.accept(d);
            for (String t : new TreeSet<>(d.producedTopicNames())) {
                for (TestRecord<byte[], byte[]> r : d.createOutputTopic(t, new ByteArrayDeserializer(), new ByteArrayDeserializer()).readRecordsToList()) {
                    sb.append(t).append(" key=").append(hex(r.key())).append(" value=").append(hex(r.value())).append(" ts=").append(r.timestamp()).append("\n");
                }
            }
        }
        Files.writeString(Path.of("specs/" + name + ".cached.txt"), sb.toString());
    }
    static void p000() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        v0.to("o1");
        v0.to("o2");
        v0.groupByKey().reduce((x, y) -> x + y).toStream().to("o3");
        v0.to("o4");
        KStream<String, String> v1 = v0.filter((k, x) -> x.length() % 2 == 0);
        KStream<String, String> v2 = v0.peek((k, x) -> {});
        KStream<String, String> v3 = v2.filterNot((k, x) -> x.startsWith("b"));
        KStream<String, String> v4 = v0.merge(v2);
        KStream<String, String> v5 = v2.flatMapValues(x -> List.of(x, x + "f"));
        KStream<String, String> v6 = v3.map((k, x) -> KeyValue.pair(x, k));
        run("000", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "x", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "yy", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "x", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "yy", 5L);
        });
    }
    static void p001() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = b.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v2 = v1.map((k, x) -> KeyValue.pair(x, k));
        KStream<String, String> v3 = v1.merge(v2);
        KStream<String, String> v4 = v2.selectKey((k, x) -> x.substring(0, 1));
        v3.to("o1");
        v2.groupByKey().reduce((x, y) -> x + y).toStream().to("o2");
        v0.to("o3");
        v2.groupByKey().reduce((x, y) -> x + y).toStream().to("o4");
        v4.groupByKey().reduce((x, y) -> x + y).toStream().to("o5");
        KStream<String, String> v5 = v2.merge(v1);
        v0.groupByKey().reduce((x, y) -> x + y).toStream().to("o6");
        v2.to("o7");
        v0.to("o8");
        v2.groupByKey().reduce((x, y) -> x + y).toStream().to("o9");
        KStream<String, String> v6 = v1.merge(v2);
        run("001", b, d -> {
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("a", "q", 4L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("a", "x", 2L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "yy", 2L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("a", "ab", 1L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("c", "q", 6L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "ab", 10L);
        });
    }
    static void p002() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        v0.groupByKey().count().toStream().to("o1", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v1 = v0.peek((k, x) -> {});
        KStream<String, String> v2 = v1.filterNot((k, x) -> x.startsWith("b"));
        KStream<String, String> v3 = v1.peek((k, x) -> {});
        v1.groupByKey().count().toStream().to("o2", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v4 = v0.filter((k, x) -> x.length() % 2 == 0);
        v4.groupByKey().count().toStream().to("o3", Produced.with(Serdes.String(), Serdes.Long()));
        v2.to("o4");
        KStream<String, String> v5 = v4.selectKey((k, x) -> x.substring(0, 1));
        KStream<String, String> v6 = v1.peek((k, x) -> {});
        v2.to("o5");
        KStream<String, String> v7 = v3.flatMapValues(x -> List.of(x, x + "f"));
        KStream<String, String> v8 = v1.flatMapValues(x -> List.of(x, x + "f"));
        v3.groupByKey().reduce((x, y) -> x + y).toStream().to("o6");
        run("002", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "ab", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "ab", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "bz", 1L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "x", 6L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "bz", 3L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "bz", 8L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "ab", 8L);
        });
    }
    static void p003() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = b.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v2 = v0.flatMapValues(x -> List.of(x, x + "f"));
        KStream<String, String> v3 = v1.flatMapValues(x -> List.of(x, x + "f"));
        v0.to("o1");
        v0.groupByKey().reduce((x, y) -> x + y).toStream().to("o2");
        v3.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o3", Produced.with(Serdes.String(), Serdes.Long()));
        v2.to("o4");
        KStream<String, String> v4 = v3.merge(v1);
        KStream<String, String> v5 = v1.peek((k, x) -> {});
        v0.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o5", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v6 = v3.flatMap((k, x) -> List.of(KeyValue.pair(k + "1", x), KeyValue.pair(x, k)));
        v2.groupByKey().count().toStream().to("o6", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v7 = v4.map((k, x) -> KeyValue.pair(x, k));
        v3.to("o7");
        v5.groupByKey().reduce((x, y) -> x + y).toStream().to("o8");
        run("003", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "q", 0L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("d", "q", 4L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("d", "ab", 5L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "x", 5L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "ab", 5L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("a", "q", 7L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("b", "ab", 4L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "bz", 7L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "yy", 9L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("b", "x", 14L);
        });
    }
    static void p004() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = v0.peek((k, x) -> {});
        v1.to("o1");
        v0.groupByKey().reduce((x, y) -> x + y).toStream().to("o2");
        KStream<String, String> v2 = v1.filterNot((k, x) -> x.startsWith("b"));
        v1.groupByKey().count().toStream().to("o3", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v3 = v2.flatMapValues(x -> List.of(x, x + "f"));
        KStream<String, String> v4 = v3.map((k, x) -> KeyValue.pair(x, k));
        v0.to("o4");
        KStream<String, String> v5 = v3.merge(v4);
        v3.to("o5");
        run("004", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "yy", 5L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "ab", 10L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "yy", 7L);
        });
    }
    static void p005() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = v0.flatMap((k, x) -> List.of(KeyValue.pair(k + "1", x), KeyValue.pair(x, k)));
        KStream<String, String> v2 = v1.selectKey((k, x) -> x.substring(0, 1));
        v1.groupByKey().reduce((x, y) -> x + y).toStream().to("o1");
        v1.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o2", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v3 = v1.merge(v0);
        v2.groupByKey().count().toStream().to("o3", Produced.with(Serdes.String(), Serdes.Long()));
        v0.to("o4");
        v0.to("o5");
        KStream<String, String> v4 = v2.peek((k, x) -> {});
        KStream<String, String> v5 = v3.filterNot((k, x) -> x.startsWith("b"));
        v2.to("o6");
        v4.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o7", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v6 = v2.selectKey((k, x) -> x.substring(0, 1));
        run("005", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "q", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "q", 2L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "q", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "yy", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "q", 5L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "x", 9L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "ab", 8L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "ab", 13L);
        });
    }
    static void p006() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = v0.flatMapValues(x -> List.of(x, x + "f"));
        KStream<String, String> v2 = v1.map((k, x) -> KeyValue.pair(x, k));
        KStream<String, String> v3 = v1.peek((k, x) -> {});
        v2.to("o1");
        v1.to("o2");
        run("006", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "x", 1L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "yy", 5L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "x", 3L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "bz", 1L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "bz", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "q", 3L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "x", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "yy", 0L);
        });
    }
    static void p007() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = b.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v2 = v0.mapValues(x -> x + "m");
        v1.groupByKey().reduce((x, y) -> x + y).toStream().to("o1");
        v2.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o2", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v3 = v0.peek((k, x) -> {});
        KStream<String, String> v4 = v2.selectKey((k, x) -> x.substring(0, 1));
        run("007", b, d -> {
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("a", "q", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "yy", 0L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("b", "ab", 0L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("d", "yy", 0L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("c", "yy", 1L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("c", "ab", 2L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("b", "ab", 4L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "ab", 7L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("d", "ab", 12L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("d", "q", 10L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "yy", 15L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "bz", 20L);
        });
    }
    static void p008() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = b.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v2 = v0.mapValues(x -> x + "m");
        v1.to("o1");
        KStream<String, String> v3 = v1.peek((k, x) -> {});
        KStream<String, String> v4 = v1.flatMap((k, x) -> List.of(KeyValue.pair(k + "1", x), KeyValue.pair(x, k)));
        KStream<String, String> v5 = v2.merge(v3);
        v5.groupByKey().count().toStream().to("o2", Produced.with(Serdes.String(), Serdes.Long()));
        v0.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o3", Produced.with(Serdes.String(), Serdes.Long()));
        run("008", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "x", 4L);
        });
    }
    static void p009() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = b.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        v1.to("o1");
        KStream<String, String> v2 = v0.merge(v1);
        v0.to("o2");
        KStream<String, String> v3 = v1.mapValues(x -> x + "m");
        KStream<String, String> v4 = v0.filterNot((k, x) -> x.startsWith("b"));
        v0.to("o3");
        KStream<String, String> v5 = v3.merge(v4);
        KStream<String, String> v6 = v1.filter((k, x) -> x.length() % 2 == 0);
        KStream<String, String> v7 = v6.filter((k, x) -> x.length() % 2 == 0);
        KStream<String, String> v8 = v0.merge(v2);
        KStream<String, String> v9 = v2.peek((k, x) -> {});
        KStream<String, String> v10 = v8.merge(v1);
        v1.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o4", Produced.with(Serdes.String(), Serdes.Long()));
        run("009", b, d -> {
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("a", "bz", 1L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "q", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "yy", 4L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "q", 9L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "yy", 11L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("b", "q", 8L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("c", "x", 6L);
        });
    }
    static void p010() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = b.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v2 = v1.flatMap((k, x) -> List.of(KeyValue.pair(k + "1", x), KeyValue.pair(x, k)));
        KStream<String, String> v3 = v2.selectKey((k, x) -> x.substring(0, 1));
        KStream<String, String> v4 = v2.merge(v3);
        KStream<String, String> v5 = v0.filter((k, x) -> x.length() % 2 == 0);
        v1.groupByKey().count().toStream().to("o1", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v6 = v0.map((k, x) -> KeyValue.pair(x, k));
        KStream<String, String> v7 = v5.map((k, x) -> KeyValue.pair(x, k));
        KStream<String, String> v8 = v5.merge(v2);
        KStream<String, String> v9 = v4.flatMap((k, x) -> List.of(KeyValue.pair(k + "1", x), KeyValue.pair(x, k)));
        v8.to("o2");
        run("010", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "ab", 2L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("b", "yy", 4L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("a", "x", 9L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("c", "q", 14L);
        });
    }
    static void p011() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = b.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v2 = v1.selectKey((k, x) -> x.substring(0, 1));
        KStream<String, String> v3 = v2.map((k, x) -> KeyValue.pair(x, k));
        v3.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o1", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v4 = v0.flatMap((k, x) -> List.of(KeyValue.pair(k + "1", x), KeyValue.pair(x, k)));
        KStream<String, String> v5 = v2.filter((k, x) -> x.length() % 2 == 0);
        v5.groupByKey().count().toStream().to("o2", Produced.with(Serdes.String(), Serdes.Long()));
        v5.to("o3");
        KStream<String, String> v6 = v0.flatMap((k, x) -> List.of(KeyValue.pair(k + "1", x), KeyValue.pair(x, k)));
        KStream<String, String> v7 = v1.peek((k, x) -> {});
        v6.to("o4");
        KStream<String, String> v8 = v2.merge(v7);
        KStream<String, String> v9 = v0.filterNot((k, x) -> x.startsWith("b"));
        run("011", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "q", 3L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("c", "q", 8L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "ab", 7L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("a", "q", 9L);
        });
    }
    static void p012() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = b.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        v0.groupByKey().reduce((x, y) -> x + y).toStream().to("o1");
        KStream<String, String> v2 = v1.filterNot((k, x) -> x.startsWith("b"));
        KStream<String, String> v3 = v1.mapValues(x -> x + "m");
        v2.to("o2");
        v2.to("o3");
        v3.to("o4");
        KStream<String, String> v4 = v1.mapValues(x -> x + "m");
        run("012", b, d -> {
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("b", "ab", 5L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("a", "ab", 3L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("c", "yy", 8L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("a", "yy", 9L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "ab", 11L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "ab", 8L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("c", "ab", 5L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("a", "yy", 4L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "ab", 4L);
        });
    }
    static void p013() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        v0.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o1", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v1 = v0.mapValues(x -> x + "m");
        KStream<String, String> v2 = v1.mapValues(x -> x + "m");
        KStream<String, String> v3 = v1.peek((k, x) -> {});
        KStream<String, String> v4 = v1.flatMap((k, x) -> List.of(KeyValue.pair(k + "1", x), KeyValue.pair(x, k)));
        KStream<String, String> v5 = v4.flatMap((k, x) -> List.of(KeyValue.pair(k + "1", x), KeyValue.pair(x, k)));
        v4.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o2", Produced.with(Serdes.String(), Serdes.Long()));
        v4.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o3", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v6 = v2.mapValues(x -> x + "m");
        KStream<String, String> v7 = v1.peek((k, x) -> {});
        KStream<String, String> v8 = v0.filter((k, x) -> x.length() % 2 == 0);
        v1.groupByKey().count().toStream().to("o4", Produced.with(Serdes.String(), Serdes.Long()));
        v0.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o5", Produced.with(Serdes.String(), Serdes.Long()));
        run("013", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "ab", 3L);
        });
    }
    static void p014() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = b.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        v1.to("o1");
        KStream<String, String> v2 = v1.mapValues(x -> x + "m");
        v2.to("o2");
        v2.groupByKey().count().toStream().to("o3", Produced.with(Serdes.String(), Serdes.Long()));
        v2.to("o4");
        KStream<String, String> v3 = v2.selectKey((k, x) -> x.substring(0, 1));
        v3.groupByKey().reduce((x, y) -> x + y).toStream().to("o5");
        KStream<String, String> v4 = v0.filter((k, x) -> x.length() % 2 == 0);
        KStream<String, String> v5 = v3.filterNot((k, x) -> x.startsWith("b"));
        v2.to("o6");
        KStream<String, String> v6 = v4.peek((k, x) -> {});
        KStream<String, String> v7 = v2.map((k, x) -> KeyValue.pair(x, k));
        run("014", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "x", 3L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "q", 6L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "ab", 6L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("b", "ab", 5L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "x", 5L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "x", 8L);
        });
    }
    static void p015() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = b.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v2 = v0.flatMap((k, x) -> List.of(KeyValue.pair(k + "1", x), KeyValue.pair(x, k)));
        KStream<String, String> v3 = v2.flatMap((k, x) -> List.of(KeyValue.pair(k + "1", x), KeyValue.pair(x, k)));
        KStream<String, String> v4 = v0.flatMapValues(x -> List.of(x, x + "f"));
        KStream<String, String> v5 = v1.merge(v0);
        KStream<String, String> v6 = v4.peek((k, x) -> {});
        v6.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o1", Produced.with(Serdes.String(), Serdes.Long()));
        v3.groupByKey().reduce((x, y) -> x + y).toStream().to("o2");
        v5.groupByKey().count().toStream().to("o3", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v7 = v4.mapValues(x -> x + "m");
        KStream<String, String> v8 = v0.filterNot((k, x) -> x.startsWith("b"));
        run("015", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "q", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "ab", 0L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("a", "bz", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "q", 0L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("b", "q", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "ab", 4L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("c", "ab", 3L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "ab", 0L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("c", "bz", 5L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("a", "q", 2L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "q", 3L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("a", "x", 4L);
        });
    }
    static void p016() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = b.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v2 = v1.flatMapValues(x -> List.of(x, x + "f"));
        KStream<String, String> v3 = v1.filter((k, x) -> x.length() % 2 == 0);
        v3.to("o1");
        v0.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o2", Produced.with(Serdes.String(), Serdes.Long()));
        v3.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o3", Produced.with(Serdes.String(), Serdes.Long()));
        v3.to("o4");
        KStream<String, String> v4 = v3.merge(v0);
        v1.to("o5");
        KStream<String, String> v5 = v4.map((k, x) -> KeyValue.pair(x, k));
        run("016", b, d -> {
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("a", "ab", 3L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "bz", 7L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("c", "bz", 11L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("b", "yy", 10L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("c", "ab", 7L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "x", 12L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "q", 14L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "q", 18L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "yy", 18L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "bz", 23L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("a", "yy", 27L);
        });
    }
    static void p017() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = v0.peek((k, x) -> {});
        v0.to("o1");
        v0.to("o2");
        KStream<String, String> v2 = v0.filter((k, x) -> x.length() % 2 == 0);
        v2.groupByKey().count().toStream().to("o3", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v3 = v1.flatMapValues(x -> List.of(x, x + "f"));
        KStream<String, String> v4 = v3.selectKey((k, x) -> x.substring(0, 1));
        v4.to("o4");
        v1.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o5", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v5 = v2.filterNot((k, x) -> x.startsWith("b"));
        run("017", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "x", 4L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "ab", 4L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "bz", 5L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "bz", 2L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "x", 2L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "bz", 3L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "x", 4L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "x", 9L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "yy", 13L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "yy", 16L);
        });
    }
    static void p018() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = v0.flatMapValues(x -> List.of(x, x + "f"));
        KStream<String, String> v2 = v1.flatMap((k, x) -> List.of(KeyValue.pair(k + "1", x), KeyValue.pair(x, k)));
        KStream<String, String> v3 = v1.merge(v0);
        KStream<String, String> v4 = v2.map((k, x) -> KeyValue.pair(x, k));
        v4.to("o1");
        v1.groupByKey().count().toStream().to("o2", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v5 = v0.map((k, x) -> KeyValue.pair(x, k));
        KStream<String, String> v6 = v2.mapValues(x -> x + "m");
        v3.groupByKey().count().toStream().to("o3", Produced.with(Serdes.String(), Serdes.Long()));
        v1.to("o4");
        run("018", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "yy", 4L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "x", 4L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "ab", 1L);
        });
    }
    static void p019() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = v0.mapValues(x -> x + "m");
        KStream<String, String> v2 = v0.merge(v1);
        v1.to("o1");
        v1.to("o2");
        KStream<String, String> v3 = v0.mapValues(x -> x + "m");
        v3.to("o3");
        v3.to("o4");
        KStream<String, String> v4 = v3.flatMapValues(x -> List.of(x, x + "f"));
        v4.to("o5");
        KStream<String, String> v5 = v1.peek((k, x) -> {});
        v3.to("o6");
        KStream<String, String> v6 = v5.mapValues(x -> x + "m");
        KStream<String, String> v7 = v5.flatMapValues(x -> List.of(x, x + "f"));
        run("019", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "x", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "ab", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "ab", 1L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "bz", 4L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "q", 3L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "x", 8L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "bz", 6L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "yy", 5L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "ab", 8L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "ab", 5L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "ab", 9L);
        });
    }
    static void p020() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        v0.to("o1");
        KStream<String, String> v1 = v0.map((k, x) -> KeyValue.pair(x, k));
        v1.to("o2");
        v0.to("o3");
        KStream<String, String> v2 = v0.filter((k, x) -> x.length() % 2 == 0);
        KStream<String, String> v3 = v0.merge(v1);
        v0.to("o4");
        v1.to("o5");
        KStream<String, String> v4 = v0.filterNot((k, x) -> x.startsWith("b"));
        KStream<String, String> v5 = v4.merge(v2);
        v2.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o6", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v6 = v2.map((k, x) -> KeyValue.pair(x, k));
        run("020", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "q", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "bz", 5L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "x", 5L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "ab", 5L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "q", 3L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "ab", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "bz", 3L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "q", 6L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "ab", 3L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "ab", 2L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "yy", 5L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "yy", 9L);
        });
    }
    static void p021() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        v0.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o1", Produced.with(Serdes.String(), Serdes.Long()));
        v0.to("o2");
        KStream<String, String> v1 = v0.mapValues(x -> x + "m");
        KStream<String, String> v2 = v1.flatMap((k, x) -> List.of(KeyValue.pair(k + "1", x), KeyValue.pair(x, k)));
        v0.to("o3");
        KStream<String, String> v3 = v2.flatMapValues(x -> List.of(x, x + "f"));
        KStream<String, String> v4 = v2.peek((k, x) -> {});
        KStream<String, String> v5 = v1.flatMapValues(x -> List.of(x, x + "f"));
        run("021", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "ab", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "yy", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "q", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "x", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "ab", 2L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "bz", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "ab", 3L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "ab", 6L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "bz", 3L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "x", 4L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "yy", 3L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "q", 1L);
        });
    }
    static void p022() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = v0.flatMap((k, x) -> List.of(KeyValue.pair(k + "1", x), KeyValue.pair(x, k)));
        v0.groupByKey().count().toStream().to("o1", Produced.with(Serdes.String(), Serdes.Long()));
        v1.groupByKey().count().toStream().to("o2", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v2 = v1.flatMapValues(x -> List.of(x, x + "f"));
        v1.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o3", Produced.with(Serdes.String(), Serdes.Long()));
        run("022", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "ab", 4L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "bz", 4L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "yy", 4L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "q", 2L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "bz", 6L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "bz", 11L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "q", 15L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "q", 19L);
        });
    }
    static void p023() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = b.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v2 = v0.merge(v1);
        KStream<String, String> v3 = v1.mapValues(x -> x + "m");
        KStream<String, String> v4 = v3.selectKey((k, x) -> x.substring(0, 1));
        run("023", b, d -> {
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("d", "yy", 5L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "q", 10L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "q", 13L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "q", 10L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "yy", 11L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("c", "bz", 9L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("c", "q", 12L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "ab", 16L);
        });
    }
    static void p024() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = b.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v2 = v0.filter((k, x) -> x.length() % 2 == 0);
        KStream<String, String> v3 = v0.flatMapValues(x -> List.of(x, x + "f"));
        v0.groupByKey().count().toStream().to("o1", Produced.with(Serdes.String(), Serdes.Long()));
        v3.groupByKey().reduce((x, y) -> x + y).toStream().to("o2");
        v1.to("o3");
        KStream<String, String> v4 = v3.filterNot((k, x) -> x.startsWith("b"));
        v0.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o4", Produced.with(Serdes.String(), Serdes.Long()));
        v1.groupByKey().count().toStream().to("o5", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v5 = v1.map((k, x) -> KeyValue.pair(x, k));
        v4.to("o6");
        v4.groupByKey().reduce((x, y) -> x + y).toStream().to("o7");
        v3.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o8", Produced.with(Serdes.String(), Serdes.Long()));
        v2.to("o9");
        run("024", b, d -> {
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("c", "x", 3L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "yy", 4L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "q", 9L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("d", "x", 13L);
        });
    }
    static void p025() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = b.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v2 = v0.flatMap((k, x) -> List.of(KeyValue.pair(k + "1", x), KeyValue.pair(x, k)));
        KStream<String, String> v3 = v0.merge(v1);
        KStream<String, String> v4 = v3.merge(v2);
        KStream<String, String> v5 = v1.merge(v0);
        KStream<String, String> v6 = v2.flatMapValues(x -> List.of(x, x + "f"));
        KStream<String, String> v7 = v4.merge(v0);
        v5.to("o1");
        v7.groupByKey().reduce((x, y) -> x + y).toStream().to("o2");
        KStream<String, String> v8 = v4.map((k, x) -> KeyValue.pair(x, k));
        KStream<String, String> v9 = v4.merge(v8);
        KStream<String, String> v10 = v8.selectKey((k, x) -> x.substring(0, 1));
        KStream<String, String> v11 = v3.merge(v2);
        run("025", b, d -> {
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("c", "q", 0L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("d", "ab", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "x", 3L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "q", 5L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "yy", 10L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "q", 12L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("d", "bz", 16L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "bz", 20L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "bz", 19L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "bz", 18L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "bz", 16L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("b", "x", 17L);
        });
    }
    static void p026() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        v0.groupByKey().reduce((x, y) -> x + y).toStream().to("o1");
        v0.to("o2");
        v0.groupByKey().reduce((x, y) -> x + y).toStream().to("o3");
        KStream<String, String> v1 = v0.filterNot((k, x) -> x.startsWith("b"));
        v1.to("o4");
        run("026", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "ab", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "yy", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "bz", 2L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "bz", 2L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "x", 6L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "yy", 8L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "yy", 6L);
        });
    }
    static void p027() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = b.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v2 = v0.peek((k, x) -> {});
        v2.groupByKey().count().toStream().to("o1", Produced.with(Serdes.String(), Serdes.Long()));
        v0.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o2", Produced.with(Serdes.String(), Serdes.Long()));
        run("027", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "yy", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "x", 0L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("b", "q", 3L);
        });
    }
    static void p028() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = b.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v2 = v1.merge(v0);
        KStream<String, String> v3 = v1.merge(v2);
        v1.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o1", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v4 = v1.selectKey((k, x) -> x.substring(0, 1));
        v0.to("o2");
        v3.groupByKey().count().toStream().to("o3", Produced.with(Serdes.String(), Serdes.Long()));
        run("028", b, d -> {
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("a", "q", 4L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("a", "bz", 6L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "bz", 8L);
        });
    }
    static void p029() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        v0.groupByKey().reduce((x, y) -> x + y).toStream().to("o1");
        v0.groupByKey().reduce((x, y) -> x + y).toStream().to("o2");
        KStream<String, String> v1 = v0.flatMapValues(x -> List.of(x, x + "f"));
        v0.groupByKey().reduce((x, y) -> x + y).toStream().to("o3");
        KStream<String, String> v2 = v0.selectKey((k, x) -> x.substring(0, 1));
        KStream<String, String> v3 = v1.mapValues(x -> x + "m");
        v1.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o4", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v4 = v2.peek((k, x) -> {});
        v4.groupByKey().count().toStream().to("o5", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v5 = v2.peek((k, x) -> {});
        KStream<String, String> v6 = v1.mapValues(x -> x + "m");
        run("029", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "yy", 4L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "x", 5L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "bz", 5L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "bz", 8L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "x", 6L);
        });
    }
    static void p030() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        v0.to("o1");
        v0.groupByKey().count().toStream().to("o2", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v1 = v0.filter((k, x) -> x.length() % 2 == 0);
        v1.to("o3");
        v0.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o4", Produced.with(Serdes.String(), Serdes.Long()));
        v1.to("o5");
        v0.groupByKey().reduce((x, y) -> x + y).toStream().to("o6");
        v1.groupByKey().count().toStream().to("o7", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v2 = v0.flatMapValues(x -> List.of(x, x + "f"));
        KStream<String, String> v3 = v0.flatMap((k, x) -> List.of(KeyValue.pair(k + "1", x), KeyValue.pair(x, k)));
        v1.to("o8");
        v1.groupByKey().count().toStream().to("o9", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v4 = v0.mapValues(x -> x + "m");
        v0.to("o10");
        run("030", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "bz", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "yy", 4L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "bz", 9L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "bz", 13L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "q", 12L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "x", 12L);
        });
    }
    static void p031() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = v0.filterNot((k, x) -> x.startsWith("b"));
        KStream<String, String> v2 = v1.peek((k, x) -> {});
        v0.to("o1");
        v2.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o2", Produced.with(Serdes.String(), Serdes.Long()));
        v0.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o3", Produced.with(Serdes.String(), Serdes.Long()));
        run("031", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "bz", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "bz", 2L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "q", 3L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "yy", 2L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "q", 6L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "yy", 8L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "bz", 5L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "q", 3L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "ab", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "x", 5L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "bz", 10L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "bz", 12L);
        });
    }
    static void p032() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = b.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v2 = v1.flatMapValues(x -> List.of(x, x + "f"));
        KStream<String, String> v3 = v1.mapValues(x -> x + "m");
        KStream<String, String> v4 = v2.flatMap((k, x) -> List.of(KeyValue.pair(k + "1", x), KeyValue.pair(x, k)));
        KStream<String, String> v5 = v4.merge(v2);
        run("032", b, d -> {
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("d", "x", 2L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("d", "x", 4L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "bz", 9L);
        });
    }
    static void p033() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        v0.to("o1");
        KStream<String, String> v1 = v0.peek((k, x) -> {});
        KStream<String, String> v2 = v1.filterNot((k, x) -> x.startsWith("b"));
        KStream<String, String> v3 = v2.peek((k, x) -> {});
        KStream<String, String> v4 = v0.flatMap((k, x) -> List.of(KeyValue.pair(k + "1", x), KeyValue.pair(x, k)));
        KStream<String, String> v5 = v4.flatMapValues(x -> List.of(x, x + "f"));
        KStream<String, String> v6 = v0.peek((k, x) -> {});
        v6.groupByKey().reduce((x, y) -> x + y).toStream().to("o2");
        KStream<String, String> v7 = v1.flatMap((k, x) -> List.of(KeyValue.pair(k + "1", x), KeyValue.pair(x, k)));
        KStream<String, String> v8 = v3.merge(v5);
        KStream<String, String> v9 = v5.selectKey((k, x) -> x.substring(0, 1));
        KStream<String, String> v10 = v8.merge(v5);
        run("033", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "ab", 1L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "bz", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "q", 3L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "x", 5L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "ab", 2L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "q", 4L);
        });
    }
    static void p034() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = b.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        v0.to("o1");
        KStream<String, String> v2 = v1.merge(v0);
        v1.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o2", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v3 = v0.merge(v1);
        v2.to("o3");
        KStream<String, String> v4 = v0.peek((k, x) -> {});
        KStream<String, String> v5 = v3.mapValues(x -> x + "m");
        KStream<String, String> v6 = v0.flatMap((k, x) -> List.of(KeyValue.pair(k + "1", x), KeyValue.pair(x, k)));
        KStream<String, String> v7 = v2.peek((k, x) -> {});
        KStream<String, String> v8 = v3.mapValues(x -> x + "m");
        v7.to("o4");
        KStream<String, String> v9 = v2.flatMapValues(x -> List.of(x, x + "f"));
        run("034", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "bz", 2L);
        });
    }
    static void p035() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        v0.to("o1");
        KStream<String, String> v1 = v0.map((k, x) -> KeyValue.pair(x, k));
        KStream<String, String> v2 = v1.flatMapValues(x -> List.of(x, x + "f"));
        KStream<String, String> v3 = v1.flatMapValues(x -> List.of(x, x + "f"));
        v1.groupByKey().reduce((x, y) -> x + y).toStream().to("o2");
        run("035", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "bz", 2L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "x", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "yy", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "x", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "bz", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "yy", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "bz", 1L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "x", 5L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "yy", 5L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "x", 10L);
        });
    }
    static void p036() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = v0.filterNot((k, x) -> x.startsWith("b"));
        KStream<String, String> v2 = v1.flatMapValues(x -> List.of(x, x + "f"));
        v2.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o1", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v3 = v1.map((k, x) -> KeyValue.pair(x, k));
        KStream<String, String> v4 = v3.map((k, x) -> KeyValue.pair(x, k));
        KStream<String, String> v5 = v1.map((k, x) -> KeyValue.pair(x, k));
        KStream<String, String> v6 = v0.selectKey((k, x) -> x.substring(0, 1));
        v3.groupByKey().reduce((x, y) -> x + y).toStream().to("o2");
        v5.groupByKey().reduce((x, y) -> x + y).toStream().to("o3");
        v5.to("o4");
        v5.to("o5");
        run("036", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "q", 3L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "q", 7L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "bz", 6L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "yy", 3L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "yy", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "bz", 4L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "q", 8L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "q", 12L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "yy", 13L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "q", 11L);
        });
    }
    static void p037() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        v0.groupByKey().count().toStream().to("o1", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v1 = v0.map((k, x) -> KeyValue.pair(x, k));
        KStream<String, String> v2 = v1.merge(v0);
        run("037", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "x", 3L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "yy", 5L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "q", 6L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "yy", 10L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "q", 15L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "x", 13L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "x", 18L);
        });
    }
    static void p038() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        v0.to("o1");
        v0.groupByKey().reduce((x, y) -> x + y).toStream().to("o2");
        v0.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o3", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v1 = v0.flatMap((k, x) -> List.of(KeyValue.pair(k + "1", x), KeyValue.pair(x, k)));
        v0.groupByKey().count().toStream().to("o4", Produced.with(Serdes.String(), Serdes.Long()));
        run("038", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "x", 5L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "x", 6L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "bz", 4L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "ab", 8L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "q", 11L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "bz", 8L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "yy", 9L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "q", 11L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "x", 14L);
        });
    }
    static void p039() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = v0.map((k, x) -> KeyValue.pair(x, k));
        KStream<String, String> v2 = v1.selectKey((k, x) -> x.substring(0, 1));
        v0.to("o1");
        v0.to("o2");
        KStream<String, String> v3 = v1.filterNot((k, x) -> x.startsWith("b"));
        run("039", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "bz", 3L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "ab", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "bz", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "q", 1L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "ab", 5L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "bz", 9L);
        });
    }
    static void p040() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = v0.peek((k, x) -> {});
        v0.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o1", Produced.with(Serdes.String(), Serdes.Long()));
        v1.groupByKey().count().toStream().to("o2", Produced.with(Serdes.String(), Serdes.Long()));
        v1.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o3", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v2 = v1.selectKey((k, x) -> x.substring(0, 1));
        KStream<String, String> v3 = v2.selectKey((k, x) -> x.substring(0, 1));
        v3.to("o4");
        run("040", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "ab", 1L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "bz", 5L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "x", 5L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "bz", 8L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "x", 13L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "ab", 16L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "q", 17L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "x", 21L);
        });
    }
    static void p041() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = b.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        v0.to("o1");
        v0.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o2", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v2 = v1.map((k, x) -> KeyValue.pair(x, k));
        v2.to("o3");
        KStream<String, String> v3 = v0.map((k, x) -> KeyValue.pair(x, k));
        v2.to("o4");
        KStream<String, String> v4 = v3.mapValues(x -> x + "m");
        KStream<String, String> v5 = v4.filter((k, x) -> x.length() % 2 == 0);
        KStream<String, String> v6 = v2.merge(v0);
        KStream<String, String> v7 = v1.filterNot((k, x) -> x.startsWith("b"));
        run("041", b, d -> {
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("c", "yy", 1L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("a", "ab", 0L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("d", "yy", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "q", 1L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("b", "bz", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "bz", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "q", 2L);
        });
    }
    static void p042() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        v0.groupByKey().reduce((x, y) -> x + y).toStream().to("o1");
        KStream<String, String> v1 = v0.map((k, x) -> KeyValue.pair(x, k));
        KStream<String, String> v2 = v0.mapValues(x -> x + "m");
        v0.to("o2");
        KStream<String, String> v3 = v1.merge(v2);
        KStream<String, String> v4 = v3.merge(v1);
        KStream<String, String> v5 = v0.mapValues(x -> x + "m");
        KStream<String, String> v6 = v3.filter((k, x) -> x.length() % 2 == 0);
        run("042", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "ab", 1L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "bz", 4L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "bz", 8L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "ab", 5L);
        });
    }
    static void p043() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = b.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v2 = v0.flatMapValues(x -> List.of(x, x + "f"));
        v0.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o1", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v3 = v1.filterNot((k, x) -> x.startsWith("b"));
        v0.to("o2");
        KStream<String, String> v4 = v1.peek((k, x) -> {});
        KStream<String, String> v5 = v0.filterNot((k, x) -> x.startsWith("b"));
        KStream<String, String> v6 = v2.flatMapValues(x -> List.of(x, x + "f"));
        KStream<String, String> v7 = v3.filterNot((k, x) -> x.startsWith("b"));
        run("043", b, d -> {
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("d", "x", 4L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "ab", 3L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "yy", 7L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "yy", 5L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("c", "bz", 6L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "q", 11L);
        });
    }
    static void p044() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = b.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v2 = v1.peek((k, x) -> {});
        KStream<String, String> v3 = v1.selectKey((k, x) -> x.substring(0, 1));
        KStream<String, String> v4 = v1.merge(v3);
        KStream<String, String> v5 = v1.flatMapValues(x -> List.of(x, x + "f"));
        v1.to("o1");
        v2.groupByKey().reduce((x, y) -> x + y).toStream().to("o2");
        v5.to("o3");
        v3.to("o4");
        run("044", b, d -> {
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("d", "yy", 5L);
        });
    }
    static void p045() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = b.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v2 = v1.merge(v0);
        v2.to("o1");
        v2.to("o2");
        KStream<String, String> v3 = v2.map((k, x) -> KeyValue.pair(x, k));
        v2.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o3", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v4 = v3.merge(v1);
        KStream<String, String> v5 = v4.map((k, x) -> KeyValue.pair(x, k));
        KStream<String, String> v6 = v3.filterNot((k, x) -> x.startsWith("b"));
        run("045", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "q", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "x", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "x", 2L);
        });
    }
    static void p046() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = b.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        v1.groupByKey().count().toStream().to("o1", Produced.with(Serdes.String(), Serdes.Long()));
        v1.to("o2");
        KStream<String, String> v2 = v1.peek((k, x) -> {});
        KStream<String, String> v3 = v2.peek((k, x) -> {});
        v0.to("o3");
        KStream<String, String> v4 = v2.map((k, x) -> KeyValue.pair(x, k));
        v1.to("o4");
        run("046", b, d -> {
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("a", "q", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "bz", 2L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "bz", 4L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "x", 7L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "q", 12L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("d", "ab", 14L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("a", "q", 15L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "x", 18L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "q", 23L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "yy", 26L);
        });
    }
    static void p047() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = b.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v2 = v1.filter((k, x) -> x.length() % 2 == 0);
        KStream<String, String> v3 = v0.filter((k, x) -> x.length() % 2 == 0);
        KStream<String, String> v4 = v3.map((k, x) -> KeyValue.pair(x, k));
        v2.groupByKey().reduce((x, y) -> x + y).toStream().to("o1");
        KStream<String, String> v5 = v4.merge(v1);
        KStream<String, String> v6 = v4.merge(v1);
        run("047", b, d -> {
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("d", "bz", 2L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "x", 0L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("c", "q", 5L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("d", "q", 3L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("a", "q", 2L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("d", "bz", 3L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("a", "bz", 4L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "ab", 9L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("b", "q", 13L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "q", 10L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "x", 8L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "x", 9L);
        });
    }
    static void p048() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = v0.selectKey((k, x) -> x.substring(0, 1));
        KStream<String, String> v2 = v1.map((k, x) -> KeyValue.pair(x, k));
        KStream<String, String> v3 = v1.merge(v0);
        v0.to("o1");
        v3.groupByKey().reduce((x, y) -> x + y).toStream().to("o2");
        KStream<String, String> v4 = v3.filter((k, x) -> x.length() % 2 == 0);
        run("048", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "x", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "x", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "ab", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "q", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "bz", 2L);
        });
    }
    static void p049() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = b.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v2 = v1.selectKey((k, x) -> x.substring(0, 1));
        v0.to("o1");
        KStream<String, String> v3 = v0.flatMapValues(x -> List.of(x, x + "f"));
        run("049", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "q", 1L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("b", "yy", 1L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "q", 6L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("d", "q", 6L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("b", "bz", 5L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("b", "x", 5L);
        });
    }
    static void p050() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = b.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        v1.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o1", Produced.with(Serdes.String(), Serdes.Long()));
        v0.to("o2");
        KStream<String, String> v2 = v1.map((k, x) -> KeyValue.pair(x, k));
        v1.to("o3");
        v2.to("o4");
        KStream<String, String> v3 = v0.mapValues(x -> x + "m");
        v1.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o5", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v4 = v2.map((k, x) -> KeyValue.pair(x, k));
        KStream<String, String> v5 = v4.selectKey((k, x) -> x.substring(0, 1));
        KStream<String, String> v6 = v4.selectKey((k, x) -> x.substring(0, 1));
        KStream<String, String> v7 = v3.merge(v2);
        v7.to("o6");
        v0.groupByKey().count().toStream().to("o7", Produced.with(Serdes.String(), Serdes.Long()));
        run("050", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "q", 5L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "bz", 10L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "bz", 12L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "q", 15L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("b", "q", 20L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "q", 17L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("a", "x", 20L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "bz", 23L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("a", "ab", 26L);
        });
    }
    static void p051() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = b.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v2 = v0.map((k, x) -> KeyValue.pair(x, k));
        v2.to("o1");
        KStream<String, String> v3 = v2.merge(v1);
        KStream<String, String> v4 = v0.filterNot((k, x) -> x.startsWith("b"));
        KStream<String, String> v5 = v2.flatMap((k, x) -> List.of(KeyValue.pair(k + "1", x), KeyValue.pair(x, k)));
        KStream<String, String> v6 = v1.flatMapValues(x -> List.of(x, x + "f"));
        KStream<String, String> v7 = v0.merge(v4);
        v0.groupByKey().count().toStream().to("o2", Produced.with(Serdes.String(), Serdes.Long()));
        v4.groupByKey().count().toStream().to("o3", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v8 = v0.filterNot((k, x) -> x.startsWith("b"));
        v5.to("o4");
        KStream<String, String> v9 = v0.peek((k, x) -> {});
        run("051", b, d -> {
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("a", "ab", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "q", 5L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("c", "yy", 7L);
        });
    }
    static void p052() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        v0.groupByKey().count().toStream().to("o1", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v1 = v0.filterNot((k, x) -> x.startsWith("b"));
        v1.groupByKey().count().toStream().to("o2", Produced.with(Serdes.String(), Serdes.Long()));
        v1.to("o3");
        v1.to("o4");
        v1.to("o5");
        KStream<String, String> v2 = v0.map((k, x) -> KeyValue.pair(x, k));
        KStream<String, String> v3 = v1.map((k, x) -> KeyValue.pair(x, k));
        KStream<String, String> v4 = v3.flatMap((k, x) -> List.of(KeyValue.pair(k + "1", x), KeyValue.pair(x, k)));
        v1.to("o6");
        run("052", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "ab", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "bz", 5L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "yy", 5L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "bz", 2L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "bz", 6L);
        });
    }
    static void p053() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = b.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v2 = v1.mapValues(x -> x + "m");
        v2.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o1", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v3 = v1.merge(v2);
        KStream<String, String> v4 = v1.merge(v0);
        KStream<String, String> v5 = v0.filterNot((k, x) -> x.startsWith("b"));
        v5.groupByKey().reduce((x, y) -> x + y).toStream().to("o2");
        KStream<String, String> v6 = v2.flatMap((k, x) -> List.of(KeyValue.pair(k + "1", x), KeyValue.pair(x, k)));
        v4.to("o3");
        v0.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o4", Produced.with(Serdes.String(), Serdes.Long()));
        v6.to("o5");
        KStream<String, String> v7 = v0.selectKey((k, x) -> x.substring(0, 1));
        KStream<String, String> v8 = v2.selectKey((k, x) -> x.substring(0, 1));
        KStream<String, String> v9 = v2.filter((k, x) -> x.length() % 2 == 0);
        v1.groupByKey().count().toStream().to("o6", Produced.with(Serdes.String(), Serdes.Long()));
        run("053", b, d -> {
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("c", "q", 5L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "x", 8L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "bz", 12L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "ab", 13L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("d", "x", 17L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "bz", 15L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("d", "x", 14L);
        });
    }
    static void p054() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = v0.filter((k, x) -> x.length() % 2 == 0);
        KStream<String, String> v2 = v1.selectKey((k, x) -> x.substring(0, 1));
        v2.to("o1");
        KStream<String, String> v3 = v2.mapValues(x -> x + "m");
        KStream<String, String> v4 = v2.selectKey((k, x) -> x.substring(0, 1));
        v4.groupByKey().reduce((x, y) -> x + y).toStream().to("o2");
        v2.to("o3");
        v0.to("o4");
        v4.to("o5");
        v1.to("o6");
        v3.groupByKey().count().toStream().to("o7", Produced.with(Serdes.String(), Serdes.Long()));
        v0.groupByKey().reduce((x, y) -> x + y).toStream().to("o8");
        v2.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o9", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v5 = v2.peek((k, x) -> {});
        run("054", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "ab", 2L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "x", 4L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "ab", 6L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "q", 3L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "bz", 3L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "q", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "x", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "x", 0L);
        });
    }
    static void p055() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = b.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        v1.groupByKey().reduce((x, y) -> x + y).toStream().to("o1");
        KStream<String, String> v2 = v0.merge(v1);
        v1.to("o2");
        run("055", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "ab", 5L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("a", "yy", 6L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "q", 6L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "yy", 8L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("a", "ab", 12L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("a", "ab", 17L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "q", 17L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("b", "ab", 16L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("c", "yy", 21L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("c", "yy", 18L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "ab", 23L);
        });
    }
    static void p056() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        v0.groupByKey().reduce((x, y) -> x + y).toStream().to("o1");
        v0.groupByKey().reduce((x, y) -> x + y).toStream().to("o2");
        KStream<String, String> v1 = v0.peek((k, x) -> {});
        KStream<String, String> v2 = v0.merge(v1);
        v2.groupByKey().count().toStream().to("o3", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v3 = v0.filterNot((k, x) -> x.startsWith("b"));
        KStream<String, String> v4 = v3.merge(v1);
        v3.to("o4");
        KStream<String, String> v5 = v1.flatMap((k, x) -> List.of(KeyValue.pair(k + "1", x), KeyValue.pair(x, k)));
        KStream<String, String> v6 = v4.mapValues(x -> x + "m");
        v2.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o5", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v7 = v1.merge(v2);
        run("056", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "q", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "yy", 3L);
        });
    }
    static void p057() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = b.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        v1.groupByKey().reduce((x, y) -> x + y).toStream().to("o1");
        KStream<String, String> v2 = v0.filterNot((k, x) -> x.startsWith("b"));
        KStream<String, String> v3 = v1.flatMapValues(x -> List.of(x, x + "f"));
        KStream<String, String> v4 = v2.peek((k, x) -> {});
        run("057", b, d -> {
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("d", "ab", 3L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "ab", 6L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "x", 3L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("b", "q", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "x", 5L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("b", "ab", 4L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("b", "yy", 8L);
        });
    }
    static void p058() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = b.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v2 = v0.mapValues(x -> x + "m");
        KStream<String, String> v3 = v0.peek((k, x) -> {});
        v2.to("o1");
        v3.to("o2");
        KStream<String, String> v4 = v2.flatMap((k, x) -> List.of(KeyValue.pair(k + "1", x), KeyValue.pair(x, k)));
        KStream<String, String> v5 = v2.map((k, x) -> KeyValue.pair(x, k));
        KStream<String, String> v6 = v0.mapValues(x -> x + "m");
        v6.to("o3");
        KStream<String, String> v7 = v6.peek((k, x) -> {});
        run("058", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "ab", 2L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "ab", 5L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "ab", 9L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("b", "bz", 10L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "yy", 10L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "q", 10L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "bz", 12L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("c", "ab", 10L);
        });
    }
    static void p059() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = b.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v2 = v1.merge(v0);
        KStream<String, String> v3 = v2.map((k, x) -> KeyValue.pair(x, k));
        KStream<String, String> v4 = v0.peek((k, x) -> {});
        KStream<String, String> v5 = v2.filter((k, x) -> x.length() % 2 == 0);
        KStream<String, String> v6 = v5.merge(v4);
        v6.groupByKey().reduce((x, y) -> x + y).toStream().to("o1");
        KStream<String, String> v7 = v5.merge(v2);
        v5.groupByKey().reduce((x, y) -> x + y).toStream().to("o2");
        run("059", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "bz", 3L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "yy", 4L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "q", 6L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("b", "q", 5L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("d", "yy", 3L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("d", "ab", 8L);
        });
    }
    static void p060() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = b.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v2 = v0.mapValues(x -> x + "m");
        KStream<String, String> v3 = v1.peek((k, x) -> {});
        v1.groupByKey().reduce((x, y) -> x + y).toStream().to("o1");
        run("060", b, d -> {
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("a", "bz", 3L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "bz", 4L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("a", "ab", 1L);
        });
    }
    static void p061() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        v0.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o1", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v1 = v0.mapValues(x -> x + "m");
        KStream<String, String> v2 = v1.mapValues(x -> x + "m");
        v1.to("o2");
        KStream<String, String> v3 = v0.map((k, x) -> KeyValue.pair(x, k));
        run("061", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "q", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "x", 4L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "x", 3L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "ab", 7L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "ab", 4L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "yy", 6L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "q", 3L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "bz", 4L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "bz", 1L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "bz", 5L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "q", 4L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "ab", 5L);
        });
    }
    static void p062() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = b.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        v1.to("o1");
        KStream<String, String> v2 = v0.selectKey((k, x) -> x.substring(0, 1));
        v1.groupByKey().reduce((x, y) -> x + y).toStream().to("o2");
        v2.to("o3");
        KStream<String, String> v3 = v1.merge(v0);
        KStream<String, String> v4 = v2.filterNot((k, x) -> x.startsWith("b"));
        v1.to("o4");
        v2.to("o5");
        KStream<String, String> v5 = v1.merge(v3);
        v4.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o6", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v6 = v4.filterNot((k, x) -> x.startsWith("b"));
        run("062", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "x", 1L);
        });
    }
    static void p063() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = b.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v2 = v1.merge(v0);
        KStream<String, String> v3 = v0.selectKey((k, x) -> x.substring(0, 1));
        KStream<String, String> v4 = v1.filter((k, x) -> x.length() % 2 == 0);
        run("063", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "q", 3L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "ab", 8L);
        });
    }
    static void p064() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = b.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        v1.groupByKey().reduce((x, y) -> x + y).toStream().to("o1");
        v1.to("o2");
        KStream<String, String> v2 = v0.merge(v1);
        KStream<String, String> v3 = v2.map((k, x) -> KeyValue.pair(x, k));
        run("064", b, d -> {
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("c", "yy", 1L);
        });
    }
    static void p065() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = v0.mapValues(x -> x + "m");
        KStream<String, String> v2 = v0.merge(v1);
        v0.groupByKey().count().toStream().to("o1", Produced.with(Serdes.String(), Serdes.Long()));
        v2.to("o2");
        v1.to("o3");
        KStream<String, String> v3 = v1.flatMap((k, x) -> List.of(KeyValue.pair(k + "1", x), KeyValue.pair(x, k)));
        v1.groupByKey().reduce((x, y) -> x + y).toStream().to("o4");
        run("065", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "yy", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "bz", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "ab", 1L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "x", 4L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "bz", 6L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "yy", 8L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "bz", 9L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "x", 9L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "yy", 10L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "x", 7L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "q", 10L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "x", 10L);
        });
    }
    static void p066() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = b.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        v0.groupByKey().count().toStream().to("o1", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v2 = v1.merge(v0);
        KStream<String, String> v3 = v1.peek((k, x) -> {});
        KStream<String, String> v4 = v0.peek((k, x) -> {});
        v4.to("o2");
        v0.groupByKey().reduce((x, y) -> x + y).toStream().to("o3");
        KStream<String, String> v5 = v0.merge(v4);
        v2.groupByKey().reduce((x, y) -> x + y).toStream().to("o4");
        KStream<String, String> v6 = v4.filterNot((k, x) -> x.startsWith("b"));
        KStream<String, String> v7 = v2.selectKey((k, x) -> x.substring(0, 1));
        run("066", b, d -> {
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("a", "yy", 4L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "yy", 9L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "ab", 13L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("d", "bz", 13L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "x", 17L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "q", 18L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("c", "x", 21L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("b", "bz", 18L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("d", "ab", 15L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "ab", 14L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "ab", 15L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "x", 13L);
        });
    }
    static void p067() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = v0.peek((k, x) -> {});
        KStream<String, String> v2 = v1.flatMap((k, x) -> List.of(KeyValue.pair(k + "1", x), KeyValue.pair(x, k)));
        v1.groupByKey().reduce((x, y) -> x + y).toStream().to("o1");
        v2.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o2", Produced.with(Serdes.String(), Serdes.Long()));
        v2.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o3", Produced.with(Serdes.String(), Serdes.Long()));
        v2.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o4", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v3 = v2.flatMapValues(x -> List.of(x, x + "f"));
        KStream<String, String> v4 = v0.filterNot((k, x) -> x.startsWith("b"));
        KStream<String, String> v5 = v3.filter((k, x) -> x.length() % 2 == 0);
        v2.groupByKey().reduce((x, y) -> x + y).toStream().to("o5");
        KStream<String, String> v6 = v0.merge(v2);
        KStream<String, String> v7 = v4.flatMapValues(x -> List.of(x, x + "f"));
        KStream<String, String> v8 = v1.flatMap((k, x) -> List.of(KeyValue.pair(k + "1", x), KeyValue.pair(x, k)));
        run("067", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "bz", 5L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "bz", 8L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "yy", 13L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "q", 10L);
        });
    }
    static void p068() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = b.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        v0.to("o1");
        v0.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o2", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v2 = v0.flatMap((k, x) -> List.of(KeyValue.pair(k + "1", x), KeyValue.pair(x, k)));
        KStream<String, String> v3 = v1.flatMapValues(x -> List.of(x, x + "f"));
        v3.to("o3");
        v3.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o4", Produced.with(Serdes.String(), Serdes.Long()));
        v2.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o5", Produced.with(Serdes.String(), Serdes.Long()));
        v2.groupByKey().reduce((x, y) -> x + y).toStream().to("o6");
        KStream<String, String> v4 = v0.selectKey((k, x) -> x.substring(0, 1));
        KStream<String, String> v5 = v0.mapValues(x -> x + "m");
        v5.to("o7");
        run("068", b, d -> {
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("c", "q", 4L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "x", 9L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "bz", 11L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("d", "yy", 14L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("a", "bz", 17L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("a", "ab", 19L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "q", 18L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "q", 22L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "bz", 22L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "x", 22L);
        });
    }
    static void p069() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        v0.to("o1");
        KStream<String, String> v1 = v0.flatMapValues(x -> List.of(x, x + "f"));
        KStream<String, String> v2 = v0.flatMap((k, x) -> List.of(KeyValue.pair(k + "1", x), KeyValue.pair(x, k)));
        KStream<String, String> v3 = v1.flatMapValues(x -> List.of(x, x + "f"));
        KStream<String, String> v4 = v2.selectKey((k, x) -> x.substring(0, 1));
        v2.to("o2");
        run("069", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "x", 1L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "ab", 4L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "q", 1L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "q", 2L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "bz", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "ab", 4L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "ab", 8L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "x", 7L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "bz", 11L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "bz", 12L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "q", 17L);
        });
    }
    static void p070() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = b.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v2 = v0.merge(v1);
        KStream<String, String> v3 = v2.merge(v0);
        v3.to("o1");
        KStream<String, String> v4 = v2.map((k, x) -> KeyValue.pair(x, k));
        v4.to("o2");
        v3.groupByKey().reduce((x, y) -> x + y).toStream().to("o3");
        v0.to("o4");
        KStream<String, String> v5 = v2.mapValues(x -> x + "m");
        KStream<String, String> v6 = v4.map((k, x) -> KeyValue.pair(x, k));
        run("070", b, d -> {
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("c", "yy", 4L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "x", 3L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "yy", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "q", 0L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("b", "x", 0L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("d", "q", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "q", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "bz", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "ab", 0L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("a", "ab", 4L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("b", "ab", 8L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("c", "bz", 5L);
        });
    }
    static void p071() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = v0.peek((k, x) -> {});
        KStream<String, String> v2 = v0.merge(v1);
        v1.to("o1");
        KStream<String, String> v3 = v2.flatMap((k, x) -> List.of(KeyValue.pair(k + "1", x), KeyValue.pair(x, k)));
        v3.groupByKey().reduce((x, y) -> x + y).toStream().to("o2");
        KStream<String, String> v4 = v2.merge(v1);
        run("071", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "x", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "q", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "ab", 4L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "ab", 1L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "x", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "yy", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "x", 5L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "bz", 4L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "yy", 8L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "q", 8L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "q", 5L);
        });
    }
    static void p072() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        v0.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o1", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v1 = v0.filterNot((k, x) -> x.startsWith("b"));
        KStream<String, String> v2 = v0.flatMapValues(x -> List.of(x, x + "f"));
        KStream<String, String> v3 = v0.flatMap((k, x) -> List.of(KeyValue.pair(k + "1", x), KeyValue.pair(x, k)));
        KStream<String, String> v4 = v1.merge(v3);
        KStream<String, String> v5 = v2.peek((k, x) -> {});
        KStream<String, String> v6 = v1.selectKey((k, x) -> x.substring(0, 1));
        v3.to("o2");
        run("072", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "yy", 1L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "bz", 1L);
        });
    }
    static void p073() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        v0.to("o1");
        v0.to("o2");
        KStream<String, String> v1 = v0.selectKey((k, x) -> x.substring(0, 1));
        KStream<String, String> v2 = v1.map((k, x) -> KeyValue.pair(x, k));
        KStream<String, String> v3 = v0.mapValues(x -> x + "m");
        run("073", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "yy", 2L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "bz", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "yy", 1L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "x", 2L);
        });
    }
    static void p074() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = v0.flatMap((k, x) -> List.of(KeyValue.pair(k + "1", x), KeyValue.pair(x, k)));
        v1.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o1", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v2 = v0.merge(v1);
        KStream<String, String> v3 = v2.filterNot((k, x) -> x.startsWith("b"));
        v2.groupByKey().count().toStream().to("o2", Produced.with(Serdes.String(), Serdes.Long()));
        v3.groupByKey().reduce((x, y) -> x + y).toStream().to("o3");
        v3.to("o4");
        KStream<String, String> v4 = v0.merge(v2);
        KStream<String, String> v5 = v1.filterNot((k, x) -> x.startsWith("b"));
        v1.groupByKey().count().toStream().to("o5", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v6 = v0.filterNot((k, x) -> x.startsWith("b"));
        KStream<String, String> v7 = v4.merge(v1);
        run("074", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "x", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "bz", 4L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "ab", 5L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "x", 7L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "ab", 8L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "bz", 6L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "bz", 6L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "yy", 10L);
        });
    }
    static void p075() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = b.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        v1.groupByKey().count().toStream().to("o1", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v2 = v1.peek((k, x) -> {});
        v0.to("o2");
        KStream<String, String> v3 = v0.mapValues(x -> x + "m");
        KStream<String, String> v4 = v1.flatMap((k, x) -> List.of(KeyValue.pair(k + "1", x), KeyValue.pair(x, k)));
        v1.to("o3");
        KStream<String, String> v5 = v0.filterNot((k, x) -> x.startsWith("b"));
        v1.to("o4");
        KStream<String, String> v6 = v5.map((k, x) -> KeyValue.pair(x, k));
        v6.to("o5");
        KStream<String, String> v7 = v0.merge(v2);
        v4.to("o6");
        KStream<String, String> v8 = v5.filter((k, x) -> x.length() % 2 == 0);
        v8.groupByKey().reduce((x, y) -> x + y).toStream().to("o7");
        run("075", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "q", 4L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "yy", 3L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("a", "bz", 5L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("a", "q", 5L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "yy", 9L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("b", "yy", 6L);
        });
    }
    static void p076() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = b.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v2 = v0.flatMapValues(x -> List.of(x, x + "f"));
        KStream<String, String> v3 = v0.filterNot((k, x) -> x.startsWith("b"));
        v2.groupByKey().reduce((x, y) -> x + y).toStream().to("o1");
        v3.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o2", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v4 = v1.mapValues(x -> x + "m");
        KStream<String, String> v5 = v0.filter((k, x) -> x.length() % 2 == 0);
        KStream<String, String> v6 = v2.flatMap((k, x) -> List.of(KeyValue.pair(k + "1", x), KeyValue.pair(x, k)));
        v5.groupByKey().count().toStream().to("o3", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v7 = v2.flatMap((k, x) -> List.of(KeyValue.pair(k + "1", x), KeyValue.pair(x, k)));
        v2.to("o4");
        KStream<String, String> v8 = v2.filter((k, x) -> x.length() % 2 == 0);
        run("076", b, d -> {
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("c", "q", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "x", 2L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("a", "yy", 3L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("a", "yy", 1L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "bz", 5L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("a", "bz", 2L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("d", "q", 1L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "ab", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "ab", 1L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("a", "bz", 6L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "x", 4L);
        });
    }
    static void p077() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = b.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v2 = v1.filterNot((k, x) -> x.startsWith("b"));
        v0.groupByKey().count().toStream().to("o1", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v3 = v1.flatMapValues(x -> List.of(x, x + "f"));
        v3.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o2", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v4 = v3.selectKey((k, x) -> x.substring(0, 1));
        KStream<String, String> v5 = v1.filter((k, x) -> x.length() % 2 == 0);
        KStream<String, String> v6 = v4.merge(v1);
        KStream<String, String> v7 = v5.merge(v3);
        KStream<String, String> v8 = v3.mapValues(x -> x + "m");
        KStream<String, String> v9 = v7.peek((k, x) -> {});
        v9.groupByKey().count().toStream().to("o3", Produced.with(Serdes.String(), Serdes.Long()));
        run("077", b, d -> {
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("c", "bz", 3L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("d", "bz", 4L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("b", "q", 7L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("c", "q", 8L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("c", "ab", 9L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("d", "yy", 13L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "bz", 18L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("d", "ab", 22L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("b", "yy", 26L);
        });
    }
    static void p078() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = b.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v2 = v0.map((k, x) -> KeyValue.pair(x, k));
        KStream<String, String> v3 = v0.peek((k, x) -> {});
        KStream<String, String> v4 = v2.merge(v3);
        v2.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o1", Produced.with(Serdes.String(), Serdes.Long()));
        v3.to("o2");
        KStream<String, String> v5 = v1.flatMap((k, x) -> List.of(KeyValue.pair(k + "1", x), KeyValue.pair(x, k)));
        KStream<String, String> v6 = v3.selectKey((k, x) -> x.substring(0, 1));
        run("078", b, d -> {
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("b", "q", 2L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "yy", 2L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "bz", 6L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "x", 8L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("c", "x", 12L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("a", "bz", 12L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "q", 12L);
        });
    }
    static void p079() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = b.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v2 = v1.peek((k, x) -> {});
        v0.groupByKey().count().toStream().to("o1", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v3 = v2.mapValues(x -> x + "m");
        v0.to("o2");
        v3.to("o3");
        KStream<String, String> v4 = v1.flatMapValues(x -> List.of(x, x + "f"));
        KStream<String, String> v5 = v2.merge(v1);
        KStream<String, String> v6 = v4.merge(v5);
        KStream<String, String> v7 = v2.flatMap((k, x) -> List.of(KeyValue.pair(k + "1", x), KeyValue.pair(x, k)));
        run("079", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "bz", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "q", 4L);
        });
    }
    static void p080() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = b.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        v0.to("o1");
        KStream<String, String> v2 = v1.peek((k, x) -> {});
        KStream<String, String> v3 = v0.peek((k, x) -> {});
        KStream<String, String> v4 = v3.peek((k, x) -> {});
        KStream<String, String> v5 = v1.selectKey((k, x) -> x.substring(0, 1));
        KStream<String, String> v6 = v4.filterNot((k, x) -> x.startsWith("b"));
        KStream<String, String> v7 = v1.filter((k, x) -> x.length() % 2 == 0);
        run("080", b, d -> {
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("a", "bz", 0L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("c", "bz", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "yy", 3L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "ab", 2L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "q", 5L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "yy", 5L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("a", "q", 10L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("c", "ab", 7L);
        });
    }
    static void p081() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = b.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v2 = v0.selectKey((k, x) -> x.substring(0, 1));
        KStream<String, String> v3 = v2.merge(v1);
        KStream<String, String> v4 = v0.peek((k, x) -> {});
        run("081", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "x", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "q", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "x", 0L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("d", "bz", 3L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "ab", 7L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("d", "x", 8L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("d", "yy", 13L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "q", 16L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "x", 21L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "ab", 18L);
        });
    }
    static void p082() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = b.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v2 = v0.map((k, x) -> KeyValue.pair(x, k));
        KStream<String, String> v3 = v0.merge(v1);
        KStream<String, String> v4 = v2.merge(v3);
        v1.groupByKey().reduce((x, y) -> x + y).toStream().to("o1");
        v3.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o2", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v5 = v2.peek((k, x) -> {});
        KStream<String, String> v6 = v2.mapValues(x -> x + "m");
        KStream<String, String> v7 = v3.filterNot((k, x) -> x.startsWith("b"));
        v3.groupByKey().reduce((x, y) -> x + y).toStream().to("o3");
        KStream<String, String> v8 = v7.filterNot((k, x) -> x.startsWith("b"));
        KStream<String, String> v9 = v6.map((k, x) -> KeyValue.pair(x, k));
        run("082", b, d -> {
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("c", "ab", 5L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("d", "x", 6L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "bz", 3L);
        });
    }
    static void p083() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = b.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v2 = v1.peek((k, x) -> {});
        v2.to("o1");
        v1.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o2", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v3 = v1.peek((k, x) -> {});
        v1.groupByKey().count().toStream().to("o3", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v4 = v0.filter((k, x) -> x.length() % 2 == 0);
        v1.groupByKey().reduce((x, y) -> x + y).toStream().to("o4");
        KStream<String, String> v5 = v4.filterNot((k, x) -> x.startsWith("b"));
        v0.to("o5");
        v0.groupByKey().reduce((x, y) -> x + y).toStream().to("o6");
        KStream<String, String> v6 = v3.filter((k, x) -> x.length() % 2 == 0);
        v2.groupByKey().reduce((x, y) -> x + y).toStream().to("o7");
        run("083", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "ab", 3L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("b", "q", 4L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "x", 2L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "x", 7L);
        });
    }
    static void p084() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = b.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v2 = v1.flatMapValues(x -> List.of(x, x + "f"));
        KStream<String, String> v3 = v2.flatMapValues(x -> List.of(x, x + "f"));
        v3.groupByKey().count().toStream().to("o1", Produced.with(Serdes.String(), Serdes.Long()));
        v0.to("o2");
        v0.groupByKey().count().toStream().to("o3", Produced.with(Serdes.String(), Serdes.Long()));
        v2.to("o4");
        KStream<String, String> v4 = v1.merge(v0);
        run("084", b, d -> {
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("c", "x", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "bz", 3L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("a", "q", 6L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "yy", 4L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "yy", 6L);
        });
    }
    static void p085() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = b.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v2 = v1.flatMap((k, x) -> List.of(KeyValue.pair(k + "1", x), KeyValue.pair(x, k)));
        v1.groupByKey().count().toStream().to("o1", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v3 = v1.peek((k, x) -> {});
        v2.to("o2");
        KStream<String, String> v4 = v0.mapValues(x -> x + "m");
        KStream<String, String> v5 = v4.merge(v0);
        v3.groupByKey().count().toStream().to("o3", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v6 = v5.mapValues(x -> x + "m");
        run("085", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "ab", 0L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("c", "bz", 5L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "bz", 7L);
        });
    }
    static void p086() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = b.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v2 = v0.map((k, x) -> KeyValue.pair(x, k));
        KStream<String, String> v3 = v1.filter((k, x) -> x.length() % 2 == 0);
        KStream<String, String> v4 = v2.merge(v1);
        run("086", b, d -> {
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("c", "ab", 2L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("b", "bz", 3L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "x", 1L);
        });
    }
    static void p087() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        v0.to("o1");
        KStream<String, String> v1 = v0.map((k, x) -> KeyValue.pair(x, k));
        v1.to("o2");
        v0.groupByKey().reduce((x, y) -> x + y).toStream().to("o3");
        run("087", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "yy", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "ab", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "x", 3L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "x", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "x", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "q", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "bz", 1L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "q", 5L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "yy", 4L);
        });
    }
    static void p088() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        v0.groupByKey().count().toStream().to("o1", Produced.with(Serdes.String(), Serdes.Long()));
        v0.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o2", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v1 = v0.flatMapValues(x -> List.of(x, x + "f"));
        v0.to("o3");
        v1.to("o4");
        run("088", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "ab", 3L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "x", 5L);
        });
    }
    static void p089() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = b.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v2 = v0.filter((k, x) -> x.length() % 2 == 0);
        v2.groupByKey().reduce((x, y) -> x + y).toStream().to("o1");
        KStream<String, String> v3 = v0.map((k, x) -> KeyValue.pair(x, k));
        run("089", b, d -> {
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("d", "yy", 4L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "q", 1L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("a", "x", 1L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "ab", 0L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("b", "q", 4L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("c", "yy", 2L);
        });
    }
    static void p090() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = b.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        v1.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o1", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v2 = v1.selectKey((k, x) -> x.substring(0, 1));
        v0.groupByKey().count().toStream().to("o2", Produced.with(Serdes.String(), Serdes.Long()));
        run("090", b, d -> {
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("b", "ab", 3L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("c", "ab", 0L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("c", "ab", 0L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("b", "bz", 4L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "q", 3L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "bz", 1L);
        });
    }
    static void p091() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        v0.groupByKey().reduce((x, y) -> x + y).toStream().to("o1");
        KStream<String, String> v1 = v0.selectKey((k, x) -> x.substring(0, 1));
        v0.to("o2");
        v1.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o3", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v2 = v1.peek((k, x) -> {});
        v2.to("o4");
        v0.groupByKey().count().toStream().to("o5", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v3 = v2.filter((k, x) -> x.length() % 2 == 0);
        KStream<String, String> v4 = v1.peek((k, x) -> {});
        v0.groupByKey().count().toStream().to("o6", Produced.with(Serdes.String(), Serdes.Long()));
        v4.groupByKey().count().toStream().to("o7", Produced.with(Serdes.String(), Serdes.Long()));
        v1.to("o8");
        KStream<String, String> v5 = v0.filter((k, x) -> x.length() % 2 == 0);
        KStream<String, String> v6 = v2.flatMapValues(x -> List.of(x, x + "f"));
        run("091", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "ab", 3L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "bz", 8L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "q", 13L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "x", 12L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "x", 15L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "q", 15L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "ab", 13L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "bz", 17L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "bz", 18L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "yy", 17L);
        });
    }
    static void p092() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = v0.flatMap((k, x) -> List.of(KeyValue.pair(k + "1", x), KeyValue.pair(x, k)));
        KStream<String, String> v2 = v0.merge(v1);
        KStream<String, String> v3 = v1.flatMapValues(x -> List.of(x, x + "f"));
        KStream<String, String> v4 = v3.filterNot((k, x) -> x.startsWith("b"));
        KStream<String, String> v5 = v1.filterNot((k, x) -> x.startsWith("b"));
        KStream<String, String> v6 = v3.merge(v2);
        KStream<String, String> v7 = v3.mapValues(x -> x + "m");
        KStream<String, String> v8 = v1.selectKey((k, x) -> x.substring(0, 1));
        v7.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o1", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v9 = v2.map((k, x) -> KeyValue.pair(x, k));
        run("092", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "q", 5L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "bz", 7L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "yy", 10L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "q", 14L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "bz", 15L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "x", 18L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "yy", 15L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "ab", 16L);
        });
    }
    static void p093() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        v0.groupByKey().count().toStream().to("o1", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v1 = v0.filterNot((k, x) -> x.startsWith("b"));
        KStream<String, String> v2 = v1.merge(v0);
        KStream<String, String> v3 = v2.peek((k, x) -> {});
        run("093", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "ab", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "bz", 4L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "q", 3L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "ab", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "q", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "yy", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "yy", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "bz", 3L);
        });
    }
    static void p094() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = v0.filterNot((k, x) -> x.startsWith("b"));
        v1.groupByKey().reduce((x, y) -> x + y).toStream().to("o1");
        KStream<String, String> v2 = v1.flatMap((k, x) -> List.of(KeyValue.pair(k + "1", x), KeyValue.pair(x, k)));
        KStream<String, String> v3 = v2.merge(v0);
        KStream<String, String> v4 = v2.filter((k, x) -> x.length() % 2 == 0);
        v3.to("o2");
        run("094", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "yy", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "ab", 3L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "ab", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "bz", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "bz", 1L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "bz", 6L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "ab", 9L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "yy", 12L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "q", 13L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "ab", 10L);
        });
    }
    static void p095() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = v0.map((k, x) -> KeyValue.pair(x, k));
        v1.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o1", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v2 = v0.filter((k, x) -> x.length() % 2 == 0);
        KStream<String, String> v3 = v1.filterNot((k, x) -> x.startsWith("b"));
        v1.to("o2");
        v2.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o3", Produced.with(Serdes.String(), Serdes.Long()));
        v3.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o4", Produced.with(Serdes.String(), Serdes.Long()));
        v0.to("o5");
        KStream<String, String> v4 = v3.flatMapValues(x -> List.of(x, x + "f"));
        v4.groupByKey().count().toStream().to("o6", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v5 = v2.merge(v4);
        run("095", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "ab", 4L);
        });
    }
    static void p096() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = b.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v2 = v1.flatMap((k, x) -> List.of(KeyValue.pair(k + "1", x), KeyValue.pair(x, k)));
        KStream<String, String> v3 = v0.filter((k, x) -> x.length() % 2 == 0);
        KStream<String, String> v4 = v3.merge(v0);
        v1.to("o1");
        run("096", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "ab", 2L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "q", 0L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("b", "yy", 0L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("b", "x", 2L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("d", "q", 1L);
        });
    }
    static void p097() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = v0.map((k, x) -> KeyValue.pair(x, k));
        KStream<String, String> v2 = v0.merge(v1);
        v2.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o1", Produced.with(Serdes.String(), Serdes.Long()));
        v0.groupByKey().count().toStream().to("o2", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v3 = v1.mapValues(x -> x + "m");
        KStream<String, String> v4 = v3.peek((k, x) -> {});
        v0.to("o3");
        v3.groupByKey().count().toStream().to("o4", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v5 = v4.filter((k, x) -> x.length() % 2 == 0);
        v1.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o5", Produced.with(Serdes.String(), Serdes.Long()));
        v4.to("o6");
        KStream<String, String> v6 = v0.peek((k, x) -> {});
        run("097", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "x", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "q", 1L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "x", 6L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "bz", 9L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "yy", 7L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "yy", 10L);
        });
    }
    static void p098() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = b.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        v1.to("o1");
        v0.to("o2");
        KStream<String, String> v2 = v0.merge(v1);
        v0.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o3", Produced.with(Serdes.String(), Serdes.Long()));
        v1.to("o4");
        v1.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o5", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v3 = v2.mapValues(x -> x + "m");
        v0.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o6", Produced.with(Serdes.String(), Serdes.Long()));
        run("098", b, d -> {
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("a", "yy", 2L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("b", "x", 4L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("c", "x", 1L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("a", "yy", 0L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("b", "q", 0L);
        });
    }
    static void p099() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        v0.to("o1");
        KStream<String, String> v1 = v0.selectKey((k, x) -> x.substring(0, 1));
        v0.to("o2");
        run("099", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "ab", 4L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "x", 1L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "x", 2L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "ab", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "bz", 4L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "yy", 2L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "bz", 5L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "q", 8L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "x", 7L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "x", 11L);
        });
    }
    static void p100() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = v0.mapValues(x -> x + "m");
        KStream<String, String> v2 = v0.flatMap((k, x) -> List.of(KeyValue.pair(k + "1", x), KeyValue.pair(x, k)));
        KStream<String, String> v3 = v0.flatMapValues(x -> List.of(x, x + "f"));
        v1.groupByKey().reduce((x, y) -> x + y).toStream().to("o1");
        KStream<String, String> v4 = v2.flatMapValues(x -> List.of(x, x + "f"));
        v0.to("o2");
        v2.to("o3");
        KStream<String, String> v5 = v3.flatMap((k, x) -> List.of(KeyValue.pair(k + "1", x), KeyValue.pair(x, k)));
        v5.to("o4");
        KStream<String, String> v6 = v5.peek((k, x) -> {});
        v3.to("o5");
        KStream<String, String> v7 = v4.merge(v1);
        v7.groupByKey().count().toStream().to("o6", Produced.with(Serdes.String(), Serdes.Long()));
        v0.groupByKey().count().toStream().to("o7", Produced.with(Serdes.String(), Serdes.Long()));
        run("100", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "yy", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "ab", 3L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "yy", 7L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "x", 7L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "x", 5L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "x", 7L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "x", 6L);
        });
    }
    static void p101() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        v0.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o1", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v1 = v0.selectKey((k, x) -> x.substring(0, 1));
        v1.groupByKey().count().toStream().to("o2", Produced.with(Serdes.String(), Serdes.Long()));
        v1.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o3", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v2 = v0.filterNot((k, x) -> x.startsWith("b"));
        KStream<String, String> v3 = v1.selectKey((k, x) -> x.substring(0, 1));
        run("101", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "ab", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "yy", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "bz", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "ab", 1L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "bz", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "ab", 0L);
        });
    }
    static void p102() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = b.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        v1.groupByKey().count().toStream().to("o1", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v2 = v0.filterNot((k, x) -> x.startsWith("b"));
        KStream<String, String> v3 = v1.selectKey((k, x) -> x.substring(0, 1));
        KStream<String, String> v4 = v1.peek((k, x) -> {});
        KStream<String, String> v5 = v3.flatMapValues(x -> List.of(x, x + "f"));
        KStream<String, String> v6 = v3.flatMap((k, x) -> List.of(KeyValue.pair(k + "1", x), KeyValue.pair(x, k)));
        KStream<String, String> v7 = v1.flatMap((k, x) -> List.of(KeyValue.pair(k + "1", x), KeyValue.pair(x, k)));
        KStream<String, String> v8 = v1.peek((k, x) -> {});
        v1.to("o2");
        v0.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o3", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v9 = v5.merge(v6);
        run("102", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "x", 5L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("c", "q", 8L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("b", "yy", 13L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("b", "x", 12L);
        });
    }
    static void p103() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = b.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v2 = v0.mapValues(x -> x + "m");
        KStream<String, String> v3 = v0.merge(v2);
        KStream<String, String> v4 = v2.merge(v0);
        v4.to("o1");
        v0.to("o2");
        v2.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o3", Produced.with(Serdes.String(), Serdes.Long()));
        v4.groupByKey().count().toStream().to("o4", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v5 = v1.merge(v3);
        KStream<String, String> v6 = v3.merge(v0);
        run("103", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "x", 3L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "q", 2L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("a", "x", 3L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("b", "yy", 1L);
        });
    }
    static void p104() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = b.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v2 = v0.peek((k, x) -> {});
        KStream<String, String> v3 = v1.mapValues(x -> x + "m");
        v0.to("o1");
        v3.groupByKey().reduce((x, y) -> x + y).toStream().to("o2");
        v2.to("o3");
        KStream<String, String> v4 = v3.mapValues(x -> x + "m");
        KStream<String, String> v5 = v2.mapValues(x -> x + "m");
        KStream<String, String> v6 = v1.merge(v5);
        v4.to("o4");
        v3.to("o5");
        KStream<String, String> v7 = v2.merge(v5);
        KStream<String, String> v8 = v5.peek((k, x) -> {});
        KStream<String, String> v9 = v3.map((k, x) -> KeyValue.pair(x, k));
        KStream<String, String> v10 = v7.selectKey((k, x) -> x.substring(0, 1));
        run("104", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "q", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "bz", 4L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "bz", 5L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("c", "bz", 10L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "ab", 14L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "x", 16L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("d", "yy", 19L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "bz", 22L);
        });
    }
    static void p105() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = b.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        v1.groupByKey().reduce((x, y) -> x + y).toStream().to("o1");
        v1.groupByKey().count().toStream().to("o2", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v2 = v0.flatMap((k, x) -> List.of(KeyValue.pair(k + "1", x), KeyValue.pair(x, k)));
        v0.groupByKey().count().toStream().to("o3", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v3 = v0.filter((k, x) -> x.length() % 2 == 0);
        v1.groupByKey().reduce((x, y) -> x + y).toStream().to("o4");
        v1.to("o5");
        v3.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o6", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v4 = v0.merge(v1);
        KStream<String, String> v5 = v2.filterNot((k, x) -> x.startsWith("b"));
        run("105", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "bz", 1L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "q", 6L);
        });
    }
    static void p106() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = b.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v2 = v0.selectKey((k, x) -> x.substring(0, 1));
        KStream<String, String> v3 = v0.peek((k, x) -> {});
        v2.groupByKey().count().toStream().to("o1", Produced.with(Serdes.String(), Serdes.Long()));
        v2.groupByKey().count().toStream().to("o2", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v4 = v1.filter((k, x) -> x.length() % 2 == 0);
        run("106", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "x", 3L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("d", "q", 6L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "q", 7L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "x", 12L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "yy", 16L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("a", "ab", 19L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "x", 18L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("d", "x", 21L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("d", "x", 18L);
        });
    }
    static void p107() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = v0.filter((k, x) -> x.length() % 2 == 0);
        v1.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o1", Produced.with(Serdes.String(), Serdes.Long()));
        v0.groupByKey().count().toStream().to("o2", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v2 = v1.filterNot((k, x) -> x.startsWith("b"));
        v2.to("o3");
        KStream<String, String> v3 = v1.peek((k, x) -> {});
        KStream<String, String> v4 = v0.mapValues(x -> x + "m");
        KStream<String, String> v5 = v4.filter((k, x) -> x.length() % 2 == 0);
        run("107", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "q", 3L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "x", 2L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "ab", 3L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "ab", 4L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "yy", 5L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "x", 4L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "yy", 3L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "bz", 6L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "x", 11L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "x", 9L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "x", 10L);
        });
    }
    static void p108() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        v0.groupByKey().reduce((x, y) -> x + y).toStream().to("o1");
        KStream<String, String> v1 = v0.flatMap((k, x) -> List.of(KeyValue.pair(k + "1", x), KeyValue.pair(x, k)));
        KStream<String, String> v2 = v0.merge(v1);
        KStream<String, String> v3 = v1.merge(v0);
        v0.groupByKey().count().toStream().to("o2", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v4 = v1.map((k, x) -> KeyValue.pair(x, k));
        KStream<String, String> v5 = v0.filter((k, x) -> x.length() % 2 == 0);
        KStream<String, String> v6 = v5.selectKey((k, x) -> x.substring(0, 1));
        run("108", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "x", 4L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "x", 6L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "x", 4L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "q", 9L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "q", 11L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "q", 14L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "ab", 18L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "x", 20L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "ab", 24L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "x", 28L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "yy", 27L);
        });
    }
    static void p109() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = b.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v2 = v1.flatMap((k, x) -> List.of(KeyValue.pair(k + "1", x), KeyValue.pair(x, k)));
        v2.groupByKey().reduce((x, y) -> x + y).toStream().to("o1");
        v1.groupByKey().count().toStream().to("o2", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v3 = v1.flatMap((k, x) -> List.of(KeyValue.pair(k + "1", x), KeyValue.pair(x, k)));
        KStream<String, String> v4 = v1.selectKey((k, x) -> x.substring(0, 1));
        KStream<String, String> v5 = v4.flatMapValues(x -> List.of(x, x + "f"));
        KStream<String, String> v6 = v4.merge(v2);
        run("109", b, d -> {
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("a", "q", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "bz", 0L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("b", "q", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "yy", 0L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("a", "x", 2L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("a", "yy", 4L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("c", "yy", 9L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("a", "q", 9L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "yy", 14L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("c", "yy", 12L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("a", "ab", 14L);
        });
    }
    static void p110() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = v0.flatMap((k, x) -> List.of(KeyValue.pair(k + "1", x), KeyValue.pair(x, k)));
        v0.to("o1");
        v1.groupByKey().reduce((x, y) -> x + y).toStream().to("o2");
        KStream<String, String> v2 = v1.flatMap((k, x) -> List.of(KeyValue.pair(k + "1", x), KeyValue.pair(x, k)));
        KStream<String, String> v3 = v0.peek((k, x) -> {});
        v3.groupByKey().reduce((x, y) -> x + y).toStream().to("o3");
        KStream<String, String> v4 = v3.merge(v1);
        v3.groupByKey().count().toStream().to("o4", Produced.with(Serdes.String(), Serdes.Long()));
        v1.groupByKey().reduce((x, y) -> x + y).toStream().to("o5");
        v0.groupByKey().count().toStream().to("o6", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v5 = v2.peek((k, x) -> {});
        run("110", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "x", 2L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "x", 2L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "x", 7L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "yy", 6L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "q", 5L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "ab", 2L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "x", 7L);
        });
    }
    static void p111() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = v0.mapValues(x -> x + "m");
        v0.groupByKey().count().toStream().to("o1", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v2 = v1.peek((k, x) -> {});
        v2.to("o2");
        KStream<String, String> v3 = v0.flatMapValues(x -> List.of(x, x + "f"));
        KStream<String, String> v4 = v3.filter((k, x) -> x.length() % 2 == 0);
        KStream<String, String> v5 = v4.filter((k, x) -> x.length() % 2 == 0);
        run("111", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "q", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "ab", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "yy", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "bz", 4L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "q", 4L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "x", 2L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "yy", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "ab", 1L);
        });
    }
    static void p112() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = v0.peek((k, x) -> {});
        KStream<String, String> v2 = v1.filterNot((k, x) -> x.startsWith("b"));
        KStream<String, String> v3 = v2.filterNot((k, x) -> x.startsWith("b"));
        run("112", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "q", 3L);
        });
    }
    static void p113() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = b.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v2 = v0.peek((k, x) -> {});
        v0.groupByKey().reduce((x, y) -> x + y).toStream().to("o1");
        KStream<String, String> v3 = v1.flatMap((k, x) -> List.of(KeyValue.pair(k + "1", x), KeyValue.pair(x, k)));
        KStream<String, String> v4 = v3.merge(v0);
        KStream<String, String> v5 = v3.map((k, x) -> KeyValue.pair(x, k));
        KStream<String, String> v6 = v1.selectKey((k, x) -> x.substring(0, 1));
        v3.groupByKey().count().toStream().to("o2", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v7 = v2.filterNot((k, x) -> x.startsWith("b"));
        v3.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o3", Produced.with(Serdes.String(), Serdes.Long()));
        run("113", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "ab", 0L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("d", "q", 3L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("c", "bz", 5L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("b", "bz", 10L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "ab", 14L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "x", 16L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "bz", 21L);
        });
    }
    static void p114() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = b.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        v1.groupByKey().reduce((x, y) -> x + y).toStream().to("o1");
        KStream<String, String> v2 = v0.merge(v1);
        KStream<String, String> v3 = v1.filter((k, x) -> x.length() % 2 == 0);
        run("114", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "yy", 2L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "bz", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "yy", 1L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "x", 4L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("a", "x", 1L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("d", "ab", 4L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("b", "yy", 3L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "yy", 2L);
        });
    }
    static void p115() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = v0.peek((k, x) -> {});
        v1.to("o1");
        v1.to("o2");
        KStream<String, String> v2 = v0.peek((k, x) -> {});
        v0.to("o3");
        v1.to("o4");
        KStream<String, String> v3 = v0.merge(v1);
        KStream<String, String> v4 = v1.flatMapValues(x -> List.of(x, x + "f"));
        KStream<String, String> v5 = v1.map((k, x) -> KeyValue.pair(x, k));
        v0.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o5", Produced.with(Serdes.String(), Serdes.Long()));
        v2.groupByKey().reduce((x, y) -> x + y).toStream().to("o6");
        KStream<String, String> v6 = v1.merge(v2);
        run("115", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "q", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "x", 5L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "q", 3L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "yy", 3L);
        });
    }
    static void p116() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = b.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v2 = v1.merge(v0);
        v1.groupByKey().count().toStream().to("o1", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v3 = v1.filter((k, x) -> x.length() % 2 == 0);
        v3.to("o2");
        KStream<String, String> v4 = v0.filterNot((k, x) -> x.startsWith("b"));
        v3.to("o3");
        KStream<String, String> v5 = v0.peek((k, x) -> {});
        KStream<String, String> v6 = v3.peek((k, x) -> {});
        v4.to("o4");
        KStream<String, String> v7 = v6.flatMap((k, x) -> List.of(KeyValue.pair(k + "1", x), KeyValue.pair(x, k)));
        v5.to("o5");
        run("116", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "bz", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "yy", 4L);
        });
    }
    static void p117() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = b.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v2 = v1.flatMap((k, x) -> List.of(KeyValue.pair(k + "1", x), KeyValue.pair(x, k)));
        v0.groupByKey().count().toStream().to("o1", Produced.with(Serdes.String(), Serdes.Long()));
        v1.to("o2");
        run("117", b, d -> {
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("b", "q", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "ab", 3L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("d", "q", 7L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "q", 10L);
        });
    }
    static void p118() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = v0.selectKey((k, x) -> x.substring(0, 1));
        KStream<String, String> v2 = v0.flatMapValues(x -> List.of(x, x + "f"));
        v2.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o1", Produced.with(Serdes.String(), Serdes.Long()));
        v1.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o2", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v3 = v1.filter((k, x) -> x.length() % 2 == 0);
        KStream<String, String> v4 = v0.selectKey((k, x) -> x.substring(0, 1));
        run("118", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "q", 0L);
        });
    }
    static void p119() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = b.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v2 = v1.peek((k, x) -> {});
        v2.to("o1");
        v2.groupByKey().count().toStream().to("o2", Produced.with(Serdes.String(), Serdes.Long()));
        v2.groupByKey().reduce((x, y) -> x + y).toStream().to("o3");
        v1.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o4", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v3 = v1.selectKey((k, x) -> x.substring(0, 1));
        KStream<String, String> v4 = v3.peek((k, x) -> {});
        KStream<String, String> v5 = v2.selectKey((k, x) -> x.substring(0, 1));
        KStream<String, String> v6 = v1.selectKey((k, x) -> x.substring(0, 1));
        v4.to("o5");
        KStream<String, String> v7 = v5.merge(v4);
        KStream<String, String> v8 = v4.filterNot((k, x) -> x.startsWith("b"));
        run("119", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "q", 0L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("b", "yy", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "x", 3L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "bz", 4L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("c", "ab", 5L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "x", 8L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("c", "yy", 11L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "bz", 10L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "q", 15L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("c", "x", 12L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "bz", 15L);
        });
    }
    static void p120() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        v0.to("o1");
        KStream<String, String> v1 = v0.map((k, x) -> KeyValue.pair(x, k));
        KStream<String, String> v2 = v0.selectKey((k, x) -> x.substring(0, 1));
        KStream<String, String> v3 = v2.filter((k, x) -> x.length() % 2 == 0);
        KStream<String, String> v4 = v0.filterNot((k, x) -> x.startsWith("b"));
        v0.to("o2");
        KStream<String, String> v5 = v2.merge(v3);
        KStream<String, String> v6 = v3.filterNot((k, x) -> x.startsWith("b"));
        v3.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o3", Produced.with(Serdes.String(), Serdes.Long()));
        run("120", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "yy", 4L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "x", 2L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "q", 4L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "yy", 1L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "q", 1L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "yy", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "yy", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "bz", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "q", 3L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "bz", 3L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "ab", 1L);
        });
    }
    static void p121() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = v0.map((k, x) -> KeyValue.pair(x, k));
        KStream<String, String> v2 = v1.flatMap((k, x) -> List.of(KeyValue.pair(k + "1", x), KeyValue.pair(x, k)));
        v1.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o1", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v3 = v0.flatMap((k, x) -> List.of(KeyValue.pair(k + "1", x), KeyValue.pair(x, k)));
        run("121", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "yy", 2L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "yy", 2L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "x", 4L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "x", 4L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "bz", 9L);
        });
    }
    static void p122() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = b.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        v1.groupByKey().reduce((x, y) -> x + y).toStream().to("o1");
        KStream<String, String> v2 = v0.filter((k, x) -> x.length() % 2 == 0);
        v2.to("o2");
        KStream<String, String> v3 = v1.filter((k, x) -> x.length() % 2 == 0);
        KStream<String, String> v4 = v2.flatMap((k, x) -> List.of(KeyValue.pair(k + "1", x), KeyValue.pair(x, k)));
        v0.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o3", Produced.with(Serdes.String(), Serdes.Long()));
        v2.to("o4");
        v0.to("o5");
        KStream<String, String> v5 = v4.map((k, x) -> KeyValue.pair(x, k));
        KStream<String, String> v6 = v5.filterNot((k, x) -> x.startsWith("b"));
        KStream<String, String> v7 = v1.filter((k, x) -> x.length() % 2 == 0);
        KStream<String, String> v8 = v5.map((k, x) -> KeyValue.pair(x, k));
        v7.to("o6");
        KStream<String, String> v9 = v1.peek((k, x) -> {});
        run("122", b, d -> {
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("b", "ab", 3L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("a", "q", 4L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "yy", 8L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "yy", 10L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "bz", 15L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("b", "ab", 20L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "ab", 20L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("d", "yy", 24L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "yy", 26L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("d", "ab", 25L);
        });
    }
    static void p123() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = v0.flatMap((k, x) -> List.of(KeyValue.pair(k + "1", x), KeyValue.pair(x, k)));
        KStream<String, String> v2 = v1.flatMap((k, x) -> List.of(KeyValue.pair(k + "1", x), KeyValue.pair(x, k)));
        v1.groupByKey().reduce((x, y) -> x + y).toStream().to("o1");
        KStream<String, String> v3 = v2.filterNot((k, x) -> x.startsWith("b"));
        v2.to("o2");
        run("123", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "q", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "x", 0L);
        });
    }
    static void p124() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = v0.mapValues(x -> x + "m");
        v0.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o1", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v2 = v1.flatMapValues(x -> List.of(x, x + "f"));
        KStream<String, String> v3 = v0.peek((k, x) -> {});
        run("124", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "ab", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "q", 4L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "ab", 6L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "ab", 8L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "ab", 7L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "bz", 8L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "x", 8L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "x", 10L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "x", 7L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "bz", 11L);
        });
    }
    static void p125() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = b.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v2 = v1.merge(v0);
        KStream<String, String> v3 = v1.map((k, x) -> KeyValue.pair(x, k));
        v1.groupByKey().count().toStream().to("o1", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v4 = v1.map((k, x) -> KeyValue.pair(x, k));
        run("125", b, d -> {
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("d", "yy", 0L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("d", "yy", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "x", 4L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("d", "ab", 1L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("a", "q", 3L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("b", "x", 7L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("d", "q", 9L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "x", 10L);
        });
    }
    static void p126() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = b.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        v0.to("o1");
        KStream<String, String> v2 = v0.selectKey((k, x) -> x.substring(0, 1));
        v2.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o2", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v3 = v2.flatMapValues(x -> List.of(x, x + "f"));
        KStream<String, String> v4 = v3.flatMapValues(x -> List.of(x, x + "f"));
        v0.to("o3");
        v3.to("o4");
        v0.groupByKey().count().toStream().to("o5", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v5 = v2.map((k, x) -> KeyValue.pair(x, k));
        KStream<String, String> v6 = v5.map((k, x) -> KeyValue.pair(x, k));
        run("126", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "x", 2L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "q", 1L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("a", "yy", 3L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "yy", 2L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("a", "bz", 3L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "x", 4L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "yy", 2L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("c", "x", 5L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "bz", 7L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "yy", 8L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("c", "ab", 7L);
        });
    }
    static void p127() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = v0.selectKey((k, x) -> x.substring(0, 1));
        v1.groupByKey().reduce((x, y) -> x + y).toStream().to("o1");
        KStream<String, String> v2 = v0.filterNot((k, x) -> x.startsWith("b"));
        v0.to("o2");
        v2.groupByKey().count().toStream().to("o3", Produced.with(Serdes.String(), Serdes.Long()));
        v1.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o4", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v3 = v2.flatMapValues(x -> List.of(x, x + "f"));
        KStream<String, String> v4 = v0.filter((k, x) -> x.length() % 2 == 0);
        KStream<String, String> v5 = v3.flatMap((k, x) -> List.of(KeyValue.pair(k + "1", x), KeyValue.pair(x, k)));
        KStream<String, String> v6 = v4.filterNot((k, x) -> x.startsWith("b"));
        KStream<String, String> v7 = v1.merge(v6);
        KStream<String, String> v8 = v3.map((k, x) -> KeyValue.pair(x, k));
        KStream<String, String> v9 = v8.peek((k, x) -> {});
        run("127", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "q", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "bz", 3L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "x", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "bz", 5L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "x", 6L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "bz", 10L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "x", 12L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "yy", 16L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "ab", 16L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "x", 19L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "yy", 24L);
        });
    }
    static void p128() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = b.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        v1.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o1", Produced.with(Serdes.String(), Serdes.Long()));
        v1.to("o2");
        KStream<String, String> v2 = v0.selectKey((k, x) -> x.substring(0, 1));
        KStream<String, String> v3 = v1.merge(v0);
        KStream<String, String> v4 = v2.filter((k, x) -> x.length() % 2 == 0);
        v1.groupByKey().reduce((x, y) -> x + y).toStream().to("o3");
        KStream<String, String> v5 = v4.mapValues(x -> x + "m");
        KStream<String, String> v6 = v5.peek((k, x) -> {});
        v1.to("o4");
        KStream<String, String> v7 = v5.filterNot((k, x) -> x.startsWith("b"));
        KStream<String, String> v8 = v0.peek((k, x) -> {});
        v6.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o5", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v9 = v1.map((k, x) -> KeyValue.pair(x, k));
        v6.to("o6");
        run("128", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "x", 1L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "x", 5L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "ab", 4L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("d", "x", 4L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("c", "x", 3L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "ab", 2L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "x", 6L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("a", "yy", 8L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "yy", 12L);
        });
    }
    static void p129() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = b.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v2 = v1.flatMap((k, x) -> List.of(KeyValue.pair(k + "1", x), KeyValue.pair(x, k)));
        KStream<String, String> v3 = v1.filter((k, x) -> x.length() % 2 == 0);
        v1.to("o1");
        v1.to("o2");
        v0.to("o3");
        KStream<String, String> v4 = v3.flatMapValues(x -> List.of(x, x + "f"));
        KStream<String, String> v5 = v3.peek((k, x) -> {});
        KStream<String, String> v6 = v5.selectKey((k, x) -> x.substring(0, 1));
        KStream<String, String> v7 = v3.merge(v5);
        KStream<String, String> v8 = v5.merge(v4);
        KStream<String, String> v9 = v6.flatMap((k, x) -> List.of(KeyValue.pair(k + "1", x), KeyValue.pair(x, k)));
        run("129", b, d -> {
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("a", "ab", 2L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "ab", 3L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "bz", 8L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "yy", 11L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("c", "x", 10L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "q", 11L);
        });
    }
    static void p130() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        v0.to("o1");
        KStream<String, String> v1 = v0.flatMap((k, x) -> List.of(KeyValue.pair(k + "1", x), KeyValue.pair(x, k)));
        v1.to("o2");
        KStream<String, String> v2 = v0.flatMap((k, x) -> List.of(KeyValue.pair(k + "1", x), KeyValue.pair(x, k)));
        run("130", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "ab", 5L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "x", 6L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "yy", 8L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "q", 5L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "ab", 4L);
        });
    }
    static void p131() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = b.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        v0.to("o1");
        KStream<String, String> v2 = v1.flatMapValues(x -> List.of(x, x + "f"));
        v0.to("o2");
        KStream<String, String> v3 = v2.map((k, x) -> KeyValue.pair(x, k));
        run("131", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "x", 5L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "ab", 5L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("b", "x", 10L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "ab", 11L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "bz", 13L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "yy", 13L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "bz", 12L);
        });
    }
    static void p132() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = v0.selectKey((k, x) -> x.substring(0, 1));
        KStream<String, String> v2 = v0.peek((k, x) -> {});
        KStream<String, String> v3 = v0.merge(v1);
        KStream<String, String> v4 = v3.peek((k, x) -> {});
        KStream<String, String> v5 = v3.map((k, x) -> KeyValue.pair(x, k));
        KStream<String, String> v6 = v1.filterNot((k, x) -> x.startsWith("b"));
        KStream<String, String> v7 = v0.filterNot((k, x) -> x.startsWith("b"));
        v4.to("o1");
        KStream<String, String> v8 = v0.peek((k, x) -> {});
        KStream<String, String> v9 = v6.merge(v8);
        v6.to("o2");
        run("132", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "x", 1L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "ab", 5L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "ab", 4L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "x", 4L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "x", 1L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "yy", 5L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "q", 8L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "q", 13L);
        });
    }
    static void p133() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = v0.filter((k, x) -> x.length() % 2 == 0);
        KStream<String, String> v2 = v1.flatMapValues(x -> List.of(x, x + "f"));
        KStream<String, String> v3 = v1.filterNot((k, x) -> x.startsWith("b"));
        KStream<String, String> v4 = v0.mapValues(x -> x + "m");
        KStream<String, String> v5 = v0.peek((k, x) -> {});
        v4.groupByKey().count().toStream().to("o1", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v6 = v0.filterNot((k, x) -> x.startsWith("b"));
        v1.to("o2");
        v2.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o3", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v7 = v4.peek((k, x) -> {});
        KStream<String, String> v8 = v4.filterNot((k, x) -> x.startsWith("b"));
        KStream<String, String> v9 = v7.map((k, x) -> KeyValue.pair(x, k));
        run("133", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "bz", 2L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "yy", 6L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "yy", 6L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "q", 10L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "ab", 13L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "bz", 13L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "x", 14L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "bz", 19L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "x", 19L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "bz", 20L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "bz", 20L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "x", 18L);
        });
    }
    static void p134() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = b.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        v0.groupByKey().reduce((x, y) -> x + y).toStream().to("o1");
        v1.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o2", Produced.with(Serdes.String(), Serdes.Long()));
        v1.to("o3");
        KStream<String, String> v2 = v0.merge(v1);
        KStream<String, String> v3 = v1.filter((k, x) -> x.length() % 2 == 0);
        v2.groupByKey().count().toStream().to("o4", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v4 = v2.peek((k, x) -> {});
        KStream<String, String> v5 = v4.flatMap((k, x) -> List.of(KeyValue.pair(k + "1", x), KeyValue.pair(x, k)));
        v4.to("o5");
        KStream<String, String> v6 = v4.flatMap((k, x) -> List.of(KeyValue.pair(k + "1", x), KeyValue.pair(x, k)));
        KStream<String, String> v7 = v4.flatMap((k, x) -> List.of(KeyValue.pair(k + "1", x), KeyValue.pair(x, k)));
        v0.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o6", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v8 = v5.selectKey((k, x) -> x.substring(0, 1));
        KStream<String, String> v9 = v4.filter((k, x) -> x.length() % 2 == 0);
        run("134", b, d -> {
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("b", "yy", 0L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("a", "x", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "q", 0L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("a", "ab", 0L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("b", "q", 2L);
        });
    }
    static void p135() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = b.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        v1.to("o1");
        KStream<String, String> v2 = v0.merge(v1);
        v2.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o2", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v3 = v0.flatMapValues(x -> List.of(x, x + "f"));
        v3.groupByKey().reduce((x, y) -> x + y).toStream().to("o3");
        KStream<String, String> v4 = v0.flatMap((k, x) -> List.of(KeyValue.pair(k + "1", x), KeyValue.pair(x, k)));
        KStream<String, String> v5 = v1.merge(v4);
        KStream<String, String> v6 = v4.merge(v1);
        v1.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o4", Produced.with(Serdes.String(), Serdes.Long()));
        run("135", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "q", 5L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "bz", 8L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("c", "q", 8L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "yy", 10L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "ab", 11L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "x", 10L);
        });
    }
    static void p136() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        v0.groupByKey().reduce((x, y) -> x + y).toStream().to("o1");
        v0.to("o2");
        KStream<String, String> v1 = v0.flatMap((k, x) -> List.of(KeyValue.pair(k + "1", x), KeyValue.pair(x, k)));
        KStream<String, String> v2 = v1.map((k, x) -> KeyValue.pair(x, k));
        KStream<String, String> v3 = v1.merge(v2);
        KStream<String, String> v4 = v0.filterNot((k, x) -> x.startsWith("b"));
        v2.groupByKey().count().toStream().to("o3", Produced.with(Serdes.String(), Serdes.Long()));
        v0.groupByKey().count().toStream().to("o4", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v5 = v1.filterNot((k, x) -> x.startsWith("b"));
        KStream<String, String> v6 = v5.filter((k, x) -> x.length() % 2 == 0);
        v3.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o5", Produced.with(Serdes.String(), Serdes.Long()));
        v2.groupByKey().reduce((x, y) -> x + y).toStream().to("o6");
        run("136", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "x", 5L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "q", 10L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "yy", 12L);
        });
    }
    static void p137() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = b.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v2 = v0.map((k, x) -> KeyValue.pair(x, k));
        v1.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o1", Produced.with(Serdes.String(), Serdes.Long()));
        v2.to("o2");
        v1.groupByKey().reduce((x, y) -> x + y).toStream().to("o3");
        v2.to("o4");
        KStream<String, String> v3 = v2.merge(v1);
        KStream<String, String> v4 = v1.flatMap((k, x) -> List.of(KeyValue.pair(k + "1", x), KeyValue.pair(x, k)));
        KStream<String, String> v5 = v4.peek((k, x) -> {});
        v2.groupByKey().reduce((x, y) -> x + y).toStream().to("o5");
        run("137", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "yy", 1L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("a", "ab", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "q", 0L);
        });
    }
    static void p138() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = b.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v2 = v0.merge(v1);
        KStream<String, String> v3 = v0.selectKey((k, x) -> x.substring(0, 1));
        v3.to("o1");
        v2.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o2", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v4 = v2.merge(v1);
        KStream<String, String> v5 = v2.mapValues(x -> x + "m");
        KStream<String, String> v6 = v4.merge(v0);
        run("138", b, d -> {
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("a", "bz", 2L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("b", "x", 4L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "yy", 3L);
        });
    }
    static void p139() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = v0.selectKey((k, x) -> x.substring(0, 1));
        v1.to("o1");
        v0.to("o2");
        KStream<String, String> v2 = v0.map((k, x) -> KeyValue.pair(x, k));
        KStream<String, String> v3 = v2.selectKey((k, x) -> x.substring(0, 1));
        KStream<String, String> v4 = v2.mapValues(x -> x + "m");
        v2.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o3", Produced.with(Serdes.String(), Serdes.Long()));
        v3.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o4", Produced.with(Serdes.String(), Serdes.Long()));
        v1.to("o5");
        KStream<String, String> v5 = v2.peek((k, x) -> {});
        KStream<String, String> v6 = v5.merge(v1);
        run("139", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "q", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "bz", 2L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "q", 3L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "x", 8L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "yy", 5L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "bz", 10L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "q", 10L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "yy", 14L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "yy", 12L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "bz", 17L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "x", 16L);
        });
    }
    static void p140() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = b.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v2 = v0.flatMap((k, x) -> List.of(KeyValue.pair(k + "1", x), KeyValue.pair(x, k)));
        v0.to("o1");
        KStream<String, String> v3 = v2.flatMap((k, x) -> List.of(KeyValue.pair(k + "1", x), KeyValue.pair(x, k)));
        KStream<String, String> v4 = v1.mapValues(x -> x + "m");
        KStream<String, String> v5 = v3.filterNot((k, x) -> x.startsWith("b"));
        KStream<String, String> v6 = v4.flatMap((k, x) -> List.of(KeyValue.pair(k + "1", x), KeyValue.pair(x, k)));
        KStream<String, String> v7 = v4.filterNot((k, x) -> x.startsWith("b"));
        run("140", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "bz", 0L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("d", "x", 0L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("c", "x", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "ab", 0L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("a", "ab", 4L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("d", "x", 1L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("b", "x", 1L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "yy", 6L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "x", 9L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("d", "yy", 13L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "x", 16L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "bz", 21L);
        });
    }
    static void p141() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = b.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v2 = v1.selectKey((k, x) -> x.substring(0, 1));
        KStream<String, String> v3 = v0.selectKey((k, x) -> x.substring(0, 1));
        v2.to("o1");
        v2.groupByKey().count().toStream().to("o2", Produced.with(Serdes.String(), Serdes.Long()));
        v2.to("o3");
        v3.groupByKey().count().toStream().to("o4", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v4 = v2.map((k, x) -> KeyValue.pair(x, k));
        KStream<String, String> v5 = v3.merge(v2);
        KStream<String, String> v6 = v5.flatMapValues(x -> List.of(x, x + "f"));
        KStream<String, String> v7 = v5.merge(v1);
        run("141", b, d -> {
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("a", "q", 4L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "x", 2L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("a", "x", 5L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "yy", 9L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("d", "x", 9L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("c", "x", 10L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "x", 10L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("b", "bz", 11L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "bz", 10L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "yy", 8L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "ab", 12L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "q", 17L);
        });
    }
    static void p142() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = b.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        v1.to("o1");
        v1.to("o2");
        v1.groupByKey().count().toStream().to("o3", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v2 = v1.mapValues(x -> x + "m");
        KStream<String, String> v3 = v1.mapValues(x -> x + "m");
        KStream<String, String> v4 = v1.peek((k, x) -> {});
        KStream<String, String> v5 = v1.peek((k, x) -> {});
        run("142", b, d -> {
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("a", "yy", 0L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("a", "yy", 1L);
        });
    }
    static void p143() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = b.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        v1.to("o1");
        KStream<String, String> v2 = v0.peek((k, x) -> {});
        v1.to("o2");
        KStream<String, String> v3 = v1.merge(v0);
        v0.groupByKey().count().toStream().to("o3", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v4 = v2.mapValues(x -> x + "m");
        v1.groupByKey().count().toStream().to("o4", Produced.with(Serdes.String(), Serdes.Long()));
        v2.to("o5");
        KStream<String, String> v5 = v3.filterNot((k, x) -> x.startsWith("b"));
        run("143", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "ab", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "q", 4L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("c", "bz", 9L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("b", "bz", 12L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("c", "x", 11L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "x", 12L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "q", 15L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "bz", 17L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("c", "q", 16L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "bz", 19L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("d", "yy", 24L);
        });
    }
    static void p144() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = b.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        v1.groupByKey().count().toStream().to("o1", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v2 = v0.peek((k, x) -> {});
        KStream<String, String> v3 = v0.flatMap((k, x) -> List.of(KeyValue.pair(k + "1", x), KeyValue.pair(x, k)));
        KStream<String, String> v4 = v1.map((k, x) -> KeyValue.pair(x, k));
        v2.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o2", Produced.with(Serdes.String(), Serdes.Long()));
        run("144", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "bz", 5L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("a", "yy", 4L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "bz", 3L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("b", "yy", 8L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "bz", 6L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "q", 6L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("d", "yy", 9L);
        });
    }
    static void p145() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = v0.mapValues(x -> x + "m");
        KStream<String, String> v2 = v0.flatMapValues(x -> List.of(x, x + "f"));
        KStream<String, String> v3 = v0.merge(v1);
        v1.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o1", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v4 = v1.filterNot((k, x) -> x.startsWith("b"));
        KStream<String, String> v5 = v3.map((k, x) -> KeyValue.pair(x, k));
        v1.groupByKey().reduce((x, y) -> x + y).toStream().to("o2");
        v5.groupByKey().reduce((x, y) -> x + y).toStream().to("o3");
        KStream<String, String> v6 = v4.selectKey((k, x) -> x.substring(0, 1));
        v5.to("o4");
        run("145", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "q", 4L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "ab", 1L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "x", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "ab", 3L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "q", 1L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "x", 6L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "bz", 8L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "x", 10L);
        });
    }
    static void p146() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = v0.flatMapValues(x -> List.of(x, x + "f"));
        v0.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o1", Produced.with(Serdes.String(), Serdes.Long()));
        v0.to("o2");
        v0.groupByKey().reduce((x, y) -> x + y).toStream().to("o3");
        KStream<String, String> v2 = v0.merge(v1);
        v1.groupByKey().count().toStream().to("o4", Produced.with(Serdes.String(), Serdes.Long()));
        v1.to("o5");
        v1.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o6", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v3 = v1.merge(v0);
        KStream<String, String> v4 = v0.filter((k, x) -> x.length() % 2 == 0);
        KStream<String, String> v5 = v3.merge(v4);
        v3.to("o7");
        v2.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o8", Produced.with(Serdes.String(), Serdes.Long()));
        run("146", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "ab", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "x", 1L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "ab", 5L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "x", 8L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "x", 5L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "x", 10L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "x", 8L);
        });
    }
    static void p147() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = v0.filter((k, x) -> x.length() % 2 == 0);
        KStream<String, String> v2 = v0.map((k, x) -> KeyValue.pair(x, k));
        KStream<String, String> v3 = v0.merge(v2);
        v3.groupByKey().reduce((x, y) -> x + y).toStream().to("o1");
        KStream<String, String> v4 = v0.map((k, x) -> KeyValue.pair(x, k));
        v1.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o2", Produced.with(Serdes.String(), Serdes.Long()));
        v3.to("o3");
        KStream<String, String> v5 = v4.flatMap((k, x) -> List.of(KeyValue.pair(k + "1", x), KeyValue.pair(x, k)));
        v0.groupByKey().count().toStream().to("o4", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v6 = v3.peek((k, x) -> {});
        v3.groupByKey().reduce((x, y) -> x + y).toStream().to("o5");
        v2.to("o6");
        v2.groupByKey().count().toStream().to("o7", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v7 = v5.filterNot((k, x) -> x.startsWith("b"));
        run("147", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "x", 4L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "x", 7L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "q", 5L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "x", 10L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "ab", 14L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "bz", 18L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "bz", 20L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "bz", 17L);
        });
    }
    static void p148() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        v0.groupByKey().count().toStream().to("o1", Produced.with(Serdes.String(), Serdes.Long()));
        v0.to("o2");
        v0.groupByKey().count().toStream().to("o3", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v1 = v0.filterNot((k, x) -> x.startsWith("b"));
        KStream<String, String> v2 = v1.filterNot((k, x) -> x.startsWith("b"));
        v2.to("o4");
        KStream<String, String> v3 = v1.filterNot((k, x) -> x.startsWith("b"));
        KStream<String, String> v4 = v2.mapValues(x -> x + "m");
        KStream<String, String> v5 = v2.flatMap((k, x) -> List.of(KeyValue.pair(k + "1", x), KeyValue.pair(x, k)));
        KStream<String, String> v6 = v5.merge(v1);
        KStream<String, String> v7 = v0.mapValues(x -> x + "m");
        KStream<String, String> v8 = v4.selectKey((k, x) -> x.substring(0, 1));
        v7.groupByKey().count().toStream().to("o5", Produced.with(Serdes.String(), Serdes.Long()));
        run("148", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "ab", 5L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "ab", 4L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "bz", 8L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "q", 5L);
        });
    }
    static void p149() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = b.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v2 = v1.merge(v0);
        v0.to("o1");
        v1.to("o2");
        v0.groupByKey().count().toStream().to("o3", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v3 = v1.mapValues(x -> x + "m");
        KStream<String, String> v4 = v1.map((k, x) -> KeyValue.pair(x, k));
        v4.groupByKey().reduce((x, y) -> x + y).toStream().to("o4");
        v2.to("o5");
        v3.to("o6");
        v2.groupByKey().count().toStream().to("o7", Produced.with(Serdes.String(), Serdes.Long()));
        v4.to("o8");
        v4.to("o9");
        run("149", b, d -> {
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("a", "bz", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "x", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "q", 4L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("c", "x", 2L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("c", "ab", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "yy", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "q", 0L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("a", "ab", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "bz", 4L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("b", "bz", 5L);
        });
    }
    static void p150() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = b.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        v0.to("o1");
        KStream<String, String> v2 = v0.mapValues(x -> x + "m");
        KStream<String, String> v3 = v1.filterNot((k, x) -> x.startsWith("b"));
        v1.to("o2");
        v0.groupByKey().count().toStream().to("o3", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v4 = v0.peek((k, x) -> {});
        KStream<String, String> v5 = v0.flatMapValues(x -> List.of(x, x + "f"));
        v2.to("o4");
        KStream<String, String> v6 = v2.filterNot((k, x) -> x.startsWith("b"));
        KStream<String, String> v7 = v2.mapValues(x -> x + "m");
        v6.to("o5");
        run("150", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "q", 4L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("d", "bz", 1L);
        });
    }
    static void p151() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = v0.filterNot((k, x) -> x.startsWith("b"));
        KStream<String, String> v2 = v0.peek((k, x) -> {});
        KStream<String, String> v3 = v2.flatMapValues(x -> List.of(x, x + "f"));
        v3.groupByKey().count().toStream().to("o1", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v4 = v1.filter((k, x) -> x.length() % 2 == 0);
        run("151", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "yy", 2L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "x", 6L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "ab", 6L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "q", 8L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "x", 8L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "yy", 12L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "q", 14L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "bz", 13L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "yy", 16L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "ab", 13L);
        });
    }
    static void p152() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        v0.groupByKey().reduce((x, y) -> x + y).toStream().to("o1");
        KStream<String, String> v1 = v0.map((k, x) -> KeyValue.pair(x, k));
        KStream<String, String> v2 = v1.selectKey((k, x) -> x.substring(0, 1));
        v2.to("o2");
        KStream<String, String> v3 = v0.flatMap((k, x) -> List.of(KeyValue.pair(k + "1", x), KeyValue.pair(x, k)));
        KStream<String, String> v4 = v1.peek((k, x) -> {});
        KStream<String, String> v5 = v4.mapValues(x -> x + "m");
        KStream<String, String> v6 = v2.selectKey((k, x) -> x.substring(0, 1));
        KStream<String, String> v7 = v6.merge(v5);
        run("152", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "yy", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "bz", 1L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "yy", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "bz", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "x", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "x", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "q", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "q", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "q", 5L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "yy", 4L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "ab", 8L);
        });
    }
    static void p153() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = b.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        v1.to("o1");
        KStream<String, String> v2 = v1.merge(v0);
        KStream<String, String> v3 = v2.map((k, x) -> KeyValue.pair(x, k));
        KStream<String, String> v4 = v1.filterNot((k, x) -> x.startsWith("b"));
        KStream<String, String> v5 = v3.mapValues(x -> x + "m");
        v5.groupByKey().count().toStream().to("o2", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v6 = v0.flatMap((k, x) -> List.of(KeyValue.pair(k + "1", x), KeyValue.pair(x, k)));
        v3.to("o3");
        KStream<String, String> v7 = v3.flatMap((k, x) -> List.of(KeyValue.pair(k + "1", x), KeyValue.pair(x, k)));
        v1.to("o4");
        v3.groupByKey().count().toStream().to("o5", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v8 = v2.flatMapValues(x -> List.of(x, x + "f"));
        v8.to("o6");
        run("153", b, d -> {
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("b", "bz", 2L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("d", "x", 0L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("d", "x", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "q", 1L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("c", "ab", 1L);
        });
    }
    static void p154() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = v0.filter((k, x) -> x.length() % 2 == 0);
        KStream<String, String> v2 = v0.selectKey((k, x) -> x.substring(0, 1));
        KStream<String, String> v3 = v2.merge(v0);
        KStream<String, String> v4 = v1.peek((k, x) -> {});
        v3.groupByKey().reduce((x, y) -> x + y).toStream().to("o1");
        v0.to("o2");
        v1.to("o3");
        KStream<String, String> v5 = v1.filter((k, x) -> x.length() % 2 == 0);
        KStream<String, String> v6 = v2.filter((k, x) -> x.length() % 2 == 0);
        KStream<String, String> v7 = v0.merge(v2);
        KStream<String, String> v8 = v0.filter((k, x) -> x.length() % 2 == 0);
        KStream<String, String> v9 = v7.filter((k, x) -> x.length() % 2 == 0);
        v1.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o4", Produced.with(Serdes.String(), Serdes.Long()));
        run("154", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "yy", 0L);
        });
    }
    static void p155() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = v0.filterNot((k, x) -> x.startsWith("b"));
        KStream<String, String> v2 = v1.map((k, x) -> KeyValue.pair(x, k));
        KStream<String, String> v3 = v0.selectKey((k, x) -> x.substring(0, 1));
        KStream<String, String> v4 = v3.mapValues(x -> x + "m");
        v3.to("o1");
        KStream<String, String> v5 = v1.merge(v2);
        KStream<String, String> v6 = v3.selectKey((k, x) -> x.substring(0, 1));
        v3.to("o2");
        KStream<String, String> v7 = v1.mapValues(x -> x + "m");
        KStream<String, String> v8 = v0.peek((k, x) -> {});
        KStream<String, String> v9 = v8.filterNot((k, x) -> x.startsWith("b"));
        KStream<String, String> v10 = v2.map((k, x) -> KeyValue.pair(x, k));
        run("155", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "x", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "q", 1L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "ab", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "x", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "ab", 2L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "yy", 7L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "bz", 7L);
        });
    }
    static void p156() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = v0.mapValues(x -> x + "m");
        KStream<String, String> v2 = v0.peek((k, x) -> {});
        KStream<String, String> v3 = v2.flatMapValues(x -> List.of(x, x + "f"));
        v3.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o1", Produced.with(Serdes.String(), Serdes.Long()));
        v3.to("o2");
        v0.to("o3");
        KStream<String, String> v4 = v0.flatMapValues(x -> List.of(x, x + "f"));
        KStream<String, String> v5 = v1.mapValues(x -> x + "m");
        run("156", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "x", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "ab", 2L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "bz", 3L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "yy", 4L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "yy", 4L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "ab", 9L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "q", 7L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "ab", 10L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "yy", 15L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "x", 20L);
        });
    }
    static void p157() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = b.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v2 = v0.merge(v1);
        KStream<String, String> v3 = v1.merge(v2);
        v2.to("o1");
        v1.to("o2");
        KStream<String, String> v4 = v3.flatMapValues(x -> List.of(x, x + "f"));
        KStream<String, String> v5 = v1.merge(v3);
        v2.to("o3");
        v5.to("o4");
        run("157", b, d -> {
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("a", "yy", 0L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("c", "bz", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "q", 0L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("d", "yy", 4L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "bz", 6L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("a", "yy", 7L);
        });
    }
    static void p158() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = v0.mapValues(x -> x + "m");
        KStream<String, String> v2 = v0.selectKey((k, x) -> x.substring(0, 1));
        KStream<String, String> v3 = v2.map((k, x) -> KeyValue.pair(x, k));
        run("158", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "yy", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "q", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "q", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "x", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "yy", 2L);
        });
    }
    static void p159() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = b.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v2 = v0.flatMap((k, x) -> List.of(KeyValue.pair(k + "1", x), KeyValue.pair(x, k)));
        v2.to("o1");
        v0.groupByKey().reduce((x, y) -> x + y).toStream().to("o2");
        KStream<String, String> v3 = v1.merge(v2);
        v1.to("o3");
        v2.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o4", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v4 = v0.flatMap((k, x) -> List.of(KeyValue.pair(k + "1", x), KeyValue.pair(x, k)));
        KStream<String, String> v5 = v3.filterNot((k, x) -> x.startsWith("b"));
        KStream<String, String> v6 = v1.merge(v3);
        v2.to("o5");
        run("159", b, d -> {
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("c", "bz", 2L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("a", "bz", 1L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "ab", 4L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "yy", 9L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("b", "x", 11L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("c", "bz", 9L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("d", "yy", 14L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "yy", 19L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("a", "ab", 21L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("d", "yy", 26L);
        });
    }
    static void p160() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        v0.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o1", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v1 = v0.filter((k, x) -> x.length() % 2 == 0);
        KStream<String, String> v2 = v0.filter((k, x) -> x.length() % 2 == 0);
        KStream<String, String> v3 = v1.map((k, x) -> KeyValue.pair(x, k));
        KStream<String, String> v4 = v0.map((k, x) -> KeyValue.pair(x, k));
        KStream<String, String> v5 = v0.filterNot((k, x) -> x.startsWith("b"));
        KStream<String, String> v6 = v5.merge(v3);
        KStream<String, String> v7 = v0.filterNot((k, x) -> x.startsWith("b"));
        v4.to("o2");
        KStream<String, String> v8 = v2.flatMap((k, x) -> List.of(KeyValue.pair(k + "1", x), KeyValue.pair(x, k)));
        KStream<String, String> v9 = v7.merge(v6);
        run("160", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "yy", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "yy", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "ab", 2L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "ab", 7L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "ab", 12L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "yy", 13L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "x", 11L);
        });
    }
    static void p161() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = b.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        v0.groupByKey().count().toStream().to("o1", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v2 = v1.peek((k, x) -> {});
        KStream<String, String> v3 = v2.flatMap((k, x) -> List.of(KeyValue.pair(k + "1", x), KeyValue.pair(x, k)));
        KStream<String, String> v4 = v2.selectKey((k, x) -> x.substring(0, 1));
        KStream<String, String> v5 = v0.merge(v4);
        KStream<String, String> v6 = v1.filterNot((k, x) -> x.startsWith("b"));
        run("161", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "bz", 3L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "bz", 7L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "q", 12L);
        });
    }
    static void p162() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = b.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        v0.to("o1");
        KStream<String, String> v2 = v0.mapValues(x -> x + "m");
        KStream<String, String> v3 = v1.merge(v0);
        KStream<String, String> v4 = v2.filterNot((k, x) -> x.startsWith("b"));
        v2.groupByKey().count().toStream().to("o2", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v5 = v0.merge(v2);
        KStream<String, String> v6 = v0.peek((k, x) -> {});
        KStream<String, String> v7 = v3.filter((k, x) -> x.length() % 2 == 0);
        run("162", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "q", 3L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "x", 1L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "x", 6L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("c", "yy", 11L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "ab", 13L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("c", "bz", 12L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("c", "x", 16L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("a", "x", 14L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("d", "x", 12L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("d", "x", 12L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("b", "ab", 11L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "q", 13L);
        });
    }
    static void p163() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = b.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v2 = v1.flatMapValues(x -> List.of(x, x + "f"));
        v0.groupByKey().reduce((x, y) -> x + y).toStream().to("o1");
        v1.groupByKey().count().toStream().to("o2", Produced.with(Serdes.String(), Serdes.Long()));
        run("163", b, d -> {
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("b", "ab", 3L);
        });
    }
    static void p164() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        v0.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o1", Produced.with(Serdes.String(), Serdes.Long()));
        v0.groupByKey().reduce((x, y) -> x + y).toStream().to("o2");
        KStream<String, String> v1 = v0.mapValues(x -> x + "m");
        KStream<String, String> v2 = v0.peek((k, x) -> {});
        run("164", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "x", 3L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "q", 1L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "x", 5L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "yy", 6L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "bz", 5L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "x", 5L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "yy", 9L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "ab", 6L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "yy", 7L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "x", 4L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "q", 6L);
        });
    }
    static void p165() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = v0.filter((k, x) -> x.length() % 2 == 0);
        KStream<String, String> v2 = v0.merge(v1);
        v2.groupByKey().reduce((x, y) -> x + y).toStream().to("o1");
        v1.to("o2");
        KStream<String, String> v3 = v1.filter((k, x) -> x.length() % 2 == 0);
        v2.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o3", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v4 = v0.flatMapValues(x -> List.of(x, x + "f"));
        KStream<String, String> v5 = v4.flatMap((k, x) -> List.of(KeyValue.pair(k + "1", x), KeyValue.pair(x, k)));
        KStream<String, String> v6 = v0.map((k, x) -> KeyValue.pair(x, k));
        KStream<String, String> v7 = v5.selectKey((k, x) -> x.substring(0, 1));
        KStream<String, String> v8 = v3.selectKey((k, x) -> x.substring(0, 1));
        v8.groupByKey().reduce((x, y) -> x + y).toStream().to("o4");
        KStream<String, String> v9 = v2.selectKey((k, x) -> x.substring(0, 1));
        run("165", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "ab", 5L);
        });
    }
    static void p166() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = b.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v2 = v0.mapValues(x -> x + "m");
        v1.to("o1");
        KStream<String, String> v3 = v1.filterNot((k, x) -> x.startsWith("b"));
        KStream<String, String> v4 = v1.flatMapValues(x -> List.of(x, x + "f"));
        KStream<String, String> v5 = v2.flatMapValues(x -> List.of(x, x + "f"));
        KStream<String, String> v6 = v3.filterNot((k, x) -> x.startsWith("b"));
        KStream<String, String> v7 = v2.mapValues(x -> x + "m");
        KStream<String, String> v8 = v0.map((k, x) -> KeyValue.pair(x, k));
        v6.groupByKey().reduce((x, y) -> x + y).toStream().to("o2");
        KStream<String, String> v9 = v8.merge(v2);
        KStream<String, String> v10 = v8.flatMapValues(x -> List.of(x, x + "f"));
        run("166", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "q", 1L);
        });
    }
    static void p167() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = b.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        v1.groupByKey().count().toStream().to("o1", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v2 = v0.selectKey((k, x) -> x.substring(0, 1));
        KStream<String, String> v3 = v2.selectKey((k, x) -> x.substring(0, 1));
        KStream<String, String> v4 = v3.mapValues(x -> x + "m");
        v3.groupByKey().reduce((x, y) -> x + y).toStream().to("o2");
        KStream<String, String> v5 = v1.map((k, x) -> KeyValue.pair(x, k));
        KStream<String, String> v6 = v4.flatMapValues(x -> List.of(x, x + "f"));
        KStream<String, String> v7 = v2.selectKey((k, x) -> x.substring(0, 1));
        v0.to("o3");
        KStream<String, String> v8 = v7.filter((k, x) -> x.length() % 2 == 0);
        v8.to("o4");
        run("167", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "x", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "x", 3L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("d", "yy", 7L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "x", 4L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("d", "q", 8L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "x", 12L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "bz", 9L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("c", "bz", 7L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("c", "q", 11L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "q", 11L);
        });
    }
    static void p168() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        v0.groupByKey().count().toStream().to("o1", Produced.with(Serdes.String(), Serdes.Long()));
        v0.to("o2");
        v0.groupByKey().reduce((x, y) -> x + y).toStream().to("o3");
        KStream<String, String> v1 = v0.filterNot((k, x) -> x.startsWith("b"));
        KStream<String, String> v2 = v0.mapValues(x -> x + "m");
        KStream<String, String> v3 = v2.mapValues(x -> x + "m");
        run("168", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "yy", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "x", 2L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "ab", 7L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "q", 11L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "bz", 11L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "x", 15L);
        });
    }
    static void p169() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        v0.to("o1");
        KStream<String, String> v1 = v0.filter((k, x) -> x.length() % 2 == 0);
        KStream<String, String> v2 = v0.flatMapValues(x -> List.of(x, x + "f"));
        KStream<String, String> v3 = v0.flatMapValues(x -> List.of(x, x + "f"));
        v2.groupByKey().count().toStream().to("o2", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v4 = v1.merge(v0);
        KStream<String, String> v5 = v4.filter((k, x) -> x.length() % 2 == 0);
        KStream<String, String> v6 = v5.flatMap((k, x) -> List.of(KeyValue.pair(k + "1", x), KeyValue.pair(x, k)));
        KStream<String, String> v7 = v0.merge(v4);
        run("169", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "yy", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "bz", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "x", 5L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "yy", 9L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "yy", 14L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "q", 19L);
        });
    }
    static void p170() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = b.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v2 = v1.filterNot((k, x) -> x.startsWith("b"));
        v2.to("o1");
        v1.to("o2");
        KStream<String, String> v3 = v2.flatMapValues(x -> List.of(x, x + "f"));
        v3.to("o3");
        KStream<String, String> v4 = v3.selectKey((k, x) -> x.substring(0, 1));
        run("170", b, d -> {
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("b", "q", 0L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("a", "q", 5L);
        });
    }
    static void p171() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = b.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v2 = v0.merge(v1);
        KStream<String, String> v3 = v0.peek((k, x) -> {});
        KStream<String, String> v4 = v0.flatMap((k, x) -> List.of(KeyValue.pair(k + "1", x), KeyValue.pair(x, k)));
        v1.to("o1");
        v0.to("o2");
        v4.to("o3");
        KStream<String, String> v5 = v1.merge(v2);
        v3.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o4", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v6 = v1.peek((k, x) -> {});
        KStream<String, String> v7 = v0.peek((k, x) -> {});
        KStream<String, String> v8 = v1.flatMapValues(x -> List.of(x, x + "f"));
        run("171", b, d -> {
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("a", "yy", 5L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "ab", 3L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("a", "bz", 8L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("d", "yy", 9L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("c", "x", 14L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "yy", 14L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "ab", 15L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "q", 20L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("d", "q", 25L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("a", "bz", 27L);
        });
    }
    static void p172() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = b.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        v0.to("o1");
        KStream<String, String> v2 = v1.merge(v0);
        KStream<String, String> v3 = v0.merge(v1);
        run("172", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "q", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "bz", 1L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("a", "x", 0L);
        });
    }
    static void p173() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        v0.to("o1");
        v0.groupByKey().reduce((x, y) -> x + y).toStream().to("o2");
        KStream<String, String> v1 = v0.selectKey((k, x) -> x.substring(0, 1));
        v1.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o3", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v2 = v0.selectKey((k, x) -> x.substring(0, 1));
        KStream<String, String> v3 = v1.filter((k, x) -> x.length() % 2 == 0);
        KStream<String, String> v4 = v1.flatMap((k, x) -> List.of(KeyValue.pair(k + "1", x), KeyValue.pair(x, k)));
        v2.groupByKey().count().toStream().to("o4", Produced.with(Serdes.String(), Serdes.Long()));
        v4.groupByKey().reduce((x, y) -> x + y).toStream().to("o5");
        KStream<String, String> v5 = v4.map((k, x) -> KeyValue.pair(x, k));
        v2.to("o6");
        KStream<String, String> v6 = v4.filterNot((k, x) -> x.startsWith("b"));
        run("173", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "bz", 2L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "q", 1L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "yy", 6L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "x", 11L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "x", 14L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "yy", 14L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "q", 18L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "x", 17L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "x", 21L);
        });
    }
    static void p174() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = b.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        v1.to("o1");
        v0.to("o2");
        KStream<String, String> v2 = v0.flatMapValues(x -> List.of(x, x + "f"));
        KStream<String, String> v3 = v0.mapValues(x -> x + "m");
        KStream<String, String> v4 = v0.map((k, x) -> KeyValue.pair(x, k));
        KStream<String, String> v5 = v3.peek((k, x) -> {});
        KStream<String, String> v6 = v0.selectKey((k, x) -> x.substring(0, 1));
        v1.groupByKey().count().toStream().to("o3", Produced.with(Serdes.String(), Serdes.Long()));
        v6.to("o4");
        v6.groupByKey().count().toStream().to("o5", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v7 = v6.map((k, x) -> KeyValue.pair(x, k));
        v6.to("o6");
        v0.to("o7");
        v0.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o8", Produced.with(Serdes.String(), Serdes.Long()));
        run("174", b, d -> {
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("d", "ab", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "ab", 1L);
        });
    }
    static void p175() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = b.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v2 = v1.merge(v0);
        v0.to("o1");
        KStream<String, String> v3 = v1.merge(v2);
        KStream<String, String> v4 = v1.flatMapValues(x -> List.of(x, x + "f"));
        run("175", b, d -> {
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("c", "q", 2L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("d", "q", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "bz", 2L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("d", "q", 1L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("d", "x", 3L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "q", 1L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "yy", 1L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "ab", 6L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "x", 11L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "yy", 15L);
        });
    }
    static void p176() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = v0.filterNot((k, x) -> x.startsWith("b"));
        v1.groupByKey().reduce((x, y) -> x + y).toStream().to("o1");
        v0.to("o2");
        run("176", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "x", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "yy", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "ab", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "x", 2L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "q", 3L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "q", 6L);
        });
    }
    static void p177() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        v0.groupByKey().reduce((x, y) -> x + y).toStream().to("o1");
        KStream<String, String> v1 = v0.filter((k, x) -> x.length() % 2 == 0);
        KStream<String, String> v2 = v0.flatMapValues(x -> List.of(x, x + "f"));
        KStream<String, String> v3 = v0.filter((k, x) -> x.length() % 2 == 0);
        v2.to("o2");
        v1.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o3", Produced.with(Serdes.String(), Serdes.Long()));
        run("177", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "ab", 1L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "ab", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "x", 5L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "x", 10L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "q", 12L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "q", 11L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "x", 11L);
        });
    }
    static void p178() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = v0.selectKey((k, x) -> x.substring(0, 1));
        KStream<String, String> v2 = v1.flatMapValues(x -> List.of(x, x + "f"));
        KStream<String, String> v3 = v1.filter((k, x) -> x.length() % 2 == 0);
        KStream<String, String> v4 = v3.map((k, x) -> KeyValue.pair(x, k));
        v3.to("o1");
        KStream<String, String> v5 = v2.filter((k, x) -> x.length() % 2 == 0);
        KStream<String, String> v6 = v2.flatMapValues(x -> List.of(x, x + "f"));
        v0.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o2", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v7 = v3.filter((k, x) -> x.length() % 2 == 0);
        run("178", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "q", 2L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "ab", 3L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "q", 7L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "q", 10L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "x", 8L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "yy", 8L);
        });
    }
    static void p179() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = v0.filter((k, x) -> x.length() % 2 == 0);
        KStream<String, String> v2 = v0.flatMap((k, x) -> List.of(KeyValue.pair(k + "1", x), KeyValue.pair(x, k)));
        v2.to("o1");
        KStream<String, String> v3 = v2.merge(v1);
        KStream<String, String> v4 = v3.mapValues(x -> x + "m");
        run("179", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "yy", 2L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "q", 7L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "bz", 5L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "bz", 10L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "q", 8L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "q", 6L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "bz", 8L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "q", 5L);
        });
    }
    static void p180() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        v0.to("o1");
        KStream<String, String> v1 = v0.filter((k, x) -> x.length() % 2 == 0);
        v1.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o2", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v2 = v1.filter((k, x) -> x.length() % 2 == 0);
        v2.to("o3");
        KStream<String, String> v3 = v1.mapValues(x -> x + "m");
        v0.groupByKey().count().toStream().to("o4", Produced.with(Serdes.String(), Serdes.Long()));
        v0.to("o5");
        KStream<String, String> v4 = v3.filterNot((k, x) -> x.startsWith("b"));
        v3.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o6", Produced.with(Serdes.String(), Serdes.Long()));
        run("180", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "bz", 1L);
        });
    }
    static void p181() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = b.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v2 = v0.map((k, x) -> KeyValue.pair(x, k));
        v2.groupByKey().count().toStream().to("o1", Produced.with(Serdes.String(), Serdes.Long()));
        v2.to("o2");
        KStream<String, String> v3 = v1.mapValues(x -> x + "m");
        KStream<String, String> v4 = v2.map((k, x) -> KeyValue.pair(x, k));
        v3.to("o3");
        run("181", b, d -> {
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("b", "q", 2L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("d", "ab", 7L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "yy", 5L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("d", "yy", 9L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "yy", 10L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("d", "bz", 9L);
        });
    }
    static void p182() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = v0.peek((k, x) -> {});
        KStream<String, String> v2 = v1.mapValues(x -> x + "m");
        v2.groupByKey().count().toStream().to("o1", Produced.with(Serdes.String(), Serdes.Long()));
        v1.to("o2");
        KStream<String, String> v3 = v0.selectKey((k, x) -> x.substring(0, 1));
        v3.groupByKey().reduce((x, y) -> x + y).toStream().to("o3");
        KStream<String, String> v4 = v3.mapValues(x -> x + "m");
        KStream<String, String> v5 = v0.filterNot((k, x) -> x.startsWith("b"));
        run("182", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "yy", 3L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "q", 8L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "ab", 12L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "bz", 14L);
        });
    }
    static void p183() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        v0.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o1", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v1 = v0.filterNot((k, x) -> x.startsWith("b"));
        KStream<String, String> v2 = v0.filterNot((k, x) -> x.startsWith("b"));
        v1.groupByKey().reduce((x, y) -> x + y).toStream().to("o2");
        v1.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o3", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v3 = v2.peek((k, x) -> {});
        KStream<String, String> v4 = v3.peek((k, x) -> {});
        v2.groupByKey().reduce((x, y) -> x + y).toStream().to("o4");
        v1.to("o5");
        KStream<String, String> v5 = v0.mapValues(x -> x + "m");
        v2.groupByKey().reduce((x, y) -> x + y).toStream().to("o6");
        v2.groupByKey().count().toStream().to("o7", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v6 = v1.filterNot((k, x) -> x.startsWith("b"));
        KStream<String, String> v7 = v2.map((k, x) -> KeyValue.pair(x, k));
        run("183", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "ab", 1L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "bz", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "yy", 1L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "bz", 2L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "ab", 1L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "x", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "x", 0L);
        });
    }
    static void p184() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = v0.flatMapValues(x -> List.of(x, x + "f"));
        v0.to("o1");
        KStream<String, String> v2 = v0.filter((k, x) -> x.length() % 2 == 0);
        v2.to("o2");
        KStream<String, String> v3 = v2.merge(v0);
        v2.groupByKey().reduce((x, y) -> x + y).toStream().to("o3");
        KStream<String, String> v4 = v3.merge(v0);
        KStream<String, String> v5 = v0.filter((k, x) -> x.length() % 2 == 0);
        v3.to("o4");
        KStream<String, String> v6 = v0.peek((k, x) -> {});
        v2.to("o5");
        run("184", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "bz", 5L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "bz", 7L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "q", 10L);
        });
    }
    static void p185() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = b.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v2 = v1.merge(v0);
        v0.to("o1");
        KStream<String, String> v3 = v0.filterNot((k, x) -> x.startsWith("b"));
        KStream<String, String> v4 = v1.merge(v3);
        run("185", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "bz", 1L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "x", 5L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("d", "q", 9L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "ab", 13L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "bz", 14L);
        });
    }
    static void p186() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = v0.map((k, x) -> KeyValue.pair(x, k));
        KStream<String, String> v2 = v1.mapValues(x -> x + "m");
        KStream<String, String> v3 = v2.peek((k, x) -> {});
        KStream<String, String> v4 = v1.merge(v0);
        v3.to("o1");
        v2.to("o2");
        v3.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o3", Produced.with(Serdes.String(), Serdes.Long()));
        run("186", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "x", 3L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "q", 6L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "bz", 7L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "q", 7L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "x", 9L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "bz", 14L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "yy", 19L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "yy", 20L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "yy", 18L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "x", 22L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "ab", 27L);
        });
    }
    static void p187() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = v0.selectKey((k, x) -> x.substring(0, 1));
        KStream<String, String> v2 = v0.peek((k, x) -> {});
        KStream<String, String> v3 = v2.merge(v0);
        KStream<String, String> v4 = v2.flatMapValues(x -> List.of(x, x + "f"));
        KStream<String, String> v5 = v2.map((k, x) -> KeyValue.pair(x, k));
        v4.groupByKey().count().toStream().to("o1", Produced.with(Serdes.String(), Serdes.Long()));
        v3.to("o2");
        v2.groupByKey().count().toStream().to("o3", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v6 = v1.flatMap((k, x) -> List.of(KeyValue.pair(k + "1", x), KeyValue.pair(x, k)));
        KStream<String, String> v7 = v4.map((k, x) -> KeyValue.pair(x, k));
        KStream<String, String> v8 = v1.merge(v4);
        KStream<String, String> v9 = v8.flatMapValues(x -> List.of(x, x + "f"));
        run("187", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "ab", 3L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "bz", 1L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "bz", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "q", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "q", 5L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "ab", 7L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "q", 12L);
        });
    }
    static void p188() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = b.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v2 = v0.selectKey((k, x) -> x.substring(0, 1));
        KStream<String, String> v3 = v0.flatMapValues(x -> List.of(x, x + "f"));
        KStream<String, String> v4 = v2.merge(v1);
        v1.to("o1");
        v4.groupByKey().count().toStream().to("o2", Produced.with(Serdes.String(), Serdes.Long()));
        v4.groupByKey().reduce((x, y) -> x + y).toStream().to("o3");
        KStream<String, String> v5 = v4.flatMapValues(x -> List.of(x, x + "f"));
        KStream<String, String> v6 = v4.filterNot((k, x) -> x.startsWith("b"));
        KStream<String, String> v7 = v0.merge(v1);
        KStream<String, String> v8 = v1.merge(v0);
        KStream<String, String> v9 = v4.map((k, x) -> KeyValue.pair(x, k));
        v6.to("o4");
        KStream<String, String> v10 = v0.map((k, x) -> KeyValue.pair(x, k));
        run("188", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "x", 0L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("a", "bz", 0L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("b", "yy", 3L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "q", 5L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "yy", 6L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("d", "x", 4L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "q", 3L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("b", "q", 1L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("d", "x", 0L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("c", "bz", 5L);
        });
    }
    static void p189() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = b.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v2 = v0.filter((k, x) -> x.length() % 2 == 0);
        v0.to("o1");
        v2.to("o2");
        KStream<String, String> v3 = v2.peek((k, x) -> {});
        KStream<String, String> v4 = v0.filterNot((k, x) -> x.startsWith("b"));
        KStream<String, String> v5 = v1.peek((k, x) -> {});
        v2.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o3", Produced.with(Serdes.String(), Serdes.Long()));
        run("189", b, d -> {
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("a", "x", 3L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "yy", 3L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("c", "x", 2L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "yy", 3L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("a", "x", 0L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("c", "bz", 0L);
        });
    }
    static void p190() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        v0.to("o1");
        v0.to("o2");
        KStream<String, String> v1 = v0.selectKey((k, x) -> x.substring(0, 1));
        v0.groupByKey().count().toStream().to("o3", Produced.with(Serdes.String(), Serdes.Long()));
        v1.to("o4");
        KStream<String, String> v2 = v0.merge(v1);
        v2.to("o5");
        KStream<String, String> v3 = v1.merge(v2);
        v2.groupByKey().count().toStream().to("o6", Produced.with(Serdes.String(), Serdes.Long()));
        v3.groupByKey().reduce((x, y) -> x + y).toStream().to("o7");
        v1.groupByKey().count().toStream().to("o8", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v4 = v0.flatMap((k, x) -> List.of(KeyValue.pair(k + "1", x), KeyValue.pair(x, k)));
        v0.groupByKey().count().toStream().to("o9", Produced.with(Serdes.String(), Serdes.Long()));
        v2.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o10", Produced.with(Serdes.String(), Serdes.Long()));
        run("190", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "yy", 0L);
        });
    }
    static void p191() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        v0.groupByKey().reduce((x, y) -> x + y).toStream().to("o1");
        v0.to("o2");
        v0.groupByKey().count().toStream().to("o3", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v1 = v0.filter((k, x) -> x.length() % 2 == 0);
        v1.groupByKey().count().toStream().to("o4", Produced.with(Serdes.String(), Serdes.Long()));
        v0.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o5", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v2 = v1.filter((k, x) -> x.length() % 2 == 0);
        v0.to("o6");
        v2.groupByKey().count().toStream().to("o7", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v3 = v2.peek((k, x) -> {});
        KStream<String, String> v4 = v1.filterNot((k, x) -> x.startsWith("b"));
        KStream<String, String> v5 = v2.merge(v0);
        run("191", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "x", 1L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "bz", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "q", 4L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "ab", 1L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "x", 4L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "x", 4L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "bz", 8L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "ab", 5L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "ab", 4L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "bz", 5L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "q", 6L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "ab", 9L);
        });
    }
    static void p192() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        v0.groupByKey().count().toStream().to("o1", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v1 = v0.map((k, x) -> KeyValue.pair(x, k));
        v1.to("o2");
        v1.to("o3");
        v0.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o4", Produced.with(Serdes.String(), Serdes.Long()));
        v0.to("o5");
        KStream<String, String> v2 = v0.selectKey((k, x) -> x.substring(0, 1));
        KStream<String, String> v3 = v2.selectKey((k, x) -> x.substring(0, 1));
        v3.to("o6");
        run("192", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "ab", 5L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "x", 2L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "yy", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "x", 0L);
        });
    }
    static void p193() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = b.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v2 = v0.map((k, x) -> KeyValue.pair(x, k));
        KStream<String, String> v3 = v2.flatMapValues(x -> List.of(x, x + "f"));
        v0.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o1", Produced.with(Serdes.String(), Serdes.Long()));
        v3.to("o2");
        run("193", b, d -> {
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("a", "ab", 4L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("c", "yy", 5L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "bz", 3L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "q", 1L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "q", 4L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "bz", 1L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "ab", 6L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "q", 10L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "ab", 12L);
        });
    }
    static void p194() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = b.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v2 = v0.merge(v1);
        v1.to("o1");
        v2.to("o2");
        v1.groupByKey().reduce((x, y) -> x + y).toStream().to("o3");
        KStream<String, String> v3 = v2.filter((k, x) -> x.length() % 2 == 0);
        KStream<String, String> v4 = v1.mapValues(x -> x + "m");
        v0.to("o4");
        KStream<String, String> v5 = v0.filterNot((k, x) -> x.startsWith("b"));
        run("194", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "x", 2L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "q", 7L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("a", "x", 8L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "x", 12L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("a", "yy", 13L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("a", "ab", 14L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "bz", 18L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("d", "q", 19L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "x", 17L);
        });
    }
    static void p195() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = b.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v2 = v1.merge(v0);
        KStream<String, String> v3 = v1.flatMapValues(x -> List.of(x, x + "f"));
        KStream<String, String> v4 = v0.filter((k, x) -> x.length() % 2 == 0);
        KStream<String, String> v5 = v2.filterNot((k, x) -> x.startsWith("b"));
        v4.to("o1");
        KStream<String, String> v6 = v5.mapValues(x -> x + "m");
        KStream<String, String> v7 = v2.peek((k, x) -> {});
        v7.to("o2");
        run("195", b, d -> {
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("d", "q", 1L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "x", 3L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("a", "x", 2L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "bz", 4L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("a", "yy", 9L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("a", "ab", 13L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("a", "x", 16L);
            d.createInputTopic("in1", new StringSerializer(), new StringSerializer()).pipeInput("a", "bz", 21L);
        });
    }
    static void p196() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = v0.peek((k, x) -> {});
        KStream<String, String> v2 = v1.map((k, x) -> KeyValue.pair(x, k));
        KStream<String, String> v3 = v0.map((k, x) -> KeyValue.pair(x, k));
        v2.groupByKey().count().toStream().to("o1", Produced.with(Serdes.String(), Serdes.Long()));
        KStream<String, String> v4 = v2.flatMapValues(x -> List.of(x, x + "f"));
        v1.groupByKey().reduce((x, y) -> x + y).toStream().to("o2");
        KStream<String, String> v5 = v1.map((k, x) -> KeyValue.pair(x, k));
        KStream<String, String> v6 = v1.peek((k, x) -> {});
        KStream<String, String> v7 = v6.filterNot((k, x) -> x.startsWith("b"));
        run("196", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "bz", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "bz", 2L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "bz", 4L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "ab", 9L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "ab", 6L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "x", 8L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "yy", 11L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "q", 15L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "ab", 14L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "yy", 15L);
        });
    }
    static void p197() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = v0.flatMap((k, x) -> List.of(KeyValue.pair(k + "1", x), KeyValue.pair(x, k)));
        KStream<String, String> v2 = v1.merge(v0);
        KStream<String, String> v3 = v1.mapValues(x -> x + "m");
        v3.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o1", Produced.with(Serdes.String(), Serdes.Long()));
        v3.to("o2");
        v0.to("o3");
        run("197", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "bz", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "bz", 0L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "x", 2L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "ab", 3L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "bz", 6L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "q", 6L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "x", 9L);
        });
    }
    static void p198() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = b.stream("in1", Consumed.with(Serdes.String(), Serdes.String()));
        v0.to("o1");
        v0.to("o2");
        KStream<String, String> v2 = v0.filterNot((k, x) -> x.startsWith("b"));
        v2.to("o3");
        KStream<String, String> v3 = v1.filterNot((k, x) -> x.startsWith("b"));
        run("198", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "q", 3L);
        });
    }
    static void p199() throws Exception {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> v0 = b.stream("in0", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> v1 = v0.mapValues(x -> x + "m");
        KStream<String, String> v2 = v0.map((k, x) -> KeyValue.pair(x, k));
        v2.to("o1");
        v0.to("o2");
        KStream<String, String> v3 = v2.flatMapValues(x -> List.of(x, x + "f"));
        run("199", b, d -> {
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "bz", 2L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "x", 1L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("c", "x", 1L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("d", "ab", 1L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("a", "ab", 5L);
            d.createInputTopic("in0", new StringSerializer(), new StringSerializer()).pipeInput("b", "yy", 9L);
        });
    }
    public static void main(String[] a) throws Exception {
        p000();
        p001();
        p002();
        p003();
        p004();
        p005();
        p006();
        p007();
        p008();
        p009();
        p010();
        p011();
        p012();
        p013();
        p014();
        p015();
        p016();
        p017();
        p018();
        p019();
        p020();
        p021();
        p022();
        p023();
        p024();
        p025();
        p026();
        p027();
        p028();
        p029();
        p030();
        p031();
        p032();
        p033();
        p034();
        p035();
        p036();
        p037();
        p038();
        p039();
        p040();
        p041();
        p042();
        p043();
        p044();
        p045();
        p046();
        p047();
        p048();
        p049();
        p050();
        p051();
        p052();
        p053();
        p054();
        p055();
        p056();
        p057();
        p058();
        p059();
        p060();
        p061();
        p062();
        p063();
        p064();
        p065();
        p066();
        p067();
        p068();
        p069();
        p070();
        p071();
        p072();
        p073();
        p074();
        p075();
        p076();
        p077();
        p078();
        p079();
        p080();
        p081();
        p082();
        p083();
        p084();
        p085();
        p086();
        p087();
        p088();
        p089();
        p090();
        p091();
        p092();
        p093();
        p094();
        p095();
        p096();
        p097();
        p098();
        p099();
        p100();
        p101();
        p102();
        p103();
        p104();
        p105();
        p106();
        p107();
        p108();
        p109();
        p110();
        p111();
        p112();
        p113();
        p114();
        p115();
        p116();
        p117();
        p118();
        p119();
        p120();
        p121();
        p122();
        p123();
        p124();
        p125();
        p126();
        p127();
        p128();
        p129();
        p130();
        p131();
        p132();
        p133();
        p134();
        p135();
        p136();
        p137();
        p138();
        p139();
        p140();
        p141();
        p142();
        p143();
        p144();
        p145();
        p146();
        p147();
        p148();
        p149();
        p150();
        p151();
        p152();
        p153();
        p154();
        p155();
        p156();
        p157();
        p158();
        p159();
        p160();
        p161();
        p162();
        p163();
        p164();
        p165();
        p166();
        p167();
        p168();
        p169();
        p170();
        p171();
        p172();
        p173();
        p174();
        p175();
        p176();
        p177();
        p178();
        p179();
        p180();
        p181();
        p182();
        p183();
        p184();
        p185();
        p186();
        p187();
        p188();
        p189();
        p190();
        p191();
        p192();
        p193();
        p194();
        p195();
        p196();
        p197();
        p198();
        p199();
    }
}
