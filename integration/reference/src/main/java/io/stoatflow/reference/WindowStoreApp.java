package io.stoatflow.reference;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.WindowStore;
import org.apache.kafka.streams.state.WindowStoreIterator;

/**
 * A plain window store ("recent", 60 s retention, 10 s windows) kept by Recorder: each value is
 * appended to its key's window (the timestamp rounded down to 10 s), "clear" deletes the window,
 * "undo" puts "tmp" there and deletes it again, and the key's windows of the last 30 s are
 * forwarded as "start:values|..."; "all" writes nothing and forwards every key's windows of the
 * last 30 s as "key@start:values|...", in the store's order.
 *
 * <p>{@link #cached} is the same with the store's record cache on, and a second store, "seen",
 * that retains duplicates and asks for the cache too (which its builder turns off): Recorder puts
 * every value there under its record's timestamp and adds " seen=n" to what it forwards, n the
 * key's values of the last 30 s.
 *
 * Arguments: input, output.
 */
final class WindowStoreApp {
    private static final long SIZE = 10_000L;

    private WindowStoreApp() {
    }

    static Topology topology(Map<String, String> args) {
        return build(args, false);
    }

    static Topology cached(Map<String, String> args) {
        return build(args, true);
    }

    private static Topology build(Map<String, String> args, boolean cached) {
        String input = Main.arg(args, "input", "windowstore-input");
        String output = Main.arg(args, "output", "windowstore-output");
        Topology t = new Topology();
        t.addSource("Source", Serdes.String().deserializer(), Serdes.String().deserializer(), input);
        t.addProcessor("Recorder", () -> new Recorder(cached), "Source");
        StoreBuilder<WindowStore<String, String>> recent = Stores.windowStoreBuilder(
                Stores.persistentWindowStore("recent", Duration.ofMinutes(1), Duration.ofMillis(SIZE), false),
                Serdes.String(), Serdes.String());
        if (cached) {
            t.addStateStore(recent.withCachingEnabled(), "Recorder");
            t.addStateStore(Stores.windowStoreBuilder(
                    Stores.persistentWindowStore("seen", Duration.ofMinutes(1), Duration.ofMillis(SIZE), true),
                    Serdes.String(), Serdes.String()).withCachingEnabled(), "Recorder");
        } else {
            t.addStateStore(recent, "Recorder");
        }
        t.addSink("Sink", output, Serdes.String().serializer(), Serdes.String().serializer(), "Recorder");
        return t;
    }

    private static final class Recorder implements Processor<String, String, String, String> {
        private final boolean seen;
        private ProcessorContext<String, String> context;
        private WindowStore<String, String> store;
        private WindowStore<String, String> seenStore;

        Recorder(boolean seen) {
            this.seen = seen;
        }

        @Override
        public void init(ProcessorContext<String, String> context) {
            this.context = context;
            store = context.getStateStore("recent");
            if (seen) {
                seenStore = context.getStateStore("seen");
            }
        }

        @Override
        public void process(Record<String, String> r) {
            long start = r.timestamp() - r.timestamp() % SIZE;
            List<String> windows = new ArrayList<>();
            if ("all".equals(r.value())) {
                try (KeyValueIterator<Windowed<String>, String> it = store.fetchAll(start - 3 * SIZE, start)) {
                    while (it.hasNext()) {
                        KeyValue<Windowed<String>, String> kv = it.next();
                        windows.add(kv.key.key() + "@" + kv.key.window().start() + ":" + kv.value);
                    }
                }
            } else {
                if ("undo".equals(r.value())) {
                    store.put(r.key(), "tmp", start);
                    store.put(r.key(), null, start);
                } else {
                    String next = null;
                    if (!"clear".equals(r.value())) {
                        String old = store.fetch(r.key(), start);
                        next = old == null ? r.value() : old + "," + r.value();
                    }
                    store.put(r.key(), next, start);
                }
                try (WindowStoreIterator<String> it = store.fetch(r.key(), start - 3 * SIZE, start)) {
                    while (it.hasNext()) {
                        KeyValue<Long, String> kv = it.next();
                        windows.add(kv.key + ":" + kv.value);
                    }
                }
            }
            String out = String.join("|", windows);
            if (seen) {
                seenStore.put(r.key(), r.value(), r.timestamp());
                int n = 0;
                try (WindowStoreIterator<String> it = seenStore.fetch(r.key(), r.timestamp() - 3 * SIZE, r.timestamp())) {
                    while (it.hasNext()) {
                        it.next();
                        n++;
                    }
                }
                out += " seen=" + n;
            }
            context.forward(r.withValue(out));
        }
    }
}
