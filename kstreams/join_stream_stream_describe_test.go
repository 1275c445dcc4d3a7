package kstreams_test

import (
	"errors"
	"maps"
	"strings"
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/serde"
)

// joinDescribeCases rebuild the topologies of Kafka's
// KStreamKStreamJoinTest whose describe() text it asserts; the expected
// texts under testdata/kafka/ are transcribed from those assertEquals
// strings and never rewritten by -update.
var joinDescribeCases = map[string]func() *kstreams.StreamsBuilder{
	// A re-keyed stream joined twice: the second join reuses the first's
	// repartition topic, and still uses up the three names it would have
	// taken.
	"KStreamKStreamJoinTest.shouldReuseRepartitionTopicWithGeneratedName": func() *kstreams.StreamsBuilder {
		b, s1, s2, s3 := threeStringStreams()
		re := kstreams.Map(s1, func(k, v string) (string, string) { return v, k })
		kstreams.Join(re, s2, func(a, b string) string { return a + b }, kstreams.JoinWindowsOfTimeDifferenceWithNoGrace(100*time.Millisecond)).To("out-one")
		kstreams.Join(re, s3, func(a, b string) string { return a + b }, kstreams.JoinWindowsOfTimeDifferenceWithNoGrace(100*time.Millisecond)).To("out-to")
		return b
	},
	// StreamJoined.withName names the processors and the repartition topics.
	"KStreamKStreamJoinTest.shouldCreateRepartitionTopicsWithUserProvidedName": func() *kstreams.StreamsBuilder {
		b, s1, s2, s3 := threeStringStreams()
		re := kstreams.Map(s1, func(k, v string) (string, string) { return v, k })
		sj := kstreams.StreamJoined[string, string, string]{KeySerde: serde.String{}, ValueSerde: serde.String{}, OtherValueSerde: serde.String{}}
		first, second := sj, sj
		first.Name, second.Name = "first-join", "second-join"
		kstreams.Join(re, s2, func(a, b string) string { return a + b }, kstreams.JoinWindowsOfTimeDifferenceWithNoGrace(100*time.Millisecond), first).To("out-one")
		kstreams.Join(re, s3, func(a, b string) string { return a + b }, kstreams.JoinWindowsOfTimeDifferenceWithNoGrace(100*time.Millisecond), second).To("out-two")
		return b
	},
	// The last step of the incremental build: join → filter → mapValues →
	// to. JoinWindows.of(5000 ms) becomes its non-deprecated equivalent;
	// names do not depend on grace.
	"StreamsGraphTest.shouldBeAbleToBuildTopologyIncrementally": func() *kstreams.StreamsBuilder {
		b := kstreams.NewStreamsBuilder()
		s1 := kstreams.Stream[string, string](b, []string{"topic"})
		s2 := kstreams.Stream[string, string](b, []string{"other-topic"})
		joined := kstreams.Join(s1, s2, func(a, b string) string { return a + b }, kstreams.JoinWindowsOfTimeDifferenceWithNoGrace(5*time.Second))
		kstreams.MapValues(joined.Filter(func(_, v string) bool { return v == "foo" }), func(v string) string { return v + "some value" }).To("output-topic")
		return b
	},
}

func threeStringStreams() (*kstreams.StreamsBuilder, *kstreams.KStream[string, string], *kstreams.KStream[string, string], *kstreams.KStream[string, string]) {
	b := kstreams.NewStreamsBuilder()
	c := kstreams.ConsumedWith[string, string](serde.String{}, serde.String{})
	return b, kstreams.Stream(b, []string{"topic"}, c), kstreams.Stream(b, []string{"topic2"}, c), kstreams.Stream(b, []string{"topic3"}, c)
}

// The join cases run with the other Kafka expectations in
// TestDescribeMatchesKafkaTestExpectations.
func init() { maps.Copy(kafkaCases, joinDescribeCases) }

