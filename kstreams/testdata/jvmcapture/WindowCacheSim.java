import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.WindowBytesStoreSupplier;
import org.apache.kafka.streams.state.WindowStore;
import org.apache.kafka.streams.state.WindowStoreIterator;
import org.apache.kafka.streams.test.TestRecord;

/**
 * Runs command scripts on a plain window store (Stores.windowStoreBuilder, 2 min retention, 10 s
 * windows), with and without withCachingEnabled(), through TopologyTestDriver, and prints, per
 * scenario, each record's results (R) and the store's changelog (C key@start#seq=value@timestamp).
 * The Go twin is windowCommands in kstreams/kstreamstest/windowcache_test.go.
 */
public class WindowCacheSim {
    static class Commands implements Processor<String, String, String, String> {
        private ProcessorContext<String, String> ctx;
        private WindowStore<String, String> ws;

        @Override
        public void init(ProcessorContext<String, String> context) {
            ctx = context;
            ws = context.getStateStore("win");
        }

        private static String show(String v) {
            return v == null ? "null" : v;
        }

        @Override
        public void process(Record<String, String> r) {
            List<String> out = new ArrayList<>();
            for (String cmd : r.value().split(";")) {
                String[] f = cmd.trim().split(" +");
                out.add(switch (f[0]) {
                    case "put" -> { ws.put(f[1], f[2], Long.parseLong(f[3])); yield "ok"; }
                    case "nul" -> { ws.put(f[1], null, Long.parseLong(f[2])); yield "ok"; }
                    case "get" -> show(ws.fetch(f[1], Long.parseLong(f[2])));
                    case "range" -> {
                        List<String> es = new ArrayList<>();
                        try (WindowStoreIterator<String> it = ws.fetch(f[1], Long.parseLong(f[2]), Long.parseLong(f[3]))) {
                            while (it.hasNext()) {
                                KeyValue<Long, String> e = it.next();
                                es.add(e.key + "=" + e.value);
                            }
                        }
                        yield "[" + String.join(",", es) + "]";
                    }
                    case "all" -> {
                        List<String> es = new ArrayList<>();
                        try (KeyValueIterator<Windowed<String>, String> it = ws.fetchAll(Long.parseLong(f[1]), Long.parseLong(f[2]))) {
                            while (it.hasNext()) {
                                KeyValue<Windowed<String>, String> e = it.next();
                                es.add(e.key.key() + "@" + e.key.window().start() + "=" + e.value);
                            }
                        }
                        yield "[" + String.join(",", es) + "]";
                    }
                    default -> throw new IllegalArgumentException(cmd);
                });
            }
            ctx.forward(new Record<>(r.key(), String.join(";", out), r.timestamp()));
        }
    }

    /** Pipes each line "timestamp|commands" as a record of key "k". */
    static void run(String name, boolean inMemory, boolean dups, boolean caching, String... lines) {
        Topology t = new Topology();
        t.addSource("source", new StringDeserializer(), new StringDeserializer(), "in");
        t.addProcessor("commands", Commands::new, "source");
        WindowBytesStoreSupplier supplier = inMemory
                ? Stores.inMemoryWindowStore("win", Duration.ofMinutes(2), Duration.ofSeconds(10), dups)
                : Stores.persistentWindowStore("win", Duration.ofMinutes(2), Duration.ofSeconds(10), dups);
        StoreBuilder<WindowStore<String, String>> sb = Stores.windowStoreBuilder(supplier, Serdes.String(), Serdes.String());
        if (caching) {
            sb = sb.withCachingEnabled();
        }
        t.addStateStore(sb, "commands");
        t.addSink("sink", "out", new StringSerializer(), new StringSerializer(), "commands");
        Properties p = new Properties();
        p.put("application.id", "app");
        p.put("bootstrap.servers", "unused:9092");
        try (TopologyTestDriver d = new TopologyTestDriver(t, p)) {
            TestInputTopic<String, String> in = d.createInputTopic("in", new StringSerializer(), new StringSerializer());
            for (String line : lines) {
                String[] tl = line.split("\\|", 2);
                in.pipeInput("k", tl[1], Long.parseLong(tl[0]));
            }
            System.out.println("== " + name + " inMemory=" + inMemory + " dups=" + dups + " caching=" + caching);
            for (TestRecord<String, String> r : d.createOutputTopic("out", new StringDeserializer(), new StringDeserializer()).readRecordsToList()) {
                System.out.println("R " + r.value());
            }
            for (TestRecord<byte[], byte[]> r : d.createOutputTopic("app-win-changelog", new ByteArrayDeserializer(), new ByteArrayDeserializer()).readRecordsToList()) {
                ByteBuffer k = ByteBuffer.wrap(r.key());
                byte[] key = new byte[r.key().length - 12];
                k.get(key);
                long start = k.getLong();
                int seq = k.getInt();
                String v = r.value() == null ? "null" : new String(r.value(), StandardCharsets.UTF_8);
                System.out.println("C " + new String(key, StandardCharsets.UTF_8) + "@" + start + "#" + seq + "=" + v + "@" + r.timestamp());
            }
        }
    }

    public static void main(String[] args) {
        String[] basic = {
            "1000|put a 1 0;put a 2 0;get a 0;put b 3 0;nul c 0;put d 4 10000;nul d 10000;get d 10000;range a 0 100000;all 0 100000",
            "2000|put a 5 0;nul b 0;get b 0;range b 0 0;put aa 6 0;put a 7 70000;put b 8 65000;all 0 100000;range a 0 100000",
            "3000|put a 9 200000;get a 0;get a 70000;range a 0 300000;put z 1 1000;get z 1000;range z 0 300000;all 0 300000",
            "4000|get a 0;all 0 300000;put b 10 190000;nul a 70000;range a 0 300000;all 60000 300000",
        };
        for (boolean inMemory : new boolean[] {false, true}) {
            for (boolean caching : new boolean[] {false, true}) {
                run("basic", inMemory, false, caching, basic);
            }
        }
        String max = String.valueOf(Long.MAX_VALUE);
        String[] exact = {
            "1000|put a 0001 0;put aa 0002 0;put a 0003 1;put aa 0004 1;put a 0005 60000;range a 0 " + max + ";range aa 0 5;all 0 " + max,
            "2000|range a 0 " + max + ";all 0 " + max + ";put a 0006 1;range a 1 1;get a 1",
        };
        run("exact", false, false, false, exact);
        run("exact", false, false, true, exact);
        run("order", false, false, true, "1000|put a 1 0;put b 2 0;put a 3 0;nul c 0;put b 4 0;all 0 0",
                "2000|put b 5 0;nul a 0;put a 6 0;nul c 0;all 0 0");
        run("dups", false, true, true, "1000|put a 1 0;put a 2 0;nul a 0;range a 0 0;all 0 0", "2000|put a 3 0;range a 0 0");
    }
}
