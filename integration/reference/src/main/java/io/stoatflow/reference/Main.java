package io.stoatflow.reference;

import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyQueryMetadata;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.StreamsMetadata;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyConfig;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;
import org.apache.kafka.streams.errors.TopologyException;
import org.apache.kafka.streams.processor.StandbyUpdateListener;
import org.apache.kafka.streams.processor.StateRestoreListener;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.state.HostInfo;

/**
 * Runs one Kafka Streams 4.4 reference application, the twin of a StoatFlow example.
 *
 * <pre>
 * java -jar stoatflow-reference.jar APP --config FILE [--config FILE2] [--set key=value]...
 *      [--arg name=value]... [--describe] [--metadata-store STORE --metadata-keys FILE]
 * </pre>
 *
 * Lines on stdout are the protocol with the Go harness: {@code STATE <state>} on every state
 * change, {@code ERROR <message>} on a fatal error (a topology refused when it is built: its
 * exception, line breaks written {@code \n}, and the process exits), {@code CLOSED} after a clean close, and
 * {@code RESTORE-START <store> <topic-partition> <start offset> <end offset>} and
 * {@code RESTORE-END <store> <topic-partition> <records>} for each changelog restore, and
 * {@code RESTORE-SUSPENDED <store> <topic-partition> <records>} for a restore interrupted before its
 * end (its task revoked or closed while restoring; a later restore resumes where it stopped), and
 * {@code STANDBY-BATCH <store> <topic-partition> <records>} for each batch a standby or warm-up
 * replica loads from a changelog (a warm-up promoted to active restores only the rest). With
 * {@code --describe} it prints {@code topology.describe()} and exits without connecting; with
 * {@code --streams-group-topology} it prints, in hex, the StreamsGroupHeartbeatRequest (version 1)
 * that carries only the topology a member sends under group.protocol=streams, and exits without
 * connecting ({@link org.apache.kafka.streams.processor.internals.StreamsGroupTopologyOracle}); with
 * {@code --streams-group-topology-description} it prints, in hex, the
 * StreamsGroupTopologyDescriptionUpdateRequest (version 0) that carries the topology description a
 * member pushes when its streams group asks for it (KIP-1331), and exits without connecting.
 *
 * <p>With {@code --metadata-store STORE --metadata-keys FILE} (one String key a line, no
 * whitespace in a key) it prints, every second while RUNNING, Kafka Streams' interactive-query
 * metadata as the group's last assignment gives it, the answer StoatFlow's must equal: one
 * {@code METADATA-HOST <host:port> <stores> <partitions> <standby stores> <standby partitions>}
 * line per instance ({@code metadataForAllStreamsClients()}; lists sorted and comma-separated,
 * {@code -} when empty), one {@code METADATA <store> <key> <active host:port> <standby
 * host:port,...|-> <partition>} line per key ({@code queryMetadataForKey(store, key,
 * Serdes.String().serializer())}), then {@code METADATA-END}.
 *
 * <pre>
 * java -jar stoatflow-reference.jar TOOL ARGS...
 * </pre>
 *
 * runs one of the {@link #TOOLS} instead, programs that use the jar's classes without a
 * broker: {@code assignor-vectors} ({@link AssignorVectors}).
 */
public final class Main {
    private static final Map<String, Function<Map<String, String>, Topology>> APPS = new TreeMap<>();

    /** Programs other than the reference applications, by name: each gets the remaining arguments. */
    private static final Map<String, Tool> TOOLS = new TreeMap<>();

    /** A program run by name instead of an application. */
    @FunctionalInterface
    interface Tool {
        void main(String[] args) throws Exception;
    }

    /** The application's properties, which a DSL twin builds its topology with (see {@link #build}). */
    private static final Properties PROPS = new Properties();

