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
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.Assignment;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.GroupSubscription;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.common.utils.Utils;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.assignment.AssignmentConfigs;
import org.apache.kafka.streams.processor.assignment.ApplicationState;
import org.apache.kafka.streams.processor.assignment.KafkaStreamsAssignment;
import org.apache.kafka.streams.processor.assignment.ProcessId;
import org.apache.kafka.streams.processor.assignment.TaskAssignmentUtils;
import org.apache.kafka.streams.processor.assignment.TaskAssignor;
import org.apache.kafka.streams.processor.assignment.TaskAssignor.AssignmentError;
import org.apache.kafka.streams.processor.assignment.TaskAssignor.TaskAssignment;
import org.apache.kafka.streams.processor.assignment.TaskInfo;
import org.apache.kafka.streams.processor.assignment.TaskTopicPartition;
import org.apache.kafka.streams.processor.internals.assignment.AssignmentInfo;
import org.apache.kafka.streams.processor.internals.assignment.AssignorConfiguration;
import org.apache.kafka.streams.processor.internals.assignment.ClientState;
import org.apache.kafka.streams.processor.internals.assignment.DefaultApplicationState;
import org.apache.kafka.streams.processor.internals.assignment.DefaultTaskInfo;
import org.apache.kafka.streams.processor.internals.assignment.DefaultTaskTopicPartition;
import org.apache.kafka.streams.processor.internals.assignment.HighAvailabilityTaskAssignor;
import org.apache.kafka.streams.processor.internals.TopologyMetadata.Subtopology;
import org.apache.kafka.streams.processor.internals.assignment.RackAwareTaskAssignor;
import org.apache.kafka.streams.processor.internals.assignment.RackUtils;

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
 *             "strategy":"min_traffic","trafficCost":10,"nonOverlapCost":1,
 *             "assignor":"org.apache.kafka.streams.processor.assignment.assignors.StickyTaskAssignor"},
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
 * a probing rebalance the leader's client gets the deadline {@code probingMs} (the clock reads 0).
 *
 * <p>With {@code assignor}, the name of a KIP-924 {@link TaskAssignor} ({@code task.assignor.class}), the
 * leader's custom path runs instead: the application state built as
 * {@code StreamsPartitionAssignor.buildApplicationState} builds it (the tasks from its
 * {@link PartitionGrouper} over the source and changelog topics of each sub-topology, their
 * topic partitions annotated with racks by {@link RackUtils} on first use), the assignor instantiated
 * and configured as {@code AssignorConfiguration.customTaskAssignor} does, its assignment validated by
 * {@link TaskAssignmentUtils#validateTaskAssignment} and handed to the clients by the leader's private
 * {@code processStreamsPartitionAssignment} (by reflection). One thing differs: {@link DefaultTaskInfo}
 * hashes by identity, so a HashSet of tasks, which StickyTaskAssignor places standbys in the order of,
 * iterates in an order that changes from one JVM to the next; the oracle's task infos hash by their
 * rank in task order among the tasks of their kind, so that the stateful ones iterate in task order,
 * the order StoatFlow's port takes. The assignment is also computed with the
 * identity-hashed infos, and {@code identityDiffers} says whether that gave another placement.
 *
 * <p>Each stdout line answers one input line:
 *
 * <pre>
 * {"id":N, "probing":true, "clients":{"UUID":{"active":[...],"standby":[...]}},
 *  "consumers":{"member":{"active":["0_1",...],"partitions":["topic-a:1",...],"standby":[...],"next":-1}},
 *  "identityDiffers":false}
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
        final Method processAssignment = StreamsPartitionAssignor.class.getDeclaredMethod("processStreamsPartitionAssignment",
            TaskAssignor.class, TaskAssignment.class, AssignmentError.class, Map.class, GroupSubscription.class);
        processAssignment.setAccessible(true);

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
                out.write(run(c, leader, computeNewAssignment, processAssignment));
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
                              final Method computeNewAssignment, final Method processAssignment) throws Exception {
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
        final String assignorClass = (String) cfg.get("assignor");
        boolean probing = false;
        Boolean identityDiffers = null;
        if (assignorClass == null) {
            final RackAwareTaskAssignor rackAware = new RackAwareTaskAssignor(cluster, partitionsForTask,
                changelogPartitionsForTask, tasksForTopicGroup, racksForProcessConsumer, topicManager, configs, Time.SYSTEM);
            probing = new HighAvailabilityTaskAssignor()
                .assign(states, partitionsForTask.keySet(), statefulTasks, rackAware, configs);
        } else {
            final Map<TaskId, Set<TaskTopicPartition>> topicPartitionsForTask =
                taskTopicPartitions(partitionsForTask, changelogPartitionsForTask, cluster, topicManager);
            // The stateful tasks in task order, and the stateless ones: a task info's rank among its kind.
            final List<TaskId> inOrder = new ArrayList<>(topicPartitionsForTask.keySet());
            inOrder.sort((a, b) -> statefulTasks.contains(a) == statefulTasks.contains(b)
                ? a.compareTo(b) : statefulTasks.contains(a) ? -1 : 1);
            final int statefulCount = (int) inOrder.stream().filter(statefulTasks::contains).count();
            final Map<TaskId, TaskInfo> byIdentity = topicPartitionsForTask.keySet().stream().collect(Collectors.toMap(
                Function.identity(),
                task -> new DefaultTaskInfo(task, statefulTasks.contains(task), stores(statefulTasks, task), topicPartitionsForTask.get(task))));
            final Map<TaskId, TaskInfo> byRank = topicPartitionsForTask.keySet().stream().collect(Collectors.toMap(
                Function.identity(),
                task -> new RankedTaskInfo(task, statefulTasks.contains(task), stores(statefulTasks, task), topicPartitionsForTask.get(task),
                    statefulTasks.contains(task) ? inOrder.indexOf(task) : inOrder.indexOf(task) - statefulCount)));

            final TaskAssignor assignor = Utils.newInstance(assignorClass, TaskAssignor.class);
            assignor.configure(STREAMS_CONFIG.originals());
            final String identityPlacement = placement(assignor.assign(new DefaultApplicationState(configs, byIdentity, clients)));
            final ApplicationState applicationState = new DefaultApplicationState(configs, byRank, clients);
            final TaskAssignment taskAssignment = assignor.assign(applicationState);
            identityDiffers = !identityPlacement.equals(placement(taskAssignment));
            final AssignmentError error = TaskAssignmentUtils.validateTaskAssignment(applicationState, taskAssignment);
            if (error != AssignmentError.NONE) {
                throw new IllegalStateException("Task assignment with " + assignorClass + " returned an error: " + error);
            }
            processAssignment.invoke(leader, assignor, taskAssignment, error, clients, null);
        }

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

        if (identityDiffers != null) {
            sb.append(",\"identityDiffers\":").append(identityDiffers);
        }

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

    /**
     * The tasks and their topic partitions as {@code StreamsPartitionAssignor.buildApplicationState} makes
     * them: the partition grouper's tasks over each sub-topology's source and changelog topics (with a
     * metadata that knows every source partition), each source partition flagged as a changelog when it is
     * one, then the other changelog partitions; all annotated with racks once, when first asked.
     */
    private static Map<TaskId, Set<TaskTopicPartition>> taskTopicPartitions(final Map<TaskId, Set<TopicPartition>> partitionsForTask,
                                                                            final Map<TaskId, Set<TopicPartition>> changelogPartitionsForTask,
                                                                            final Cluster racks,
                                                                            final InternalTopicManager topicManager) {
        final Map<Subtopology, Set<String>> sourceTopicsByGroup = new HashMap<>();
        final Map<Subtopology, Set<String>> changelogTopicsByGroup = new HashMap<>();
        final List<PartitionInfo> sourcePartitions = new ArrayList<>();
        for (final Map.Entry<TaskId, Set<TopicPartition>> e : partitionsForTask.entrySet()) {
            final Subtopology subtopology = new Subtopology(e.getKey().subtopology(), e.getKey().topologyName());
            for (final TopicPartition tp : e.getValue()) {
                sourceTopicsByGroup.computeIfAbsent(subtopology, k -> new HashSet<>()).add(tp.topic());
                sourcePartitions.add(new PartitionInfo(tp.topic(), tp.partition(), null, new Node[0], new Node[0]));
            }
        }
        for (final Map.Entry<TaskId, Set<TopicPartition>> e : changelogPartitionsForTask.entrySet()) {
            final Subtopology subtopology = new Subtopology(e.getKey().subtopology(), e.getKey().topologyName());
            for (final TopicPartition tp : e.getValue()) {
                changelogTopicsByGroup.computeIfAbsent(subtopology, k -> new HashSet<>()).add(tp.topic());
            }
        }
        final Cluster sources = new Cluster("assignor-oracle", List.of(), sourcePartitions, Collections.emptySet(), Collections.emptySet());
        final Map<TaskId, Set<TopicPartition>> changelogPartitionGroups = new HashMap<>();
        final Map<TaskId, Set<TopicPartition>> sourcePartitionGroups =
            new PartitionGrouper().partitionGroups(sourceTopicsByGroup, changelogTopicsByGroup, changelogPartitionGroups, sources);

        final Set<DefaultTaskTopicPartition> topicsRequiringRackInfo = new HashSet<>();
        final AtomicBoolean rackInformationFetched = new AtomicBoolean(false);
        final Runnable fetchRackInformation = () -> {
            if (!rackInformationFetched.get()) {
                RackUtils.annotateTopicPartitionsWithRackInfo(racks, topicManager, topicsRequiringRackInfo);
                rackInformationFetched.set(true);
            }
        };
        final Map<TaskId, Set<TaskTopicPartition>> topicPartitionsForTask = new HashMap<>();
        for (final TaskId task : Collections.unmodifiableSet(sourcePartitionGroups.keySet())) {
            final Set<TaskTopicPartition> topicPartitions = new HashSet<>();
            for (final TopicPartition tp : sourcePartitionGroups.get(task)) {
                final DefaultTaskTopicPartition p = new DefaultTaskTopicPartition(tp, true,
                    changelogPartitionGroups.get(task).contains(tp), fetchRackInformation);
                topicsRequiringRackInfo.add(p);
                topicPartitions.add(p);
            }
            for (final TopicPartition tp : changelogPartitionGroups.get(task)) {
                final DefaultTaskTopicPartition p = new DefaultTaskTopicPartition(tp,
                    sourcePartitionGroups.get(task).contains(tp), true, fetchRackInformation);
                topicsRequiringRackInfo.add(p);
                topicPartitions.add(p);
            }
            topicPartitionsForTask.put(task, topicPartitions);
        }
        return topicPartitionsForTask;
    }

    private static Set<String> stores(final Set<TaskId> statefulTasks, final TaskId task) {
        return statefulTasks.contains(task) ? Set.of("store") : Set.of();
    }

    /** Each client's actives and standbys, sorted, to compare two assignments. */
    private static String placement(final TaskAssignment assignment) {
        final Map<String, String> byClient = new TreeMap<>();
        for (final KafkaStreamsAssignment a : assignment.assignment()) {
            final Map<KafkaStreamsAssignment.AssignedTask.Type, Set<TaskId>> byType = new TreeMap<>();
            for (final KafkaStreamsAssignment.AssignedTask t : a.tasks().values()) {
                byType.computeIfAbsent(t.type(), k -> new TreeSet<>()).add(t.id());
            }
            byClient.put(a.processId().toString(), byType.toString());
        }
        return byClient.toString();
    }

    /**
     * A task info that hashes by the task's rank in task order among the tasks of its kind (stateful or
     * not), where {@link DefaultTaskInfo} hashes by identity: a HashSet of the stateful ones, filled in any
     * order, iterates in task order (its table always has more buckets than elements).
     */
    private static final class RankedTaskInfo extends DefaultTaskInfo {
        private final int rank;

        RankedTaskInfo(final TaskId id, final boolean isStateful, final Set<String> stateStoreNames,
                       final Set<TaskTopicPartition> topicPartitions, final int rank) {
            super(id, isStateful, stateStoreNames, topicPartitions);
            this.rank = rank;
        }

        @Override
        public int hashCode() {
            return rank;
        }

        @Override
        public boolean equals(final Object o) {
            return this == o;
        }
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
