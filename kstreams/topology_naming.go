package kstreams

import (
	"slices"
	"strings"
)

// UnnamedResources are the internal resources of a DSL topology that took
// generated names: the changelog topics, state stores and repartition
// topics Kafka Streams 4.4 collects while the topology is described
// (InternalTopologyBuilder.addImplicitInternalNames) and refuses under
// ensure.explicit.internal.resource.naming=true (KIP-1111). A generated
// name changes when an operator is added upstream, which orphans the
// resource's data, so a team may require every one to be named.
//
// Each list is in the order the operators were added, and holds what Kafka
// Streams collects, which is not exactly what the topology runs with:
//   - a table (Table, ToTable, a foreign-key join's result) counts its
//     generated store name and the store's changelog even when the table
//     is never materialized, and even when topology.optimization reuses
//     the source topic as the changelog;
//   - a global table given a Materialized without a name counts its
//     changelog, though a global store has none;
//   - a suppression counts only its buffer's changelog, not its store;
//   - a join's repartition topic counts once per join that reads it;
//   - topic names carry no application.id prefix.
//
// What does not count: a repartition topic named after a store the
// Materialized names (Grouped without a name), a table-table join or a
// KTable filter, mapValues or transformValues without a Materialized, the
// topics and stores of a foreign-key join other than its result's, a
// KGroupedTable's repartition topic, and anything of the Processor API
// (whose stores are always named).
type UnnamedResources struct {
	ChangelogTopics   []string
	StateStores       []string
	RepartitionTopics []string
}

// Empty reports whether every resource was named.
func (u UnnamedResources) Empty() bool {
	return len(u.ChangelogTopics) == 0 && len(u.StateStores) == 0 && len(u.RepartitionTopics) == 0
}

// String is the list as Kafka Streams 4.4 words it, one line per kind
// that has names (changelog topics, then state stores, then repartition
// topics), without the line break Kafka ends the last line with.
func (u UnnamedResources) String() string {
	var lines []string
	add := func(kind string, names []string) {
		if len(names) > 0 {
			lines = append(lines, "Following "+kind+" has not been named: "+strings.Join(names, ", "))
		}
	}
	add("changelog topic(s)", u.ChangelogTopics)
	add("state store(s)", u.StateStores)
	add("repartition topic(s)", u.RepartitionTopics)
	return strings.Join(lines, "\n")
}

// Err returns nil when u is empty, else the *UnnamedResourcesError Kafka
// Streams 4.4 refuses the topology with when
// ensure.explicit.internal.resource.naming is true.
func (u UnnamedResources) Err() error {
	if u.Empty() {
		return nil
	}
	return &UnnamedResourcesError{Resources: u.clone()}
}

// Warning is what Kafka Streams 4.4 logs at WARN when it builds a topology
// with unnamed resources and ensure.explicit.internal.resource.naming is
// false; "" when u is empty.
func (u UnnamedResources) Warning() string {
	if u.Empty() {
		return ""
	}
	return "Explicit naming for internal resources is currently disabled. If you want to enforce user-defined names " +
		"for all internal resources, set ensure.explicit.internal.resource.naming to true. Note: Changing internal resource " +
		"names may require a full streams application reset for an already deployed application. Consult the documentation " +
		"on naming operators for more details. " + u.String()
}

// Hint says how to name the resources u lists: which option names each
// kind, in the words of both Kafka Streams' DSL and this package's (a
// Materialized name is Materialized.as and Materialized.Name). "" when u is
// empty.
func (u UnnamedResources) Hint() string {
	var parts []string
	if len(u.StateStores) > 0 {
		parts = append(parts, "give each state store a Materialized name (a stream-stream join's stores a StreamJoined store name, "+
			"a stream-table join's grace-period buffer a Joined name)")
	}
	stores := map[string]bool{}
	for _, s := range u.StateStores {
		stores[s+changelogSuffix] = true
	}
	for _, c := range u.ChangelogTopics {
		if !stores[c] {
			parts = append(parts, "give each suppression a Suppressed name (its buffer's changelog)")
			break
		}
	}
	if len(u.RepartitionTopics) > 0 {
		parts = append(parts, "give each repartition topic a name: a Grouped name for a grouping (or a Materialized name for its store, "+
			"which the topic takes), a Repartitioned name for repartition(), a Joined or StreamJoined name for a join of a re-keyed stream, "+
			"a Named name for toTable() of a re-keyed stream")
	}
	return strings.Join(parts, "; ")
}

func (u UnnamedResources) clone() UnnamedResources {
	return UnnamedResources{ChangelogTopics: slices.Clone(u.ChangelogTopics), StateStores: slices.Clone(u.StateStores),
		RepartitionTopics: slices.Clone(u.RepartitionTopics)}
}

// UnnamedResourcesError is Kafka Streams 4.4's TopologyException for a
// topology with unnamed internal resources under
// ensure.explicit.internal.resource.naming=true. Its message is Kafka's,
// "Invalid topology: " and the lines of UnnamedResources.String; it
// matches ErrInvalidTopology.
type UnnamedResourcesError struct {
	Resources UnnamedResources
}

func (e *UnnamedResourcesError) Error() string { return "Invalid topology: " + e.Resources.String() }

// Is makes the error match ErrInvalidTopology.
func (e *UnnamedResourcesError) Is(target error) bool { return target == ErrInvalidTopology }

// UnnamedResources returns the topology's unnamed internal resources (see
// the type). A topology built with the Processor API alone has none.
func (t *Topology) UnnamedResources() UnnamedResources { return t.unnamed.clone() }

// unnamedStore records a state store whose name was generated, and its
// changelog topic when the store is logged: Kafka's MaterializedInternal
// with a name provider, and the stores of joins.
func (b *StreamsBuilder) unnamedStore(store string, logged bool) {
	u := &b.topo.unnamed
	u.StateStores = append(u.StateStores, store)
	if logged {
		u.ChangelogTopics = append(u.ChangelogTopics, store+changelogSuffix)
	}
}

// unnamedChangelog records the changelog topic of a store whose name was
// generated, without the store (a suppression's buffer, as Kafka counts it).
func (b *StreamsBuilder) unnamedChangelog(store string) {
	b.topo.unnamed.ChangelogTopics = append(b.topo.unnamed.ChangelogTopics, store+changelogSuffix)
}

// unnamedRepartition records a repartition topic whose name was generated,
// given the base it is named after (as createRepartition takes it).
func (b *StreamsBuilder) unnamedRepartition(base string) {
	b.topo.unnamed.RepartitionTopics = append(b.topo.unnamed.RepartitionTopics, repartitionTopic(base))
}

// repartitionTopic is the name of the repartition topic named after base:
// base itself when it ends in -repartition already.
func repartitionTopic(base string) string {
	if strings.HasSuffix(base, repartitionSuffix) {
		return base
	}
	return base + repartitionSuffix
}

const changelogSuffix = "-changelog"
