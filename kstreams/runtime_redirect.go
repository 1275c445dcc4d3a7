// For the runtime only (see "For the runtime" in the package documentation):
// the rewrite of a topology's external topics for the sidecar's shadow mode.

package kstreams

// RedirectSinks makes every sink that writes to a topic outside the
// application (not a repartition or other internal topic) write to
// rename(topic) instead, and every source that reads such a topic read the
// renamed one, so the topology computes as before without touching the
// original topics: the sidecar's shadow mode runs a Go topology beside the
// live application this way. A sink that picks its topic per record has the
// extractor's topic renamed. Call it on a built topology before it runs.
func (t *Topology) RedirectSinks(rename func(topic string) string) {
	moved := map[string]string{}
	for _, n := range t.nodes {
		if n.kind != SinkNode {
			continue
		}
		if n.topicFn != nil {
			fn := n.topicFn
			n.topicFn = func(k, v any, rc RecordContext) string {
				topic := fn(k, v, rc)
				if topic != "" && t.repartition[topic] == nil {
					return rename(topic)
				}
				return topic
			}
			continue
		}
		if t.repartition[n.topic] != nil {
			continue
		}
		to := rename(n.topic)
		moved[n.topic] = to
		n.topic = to
	}
	for _, n := range t.nodes {
		if n.kind != SourceNode {
			continue
		}
		for i, topic := range n.topics {
			if to, ok := moved[topic]; ok {
				n.topics[i] = to
			}
		}
	}
	for _, group := range t.copartition {
		for i, topic := range group {
			if to, ok := moved[topic]; ok {
				group[i] = to
			}
		}
	}
	for _, g := range t.globals {
		if to, ok := moved[g.topic]; ok {
			g.topic = to
		}
	}
}
