package org.apache.kafka.streams.processor.internals;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;

import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.Assignment;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.assignment.AssignmentConfigs;
import org.apache.kafka.streams.processor.assignment.ProcessId;
import org.apache.kafka.streams.processor.internals.assignment.AssignmentInfo;
import org.apache.kafka.streams.processor.internals.assignment.AssignorConfiguration;
import org.apache.kafka.streams.processor.internals.assignment.ClientState;
import org.apache.kafka.streams.processor.internals.assignment.HighAvailabilityTaskAssignor;
import org.apache.kafka.streams.processor.internals.TopologyMetadata.Subtopology;
import org.apache.kafka.streams.processor.internals.assignment.RackAwareTaskAssignor;

import org.slf4j.LoggerFactory;

/**
 * Runs Kafka Streams 4.4's own task assignment on group states read from stdin, for StoatFlow's
 * differential test of its assignor (integration/taskassign_oracle_test.go).
 *
 * <pre>
 * java -cp stoatflow-reference.jar org.apache.kafka.streams.processor.internals.AssignorOracle
 * </pre>
 *
 * It sits in Kafka's package to reach the leader's package-private client metadata; the leader's
 * private thread-level step ({@code StreamsPartitionAssignor.computeNewAssignment}) is called by
 * reflection. Each stdin line is one group as JSON:
 *
 * <pre>
 * {"id":N, "config":{"numStandby":1,"maxWarmup":2,"acceptableLag":100,"probingMs":600000,"tags":["zone"],
 *             "strategy":"min_traffic","trafficCost":10,"nonOverlapCost":1},
 *  "tasks":{"0_1":["topic-a:1",...],...}, "endOffsets":{"0_1":1000,...}, "leader":"UUID",
 *  "changelogs":{"0_1":["app-store-changelog:1"],...}, "replicas":{"topic-a:1":["rack-a",""],...},
 *  "clients":[{"id":"UUID","tags":{"zone":"a"},
 *              "consumers":[{"id":"member","owned":["topic-a:1"],"sums":{"0_1":-2},"rack":"rack-a"}]}]}
 * </pre>
 *
 * {@code tasks} are all tasks with their source partitions, {@code endOffsets} the stateful ones with
 * their changelogs' end offset sums. The clients go through what the leader does with subscriptions
 * ({@code ClientMetadata.addConsumer}, {@code ClientState.initializePrevTasks}, {@code computeTaskLags}),
 * then {@link HighAvailabilityTaskAssignor} with a {@link RackAwareTaskAssignor} over the rack-aware
 * configuration ({@code strategy}, default none; the costs, default unset), the consumers' racks, the
 * stateful tasks' {@code changelogs} and the racks of each partition's replicas ({@code replicas}, one
 * broker per entry, "" for a broker without rack): the cluster metadata holds those partitions, and
 * describing a topic gives its partitions there, or fails when it has none. When the assignor asks for
 * a probing rebalance the leader's client gets the deadline {@code probingMs} (the clock reads 0). Each
 * stdout line answers one input line:
 *
 * <pre>
 * {"id":N, "probing":true, "clients":{"UUID":{"active":[...],"standby":[...]}},
 *  "consumers":{"member":{"active":["0_1",...],"partitions":["topic-a:1",...],"standby":[...],"next":-1}}}
 * </pre>
 *
 * where a consumer's {@code active} and {@code partitions} are AssignmentInfo's paired lists, and
 * {@code next} its nextRebalanceMs (-1 for none); or {@code {"id":N,"error":"..."}}.
 */
