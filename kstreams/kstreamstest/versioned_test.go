package kstreamstest_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/kstreamstest"
	"github.com/stoatflow/stoatflow/kstreams/serde"
)

func versionedAs[K, V any](name string, retention time.Duration) kstreams.Materialized[K, V] {
	return kstreams.MaterializedAsVersioned[K, V](kstreams.PersistentVersionedKeyValueStore(name, retention))
}

// KTableAggregateTest.testAggOfVersionedStore: an out-of-order update of
// the versioned source is kept as history but not re-grouped.
func TestGroupedVersionedTableSkipsOutOfOrderUpdates(t *testing.T) {
	b := kstreams.NewStreamsBuilder()
	tbl := stringTable(b, "topic1", versionedAs[string, string]("versioned", 5*time.Minute))
	regroup := func(k, v string) (*string, string) {
		if k == "null" || k == "NULL" {
			return nil, v
		}
		return &v, v
	}
	grouped := kstreams.GroupTableBy(tbl, regroup, kstreams.Grouped[*string, string]{KeySerde: serde.Nullable[string](serde.String{}), ValueSerde: serde.String{}})
	add := func(_ *string, v, agg string) string { return agg + "+" + v }
	sub := func(_ *string, v, agg string) string { return agg + "-" + v }
	kstreams.AggregateTable(grouped, zeroString, add, sub,
		kstreams.Materialized[*string, string]{Name: "topic1-Canonized", ValueSerde: serde.String{}}).ToStream().To("out")
	d := build(t, b, stringDefaults)
	pipeRows(t, d, "topic1", []row{{"A", "1", 10}, {"A", "", 15}, {"A", "1", 12}, {"B", "2", 20}, {"null", "3", 25},
		{"B", "4", 23}, {"NULL", "5", 24}, {"B", "7", 22}})
	check(t, "out", d.Records("out"), []kv{{"1", []byte("0+1"), 10}, {"1", []byte("0+1-1"), 15},
		{"2", []byte("0+2"), 20}, {"2", []byte("0+2-2"), 23}, {"4", []byte("0+4"), 23}})
	// The versioned store's changelog carries every put as written, the
	// out-of-order ones too, stamped with their own timestamps.
	cl := d.Changelog("versioned")
	if len(cl) != 8 || string(cl[2].Key) != "A" || string(cl[2].Value) != "1" || cl[2].Timestamp != 12 || cl[1].Value != nil {
		t.Fatalf("changelog: %+v", cl)
	}
}

// KTableAggregateTest.testCountOfVersionedStore.
func TestGroupedVersionedTableCount(t *testing.T) {
	b := kstreams.NewStreamsBuilder()
	tbl := stringTable(b, "count-test-input", versionedAs[string, string]("versioned", 5*time.Minute))
	byValue := func(_, v string) (string, string) { return v, v }
	kstreams.GroupTableBy(tbl, byValue, stringGrouped).Count().ToStream().
		To("out", kstreams.ProducedWith[string, int64](serde.String{}, serde.Long{}))
	d := build(t, b, stringDefaults)
	pipeRows(t, d, "count-test-input", []row{{"A", "green", 10}, {"B", "green", 9}, {"A", "blue", 12}, {"A", "blue", 11},
		{"C", "yellow", 15}, {"D", "green", 11}})
	check(t, "out", d.Records("out"), []kv{{"green", long(1), 10}, {"green", long(2), 10}, {"green", long(1), 12},
		{"blue", long(1), 12}, {"yellow", long(1), 15}, {"green", long(2), 12}})
}

// KTableFilterTest.shouldNotSkipNullIfVersionedUpstream and
// shouldSkipNullIfVersionedDownstream: over a versioned parent the filter
// forwards a tombstone for a row that was already filtered out; a versioned
// filter over a plain parent skips it.
func TestFilterOverVersionedTableForwardsEveryTombstone(t *testing.T) {
	for _, upstream := range []bool{true, false} {
		b := kstreams.NewStreamsBuilder()
		var f *kstreams.KTable[string, string]
		accept := func(_, v string) bool { return strings.EqualFold(v, "accept") }
		if upstream {
			f = stringTable(b, "topic1", versionedAs[string, string]("versioned", 5*time.Minute)).Filter(accept)
		} else {
			f = stringTable(b, "topic1", kstreams.MaterializedAs[string, string]("store")).Filter(accept,
				versionedAs[string, string]("versioned", 5*time.Minute))
		}
		f.ToStream().To("out")
		concat := func(agg, v string) string { return agg + v }
		kstreams.GroupTableBy(f, func(k, v string) (string, string) { return k, v }, stringGrouped).Reduce(concat, concat)
		d := build(t, b, stringDefaults)
		pipeRows(t, d, "topic1", []row{{"A", "reject", 5}, {"A", "reject", 10}, {"B", "accept", 15}, {"B", "reject", 20}})
		want := []kv{{"B", []byte("accept"), 15}, {"B", nil, 20}}
		if upstream {
			want = []kv{{"A", nil, 5}, {"A", nil, 10}, {"B", []byte("accept"), 15}, {"B", nil, 20}}
		}
		check(t, "out", d.Records("out"), want)
	}
}

