package kstreams

import (
	"errors"
	"fmt"
	"slices"

	"github.com/stoatflow/stoatflow/kstreams/serde"
)

// ErrInvalidTopology is the class of topology construction errors, Kafka's
// TopologyException. Messages carry Kafka's "Invalid topology: " prefix.
var ErrInvalidTopology = errors.New("kstreams: invalid topology")

type topologyError struct{ msg string }

func (e *topologyError) Error() string        { return "Invalid topology: " + e.msg }
func (e *topologyError) Is(target error) bool { return target == ErrInvalidTopology }

func invalidTopology(format string, args ...any) error {
	return &topologyError{msg: fmt.Sprintf(format, args...)}
}

// NodeKind says whether a topology node is a source, a processor or a sink.
type NodeKind int

// Node kinds.
const (
	SourceNode NodeKind = iota
	ProcessorNode
	SinkNode
)

// serdeSpec names a serde that may be left to the application's default
// (default.key.serde / default.value.serde) and may wrap that default, as the
// windowed key serdes do.
type serdeSpec struct {
	explicit serde.Untyped
	wrap     func(serde.Untyped) serde.Untyped
	// fallback stands in when neither explicit nor the default is set:
	// where Kafka Streams would take the default (a join's stores without
	// StreamJoined serdes), a typed Go stream still knows its own serde.
	fallback serde.Untyped
}

func (s serdeSpec) resolve(def serde.Untyped) (serde.Untyped, error) {
	base := s.explicit
	if base == nil {
		base = def
	}
	if base == nil {
		base = s.fallback
	}
	if base == nil {
		return nil, errNoDefaultSerde
	}
	if s.wrap != nil {
		return s.wrap(base), nil
	}
	return base, nil
}

var errNoDefaultSerde = errors.New("kstreams: no serde given and no default serde configured")

type nodeSpec struct {
	name   string
	kind   NodeKind
	preds  []string
	succs  []string
	topics []string // source
	// pattern, for a source over a topic pattern, matches its topics;
	// topics is empty until MatchPatterns fills it.
	pattern  *sourcePattern
	topic    string   // sink
	stores   []string // processor, in connection order
	key, val serdeSpec
	supplier func() Processor
	// topicFn, for a sink without a fixed topic, picks each record's topic
	// (a TopicNameExtractor, shown in describe() as extractorName).
	topicFn       func(k, v any, rc RecordContext) string
	extractorName string
	// partitioner, for a sink, chooses partitions (a StreamPartitioner).
	partitioner partitionerFunc
	// singlePartition says the partitioner must choose exactly one
	// partition when it chooses any (a foreign-key join's sinks).
	singlePartition bool
	// extractor is the source's TimestampExtractor; nil takes the task's
	// default (default.timestamp.extractor). Repartition sources always fail
	// on invalid timestamps, as Kafka Streams' do.
	extractor TimestampExtractor
	// reset is the source's offset reset policy (Consumed.withOffsetResetPolicy).
	reset AutoOffsetReset
	// partition, if set, is a sink's StreamPartitioner: the partition of r,
	// or ok false for the default partitioner.
	partition func(r Record) (p int32, ok bool)
	// keyChanging, valueChanging and merge mark the DSL operators that
	// merge.repartition.topics looks for, as Kafka Streams 4.4 marks its
	// graph nodes: selectKey, map, flatMap and groupBy's key selector change
	// the key; mapValues and flatMapValues the value; merge is a merge node.
	// process and processValues are unmarked, as in Kafka unless its
	// internal __enable.process.processValue.fix__ is set.
	keyChanging, valueChanging, merge bool
}

// StoreKind is the shape of a state store.
type StoreKind int

// Store kinds.
const (
	KeyValueStoreKind StoreKind = iota
	WindowStoreKind
	SessionStoreKind
	// VersionedStoreKind is a versioned key-value store (KIP-889): every
	// key keeps its versions for the store's history retention.
	VersionedStoreKind
)

// String names the kind: "key-value", "window", "session" or "versioned".
func (k StoreKind) String() string {
	switch k {
	case WindowStoreKind:
		return "window"
	case SessionStoreKind:
		return "session"
	case VersionedStoreKind:
		return "versioned"
	}
	return "key-value"
}

// StoreType is the storage engine a Materialized asks for.
type StoreType int

// Store types, as Kafka's Materialized.withStoreType. DefaultStore, the zero
// value, leaves the choice to the application's dsl.store.suppliers.class
// (or default.dsl.store), as a Materialized without a store type does.
const (
	DefaultStore StoreType = iota
	RocksDB
	InMemory
)

