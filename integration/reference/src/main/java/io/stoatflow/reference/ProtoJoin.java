package io.stoatflow.reference;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.DescriptorProtos.DescriptorProto;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileOptions;
import com.google.protobuf.Descriptors;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.InvalidProtocolBufferException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.Produced;

import io.apicurio.registry.serde.protobuf.ProtobufSerde;

/**
 * A stream of Protobuf clicks joined with a table of Protobuf profiles of the same keys, as an
 * inner join (kind "inner") and as a left join (kind "left"), both written to output as Protobuf
 * EnrichedClick records. The twin of StoatFlow's examples/protojoin.
 *
 * <p>Values are in the Confluent wire format: magic byte 0, the schema's 4-byte id, Confluent's
 * message indexes (a single 0 for a file's first message, else the zigzag varint count and indexes),
 * then the Protobuf encoding. Confluent's own KafkaProtobufSerde is not published on Maven Central,
 * and Apicurio Registry's ProtobufSerde (2.6.13.Final, even with as-confluent) writes a length-
 * delimited Ref message naming the type where Confluent writes the indexes (see {@link #apicurio}),
 * so {@link ConfluentProtobufSerde} here writes and reads that format through the registry's
 * Confluent-compatible API (STOATFLOW_TEST_REGISTRY_URL): it registers {@link #SCHEMA} under
 * TopicNameStrategy's subject, as Confluent's serializer does with auto.register.schemas=true.
 *
 * <p>Arguments: input (the clicks), table (the profiles), output.
 */
final class ProtoJoin {
    /** clicks.proto, as the .proto text StoatFlow's serializer registers for the file. */
    static final String SCHEMA = "syntax = \"proto3\";\n\npackage io.stoatflow.protojoin;\n\n"
            + "option java_outer_classname = \"ProtoJoinMessages\";\n\noption java_package = \"io.stoatflow.reference\";\n\n"
            + "message Profile {\n  string name = 1;\n\n  string tier = 2;\n}\n\n"
            + "message Click {\n  string page = 1;\n\n  int64 n = 2;\n}\n\n"
            + "message EnrichedClick {\n  string page = 1;\n\n  int64 n = 2;\n\n  string name = 3;\n\n  string tier = 4;\n\n  string kind = 5;\n}\n";

    static final Descriptors.FileDescriptor FILE = file();
    static final Descriptor PROFILE = FILE.findMessageTypeByName("Profile");
    static final Descriptor CLICK = FILE.findMessageTypeByName("Click");
    static final Descriptor ENRICHED = FILE.findMessageTypeByName("EnrichedClick");

    private ProtoJoin() {
    }

    private static FieldDescriptorProto field(String name, int number, FieldDescriptorProto.Type type) {
        return FieldDescriptorProto.newBuilder().setName(name).setNumber(number).setType(type)
                .setLabel(FieldDescriptorProto.Label.LABEL_OPTIONAL).build();
    }

    private static Descriptors.FileDescriptor file() {
        FieldDescriptorProto.Type str = FieldDescriptorProto.Type.TYPE_STRING;
        FieldDescriptorProto.Type i64 = FieldDescriptorProto.Type.TYPE_INT64;
        FileDescriptorProto fdp = FileDescriptorProto.newBuilder()
                .setName("io/stoatflow/protojoin/clicks.proto").setPackage("io.stoatflow.protojoin").setSyntax("proto3")
                .setOptions(FileOptions.newBuilder().setJavaPackage("io.stoatflow.reference").setJavaOuterClassname("ProtoJoinMessages"))
                .addMessageType(DescriptorProto.newBuilder().setName("Profile")
                        .addField(field("name", 1, str)).addField(field("tier", 2, str)))
                .addMessageType(DescriptorProto.newBuilder().setName("Click")
                        .addField(field("page", 1, str)).addField(field("n", 2, i64)))
                .addMessageType(DescriptorProto.newBuilder().setName("EnrichedClick")
                        .addField(field("page", 1, str)).addField(field("n", 2, i64)).addField(field("name", 3, str))
                        .addField(field("tier", 4, str)).addField(field("kind", 5, str)))
                .build();
        try {
            return Descriptors.FileDescriptor.buildFrom(fdp, new Descriptors.FileDescriptor[0]);
        } catch (Descriptors.DescriptorValidationException e) {
            throw new IllegalStateException(e);
        }
    }