// A stream–table join reads a versioned table as of each stream record's
// timestamp, so a late table update is seen by the stream records it
// precedes, and a stream record joins the version valid at its time.
func TestStreamJoinsVersionedTableAsOfRecordTime(t *testing.T) {
	b := kstreams.NewStreamsBuilder()
	tbl := stringTable(b, "table", versionedAs[string, string]("versioned", time.Minute))
	s := kstreams.Stream(b, []string{"stream"}, kstreams.ConsumedWith[string, string](serde.String{}, serde.String{}))
	kstreams.StreamTableLeftJoin(s, tbl, func(_ string, v string, vo *string) string {
		if vo == nil {
			return v + "|null"
		}
		return v + "|" + *vo
	}).To("out")
	d := build(t, b, stringDefaults)
	for _, p := range []struct {
		topic, k, v string
		ts          int64
	}{
		{"table", "k", "t20", 20},
		{"stream", "k", "s10", 10}, // before any version
		{"stream", "k", "s25", 25},
		{"table", "k", "t5", 5}, // out of order: valid 5..20
		{"stream", "k", "s10", 10},
		{"table", "k", "", 15}, // tombstone 15..20
		{"stream", "k", "s17", 17},
		{"stream", "k", "s30", 30},
	} {
		var v []byte
		if p.v != "" {
			v = []byte(p.v)
		}
		if err := d.Pipe(p.topic, []byte(p.k), v, p.ts); err != nil {
			t.Fatal(err)
		}
	}
	check(t, "out", d.Records("out"), []kv{{"k", []byte("s10|null"), 10}, {"k", []byte("s25|t20"), 25},
		{"k", []byte("s10|t5"), 10}, {"k", []byte("s17|null"), 17}, {"k", []byte("s30|t20"), 30}})
}

// A derived, unmaterialized filter or mapValues over a versioned table is
// read as of the record's time too (its getter inherits the versioning).
func TestStreamJoinsDerivedVersionedTableAsOf(t *testing.T) {
	b := kstreams.NewStreamsBuilder()
	tbl := stringTable(b, "table", versionedAs[string, string]("versioned", time.Minute))
	up := kstreams.MapTableValues(tbl, func(_, v string) string { return strings.ToUpper(v) })
	s := kstreams.Stream(b, []string{"stream"}, kstreams.ConsumedWith[string, string](serde.String{}, serde.String{}))
	kstreams.StreamTableJoin(s, up, func(_ string, v, vo string) string { return v + "|" + vo }).To("out")
	d := build(t, b, stringDefaults)
	pipeRows(t, d, "table", []row{{"k", "new", 20}, {"k", "old", 5}})
	pipeRows(t, d, "stream", []row{{"k", "a", 7}, {"k", "b", 21}, {"k", "c", 3}})
	check(t, "out", d.Records("out"), []kv{{"k", []byte("a|OLD"), 7}, {"k", []byte("b|NEW"), 21}})
}

// An update older than the history retention is not stored and not
// forwarded (PUT_RETURN_CODE_NOT_PUT); the changelog still carries it, as
// Kafka's change-logging versioned store logs every put.
func TestVersionedTableDropsUpdatesPastHistoryRetention(t *testing.T) {
	b := kstreams.NewStreamsBuilder()
	stringTable(b, "table", versionedAs[string, string]("versioned", 10*time.Millisecond)).ToStream().To("out")
	d := build(t, b, stringDefaults)
	pipeRows(t, d, "table", []row{{"a", "1", 100}, {"b", "2", 50}, {"a", "3", 95}})
	check(t, "out", d.Records("out"), []kv{{"a", []byte("1"), 100}, {"a", []byte("3"), 95}})
	if cl := d.Changelog("versioned"); len(cl) != 3 || string(cl[1].Key) != "b" || cl[1].Timestamp != 50 {
		t.Fatalf("changelog: %+v", cl)
	}
}