// Resolve returns the engine a store of type t is built with when the
// application's DSL default is dslDefault (RocksDB or InMemory): t itself
// unless t is DefaultStore.
func (t StoreType) Resolve(dslDefault StoreType) StoreType {
	if t != DefaultStore {
		return t
	}
	if dslDefault == DefaultStore {
		return RocksDB
	}
	return dslDefault
}

// String names the type as Kafka's Materialized.StoreType does.
func (t StoreType) String() string {
	switch t {
	case RocksDB:
		return "ROCKS_DB"
	case InMemory:
		return "IN_MEMORY"
	}
	return "default"
}

// StoreSpec describes a state store of the topology.
type StoreSpec struct {
	Name string
	Kind StoreKind
	// Timestamped stores keep an 8-byte big-endian timestamp before each value
	// (Kafka's ValueAndTimestamp layout); their changelog carries the raw value
	// with the timestamp as record timestamp. All DSL key-value and window
	// aggregation stores are timestamped; session stores are not.
	Timestamped bool
	// Type is the engine the topology asks for; DefaultStore (every DSL
	// store without a Materialized store type) takes the application's
	// dsl.store.suppliers.class: see StoreType.Resolve.
	Type    StoreType
	Caching bool
	Logging bool
	// LogConfig is the per-store changelog topic config
	// (Materialized.withLoggingEnabled(map)); it wins over topic.* settings.
	LogConfig map[string]string
	// Retention is the window or session store retention in milliseconds,
	// or a versioned store's history retention.
	Retention int64
	// SegmentInterval is a versioned store's segment interval in
	// milliseconds.
	SegmentInterval int64
	// WindowSize is the window size in milliseconds for window stores.
	WindowSize int64
	// RetainDuplicates makes a window store keep every put under its own
	// sequence number (the stream-stream join stores, Kafka's
	// retainDuplicates=true): the runtime opens the store with
	// state.WindowOptions.RetainDuplicates.
	RetainDuplicates bool
	// TimeOrdered marks the window store of an aggregation with
	// EmitOnWindowClose, Kafka Streams' time-ordered window store: the
	// runtime opens it with state.WindowOptions.TimeOrdered.
	TimeOrdered bool
	// LRU marks a key-value store of Stores.lruMap (StoreBuilder.InMemoryLRU):
	// the runtime opens it with state.NewInMemoryLRUKeyValue, holding at
	// most MaxCacheSize entries.
	LRU          bool
	MaxCacheSize int

	key, val serdeSpec
	// outerJoin marks the shared store of a stream-stream left or outer
	// join; val is its left value serde and otherVal its right one.
	outerJoin bool
	otherVal  serdeSpec
	users     []string
	// suppressBuffer marks a suppression's buffer store (suppress_buffer.go).
	suppressBuffer bool
	// joinBuffer marks a stream–table join's grace-period buffer
	// (join_stream_table_buffer.go).
	joinBuffer bool
	// tableTopic is the source topic of a builder.table store: under
	// topology.optimization's reuse.ktable.source.topics it becomes
	// SourceChangelog.
	tableTopic string
	// SourceChangelog, when set, is the source topic that serves as the
	// store's changelog (reuse.ktable.source.topics): the store writes no
	// changelog of its own (Logging is off) and is restored from that
	// topic, up to the group's committed offset of its partition.
	SourceChangelog string
}

type repartitionSpec struct {
	name       string // undecorated, ends with -repartition
	partitions int    // 0 = derived from upstream
	// copartition names source nodes whose topics this one is co-partitioned
	// with (InternalTopologyBuilder.copartitionSources): it takes their
	// partition count instead of its writers', as the foreign-key join's
	// topics do, which would otherwise derive their counts from each other.
	copartition []string
}

// Topology is a built processing graph: nodes, stores and internal topics,
// with its sub-topologies numbered as Kafka Streams numbers them.
type Topology struct {
	nodes       []*nodeSpec
	byName      map[string]*nodeSpec
	stores      map[string]*StoreSpec
	storeOrder  []string
	repartition map[string]*repartitionSpec
	groups      [][]string // node names per sub-topology, in insertion order
	groupOf     map[string]int
	// globals are the global stores, in the order they were added; their
	// sub-topologies take ids from the same sequence (see dsl_global.go).
	globals []*globalStore
	// copartition holds the co-partition groups: source topics (internal
	// ones undecorated) that must have one partition count.
	copartition [][]string
	// copartitionSources are the source nodes of every co-partitioning a
	// join, cogroup or foreign-key join asked for, in the order asked
	// (Kafka's InternalTopologyBuilder.copartitionSourceGroups): unlike
	// copartition they keep a group of one topic (a self-join's) and a
	// foreign-key join's two groups.
	copartitionSources [][]string
	// optimizable are the repartitions merge.repartition.topics may merge
	// (Kafka's OptimizableRepartitionNode: those of groupings, cogroups,
	// toTable and joins, not repartition()), in the order they were added.
	optimizable []repartitionUnit
	// nullKeys are the joins that take null keys and the repartitions'
	// filters, kept for an optimization that rewrites the repartitions.
	nullKeys nullKeyJoins
	// selfJoins are the stream-stream joins single.store.self.join may
	// rewrite, in the order they were added.
	selfJoins []selfJoin
	// optimized lists the optimizations already applied (Optimize).
	optimized []string
	// unnamed are the internal resources the DSL gave generated names
	// (topology_naming.go).
	unnamed UnnamedResources
}

