import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.test.TestRecord;

/**
 * Runs command scripts on an LRU map (Stores.keyValueStoreBuilder over Stores.lruMap) through
 * TopologyTestDriver and prints, per scenario, each record's results (R) and the store's changelog
 * (C key=value@timestamp). The Go twin is lruCommands in kstreams/kstreamstest/lrumap_test.go.
 */
public class LruMapSim {
    /** Runs the ";"-separated commands of each value on store "lru"; see lruCommands. */
    static class Commands implements Processor<String, String, String, String> {
        private ProcessorContext<String, String> ctx;
        private KeyValueStore<String, String> kv;

        @Override
        public void init(ProcessorContext<String, String> context) {
            ctx = context;
            kv = context.getStateStore("lru");
        }

        private static String show(String v) {
            return v == null ? "null" : v;
        }

        private static String scan(KeyValueIterator<String, String> it) {
            List<String> es = new ArrayList<>();
            try (it) {
                while (it.hasNext()) {
                    KeyValue<String, String> e = it.next();
                    es.add(e.key + "=" + e.value);
                }
            }
            return "[" + String.join(",", es) + "]";
        }

        @Override
        public void process(Record<String, String> r) {
            List<String> out = new ArrayList<>();
            for (String cmd : r.value().split(";")) {
                String[] f = cmd.trim().split(" +");
                out.add(switch (f[0]) {
                    case "put" -> { kv.put(f[1], f[2]); yield "ok"; }
                    case "nul" -> { kv.put(f[1], null); yield "ok"; }
                    case "putall" -> {
                        List<KeyValue<String, String>> es = new ArrayList<>();
                        for (int i = 1; i + 1 < f.length; i += 2) {
                            es.add(KeyValue.pair(f[i], f[i + 1].equals("null") ? null : f[i + 1]));
                        }
                        kv.putAll(es);
                        yield "ok";
                    }
                    case "get" -> show(kv.get(f[1]));
                    case "del" -> { String v = kv.get(f[1]); kv.delete(f[1]); yield show(v); }
                    case "pia" -> show(kv.putIfAbsent(f[1], f[2]));
                    case "all" -> scan(kv.all());
                    case "rall" -> scan(kv.reverseAll());
                    case "range" -> scan(kv.range(f[1], f[2]));
                    case "rrange" -> scan(kv.reverseRange(f[1], f[2]));
                    case "prefix" -> scan(kv.prefixScan(f[1], new StringSerializer()));
                    case "n" -> String.valueOf(kv.approximateNumEntries());
                    default -> throw new IllegalArgumentException(cmd);
                });
            }
            ctx.forward(new Record<>(r.key(), String.join(";", out), r.timestamp()));
        }
    }

    /** Pipes each line as a record of key "k" at 100, 200, ... */
    static void run(String name, int max, boolean caching, String... lines) {
        Topology t = new Topology();
        t.addSource("source", new StringDeserializer(), new StringDeserializer(), "in");
        t.addProcessor("commands", Commands::new, "source");
        StoreBuilder<KeyValueStore<String, String>> sb =
                Stores.keyValueStoreBuilder(Stores.lruMap("lru", max), Serdes.String(), Serdes.String());
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
            for (int i = 0; i < lines.length; i++) {
                in.pipeInput("k", lines[i], (i + 1) * 100L);
            }
            System.out.println("== " + name + " max=" + max + " caching=" + caching);
            for (TestRecord<String, String> r : d.createOutputTopic("out", new StringDeserializer(), new StringDeserializer()).readRecordsToList()) {
                System.out.println("R " + r.value());
            }
            for (TestRecord<String, String> r : d.createOutputTopic("app-lru-changelog", new StringDeserializer(), new StringDeserializer()).readRecordsToList()) {
                System.out.println("C " + r.key() + "=" + show(r.value()) + "@" + r.timestamp());
            }
        }
    }

    private static String show(String v) {
        return v == null ? "null" : v;
    }

    public static void main(String[] args) {
        List<String> puts = new ArrayList<>();
        String[] words = {"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"};
        for (int i = 0; i < words.length; i++) {
            puts.add("put " + i + " " + words[i]);
        }
        run("evict", 10, false, String.join(";", puts) + ";n", "put 10 ten;n", "del 1;n", "put 11 eleven;n",
                "put 2 two-again;n", "put 12 twelve;n;get 3;get 4");
        run("putall", 10, false, "putall 1 1 2 2 3 3;n;get 1;get 2;get 3", "putall 1 ONE 2 TWO 3 THREE;n;get 1;get 2;get 3");
        run("uses", 3, false,
                "put a 1;put b 2;put c 3;get a;put d 4;all",
                "pia c 9;all;range a c;rrange a d;prefix d;rall;put e 5;all",
                "get x;put f 6;all",
                "nul c;put g 7;all;n",
                "del zz;pia zz 8;all",
                "put a 1;put b 2;put c 3;put d 4;n");
        run("zero", 0, false, "put a 1;get a;n;all");
        String[] cache = {"put a 1;put b 2;put c 3;get a", "get a;get b;put d 4;all", "get c;put e 5;all;n"};
        run("cache", 2, false, cache);
        run("cache", 2, true, cache);
        run("cache-delete", 2, true, "put a 1;put b 2", "get a;del b;put c 3;all;n", "put d 4;nul zz;all;n");
        String[] putAll = {"putall a 1 b 2 c 3 d 4;all", "putall e 5 c null a 6;all;n"};
        run("putall-evict", 2, false, putAll);
        run("putall-evict", 2, true, putAll);
    }
}
