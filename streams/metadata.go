package streams

// Interactive-query routing: which instance of the application hosts a
// store's key, and what every instance hosts, from the group's host maps
// that each member's assignment carries (Kafka Streams' StreamsMetadataState,
// KafkaStreams.queryMetadataForKey and metadataForAllStreamsClients).

import (
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/stoatflow/stoatflow/internal/assignment"
	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/state"
)

// Errors of the metadata calls.
var (
	// ErrNotStarted: a metadata call on an instance that was not started
	// (Kafka Streams' StreamsNotStartedException).
	ErrNotStarted = errors.New("streams: KafkaStreams has not been started, you can retry after calling start()")
	// ErrUnknownStore: the topology has no store of that name that a stream
	// task hosts (where Kafka Streams' queryMetadataForKey returns null).
	ErrUnknownStore = errors.New("streams: unknown state store")
)

// HostInfo is an instance's application.server endpoint (Kafka's
// HostInfo).
type HostInfo struct {
	Host string
	Port int32
}

// UnavailableHost is Kafka's HostInfo.unavailable(), "unavailable:-1": no
// instance is known to host what was asked for.
var UnavailableHost = HostInfo{Host: "unavailable", Port: -1}

// String returns the endpoint as "host:port", an IPv6 host in brackets.
func (h HostInfo) String() string { return assignment.HostInfo(h).String() }

// KeyQueryMetadata says where a store's key lives: the instance whose
// active task holds it, the instances with a standby of it, and its
// partition (Kafka's KeyQueryMetadata).
type KeyQueryMetadata struct {
	// ActiveHost is the instance whose active task owns the key's store
	// partition; UnavailableHost when none is known (the instance was not
	// assigned yet, or no instance with an application.server owns it).
	ActiveHost HostInfo
	// StandbyHosts are the instances with a standby task of that
	// partition, ordered by host then port; empty when there are none.
	StandbyHosts []HostInfo
	// Partition is the key's store partition, -1 when not available and
	// for a global store (which holds every partition of its topic).
	Partition int32
}

// NotAvailable is Kafka's KeyQueryMetadata.NOT_AVAILABLE: the instance
// has no host maps yet (it has not been assigned since it started).
var NotAvailable = KeyQueryMetadata{ActiveHost: UnavailableHost, Partition: -1}

// Available reports whether an active host is known.
func (m KeyQueryMetadata) Available() bool { return m.ActiveHost != UnavailableHost }

// StreamsMetadata is what one instance of the application hosts, as the
// group's last assignment says (Kafka's StreamsMetadata): every instance
// with an application.server, this one included, appears.
type StreamsMetadata struct {
	Host HostInfo
	// StateStoreNames are the stores of its active tasks, and every global
	// store; sorted.
	StateStoreNames []string
	// TopicPartitions are its active tasks' source partitions, sorted.
	TopicPartitions []state.TopicPartition
	// StandbyStateStoreNames and StandbyTopicPartitions are the same for
	// its standby tasks.
	StandbyStateStoreNames []string
	StandbyTopicPartitions []state.TopicPartition
}

// MetadataForKey returns where key, serialized as the store's key serde
// writes it, lives in store: the partition Kafka's default partitioner
// gives it over the store's source topics (the one with the most
// partitions; a store behind a repartition reads that topic), the
// instance whose active task owns that partition and those with a
// standby of it, as the group's last assignment says (Kafka Streams'
// queryMetadataForKey with the default partitioner). A global store is
// answered with this instance (or, without an application.server, the
// first instance known) and partition -1. Before the instance's first
// assignment it returns NotAvailable.
//
// The host maps are as old as the last rebalance: ActiveHost may name this
// instance while the store partition is still restoring here, or after it
// moved away; LocalStores says what is open here now.
//
// It fails with ErrNotStarted before Start, ErrNotRunning unless RUNNING
// or REBALANCING, and ErrUnknownStore for a store no stream task hosts.
func (s *KafkaStreams) MetadataForKey(store string, key []byte) (KeyQueryMetadata, error) {
	if key == nil {
		return KeyQueryMetadata{}, errors.New("streams: key can't be null")
	}
	m, err := s.metadataState()
	if err != nil {
		return KeyQueryMetadata{}, err
	}
	return m.keyMetadata(store, func(n int) int32 { return kstreams.DefaultPartition(key, n) })
}

