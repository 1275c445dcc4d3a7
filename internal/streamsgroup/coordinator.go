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
		if offered, verr := offersHeartbeat(ctx, cl, node); verr == nil && !offered {
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

// offersHeartbeat asks broker node whether it serves StreamsGroupHeartbeat:
// a broker whose cluster has not finalized the streams.version feature
// leaves it out of its ApiVersions.
func offersHeartbeat(ctx context.Context, cl *kgo.Client, node int32) (bool, error) {
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
	key := kmsg.NewPtrStreamsGroupHeartbeatRequest().Key()
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
	var c coordinator
	c.node = -1
	node, err := c.find(ctx, cl, group)
	if err != nil {
		return kmsg.StreamsGroupDescribeResponseGroup{}, fmt.Errorf("streamsgroup: describe %s: %w", group, err)
	}
	req := kmsg.NewPtrStreamsGroupDescribeRequest()
	req.Groups = []string{group}
	resp, err := req.RequestWith(ctx, cl.Broker(int(node)))
	if err != nil {
		return kmsg.StreamsGroupDescribeResponseGroup{}, fmt.Errorf("streamsgroup: describe %s: %w", group, err)
	}
	if len(resp.Groups) != 1 {
		return kmsg.StreamsGroupDescribeResponseGroup{}, fmt.Errorf("streamsgroup: describe %s: %d groups described", group, len(resp.Groups))
	}
	g := resp.Groups[0]
	if err := kerr.ErrorForCode(g.ErrorCode); err != nil {
		return g, fmt.Errorf("streamsgroup: describe %s: %w", group, err)
	}
	return g, nil
}
