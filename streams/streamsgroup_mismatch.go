package streams

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/stoatflow/stoatflow/internal/streamsgroup"
)

// ErrTopologyDiffers is a thread's error under group.protocol=streams when
// the streams group holds another topology than this instance's. The
// coordinator keeps the topology its group was founded with and refuses a
// member that sends a different one at the same topology epoch (Kafka
// 4.4's GroupMetadataManager: INVALID_REQUEST, "Topology updates are not
// supported yet."), which ends a Kafka Streams 4.4 thread too.
var ErrTopologyDiffers = errors.New("streams: this instance's topology differs from the one the streams group holds")

// topologyUpdateRefused is how the coordinator words that refusal.
const topologyUpdateRefused = "Topology updates are not supported"

// topologyRefused turns the coordinator's refusal of this member's
// topology into ErrTopologyDiffers with the difference, read from the
// group's description; err is returned as it is for any other error, or
// with a note when the group cannot be described.
func (t *streamThread) topologyRefused(ctx context.Context, err error) error {
	var he *streamsgroup.HeartbeatError
	if !errors.As(err, &he) || !errors.Is(he.Err, kerr.InvalidRequest) || !strings.Contains(he.Message, topologyUpdateRefused) {
		return err
	}
	group := t.s.cfg.ApplicationID
	what := fmt.Sprintf("group %s refused it (%s)", group, he.Message)
	advice := "; run the same topology, with the same internal topic configs, on every instance of the application; " +
		"a changed topology needs a new application.id, as the group keeps the one it was founded with"
	dctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	g, derr := streamsgroup.Describe(dctx, t.consumer, group)
	if derr != nil || g.Topology == nil {
		return fmt.Errorf("%w: %s (describing the group for the difference failed: %v)%s", ErrTopologyDiffers, what, derr, advice)
	}
	diffs := topologyDifferences(t.memberCfg.Topology, *g.Topology)
	if len(diffs) == 0 {
		diffs = []string{"the sub-topologies' co-partition groups or source patterns, which the group's description does not show"}
	}
	return fmt.Errorf("%w: %s: %s%s", ErrTopologyDiffers, what, strings.Join(diffs, "; "), advice)
}

// topologyDifferences lists, sub-topology by sub-topology, how the
// topology a member sends differs from the one a streams group holds, in
// what StreamsGroupDescribe shows of it.
func topologyDifferences(mine kmsg.StreamsGroupHeartbeatRequestTopology, group kmsg.StreamsGroupDescribeResponseGroupTopology) []string {
	var diffs []string
	if mine.Epoch != group.Epoch {
		diffs = append(diffs, fmt.Sprintf("topology epoch %d here, %d in the group", mine.Epoch, group.Epoch))
	}
	theirs := map[string]kmsg.StreamsGroupDescribeResponseGroupTopologySubtopology{}
	var ids []string
	for _, s := range group.Subtopologies {
		theirs[s.SubtopologyID] = s
		ids = append(ids, s.SubtopologyID)
	}
	for _, s := range mine.Subtopologies {
		g, ok := theirs[s.SubtopologyID]
		if !ok {
			diffs = append(diffs, fmt.Sprintf("sub-topology %s (sources %v) is not in the group's", s.SubtopologyID, s.SourceTopics))
			continue
		}
		delete(theirs, s.SubtopologyID)
		diff := func(what string, here, there []string) {
			here, there = slices.Sorted(slices.Values(here)), slices.Sorted(slices.Values(there))
			if !slices.Equal(here, there) {
				diffs = append(diffs, fmt.Sprintf("sub-topology %s: %s %v here, %v in the group", s.SubtopologyID, what, here, there))
			}
		}
		diff("source topics", s.SourceTopics, g.SourceTopics)
		diff("repartition topics written", s.RepartitionSinkTopics, g.RepartitionSinkTopics)
		diff("changelog topics", topicInfos(s.StateChangelogTopics, nil), topicInfos(g.StateChangelogTopics, s.StateChangelogTopics))
		diff("repartition topics read", topicInfos(s.RepartitionSourceTopics, nil), topicInfos(g.RepartitionSourceTopics, s.RepartitionSourceTopics))
	}
	for _, id := range ids {
		if g, ok := theirs[id]; ok {
			diffs = append(diffs, fmt.Sprintf("the group's sub-topology %s (sources %v) is not in this topology", id, g.SourceTopics))
		}
	}
	return diffs
}

// topicInfos renders internal topics with what the member sends of them:
// partitions when fixed, replication factor when set, and configs. The
// group's description shows the partitions the coordinator gave every
// internal topic: for the group's side, mine are the member's topics, and
// partitions show only where the member fixed them too.
func topicInfos(ts, mine []kmsg.TopicInfo) []string {
	out := make([]string, 0, len(ts))
	for _, ti := range ts {
		s := ti.Topic
		fixed := mine == nil || slices.ContainsFunc(mine, func(m kmsg.TopicInfo) bool { return m.Topic == ti.Topic && m.NumPartitions > 0 })
		if ti.NumPartitions > 0 && fixed {
			s += fmt.Sprintf(" partitions=%d", ti.NumPartitions)
		}
		if ti.ReplicationFactor > 0 {
			s += fmt.Sprintf(" replication.factor=%d", ti.ReplicationFactor)
		}
		cfgs := make([]string, 0, len(ti.Configs))
		for _, c := range ti.Configs {
			cfgs = append(cfgs, c.Key+"="+c.Value)
		}
		slices.Sort(cfgs)
		if len(cfgs) > 0 {
			s += " {" + strings.Join(cfgs, ", ") + "}"
		}
		out = append(out, s)
	}
	return out
}