// AllMetadata returns what every instance of the application hosts, by
// host then port, as the group's last assignment says (Kafka Streams'
// metadataForAllStreamsClients). Only instances with an application.server
// appear. It is empty before the instance's first assignment, and before
// Start or unless RUNNING or REBALANCING.
func (s *KafkaStreams) AllMetadata() []StreamsMetadata {
	m, err := s.metadataState()
	if err != nil {
		return nil
	}
	return m.all()
}

// AllMetadataForStore returns the instances of AllMetadata that host
// store, as an active or a standby task (Kafka Streams'
// streamsMetadataForStore); every instance for a global store; none for a
// store the topology lacks.
func (s *KafkaStreams) AllMetadataForStore(store string) []StreamsMetadata {
	m, err := s.metadataState()
	if err != nil {
		return nil
	}
	return m.forStore(store)
}

// metadataState reads what the metadata calls need from a started
// instance. The fields Start sets (member, topo, the partition counts) are
// read only once the state says Start has finished: the state's lock
// orders their writes before.
func (s *KafkaStreams) metadataState() (*metadataState, error) {
	switch st := s.State(); st {
	case Created:
		return nil, ErrNotStarted
	case Running, Rebalancing:
	default:
		return nil, fmt.Errorf("%w (state %s)", ErrNotRunning, st)
	}
	m := &metadataState{topo: s.topo, appID: s.cfg.ApplicationID, self: s.member.host}
	s.member.mu.Lock()
	m.active, m.standby = s.member.mu.hosts, s.member.mu.standbyHosts
	s.member.mu.Unlock()
	m.initialized = m.active != nil || m.standby != nil
	for _, t := range s.liveThreads() {
		if t.assignor == nil {
			continue
		}
		if ma, _ := t.assignor.lastAssignment(); ma != nil {
			m.initialized = true
		}
	}
	m.count = func(topic string) int {
		if n, ok := s.sourceCounts[topic]; ok {
			return int(n)
		}
		return int(s.internalCounts[topic])
	}
	return m, nil
}

// metadataState is one view of the group's host maps with the topology,
// from which the metadata calls are computed (StreamsMetadataState's
// onChange followed by one of its queries).
type metadataState struct {
	topo  *kstreams.Topology
	appID string
	// self is this instance's application.server; nil when unset.
	self *assignment.HostInfo
	// active and standby are the group's partitions by host, from the last
	// assignment (nil maps without one, or without endpoints).
	active, standby map[assignment.HostInfo][]assignment.TopicPartition
	// initialized says an assignment was received: without one every key
	// is NotAvailable.
	initialized bool
	// count is a topic's partition count, 0 when unknown.
	count func(topic string) int
}

// storeTopics returns store's source topics as the broker names them; nil
// for a store no stream task hosts.
func (m *metadataState) storeTopics(store string) []string {
	refs, ok := m.topo.StoreSourceTopics(store)
	if !ok {
		return nil
	}
	out := make([]string, len(refs))
	for i, r := range refs {
		out[i] = r.Decorated(m.appID)
	}
	return out
}

// globalStores returns the names of the topology's global stores.
func (m *metadataState) globalStores() []string {
	var out []string
	for _, g := range m.topo.GlobalStores() {
		out = append(out, g.Store.Name)
	}
	return out
}

// partitions returns topic's partition count: the count Start read, else
// one more than the highest partition the host maps name.
func (m *metadataState) partitions(topic string) int {
	if m.count != nil {
		if n := m.count(topic); n > 0 {
			return n
		}
	}
	n := 0
	for _, hm := range []map[assignment.HostInfo][]assignment.TopicPartition{m.active, m.standby} {
		for _, tps := range hm {
			for _, tp := range tps {
				if tp.Topic == topic {
					n = max(n, int(tp.Partition)+1)
				}
			}
		}
	}
	return n
}