    static String registryURL() {
        return System.getenv().getOrDefault("STOATFLOW_TEST_REGISTRY_URL", "http://127.0.0.1:8081/apis/ccompat/v7").replaceFirst("/$", "");
    }

    static Topology topology(Map<String, String> args) {
        String url = registryURL();
        Serde<DynamicMessage> clicks = new ConfluentProtobufSerde(url, CLICK);
        Serde<DynamicMessage> profiles = new ConfluentProtobufSerde(url, PROFILE);
        Serde<DynamicMessage> enriched = new ConfluentProtobufSerde(url, ENRICHED);
        StreamsBuilder builder = new StreamsBuilder();
        KStream<String, DynamicMessage> events = builder.stream(Main.arg(args, "input", "protojoin-clicks"),
                Consumed.with(Serdes.String(), clicks));
        KTable<String, DynamicMessage> rows = builder.table(Main.arg(args, "table", "protojoin-profiles"),
                Consumed.with(Serdes.String(), profiles));
        String output = Main.arg(args, "output", "protojoin-enriched");
        Produced<String, DynamicMessage> produced = Produced.with(Serdes.String(), enriched);
        events.join(rows, (c, p) -> enrich("inner", c, p)).to(output, produced);
        events.leftJoin(rows, (c, p) -> enrich("left", c, p)).to(output, produced);
        return Main.build(builder);
    }

    static DynamicMessage enrich(String kind, DynamicMessage click, DynamicMessage profile) {
        DynamicMessage.Builder b = DynamicMessage.newBuilder(ENRICHED)
                .setField(ENRICHED.findFieldByName("page"), click.getField(CLICK.findFieldByName("page")))
                .setField(ENRICHED.findFieldByName("n"), click.getField(CLICK.findFieldByName("n")))
                .setField(ENRICHED.findFieldByName("kind"), kind);
        if (profile != null) {
            b.setField(ENRICHED.findFieldByName("name"), profile.getField(PROFILE.findFieldByName("name")));
            b.setField(ENRICHED.findFieldByName("tier"), profile.getField(PROFILE.findFieldByName("tier")));
        }
        return b.build();
    }

    /**
     * Writes each input String value as a Profile{name: value} with Apicurio Registry's ProtobufSerde
     * in its Confluent mode (as-confluent, content ids, no headers): the bytes that show how its framing
     * differs from Confluent's. Arguments: input, output.
     */
    static Topology apicurio(Map<String, String> args) {
        Map<String, Object> conf = new HashMap<>();
        conf.put("apicurio.registry.url", registryURL().replaceFirst("/apis/ccompat/v7$", "") + "/apis/registry/v2");
        conf.put("apicurio.registry.auto-register", true);
        conf.put("apicurio.registry.as-confluent", true);
        conf.put("apicurio.registry.use-id", "contentId");
        conf.put("apicurio.registry.headers.enabled", false);
        ProtobufSerde<DynamicMessage> values = new ProtobufSerde<>();
        values.configure(conf, false);
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(Main.arg(args, "input", "apicurio-in"), Consumed.with(Serdes.String(), Serdes.String()))
                .mapValues(v -> DynamicMessage.newBuilder(PROFILE).setField(PROFILE.findFieldByName("name"), v).build())
                .to(Main.arg(args, "output", "apicurio-out"), Produced.with(Serdes.String(), values));
        return Main.build(builder);
    }

    /**
     * Confluent's Protobuf wire format for the messages of one file, with the registry's
     * Confluent-compatible REST API: POST /subjects/{subject}/versions to register, GET
     * /schemas/ids/{id} to check a record's id.
     */
    static final class ConfluentProtobufSerde implements Serde<DynamicMessage>, Serializer<DynamicMessage>, Deserializer<DynamicMessage> {
        private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
        private static final Pattern ID = Pattern.compile("\"id\"\\s*:\\s*(\\d+)");
        private final String url;
        private final Descriptor type;
        private final Map<String, Integer> ids = new ConcurrentHashMap<>();
        private final Map<Integer, Boolean> known = new ConcurrentHashMap<>();

        ConfluentProtobufSerde(String url, Descriptor type) {
            this.url = url;
            this.type = type;
        }

