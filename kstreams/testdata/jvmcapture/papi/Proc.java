import org.apache.kafka.common.serialization.*;
import org.apache.kafka.streams.*;
import org.apache.kafka.streams.kstream.*;
import org.apache.kafka.streams.processor.api.*;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.*;
import org.apache.kafka.streams.test.TestRecord;
import java.util.*;
import java.nio.file.*;

// A Processor API node with its own key-value store inside a DSL topology:
// describe() and the records TopologyTestDriver writes.
public class Proc {
    static String hex(byte[] b) {
        if (b == null) return "null";
        StringBuilder sb = new StringBuilder();
        for (byte x : b) sb.append(String.format("%02x", x));
        return sb.toString();
    }
    public static void main(String[] a) throws Exception {
        Files.createDirectories(Path.of("out"));
        StreamsBuilder b = new StreamsBuilder();
        b.addStateStore(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore("seen"), Serdes.String(), Serdes.Long()));
        KStream<String, String> in = b.stream("in", Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, Long> counted = in.process(() -> new Processor<String, String, String, Long>() {
            ProcessorContext<String, Long> ctx;
            KeyValueStore<String, Long> store;
            public void init(ProcessorContext<String, Long> c) { ctx = c; store = c.getStateStore("seen"); }
            public void process(Record<String, String> r) {
                Long n = store.get(r.key());
                long next = n == null ? 1 : n + 1;
                if (r.value().equals("reset")) { store.delete(r.key()); next = 0; } else { store.put(r.key(), next); }
                ctx.forward(r.withKey(r.value()).withValue(next));
            }
        }, "seen");
        counted.to("counted", Produced.with(Serdes.String(), Serdes.Long()));
        counted.groupByKey(Grouped.with(Serdes.String(), Serdes.Long())).count().toStream().to("regrouped", Produced.with(Serdes.String(), Serdes.Long()));
        Topology topo = b.build();
        Files.writeString(Path.of("out/process.describe.txt"), topo.describe().toString());
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, "app");
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "dummy:9092");
        p.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 0);
        p.put(StreamsConfig.DSL_STORE_SUPPLIERS_CLASS_CONFIG, BuiltInDslStoreSuppliers.InMemoryDslStoreSuppliers.class);
        StringBuilder sb = new StringBuilder();
        try (TopologyTestDriver d = new TopologyTestDriver(topo, p)) {
            TestInputTopic<String, String> i = d.createInputTopic("in", new StringSerializer(), new StringSerializer());
            i.pipeInput("k", "x", 5); i.pipeInput("k", "y", 3); i.pipeInput("j", "x", 8); i.pipeInput("k", "reset", 9); i.pipeInput("k", "x", 10);
            for (String t : List.of("counted", "regrouped", "app-seen-changelog")) {
                for (TestRecord<byte[], byte[]> r : d.createOutputTopic(t, new ByteArrayDeserializer(), new ByteArrayDeserializer()).readRecordsToList()) {
                    sb.append(t).append(" key=").append(hex(r.key())).append(" value=").append(hex(r.value())).append(" ts=").append(r.timestamp()).append("\n");
                }
            }
        }
        Files.writeString(Path.of("out/process.records.txt"), sb.toString());
    }
}
