package io.stoatflow.reference;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.reflect.Field;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor;
import org.apache.kafka.clients.consumer.internals.ConsumerProtocol;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.internals.generated.SubscriptionInfoData;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.assignment.ProcessId;
import org.apache.kafka.streams.processor.internals.assignment.AssignmentInfo;
import org.apache.kafka.streams.processor.internals.assignment.SubscriptionInfo;
import org.apache.kafka.streams.state.HostInfo;

/**
 * Golden vectors of Kafka Streams 4.4's assignor metadata (the "stream" assignor's
 * SubscriptionInfo and AssignmentInfo), for StoatFlow's internal/assignment.
 *
 * <pre>
 * java -jar stoatflow-reference.jar assignor-vectors write DIR
 * java -jar stoatflow-reference.jar assignor-vectors decode FILE
 * </pre>
 *
 * {@code write} encodes a set of values at every version 1-11 with the jar's own classes and
 * writes, to DIR/subscription-info.json, DIR/assignment-info.json and DIR/consumer-protocol.json,
 * a JSON array of {@code {"name", "hex", "decoded"}}: the bytes the jar wrote and what the jar
 * decodes from them. {@code decode} reads lines {@code subscription HEX} or {@code assignment HEX}
 * from FILE and prints, for each, one JSON line: {@code {"decoded": ..., "reencoded": HEX}} (what
 * the jar decodes and the bytes it encodes again from that) or {@code {"error": "..."}}.
 *
 * The decoded form is the one StoatFlow's MarshalJSON writes: SubscriptionInfo's lists in wire
 * order (read from its SubscriptionInfoData); AssignmentInfo's active tasks in order, its maps
 * and sets sorted (tasks unnamed first, then by name, sub-topology, partition; hosts by host and
 * port; partitions by topic and partition).
 */
public final class AssignorVectors {
    private static final int LATEST = 11;
    private static final ProcessId PID = new ProcessId(UUID.fromString("5c5b2f8e-8a1d-4c3e-9f7a-0123456789ab"));
    private static final HexFormat HEX = HexFormat.of();