// The checks Kafka Streams makes of versioned tables when the topology is
// built, in its words.
func TestVersionedTableBuildChecks(t *testing.T) {
	for _, c := range []struct {
		name  string
		build func(b *kstreams.StreamsBuilder)
		want  string
	}{
		{"suppress", func(b *kstreams.StreamsBuilder) {
			tbl := stringTable(b, "t", versionedAs[string, string]("v", time.Minute))
			tbl.Suppress(kstreams.UntilTimeLimit(time.Second, kstreams.Unbounded()))
		}, "suppress() is only supported for non-versioned KTables"},
		{"suppress inherited", func(b *kstreams.StreamsBuilder) {
			tbl := stringTable(b, "t", versionedAs[string, string]("v", time.Minute)).Filter(even)
			tbl.Suppress(kstreams.UntilTimeLimit(time.Second, kstreams.Unbounded()))
		}, "suppress() is only supported for non-versioned KTables"},
		{"global", func(b *kstreams.StreamsBuilder) {
			kstreams.GlobalTable(b, "g", kstreams.ConsumedWith[string, string](serde.String{}, serde.String{}),
				versionedAs[string, string]("v", time.Minute))
		}, "GlobalTables cannot be versioned."},
		{"grace over plain table", func(b *kstreams.StreamsBuilder) {
			tbl := stringTable(b, "t", kstreams.MaterializedAs[string, string]("plain"))
			s := kstreams.Stream(b, []string{"s"}, kstreams.ConsumedWith[string, string](serde.String{}, serde.String{}))
			kstreams.StreamTableJoin(s, tbl, func(_ string, v, vo string) string { return v + vo },
				kstreams.Joined[string, string]{}.WithGracePeriod(time.Second))
		}, "KTable must be versioned to use a grace period in a stream table join."},
		{"negative retention", func(b *kstreams.StreamsBuilder) {
			stringTable(b, "t", versionedAs[string, string]("v", -time.Second))
		}, "historyRetention cannot be negative"},
		{"windowed aggregation", func(b *kstreams.StreamsBuilder) {
			s := kstreams.Stream(b, []string{"s"}, kstreams.ConsumedWith[string, string](serde.String{}, serde.String{}))
			kstreams.WindowedBy(s.GroupByKey(), kstreams.TimeWindowsOfSizeWithNoGrace(time.Second)).
				Count(versionedAs[string, int64]("v", time.Minute))
		}, "a versioned store (MaterializedAsVersioned) can hold only a key-value table"},
	} {
		b := kstreams.NewStreamsBuilder()
		c.build(b)
		if _, err := b.Build(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: Build() = %v, want an error containing %q", c.name, err, c.want)
		}
	}
	// A StoreBuilder over a versioned store has no record cache.
	b := kstreams.NewStreamsBuilder()
	sb := kstreams.VersionedKeyValueStoreBuilder(kstreams.PersistentVersionedKeyValueStore("v", time.Minute), serde.String{}, serde.String{})
	sb.Caching = true
	b.AddStateStore(sb)
	if _, err := b.Build(); err == nil || !strings.Contains(err.Error(), "Versioned stores do not support caching") {
		t.Errorf("cached versioned StoreBuilder: Build() = %v", err)
	}
}

// With a grace period, stream records wait in the join's buffer until
// stream time passes them by the grace, so a table update that arrives
// late but within the grace is joined; records leave the buffer in time
// order, and one older than stream time minus grace joins at once.
func TestStreamTableJoinGracePeriodBuffersStreamRecords(t *testing.T) {
	b := kstreams.NewStreamsBuilder()
	tbl := stringTable(b, "table", versionedAs[string, string]("versioned", time.Minute))
	s := kstreams.Stream(b, []string{"stream"}, kstreams.ConsumedWith[string, string](serde.String{}, serde.String{}))
	kstreams.StreamTableLeftJoin(s, tbl, func(_ string, v string, vo *string) string {
		if vo == nil {
			return v + "|null"
		}
		return v + "|" + *vo
	}, kstreams.Joined[string, string]{Name: "join"}.WithGracePeriod(10*time.Millisecond)).To("out")
	d := build(t, b, stringDefaults)
	steps := []struct {
		topic, k, v string
		ts          int64
	}{
		{"stream", "k", "s100", 100}, // buffered
		{"table", "k", "t95", 95},    // late, within the grace
		{"stream", "k", "s105", 105}, // buffered
		{"stream", "j", "s103", 103}, // buffered, out of order
		{"stream", "k", "s112", 112}, // evicts s100 (<= 102)
		{"stream", "k", "s90", 90},   // older than 112-10: joins at once
		{"stream", "k", "s120", 120}, // evicts s103, s105 (<= 110)
	}
	for _, p := range steps {
		if err := d.Pipe(p.topic, []byte(p.k), []byte(p.v), p.ts); err != nil {
			t.Fatal(err)
		}
	}
	check(t, "out", d.Records("out"), []kv{{"k", []byte("s100|t95"), 100}, {"k", []byte("s90|null"), 90},
		{"j", []byte("s103|null"), 103}, {"k", []byte("s105|t95"), 105}})
	// The buffer's changelog: each buffered record, then a tombstone for
	// each evicted one, under Kafka's time-first key.
	cl := d.Changelog("join-Buffer")
	if len(cl) != 8 || cl[0].Key[0] != 0 || cl[0].Key[8] != 100 || string(cl[0].Key[9:10]) != "k" || cl[4].Value != nil || string(cl[4].Key) != string(cl[0].Key) {
		t.Fatalf("buffer changelog: %+v", cl)
	}
	topo, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	if desc := topo.Describe().String(); !strings.Contains(desc, "stores: [versioned, join-Buffer]") {
		t.Errorf("describe() does not list the buffer with the join:\n%s", desc)
	}
}

