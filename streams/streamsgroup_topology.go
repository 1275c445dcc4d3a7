package streams

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"unicode/utf16"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/stoatflow/stoatflow/compat"
	"github.com/stoatflow/stoatflow/kstreams"
)

// ErrStreamsGroupTopology is returned for a topology a Kafka Streams 4.4
// member could not describe to a streams group either.
var ErrStreamsGroupTopology = errors.New("streams: topology not supported by the streams rebalance protocol")

// StreamsGroupTopology returns the topology a Kafka Streams 4.4 member
// sends in its first StreamsGroupHeartbeat (KIP-1071,
// group.protocol=streams) for topo under cfg, field for field, so that a
// StoatFlow member that founds a streams group gives the broker the
// internal topics a Kafka Streams member would. topo is optimized as cfg
// asks, as New does (an optimized topology is left as it is).
//
// As Kafka Streams builds it (StreamThread.initBrokerTopology, then
// StreamsGroupHeartbeatRequestManager's conversion):
//   - epoch 0; one entry per sub-topology that reads a topic, its id the
//     decimal sub-topology number, the entries sorted by id as strings
//     ("10" before "2"); global sub-topologies are left out;
//   - SourceTopics: the external topics it reads, sorted;
//     RepartitionSourceTopics: the repartition topics it reads, sorted by
//     name, with a partition count only when the topology fixes one
//     (Repartitioned.numberOfPartitions), replication.factor, and the
//     configs Kafka Streams creates them with sorted by key;
//     RepartitionSinkTopics: the repartition topics it writes, sorted;
//   - StateChangelogTopics: the changelogs of its logged stores, and the
//     source topic of a store that reads it as its changelog
//     (reuse.ktable.source.topics, read-only stores), sorted by name,
//     without a partition count, with replication.factor and the configs
//     sorted by key (topic.* settings over the library's, a store's own
//     over both, a window changelog's retention.ms from the store's
//     retention plus windowstore.changelog.additional.retention.ms);
//   - CopartitionGroups: the groups of InternalTopologyBuilder.copartitionGroups
//     whose topics it reads, as indexes into its SourceTopics and
//     RepartitionSourceTopics, in the iteration orders of Kafka's hash sets.
//
// A topology with pattern sources, or a co-partition group no single
// sub-topology reads (a cogroup of streams repartitioned apart), fails
// with ErrStreamsGroupTopology, as Kafka Streams fails it.
func StreamsGroupTopology(topo *kstreams.Topology, cfg *compat.Config) (kmsg.StreamsGroupHeartbeatRequestTopology, error) {
	out := kmsg.NewStreamsGroupHeartbeatRequestTopology()
	topo, err := topo.Optimize(cfg.Optimizations)
	if err != nil {
		return out, err
	}
	if topo.HasPatternSources() {
		return out, fmt.Errorf("%w: Pattern subscriptions are not supported with the STREAMS protocol", ErrStreamsGroupTopology)
	}
	app := cfg.ApplicationID
	itc := internalTopicsConfig(cfg)
	rf := int16(cfg.ReplicationFactor)
	topicInfo := func(name string, partitions int, configs map[string]string) kmsg.TopicInfo {
		ti := kmsg.NewTopicInfo()
		ti.Topic, ti.NumPartitions, ti.ReplicationFactor = name, int32(partitions), rf
		for _, k := range slices.Sorted(maps.Keys(configs)) {
			c := kmsg.NewTopicInfoConfig()
			c.Key, c.Value = k, configs[k]
			ti.Configs = append(ti.Configs, c)
		}
		return ti
	}
	byName := func(a, b kmsg.TopicInfo) int { return cmp.Compare(a.Topic, b.Topic) }

	repartitions := map[int][]kmsg.TopicInfo{}
	changelogs := map[int][]kmsg.TopicInfo{}
	for _, it := range topo.InternalTopics(itc) {
		switch it.Kind {
		case kstreams.RepartitionTopicKind:
			repartitions[it.Subtopology] = append(repartitions[it.Subtopology], topicInfo(it.Name, it.NumPartitions, it.Configs))
		case kstreams.ChangelogTopicKind:
			changelogs[it.Subtopology] = append(changelogs[it.Subtopology], topicInfo(it.Name, 0, it.Configs))
		}
	}
	subs := topo.Subtopologies()
	repartitionRead := map[string]bool{}
	for _, st := range subs {
		for _, src := range st.Sources {
			if src.Internal {
				repartitionRead[src.Decorated(app)] = true
			}
		}
	}

	groups := copartitionGroups(topo, app)
	converted := 0
	for _, st := range subs {
		if st.Global || len(st.Sources) == 0 {
			continue
		}
		sub := kmsg.NewStreamsGroupHeartbeatRequestTopologySubtopology()
		sub.SubtopologyID = strconv.Itoa(st.ID)
		reads := map[string]bool{}
		for _, src := range st.Sources {
			name := src.Decorated(app)
			reads[name] = true
			if !src.Internal && !slices.Contains(sub.SourceTopics, name) {
				sub.SourceTopics = append(sub.SourceTopics, name)
			}
		}
		slices.Sort(sub.SourceTopics)
		for _, sink := range st.Sinks {
			if name := sink.Decorated(app); repartitionRead[name] && !slices.Contains(sub.RepartitionSinkTopics, name) {
				sub.RepartitionSinkTopics = append(sub.RepartitionSinkTopics, name)
			}
		}
		slices.Sort(sub.RepartitionSinkTopics)
		sub.RepartitionSourceTopics = slices.SortedStableFunc(slices.Values(repartitions[st.ID]), byName)

		logs := changelogs[st.ID]
		for _, s := range st.Stores {
			// A store restored from its source topic has no changelog of
			// its own, yet Kafka Streams lists that topic among the
			// sub-topology's changelogs (storeToChangelogTopic).
			if s.SourceChangelog != "" && !slices.ContainsFunc(logs, func(ti kmsg.TopicInfo) bool { return ti.Topic == s.SourceChangelog }) {
				logs = append(logs, topicInfo(s.SourceChangelog, 0, kstreams.ChangelogConfigs(s, itc)))
			}
		}
		sub.StateChangelogTopics = slices.SortedStableFunc(slices.Values(logs), byName)

		for _, g := range groups {
			if !allIn(g, reads) {
				continue
			}
			converted++
			cg := kmsg.NewStreamsGroupHeartbeatRequestTopologySubtopologyCopartitionGroup()
			for _, topic := range g {
				if i := slices.Index(sub.SourceTopics, topic); i >= 0 {
					cg.SourceTopics = append(cg.SourceTopics, int16(i))
				} else if i := slices.IndexFunc(sub.RepartitionSourceTopics, func(ti kmsg.TopicInfo) bool { return ti.Topic == topic }); i >= 0 {
					cg.RepartitionSourceTopics = append(cg.RepartitionSourceTopics, int16(i))
				}
			}
			sub.CopartitionGroups = append(sub.CopartitionGroups, cg)
		}
		out.Subtopologies = append(out.Subtopologies, sub)
	}
	if converted != len(groups) {
		return out, fmt.Errorf("%w: a co-partition group spans sub-topologies (Kafka Streams fails it with "+
			"\"Not all copartition groups were converted to broker topology\")", ErrStreamsGroupTopology)
	}
	slices.SortStableFunc(out.Subtopologies, func(a, b kmsg.StreamsGroupHeartbeatRequestTopologySubtopology) int {
		return cmp.Compare(a.SubtopologyID, b.SubtopologyID)
	})
	return out, nil
}