// keyMetadata is StreamsMetadataState.keyQueryMetadataForKey: partitionOf
// gives the key's partition among n.
func (m *metadataState) keyMetadata(store string, partitionOf func(n int) int32) (KeyQueryMetadata, error) {
	globals := m.globalStores()
	if slices.Contains(globals, store) {
		if !m.initialized {
			return NotAvailable, nil
		}
		// Every instance holds a global store: this one answers, or
		// without an endpoint of its own the first one known.
		if m.self != nil {
			return KeyQueryMetadata{ActiveHost: HostInfo(*m.self), Partition: -1}, nil
		}
		if all := m.all(); len(all) > 0 {
			return KeyQueryMetadata{ActiveHost: all[0].Host, Partition: -1}, nil
		}
		return NotAvailable, nil
	}
	topics := m.storeTopics(store)
	if len(topics) == 0 {
		if _, ok := m.topo.Store(store); ok {
			return KeyQueryMetadata{}, fmt.Errorf("%w: store %s is connected to no processor that reads a source topic", ErrUnknownStore, store)
		}
		return KeyQueryMetadata{}, fmt.Errorf("%w: no store %s in the topology", ErrUnknownStore, store)
	}
	if !m.initialized {
		return NotAvailable, nil
	}
	n := 0
	for _, t := range topics {
		n = max(n, m.partitions(t))
	}
	if n == 0 {
		return NotAvailable, nil // no partition count and no host map names the topics
	}
	p := partitionOf(n)
	matches := func(tps []assignment.TopicPartition) bool {
		return slices.ContainsFunc(tps, func(tp assignment.TopicPartition) bool {
			return tp.Partition == p && slices.Contains(topics, tp.Topic)
		})
	}
	out := KeyQueryMetadata{ActiveHost: UnavailableHost, Partition: p}
	for _, h := range m.hosts() {
		if matches(m.active[h]) {
			out.ActiveHost = HostInfo(h)
		}
		if matches(m.standby[h]) {
			out.StandbyHosts = append(out.StandbyHosts, HostInfo(h))
		}
	}
	return out, nil
}

// hosts returns every host of the maps, by host then port.
func (m *metadataState) hosts() []assignment.HostInfo {
	set := maps.Clone(m.active)
	if set == nil {
		set = map[assignment.HostInfo][]assignment.TopicPartition{}
	}
	for h := range m.standby {
		set[h] = nil
	}
	return slices.SortedFunc(maps.Keys(set), assignment.HostInfo.Compare)
}

// all is StreamsMetadataState.allMetadata after rebuildMetadata: one entry
// per host of the maps, global stores among every host's active stores.
func (m *metadataState) all() []StreamsMetadata {
	if !m.initialized {
		return nil
	}
	hosts := m.hosts()
	if len(hosts) == 0 {
		return nil
	}
	storeTopics := map[string][]string{}
	for _, sub := range m.topo.Subtopologies() {
		for _, spec := range sub.Stores {
			if topics := m.storeTopics(spec.Name); len(topics) > 0 {
				storeTopics[spec.Name] = topics
			}
		}
	}
	globals := m.globalStores()
	out := make([]StreamsMetadata, 0, len(hosts))
	for _, h := range hosts {
		md := StreamsMetadata{Host: HostInfo(h)}
		md.StateStoreNames, md.TopicPartitions = storesOn(storeTopics, m.active[h])
		md.StateStoreNames = append(md.StateStoreNames, globals...)
		slices.Sort(md.StateStoreNames)
		md.StateStoreNames = slices.Compact(md.StateStoreNames)
		md.StandbyStateStoreNames, md.StandbyTopicPartitions = storesOn(storeTopics, m.standby[h])
		out = append(out, md)
	}
	return out
}

// storesOn returns the stores with a source topic among tps, sorted, and
// tps sorted.
func storesOn(storeTopics map[string][]string, tps []assignment.TopicPartition) ([]string, []state.TopicPartition) {
	stores := []string{}
	for name, topics := range storeTopics {
		if slices.ContainsFunc(tps, func(tp assignment.TopicPartition) bool { return slices.Contains(topics, tp.Topic) }) {
			stores = append(stores, name)
		}
	}
	slices.Sort(stores)
	sorted := slices.Clone(tps)
	assignment.SortPartitions(sorted)
	parts := make([]state.TopicPartition, len(sorted))
	for i, tp := range sorted {
		parts[i] = state.TopicPartition{Topic: tp.Topic, Partition: tp.Partition}
	}
	return stores, parts
}

// forStore is StreamsMetadataState.allMetadataForStore.
func (m *metadataState) forStore(store string) []StreamsMetadata {
	all := m.all()
	if slices.Contains(m.globalStores(), store) {
		return all
	}
	if len(m.storeTopics(store)) == 0 {
		return nil
	}
	var out []StreamsMetadata
	for _, md := range all {
		if slices.Contains(md.StateStoreNames, store) || slices.Contains(md.StandbyStateStoreNames, store) {
			out = append(out, md)
		}
	}
	return out
}
