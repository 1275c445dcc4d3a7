package io.stoatflow.reference;

import java.time.Duration;
import java.util.Map;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;

/**
 * A Processor API topology whose punctuators expire old store entries: StreamTtl keeps each key's
 * latest record timestamp in "stream-ttl" and, every 10 s of stream time, deletes the keys last
 * seen more than 30 s before and forwards a tombstone for each, stamped with the time the key was
 * last seen; WallTtl does the same in "wall-ttl" every 500 ms of wall-clock time with a one-minute
 * TTL, walking the store backwards and forwarding "expired". A null value deletes the key.
 *
 * Arguments: input, wall, output (WallTtl writes output + "-wall").
 */
final class Ttl {
    private Ttl() {
    }

    static Topology topology(Map<String, String> args) {
        String input = Main.arg(args, "input", "ttl-input");
        String wall = Main.arg(args, "wall", "ttl-wall");
        String output = Main.arg(args, "output", "ttl-output");
        Topology t = new Topology();
        t.addSource("StreamSource", Serdes.String().deserializer(), Serdes.String().deserializer(), input);
        t.addProcessor("StreamTtl", () -> new Expiry("stream-ttl", PunctuationType.STREAM_TIME, Duration.ofSeconds(10), 30_000L),
                "StreamSource");
        t.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore("stream-ttl"), Serdes.String(), Serdes.Long()),
                "StreamTtl");
        t.addSink("StreamSink", output, Serdes.String().serializer(), Serdes.String().serializer(), "StreamTtl");
        t.addSource("WallSource", Serdes.String().deserializer(), Serdes.String().deserializer(), wall);
        t.addProcessor("WallTtl", () -> new Expiry("wall-ttl", PunctuationType.WALL_CLOCK_TIME, Duration.ofMillis(500), 60_000L),
                "WallSource");
        t.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore("wall-ttl"), Serdes.String(), Serdes.Long()),
                "WallTtl");
        t.addSink("WallSink", output + "-wall", Serdes.String().serializer(), Serdes.String().serializer(), "WallTtl");
        return t;
    }

    private static final class Expiry implements Processor<String, String, String, String> {
        private final String storeName;
        private final PunctuationType clock;
        private final Duration interval;
        private final long ttl;
        private ProcessorContext<String, String> context;
        private KeyValueStore<String, Long> store;

        Expiry(String storeName, PunctuationType clock, Duration interval, long ttl) {
            this.storeName = storeName;
            this.clock = clock;
            this.interval = interval;
            this.ttl = ttl;
        }

        @Override
        public void init(ProcessorContext<String, String> context) {
            this.context = context;
            this.store = context.getStateStore(storeName);
            context.schedule(interval, clock, this::expire);
        }

        @Override
        public void process(Record<String, String> record) {
            if (record.value() == null) {
                store.delete(record.key());
            } else {
                store.put(record.key(), record.timestamp());
            }
        }

        private void expire(long now) {
            boolean wallClock = clock == PunctuationType.WALL_CLOCK_TIME;
            try (KeyValueIterator<String, Long> it = wallClock ? store.reverseAll() : store.all()) {
                while (it.hasNext()) {
                    KeyValue<String, Long> e = it.next();
                    if (e.value >= now - ttl) {
                        continue;
                    }
                    store.delete(e.key);
                    context.forward(new Record<>(e.key, wallClock ? "expired" : null, e.value));
                }
            }
        }
    }
}
