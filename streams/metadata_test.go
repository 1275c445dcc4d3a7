package streams

import (
	"errors"
	"slices"
	"testing"

	"github.com/stoatflow/stoatflow/internal/assignment"
	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/serde"
	"github.com/stoatflow/stoatflow/state"
)

// The tests of this file port Kafka Streams 4.4's StreamsMetadataStateTest:
// its topology, host maps and expected results, with the partition counts
// its partitionInfos give.

var (
	hostOne   = assignment.HostInfo{Host: "host-one", Port: 8080}
	hostTwo   = assignment.HostInfo{Host: "host-two", Port: 9090}
	hostThree = assignment.HostInfo{Host: "host-three", Port: 7070}
)

func tp(topic string, p int32) assignment.TopicPartition {
	return assignment.TopicPartition{Topic: topic, Partition: p}
}

func stp(topic string, p int32) state.TopicPartition {
	return state.TopicPartition{Topic: topic, Partition: p}
}

// metadataTopology is StreamsMetadataStateTest's: counts over topic-one,
// topic-two, topic-three and the merge of the first two, a stateless
// topic-four and a global table; extra adds to it before it is built.
func metadataTopology(t *testing.T, extra func(b *kstreams.StreamsBuilder)) *kstreams.Topology {
	t.Helper()
	b := kstreams.NewStreamsBuilder()
	one := kstreams.Stream[string, string](b, []string{"topic-one"})
	one.GroupByKey().Count(kstreams.MaterializedAs[string, int64]("table-one"))
	two := kstreams.Stream[string, string](b, []string{"topic-two"})
	two.GroupByKey().Count(kstreams.MaterializedAs[string, int64]("table-two"))
	kstreams.Stream[string, string](b, []string{"topic-three"}).GroupByKey().Count(kstreams.MaterializedAs[string, int64]("table-three"))
	one.Merge(two).GroupByKey().Count(kstreams.MaterializedAs[string, int64]("merged-table"))
	kstreams.MapValues(kstreams.Stream[string, string](b, []string{"topic-four"}), func(v string) string { return v })
	kstreams.GlobalTable(b, "global-topic", kstreams.ConsumedWith[string, string](serde.String{}, serde.String{}),
		kstreams.MaterializedAs[string, string]("global-table"))
	if extra != nil {
		extra(b)
	}
	topo, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return topo
}

// newMetadataState is the test's state after onChange with its host maps
// (before), seen from host-one.
func newMetadataState(t *testing.T) *metadataState {
	t.Helper()
	self := hostOne
	return &metadataState{
		topo: metadataTopology(t, nil), appID: "appId", self: &self, initialized: true,
		active: map[assignment.HostInfo][]assignment.TopicPartition{
			hostOne:   {tp("topic-one", 0), tp("topic-two", 1), tp("topic-four", 0)},
			hostTwo:   {tp("topic-two", 0), tp("topic-one", 1)},
			hostThree: {tp("topic-three", 0)},
		},
		standby: map[assignment.HostInfo][]assignment.TopicPartition{
			hostThree: {tp("topic-one", 0), tp("topic-two", 1), tp("topic-four", 0)},
			hostOne:   {tp("topic-two", 0), tp("topic-one", 1)},
			hostTwo:   {tp("topic-three", 0)},
		},
		count: counts(map[string]int{"topic-one": 2, "topic-two": 2, "topic-three": 1, "topic-four": 1}),
	}
}

func counts(m map[string]int) func(string) int {
	return func(topic string) int { return m[topic] }
}

func equalMetadata(a, b StreamsMetadata) bool {
	return a.Host == b.Host && slices.Equal(a.StateStoreNames, b.StateStoreNames) &&
		slices.Equal(a.TopicPartitions, b.TopicPartitions) &&
		slices.Equal(a.StandbyStateStoreNames, b.StandbyStateStoreNames) &&
		slices.Equal(a.StandbyTopicPartitions, b.StandbyTopicPartitions)
}

func equalKeyMetadata(a, b KeyQueryMetadata) bool {
	return a.ActiveHost == b.ActiveHost && a.Partition == b.Partition && slices.Equal(a.StandbyHosts, b.StandbyHosts)
}

