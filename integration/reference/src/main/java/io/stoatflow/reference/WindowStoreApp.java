package io.stoatflow.reference;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.WindowStore;
import org.apache.kafka.streams.state.WindowStoreIterator;

/**
 * A plain window store ("recent", 60 s retention, 10 s windows) kept by Recorder: each value is
 * appended to its key's window (the timestamp rounded down to 10 s), "clear" deletes the window,
 * and the key's windows of the last 30 s are forwarded as "start:values|...".
 *
 * Arguments: input, output.
 */
final class WindowStoreApp {
    private static final long SIZE = 10_000L;

    private WindowStoreApp() {
    }

    static Topology topology(Map<String, String> args) {
        String input = Main.arg(args, "input", "windowstore-input");
        String output = Main.arg(args, "output", "windowstore-output");
        Topology t = new Topology();
        t.addSource("Source", Serdes.String().deserializer(), Serdes.String().deserializer(), input);
        t.addProcessor("Recorder", Recorder::new, "Source");
        t.addStateStore(Stores.windowStoreBuilder(
                Stores.persistentWindowStore("recent", Duration.ofMinutes(1), Duration.ofMillis(SIZE), false),
                Serdes.String(), Serdes.String()), "Recorder");
        t.addSink("Sink", output, Serdes.String().serializer(), Serdes.String().serializer(), "Recorder");
        return t;
    }

    private static final class Recorder implements Processor<String, String, String, String> {
        private ProcessorContext<String, String> context;
        private WindowStore<String, String> store;

        @Override
        public void init(ProcessorContext<String, String> context) {
            this.context = context;
            store = context.getStateStore("recent");
        }

        @Override
        public void process(Record<String, String> r) {
            long start = r.timestamp() - r.timestamp() % SIZE;
            String next = null;
            if (!"clear".equals(r.value())) {
                String old = store.fetch(r.key(), start);
                next = old == null ? r.value() : old + "," + r.value();
            }
            store.put(r.key(), next, start);
            List<String> windows = new ArrayList<>();
            try (WindowStoreIterator<String> it = store.fetch(r.key(), start - 3 * SIZE, start)) {
                while (it.hasNext()) {
                    KeyValue<Long, String> kv = it.next();
                    windows.add(kv.key + ":" + kv.value);
                }
            }
            context.forward(r.withValue(String.join("|", windows)));
        }
    }
}
