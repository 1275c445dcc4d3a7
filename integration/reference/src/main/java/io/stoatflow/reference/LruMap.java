package io.stoatflow.reference;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;

/**
 * An LRU map ("recent", Stores.lruMap of 3 entries) kept by Recent. Each record's value is a command
 * on its key: "get" reads the key, "del" deletes it, "?v" puts v if the key has no value, "range:to"
 * and "rrange:to" scan from the key to "to", "prefix" scans the keys starting with the key, "all" and
 * "rall" scan everything, "count" counts the entries, "+k=v,k2,..." puts each k=v and deletes each
 * bare k (putAll, whatever the record's key); a null value puts null, any other value is put under
 * the key. Recent forwards the command's result and the store's entries: "result|k=v,...".
 *
 * Arguments: input, output.
 */
final class LruMap {
    private LruMap() {
    }

    static Topology topology(Map<String, String> args) {
        String input = Main.arg(args, "input", "lrumap-input");
        String output = Main.arg(args, "output", "lrumap-output");
        Topology t = new Topology();
        t.addSource("Source", Serdes.String().deserializer(), Serdes.String().deserializer(), input);
        t.addProcessor("Recent", Recent::new, "Source");
        t.addStateStore(Stores.keyValueStoreBuilder(Stores.lruMap("recent", 3), Serdes.String(), Serdes.String()), "Recent");
        t.addSink("Sink", output, Serdes.String().serializer(), Serdes.String().serializer(), "Recent");
        return t;
    }

    private static final class Recent implements Processor<String, String, String, String> {
        private ProcessorContext<String, String> context;
        private KeyValueStore<String, String> store;

        @Override
        public void init(ProcessorContext<String, String> context) {
            this.context = context;
            store = context.getStateStore("recent");
        }

        @Override
        public void process(Record<String, String> r) {
            String res = run(r.key(), r.value());
            context.forward(r.withValue(res + "|" + scan(store.all())));
        }

        private String run(String key, String cmd) {
            if (cmd == null) {
                store.put(key, null);
                return "ok";
            }
            if (cmd.equals("get")) {
                return orNull(store.get(key));
            }
            if (cmd.equals("del")) {
                String old = store.get(key);
                store.delete(key);
                return orNull(old);
            }
            if (cmd.startsWith("?")) {
                return orNull(store.putIfAbsent(key, cmd.substring(1)));
            }
            if (cmd.startsWith("range:")) {
                return scan(store.range(key, cmd.substring("range:".length())));
            }
            if (cmd.startsWith("rrange:")) {
                return scan(store.reverseRange(key, cmd.substring("rrange:".length())));
            }
            if (cmd.startsWith("+")) {
                List<KeyValue<String, String>> entries = new ArrayList<>();
                for (String pair : cmd.substring(1).split(",", -1)) {
                    int eq = pair.indexOf('=');
                    entries.add(eq < 0 ? KeyValue.pair(pair, null) : KeyValue.pair(pair.substring(0, eq), pair.substring(eq + 1)));
                }
                store.putAll(entries);
                return "ok";
            }
            switch (cmd) {
                case "prefix":
                    return scan(store.prefixScan(key, new StringSerializer()));
                case "all":
                    return scan(store.all());
                case "rall":
                    return scan(store.reverseAll());
                case "count":
                    return String.valueOf(store.approximateNumEntries());
                default:
                    store.put(key, cmd);
                    return "ok";
            }
        }

        private static String orNull(String v) {
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
            return String.join(",", es);
        }
    }
}