var (
	mdOne = StreamsMetadata{Host: HostInfo(hostOne),
		StateStoreNames:        []string{"global-table", "merged-table", "table-one", "table-two"},
		TopicPartitions:        []state.TopicPartition{stp("topic-four", 0), stp("topic-one", 0), stp("topic-two", 1)},
		StandbyStateStoreNames: []string{"merged-table", "table-one", "table-two"},
		StandbyTopicPartitions: []state.TopicPartition{stp("topic-one", 1), stp("topic-two", 0)}}
	mdTwo = StreamsMetadata{Host: HostInfo(hostTwo),
		StateStoreNames:        []string{"global-table", "merged-table", "table-one", "table-two"},
		TopicPartitions:        []state.TopicPartition{stp("topic-one", 1), stp("topic-two", 0)},
		StandbyStateStoreNames: []string{"table-three"},
		StandbyTopicPartitions: []state.TopicPartition{stp("topic-three", 0)}}
	mdThree = StreamsMetadata{Host: HostInfo(hostThree),
		StateStoreNames:        []string{"global-table", "table-three"},
		TopicPartitions:        []state.TopicPartition{stp("topic-three", 0)},
		StandbyStateStoreNames: []string{"merged-table", "table-one", "table-two"},
		StandbyTopicPartitions: []state.TopicPartition{stp("topic-four", 0), stp("topic-one", 0), stp("topic-two", 1)}}
)

// checkAll compares got with want, in order (hosts by host, then port).
func checkAll(t *testing.T, got []StreamsMetadata, want ...StreamsMetadata) {
	t.Helper()
	if !slices.EqualFunc(got, want, equalMetadata) {
		t.Errorf("metadata\n got %+v\nwant %+v", got, want)
	}
}

func TestMetadataBeforeAnyAssignmentIsEmpty(t *testing.T) { // shouldNotThrowExceptionWhenOnChangeNotCalled
	m := &metadataState{topo: metadataTopology(t, nil), appID: "appId"}
	if got := m.forStore("store"); len(got) != 0 {
		t.Errorf("forStore before an assignment: %v", got)
	}
	if got := m.all(); len(got) != 0 {
		t.Errorf("all before an assignment: %v", got)
	}
	got, err := m.keyMetadata("table-one", func(int) int32 { return 0 })
	if err != nil || !equalKeyMetadata(got, NotAvailable) || got.Available() {
		t.Errorf("key before an assignment: %+v %v, want NOT_AVAILABLE", got, err)
	}
	if got, err := m.keyMetadata("global-table", func(int) int32 { return 0 }); err != nil || got.Available() {
		t.Errorf("global key before an assignment: %+v %v, want NOT_AVAILABLE", got, err)
	}
}

func TestMetadataOfEveryInstance(t *testing.T) { // shouldGetAllStreamInstances, shouldGetLocalMetadataWithRightActiveStandbyInfo
	m := newMetadataState(t)
	// host-three sorts before host-two in Java's string order, as in
	// Kafka's rebuildMetadata.
	checkAll(t, m.all(), mdOne, mdThree, mdTwo)
}

func TestMetadataOfAnInstanceWithNoStores(t *testing.T) { // shouldGetAllStreamsInstancesWithNoStores
	m := newMetadataState(t)
	m.topo = metadataTopology(t, func(b *kstreams.StreamsBuilder) {
		kstreams.Stream[string, string](b, []string{"topic-five"}).Filter(func(string, string) bool { return true }).To("some-other-topic")
	})
	hostFour := assignment.HostInfo{Host: "host-four", Port: 8080}
	m.active[hostFour] = []assignment.TopicPartition{tp("topic-five", 1)}
	m.standby = nil
	want := StreamsMetadata{Host: HostInfo(hostFour), StateStoreNames: []string{"global-table"},
		TopicPartitions: []state.TopicPartition{stp("topic-five", 1)}, StandbyStateStoreNames: []string{}, StandbyTopicPartitions: []state.TopicPartition{}}
	all := m.all()
	if !slices.ContainsFunc(all, func(md StreamsMetadata) bool { return equalMetadata(md, want) }) {
		t.Errorf("all = %+v, want it to contain %+v", all, want)
	}
}

func TestMetadataForStore(t *testing.T) { // shouldGetInstancesForStoreName
	m := newMetadataState(t)
	got := m.forStore("table-one")
	// host-three hosts table-one as a standby only.
	checkAll(t, got, mdOne, mdThree, mdTwo)
	if !slices.Contains(got[1].StandbyStateStoreNames, "table-one") {
		t.Errorf("host-three: %+v, want table-one among its standby stores", got[1])
	}
	if got := m.forStore("table-three"); !slices.EqualFunc(got, []StreamsMetadata{mdThree, mdTwo}, equalMetadata) {
		t.Errorf("forStore(table-three) = %+v", got)
	}
}

