package io.stoatflow.reference;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;

import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;

/**
 * Answers what Kafka 4.4's built-in serdes make of given bytes, for StoatFlow's serde
 * comparison (integration/serde_oracle_test.go).
 *
 * <pre>
 * java -cp stoatflow-reference.jar io.stoatflow.reference.SerdeOracle
 * </pre>
 *
 * Each stdin line is {@code SERDE HEX} (or {@code SERDE null}), SERDE one of the names in
 * {@link #SERDES}; an empty HEX is the empty array. For each line one stdout line: the bytes
 * the serde's serializer writes for what its deserializer read, as {@code ok HEX} ({@code ok null}
 * for null), or {@code err CLASS: MESSAGE} when either side threw.
 */
public final class SerdeOracle {
    static final Map<String, Serde<?>> SERDES = new TreeMap<>();

    static {
        SERDES.put("string", Serdes.String());
        SERDES.put("long", Serdes.Long());
        SERDES.put("integer", Serdes.Integer());
        SERDES.put("short", Serdes.Short());
        SERDES.put("double", Serdes.Double());
        SERDES.put("float", Serdes.Float());
        SERDES.put("boolean", Serdes.Boolean());
        SERDES.put("bytearray", Serdes.ByteArray());
        SERDES.put("bytebuffer", Serdes.ByteBuffer());
        SERDES.put("bytes", Serdes.Bytes());
        SERDES.put("uuid", Serdes.UUID());
        SERDES.put("void", Serdes.Void());
    }

    private SerdeOracle() {
    }

    public static void main(String[] args) throws Exception {
        HexFormat hex = HexFormat.of();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
        BufferedWriter out = new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), 1 << 16);
        String line;
        while ((line = in.readLine()) != null) {
            int sp = line.indexOf(' ');
            String name = sp < 0 ? line : line.substring(0, sp);
            String data = sp < 0 ? "" : line.substring(sp + 1);
            Serde<?> serde = SERDES.get(name);
            if (serde == null) {
                out.write("err unknown serde " + name + "\n");
                continue;
            }
            byte[] bytes = data.equals("null") ? null : hex.parseHex(data);
            out.write(roundTrip(serde, bytes, hex));
            out.write('\n');
        }
        out.flush();
    }

    private static <T> String roundTrip(Serde<T> serde, byte[] bytes, HexFormat hex) {
        try {
            T value = serde.deserializer().deserialize("t", bytes);
            byte[] written = serde.serializer().serialize("t", value);
            return written == null ? "ok null" : "ok " + hex.formatHex(written);
        } catch (RuntimeException e) {
            // One line per answer: a message never spans lines.
            String msg = String.valueOf(e.getMessage()).replace('\n', ' ');
            return "err " + e.getClass().getSimpleName() + ": " + msg;
        }
    }
}