    static {
        APPS.put("wordcount", WordCount::topology);
        APPS.put("windowedcount", WindowedCount::topology);
        APPS.put("windowedcountfinal", WindowedCount::finalResults);
        APPS.put("sessioncount", SessionCount::topology);
        APPS.put("passthrough", Passthrough::topology);
        APPS.put("processvalues", ProcessValues::topology);
        APPS.put("patterns", Patterns::topology);
        APPS.put("windowstore", WindowStoreApp::topology);
        APPS.put("windowstore-cached", WindowStoreApp::cached);
        APPS.put("lrumap", LruMap::topology);
        APPS.put("appconfigs", AppConfigs::topology);
        APPS.put("readonlystore", ReadOnlyStore::topology);
        APPS.put("ttl", Ttl::topology);
        APPS.put("replacethread", ReplaceThread::topology);
        APPS.put("productionerrors", ProductionErrors::topology);
        APPS.put("sessiontombstones", SessionTombstones::topology);
        APPS.put("tabletombstones", TableTombstones::topology);
        APPS.put("tableops", TableOps::topology);
        APPS.put("tableopswindowed", TableOpsWindowed::topology);
        APPS.put("streamtablejoin", StreamTableJoin::topology);
        APPS.put("tabletablejoin", TableTableJoin::topology);
        APPS.put("derivedtablejoin", DerivedTableJoin::topology);
        APPS.put("rekeyedtablejoin", RekeyedTableJoin::topology);
        APPS.put("windowedtablejoin", WindowedTableJoin::topology);
        APPS.put("splittablejoin", SplitTableJoin::topology);
        APPS.put("tablegroupby", TableGroupBy::topology);
        APPS.put("tabletransform", TableTransform::topology);
        APPS.put("slidingcount", SlidingCount::topology);
        APPS.put("slidingcountfinal", SlidingCount::finalResults);
        APPS.put("routing", Routing::topology);
        APPS.put("globaljoin", GlobalJoin::topology);
        APPS.put("globalstore", GlobalStore::topology);
        APPS.put("globalstore-papi", GlobalStore::papi);
        APPS.put("ssjoin", SsJoin::topology);
        APPS.put("suppressfinal", Suppress::finalResults);
        APPS.put("suppresstimelimit", Suppress::timeLimit);
        APPS.put("suppressbytes", Suppress::bytes);
        APPS.put("suppressfilteredtime", Suppress::filteredTime);
        APPS.put("suppressrejected", Suppress::rejected);
        APPS.put("suppressshapes", Suppress::shapes);
        APPS.put("avrowindowed", AvroWindowed::topology);
        APPS.put("fkjoin", FkJoin::topology);
        APPS.put("fkjoincrash", FkJoin::crash);
        APPS.put("cogroup", Cogroup::topology);
        APPS.put("copartitioned", CopartitionedJoins::topology);
        APPS.put("versioned", Versioned::topology);
        APPS.put("resets", Resets::topology);
        APPS.put("optimized", Optimized::topology);
        APPS.put("selfjoin", SelfJoin::topology);
        APPS.put("protojoin", ProtoJoin::topology);
        APPS.put("apicurioprotobuf", ProtoJoin::apicurio);
        APPS.put("benchssjoin", BenchSsJoin::topology);
        APPS.put("ssjoincrash", BenchSsJoin::crash);
        APPS.put("explicitnaming", ExplicitNaming::topology);
        APPS.put("emptykeys", EmptyKeys::topology);
        TOOLS.put("assignor-vectors", AssignorVectors::main);
    }

