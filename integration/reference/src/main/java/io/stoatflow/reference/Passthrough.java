package io.stoatflow.reference;

import java.util.Locale;
import java.util.Map;

import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;

/**
 * Stateless filter and map: drops records whose value starts with '#', upper-cases every other
 * value and writes it under its key. Serdes come from default.key.serde / default.value.serde.
 *
 * Arguments: input (default passthrough-input), output (default passthrough-output).
 */
final class Passthrough {
    private Passthrough() {
    }

    static Topology topology(Map<String, String> args) {
        String input = Main.arg(args, "input", "passthrough-input");
        String output = Main.arg(args, "output", "passthrough-output");
        StreamsBuilder builder = new StreamsBuilder();
        builder.<String, String>stream(input)
                .filter((key, value) -> !value.startsWith("#"))
                .mapValues(value -> value.toUpperCase(Locale.ROOT))
                .to(output);
        return Main.build(builder);
    }
}
