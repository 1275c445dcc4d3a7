// For the runtime only (see "For the runtime" in the package documentation):
// the internal topics a topology needs, which the runtime creates and
// validates before it starts.

package kstreams

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"strconv"
)

// DefaultWindowStoreChangelogAdditionalRetentionMs is Kafka's default for
// windowstore.changelog.additional.retention.ms (one day).
const DefaultWindowStoreChangelogAdditionalRetentionMs = 86400000

// InternalTopicsConfig is the part of the application config internal topics
// depend on.
type InternalTopicsConfig struct {
	// ApplicationID prefixes every internal topic (application.id).
	ApplicationID string
	// WindowStoreChangelogAdditionalRetentionMs is added to a window or
	// session store's retention for its changelog's retention.ms
	// (windowstore.changelog.additional.retention.ms; use
	// DefaultWindowStoreChangelogAdditionalRetentionMs for Kafka's default).
	WindowStoreChangelogAdditionalRetentionMs int64
	// TopicConfigs are the topic.* entries of the application config with
	// the prefix removed; they override the library defaults and are
	// overridden by a store's own changelog config.
	TopicConfigs map[string]string
}

// InternalTopicKind tells changelog and repartition topics apart.
type InternalTopicKind int

// Internal topic kinds.
const (
	ChangelogTopicKind InternalTopicKind = iota
	RepartitionTopicKind
)

// String returns "changelog" or "repartition".
func (k InternalTopicKind) String() string {
	if k == RepartitionTopicKind {
		return "repartition"
	}
	return "changelog"
}

// InternalTopic is a topic the application must create.
type InternalTopic struct {
	// Name is the broker name, prefixed with the application id.
	Name string
	Kind InternalTopicKind
	// Subtopology is, for a changelog, the sub-topology of its store and, for
	// a repartition topic, the sub-topology reading it.
	Subtopology int
	// Store names the store of a changelog.
	Store string
	// NumPartitions is fixed by the topology when > 0; otherwise it is
	// derived by InternalTopicPartitions: a repartition topic gets the largest
	// partition count among the source topics of the sub-topologies writing
	// to it, a changelog the task count of its sub-topology.
	NumPartitions int
	// Configs are the topic configs Kafka Streams creates it with.
	Configs map[string]string
}

// InternalTopics lists the repartition and changelog topics of the topology,
// by sub-topology, repartition topics first, each kind in creation order.
func (t *Topology) InternalTopics(cfg InternalTopicsConfig) []InternalTopic {
	var out []InternalTopic
	for _, st := range t.Subtopologies() {
		for _, src := range st.Sources {
			if !src.Internal {
				continue
			}
			rp := t.repartition[src.Name]
			c := map[string]string{
				"cleanup.policy":         "delete",
				"segment.bytes":          "52428800",
				"retention.ms":           "-1",
				"message.timestamp.type": "CreateTime",
			}
			maps.Copy(c, cfg.TopicConfigs)
			out = append(out, InternalTopic{Name: src.Decorated(cfg.ApplicationID), Kind: RepartitionTopicKind,
				Subtopology: st.ID, NumPartitions: rp.partitions, Configs: c})
		}
		for _, s := range st.Stores {
			if !s.Logging {
				continue
			}
			out = append(out, InternalTopic{Name: ChangelogTopic(cfg.ApplicationID, s.Name), Kind: ChangelogTopicKind,
				Subtopology: st.ID, Store: s.Name, Configs: changelogConfigs(s, cfg)})
		}
	}
	return out
}

// ChangelogConfigs returns the configs Kafka Streams gives the changelog of
// store s (InternalTopicConfig.properties): those InternalTopics lists for
// a logged store, and those of a store whose changelog is its source topic
// (SourceChangelog), which a streams group member sends in its topology
// although nothing creates that topic.
func ChangelogConfigs(s *StoreSpec, cfg InternalTopicsConfig) map[string]string {
	return changelogConfigs(s, cfg)
}

func changelogConfigs(s *StoreSpec, cfg InternalTopicsConfig) map[string]string {
	c := map[string]string{"message.timestamp.type": "CreateTime"}
	windowed := s.Kind == WindowStoreKind || s.Kind == SessionStoreKind
	if windowed {
		c["cleanup.policy"] = "compact,delete"
	} else {
		c["cleanup.policy"] = "compact"
	}
	maps.Copy(c, cfg.TopicConfigs)
	maps.Copy(c, s.LogConfig)
	if _, userSet := s.LogConfig["retention.ms"]; windowed && !userSet {
		r := s.Retention + cfg.WindowStoreChangelogAdditionalRetentionMs
		if (cfg.WindowStoreChangelogAdditionalRetentionMs > 0 && r < s.Retention) || (cfg.WindowStoreChangelogAdditionalRetentionMs < 0 && r > s.Retention) {
			r = math.MaxInt64
		}
		c["retention.ms"] = strconv.FormatInt(r, 10)
	}
	if _, userSet := s.LogConfig["min.compaction.lag.ms"]; s.Kind == VersionedStoreKind && !userSet {
		// A versioned store's history must outlive compaction: Kafka
		// Streams keeps it a day past the history retention.
		lag := s.Retention + versionedChangelogExtraCompactionLagMs
		if lag < s.Retention {
			lag = math.MaxInt64
		}
		c["min.compaction.lag.ms"] = strconv.FormatInt(lag, 10)
	}
	return c
}

