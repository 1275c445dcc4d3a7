package streams_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/stoatflow/stoatflow/compat"
	"github.com/stoatflow/stoatflow/examples/cogroup"
	"github.com/stoatflow/stoatflow/examples/fkjoin"
	"github.com/stoatflow/stoatflow/examples/joins"
	"github.com/stoatflow/stoatflow/examples/patterns"
	"github.com/stoatflow/stoatflow/examples/selfjoin"
	"github.com/stoatflow/stoatflow/examples/windowedcount"
	"github.com/stoatflow/stoatflow/examples/wordcount"
	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/serde"
	"github.com/stoatflow/stoatflow/streams"
)

// The expected topologies below are what Kafka Streams 4.4 computes for the
// same programs: StreamThread.initBrokerTopology over
// InternalTopologyBuilder.subtopologyToTopicsInfo and copartitionGroups,
// each topic's configs from its InternalTopicConfig.properties, then
// StreamsGroupHeartbeatRequestManager's sorting and co-partition indexes.
// integration.TestStreamsGroupTopologyMatchesKafkaStreams checks the same
// topologies against the 4.4 jar and a broker.

// groupTopology returns the streams group topology of the topology build
// makes, under application.id=app and sets.
func groupTopology(t *testing.T, build kstreams.TopologyFactory, sets ...string) kmsg.StreamsGroupHeartbeatRequestTopology {
	t.Helper()
	topo, err := build(nil)
	if err != nil {
		t.Fatal(err)
	}
	cfg, diags := compat.LoadFiles(nil, append([]string{"application.id=app", "bootstrap.servers=b:9092"}, sets...), nil)
	if err := diags.Err(); err != nil {
		t.Fatal(err)
	}
	got, err := streams.StreamsGroupTopology(topo, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func checkTopology(t *testing.T, got kmsg.StreamsGroupHeartbeatRequestTopology, want ...kmsg.StreamsGroupHeartbeatRequestTopologySubtopology) {
	t.Helper()
	w := kmsg.StreamsGroupHeartbeatRequestTopology{Subtopologies: want}
	if !reflect.DeepEqual(got, w) {
		g, _ := json.MarshalIndent(got, "", "  ")
		e, _ := json.MarshalIndent(w, "", "  ")
		t.Errorf("topology:\n%s\nwant:\n%s", g, e)
	}
}

// topic is a TopicInfo; configs are key=value, in the order sent.
func topic(name string, partitions int32, rf int16, configs ...string) kmsg.TopicInfo {
	ti := kmsg.TopicInfo{Topic: name, NumPartitions: partitions, ReplicationFactor: rf}
	for _, kv := range configs {
		k, v, _ := strings.Cut(kv, "=")
		ti.Configs = append(ti.Configs, kmsg.TopicInfoConfig{Key: k, Value: v})
	}
	return ti
}

// The configs of RepartitionTopicConfig and of
// UnwindowedUnversionedChangelogTopicConfig without topic.* settings.
var (
	repartitionConfigs = []string{"cleanup.policy=delete", "message.timestamp.type=CreateTime", "retention.ms=-1", "segment.bytes=52428800"}
	changelogConfigs   = []string{"cleanup.policy=compact", "message.timestamp.type=CreateTime"}
)

func copartition(source, repartition []int16) kmsg.StreamsGroupHeartbeatRequestTopologySubtopologyCopartitionGroup {
	return kmsg.StreamsGroupHeartbeatRequestTopologySubtopologyCopartitionGroup{SourceTopics: source, RepartitionSourceTopics: repartition}
}

// The word count: the input's sub-topology writes the repartition topic the
// count's reads. replication.factor goes to every internal topic; a topic.*
// setting overrides the library's segment.bytes of the repartition topic and
// is added to the changelog's.
func TestStreamsGroupTopologyWordCount(t *testing.T) {
	got := groupTopology(t, wordcount.Build, "replication.factor=3", "topic.segment.bytes=1048576")
	rp := "app-KSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition"
	checkTopology(t, got,
		kmsg.StreamsGroupHeartbeatRequestTopologySubtopology{
			SubtopologyID: "0", SourceTopics: []string{"streams-plaintext-input"}, RepartitionSinkTopics: []string{rp},
		},
		kmsg.StreamsGroupHeartbeatRequestTopologySubtopology{
			SubtopologyID: "1",
			StateChangelogTopics: []kmsg.TopicInfo{topic("app-KSTREAM-AGGREGATE-STATE-STORE-0000000003-changelog", 0, 3,
				"cleanup.policy=compact", "message.timestamp.type=CreateTime", "segment.bytes=1048576")},
			RepartitionSourceTopics: []kmsg.TopicInfo{topic(rp, 0, 3,
				"cleanup.policy=delete", "message.timestamp.type=CreateTime", "retention.ms=-1", "segment.bytes=1048576")},
		})
}

// A windowed count's changelog (WindowedChangelogTopicConfig): compact and
// delete, retention.ms the store's retention (size 10 s + grace 5 s) plus
// windowstore.changelog.additional.retention.ms, the topic.* settings added;
// without replication.factor, Kafka's default -1.
func TestStreamsGroupTopologyWindowedCount(t *testing.T) {
	got := groupTopology(t, windowedcount.Build, "topic.min.insync.replicas=2", "windowstore.changelog.additional.retention.ms=3600000")
	checkTopology(t, got, kmsg.StreamsGroupHeartbeatRequestTopologySubtopology{
		SubtopologyID: "0", SourceTopics: []string{"windowed-input"},
		StateChangelogTopics: []kmsg.TopicInfo{topic("app-KSTREAM-AGGREGATE-STATE-STORE-0000000001-changelog", 0, -1,
			"cleanup.policy=compact,delete", "message.timestamp.type=CreateTime", "min.insync.replicas=2", "retention.ms=3615000")},
	})
}

// A stream–table join co-partitions the stream's topic with the table's:
// one group, indexes into the sorted source topics.
func TestStreamsGroupTopologyStreamTableJoin(t *testing.T) {
	got := groupTopology(t, joins.BuildStreamTable)
	checkTopology(t, got, kmsg.StreamsGroupHeartbeatRequestTopologySubtopology{
		SubtopologyID: "0", SourceTopics: []string{"joins-stream", "joins-table"},
		StateChangelogTopics: []kmsg.TopicInfo{topic("app-joins-table-STATE-STORE-0000000001-changelog", 0, -1, changelogConfigs...)},
		CopartitionGroups:    []kmsg.StreamsGroupHeartbeatRequestTopologySubtopologyCopartitionGroup{copartition([]int16{0, 1}, nil)},
	})
}

// The foreign-key joins' four topics are repartition topics: each join
// co-partitions its subscription topic with the right table and its
// response topic with the left table. The two joins share both tables, so
// Kafka merges their groups into one per side; a group lists its topics in
// the order of Kafka's HashSet of them, here fk-left's topic before the
// unnamed join's.
func TestStreamsGroupTopologyForeignKeyJoin(t *testing.T) {
	got := groupTopology(t, fkjoin.Build)
	reg1, reg2 := "app-KTABLE-FK-JOIN-SUBSCRIPTION-REGISTRATION-0000000006-topic", "app-fk-left-subscription-registration-topic"
	resp1, resp2 := "app-KTABLE-FK-JOIN-SUBSCRIPTION-RESPONSE-0000000014-topic", "app-fk-left-subscription-response-topic"
	group := []kmsg.StreamsGroupHeartbeatRequestTopologySubtopologyCopartitionGroup{copartition([]int16{0}, []int16{1, 0})}
	checkTopology(t, got,
		kmsg.StreamsGroupHeartbeatRequestTopologySubtopology{
			SubtopologyID: "0", SourceTopics: []string{"fkjoin-left"}, RepartitionSinkTopics: []string{reg1, reg2},
			StateChangelogTopics: []kmsg.TopicInfo{
				topic("app-fk-inner-changelog", 0, -1, changelogConfigs...),
				topic("app-fkjoin-left-STATE-STORE-0000000000-changelog", 0, -1, changelogConfigs...),
			},
			RepartitionSourceTopics: []kmsg.TopicInfo{topic(resp1, 0, -1, repartitionConfigs...), topic(resp2, 0, -1, repartitionConfigs...)},
			CopartitionGroups:       group,
		},
		kmsg.StreamsGroupHeartbeatRequestTopologySubtopology{
			SubtopologyID: "1", SourceTopics: []string{"fkjoin-right"}, RepartitionSinkTopics: []string{resp1, resp2},
			StateChangelogTopics: []kmsg.TopicInfo{
				topic("app-KTABLE-FK-JOIN-SUBSCRIPTION-STATE-STORE-0000000010-changelog", 0, -1, changelogConfigs...),
				topic("app-fk-left-subscription-store-changelog", 0, -1, changelogConfigs...),
				topic("app-fkjoin-right-STATE-STORE-0000000003-changelog", 0, -1, changelogConfigs...),
			},
			RepartitionSourceTopics: []kmsg.TopicInfo{topic(reg1, 0, -1, repartitionConfigs...), topic(reg2, 0, -1, repartitionConfigs...)},
			CopartitionGroups:       group,
		})
}

// Under reuse.ktable.source.topics the table's store has no changelog of its
// own, yet Kafka Streams sends its source topic among the sub-topology's
// changelogs (with an unwindowed store's configs); the re-keyed stream's
// repartition topic is co-partitioned with the table.
func TestStreamsGroupTopologyReusedSourceTable(t *testing.T) {
	for _, opt := range []string{"reuse.ktable.source.topics", "all"} {
		t.Run(opt, func(t *testing.T) {
			got := groupTopology(t, joins.BuildRekeyed, "topology.optimization="+opt)
			rp := "app-by-user-repartition"
			checkTopology(t, got,
				kmsg.StreamsGroupHeartbeatRequestTopologySubtopology{
					SubtopologyID: "0", SourceTopics: []string{"joins-stream"}, RepartitionSinkTopics: []string{rp},
				},
				kmsg.StreamsGroupHeartbeatRequestTopologySubtopology{
					SubtopologyID: "1", SourceTopics: []string{"joins-table"},
					StateChangelogTopics:    []kmsg.TopicInfo{topic("joins-table", 0, -1, changelogConfigs...)},
					RepartitionSourceTopics: []kmsg.TopicInfo{topic(rp, 0, -1, repartitionConfigs...)},
					CopartitionGroups:       []kmsg.StreamsGroupHeartbeatRequestTopologySubtopologyCopartitionGroup{copartition([]int16{0}, []int16{0})},
				})
		})
	}
}

// buildCopartitioned is the twin of the reference application
// "copartitioned" (CopartitionedJoins.java): two stream–table joins merged
// into one sub-topology, then a repartition of three partitions joined with
// a third table and counted.
func buildCopartitioned(map[string]string) (*kstreams.Topology, error) {
	s := serde.String{}
	in := kstreams.ConsumedWith[string, string](s, s)
	b := kstreams.NewStreamsBuilder()
	orders := kstreams.Stream(b, []string{"copartitioned-orders"}, in)
	customers := kstreams.Table(b, "copartitioned-customers", in)
	payments := kstreams.Stream(b, []string{"copartitioned-payments"}, in)
	accounts := kstreams.Table(b, "copartitioned-accounts", in)
	merged := kstreams.StreamTableJoin(orders, customers, func(_, o, c string) string { return o + "+" + c }).
		Merge(kstreams.StreamTableJoin(payments, accounts, func(_, p, a string) string { return p + "+" + a }))
	merged.To("copartitioned-output", kstreams.ProducedWith[string, string](s, s))
	regions := kstreams.Table(b, "copartitioned-regions", in)
	rekeyed := merged.Repartition(kstreams.Repartitioned[string, string]{NumberOfPartitions: 3, KeySerde: s, ValueSerde: s})
	kstreams.StreamTableJoin(rekeyed, regions, func(_, m, r string) string { return m + "@" + r }).
		GroupByKey().Count().ToStream().To("copartitioned-output-counts", kstreams.ProducedWith[string, int64](s, serde.Long{}))
	return b.Build()
}

// Two co-partition groups in one sub-topology come in the order of Kafka's
// HashSet of groups (by the sum of their topics' String hashes), each
// group's topics in the order of its HashSet, not sorted; a repartition
// topic whose partition count the topology fixes carries it.
func TestStreamsGroupTopologyCopartitionGroupsInKafkasOrder(t *testing.T) {
	got := groupTopology(t, buildCopartitioned)
	rp := "app-KSTREAM-REPARTITION-0000000015-repartition"
	checkTopology(t, got,
		kmsg.StreamsGroupHeartbeatRequestTopologySubtopology{
			SubtopologyID: "0",
			SourceTopics:  []string{"copartitioned-accounts", "copartitioned-customers", "copartitioned-orders", "copartitioned-payments"},
			StateChangelogTopics: []kmsg.TopicInfo{
				topic("app-copartitioned-accounts-STATE-STORE-0000000005-changelog", 0, -1, changelogConfigs...),
				topic("app-copartitioned-customers-STATE-STORE-0000000001-changelog", 0, -1, changelogConfigs...),
			},
			RepartitionSinkTopics: []string{rp},
			CopartitionGroups: []kmsg.StreamsGroupHeartbeatRequestTopologySubtopologyCopartitionGroup{
				copartition([]int16{3, 0}, nil), // payments, accounts
				copartition([]int16{2, 1}, nil), // orders, customers
			},
		},
		kmsg.StreamsGroupHeartbeatRequestTopologySubtopology{
			SubtopologyID: "1", SourceTopics: []string{"copartitioned-regions"},
			StateChangelogTopics: []kmsg.TopicInfo{
				topic("app-KSTREAM-AGGREGATE-STATE-STORE-0000000020-changelog", 0, -1, changelogConfigs...),
				topic("app-copartitioned-regions-STATE-STORE-0000000012-changelog", 0, -1, changelogConfigs...),
			},
			RepartitionSourceTopics: []kmsg.TopicInfo{topic(rp, 3, -1, repartitionConfigs...)},
			CopartitionGroups:       []kmsg.StreamsGroupHeartbeatRequestTopologySubtopologyCopartitionGroup{copartition([]int16{0}, []int16{0})},
		})
}

// Sub-topology ids are sorted as strings, as the heartbeat manager sorts
// them: "10" comes before "2".
func TestStreamsGroupTopologySortsSubtopologyIDsAsStrings(t *testing.T) {
	build := func(map[string]string) (*kstreams.Topology, error) {
		b := kstreams.NewStreamsBuilder()
		for i := range 11 {
			kstreams.Stream[string, string](b, []string{fmt.Sprintf("in-%02d", i)}).To(fmt.Sprintf("out-%02d", i))
		}
		return b.Build()
	}
	got := groupTopology(t, build)
	var ids, sources []string
	for _, st := range got.Subtopologies {
		ids = append(ids, st.SubtopologyID)
		sources = append(sources, st.SourceTopics...)
	}
	if want := "0 1 10 2 3 4 5 6 7 8 9"; strings.Join(ids, " ") != want {
		t.Errorf("sub-topology ids %v, want %s", ids, want)
	}
	if want := "in-00 in-01 in-10 in-02 in-03 in-04 in-05 in-06 in-07 in-08 in-09"; strings.Join(sources, " ") != want {
		t.Errorf("source topics %v, want %s", sources, want)
	}
}

// A self-join co-partitions its stream with itself: Kafka keeps that group
// of one topic, and single.store.self.join leaves it.
func TestStreamsGroupTopologyKeepsASelfJoinsGroup(t *testing.T) {
	got := groupTopology(t, selfjoin.Build, "topology.optimization=all")
	checkTopology(t, got, kmsg.StreamsGroupHeartbeatRequestTopologySubtopology{
		SubtopologyID: "0", SourceTopics: []string{"selfjoin-input"},
		StateChangelogTopics: []kmsg.TopicInfo{topic("app-self-store-this-join-store-changelog", 0, -1,
			"cleanup.policy=delete", "message.timestamp.type=CreateTime", "retention.ms=86435000")},
		CopartitionGroups: []kmsg.StreamsGroupHeartbeatRequestTopologySubtopologyCopartitionGroup{copartition([]int16{0}, nil)},
	})
}

// What Kafka Streams refuses under group.protocol=streams fails here too:
// pattern sources (KafkaStreams' constructor), and a cogroup whose streams
// are repartitioned apart, whose co-partition group of their input topics
// no sub-topology reads (initBrokerTopology: "Not all copartition groups
// were converted to broker topology").
func TestStreamsGroupTopologyRefusesWhatKafkaStreamsRefuses(t *testing.T) {
	for name, build := range map[string]kstreams.TopologyFactory{"patterns": patterns.Build, "cogroup": cogroup.Build} {
		t.Run(name, func(t *testing.T) {
			topo, err := build(nil)
			if err != nil {
				t.Fatal(err)
			}
			cfg, diags := compat.LoadFiles(nil, []string{"application.id=app", "bootstrap.servers=b:9092"}, nil)
			if err := diags.Err(); err != nil {
				t.Fatal(err)
			}
			if _, err := streams.StreamsGroupTopology(topo, cfg); !errors.Is(err, streams.ErrStreamsGroupTopology) {
				t.Errorf("error %v, want ErrStreamsGroupTopology", err)
			}
		})
	}
}