func newTopology() *Topology {
	return &Topology{
		byName:      map[string]*nodeSpec{},
		stores:      map[string]*StoreSpec{},
		repartition: map[string]*repartitionSpec{},
	}
}

func (t *Topology) addNode(n *nodeSpec) error {
	if n.name == "" {
		return invalidTopology("Processor name must not be empty.")
	}
	if _, ok := t.byName[n.name]; ok {
		return invalidTopology("Processor %s is already added.", n.name)
	}
	for _, p := range n.preds {
		pn, ok := t.byName[p]
		if !ok {
			return invalidTopology("Predecessor processor %s is not added yet for %s", p, n.name)
		}
		if pn.kind == SinkNode {
			return invalidTopology("Sink %s cannot be used a parent.", p)
		}
		pn.succs = append(pn.succs, n.name)
	}
	if n.kind == SourceNode {
		if err := t.checkSourceTopics(n); err != nil {
			return err
		}
	}
	t.nodes = append(t.nodes, n)
	t.byName[n.name] = n
	return nil
}

func (t *Topology) addStore(s *StoreSpec) error {
	if _, ok := t.stores[s.Name]; ok {
		return invalidTopology("A different StateStore has already been added with the name %s", s.Name)
	}
	t.stores[s.Name] = s
	t.storeOrder = append(t.storeOrder, s.Name)
	return nil
}

func (t *Topology) connectStore(processor, store string) error {
	s, ok := t.stores[store]
	if !ok {
		return invalidTopology("StateStore %s is not added yet.", store)
	}
	if t.isGlobalStore(store) {
		return invalidTopology("Global StateStore %s can be used by a Processor without being specified; it should not be explicitly passed.", store)
	}
	n := t.byName[processor]
	if n == nil || n.kind != ProcessorNode {
		return invalidTopology("Processor %s is not added yet.", processor)
	}
	if !slices.Contains(n.stores, store) {
		n.stores = append(n.stores, store)
	}
	if !slices.Contains(s.users, processor) {
		s.users = append(s.users, processor)
	}
	return nil
}

// finish groups nodes into sub-topologies: union-find over parent/child edges
// and over processors sharing a store, groups numbered by the first of their
// nodes in insertion order (Kafka's InternalTopologyBuilder.makeNodeGroups).
func (t *Topology) finish() {
	parent := map[string]string{}
	//lint:ignore S1021 a recursive closure is declared before it is assigned
	var root func(string) string
	root = func(x string) string {
		for parent[x] != x {
			parent[x] = parent[parent[x]]
			x = parent[x]
		}
		return x
	}
	unite := func(a, b string) {
		ra, rb := root(a), root(b)
		if ra != rb {
			parent[rb] = ra
		}
	}
	for _, n := range t.nodes {
		parent[n.name] = n.name
	}
	for _, n := range t.nodes {
		for _, p := range n.preds {
			unite(n.name, p)
		}
	}
	for _, name := range t.storeOrder {
		users := t.stores[name].users
		for i := 1; i < len(users); i++ {
			unite(users[0], users[i])
		}
	}
	t.groups = nil
	t.groupOf = map[string]int{}
	rootGroup := map[string]int{}
	for _, n := range t.nodes {
		r := root(n.name)
		g, ok := rootGroup[r]
		if !ok {
			g = len(t.groups)
			rootGroup[r] = g
			t.groups = append(t.groups, nil)
		}
		t.groups[g] = append(t.groups[g], n.name)
		t.groupOf[n.name] = g
	}
}

// groupStores lists the stores connected to the processors of sub-topology
// id, in creation order: a global store's for its own sub-topology.
func (t *Topology) groupStores(id int) []*StoreSpec {
	storeSet := map[string]bool{}
	for _, name := range t.groups[id] {
		for _, s := range t.byName[name].stores {
			storeSet[s] = true
		}
	}
	var out []*StoreSpec
	for _, s := range t.storeOrder {
		if storeSet[s] {
			out = append(out, t.stores[s])
		}
	}
	return out
}
