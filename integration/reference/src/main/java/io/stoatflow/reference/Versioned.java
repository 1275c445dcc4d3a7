package io.stoatflow.reference;

import java.time.Duration;
import java.util.Map;

import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Joined;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.state.Stores;

/**
 * A stream joined with a versioned table (store versioned-prices, history kept 1 min): a left
 * join as of each record's time ("left:v+row"), and an inner join named "graced" with the
 * upper-cased table and a 5 s grace period ("graced:v+ROW").
 *
 * Arguments: input, table, output.
 */
final class Versioned {
    private Versioned() {
    }

    static Topology topology(Map<String, String> args) {
        Serde<String> s = Serdes.String();
        String output = Main.arg(args, "output", "versioned-output");
        StreamsBuilder builder = new StreamsBuilder();
        KStream<String, String> events = builder.stream(Main.arg(args, "input", "versioned-events"), Consumed.with(s, s));
        KTable<String, String> prices = builder.table(Main.arg(args, "table", "versioned-table"), Consumed.with(s, s),
                Materialized.<String, String>as(
                        Stores.persistentVersionedKeyValueStore("versioned-prices", Duration.ofMinutes(1))));
        events.leftJoin(prices, (v, row) -> "left:" + v + "+" + row).to(output, Produced.with(s, s));
        KTable<String, String> upper = prices.mapValues(v -> v.toUpperCase());
        events.join(upper, (v, row) -> "graced:" + v + "+" + row,
                        Joined.<String, String, String>as("graced").withGracePeriod(Duration.ofSeconds(5)))
                .to(output, Produced.with(s, s));
        return Main.build(builder);
    }
}
