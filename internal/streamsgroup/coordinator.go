package streamsgroup

import (
	"context"
	"fmt"
	"sync"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// coordinator finds the group's coordinator and sends heartbeats to it.
// kgo routes group requests to their coordinator itself, but not
// StreamsGroupHeartbeat (its handleCoordinatorReq does not know key 88),
// so the member looks the coordinator up with FindCoordinator and sends to
// that broker, forgetting it when it moves, as Kafka's
// CoordinatorRequestManager does.
type coordinator struct {
	mu   sync.Mutex
	node int32 // -1: unknown
}

func (c *coordinator) heartbeat(ctx context.Context, cl *kgo.Client, group string, req *kmsg.StreamsGroupHeartbeatRequest) (*kmsg.StreamsGroupHeartbeatResponse, error) {
	node, err := c.find(ctx, cl, group)
	if err != nil {
		return nil, err
	}
	resp, err := req.RequestWith(ctx, cl.Broker(int(node)))
	if err != nil {
		c.forget(node)
		if offered, verr := offersKey(ctx, cl, node, req.Key()); verr == nil && !offered {
			// The client refused to send a request the broker does not
			// list: the cluster has no streams groups.
			return nil, classify(group, kerr.UnsupportedVersion.Code, kmsg.StringPtr(fmt.Sprintf("broker %d does not offer StreamsGroupHeartbeat (API key %d)", node, req.Key())))
		}
		return nil, err
	}
	switch kerr.ErrorForCode(resp.ErrorCode) {
	case kerr.NotCoordinator, kerr.CoordinatorNotAvailable:
		c.forget(node)
	}
	return resp, nil
}

func (c *coordinator) find(ctx context.Context, cl *kgo.Client, group string) (int32, error) {
	c.mu.Lock()
	node := c.node
	c.mu.Unlock()
	if node >= 0 {
		return node, nil
	}
	req := kmsg.NewPtrFindCoordinatorRequest()
	req.CoordinatorKey = group
	req.CoordinatorKeys = []string{group}
	resp, err := req.RequestWith(ctx, cl)
	if err != nil {
		return -1, err
	}
	code, nodeID := resp.ErrorCode, resp.NodeID
	if len(resp.Coordinators) > 0 {
		code, nodeID = resp.Coordinators[0].ErrorCode, resp.Coordinators[0].NodeID
	}
	if err := kerr.ErrorForCode(code); err != nil {
		he := &HeartbeatError{Group: group, Err: err, Retriable: kerr.IsRetriable(err), Backoff: true,
			Hint: fmt.Sprintf("looking up the coordinator of group %s", group)}
		if err == kerr.GroupAuthorizationFailed {
			he.Hint = "grant the application's principal DESCRIBE on group " + group
		}
		return -1, he
	}
	c.mu.Lock()
	c.node = nodeID
	c.mu.Unlock()
	return nodeID, nil
}

// pushDescription sends a StreamsGroupTopologyDescriptionUpdate to the
// group's coordinator, which kgo does not route either (key 93), and
// forgets the coordinator when it moved.
func (c *coordinator) pushDescription(ctx context.Context, cl *kgo.Client, group string, req *kmsg.StreamsGroupTopologyDescriptionUpdateRequest) (*kmsg.StreamsGroupTopologyDescriptionUpdateResponse, error) {
	node, err := c.find(ctx, cl, group)
	if err != nil {
		return nil, err
	}
	resp, err := req.RequestWith(ctx, cl.Broker(int(node)))
	if err != nil {
		c.forget(node)
		if offered, verr := offersKey(ctx, cl, node, req.Key()); verr == nil && !offered {
			return nil, fmt.Errorf("broker %d does not offer StreamsGroupTopologyDescriptionUpdate (API key %d): %w", node, req.Key(), kerr.UnsupportedVersion)
		}
		return nil, err
	}
	switch kerr.ErrorForCode(resp.ErrorCode) {
	case kerr.NotCoordinator, kerr.CoordinatorNotAvailable:
		c.forget(node)
	}
	return resp, nil
}

// offersKey asks broker node whether it serves the request of API key
// key: a broker whose cluster has not finalized the streams.version
// feature leaves the streams group requests out of its ApiVersions.
func offersKey(ctx context.Context, cl *kgo.Client, node int32, key int16) (bool, error) {
	req := kmsg.NewPtrApiVersionsRequest()
	// A broker checks these names from version 3 on.
	req.ClientSoftwareName, req.ClientSoftwareVersion = "stoatflow", "1"
	resp, err := req.RequestWith(ctx, cl.Broker(int(node)))
	if err != nil {
		return false, err
	}
	if err := kerr.ErrorForCode(resp.ErrorCode); err != nil {
		return false, err
	}
	for _, k := range resp.ApiKeys {
		if k.ApiKey == key {
			return true, nil
		}
	}
	return false, nil
}

func (c *coordinator) forget(node int32) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.node == node {
		c.node = -1
	}
}