    private Main() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length >= 1 && TOOLS.containsKey(args[0])) {
            TOOLS.get(args[0]).main(List.of(args).subList(1, args.length).toArray(new String[0]));
            return;
        }
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        if (args.length < 1 || !APPS.containsKey(args[0])) {
            System.err.println("usage: stoatflow-reference APP --config FILE [--set k=v]... [--arg k=v]... [--describe | --streams-group-topology | --streams-group-topology-description]");
            System.err.println("       stoatflow-reference TOOL ARGS...");
            System.err.println("apps: " + APPS.keySet());
            System.err.println("tools: " + TOOLS.keySet());
            System.exit(2);
        }
        Properties props = PROPS;
        Map<String, String> appArgs = new TreeMap<>();
        boolean describe = false;
        boolean groupTopology = false;
        boolean groupTopologyDescription = false;
        String metadataStore = null;
        List<String> metadataKeys = List.of();
        List<String> rest = new ArrayList<>(List.of(args).subList(1, args.length));
        for (int i = 0; i < rest.size(); i++) {
            String a = rest.get(i);
            switch (a) {
                case "--describe" -> describe = true;
                case "--streams-group-topology" -> groupTopology = true;
                case "--streams-group-topology-description" -> groupTopologyDescription = true;
                case "--config" -> {
                    try (InputStream in = new FileInputStream(rest.get(++i))) {
                        props.load(in);
                    }
                }
                case "--set" -> putPair(props, rest.get(++i));
                case "--metadata-store" -> metadataStore = rest.get(++i);
                case "--metadata-keys" -> metadataKeys = Files.readAllLines(Path.of(rest.get(++i)), StandardCharsets.UTF_8)
                        .stream().map(String::strip).filter(k -> !k.isEmpty()).toList();
                case "--arg" -> {
                    String kv = rest.get(++i);
                    int eq = kv.indexOf('=');
                    appArgs.put(kv.substring(0, eq), kv.substring(eq + 1));
                }
                default -> {
                    System.err.println("unknown argument: " + a);
                    System.exit(2);
                }
            }
        }

        Topology topology;
        try {
            topology = APPS.get(args[0]).apply(appArgs);
        } catch (TopologyException e) {
            // Refused when built: one ERROR line, the message's line breaks written as \n.
            out.println("ERROR " + e.toString().replace("\n", "\\n"));
            out.flush();
            System.exit(1);
            return;
        }
        if (describe) {
            out.print(topology.describe().toString());
            out.flush();
            return;
        }
        if (groupTopology) {
            out.println(java.util.HexFormat.of().formatHex(
                    org.apache.kafka.streams.processor.internals.StreamsGroupTopologyOracle.heartbeatTopology(topology, props)));
            out.flush();
            return;
        }
        if (groupTopologyDescription) {
            out.println(java.util.HexFormat.of().formatHex(
                    org.apache.kafka.streams.processor.internals.StreamsGroupTopologyOracle.topologyDescription(topology, props)));
            out.flush();
            return;
        }

        KafkaStreams streams = new KafkaStreams(topology, props);
        CountDownLatch done = new CountDownLatch(1);
        streams.setStateListener((next, prev) -> {
            out.println("STATE " + next);
            if (next == KafkaStreams.State.ERROR || next == KafkaStreams.State.NOT_RUNNING) {
                done.countDown();
            }
        });
        streams.setGlobalStateRestoreListener(new StateRestoreListener() {
            @Override
            public void onRestoreStart(TopicPartition partition, String store, long start, long end) {
                out.println("RESTORE-START " + store + " " + partition + " " + start + " " + end);
            }

            @Override
            public void onBatchRestored(TopicPartition partition, String store, long batchEnd, long records) {
            }

            @Override
            public void onRestoreEnd(TopicPartition partition, String store, long records) {
                out.println("RESTORE-END " + store + " " + partition + " " + records);
            }

            @Override
            public void onRestoreSuspended(TopicPartition partition, String store, long records) {
                out.println("RESTORE-SUSPENDED " + store + " " + partition + " " + records);
            }
        });
        streams.setStandbyUpdateListener(new StandbyUpdateListener() {
            @Override
            public void onUpdateStart(TopicPartition partition, String store, long startingOffset) {
            }

            @Override
            public void onBatchLoaded(TopicPartition partition, String store, TaskId task, long batchEndOffset,
                    long batchSize, long currentEndOffset) {
                out.println("STANDBY-BATCH " + store + " " + partition + " " + batchSize);
            }

            @Override
            public void onUpdateSuspended(TopicPartition partition, String store, long storeOffset, long currentEndOffset,
                    SuspendReason reason) {
            }
        });
        // The response StoatFlow's sidecar reads from the same file.
        StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse response =
                StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.valueOf(
                        props.getProperty("stoatflow.thread.uncaught-exception-response", "SHUTDOWN_CLIENT").toUpperCase(java.util.Locale.ROOT));
        streams.setUncaughtExceptionHandler(e -> {
            if (response == StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.REPLACE_THREAD) {
                out.println("REPLACED " + e);
            } else {
                out.println("ERROR " + e);
            }
            return response;
        });
        // A closed instance leaves the group at once, so that the instances
        // that stay (of either engine) take its tasks without waiting out
        // its session timeout.
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            streams.close(org.apache.kafka.streams.CloseOptions
                    .groupMembershipOperation(org.apache.kafka.streams.CloseOptions.GroupMembershipOperation.LEAVE_GROUP)
                    .withTimeout(Duration.ofSeconds(30)));
            out.println("CLOSED");
            out.flush();
        }));
        streams.start();
        if (metadataStore != null) {
            String store = metadataStore;
            List<String> keys = metadataKeys;
            ScheduledExecutorService printer = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "metadata-printer");
                t.setDaemon(true);
                return t;
            });
            printer.scheduleWithFixedDelay(() -> printMetadata(streams, out, store, keys), 1, 1, TimeUnit.SECONDS);
        }
        done.await();
    }

    /**
     * Prints one round of the {@code METADATA} lines (see the class comment), in one write so that
     * no other line falls inside it; nothing unless RUNNING, nor when a rebalance changes the state
     * meanwhile.
     */
    private static void printMetadata(KafkaStreams streams, PrintStream out, String store, List<String> keys) {
        if (streams.state() != KafkaStreams.State.RUNNING) {
            return;
        }
        StringBuilder round = new StringBuilder();
        try {
            List<String> hosts = new ArrayList<>();
            for (StreamsMetadata md : streams.metadataForAllStreamsClients()) {
                hosts.add("METADATA-HOST " + hostPort(md.hostInfo()) + " " + joined(md.stateStoreNames()) + " "
                        + joined(md.topicPartitions()) + " " + joined(md.standbyStateStoreNames()) + " "
                        + joined(md.standbyTopicPartitions()) + "\n");
            }
            hosts.sort(null);
            hosts.forEach(round::append);
            for (String key : keys) {
                KeyQueryMetadata md = streams.queryMetadataForKey(store, key, Serdes.String().serializer());
                if (md == null) {
                    round.append("METADATA ").append(store).append(' ').append(key).append(" - - -1\n");
                    continue;
                }
                List<String> standbys = new ArrayList<>();
                md.standbyHosts().forEach(h -> standbys.add(hostPort(h)));
                round.append("METADATA ").append(store).append(' ').append(key).append(' ').append(hostPort(md.activeHost()))
                        .append(' ').append(joined(standbys)).append(' ').append(md.partition()).append('\n');
            }
        } catch (RuntimeException e) {
            return; // no longer running: the next round prints
        }
        if (streams.state() != KafkaStreams.State.RUNNING) {
            return;
        }
        out.print(round.append("METADATA-END\n"));
    }

    private static String hostPort(HostInfo h) {
        return h.host() + ":" + h.port();
    }

    /** The elements' strings sorted and comma-separated, {@code -} for none. */
    private static String joined(Collection<?> c) {
        if (c.isEmpty()) {
            return "-";
        }
        List<String> s = new ArrayList<>();
        c.forEach(o -> s.add(o.toString()));
        s.sort(null);
        return String.join(",", s);
    }

    private static void putPair(Properties props, String kv) throws IOException {
        int eq = kv.indexOf('=');
        if (eq < 0) {
            throw new IOException("--set wants key=value, got " + kv);
        }
        props.setProperty(kv.substring(0, eq), kv.substring(eq + 1));
    }

    /**
     * Builds a DSL twin's topology with the application's properties, as an application that sets
     * topology.optimization must: {@code StreamsBuilder.build()} alone applies no optimization.
     */
    static Topology build(StreamsBuilder builder) {
        return builder.build(PROPS);
    }

    /**
     * A builder that reads the application's properties while the topology is described (its
     * TopologyConfig), as an application must make it for the settings Kafka Streams applies then,
     * such as ensure.explicit.internal.resource.naming: {@code new StreamsBuilder()} ignores them.
     */
    static StreamsBuilder configuredBuilder() {
        return new StreamsBuilder(new TopologyConfig(new StreamsConfig(PROPS)));
    }

    static String arg(Map<String, String> args, String name, String dflt) {
        return args.getOrDefault(name, dflt);
    }
}