// internalTopicsConfig is the part of cfg the internal topics' configs
// depend on.
func internalTopicsConfig(cfg *compat.Config) kstreams.InternalTopicsConfig {
	return kstreams.InternalTopicsConfig{
		ApplicationID: cfg.ApplicationID,
		WindowStoreChangelogAdditionalRetentionMs: cfg.WindowstoreChangelogAdditionalRetention.Milliseconds(),
		TopicConfigs: cfg.TopicConfigs,
	}
}

func allIn(topics []string, set map[string]bool) bool {
	for _, t := range topics {
		if !set[t] {
			return false
		}
	}
	return true
}

// copartitionGroups returns the co-partition groups of topo as Kafka's
// InternalTopologyBuilder.copartitionGroups computes them, broker topic
// names in the order Kafka Streams iterates them: each join's source nodes
// (a HashSet) give their topics (collected into a HashSet); a group that
// shares a topic with an earlier one is added to the first such group met
// (and only its own topics point to it afterwards, so groups may overlap);
// the groups are returned in the order of a HashSet of them, a group's
// topics in the order of its HashSet.
func copartitionGroups(topo *kstreams.Topology, app string) [][]string {
	var order []string // LinkedHashMap key order: topic → group
	of := map[string]*javaStringSet{}
	for _, reg := range topo.CopartitionSources() {
		nodes := make([]string, 0, len(reg))
		topicsOf := map[string][]kstreams.TopicRef{}
		for _, src := range reg {
			if _, dup := topicsOf[src.Node]; !dup {
				nodes = append(nodes, src.Node)
			}
			topicsOf[src.Node] = src.Topics
		}
		// copartitionSources keeps new HashSet<>(sourceNodes).
		nodes = javaHashOrder(nodes, javaStringHash, javaSizedBuckets(len(nodes)))
		var topics javaStringSet
		for _, n := range nodes {
			for _, t := range topicsOf[n] {
				topics.add(t.Decorated(app))
			}
		}
		var existing *javaStringSet
		for _, t := range topics.order() {
			if existing = of[t]; existing != nil {
				break
			}
		}
		if existing == nil {
			existing = &javaStringSet{}
		}
		for _, t := range topics.order() {
			existing.add(t)
		}
		for _, t := range topics.order() {
			if of[t] == nil {
				order = append(order, t)
			}
			of[t] = existing
		}
	}
	// new HashSet<>(map.values()): one entry per topic before duplicates
	// go, so the table is sized for the topics.
	values := make([]*javaStringSet, 0, len(order))
	for _, t := range order {
		g := of[t]
		if !slices.ContainsFunc(values, func(v *javaStringSet) bool { return v.equal(g) }) {
			values = append(values, g)
		}
	}
	values = javaHashOrder(values, (*javaStringSet).hashCode, javaSizedBuckets(len(order)))
	out := make([][]string, len(values))
	for i, g := range values {
		out[i] = g.order()
	}
	return out
}