func TestMetadataForUnknownStoreIsEmpty(t *testing.T) { // shouldReturnEmptyCollectionOnGetAllInstancesWithStoreWhenStoreDoesntExist
	if got := newMetadataState(t).forStore("not-a-store"); len(got) != 0 {
		t.Errorf("forStore(not-a-store) = %+v", got)
	}
}

func TestKeyMetadataWithDefaultPartitioner(t *testing.T) { // shouldGetInstanceWithKey
	m := newMetadataState(t)
	m.active[hostTwo] = []assignment.TopicPartition{tp("topic-two", 0), tp("topic-three", 1)}
	// Kafka's test hands onChange the partition info of topic-three-1
	// alone: one partition known, so the key maps to partition 0.
	m.count = counts(map[string]int{"topic-three": 1})
	key := []byte("the-key")
	got, err := m.keyMetadata("table-three", func(n int) int32 { return kstreams.DefaultPartition(key, n) })
	want := KeyQueryMetadata{ActiveHost: HostInfo(hostThree), StandbyHosts: []HostInfo{HostInfo(hostTwo)}, Partition: 0}
	if err != nil || !equalKeyMetadata(got, want) {
		t.Errorf("got %+v %v, want %+v", got, err, want)
	}
}

func TestKeyMetadataAtAGivenPartition(t *testing.T) { // shouldGetInstanceWithKeyAndCustomPartitioner
	m := newMetadataState(t)
	m.active[hostTwo] = []assignment.TopicPartition{tp("topic-two", 0), tp("topic-three", 1)}
	m.count = counts(map[string]int{"topic-three": 1})
	got, err := m.keyMetadata("table-three", func(int) int32 { return 1 })
	want := KeyQueryMetadata{ActiveHost: HostInfo(hostTwo), Partition: 1}
	if err != nil || !equalKeyMetadata(got, want) || len(got.StandbyHosts) != 0 {
		t.Errorf("got %+v %v, want %+v", got, err, want)
	}
}

func TestKeyMetadataNotAvailableWithoutHostsOrCounts(t *testing.T) { // shouldReturnNotAvailableWhenClusterIsEmpty
	m := newMetadataState(t)
	m.active, m.standby, m.count = nil, nil, nil
	got, err := m.keyMetadata("table-one", func(int) int32 { return 0 })
	if err != nil || !equalKeyMetadata(got, NotAvailable) {
		t.Errorf("got %+v %v, want NOT_AVAILABLE", got, err)
	}
}

func TestKeyMetadataOfMergedStreams(t *testing.T) { // shouldGetInstanceWithKeyWithMergedStreams
	m := newMetadataState(t)
	m.active[hostTwo] = []assignment.TopicPartition{tp("topic-two", 0), tp("topic-one", 1), tp("topic-two", 2)}
	m.standby[hostOne] = []assignment.TopicPartition{tp("topic-two", 0), tp("topic-one", 1), tp("topic-two", 2)}
	m.count = counts(map[string]int{"topic-two": 3})
	got, err := m.keyMetadata("merged-table", func(int) int32 { return 2 })
	want := KeyQueryMetadata{ActiveHost: HostInfo(hostTwo), StandbyHosts: []HostInfo{HostInfo(hostOne)}, Partition: 2}
	if err != nil || !equalKeyMetadata(got, want) {
		t.Errorf("got %+v %v, want %+v", got, err, want)
	}
}

func TestKeyMetadataOfUnknownStore(t *testing.T) { // shouldReturnNullOnGetWithKeyWhenStoreDoesntExist
	m := newMetadataState(t)
	if _, err := m.keyMetadata("not-a-store", func(int) int32 { return 0 }); !errors.Is(err, ErrUnknownStore) {
		t.Errorf("not-a-store: %v, want ErrUnknownStore", err)
	}
	// Unlike Kafka's, which answers NOT_AVAILABLE before its first
	// assignment whatever the store, a wrong name is an error at once.
	m.initialized = false
	if _, err := m.keyMetadata("not-a-store", func(int) int32 { return 0 }); !errors.Is(err, ErrUnknownStore) {
		t.Errorf("not-a-store before an assignment: %v, want ErrUnknownStore", err)
	}
}

