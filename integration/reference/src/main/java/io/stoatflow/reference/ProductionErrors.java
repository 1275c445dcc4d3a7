package io.stoatflow.reference;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.ProductionExceptionHandler;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.Produced;

/**
 * Records a sink cannot write, answered by a production exception handler:
 *
 * <pre>
 * stream(input) → mapValues (a value "big:N" becomes N bytes) → to(output, a value serializer that
 *                 refuses values starting with "unserializable")
 *               → groupByKey → count → to(counts)
 * </pre>
 *
 * With production.exception.handler=io.stoatflow.reference.ProductionErrors$SkipUnsendable the
 * records the serializer refuses and those larger than max.request.size are dropped, each with a
 * dead-letter record to productionerrors.dead.letter.topic; any other send error fails.
 *
 * Arguments: input, output, counts.
 */
final class ProductionErrors {
    private ProductionErrors() {
    }

    /** The value prefix the output's serializer refuses. */
    static final String UNSERIALIZABLE = "unserializable";

    static Topology topology(Map<String, String> args) {
        String input = Main.arg(args, "input", "productionerrors-input");
        String output = Main.arg(args, "output", "productionerrors-output");
        String counts = Main.arg(args, "counts", "productionerrors-counts");
        StreamsBuilder builder = new StreamsBuilder();
        var values = builder.stream(input, Consumed.with(Serdes.String(), Serdes.String()));
        values.mapValues(v -> v != null && v.startsWith("big:") ? "x".repeat(Integer.parseInt(v.substring(4))) : v)
                .to(output, Produced.with(Serdes.String(), Serdes.serdeFrom(new Refusing(), Serdes.String().deserializer())));
        values.groupByKey(Grouped.with(Serdes.String(), Serdes.String()))
                .count()
                .toStream()
                .to(counts, Produced.with(Serdes.String(), Serdes.Long()));
        return Main.build(builder);
    }

    /** A String serializer that refuses values starting with UNSERIALIZABLE. */
    static final class Refusing implements Serializer<String> {
        private final Serializer<String> inner = Serdes.String().serializer();

        @Override
        public byte[] serialize(String topic, String data) {
            if (data != null && data.startsWith(UNSERIALIZABLE)) {
                throw new SerializationException("refusing " + data);
            }
            return inner.serialize(topic, data);
        }
    }

    /**
     * Drops what cannot be serialized or is too large, with a dead-letter record each: the input
     * record for a serialization error (origin in header "origin"), the record's key and
     * "too-large:SIZE" for a record over max.request.size. Fails on anything else.
     */
    public static final class SkipUnsendable implements ProductionExceptionHandler {
        private String deadLetters;

        @Override
        public void configure(Map<String, ?> configs) {
            deadLetters = String.valueOf(configs.get("productionerrors.dead.letter.topic"));
        }

        @Override
        public Response handleError(ErrorHandlerContext context, ProducerRecord<byte[], byte[]> record, Exception exception) {
            if (exception instanceof RecordTooLargeException) {
                byte[] value = ("too-large:" + record.value().length).getBytes(StandardCharsets.UTF_8);
                return Response.resume(List.of(new ProducerRecord<>(deadLetters, null, record.timestamp(), record.key(), value)));
            }
            return Response.fail();
        }

        @Override
        public Response handleSerializationError(ErrorHandlerContext context, ProducerRecord record, Exception exception,
                                                 SerializationExceptionOrigin origin) {
            ProducerRecord<byte[], byte[]> dead = new ProducerRecord<>(deadLetters, null, context.timestamp(),
                    context.sourceRawKey(), context.sourceRawValue());
            dead.headers().add("origin", origin.name().getBytes(StandardCharsets.UTF_8));
            return Response.resume(List.of(dead));
        }
    }
}
