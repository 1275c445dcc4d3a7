package io.stoatflow.reference;

import java.util.Map;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.processor.api.FixedKeyProcessor;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorContext;
import org.apache.kafka.streams.processor.api.FixedKeyRecord;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;

/**
 * Fixed-key processors (processValues): a tagger that appends each key's running count (kept in
 * the store "seen") to the value and drops the value "drop", written to output and counted per
 * key without repartitioning ("count:" + n); and, after a selectKey to the value, an upper-casing
 * processor whose stream is counted through a repartition topic ("rekeyed:" + n).
 *
 * Arguments: input, output.
 */
final class ProcessValues {
    private ProcessValues() {
    }

    static Topology topology(Map<String, String> args) {
        String input = Main.arg(args, "input", "processvalues-input");
        String output = Main.arg(args, "output", "processvalues-output");
        Produced<String, String> produced = Produced.with(Serdes.String(), Serdes.String());
        Grouped<String, String> grouped = Grouped.with(Serdes.String(), Serdes.String());
        StreamsBuilder builder = new StreamsBuilder();
        builder.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore("seen"), Serdes.String(), Serdes.Long()));
        KStream<String, String> in = builder.stream(input, Consumed.with(Serdes.String(), Serdes.String()));
        KStream<String, String> tagged = in.processValues(Tagger::new, "seen");
        tagged.to(output, produced);
        tagged.groupByKey(grouped).count().toStream().mapValues(n -> "count:" + n).to(output, produced);
        in.selectKey((k, v) -> v)
                .processValues(Upper::new)
                .groupByKey(grouped).count().toStream().mapValues(n -> "rekeyed:" + n).to(output, produced);
        return Main.build(builder);
    }

    private static final class Tagger implements FixedKeyProcessor<String, String, String> {
        private FixedKeyProcessorContext<String, String> context;
        private KeyValueStore<String, Long> seen;

        @Override
        public void init(FixedKeyProcessorContext<String, String> context) {
            this.context = context;
            this.seen = context.getStateStore("seen");
        }

        @Override
        public void process(FixedKeyRecord<String, String> record) {
            if ("drop".equals(record.value())) {
                return;
            }
            Long n = seen.get(record.key());
            long next = n == null ? 1 : n + 1;
            seen.put(record.key(), next);
            context.forward(record.withValue(record.value() + "#" + next));
        }
    }

    private static final class Upper implements FixedKeyProcessor<String, String, String> {
        private FixedKeyProcessorContext<String, String> context;

        @Override
        public void init(FixedKeyProcessorContext<String, String> context) {
            this.context = context;
        }

        @Override
        public void process(FixedKeyRecord<String, String> record) {
            context.forward(record.withValue(record.value().toUpperCase()));
        }
    }
}
