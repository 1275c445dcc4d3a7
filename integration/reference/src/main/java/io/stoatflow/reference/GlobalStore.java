package io.stoatflow.reference;

import java.util.Map;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;

/**
 * A global store fed by a processor that keeps each value of the global topic upper-cased (a
 * tombstone deletes), and a stream processor that replaces each value v by "v=stored" (or
 * "v=null") read from the global store.
 *
 * Arguments: input (the global topic), stream, output.
 */
final class GlobalStore {
    static final String STORE = "globalstore-upper";

    private GlobalStore() {
    }

    static Topology topology(Map<String, String> args) {
        String global = Main.arg(args, "input", "globaljoin-global");
        String stream = Main.arg(args, "stream", "globaljoin-stream");
        String output = Main.arg(args, "output", "globaljoin-output");
        StreamsBuilder builder = new StreamsBuilder();
        builder.addGlobalStore(
                Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(STORE), Serdes.String(), Serdes.String()),
                global, Consumed.with(Serdes.String(), Serdes.String()), () -> new Upper());
        builder.stream(stream, Consumed.with(Serdes.String(), Serdes.String()))
                .process(() -> new Lookup(), Named.as("lookup"))
                .to(output, Produced.with(Serdes.String(), Serdes.String()));
        return Main.build(builder);
    }

    /** The same topology written with the Processor API (Topology.addGlobalStore). */
    static Topology papi(Map<String, String> args) {
        String global = Main.arg(args, "input", "globaljoin-global");
        String stream = Main.arg(args, "stream", "globaljoin-stream");
        String output = Main.arg(args, "output", "globaljoin-output");
        Topology t = new Topology();
        t.addGlobalStore(
                Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(STORE), Serdes.String(), Serdes.String()).withLoggingDisabled(),
                "GlobalSource", Serdes.String().deserializer(), Serdes.String().deserializer(), global, "GlobalUpper", Upper::new);
        t.addSource("StreamSource", Serdes.String().deserializer(), Serdes.String().deserializer(), stream);
        t.addProcessor("lookup", Lookup::new, "StreamSource");
        t.addSink("Sink", output, Serdes.String().serializer(), Serdes.String().serializer(), "lookup");
        return t;
    }

    private static final class Upper implements Processor<String, String, Void, Void> {
        private KeyValueStore<String, String> store;

        @Override
        public void init(ProcessorContext<Void, Void> context) {
            store = context.getStateStore(STORE);
        }

        @Override
        public void process(Record<String, String> r) {
            if (r.value() == null) {
                store.delete(r.key());
            } else {
                store.put(r.key(), r.value().toUpperCase());
            }
        }
    }

    private static final class Lookup implements Processor<String, String, String, String> {
        private ProcessorContext<String, String> context;
        private KeyValueStore<String, String> store;

        @Override
        public void init(ProcessorContext<String, String> context) {
            this.context = context;
            store = context.getStateStore(STORE);
        }

        @Override
        public void process(Record<String, String> r) {
            String row = store.get(r.value());
            context.forward(r.withValue(r.value() + "=" + row));
        }
    }
}