// The join stores, their kinds and changelog configs: window stores
// retaining duplicates with retention = window size + grace and a
// delete-only changelog (with the StreamJoined log config), the shared
// outer store compacted.
func TestStreamStreamJoinStoresAndChangelogs(t *testing.T) {
	b, s1, s2, _ := threeStringStreams()
	sj := kstreams.StreamJoined[string, string, string]{StoreName: "store", LogConfig: map[string]string{"test": "property"}}
	kstreams.OuterJoin(s1, s2, func(a, b *string) string { return "" },
		kstreams.JoinWindowsOfTimeDifferenceAndGrace(100*time.Millisecond, 50*time.Millisecond), sj).To("out")
	topo, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"store-outer-this-join-store", "store-outer-other-join-store"} {
		s, ok := topo.Store(name)
		if !ok || s.Kind != kstreams.WindowStoreKind || !s.RetainDuplicates || s.Timestamped || s.Retention != 250 || s.WindowSize != 200 || !s.Logging {
			t.Errorf("store %s = %+v, want a logged, untimestamped window store retaining duplicates, retention 250, size 200", name, s)
		}
	}
	if s, ok := topo.Store("store-outer-shared-join-store"); !ok || s.Kind != kstreams.KeyValueStoreKind {
		t.Errorf("shared store = %+v", s)
	}
	cfg := kstreams.InternalTopicsConfig{ApplicationID: "app", WindowStoreChangelogAdditionalRetentionMs: kstreams.DefaultWindowStoreChangelogAdditionalRetentionMs}
	got := map[string]map[string]string{}
	for _, it := range topo.InternalTopics(cfg) {
		got[it.Name] = it.Configs
	}
	window := map[string]string{"cleanup.policy": "delete", "retention.ms": "86400250", "test": "property", "message.timestamp.type": "CreateTime"}
	shared := map[string]string{"cleanup.policy": "compact", "test": "property", "message.timestamp.type": "CreateTime"}
	for name, want := range map[string]map[string]string{
		"app-store-outer-this-join-store-changelog":   window,
		"app-store-outer-other-join-store-changelog":  window,
		"app-store-outer-shared-join-store-changelog": shared,
	} {
		if !equalMaps(got[name], want) {
			t.Errorf("%s configs %v, want %v", name, got[name], want)
		}
	}
	if len(got) != 3 {
		t.Errorf("internal topics %v, want the three changelogs", got)
	}

	// Logging disabled: no changelogs at all.
	b, s1, s2, _ = threeStringStreams()
	kstreams.LeftJoin(s1, s2, func(a string, b *string) string { return a },
		kstreams.JoinWindowsOfTimeDifferenceWithNoGrace(time.Second), kstreams.StreamJoined[string, string, string]{StoreName: "store", LoggingDisabled: true}).To("out")
	topo, err = b.Build()
	if err != nil {
		t.Fatal(err)
	}
	if its := topo.InternalTopics(cfg); len(its) != 0 {
		t.Errorf("internal topics with logging disabled: %v", its)
	}
	for _, name := range []string{"store-this-join-store", "store-outer-other-join-store", "store-left-shared-join-store"} {
		if _, ok := topo.Store(name); !ok {
			t.Errorf("no store %s", name)
		}
	}
}

