package io.stoatflow.reference;

import java.util.Map;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.ValueTransformerWithKey;
import org.apache.kafka.streams.processor.ProcessorContext;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;

/**
 * A table transformed by a stateful value transformer: it counts each key's updates in the
 * store transform-updates and writes "key->value!#n" ("key->null!#n" for a deletion), the
 * result materialized as transform-result.
 *
 * Arguments: input (default tabletransform-input), output (default tabletransform-output).
 */
final class TableTransform {
    private TableTransform() {
    }

    static Topology topology(Map<String, String> args) {
        String input = Main.arg(args, "input", "tabletransform-input");
        String output = Main.arg(args, "output", "tabletransform-output");
        StreamsBuilder builder = new StreamsBuilder();
        builder.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore("transform-updates"),
                Serdes.String(), Serdes.Long()));
        builder.table(input, Consumed.with(Serdes.String(), Serdes.String()))
                .transformValues(() -> new ValueTransformerWithKey<String, String, String>() {
                    private KeyValueStore<String, Long> updates;

                    @Override
                    public void init(ProcessorContext context) {
                        updates = context.getStateStore("transform-updates");
                    }

                    @Override
                    public String transform(String key, String value) {
                        Long n = updates.get(key);
                        long next = n == null ? 1 : n + 1;
                        updates.put(key, next);
                        return key + "->" + value + "!#" + next;
                    }

                    @Override
                    public void close() {
                    }
                }, Materialized.<String, String, KeyValueStore<Bytes, byte[]>>as("transform-result")
                        .withValueSerde(Serdes.String()), "transform-updates")
                .toStream()
                .to(output, Produced.with(Serdes.String(), Serdes.String()));
        return Main.build(builder);
    }
}
