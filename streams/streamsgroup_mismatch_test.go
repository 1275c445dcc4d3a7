package streams

import (
	"strings"
	"testing"

	"github.com/twmb/franz-go/pkg/kmsg"
)

func TestTopologyDifferences(t *testing.T) {
	changelog := func(partitions int32, cfg ...string) kmsg.TopicInfo {
		ti := kmsg.TopicInfo{Topic: "app-store-changelog", NumPartitions: partitions, ReplicationFactor: 3}
		for i := 0; i+1 < len(cfg); i += 2 {
			ti.Configs = append(ti.Configs, kmsg.TopicInfoConfig{Key: cfg[i], Value: cfg[i+1]})
		}
		return ti
	}
	mine := kmsg.StreamsGroupHeartbeatRequestTopology{Subtopologies: []kmsg.StreamsGroupHeartbeatRequestTopologySubtopology{
		{SubtopologyID: "0", SourceTopics: []string{"in", "in2"}, RepartitionSinkTopics: []string{"app-r-repartition"}},
		{SubtopologyID: "1", SourceTopics: []string{"app-r-repartition"}, StateChangelogTopics: []kmsg.TopicInfo{changelog(0, "cleanup.policy", "compact")}},
	}}
	group := func(edit func(*kmsg.StreamsGroupDescribeResponseGroupTopology)) kmsg.StreamsGroupDescribeResponseGroupTopology {
		g := kmsg.StreamsGroupDescribeResponseGroupTopology{Subtopologies: []kmsg.StreamsGroupDescribeResponseGroupTopologySubtopology{
			// The coordinator shows the partitions it configured, and
			// the topics in its own order.
			{SubtopologyID: "0", SourceTopics: []string{"in2", "in"}, RepartitionSinkTopics: []string{"app-r-repartition"}},
			{SubtopologyID: "1", SourceTopics: []string{"app-r-repartition"}, StateChangelogTopics: []kmsg.TopicInfo{changelog(4, "cleanup.policy", "compact")}},
		}}
		if edit != nil {
			edit(&g)
		}
		return g
	}
	for _, tc := range []struct {
		name string
		edit func(*kmsg.StreamsGroupDescribeResponseGroupTopology)
		want []string // substrings, one per difference
	}{
		{name: "same", want: nil},
		{name: "sources", edit: func(g *kmsg.StreamsGroupDescribeResponseGroupTopology) {
			g.Subtopologies[0].SourceTopics = []string{"other"}
		},
			want: []string{"sub-topology 0: source topics [in in2] here, [other] in the group"}},
		{name: "changelog config", edit: func(g *kmsg.StreamsGroupDescribeResponseGroupTopology) {
			g.Subtopologies[1].StateChangelogTopics = []kmsg.TopicInfo{changelog(4, "cleanup.policy", "compact,delete")}
		}, want: []string{"sub-topology 1: changelog topics [app-store-changelog replication.factor=3 {cleanup.policy=compact}] here, [app-store-changelog replication.factor=3 {cleanup.policy=compact,delete}] in the group"}},
		{name: "a sub-topology more in the group", edit: func(g *kmsg.StreamsGroupDescribeResponseGroupTopology) {
			g.Subtopologies = append(g.Subtopologies, kmsg.StreamsGroupDescribeResponseGroupTopologySubtopology{SubtopologyID: "2", SourceTopics: []string{"x"}})
		}, want: []string{"the group's sub-topology 2 (sources [x]) is not in this topology"}},
		{name: "a sub-topology more here", edit: func(g *kmsg.StreamsGroupDescribeResponseGroupTopology) { g.Subtopologies = g.Subtopologies[:1] },
			want: []string{"sub-topology 1 (sources [app-r-repartition]) is not in the group's"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := topologyDifferences(mine, group(tc.edit))
			if len(got) != len(tc.want) {
				t.Fatalf("differences %q, want %d like %q", got, len(tc.want), tc.want)
			}
			for i, w := range tc.want {
				if !strings.Contains(got[i], w) {
					t.Errorf("difference %d is %q, want it to hold %q", i, got[i], w)
				}
			}
		})
	}
}
