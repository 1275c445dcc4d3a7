package io.stoatflow.reference;

import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.Produced;

/**
 * A word count whose processor throws at the first "boom" of the process; Main answers the
 * uncaught-exception handler with the response the properties name
 * (stoatflow.thread.uncaught-exception-response, REPLACE_THREAD in its file).
 *
 * Arguments: input, output.
 */
final class ReplaceThread {
    private static final AtomicBoolean FAILED = new AtomicBoolean();

    private ReplaceThread() {
    }

    static Topology topology(Map<String, String> args) {
        String input = Main.arg(args, "input", "replacethread-input");
        String output = Main.arg(args, "output", "replacethread-output");
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(input, Consumed.with(Serdes.String(), Serdes.String()))
                .peek((k, w) -> {
                    if ("boom".equals(w) && FAILED.compareAndSet(false, true)) {
                        throw new IllegalStateException("the first boom of this process");
                    }
                })
                .groupBy((k, w) -> w, Grouped.with(Serdes.String(), Serdes.String()))
                .count()
                .toStream()
                .to(output, Produced.with(Serdes.String(), Serdes.Long()));
        return Main.build(builder);
    }
}
