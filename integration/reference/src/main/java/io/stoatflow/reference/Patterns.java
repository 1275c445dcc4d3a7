package io.stoatflow.reference;

import java.util.Map;
import java.util.regex.Pattern;

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

/**
 * A pattern source beside a named one: the topics matching the quoted input name, a dash and a
 * lower-case suffix, tagged with the topic each record came from and written to output, then
 * merged with the input topic's stream and counted per key ("count:" + n).
 *
 * Arguments: input, output.
 */
final class Patterns {
    private Patterns() {
    }

    static Topology topology(Map<String, String> args) {
        String input = Main.arg(args, "input", "patterns-input");
        String output = Main.arg(args, "output", "patterns-output");
        Consumed<String, String> consumed = Consumed.with(Serdes.String(), Serdes.String());
        Produced<String, String> produced = Produced.with(Serdes.String(), Serdes.String());
        StreamsBuilder builder = new StreamsBuilder();
        KStream<String, String> direct = builder.stream(input, consumed);
        KStream<String, String> matched = builder.stream(Pattern.compile(Pattern.quote(input) + "-[a-z]+"), consumed);
        KStream<String, String> tagged = matched.processValues(TopicTagger::new);
        tagged.to(output, produced);
        tagged.merge(direct)
                .groupByKey(Grouped.with(Serdes.String(), Serdes.String()))
                .count()
                .toStream()
                .mapValues(n -> "count:" + n)
                .to(output, produced);
        return Main.build(builder);
    }

    private static final class TopicTagger implements FixedKeyProcessor<String, String, String> {
        private FixedKeyProcessorContext<String, String> context;

        @Override
        public void init(FixedKeyProcessorContext<String, String> context) {
            this.context = context;
        }

        @Override
        public void process(FixedKeyRecord<String, String> record) {
            String topic = context.recordMetadata().map(m -> m.topic()).orElse("");
            context.forward(record.withValue(topic + ":" + record.value()));
        }
    }
}
