package io.stoatflow.reference;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.TimeWindows;
import org.apache.kafka.streams.kstream.WindowedSerdes;

import io.apicurio.registry.serde.avro.AvroSerde;

/**
 * Sums Avro clicks ({user, n}) per key in tumbling ten-second windows without grace into an Avro
 * ClickTotal ({clicks, sum}), stored and written in the Confluent wire format (magic byte 0, the
 * 4-byte content id, the Avro binary) by Apicurio Registry's Avro serde with its Confluent id
 * handling. The registry is STOATFLOW_TEST_REGISTRY_URL's server, through its v2 API.
 *
 * Arguments: input (default avro-input), output (default avro-totals).
 */
final class AvroWindowed {
    /** ClickTotal's schema, in the form Schema.toString() prints, so that both engines register the same content. */
    static final String TOTAL_SCHEMA = "{\"type\":\"record\",\"name\":\"ClickTotal\",\"namespace\":\"io.stoatflow.reference\","
            + "\"fields\":[{\"name\":\"clicks\",\"type\":\"long\"},{\"name\":\"sum\",\"type\":\"long\"}]}";

    private AvroWindowed() {
    }

    static String registryV2() {
        String url = System.getenv().getOrDefault("STOATFLOW_TEST_REGISTRY_URL", "http://127.0.0.1:8081/apis/ccompat/v7");
        return url.replaceFirst("/apis/ccompat/v7/?$", "") + "/apis/registry/v2";
    }

    static Topology topology(Map<String, String> args) {
        String input = Main.arg(args, "input", "avro-input");
        String output = Main.arg(args, "output", "avro-totals");
        Map<String, Object> conf = new HashMap<>();
        conf.put("apicurio.registry.url", registryV2());
        conf.put("apicurio.registry.auto-register", true);
        conf.put("apicurio.registry.as-confluent", true);
        conf.put("apicurio.registry.use-id", "contentId");
        conf.put("apicurio.registry.headers.enabled", false);
        AvroSerde<GenericRecord> values = new AvroSerde<>();
        values.configure(conf, false);
        Schema total = new Schema.Parser().parse(TOTAL_SCHEMA);
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(input, Consumed.with(Serdes.String(), values))
                .groupByKey()
                .windowedBy(TimeWindows.ofSizeWithNoGrace(Duration.ofSeconds(10)))
                .aggregate(() -> totalOf(total, 0, 0),
                        (k, v, agg) -> totalOf(total, (Long) agg.get("clicks") + 1, (Long) agg.get("sum") + (Long) v.get("n")),
                        Materialized.with(Serdes.String(), values))
                .toStream()
                .to(output, Produced.with(WindowedSerdes.timeWindowedSerdeFrom(String.class, 10_000L), values));
        return Main.build(builder);
    }

    private static GenericRecord totalOf(Schema s, long clicks, long sum) {
        GenericRecord r = new GenericData.Record(s);
        r.put("clicks", clicks);
        r.put("sum", sum);
        return r;
    }
}
