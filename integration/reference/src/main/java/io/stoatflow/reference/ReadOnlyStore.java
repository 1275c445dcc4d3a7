package io.stoatflow.reference;

import java.util.Map;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;

/**
 * Orders enriched from a read-only store ("prices") that PricesUpdater keeps from the prices
 * topic, its changelog: Enricher appends "@" + the order key's price, or "@unpriced".
 *
 * Arguments: input (the orders), prices, output.
 */
final class ReadOnlyStore {
    private ReadOnlyStore() {
    }

    static Topology topology(Map<String, String> args) {
        String input = Main.arg(args, "input", "readonlystore-orders");
        String prices = Main.arg(args, "prices", "readonlystore-prices");
        String output = Main.arg(args, "output", "readonlystore-output");
        Topology t = new Topology();
        t.addReadOnlyStateStore(
                Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore("prices"), Serdes.String(), Serdes.String()),
                "PricesSource", Serdes.String().deserializer(), Serdes.String().deserializer(), prices,
                "PricesUpdater", Updater::new);
        t.addSource("OrdersSource", Serdes.String().deserializer(), Serdes.String().deserializer(), input);
        t.addProcessor("Enricher", Enricher::new, "OrdersSource");
        t.connectProcessorAndStateStores("Enricher", "prices");
        t.addSink("EnrichedSink", output, Serdes.String().serializer(), Serdes.String().serializer(), "Enricher");
        return t;
    }

    private static final class Updater implements Processor<String, String, Void, Void> {
        private KeyValueStore<String, String> store;

        @Override
        public void init(ProcessorContext<Void, Void> context) {
            store = context.getStateStore("prices");
        }

        @Override
        public void process(Record<String, String> record) {
            if (record.value() == null) {
                store.delete(record.key());
            } else {
                store.put(record.key(), record.value());
            }
        }
    }

    private static final class Enricher implements Processor<String, String, String, String> {
        private ProcessorContext<String, String> context;
        private KeyValueStore<String, String> store;

        @Override
        public void init(ProcessorContext<String, String> context) {
            this.context = context;
            store = context.getStateStore("prices");
        }

        @Override
        public void process(Record<String, String> record) {
            String price = store.get(record.key());
            context.forward(record.withValue(record.value() + "@" + (price == null ? "unpriced" : price)));
        }
    }
}
