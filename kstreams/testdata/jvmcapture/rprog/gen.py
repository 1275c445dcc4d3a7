# Random DSL programs with random input, run by Kafka Streams' TopologyTestDriver
# (RProg.java) and by kstreamstest (rprog_test.go): NNN.spec holds the program
# and the input records.
import random, sys
seed, count = int(sys.argv[1]), int(sys.argv[2])
random.seed(seed)
OPS = ["filter", "filterNot", "mapValues", "map", "flatMap", "flatMapValues", "selectKey", "peek"]
java_methods = []
for pid in range(count):
    lines, java = [], []
    streams = []
    topics = []
    for i in range(random.randint(1, 2)):
        t = "in%d" % i
        topics.append(t)
        v = "v%d" % len(streams)
        lines.append("%s = stream %s" % (v, t))
        java.append('KStream<String, String> %s = b.stream("%s", Consumed.with(Serdes.String(), Serdes.String()));' % (v, t))
        streams.append(v)
    sinks = 0
    for i in range(random.randint(3, 14)):
        s = random.choice(streams)
        r = random.random()
        v = "v%d" % len(streams)
        if r < 0.12 and len(streams) > 1:
            o = random.choice([x for x in streams if x != s])
            lines.append("%s = merge %s %s" % (v, s, o))
            java.append("KStream<String, String> %s = %s.merge(%s);" % (v, s, o))
            streams.append(v)
        elif r < 0.6:
            op = random.choice(OPS)
            lines.append("%s = %s %s" % (v, op, s))
            java.append("KStream<String, String> %s = %s;" % (v, {
                "filter": "%s.filter((k, x) -> x.length() %% 2 == 0)",
                "filterNot": "%s.filterNot((k, x) -> x.startsWith(\"b\"))",
                "mapValues": "%s.mapValues(x -> x + \"m\")",
                "map": "%s.map((k, x) -> KeyValue.pair(x, k))",
                "flatMap": "%s.flatMap((k, x) -> List.of(KeyValue.pair(k + \"1\", x), KeyValue.pair(x, k)))",
                "flatMapValues": "%s.flatMapValues(x -> List.of(x, x + \"f\"))",
                "selectKey": "%s.selectKey((k, x) -> x.substring(0, 1))",
                "peek": "%s.peek((k, x) -> {})",
            }[op] % s))
            streams.append(v)
        elif r < 0.8:
            sinks += 1
            lines.append("to %s o%d" % (s, sinks))
            java.append('%s.to("o%d");' % (s, sinks))
        else:
            sinks += 1
            kind = random.choice(["countKey", "countBy", "reduce"])
            lines.append("%s o%d %s" % (kind, sinks, s))
            if kind == "countKey":
                java.append('%s.groupByKey().count().toStream().to("o%d", Produced.with(Serdes.String(), Serdes.Long()));' % (s, sinks))
            elif kind == "countBy":
                java.append('%s.groupBy((k, x) -> x.substring(0, 1)).count().toStream().to("o%d", Produced.with(Serdes.String(), Serdes.Long()));' % (s, sinks))
            else:
                java.append('%s.groupByKey().reduce((x, y) -> x + y).toStream().to("o%d");' % (s, sinks))
    inputs = []
    ts = 0
    for i in range(random.randint(1, 12)):
        ts += random.randint(-3, 5)
        ts = max(ts, 0)
        inputs.append("input %s %s %s %d" % (random.choice(topics), random.choice("abcd"), random.choice(["x", "yy", "bz", "ab", "q"]), ts))
    lines += inputs
    open("specs/%03d.spec" % pid, "w").write("\n".join(lines) + "\n")
    feed = []
    for l in inputs:
        _, t, k, x, tsv = l.split()
        feed.append('d.createInputTopic("%s", new StringSerializer(), new StringSerializer()).pipeInput("%s", "%s", %sL);' % (t, k, x, tsv))
    java_methods.append((pid, java, feed))
with open("RProg.java", "w") as f:
    f.write("""import org.apache.kafka.common.serialization.*;
import org.apache.kafka.streams.*;
import org.apache.kafka.streams.kstream.*;
import org.apache.kafka.streams.state.*;
import org.apache.kafka.streams.test.TestRecord;
import java.util.*;
import java.nio.file.*;

public class RProg {
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
        p.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 0);
        p.put(StreamsConfig.DSL_STORE_SUPPLIERS_CLASS_CONFIG, BuiltInDslStoreSuppliers.InMemoryDslStoreSuppliers.class);
        p.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        p.put(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        StringBuilder sb = new StringBuilder();
        try (TopologyTestDriver d = new TopologyTestDriver(b.build(), p)) {
            feed.accept(d);
            for (String t : new TreeSet<>(d.producedTopicNames())) {
                for (TestRecord<byte[], byte[]> r : d.createOutputTopic(t, new ByteArrayDeserializer(), new ByteArrayDeserializer()).readRecordsToList()) {
                    sb.append(t).append(" key=").append(hex(r.key())).append(" value=").append(hex(r.value())).append(" ts=").append(r.timestamp()).append("\\n");
                }
            }
        }
        Files.writeString(Path.of("specs/" + name + ".records.txt"), sb.toString());
    }
""")
    for pid, java, feed in java_methods:
        f.write("    static void p%03d() throws Exception {\n        StreamsBuilder b = new StreamsBuilder();\n" % pid)
        for l in java:
            f.write("        " + l + "\n")
        f.write('        run("%03d", b, d -> {\n' % pid)
        for l in feed:
            f.write("            " + l + "\n")
        f.write("        });\n    }\n")
    f.write("    public static void main(String[] a) throws Exception {\n")
    for pid, _, _ in java_methods:
        f.write("        p%03d();\n" % pid)
    f.write("    }\n}\n")
