import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.*;
import org.apache.kafka.streams.kstream.*;
import org.apache.kafka.streams.state.*;
import org.apache.kafka.streams.processor.internals.*;
import java.lang.reflect.*;
import java.time.Duration;
import java.util.*;
import java.nio.file.*;

// Prints the internal topics Kafka Streams 4.4.0 derives for topologies of
// kstreams' runtime_internal_topics_test.go: per sub-topology, repartition
// and changelog topics with their configs (topic.* overrides included).
public class Topics {
    static void out(String name, StreamsBuilder b, Properties p) throws Exception {
        Topology t = b.build(p);
        Field f = Topology.class.getDeclaredField("internalTopologyBuilder");
        f.setAccessible(true);
        InternalTopologyBuilder itb = (InternalTopologyBuilder) f.get(t);
        StreamsConfig cfg = new StreamsConfig(p);
        itb.rewriteTopology(cfg);
        itb.buildTopology(); // records the changelog topics of the stores
        Map<String, String> topicDefaults = new TreeMap<>();
        for (Map.Entry<String, Object> e : cfg.originalsWithPrefix(StreamsConfig.TOPIC_PREFIX).entrySet()) topicDefaults.put(e.getKey(), String.valueOf(e.getValue()));
        long additional = cfg.getLong(StreamsConfig.WINDOW_STORE_CHANGE_LOG_ADDITIONAL_RETENTION_MS_CONFIG);
        StringBuilder sb = new StringBuilder();
        Map<Integer, InternalTopologyBuilder.TopicsInfo> groups = new TreeMap<>();
        for (Map.Entry<TopologyMetadata.Subtopology, InternalTopologyBuilder.TopicsInfo> e : itb.subtopologyToTopicsInfo().entrySet()) groups.put(groupId(e.getKey()), e.getValue());
        for (Map.Entry<Integer, InternalTopologyBuilder.TopicsInfo> e : groups.entrySet()) {
            sb.append("subtopology ").append(e.getKey()).append(" sources ").append(new TreeSet<>(e.getValue().sourceTopics)).append("\n");
            for (InternalTopicConfig c : new TreeMap<>(e.getValue().repartitionSourceTopics).values())
                sb.append("  repartition ").append(c.name()).append(" partitions=").append(c.numberOfPartitions()).append(" ").append(new TreeMap<>(c.properties(topicDefaults, additional))).append("\n");
            for (InternalTopicConfig c : new TreeMap<>(e.getValue().stateChangelogTopics).values())
                sb.append("  changelog ").append(c.name()).append(" ").append(new TreeMap<>(c.properties(topicDefaults, additional))).append("\n");
        }
        Files.writeString(Path.of("out/" + name + ".topics.txt"), sb.toString());
    }

    static int groupId(Object sub) throws Exception {
        Field f = sub.getClass().getDeclaredField("nodeGroupId");
        f.setAccessible(true);
        return f.getInt(sub);
    }

    public static void main(String[] a) throws Exception {
        Files.createDirectories(Path.of("out"));
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, "wc");
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "dummy:9092");
        p.put("topic.min.insync.replicas", "2");
        p.put(StreamsConfig.DSL_STORE_SUPPLIERS_CLASS_CONFIG, BuiltInDslStoreSuppliers.InMemoryDslStoreSuppliers.class);
        p.put("topic.cleanup.policy", "compact");
        {
            StreamsBuilder b = new StreamsBuilder();
            b.stream("streams-plaintext-input", Consumed.with(Serdes.String(), Serdes.String()))
                .flatMapValues(v -> Arrays.asList(v.split(" "))).groupBy((k, w) -> w).count()
                .toStream().to("streams-wordcount-output", Produced.with(Serdes.String(), Serdes.Long()));
            out("wordcount", b, p);
        }
        Properties q = new Properties();
        q.put(StreamsConfig.APPLICATION_ID_CONFIG, "app");
        q.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "dummy:9092");
        q.put("topic.retention.ms", "123");
        q.put(StreamsConfig.DSL_STORE_SUPPLIERS_CLASS_CONFIG, BuiltInDslStoreSuppliers.InMemoryDslStoreSuppliers.class);
        q.put(StreamsConfig.WINDOW_STORE_CHANGE_LOG_ADDITIONAL_RETENTION_MS_CONFIG, 1000L);
        {
            StreamsBuilder b = new StreamsBuilder();
            KGroupedStream<String, String> g = b.stream("in", Consumed.with(Serdes.String(), Serdes.String())).groupByKey();
            g.windowedBy(TimeWindows.ofSizeAndGrace(Duration.ofMinutes(1), Duration.ofSeconds(1))).count(Materialized.as("w"));
            g.windowedBy(SessionWindows.ofInactivityGapWithNoGrace(Duration.ofMinutes(1)))
                .count(Materialized.<String, Long, SessionStore<Bytes, byte[]>>as("s").withLoggingEnabled(Map.of("retention.ms", "5", "segment.bytes", "100")));
            g.windowedBy(TimeWindows.ofSizeWithNoGrace(Duration.ofMinutes(1))).count(Materialized.<String, Long, WindowStore<Bytes, byte[]>>as("quiet").withLoggingDisabled());
            g.windowedBy(TimeWindows.ofSizeWithNoGrace(Duration.ofMinutes(1))).count(Materialized.<String, Long, WindowStore<Bytes, byte[]>>as("kept").withRetention(Duration.ofHours(2)));
            g.count(Materialized.<String, Long, KeyValueStore<Bytes, byte[]>>as("kv").withLoggingEnabled(Map.of("min.compaction.lag.ms", "7")));
            out("windowed-configs", b, q);
        }
        {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> keyed = b.stream("in", Consumed.with(Serdes.String(), Serdes.String())).selectKey((k, v) -> v);
            keyed.groupByKey(Grouped.as("first")).count(Materialized.as("c1")).toStream()
                .selectKey((k, v) -> k).groupByKey(Grouped.as("second")).count(Materialized.as("c2"));
            b.table("t", Consumed.with(Serdes.String(), Serdes.String()), Materialized.as("t-store"));
            out("chained", b, q);
        }
    }
}
