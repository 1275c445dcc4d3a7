import org.apache.kafka.common.serialization.*;
import org.apache.kafka.streams.*;
import org.apache.kafka.streams.kstream.*;
import org.apache.kafka.streams.test.TestRecord;
import org.apache.kafka.streams.state.*;
import java.time.Duration;
import java.util.*;
import java.nio.file.*;

// Runs each specs/NNN.spec through Kafka Streams 4.4.0's TopologyTestDriver:
// count per key (plain, time-windowed or session-windowed) to "out", and
// writes out + changelog records to specs/NNN.records.txt.
public class RandSimCached {
    static String hex(byte[] b) {
        if (b == null) return "null";
        StringBuilder sb = new StringBuilder();
        for (byte x : b) sb.append(String.format("%02x", x));
        return sb.toString();
    }
    public static void main(String[] args) throws Exception {
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(Path.of("specs"), "*.spec")) {
            for (Path spec : ds) {
                List<String> lines = Files.readAllLines(spec);
                String[] h = lines.get(0).split(" ");
                StreamsBuilder b = new StreamsBuilder();
                KGroupedStream<String, String> g = b.stream("in", Consumed.with(Serdes.String(), Serdes.String())).groupByKey();
                if (h[0].equals("time")) {
                    TimeWindows w = TimeWindows.ofSizeAndGrace(Duration.ofMillis(Long.parseLong(h[1])), Duration.ofMillis(Long.parseLong(h[3])))
                        .advanceBy(Duration.ofMillis(Long.parseLong(h[2])));
                    g.windowedBy(w).count(Materialized.as("counts")).toStream()
                        .to("out", Produced.with(WindowedSerdes.timeWindowedSerdeFrom(String.class, Long.parseLong(h[1])), Serdes.Long()));
                } else if (h[0].equals("session")) {
                    g.windowedBy(SessionWindows.ofInactivityGapAndGrace(Duration.ofMillis(Long.parseLong(h[1])), Duration.ofMillis(Long.parseLong(h[2]))))
                        .count(Materialized.as("counts")).toStream()
                        .to("out", Produced.with(WindowedSerdes.sessionWindowedSerdeFrom(String.class), Serdes.Long()));
                } else {
                    g.count(Materialized.as("counts")).toStream().to("out", Produced.with(Serdes.String(), Serdes.Long()));
                }
                Properties p = new Properties();
                p.put(StreamsConfig.APPLICATION_ID_CONFIG, "app");
                p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "dummy:9092");
                
                p.put(StreamsConfig.DSL_STORE_SUPPLIERS_CLASS_CONFIG, BuiltInDslStoreSuppliers.InMemoryDslStoreSuppliers.class);
                StringBuilder sb = new StringBuilder();
                try (TopologyTestDriver d = new TopologyTestDriver(b.build(), p)) {
                    TestInputTopic<String, String> in = d.createInputTopic("in", new StringSerializer(), new StringSerializer());
                    for (String l : lines.subList(1, lines.size())) {
                        String[] f = l.split(" ");
                        in.pipeInput(f[0], "v", Long.parseLong(f[1]));
                    }
                    for (String t : List.of("out", "app-counts-changelog")) {
                        for (TestRecord<byte[], byte[]> r : d.createOutputTopic(t, new ByteArrayDeserializer(), new ByteArrayDeserializer()).readRecordsToList()) {
                            sb.append(t).append(" key=").append(hex(r.key())).append(" value=").append(hex(r.value())).append(" ts=").append(r.timestamp()).append("\n");
                        }
                    }
                }
                Files.writeString(Path.of(spec.toString().replace(".spec", ".cached.txt")), sb.toString());
            }
        }
    }
}
