import org.apache.kafka.common.serialization.*;
import org.apache.kafka.streams.*;
import org.apache.kafka.streams.kstream.*;
import org.apache.kafka.streams.processor.Cancellable;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.*;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.test.TestRecord;
import java.time.*;
import java.util.*;
import java.nio.file.*;

// Stream-time and wall-clock punctuations of a Processor API node, run by
// TopologyTestDriver with the wall clock starting at 1000 ms.
public class Punct {
    static String hex(byte[] b) {
        if (b == null) return "null";
        StringBuilder sb = new StringBuilder();
        for (byte x : b) sb.append(String.format("%02x", x));
        return sb.toString();
    }
    public static void main(String[] a) throws Exception {
        Files.createDirectories(Path.of("out"));
        StreamsBuilder b = new StreamsBuilder();
        b.stream("in", Consumed.with(Serdes.String(), Serdes.String())).process(() -> new Processor<String, String, String, String>() {
            ProcessorContext<String, String> ctx;
            Cancellable wall;
            int ticks;
            public void init(ProcessorContext<String, String> c) {
                ctx = c;
                c.schedule(Duration.ofMillis(10), PunctuationType.STREAM_TIME, ts -> ctx.forward(new Record<>("stream", "tick@" + ts, ts)));
                wall = c.schedule(Duration.ofMillis(10), PunctuationType.WALL_CLOCK_TIME, ts -> {
                    ctx.forward(new Record<>("wall", "tick@" + ts, ts));
                    if (++ticks == 2) wall.cancel();
                });
            }
            public void process(Record<String, String> r) { ctx.forward(r); }
        }).to("out", Produced.with(Serdes.String(), Serdes.String()));
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, "app");
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "dummy:9092");
        StringBuilder sb = new StringBuilder();
        try (TopologyTestDriver d = new TopologyTestDriver(b.build(), p, Instant.ofEpochMilli(1000))) {
            TestInputTopic<String, String> i = d.createInputTopic("in", new StringSerializer(), new StringSerializer());
            i.pipeInput("k", "a", 0); i.pipeInput("k", "b", 5); i.pipeInput("k", "c", 12);
            d.advanceWallClockTime(Duration.ofMillis(25));
            i.pipeInput("k", "d", 35); i.pipeInput("k", "e", 36);
            d.advanceWallClockTime(Duration.ofMillis(5));
            d.advanceWallClockTime(Duration.ofMillis(10));
            d.advanceWallClockTime(Duration.ofMillis(10));
            for (TestRecord<byte[], byte[]> r : d.createOutputTopic("out", new ByteArrayDeserializer(), new ByteArrayDeserializer()).readRecordsToList()) {
                sb.append("out key=").append(hex(r.key())).append(" value=").append(hex(r.value())).append(" ts=").append(r.timestamp()).append("\n");
            }
        }
        Files.writeString(Path.of("out/punctuate.records.txt"), sb.toString());
    }
}
