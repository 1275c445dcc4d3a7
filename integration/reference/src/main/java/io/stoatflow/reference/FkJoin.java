package io.stoatflow.reference;

import java.util.Map;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.TableJoined;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Two foreign-key joins of one left table onto one right table, each written with toStream to
 * its own output topic (output and left-output: the joins' results for one update travel through
 * different topics, so their relative order is not deterministic). A left value "fk|payload" refers to the right row keyed fk; a value without '|' or
 * with an empty fk has a null foreign key. The inner join is unnamed and materialized as
 * fk-inner ("inner:" + l + "+" + r); the left join is named fk-left through TableJoined, uses
 * the extractor that takes key and value, and is not materialized ("left:" + l + "+" + r, with
 * "null" for a missing right row).
 *
 * Arguments: left, right, output, left-output.
 */
final class FkJoin {
    private FkJoin() {
    }

    static String foreignKey(String value) {
        int bar = value.indexOf('|');
        if (bar <= 0) {
            return null;
        }
        return value.substring(0, bar);
    }

    static Topology topology(Map<String, String> args) {
        StreamsBuilder builder = new StreamsBuilder();
        Consumed<String, String> consumed = Consumed.with(Serdes.String(), Serdes.String());
        Produced<String, String> produced = Produced.with(Serdes.String(), Serdes.String());
        KTable<String, String> left = builder.table(Main.arg(args, "left", "fkjoin-left"), consumed);
        KTable<String, String> right = builder.table(Main.arg(args, "right", "fkjoin-right"), consumed);
        String output = Main.arg(args, "output", "fkjoin-output");
        left.join(right, FkJoin::foreignKey, (l, r) -> "inner:" + l + "+" + r,
                        Materialized.<String, String, KeyValueStore<Bytes, byte[]>>as("fk-inner"))
                .toStream().to(output, produced);
        left.leftJoin(right, (k, v) -> foreignKey(v), (l, r) -> "left:" + l + "+" + r, TableJoined.as("fk-left"))
                .toStream().to(Main.arg(args, "left-output", "fkjoin-left-output"), produced);
        return Main.build(builder);
    }

    /**
     * The crash and migration tests' foreign-key join (examples/fkjoin, fkjoincrash): one topic's
     * records split by key into orders ("order-...") and customers ("cust-..."), two tables
     * materialized as fkcrash-orders and fkcrash-customers; each order joined with the customer
     * its foreign key names (TableJoined fkcrash), order + "+" + customer, materialized as
     * fkcrash-result. Arguments: input, output.
     */
    static Topology crash(Map<String, String> args) {
        StreamsBuilder builder = new StreamsBuilder();
        KStream<String, String> in = builder.stream(Main.arg(args, "input", "fkjoincrash-input"),
                Consumed.with(Serdes.String(), Serdes.String()));
        KTable<String, String> orders = in.filter((k, v) -> k.startsWith("order-"))
                .toTable(Materialized.<String, String, KeyValueStore<Bytes, byte[]>>as("fkcrash-orders"));
        KTable<String, String> customers = in.filter((k, v) -> k.startsWith("cust-"))
                .toTable(Materialized.<String, String, KeyValueStore<Bytes, byte[]>>as("fkcrash-customers"));
        orders.join(customers, FkJoin::foreignKey, (o, c) -> o + "+" + c, TableJoined.as("fkcrash"),
                        Materialized.<String, String, KeyValueStore<Bytes, byte[]>>as("fkcrash-result"))
                .toStream().to(Main.arg(args, "output", "fkjoincrash-output"), Produced.with(Serdes.String(), Serdes.String()));
        return Main.build(builder);
    }
}
