package kstreams

import "maps"

// ReuseTableSourceTopics returns the topology as Kafka Streams 4.4 runs it
// under topology.optimization's reuse.ktable.source.topics (part of
// "all"): the store of every builder.table reads its source topic as its
// changelog and has no changelog topic of its own, as Kafka's
// TableSourceNode sets it up (StoreSpec.SourceChangelog). describe() is the
// same either way. The receiver is not changed; the copy shares its nodes
// and is for running, not for adding to.
func (t *Topology) ReuseTableSourceTopics() *Topology {
	c := *t
	c.stores = maps.Clone(t.stores)
	for name, s := range c.stores {
		if s.tableTopic == "" {
			continue
		}
		reused := *s
		reused.Logging, reused.LogConfig, reused.SourceChangelog = false, nil, s.tableTopic
		c.stores[name] = &reused
	}
	return &c
}