    private AssignorVectors() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length == 2 && args[0].equals("write")) {
            write(Path.of(args[1]));
        } else if (args.length == 2 && args[0].equals("decode")) {
            decode(Path.of(args[1]));
        } else {
            System.err.println("usage: assignor-vectors write DIR | decode FILE");
            System.exit(2);
        }
    }

    // ---- writing the vectors ----

    private static void write(Path dir) throws IOException {
        Files.createDirectories(dir);
        List<String> subs = new ArrayList<>();
        List<String> assigns = new ArrayList<>();
        for (int v = 1; v <= LATEST; v++) {
            for (Map.Entry<String, SubscriptionInfo> e : subscriptions(v).entrySet()) {
                subs.add(vector(e.getKey(), e.getValue().encode(), true));
            }
            for (Map.Entry<String, AssignmentInfo> e : assignments(v).entrySet()) {
                assigns.add(vector(e.getKey(), e.getValue().encode(), false));
            }
        }
        // Future versions (version probing): the jar cannot encode them, only read them.
        subs.add(vector("future-v12", ByteBuffer.allocate(8).putInt(12).putInt(12).flip(), true));
        subs.add(vector("future-v15-trailing", ByteBuffer.allocate(24).putInt(15).putInt(20)
                .putLong(0x0102030405060708L).putLong(-1L).flip(), true));
        writeArray(dir.resolve("subscription-info.json"), subs);
        writeArray(dir.resolve("assignment-info.json"), assigns);
        writeArray(dir.resolve("consumer-protocol.json"), consumerProtocol());
    }

    private static String vector(String name, ByteBuffer bytes, boolean subscription) {
        byte[] b = toArray(bytes);
        String decoded = subscription ? subscriptionJson(SubscriptionInfo.decode(ByteBuffer.wrap(b)))
                : assignmentJson(AssignmentInfo.decode(ByteBuffer.wrap(b)));
        return "{\"name\":" + str(name) + ",\"hex\":" + str(HEX.formatHex(b)) + ",\"decoded\":" + decoded + "}";
    }

    private static void writeArray(Path file, List<String> lines) throws IOException {
        Files.writeString(file, "[\n" + String.join(",\n", lines) + "\n]\n", StandardCharsets.UTF_8);
    }

    private static Map<TaskId, Long> offsets(Object... kv) {
        Map<TaskId, Long> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((TaskId) kv[i], (Long) kv[i + 1]);
        }
        return m;
    }

    private static Map<String, SubscriptionInfo> subscriptions(int v) {
        Map<String, SubscriptionInfo> out = new LinkedHashMap<>();
        String p = "v" + v + "-";
        out.put(p + "empty", new SubscriptionInfo(v, LATEST, PID, null, Map.of(), (byte) 0, 0, Map.of()));
        out.put(p + "populated", new SubscriptionInfo(v, LATEST, PID, "localhost:8080",
                offsets(new TaskId(0, 0), -2L, new TaskId(0, 1), -2L, new TaskId(1, 0), 1234L,
                        new TaskId(1, 3), -3L, new TaskId(2, 2), Long.MAX_VALUE, new TaskId(3, 1), 0L),
                (byte) 7, 0, orderedTags("az", "eu-west-1a", "rack", "r1")));
        out.put(p + "shutdown-requested", new SubscriptionInfo(v, LATEST, PID, "[::1]:9090",
                offsets(new TaskId(4, 0), -2L), (byte) -1, 4, orderedTags("k", "")));
        if (v >= 3) {
            out.put(p + "latest-is-version", new SubscriptionInfo(v, v, PID, "h:1",
                    offsets(new TaskId(0, 5), 17L), (byte) 127, 1, Map.of()));
        }
        out.put(p + "unicode", new SubscriptionInfo(v, LATEST, PID, "hôst-ü.例え:9092",
                offsets(new TaskId(5, 7), 99L), (byte) -128, 3, orderedTags("zone\uD83D\uDE42", "日本\u0000x", "ключ", "значение")));
        Map<TaskId, Long> many = new LinkedHashMap<>();
        for (int i = 0; i < 30; i++) {
            many.put(new TaskId(i % 4, i), i % 3 == 0 ? -2L : 1000L * i);
        }
        out.put(p + "many", new SubscriptionInfo(v, LATEST, PID, "many.example:1", many, (byte) 1, 0, Map.of()));
        if (v >= 10) {
            out.put(p + "named", new SubscriptionInfo(v, LATEST, PID, "named:1",
                    offsets(new TaskId(0, 0, "topo-a"), -2L, new TaskId(1, 2, "topo-b"), 55L,
                            new TaskId(3, 1), 9L, new TaskId(0, 1, "\u0442\u043e\u0440\u043e\uD83D\uDE42"), -3L),
                    (byte) 2, 0, orderedTags("a", "b")));
        }
        return out;
    }

    private static Map<String, String> orderedTags(String... kv) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return m;
    }

    private static Set<TopicPartition> tps(Object... tp) {
        Set<TopicPartition> s = new LinkedHashSet<>();
        for (int i = 0; i < tp.length; i += 2) {
            s.add(new TopicPartition((String) tp[i], (Integer) tp[i + 1]));
        }
        return s;
    }

    private static AssignmentInfo assignment(int v, int common, List<TaskId> active, Map<TaskId, Set<TopicPartition>> standby,
                                             Map<HostInfo, Set<TopicPartition>> byHost,
                                             Map<HostInfo, Set<TopicPartition>> standbyByHost, int err, long next) {
        AssignmentInfo a = new AssignmentInfo(v, common, active, standby, byHost, standbyByHost, err);
        a.setNextRebalanceTime(next);
        return a;
    }

    private static Map<String, AssignmentInfo> assignments(int v) {
        Map<String, AssignmentInfo> out = new LinkedHashMap<>();
        String p = "v" + v + "-";
        out.put(p + "empty", assignment(v, LATEST, List.of(), Map.of(), Map.of(), Map.of(), 0, Long.MAX_VALUE));

        Map<TaskId, Set<TopicPartition>> standby = new LinkedHashMap<>();
        standby.put(new TaskId(1, 0), tps("app-store-changelog", 0));
        standby.put(new TaskId(2, 1), tps("app-other-changelog", 1, "app-repartition", 1));
        Map<HostInfo, Set<TopicPartition>> byHost = new LinkedHashMap<>();
        byHost.put(new HostInfo("host1", 8080), tps("input", 0, "input", 1, "other", 3));
        byHost.put(new HostInfo("::1", 9000), tps("input", 2));
        Map<HostInfo, Set<TopicPartition>> standbyByHost = new LinkedHashMap<>();
        standbyByHost.put(new HostInfo("host2", 8081), tps("app-store-changelog", 0, "input", 1));
        out.put(p + "populated", assignment(v, LATEST,
                List.of(new TaskId(0, 0), new TaskId(0, 0), new TaskId(1, 1), new TaskId(2, 0), new TaskId(2, 1)),
                standby, byHost, standbyByHost, 0, 1_700_000_000_000L));

        for (int err = 1; err <= 4; err++) {
            out.put(p + "error-" + err, assignment(v, LATEST, List.of(), Map.of(), Map.of(), Map.of(), err, Long.MAX_VALUE));
        }
        out.put(p + "single", assignment(v, v >= 3 ? v : LATEST, List.of(new TaskId(0, 0)),
                Map.of(new TaskId(1, 0), tps("t", 0)), Map.of(new HostInfo("h", 1), tps("t", 0)),
                Map.of(new HostInfo("h", 1), tps("t", 1)), 0, 0L));

        Map<HostInfo, Set<TopicPartition>> uniHosts = new LinkedHashMap<>();
        uniHosts.put(new HostInfo("hôte-\uD83D\uDE42.example", 7000), tps("tópico-ü", 0, "主题\uD83D\uDE42", 1));
        uniHosts.put(new HostInfo("", 0), tps("nul\u0000topic", 2));
        out.put(p + "unicode", assignment(v, LATEST, List.of(new TaskId(0, 0), new TaskId(0, 1), new TaskId(0, 2)),
                Map.of(new TaskId(3, 3), tps("\uE000-private-use", 3, "\uD83D\uDE42", 4)), uniHosts,
                Map.of(new HostInfo("hôte-\uD83D\uDE42.example", 7000), tps("\u0000", 5)), 0, -5L));

        if (v < 10) {
            return out; // the jar refuses named topologies below version 10
        }
        List<TaskId> named = List.of(new TaskId(0, 0, "topo-a"), new TaskId(0, 1, "topo-a"), new TaskId(1, 0),
                new TaskId(2, 0, "名\uD83D\uDE42"));
        Map<TaskId, Set<TopicPartition>> namedStandby = new LinkedHashMap<>();
        namedStandby.put(new TaskId(2, 1, "名\uD83D\uDE42"), tps("named-changelog", 1));
        namedStandby.put(new TaskId(2, 1), tps("plain-changelog", 1));
        out.put(p + "named", assignment(v, LATEST, named, namedStandby, Map.of(), Map.of(), 0, 42L));
        return out;
    }

    private static List<String> consumerProtocol() {
        List<String> out = new ArrayList<>();
        SubscriptionInfo info = subscriptions(LATEST).get("v11-populated");
        List<TopicPartition> owned = List.of(new TopicPartition("input", 0), new TopicPartition("input", 2));
        for (short cv = 0; cv <= 3; cv++) {
            ConsumerPartitionAssignor.Subscription s = new ConsumerPartitionAssignor.Subscription(
                    List.of("input", "other"), info.encode(), owned, 7, Optional.of("rack-a"));
            out.add(memberVector("subscription-v" + cv, ConsumerProtocol.serializeSubscription(s, cv), true));
        }
        ConsumerPartitionAssignor.Subscription noRack = new ConsumerPartitionAssignor.Subscription(
                List.of("input"), info.encode(), List.of(), -1, Optional.empty());
        out.add(memberVector("subscription-v3-no-rack", ConsumerProtocol.serializeSubscription(noRack, (short) 3), true));
        AssignmentInfo a = assignments(LATEST).get("v11-populated");
        List<TopicPartition> parts = List.of(new TopicPartition("input", 0), new TopicPartition("input", 1),
                new TopicPartition("other", 3), new TopicPartition("input", 2), new TopicPartition("other", 0));
        out.add(memberVector("assignment-v3", ConsumerProtocol.serializeAssignment(
                new ConsumerPartitionAssignor.Assignment(parts, a.encode()), (short) 3), false));
        return out;
    }

    private static String memberVector(String name, ByteBuffer bytes, boolean subscription) {
        byte[] b = toArray(bytes);
        StringBuilder j = new StringBuilder("{");
        if (subscription) {
            ConsumerPartitionAssignor.Subscription s = ConsumerProtocol.deserializeSubscription(ByteBuffer.wrap(b));
            j.append("\"topics\":[");
            join(j, s.topics(), t -> str(t));
            j.append("],\"ownedPartitions\":");
            partitions(j, s.ownedPartitions());
            j.append(",\"generation\":").append(s.generationId().orElse(-1));
            j.append(",\"rack\":").append(s.rackId().map(AssignorVectors::str).orElse("null"));
            j.append(",\"userData\":").append(subscriptionJson(SubscriptionInfo.decode(s.userData())));
        } else {
            ConsumerPartitionAssignor.Assignment a = ConsumerProtocol.deserializeAssignment(ByteBuffer.wrap(b));
            j.append("\"partitions\":");
            partitions(j, a.partitions());
            j.append(",\"userData\":").append(assignmentJson(AssignmentInfo.decode(a.userData())));
        }
        j.append("}");
        return "{\"name\":" + str(name) + ",\"hex\":" + str(HEX.formatHex(b)) + ",\"decoded\":" + j + "}";
    }

    // ---- decoding what Go wrote ----

    private static void decode(Path file) throws IOException {
        PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.US_ASCII)) {
            String line;
            while ((line = in.readLine()) != null) {
                int sp = line.indexOf(' ');
                String kind = sp < 0 ? line : line.substring(0, sp);
                byte[] b = HEX.parseHex(sp < 0 ? "" : line.substring(sp + 1));
                String answer;
                try {
                    switch (kind) {
                        case "subscription" -> {
                            SubscriptionInfo s = SubscriptionInfo.decode(ByteBuffer.wrap(b));
                            String re = s.version() > LATEST ? "" : HEX.formatHex(toArray(s.encode()));
                            answer = "{\"decoded\":" + subscriptionJson(s) + ",\"reencoded\":" + str(re) + "}";
                        }
                        case "assignment" -> {
                            AssignmentInfo a = AssignmentInfo.decode(ByteBuffer.wrap(b));
                            answer = "{\"decoded\":" + assignmentJson(a) + ",\"reencoded\":" + str(HEX.formatHex(toArray(a.encode()))) + "}";
                        }
                        default -> answer = "{\"error\":" + str("unknown kind " + kind) + "}";
                    }
                } catch (RuntimeException e) {
                    answer = "{\"error\":" + str(e.getClass().getSimpleName() + ": " + e.getMessage()) + "}";
                }
                out.println(answer);
            }
        }
        out.flush();
    }

    // ---- the JSON forms ----

    private static SubscriptionInfoData data(SubscriptionInfo s) {
        try {
            Field f = SubscriptionInfo.class.getDeclaredField("data");
            f.setAccessible(true);
            return (SubscriptionInfoData) f.get(s);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("SubscriptionInfo.data: " + e, e);
        }
    }

    static String subscriptionJson(SubscriptionInfo s) {
        SubscriptionInfoData d = data(s);
        StringBuilder j = new StringBuilder("{");
        j.append("\"version\":").append(s.version());
        j.append(",\"latestSupportedVersion\":").append(s.latestSupportedVersion());
        j.append(",\"future\":").append(s.version() > LATEST);
        j.append(",\"processId\":").append(str(s.processId().id().toString()));
        j.append(",\"prevTasks\":[");
        join(j, d.prevTasks(), t -> task(t.topicGroupId(), t.partition(), null));
        j.append("],\"standbyTasks\":[");
        join(j, d.standbyTasks(), t -> task(t.topicGroupId(), t.partition(), null));
        j.append("],\"userEndPoint\":").append(str(new String(d.userEndPoint(), StandardCharsets.UTF_8)));
        List<String> sums = new ArrayList<>();
        for (SubscriptionInfoData.TaskOffsetSum t : d.taskOffsetSums()) {
            if (s.version() >= 10) {
                sums.add(offsetSum(t.topicGroupId(), t.partition(), t.namedTopology(), t.offsetSum()));
            } else {
                for (SubscriptionInfoData.PartitionToOffsetSum p : t.partitionToOffsetSum()) {
                    sums.add(offsetSum(t.topicGroupId(), p.partition(), null, p.offsetSum()));
                }
            }
        }
        j.append(",\"taskOffsetSums\":[").append(String.join(",", sums)).append("]");
        j.append(",\"uniqueField\":").append(d.uniqueField());
        j.append(",\"errorCode\":").append(s.errorCode());
        j.append(",\"clientTags\":[");
        join(j, d.clientTags(), t -> "{\"key\":" + str(new String(t.key(), StandardCharsets.UTF_8))
                + ",\"value\":" + str(new String(t.value(), StandardCharsets.UTF_8)) + "}");
        return j.append("]}").toString();
    }

    private static String offsetSum(int sub, int partition, String named, long sum) {
        String t = task(sub, partition, named);
        return t.substring(0, t.length() - 1) + ",\"offsetSum\":" + sum + "}";
    }

    private static final Comparator<TaskId> TASK_ORDER = Comparator
            .comparing((TaskId t) -> t.topologyName(), Comparator.nullsFirst(Comparator.<String>naturalOrder()))
            .thenComparingInt(TaskId::subtopology)
            .thenComparingInt(TaskId::partition);
    private static final Comparator<HostInfo> HOST_ORDER = Comparator.comparing(HostInfo::host).thenComparingInt(HostInfo::port);
    private static final Comparator<TopicPartition> PARTITION_ORDER = Comparator.comparing(TopicPartition::topic)
            .thenComparingInt(TopicPartition::partition);

    static String assignmentJson(AssignmentInfo a) {
        StringBuilder j = new StringBuilder("{");
        j.append("\"version\":").append(a.version());
        j.append(",\"commonlySupportedVersion\":").append(a.commonlySupportedVersion());
        j.append(",\"activeTasks\":[");
        join(j, a.activeTasks(), AssignorVectors::task);
        j.append("],\"standbyTasks\":[");
        List<TaskId> standby = new ArrayList<>(a.standbyTasks().keySet());
        standby.sort(TASK_ORDER);
        join(j, standby, t -> {
            StringBuilder e = new StringBuilder("{\"task\":").append(task(t)).append(",\"partitions\":");
            partitions(e, a.standbyTasks().get(t));
            return e.append("}").toString();
        });
        j.append("],\"partitionsByHost\":");
        hosts(j, a.partitionsByHost());
        j.append(",\"standbyPartitionsByHost\":");
        hosts(j, a.standbyPartitionByHost());
        j.append(",\"errCode\":").append(a.errCode());
        j.append(",\"nextRebalanceMs\":").append(a.nextRebalanceMs());
        return j.append("}").toString();
    }

    private static void hosts(StringBuilder j, Map<HostInfo, Set<TopicPartition>> m) {
        List<HostInfo> hosts = new ArrayList<>(m.keySet());
        hosts.sort(HOST_ORDER);
        j.append("[");
        join(j, hosts, h -> {
            StringBuilder e = new StringBuilder("{\"host\":").append(str(h.host())).append(",\"port\":").append(h.port())
                    .append(",\"partitions\":");
            partitions(e, m.get(h));
            return e.append("}").toString();
        });
        j.append("]");
    }

    private static void partitions(StringBuilder j, Collection<TopicPartition> ps) {
        List<TopicPartition> sorted = new ArrayList<>(ps);
        sorted.sort(PARTITION_ORDER);
        j.append("[");
        join(j, sorted, tp -> "{\"topic\":" + str(tp.topic()) + ",\"partition\":" + tp.partition() + "}");
        j.append("]");
    }

    private static String task(TaskId t) {
        return task(t.subtopology(), t.partition(), t.topologyName());
    }

    private static String task(int sub, int partition, String named) {
        String s = "{\"subtopology\":" + sub + ",\"partition\":" + partition;
        if (named != null && !named.isEmpty()) {
            s += ",\"namedTopology\":" + str(named);
        }
        return s + "}";
    }

    private static <T> void join(StringBuilder j, Collection<T> items, java.util.function.Function<T, String> f) {
        boolean first = true;
        for (T t : items) {
            if (!first) {
                j.append(',');
            }
            first = false;
            j.append(f.apply(t));
        }
    }

    /** A JSON string, ASCII only: everything outside printable ASCII as a UTF-16 escape. */
    static String str(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') {
                b.append('\\').append(c);
            } else if (c < 0x20 || c >= 0x7f) {
                b.append(String.format("\\u%04x", (int) c));
            } else {
                b.append(c);
            }
        }
        return b.append('"').toString();
    }

    private static byte[] toArray(ByteBuffer buf) {
        ByteBuffer d = buf.duplicate();
        d.rewind();
        byte[] b = new byte[d.remaining()];
        d.get(b);
        return b;
    }
}