func equalMaps(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// JoinWindows' validation messages are Kafka's.
func TestJoinWindowsValidation(t *testing.T) {
	for _, c := range []struct {
		w    kstreams.JoinWindows
		want string
	}{
		{kstreams.JoinWindowsOfTimeDifferenceWithNoGrace(-time.Millisecond), "Window interval (ie, beforeMs+afterMs) must not be negative."},
		{kstreams.JoinWindowsOfTimeDifferenceAndGrace(time.Second, -time.Millisecond), "Grace period must not be negative."},
		{kstreams.JoinWindowsOfTimeDifferenceWithNoGrace(time.Second).Before(-2 * time.Second), "Window interval (ie, beforeMs+afterMs) must not be negative."},
		{kstreams.JoinWindowsOfTimeDifferenceWithNoGrace(time.Second).After(-time.Second), ""},
	} {
		got := ""
		if err := c.w.Err(); err != nil {
			got = err.Error()
		}
		if got != c.want {
			t.Errorf("%v: error %q, want %q", c.w, got, c.want)
		}
	}
	w := kstreams.JoinWindowsOfTimeDifferenceAndGrace(10*time.Millisecond, 5*time.Millisecond).Before(3 * time.Millisecond)
	if w.String() != "JoinWindows{beforeMs=3, afterMs=10, graceMs=5}" || w.Size() != 13 {
		t.Errorf("windows %v size %d", w, w.Size())
	}
	b, s1, s2, _ := threeStringStreams()
	kstreams.Join(s1, s2, func(a, b string) string { return a }, kstreams.JoinWindowsOfTimeDifferenceAndGrace(time.Second, -time.Second))
	if _, err := b.Build(); err == nil || err.Error() != "Grace period must not be negative." {
		t.Errorf("build over invalid windows: %v", err)
	}
}

// Co-partitioning: a join over external topics with different partition
// counts fails with Kafka Streams' message; a repartition topic in a join
// takes the partition count of the other side's topic.
func TestStreamStreamJoinCopartitioning(t *testing.T) {
	b, s1, s2, _ := threeStringStreams()
	kstreams.Join(s1, s2, func(a, b string) string { return a }, kstreams.JoinWindowsOfTimeDifferenceWithNoGrace(time.Second)).To("out")
	topo, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	cfg := kstreams.InternalTopicsConfig{ApplicationID: "app"}
	counts := map[string]int{"topic": 1, "topic2": 2, "topic3": 1}
	_, _, err = topo.InternalTopicPartitions(cfg, func(t string) (int, bool) { n, ok := counts[t]; return n, ok })
	if !errors.Is(err, kstreams.ErrInvalidTopology) || err.Error() != "Invalid topology: Topics not co-partitioned: [{topic=1, topic2=2}]" {
		t.Fatalf("error %v", err)
	}

	b, s1, s2, _ = threeStringStreams()
	re := kstreams.SelectKey(s1, func(k, v string) string { return v })
	kstreams.Join(re, s2, func(a, b string) string { return a }, kstreams.JoinWindowsOfTimeDifferenceWithNoGrace(time.Second)).To("out")
	topo, err = b.Build()
	if err != nil {
		t.Fatal(err)
	}
	counts = map[string]int{"topic": 7, "topic2": 3, "topic3": 5}
	parts, tasks, err := topo.InternalTopicPartitions(cfg, func(t string) (int, bool) { n, ok := counts[t]; return n, ok })
	if err != nil {
		t.Fatal(err)
	}
	if g := topo.CopartitionGroups(); len(g) != 1 || strings.Join(g[0], ",") != "KSTREAM-KEY-SELECT-0000000003-repartition,topic2" {
		t.Errorf("co-partition groups %v", g)
	}
	if n := parts["app-KSTREAM-KEY-SELECT-0000000003-repartition"]; n != 3 {
		t.Errorf("repartition topic has %d partitions, want the 3 of topic2 (%v)", n, parts)
	}
	if tasks[0] != 7 || tasks[1] != 3 {
		t.Errorf("tasks %v, want 7 then 3", tasks)
	}
}

// KStreamKStreamJoinTest's store supplier checks: retention, window size
// and retainDuplicates must fit the join windows, and the two suppliers
// need their own names.
func TestStreamStreamJoinStoreSupplierChecks(t *testing.T) {
	w := kstreams.JoinWindowsOfTimeDifferenceAndGrace(50*time.Millisecond, 50*time.Millisecond)
	sup := func(name string, retention, size int64, dups bool) *kstreams.WindowStoreSupplier {
		return &kstreams.WindowStoreSupplier{Name: name, Type: kstreams.InMemory, RetentionMs: retention, WindowSizeMs: size, RetainDuplicates: dups}
	}
	const mismatch = "Window settings mismatch. WindowBytesStoreSupplier settings"
	for _, c := range []struct {
		name        string
		this, other *kstreams.WindowStoreSupplier
		want        string
	}{
		{"thisRetention", sup("in-memory-join-store", 500, 100, true), sup("in-memory-join-store-other", 150, 100, true), mismatch},
		{"thisWindowSize", sup("in-memory-join-store", 150, 150, true), sup("in-memory-join-store-other", 150, 100, true), mismatch},
		{"thisDuplicates", sup("in-memory-join-store", 150, 100, false), sup("in-memory-join-store-other", 150, 100, true),
			"The StoreSupplier must set retainDuplicates=true, found retainDuplicates=false"},
		{"otherRetention", sup("in-memory-join-store", 150, 100, true), sup("in-memory-join-store-other", 500, 100, true), mismatch},
		{"otherWindowSize", sup("in-memory-join-store", 150, 100, true), sup("in-memory-join-store-other", 150, 150, true), mismatch},
		{"otherDuplicates", sup("in-memory-join-store", 150, 100, true), sup("in-memory-join-store-other", 150, 100, false),
			"The StoreSupplier must set retainDuplicates=true, found retainDuplicates=false"},
		{"sameNames", sup("in-memory-join-store", 150, 100, true), sup("in-memory-join-store", 150, 100, true),
			"Both StoreSuppliers have the same name.  StoreSuppliers must provide unique names"},
	} {
		t.Run(c.name, func(t *testing.T) {
			b, s1, s2, _ := threeStringStreams()
			kstreams.Join(s1, s2, func(a, b string) string { return a }, w,
				kstreams.StreamJoined[string, string, string]{ThisStoreSupplier: c.this, OtherStoreSupplier: c.other})
			if _, err := b.Build(); err == nil || !strings.HasPrefix(err.Error(), c.want) {
				t.Errorf("build: %v, want %q", err, c.want)
			}
		})
	}

	// Fitting suppliers name the stores; the shared store follows this
	// side's supplier, in name and engine.
	b, s1, s2, _ := threeStringStreams()
	kstreams.OuterJoin(s1, s2, func(a, b *string) string { return "" }, kstreams.JoinWindowsOfTimeDifferenceAndGrace(100*time.Millisecond, 50*time.Millisecond),
		kstreams.StreamJoined[string, string, string]{ThisStoreSupplier: sup("in-memory-join-store", 250, 200, true), LoggingDisabled: true})
	topo, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	if s, ok := topo.Store("in-memory-join-store"); !ok || s.Type != kstreams.InMemory || !s.Logging {
		t.Errorf("this store %+v: want the supplier's in-memory store, logged as Stores.windowStoreBuilder logs", s)
	}
	if s, ok := topo.Store("KSTREAM-OUTEROTHER-0000000006-store"); !ok || s.Logging {
		t.Errorf("other store %+v: want the generated one, unlogged", s)
	}
	if s, ok := topo.Store("in-memory-join-store-outer-shared-join-store"); !ok || s.Type != kstreams.InMemory {
		t.Errorf("shared store %+v", s)
	}
}