// javaStringSet is a java.util.HashSet<String> created empty: its
// elements in insertion order, iterated as Java iterates them.
type javaStringSet struct{ elems []string }

func (s *javaStringSet) add(e string) {
	if !slices.Contains(s.elems, e) {
		s.elems = append(s.elems, e)
	}
}

// order is the set's iteration order: by bucket of a table grown from 16
// buckets as elements were added, then by insertion (a resize keeps the
// order within a bucket).
func (s *javaStringSet) order() []string {
	return javaHashOrder(s.elems, javaStringHash, javaGrownBuckets(len(s.elems)))
}

func (s *javaStringSet) equal(o *javaStringSet) bool {
	if len(s.elems) != len(o.elems) {
		return false
	}
	for _, e := range s.elems {
		if !slices.Contains(o.elems, e) {
			return false
		}
	}
	return true
}

// hashCode is AbstractSet.hashCode: the sum of the elements' hashes.
func (s *javaStringSet) hashCode() int32 {
	var h int32
	for _, e := range s.elems {
		h += javaStringHash(e)
	}
	return h
}

// javaHashOrder returns elems, distinct and in the order they were added,
// in the order a java.util.HashMap (or HashSet) of that many buckets
// iterates them: by bucket, the low bits of the spread hash
// (HashMap.hash), then in insertion order.
func javaHashOrder[T any](elems []T, hash func(T) int32, buckets int) []T {
	bucket := func(e T) uint32 {
		h := uint32(hash(e))
		return (h ^ h>>16) & uint32(buckets-1)
	}
	return slices.SortedStableFunc(slices.Values(elems), func(a, b T) int { return cmp.Compare(bucket(a), bucket(b)) })
}

// javaGrownBuckets is the table size of a HashMap created empty once it
// holds n entries: 16, doubled whenever it holds more than three quarters.
func javaGrownBuckets(n int) int {
	b := 16
	for n > b*3/4 {
		b <<= 1
	}
	return b
}

// javaSizedBuckets is the table size of new HashSet<>(c) for a collection
// of n elements: the power of two at least max(n/.75f + 1, 16).
func javaSizedBuckets(n int) int {
	want := max(int(float32(n)/0.75)+1, 16)
	b := 1
	for b < want {
		b <<= 1
	}
	return b
}

// javaStringHash is String.hashCode, over UTF-16 code units.
func javaStringHash(s string) int32 {
	var h int32
	for _, c := range utf16.Encode([]rune(s)) {
		h = 31*h + int32(c)
	}
	return h
}
