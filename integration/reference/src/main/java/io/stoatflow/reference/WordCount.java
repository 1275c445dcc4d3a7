package io.stoatflow.reference;

import java.util.Arrays;
import java.util.Locale;
import java.util.Map;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Produced;

/**
 * The classic word count: lowercase each line, split it on runs of non-word characters, group by
 * word, count, and write each new count (Long) to the output topic. Key and value serdes of the
 * input and of the grouping come from default.key.serde / default.value.serde.
 *
 * Arguments: input (default streams-plaintext-input), output (default streams-wordcount-output).
 */
final class WordCount {
    private WordCount() {
    }

    static Topology topology(Map<String, String> args) {
        String input = Main.arg(args, "input", "streams-plaintext-input");
        String output = Main.arg(args, "output", "streams-wordcount-output");
        StreamsBuilder builder = new StreamsBuilder();
        builder.<String, String>stream(input)
                .flatMapValues(line -> Arrays.asList(line.toLowerCase(Locale.ROOT).split("\\W+")))
                .groupBy((key, word) -> word)
                .count()
                .toStream()
                .to(output, Produced.with(Serdes.String(), Serdes.Long()));
        return Main.build(builder);
    }
}