public final class AssignorOracle {
    private static final StreamsConfig STREAMS_CONFIG = new StreamsConfig(Map.of(
        StreamsConfig.APPLICATION_ID_CONFIG, "assignor-oracle",
        StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:9092"));

    private AssignorOracle() {
    }

    public static void main(final String[] args) throws Exception {
        final StreamsPartitionAssignor leader = new StreamsPartitionAssignor();
        setField(leader, "log", LoggerFactory.getLogger(StreamsPartitionAssignor.class));
        final AssignorConfiguration.AssignmentListener listener = stable -> { };
        setField(leader, "assignmentListener", listener);
        final Method computeNewAssignment = StreamsPartitionAssignor.class.getDeclaredMethod("computeNewAssignment",
            Set.class, Map.class, Map.class, Map.class, Map.class, Set.class, int.class, int.class, boolean.class);
        computeNewAssignment.setAccessible(true);

        final BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        final BufferedWriter out = new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), 1 << 16);
        String line;
        while ((line = in.readLine()) != null) {
            if (line.isBlank()) {
                continue;
            }
            final Map<String, Object> c = asMap(new Json(line).value());
            final Object id = c.get("id");
            try {
                out.write(run(c, leader, computeNewAssignment));
            } catch (final Exception e) {
                final Throwable cause = e instanceof InvocationTargetException ? e.getCause() : e;
                out.write("{\"id\":" + id + ",\"error\":" + quote(cause.getClass().getName() + ": " + cause.getMessage()) + "}");
            }
            out.write('\n');
        }
        out.flush();
    }

