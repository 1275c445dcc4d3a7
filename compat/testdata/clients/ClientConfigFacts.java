// ClientConfigFacts prints what the Kafka 4.4 Java clients say about their
// configuration keys. StoatFlow's tests compare compat's client-key table and
// messages with its output, kept beside it:
//
//   CP=kafka-clients-4.4.0.jar:slf4j-api-2.0.17.jar   (from ~/.m2 after make test)
//   java -cp $CP ClientConfigFacts.java configdef > configdef.tsv
//   java -cp $CP ClientConfigFacts.java validate values.tsv > validation.tsv
//   java -cp $CP ClientConfigFacts.java producer producer-sets.txt > producer-sets.tsv
//
// configdef: client, key, type, validator (ConfigDef.Validator#toString) of
// every ProducerConfig, ConsumerConfig and AdminClientConfig key.
// validate: for each "client<TAB>key<TAB>value" line, the message of the
// ConfigException the client's config class throws for that one value, or ok.
// producer: for each line "k=v;k=v...", the producer's message for those
// settings together, or ok and whether the producer is idempotent.
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.ConfigDef;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

public class ClientConfigFacts {
    public static void main(String[] args) throws Exception {
        if (args[0].equals("configdef")) {
            configDef("producer", ProducerConfig.configDef());
            configDef("consumer", ConsumerConfig.configDef());
            configDef("admin", AdminClientConfig.configDef());
        } else if (args[0].equals("producer")) {
            for (String line : Files.readAllLines(Path.of(args[1]))) {
                Map<String, Object> p = new HashMap<>();
                for (String kv : line.split(";")) {
                    String[] f = kv.split("=", 2);
                    p.put(f[0], f[1]);
                }
                System.out.println(line + "\t" + producer(p));
            }
        } else {
            for (String line : Files.readAllLines(Path.of(args[1]))) {
                String[] f = line.split("\t", -1);
                System.out.println(f[0] + "\t" + f[1] + "\t" + f[2] + "\t" + validate(f[0], f[1], f[2]));
            }
        }
    }

    static void configDef(String client, ConfigDef def) {
        for (ConfigDef.ConfigKey k : new TreeMap<>(def.configKeys()).values()) {
            System.out.println(client + "\t" + k.name + "\t" + k.type + "\t" + (k.validator == null ? "" : k.validator));
        }
    }

    static String producer(Map<String, Object> p) {
        p.put("bootstrap.servers", "localhost:9092");
        p.put("key.serializer", "org.apache.kafka.common.serialization.ByteArraySerializer");
        p.put("value.serializer", "org.apache.kafka.common.serialization.ByteArraySerializer");
        try {
            return "ok idempotence=" + new ProducerConfig(p).getBoolean(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG);
        } catch (Exception e) {
            return e.getMessage();
        }
    }

    static String validate(String client, String key, String value) {
        Map<String, Object> p = new HashMap<>();
        p.put("bootstrap.servers", "localhost:9092");
        p.put("key.serializer", "org.apache.kafka.common.serialization.ByteArraySerializer");
        p.put("value.serializer", "org.apache.kafka.common.serialization.ByteArraySerializer");
        p.put("key.deserializer", "org.apache.kafka.common.serialization.ByteArrayDeserializer");
        p.put("value.deserializer", "org.apache.kafka.common.serialization.ByteArrayDeserializer");
        p.put(key, value);
        try {
            switch (client) {
                case "producer" -> new ProducerConfig(p);
                case "consumer" -> new ConsumerConfig(p);
                default -> new AdminClientConfig(p);
            }
            return "ok";
        } catch (Exception e) {
            return e.getMessage();
        }
    }
}