func TestMetadataCallsCheckArgumentsAndState(t *testing.T) { // shouldThrowWhenKeyIsNull, validateIsRunningOrRebalancing
	s := &KafkaStreams{}
	if _, err := s.MetadataForKey("table-three", nil); err == nil {
		t.Error("nil key: no error")
	}
	if _, err := s.MetadataForKey("table-three", []byte("k")); !errors.Is(err, ErrNotStarted) {
		t.Errorf("before Start: %v, want ErrNotStarted", err)
	}
	if got := s.AllMetadata(); got != nil {
		t.Errorf("AllMetadata before Start: %v", got)
	}
	s.mu.state = NotRunning
	if _, err := s.MetadataForKey("table-three", []byte("k")); !errors.Is(err, ErrNotRunning) {
		t.Errorf("after Close: %v, want ErrNotRunning", err)
	}
}

func TestGlobalStoreOnEveryInstance(t *testing.T) { // shouldHaveGlobalStoreInAllMetadata
	got := newMetadataState(t).forStore("global-table")
	if len(got) != 3 {
		t.Fatalf("forStore(global-table): %d instances, want 3", len(got))
	}
	for _, md := range got {
		if !slices.Contains(md.StateStoreNames, "global-table") {
			t.Errorf("%s: stores %v lack global-table", md.Host, md.StateStoreNames)
		}
	}
}

func TestKeyMetadataOfGlobalStore(t *testing.T) { // shouldGetQueryMetadataForGlobalStoreWithKey, ...IfMyHostUnknown
	m := newMetadataState(t)
	got, err := m.keyMetadata("global-table", func(int) int32 { return 1 })
	want := KeyQueryMetadata{ActiveHost: HostInfo(hostOne), Partition: -1}
	if err != nil || !equalKeyMetadata(got, want) {
		t.Errorf("got %+v %v, want this instance %+v", got, err, want)
	}
	m.self = nil
	if got, err := m.keyMetadata("global-table", func(int) int32 { return 1 }); err != nil || !got.Available() {
		t.Errorf("without an endpoint of its own: %+v %v, want an instance", got, err)
	}
}

func TestMetadataIsACopy(t *testing.T) { // shouldNotReturnMutableReferenceToInternalAllMetadataCollection
	m := newMetadataState(t)
	all := m.all()
	all[0].TopicPartitions[0] = stp("x", 9)
	all[0].StateStoreNames[0] = "x"
	checkAll(t, m.all(), mdOne, mdThree, mdTwo)
}

// TestKeyMetadataBehindARepartition: a store whose sub-topology reads a
// repartition topic maps keys over that topic's partition count, not the
// input's.
func TestKeyMetadataBehindARepartition(t *testing.T) {
	b := kstreams.NewStreamsBuilder()
	words := kstreams.Stream[string, string](b, []string{"in"})
	kstreams.GroupBy(words, func(_, w string) string { return w }).Count(kstreams.MaterializedAs[string, int64]("counts"))
	topo, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	refs, ok := topo.StoreSourceTopics("counts")
	if !ok || len(refs) != 1 || !refs[0].Internal {
		t.Fatalf("StoreSourceTopics(counts) = %v %v, want its repartition topic", refs, ok)
	}
	repartition := refs[0].Decorated("app")
	m := &metadataState{topo: topo, appID: "app", initialized: true,
		count: counts(map[string]int{"in": 2, repartition: 5})}
	m.active = map[assignment.HostInfo][]assignment.TopicPartition{}
	for p := range int32(5) {
		h := hostOne
		if p%2 == 1 {
			h = hostTwo
		}
		m.active[h] = append(m.active[h], tp(repartition, p), tp("in", p%2))
	}
	for _, key := range []string{"otter", "badger", "stoat", "weasel", "marten", "mink"} {
		p := kstreams.DefaultPartition([]byte(key), 5)
		got, err := m.keyMetadata("counts", func(n int) int32 { return kstreams.DefaultPartition([]byte(key), n) })
		want := hostOne
		if p%2 == 1 {
			want = hostTwo
		}
		if err != nil || got.Partition != p || got.ActiveHost != HostInfo(want) {
			t.Errorf("%s: %+v %v, want partition %d of 5 on %s", key, got, err, p, want)
		}
	}
	// Without a count, the host maps give one.
	m.count = nil
	if got := m.partitions(repartition); got != 5 {
		t.Errorf("partitions from the host maps: %d, want 5", got)
	}
}