// versionedChangelogExtraCompactionLagMs is what a versioned store's
// changelog adds to its history retention for min.compaction.lag.ms.
const versionedChangelogExtraCompactionLagMs = 24 * 60 * 60 * 1000

// ErrMissingSourceTopic is returned when a source topic's partition count is unknown.
var ErrMissingSourceTopic = errors.New("kstreams: missing source topic")

// InternalTopicPartitions computes the partition count of every internal
// topic (by broker name) from the partition counts of the external source
// topics, and the task count of every sub-topology. A repartition topic in
// a co-partition group (a join's input) takes the group's count, and a group
// whose external topics differ fails with Kafka Streams' "Topics not
// co-partitioned" error (ErrInvalidTopology).
func (t *Topology) InternalTopicPartitions(cfg InternalTopicsConfig, sourcePartitions func(topic string) (int, bool)) (topics map[string]int, tasks map[int]int, err error) {
	subs := t.Subtopologies()
	writers := map[string][]int{} // repartition topic → sub-topologies writing it
	for _, st := range subs {
		for _, s := range st.Sinks {
			if s.Internal {
				writers[s.Name] = append(writers[s.Name], st.ID)
			}
		}
	}
	repart := map[string]int{}
	tasks = map[int]int{}
	visiting := map[int]bool{}
	var taskCount func(id int) (int, error)
	var repartitionCount func(name string) (int, error)
	var upstreamCount func(name string) (int, error)
	external := func(topic string) (int, error) {
		n, ok := sourcePartitions(topic)
		if !ok {
			return 0, fmt.Errorf("kstreams: source topic %s: %w", topic, ErrMissingSourceTopic)
		}
		return n, nil
	}
	repartitionCount = func(name string) (int, error) {
		if n, ok := repart[name]; ok {
			return n, nil
		}
		if fixed := t.repartition[name].partitions; fixed > 0 {
			repart[name] = fixed
			return fixed, nil
		}
		if g := t.groupOfTopic(name); g != nil {
			// Inside a co-partition group (a join's inputs) the group decides.
			n, err := t.copartitionCount(g, external, upstreamCount)
			if err != nil {
				return 0, err
			}
			repart[name] = n
			return n, nil
		}
		n, err := upstreamCount(name)
		if err != nil {
			return 0, err
		}
		repart[name] = n
		return n, nil
	}
	upstreamCount = func(name string) (int, error) {
		n := 0
		for _, node := range t.repartition[name].copartition {
			for _, topic := range t.byName[node].topics {
				var c int
				if t.repartition[topic] != nil {
					var err error
					if c, err = repartitionCount(topic); err != nil {
						return 0, err
					}
				} else {
					var ok bool
					if c, ok = sourcePartitions(topic); !ok {
						return 0, fmt.Errorf("kstreams: source topic %s: %w", topic, ErrMissingSourceTopic)
					}
				}
				n = max(n, c)
			}
		}
		if n > 0 {
			repart[name] = n
			return n, nil
		}
		for _, w := range writers[name] {
			c, err := taskCount(w)
			if err != nil {
				return 0, err
			}
			n = max(n, c)
		}
		if n == 0 {
			return 0, fmt.Errorf("kstreams: no partition count for repartition topic %s: %w", name, ErrMissingSourceTopic)
		}
		return n, nil
	}
	taskCount = func(id int) (int, error) {
		if n, ok := tasks[id]; ok {
			return n, nil
		}
		if visiting[id] {
			return 0, invalidTopology("sub-topology %d reads its own repartition output", id)
		}
		visiting[id] = true
		defer delete(visiting, id)
		n := 0
		for _, src := range subs[id].Sources {
			var c int
			if src.Internal {
				var err error
				if c, err = repartitionCount(src.Name); err != nil {
					return 0, err
				}
			} else {
				var ok bool
				if c, ok = sourcePartitions(src.Name); !ok {
					return 0, fmt.Errorf("kstreams: source topic %s: %w", src.Name, ErrMissingSourceTopic)
				}
			}
			n = max(n, c)
		}
		tasks[id] = n
		return n, nil
	}
	undecorated := map[string]string{} // broker name → repartition topic as the topology names it
	for name := range t.repartition {
		undecorated[TopicRef{Name: name, Internal: true}.Decorated(cfg.ApplicationID)] = name
	}
	topics = map[string]int{}
	for _, it := range t.InternalTopics(cfg) {
		n, err := taskCount(it.Subtopology)
		if err != nil {
			return nil, nil, err
		}
		if it.Kind == RepartitionTopicKind {
			if n, err = repartitionCount(undecorated[it.Name]); err != nil {
				return nil, nil, err
			}
		}
		topics[it.Name] = n
	}
	for _, st := range subs {
		if _, err := taskCount(st.ID); err != nil {
			return nil, nil, err
		}
	}
	for _, g := range t.copartition {
		// Groups of external topics only are checked here: a join over
		// topics with different partition counts must not start.
		if _, err := t.copartitionCount(g, external, upstreamCount); err != nil {
			return nil, nil, err
		}
	}
	return topics, tasks, nil
}