        @Override
        public Serializer<DynamicMessage> serializer() {
            return this;
        }

        @Override
        public Deserializer<DynamicMessage> deserializer() {
            return this;
        }

        @Override
        public void configure(Map<String, ?> configs, boolean isKey) {
        }

        @Override
        public void close() {
        }

        @Override
        public byte[] serialize(String topic, DynamicMessage m) {
            if (m == null) {
                return null;
            }
            int id = ids.computeIfAbsent(topic + "-value", this::register);
            try {
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                out.write(0);
                out.write(ByteBuffer.allocate(4).putInt(id).array());
                CodedOutputStream c = CodedOutputStream.newInstance(out);
                List<Integer> path = indexes(m.getDescriptorForType());
                if (path.size() == 1 && path.get(0) == 0) {
                    c.writeSInt32NoTag(0);
                } else {
                    c.writeSInt32NoTag(path.size());
                    for (int i : path) {
                        c.writeSInt32NoTag(i);
                    }
                }
                m.writeTo(c);
                c.flush();
                return out.toByteArray();
            } catch (IOException e) {
                throw new SerializationException(e);
            }
        }

        /** The message indexes of d: its position in the file, then in each enclosing message. */
        private static List<Integer> indexes(Descriptor d) {
            List<Integer> path = new ArrayList<>();
            for (Descriptor x = d; x != null; x = x.getContainingType()) {
                path.add(0, x.getIndex());
            }
            return path;
        }

        private int register(String subject) {
            String body = "{\"schemaType\":\"PROTOBUF\",\"schema\":" + quote(SCHEMA) + "}";
            String answer = call(HttpRequest.newBuilder(URI.create(url + "/subjects/" + subject + "/versions"))
                    .header("Content-Type", "application/vnd.schemaregistry.v1+json")
                    .POST(HttpRequest.BodyPublishers.ofString(body)).build());
            Matcher m = ID.matcher(answer);
            if (!m.find()) {
                throw new SerializationException("registering under " + subject + ": " + answer);
            }
            return Integer.parseInt(m.group(1));
        }

        private String call(HttpRequest req) {
            try {
                HttpResponse<String> resp = HTTP.send(req, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
                if (resp.statusCode() / 100 != 2) {
                    throw new SerializationException(req.uri() + " answered " + resp.statusCode() + ": " + resp.body());
                }
                return resp.body();
            } catch (IOException e) {
                throw new SerializationException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new SerializationException(e);
            }
        }

        private static String quote(String s) {
            StringBuilder b = new StringBuilder("\"");
            for (char ch : s.toCharArray()) {
                switch (ch) {
                    case '"' -> b.append("\\\"");
                    case '\\' -> b.append("\\\\");
                    case '\n' -> b.append("\\n");
                    default -> b.append(ch);
                }
            }
            return b.append('"').toString();
        }

        @Override
        public DynamicMessage deserialize(String topic, byte[] data) {
            if (data == null) {
                return null;
            }
            if (data.length < 5 || data[0] != 0) {
                throw new SerializationException("not the Confluent wire format (magic byte 0, schema id) on " + topic);
            }
            int id = ByteBuffer.wrap(data, 1, 4).getInt();
            known.computeIfAbsent(id, i -> {
                call(HttpRequest.newBuilder(URI.create(url + "/schemas/ids/" + i)).GET().build());
                return true;
            });
            try {
                CodedInputStream in = CodedInputStream.newInstance(data, 5, data.length - 5);
                int n = in.readSInt32();
                List<Integer> path = new ArrayList<>();
                if (n == 0) {
                    path.add(0);
                }
                for (int i = 0; i < n; i++) {
                    path.add(in.readSInt32());
                }
                Descriptor d = FILE.getMessageTypes().get(path.get(0));
                for (int i = 1; i < path.size(); i++) {
                    d = d.getNestedTypes().get(path.get(i));
                }
                if (!d.equals(type)) {
                    throw new SerializationException("record of " + topic + " is a " + d.getFullName() + ", not a " + type.getFullName());
                }
                return DynamicMessage.parseFrom(d, in);
            } catch (InvalidProtocolBufferException e) {
                throw new SerializationException(e);
            } catch (IOException e) {
                throw new SerializationException(e);
            }
        }
    }
}
