package io.stoatflow.reference;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.apache.kafka.common.config.types.Password;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

/**
 * A processor that writes what it reads of appConfigs(): "key=value;" for each of KEYS, then the
 * keys under "orders." (appConfigsWithPrefix) with their values, each value in its text form (a
 * class by its name, a list comma-separated, null as "null"), as StoatFlow's AppConfigs gives
 * them.
 *
 * Arguments: input, output.
 */
final class AppConfigs {
    static final List<String> KEYS = List.of(
            "orders.ttl.ms", "bootstrap.servers", "processing.guarantee", "commit.interval.ms",
            "num.stream.threads", "replication.factor", "statestore.cache.max.bytes", "default.key.serde",
            "default.timestamp.extractor", "buffered.records.per.partition", "max.task.idle.ms", "topology.optimization",
            "application.server", "client.id", "rocksdb.config.setter", "acceptable.recovery.lag", "num.standby.replicas",
            "poll.ms", "upgrade.from", "dsl.store.suppliers.class", "processing.exception.handler");

    private AppConfigs() {
    }

    static Topology topology(Map<String, String> args) {
        String input = Main.arg(args, "input", "appconfigs-input");
        String output = Main.arg(args, "output", "appconfigs-output");
        Topology t = new Topology();
        t.addSource("Source", Serdes.String().deserializer(), Serdes.String().deserializer(), input);
        t.addProcessor("Reader", Reader::new, "Source");
        t.addSink("Sink", output, Serdes.String().serializer(), Serdes.String().serializer(), "Reader");
        return t;
    }

    static String text(Object v) {
        if (v instanceof Class<?> c) {
            return c.getName();
        }
        if (v instanceof List<?> l) {
            StringBuilder b = new StringBuilder();
            for (Object o : l) {
                if (b.length() > 0) {
                    b.append(',');
                }
                b.append(o);
            }
            return b.toString();
        }
        if (v instanceof Password p) {
            return p.value();
        }
        return String.valueOf(v);
    }

    private static final class Reader implements Processor<String, String, String, String> {
        private ProcessorContext<String, String> context;

        @Override
        public void init(ProcessorContext<String, String> context) {
            this.context = context;
        }

        @Override
        public void process(Record<String, String> record) {
            Map<String, Object> all = context.appConfigs();
            StringBuilder b = new StringBuilder();
            for (String k : KEYS) {
                b.append(k).append('=').append(text(all.get(k))).append(';');
            }
            for (Map.Entry<String, Object> e : new TreeMap<>(context.appConfigsWithPrefix("orders.")).entrySet()) {
                b.append("orders.").append(e.getKey()).append('=').append(text(e.getValue())).append(';');
            }
            context.forward(record.withValue(b.toString()));
        }
    }
}