// Kafka Streams' checks of a join's grace period against the table.
func TestStreamTableJoinGraceNeedsHistory(t *testing.T) {
	b := kstreams.NewStreamsBuilder()
	tbl := stringTable(b, "table", versionedAs[string, string]("versioned", time.Second))
	s := kstreams.Stream(b, []string{"stream"}, kstreams.ConsumedWith[string, string](serde.String{}, serde.String{}))
	kstreams.StreamTableJoin(s, tbl, func(_ string, v, vo string) string { return v + vo },
		kstreams.Joined[string, string]{}.WithGracePeriod(2*time.Second))
	if _, err := b.Build(); err == nil || !strings.Contains(err.Error(), "History retention must be at least grace period.") {
		t.Errorf("Build() = %v", err)
	}
}

// A processor's versioned store (Stores.versionedKeyValueStoreBuilder):
// puts in any order, each answered with its version's validTo, reads of
// the latest version and as of a time, a delete, and the changelog of
// every put with its version's timestamp.
func TestProcessorVersionedStore(t *testing.T) {
	s := serde.String{}
	var seen []string
	probe := kstreams.ProcessorFunc(func(ctx kstreams.ProcessorContext, r kstreams.Record) error {
		st, err := ctx.StateStore("prices")
		if err != nil {
			return err
		}
		vs := st.(*kstreams.VersionedKeyValueStore)
		if r.Value == "delete" {
			prev, err := vs.Delete(r.Key, r.Timestamp)
			if err != nil {
				return err
			}
			seen = append(seen, fmt.Sprintf("deleted %v", prev.Value))
			return nil
		}
		code, err := vs.Put(r.Key, r.Value, r.Timestamp)
		if err != nil {
			return err
		}
		latest, err := vs.Get(r.Key)
		if err != nil {
			return err
		}
		at, err := vs.GetAsOf(r.Key, 15)
		if err != nil {
			return err
		}
		seen = append(seen, fmt.Sprintf("%d latest=%v@%d at15=%v", code, latest.Value, latest.Timestamp, at.Value))
		return nil
	})
	topo := kstreams.NewTopology()
	err := errors.Join(topo.AddSource("source", kstreams.SourceSerdes[string, string](s, s), "in"),
		topo.AddProcessor("probe", probe.Supplier(), "source"),
		topo.AddStateStore(kstreams.VersionedKeyValueStoreBuilder[string, string](
			kstreams.PersistentVersionedKeyValueStore("prices", time.Minute, 10*time.Second), s, s), "probe"))
	if err != nil {
		t.Fatal(err)
	}
	d, err := kstreamstest.New(topo, kstreamstest.Config{ApplicationID: "app"})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	in := kstreamstest.NewInputTopic(d, "in", s, s)
	for _, p := range []struct {
		v  string
		ts int64
	}{{"a", 10}, {"c", 30}, {"b", 20}, {"delete", 20}} {
		if err := in.Pipe("k", p.v, p.ts); err != nil {
			t.Fatal(err)
		}
	}
	want := []string{"-1 latest=a@10 at15=a", "-1 latest=c@30 at15=a", "30 latest=c@30 at15=a", "deleted b"}
	if !slices.Equal(seen, want) {
		t.Errorf("the processor saw %q, want %q", seen, want)
	}
	cl := d.Changelog("prices")
	if len(cl) != 4 || cl[2].Timestamp != 20 || string(cl[2].Value) != "b" || cl[3].Value != nil || cl[3].Timestamp != 20 {
		t.Errorf("changelog: %+v", cl)
	}
}
