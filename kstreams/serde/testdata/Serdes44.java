import org.apache.kafka.common.serialization.*;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.kstream.*;
import org.apache.kafka.streams.kstream.internals.*;
import java.util.*;
import java.nio.file.*;

// Serialized bytes and deserializer error messages of Kafka 4.4.0's serdes,
// for kstreams/serde's byte-identity test.
public class Serdes44 {
    static String hex(byte[] b) {
        if (b == null) return "null";
        StringBuilder sb = new StringBuilder();
        for (byte x : b) sb.append(String.format("%02x", x));
        return sb.toString();
    }
    static StringBuilder sb = new StringBuilder();
    static <T> void ser(String name, Serde<T> s, T v) { sb.append("ser ").append(name).append(" ").append(hex(s.serializer().serialize("t", v))).append("\n"); }
    static <T> void deErr(String name, Serde<T> s, byte[] b) {
        try { Object o = s.deserializer().deserialize("t", b); sb.append("de ").append(name).append(" ok ").append(o).append("\n"); }
        catch (Exception e) { sb.append("de ").append(name).append(" ").append(e.getClass().getSimpleName()).append(": ").append(e.getMessage()).append("\n"); }
    }
    public static void main(String[] a) throws Exception {
        ser("string", Serdes.String(), "héllo");
        ser("string-null", Serdes.String(), null);
        ser("long-1", Serdes.Long(), 1L);
        ser("long-min", Serdes.Long(), Long.MIN_VALUE);
        ser("long--2", Serdes.Long(), -2L);
        ser("integer-258", Serdes.Integer(), 258);
        ser("integer--1", Serdes.Integer(), -1);
        ser("short--2", Serdes.Short(), (short) -2);
        ser("double-1.5", Serdes.Double(), 1.5);
        ser("double-nan", Serdes.Double(), Double.NaN);
        ser("double--0", Serdes.Double(), -0.0);
        ser("float-1.5", Serdes.Float(), 1.5f);
        ser("boolean-true", Serdes.Boolean(), true);
        ser("boolean-false", Serdes.Boolean(), false);
        ser("bytes", Serdes.Bytes(), Bytes.wrap(new byte[]{1, 2}));
        ser("bytearray", Serdes.ByteArray(), new byte[]{9, 8});
        ser("void", Serdes.Void(), null);
        ser("uuid", Serdes.UUID(), UUID.fromString("123e4567-e89b-12d3-a456-426614174000"));
        ser("time-windowed", WindowedSerdes.timeWindowedSerdeFrom(String.class, 10), new Windowed<>("a", new TimeWindow(256, 266)));
        ser("session-windowed", WindowedSerdes.sessionWindowedSerdeFrom(String.class), new Windowed<>("a", new SessionWindow(1, 2)));
        deErr("long-3", Serdes.Long(), new byte[]{1, 2, 3});
        deErr("integer-1", Serdes.Integer(), new byte[]{1});
        deErr("short-1", Serdes.Short(), new byte[]{1});
        deErr("double-1", Serdes.Double(), new byte[]{1});
        deErr("float-1", Serdes.Float(), new byte[]{1});
        deErr("boolean-2", Serdes.Boolean(), new byte[]{1, 2});
        deErr("boolean-x", Serdes.Boolean(), new byte[]{7});
        deErr("void-0", Serdes.Void(), new byte[]{});
        deErr("uuid-x", Serdes.UUID(), "nope".getBytes());
        deErr("time-windowed-3", WindowedSerdes.timeWindowedSerdeFrom(String.class, 10), new byte[]{1, 2, 3});
        deErr("session-windowed-3", WindowedSerdes.sessionWindowedSerdeFrom(String.class), new byte[]{1, 2, 3});
        Files.writeString(Path.of("out/serdes.txt"), sb.toString());
    }
}