    @SuppressWarnings("unchecked")
    private static String run(final Map<String, Object> c, final StreamsPartitionAssignor leader,
                              final Method computeNewAssignment) throws Exception {
        final Map<String, Object> cfg = asMap(c.get("config"));
        final List<String> tags = new ArrayList<>();
        for (final Object t : asList(cfg.getOrDefault("tags", List.of()))) {
            tags.add((String) t);
        }
        final long probingMs = asLong(cfg.get("probingMs"));
        final AssignmentConfigs configs = new AssignmentConfigs(
            asLong(cfg.get("acceptableLag")),
            (int) asLong(cfg.get("maxWarmup")),
            (int) asLong(cfg.get("numStandby")),
            probingMs,
            tags,
            cfg.get("trafficCost") == null ? OptionalInt.empty() : OptionalInt.of((int) asLong(cfg.get("trafficCost"))),
            cfg.get("nonOverlapCost") == null ? OptionalInt.empty() : OptionalInt.of((int) asLong(cfg.get("nonOverlapCost"))),
            cfg.get("strategy") == null ? StreamsConfig.RACK_AWARE_ASSIGNMENT_STRATEGY_NONE : (String) cfg.get("strategy"));

        final Map<TaskId, Set<TopicPartition>> partitionsForTask = new HashMap<>();
        final Map<TopicPartition, TaskId> taskForPartition = new HashMap<>();
        for (final Map.Entry<String, Object> e : asMap(c.get("tasks")).entrySet()) {
            final TaskId task = TaskId.parse(e.getKey());
            final Set<TopicPartition> parts = new HashSet<>();
            for (final Object p : asList(e.getValue())) {
                final TopicPartition tp = partition((String) p);
                parts.add(tp);
                taskForPartition.put(tp, task);
            }
            partitionsForTask.put(task, parts);
        }
        final Map<TaskId, Long> endOffsets = new HashMap<>();
        for (final Map.Entry<String, Object> e : asMap(c.get("endOffsets")).entrySet()) {
            endOffsets.put(TaskId.parse(e.getKey()), asLong(e.getValue()));
        }

        final Map<TaskId, Set<TopicPartition>> changelogPartitionsForTask = new HashMap<>();
        for (final Map.Entry<String, Object> e : asMap(c.get("changelogs")).entrySet()) {
            final Set<TopicPartition> parts = new HashSet<>();
            for (final Object p : asList(e.getValue())) {
                parts.add(partition((String) p));
            }
            changelogPartitionsForTask.put(TaskId.parse(e.getKey()), parts);
        }

        final Map<ProcessId, StreamsPartitionAssignor.ClientMetadata> clients = new HashMap<>();
        final Map<ProcessId, Map<String, Optional<String>>> racksForProcessConsumer = new HashMap<>();
        final Set<TopicPartition> allOwned = new HashSet<>();
        for (final Object o : asList(c.get("clients"))) {
            final Map<String, Object> client = asMap(o);
            final ProcessId pid = new ProcessId(UUID.fromString((String) client.get("id")));
            final Map<String, String> clientTags = new HashMap<>();
            for (final Map.Entry<String, Object> t : asMap(client.getOrDefault("tags", Map.of())).entrySet()) {
                clientTags.put(t.getKey(), (String) t.getValue());
            }
            StreamsPartitionAssignor.ClientMetadata metadata = null;
            for (final Object co : asList(client.get("consumers"))) {
                final Map<String, Object> consumer = asMap(co);
                final String member = (String) consumer.get("id");
                // ConsumerCoordinator's rackId: an empty client.rack is none.
                final Optional<String> rack = Optional.ofNullable((String) consumer.get("rack")).filter(r -> !r.isEmpty());
                racksForProcessConsumer.computeIfAbsent(pid, k -> new HashMap<>()).put(member, rack);
                if (metadata == null) {
                    metadata = new StreamsPartitionAssignor.ClientMetadata(pid, null, clientTags, rack);
                }
                final List<TopicPartition> owned = new ArrayList<>();
                for (final Object p : asList(consumer.getOrDefault("owned", List.of()))) {
                    owned.add(partition((String) p));
                }
                final Map<TaskId, Long> sums = new HashMap<>();
                for (final Map.Entry<String, Object> s : asMap(consumer.getOrDefault("sums", Map.of())).entrySet()) {
                    sums.put(TaskId.parse(s.getKey()), asLong(s.getValue()));
                }
                metadata.addConsumer(member, owned);
                allOwned.addAll(owned);
                metadata.addPreviousTasksAndOffsetSums(member, sums);
            }
            if (metadata == null) {
                metadata = new StreamsPartitionAssignor.ClientMetadata(pid, null, clientTags, Optional.empty());
            }
            clients.put(pid, metadata);
        }

        final Map<ProcessId, ClientState> states = new HashMap<>();
        for (final Map.Entry<ProcessId, StreamsPartitionAssignor.ClientMetadata> e : clients.entrySet()) {
            final ClientState state = e.getValue().state();
            state.initializePrevTasks(taskForPartition, false);
            state.computeTaskLags(e.getKey(), endOffsets);
            states.put(e.getKey(), state);
        }
        final Set<TaskId> statefulTasks = new HashSet<>(endOffsets.keySet());

        // The metadata: one broker per replica, in its rack or in none.
        final List<Node> nodes = new ArrayList<>();
        final List<PartitionInfo> partitionInfos = new ArrayList<>();
        final Map<String, List<TopicPartitionInfo>> described = new HashMap<>();
        for (final Map.Entry<String, Object> e : asMap(c.get("replicas")).entrySet()) {
            final TopicPartition tp = partition(e.getKey());
            final List<Node> replicas = new ArrayList<>();
            for (final Object r : asList(e.getValue())) {
                final String rack = (String) r;
                final Node node = new Node(nodes.size(), "broker-" + nodes.size(), 9092, rack.isEmpty() ? null : rack);
                nodes.add(node);
                replicas.add(node);
            }
            final Node partitionLeader = replicas.isEmpty() ? null : replicas.get(0);
            final Node[] array = replicas.toArray(new Node[0]);
            partitionInfos.add(new PartitionInfo(tp.topic(), tp.partition(), partitionLeader, array, array));
            described.computeIfAbsent(tp.topic(), k -> new ArrayList<>()).add(new TopicPartitionInfo(tp.partition(), partitionLeader, replicas, replicas));
        }
        final Cluster cluster = new Cluster("assignor-oracle", nodes, partitionInfos, Collections.emptySet(), Collections.emptySet());
        final InternalTopicManager topicManager = new InternalTopicManager(Time.SYSTEM, null, STREAMS_CONFIG) {
            @Override
            public Map<String, List<TopicPartitionInfo>> getTopicPartitionInfo(final Set<String> topics) {
                final Map<String, List<TopicPartitionInfo>> found = new HashMap<>();
                for (final String topic : topics) {
                    if (described.containsKey(topic)) {
                        found.put(topic, described.get(topic));
                    }
                }
                return found;
            }
        };
        // StreamsPartitionAssignor.populateTasksForMaps' tasksForTopicGroup.
        final Map<Subtopology, Set<TaskId>> tasksForTopicGroup = new HashMap<>();
        for (final TaskId task : partitionsForTask.keySet()) {
            tasksForTopicGroup.computeIfAbsent(new Subtopology(task.subtopology(), task.topologyName()), k -> new HashSet<>()).add(task);
        }
        final RackAwareTaskAssignor rackAware = new RackAwareTaskAssignor(cluster, partitionsForTask,
            changelogPartitionsForTask, tasksForTopicGroup, racksForProcessConsumer, topicManager, configs, Time.SYSTEM);
        final boolean probing = new HighAvailabilityTaskAssignor()
            .assign(states, partitionsForTask.keySet(), statefulTasks, rackAware, configs);

        final StringBuilder sb = new StringBuilder();
        sb.append("{\"id\":").append(c.get("id")).append(",\"probing\":").append(probing).append(",\"clients\":{");
        boolean first = true;
        for (final Map.Entry<ProcessId, ClientState> e : new TreeMap<>(states).entrySet()) {
            if (!first) {
                sb.append(',');
            }
            first = false;
            sb.append(quote(e.getKey().id().toString())).append(":{\"active\":");
            tasks(sb, new TreeSet<>(e.getValue().activeTasks()));
            sb.append(",\"standby\":");
            tasks(sb, new TreeSet<>(e.getValue().standbyTasks()));
            sb.append('}');
        }
        sb.append('}');

        if (probing && c.get("leader") != null) {
            final ClientState leaderState = states.get(new ProcessId(UUID.fromString((String) c.get("leader"))));
            if (leaderState != null) {
                leaderState.setFollowupRebalanceDeadline(Instant.ofEpochMilli(probingMs));
            }
        }
        final Map<String, Assignment> assignment = (Map<String, Assignment>) computeNewAssignment.invoke(leader,
            statefulTasks, clients, partitionsForTask, new HashMap<>(), new HashMap<>(), allOwned, 11, 11, false);
        sb.append(",\"consumers\":{");
        first = true;
        for (final Map.Entry<String, Assignment> e : new TreeMap<>(assignment).entrySet()) {
            if (!first) {
                sb.append(',');
            }
            first = false;
            final AssignmentInfo info = AssignmentInfo.decode(e.getValue().userData());
            sb.append(quote(e.getKey())).append(":{\"active\":");
            tasks(sb, info.activeTasks());
            sb.append(",\"partitions\":[");
            boolean firstPart = true;
            for (final TopicPartition tp : e.getValue().partitions()) {
                if (!firstPart) {
                    sb.append(',');
                }
                firstPart = false;
                sb.append(quote(tp.topic() + ":" + tp.partition()));
            }
            sb.append("],\"standby\":");
            tasks(sb, new TreeSet<>(info.standbyTasks().keySet()));
            sb.append(",\"next\":").append(info.nextRebalanceMs() == Long.MAX_VALUE ? -1 : info.nextRebalanceMs());
            sb.append('}');
        }
        sb.append("}}");
        return sb.toString();
    }

