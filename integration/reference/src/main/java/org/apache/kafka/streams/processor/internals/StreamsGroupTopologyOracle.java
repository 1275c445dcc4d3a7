package org.apache.kafka.streams.processor.internals;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.UUID;

import org.apache.kafka.clients.consumer.internals.StreamsRebalanceData;
import org.apache.kafka.common.message.StreamsGroupHeartbeatRequestData;
import org.apache.kafka.common.message.StreamsGroupTopologyDescriptionUpdateRequestData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.ObjectSerializationCache;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;

/**
 * The topology a Kafka Streams 4.4 member sends in its first StreamsGroupHeartbeat
 * (group.protocol=streams), and the topology description it pushes when the coordinator asks for
 * it (KIP-1331), computed by Kafka's own code without a broker, for StoatFlow's tests of its copies
 * (integration/streamsgroup_topology_test.go, integration/streamsgroup_description_test.go).
 *
 * <p>It sits in Kafka's package to call the package-private {@code
 * StreamThread.initStreamsRebalanceData} on the topology as {@code KafkaStreams}'s constructor
 * prepares it ({@code TopologyMetadata.buildAndRewriteTopology}); the heartbeat manager's private
 * conversion to the request ({@code HeartbeatState.fromStreamsToHeartbeatRequest}) is called by
 * reflection. The result is a StreamsGroupHeartbeatRequest of version 1 with only its topology
 * set, in the protocol's bytes.
 */
public final class StreamsGroupTopologyOracle {
    private static final short VERSION = 1;

    private StreamsGroupTopologyOracle() {
    }

    /** Returns the request body, version 1, whose topology is the one topology would send under props. */
    public static byte[] heartbeatTopology(Topology topology, Properties props) throws ReflectiveOperationException {
        StreamsRebalanceData data = rebalanceData(topology, props);

        Class<?> state = Class.forName(
                "org.apache.kafka.clients.consumer.internals.StreamsGroupHeartbeatRequestManager$HeartbeatState");
        Method convert = state.getDeclaredMethod("fromStreamsToHeartbeatRequest", Map.class);
        convert.setAccessible(true);
        @SuppressWarnings("unchecked")
        List<StreamsGroupHeartbeatRequestData.Subtopology> subtopologies =
                (List<StreamsGroupHeartbeatRequestData.Subtopology>) convert.invoke(null, data.subtopologies());
        StreamsGroupHeartbeatRequestData request = new StreamsGroupHeartbeatRequestData()
                .setTopology(new StreamsGroupHeartbeatRequestData.Topology()
                        .setEpoch(data.topologyEpoch())
                        .setSubtopologies(subtopologies));

        ObjectSerializationCache cache = new ObjectSerializationCache();
        ByteBuffer buf = ByteBuffer.allocate(request.size(cache, VERSION));
        request.write(new ByteBufferAccessor(buf), cache, VERSION);
        return buf.array();
    }

    /**
     * Returns the body of a StreamsGroupTopologyDescriptionUpdateRequest, version 0, whose topology
     * description is the one a member of topology pushes under props, with an empty group and member
     * id and topology epoch 0. Fails when props turn the push off
     * (topology.description.push.enabled=false): the member then has no description to push.
     */
    public static byte[] topologyDescription(Topology topology, Properties props) throws ReflectiveOperationException {
        StreamsRebalanceData data = rebalanceData(topology, props);
        StreamsGroupTopologyDescriptionUpdateRequestData.TopologyDescription description = data.wireTopologyDescription();
        if (description == null) {
            throw new IllegalStateException("no topology description: topology.description.push.enabled is false");
        }
        StreamsGroupTopologyDescriptionUpdateRequestData request = new StreamsGroupTopologyDescriptionUpdateRequestData()
                .setTopologyEpoch(data.topologyEpoch())
                .setTopologyDescription(description);
        short version = 0;
        ObjectSerializationCache cache = new ObjectSerializationCache();
        ByteBuffer buf = ByteBuffer.allocate(request.size(cache, version));
        request.write(new ByteBufferAccessor(buf), cache, version);
        return buf.array();
    }

    /**
     * The StreamsRebalanceData a stream thread of topology starts with under props: the topology as
     * KafkaStreams' constructor prepares it (TopologyMetadata.buildAndRewriteTopology), given to
     * StreamThread.initStreamsRebalanceData.
     */
    private static StreamsRebalanceData rebalanceData(Topology topology, Properties props) throws ReflectiveOperationException {
        StreamsConfig config = new StreamsConfig(props);
        Field field = Topology.class.getDeclaredField("internalTopologyBuilder");
        field.setAccessible(true);
        TopologyMetadata metadata = new TopologyMetadata((InternalTopologyBuilder) field.get(topology), config);
        metadata.buildAndRewriteTopology();
        return StreamThread.initStreamsRebalanceData(UUID.randomUUID(), config,
                Optional.empty(), Optional.empty(), metadata, Map::of, Map::of);
    }
}