// Describe answers StreamsGroupDescribe for group from its coordinator
// (which kgo does not route either): the group's state, topology and
// members with their process ids and assignments.
func Describe(ctx context.Context, cl *kgo.Client, group string) (kmsg.StreamsGroupDescribeResponseGroup, error) {
	g, _, err := describe(ctx, cl, group, false)
	return g, err
}

// DescriptionStatus is the status of a group's topology description in
// StreamsGroupDescribe v1 (KIP-1331, TopologyDescriptionStatus).
type DescriptionStatus int8

// The statuses of a topology description.
const (
	// DescriptionNotRequested: the request did not ask for it.
	DescriptionNotRequested DescriptionStatus = 0
	// DescriptionNotStored: the broker's plugin holds none for the group
	// (no member pushed one yet, or the broker has no plugin).
	DescriptionNotStored DescriptionStatus = 1
	// DescriptionError: the broker failed to read it; its log says why.
	DescriptionError DescriptionStatus = 2
	// DescriptionAvailable: the description is in the answer.
	DescriptionAvailable DescriptionStatus = 3
)

// String is the status's name in Kafka's StreamsGroupDescribeResponse.
func (s DescriptionStatus) String() string {
	switch s {
	case DescriptionNotRequested:
		return "NOT_REQUESTED"
	case DescriptionNotStored:
		return "NOT_STORED"
	case DescriptionError:
		return "ERROR"
	case DescriptionAvailable:
		return "AVAILABLE"
	}
	return fmt.Sprintf("STATUS_%d", int8(s))
}

// DescribeTopologyDescription answers StreamsGroupDescribe v1 with
// IncludeTopologyDescription for group: the topology description the
// broker's topology description plugin stored from a member's push
// (KIP-1331), in the form the member pushed it, and its status; the
// description is set only when the status is DescriptionAvailable. A
// broker older than Kafka 4.4, which has no StreamsGroupDescribe v1, is an
// error.
func DescribeTopologyDescription(ctx context.Context, cl *kgo.Client, group string) (*kmsg.TopologyDescription, DescriptionStatus, error) {
	g, version, err := describe(ctx, cl, group, true)
	if err != nil {
		return nil, 0, err
	}
	if version < 1 {
		return nil, 0, fmt.Errorf("streamsgroup: describe %s: the coordinator answered StreamsGroupDescribe v%d, which carries no topology "+
			"description; it needs v1 (Kafka 4.4+)", group, version)
	}
	status := DescriptionStatus(g.TopologyDescriptionStatus)
	if status != DescriptionAvailable || g.TopologyDescription == nil {
		return nil, status, nil
	}
	d := kmsg.NewTopologyDescription()
	d.Subtopologies, d.GlobalStores = g.TopologyDescription.Subtopologies, g.TopologyDescription.GlobalStores
	return &d, status, nil
}

func describe(ctx context.Context, cl *kgo.Client, group string, includeDescription bool) (kmsg.StreamsGroupDescribeResponseGroup, int16, error) {
	var c coordinator
	c.node = -1
	node, err := c.find(ctx, cl, group)
	if err != nil {
		return kmsg.StreamsGroupDescribeResponseGroup{}, 0, fmt.Errorf("streamsgroup: describe %s: %w", group, err)
	}
	req := kmsg.NewPtrStreamsGroupDescribeRequest()
	req.Groups = []string{group}
	req.IncludeTopologyDescription = includeDescription
	resp, err := req.RequestWith(ctx, cl.Broker(int(node)))
	if err != nil {
		return kmsg.StreamsGroupDescribeResponseGroup{}, 0, fmt.Errorf("streamsgroup: describe %s: %w", group, err)
	}
	if len(resp.Groups) != 1 {
		return kmsg.StreamsGroupDescribeResponseGroup{}, 0, fmt.Errorf("streamsgroup: describe %s: %d groups described", group, len(resp.Groups))
	}
	g := resp.Groups[0]
	if err := kerr.ErrorForCode(g.ErrorCode); err != nil {
		return g, resp.Version, fmt.Errorf("streamsgroup: describe %s: %w", group, err)
	}
	return g, resp.Version, nil
}