    private static void setField(final Object target, final String name, final Object value) throws Exception {
        final Field f = target.getClass().getDeclaredField(name);
        f.setAccessible(true);
        f.set(target, value);
    }

    private static TopicPartition partition(final String s) {
        final int i = s.lastIndexOf(':');
        return new TopicPartition(s.substring(0, i), Integer.parseInt(s.substring(i + 1)));
    }

    private static void tasks(final StringBuilder sb, final Iterable<TaskId> tasks) {
        sb.append('[');
        boolean first = true;
        for (final TaskId t : tasks) {
            if (!first) {
                sb.append(',');
            }
            first = false;
            sb.append('"').append(t).append('"');
        }
        sb.append(']');
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> asMap(final Object o) {
        return o == null ? Map.of() : (Map<String, Object>) o;
    }

    @SuppressWarnings("unchecked")
    private static List<Object> asList(final Object o) {
        return o == null ? List.of() : (List<Object>) o;
    }

    private static long asLong(final Object o) {
        return ((Number) o).longValue();
    }

    private static String quote(final String s) {
        final StringBuilder sb = new StringBuilder("\"");
        for (final char ch : s.toCharArray()) {
            switch (ch) {
                case '"': sb.append("\\\""); break;
                case '\\': sb.append("\\\\"); break;
                case '\n': sb.append("\\n"); break;
                default:
                    if (ch < 0x20) {
                        sb.append(String.format("\\u%04x", (int) ch));
                    } else {
                        sb.append(ch);
                    }
            }
        }
        return sb.append('"').toString();
    }

    /** A reader of the JSON the Go test writes: objects, arrays, strings, integers, booleans, null. */
    private static final class Json {
        private final String s;
        private int i;

        Json(final String s) {
            this.s = s;
        }

        Object value() {
            skip();
            final char ch = s.charAt(i);
            switch (ch) {
                case '{': {
                    i++;
                    final Map<String, Object> m = new LinkedHashMap<>();
                    skip();
                    if (s.charAt(i) == '}') {
                        i++;
                        return m;
                    }
                    while (true) {
                        skip();
                        final String key = string();
                        skip();
                        expect(':');
                        m.put(key, value());
                        skip();
                        if (s.charAt(i++) == '}') {
                            return m;
                        }
                    }
                }
                case '[': {
                    i++;
                    final List<Object> l = new ArrayList<>();
                    skip();
                    if (s.charAt(i) == ']') {
                        i++;
                        return l;
                    }
                    while (true) {
                        l.add(value());
                        skip();
                        if (s.charAt(i++) == ']') {
                            return l;
                        }
                    }
                }
                case '"':
                    return string();
                case 't':
                    i += 4;
                    return Boolean.TRUE;
                case 'f':
                    i += 5;
                    return Boolean.FALSE;
                case 'n':
                    i += 4;
                    return null;
                default: {
                    final int start = i;
                    while (i < s.length() && "+-0123456789".indexOf(s.charAt(i)) >= 0) {
                        i++;
                    }
                    return Long.parseLong(s.substring(start, i));
                }
            }
        }

        private String string() {
            expect('"');
            final StringBuilder sb = new StringBuilder();
            while (true) {
                final char ch = s.charAt(i++);
                if (ch == '"') {
                    return sb.toString();
                }
                if (ch != '\\') {
                    sb.append(ch);
                    continue;
                }
                final char esc = s.charAt(i++);
                switch (esc) {
                    case 'n': sb.append('\n'); break;
                    case 't': sb.append('\t'); break;
                    case 'r': sb.append('\r'); break;
                    case 'b': sb.append('\b'); break;
                    case 'f': sb.append('\f'); break;
                    case 'u':
                        sb.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
                        i += 4;
                        break;
                    default: sb.append(esc);
                }
            }
        }

        private void expect(final char ch) {
            if (s.charAt(i) != ch) {
                throw new IllegalArgumentException("expected '" + ch + "' at " + i + " in " + s);
            }
            i++;
        }

        private void skip() {
            while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
                i++;
            }
        }
    }
}
