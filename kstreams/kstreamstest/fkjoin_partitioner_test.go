package kstreamstest_test

import (
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/kstreamstest"
	"github.com/stoatflow/stoatflow/kstreams/serde"
)

// javaPartition is Math.abs(s.hashCode()) % n, the partitioners of
// KTableKTableForeignKeyInnerJoinCustomPartitionerIntegrationTest.
func javaPartition(s string, n int) int32 {
	var h int32
	for _, u := range utf16.Encode([]rune(s)) {
		h = 31*h + int32(u)
	}
	if h < 0 {
		h = -h
	}
	return h % int32(n)
}

// keyB is that test's foreign-key extractor and the left key's partitioning
// key: what comes before the first '-'.
func keyB(s string) string {
	b, _, _ := strings.Cut(s, "-")
	return b
}

func singleton(p int32) ([]int32, bool) { return []int32{p}, true }

// fkPartitionedTopology is the custom-partitioner test's topology: table_1
// and table_2 repartitioned into 4 partitions ("a" by the foreign key part
// of the key, "b" by the key), to tables, inner-joined by foreign key with
// tj, materialized as INNER-store1, to output.
func fkPartitionedTopology(t *testing.T, tj kstreams.TableJoinedWith[string, string]) *kstreamstest.Driver {
	t.Helper()
	b := kstreams.NewStreamsBuilder()
	in := kstreams.ConsumedWith[string, string](serde.String{}, serde.String{})
	table1 := kstreams.Stream(b, []string{"table_1"}, in).Repartition(kstreams.Repartitioned[string, string]{Name: "a", NumberOfPartitions: 4,
		KeySerde: serde.String{}, ValueSerde: serde.String{},
		Partitioner: func(_ string, k, _ string, n int) ([]int32, bool) { return singleton(javaPartition(keyB(k), n)) }}).
		ToTable(kstreams.Named("table.a"))
	table2 := kstreams.Stream(b, []string{"table_2"}, in).Repartition(kstreams.Repartitioned[string, string]{Name: "b", NumberOfPartitions: 4,
		KeySerde: serde.String{}, ValueSerde: serde.String{},
		Partitioner: func(_ string, k, _ string, n int) ([]int32, bool) { return singleton(javaPartition(k, n)) }}).
		ToTable(kstreams.Named("table.b"))
	kstreams.TableForeignKeyJoin(table1, table2, func(v string) (string, bool) { return keyB(v), true },
		func(v1, v2 string) string { return "value1=" + v1 + ",value2=" + v2 }, tj,
		kstreams.Materialized[string, string]{Name: "INNER-store1", KeySerde: serde.String{}, ValueSerde: serde.String{}, CachingDisabled: true}).
		ToStream().To("output", kstreams.ProducedWith[string, string](serde.String{}, serde.String{}))
	topo, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	d, err := kstreamstest.New(topo, kstreamstest.Config{ApplicationID: "fk-partitioner", Partitions: 4})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

func pipeFK(t *testing.T, d *kstreamstest.Driver, topic string, kvs ...string) error {
	t.Helper()
	for i := 0; i+1 < len(kvs); i += 2 {
		if err := d.Pipe(topic, []byte(kvs[i]), []byte(kvs[i+1]), fkBase+int64(i)); err != nil {
			return err
		}
	}
	return nil
}

// byPartition groups a topic's records' keys by partition.
func byPartition(recs []kstreamstest.Record) map[int32][]string {
	out := map[int32][]string{}
	for _, r := range recs {
		out[r.Partition] = append(out[r.Partition], string(r.Key))
	}
	return out
}

// shouldInnerJoinMultiPartitionQueryable: with TableJoined.with(partitioner
// of the left key's foreign-key part, partitioner of the right key), both
// tables partitioned that way, every left row joins. The subscriptions go
// where the other partitioner puts their foreign key, the responses where
// the partitioner puts their left key.
func TestFKJoinTableJoinedPartitioners(t *testing.T) {
	d := fkPartitionedTopology(t, kstreams.TableJoinedWith[string, string]{
		Partitioner:      func(_ string, k string, _ any, n int) ([]int32, bool) { return singleton(javaPartition(keyB(k), n)) },
		OtherPartitioner: func(_ string, k string, _ any, n int) ([]int32, bool) { return singleton(javaPartition(k, n)) },
	})
	if err := pipeFK(t, d, "table_1", "ID123-1", "ID123-A1", "ID123-2", "ID123-A2", "ID123-3", "ID123-A3", "ID123-4", "ID123-A4",
		"Q7-1", "Q7-B1"); err != nil {
		t.Fatal(err)
	}
	if err := pipeFK(t, d, "table_2", "ID123", "BBB", "Q7", "CCC"); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, r := range d.Records("output") {
		got[string(r.Key)] = string(r.Value)
	}
	want := map[string]string{
		"ID123-1": "value1=ID123-A1,value2=BBB", "ID123-2": "value1=ID123-A2,value2=BBB",
		"ID123-3": "value1=ID123-A3,value2=BBB", "ID123-4": "value1=ID123-A4,value2=BBB",
		"Q7-1": "value1=Q7-B1,value2=CCC",
	}
	if len(got) != len(want) {
		t.Fatalf("output %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("output %s = %q, want %q", k, got[k], v)
		}
	}
	// The two foreign keys go to different partitions, so the placement
	// below says something.
	if javaPartition("ID123", 4) == javaPartition("Q7", 4) {
		t.Fatal("the test's foreign keys share a partition")
	}
	for topic, part := range map[string]func(string) int32{
		"fk-partitioner-KTABLE-FK-JOIN-SUBSCRIPTION-REGISTRATION-0000000012-topic": func(fk string) int32 { return javaPartition(fk, 4) },
		"fk-partitioner-KTABLE-FK-JOIN-SUBSCRIPTION-RESPONSE-0000000020-topic":     func(pk string) int32 { return javaPartition(keyB(pk), 4) },
	} {
		recs := d.Records(topic)
		if len(recs) == 0 {
			t.Fatalf("no records in %s; topics: %v", topic, d.Topics())
		}
		for p, keys := range byPartition(recs) {
			for _, k := range keys {
				if want := part(k); p != want {
					t.Errorf("%s: record of %s in partition %d, want %d", topic, k, p, want)
				}
			}
		}
	}
}

// The partitioner of the left key replaces the partition of the left row
// that the subscription carried: responses sent to a partition whose task
// does not hold the row are dropped there (the hash of no row does not
// match), as in Kafka Streams, where the partitioner must be the left
// table's own.
func TestFKJoinPartitionerPlacesResponses(t *testing.T) {
	d := fkPartitionedTopology(t, kstreams.TableJoinedWith[string, string]{
		Name:             "placed",
		Partitioner:      func(_ string, _ string, _ any, _ int) ([]int32, bool) { return singleton(3) },
		OtherPartitioner: func(_ string, k string, _ any, n int) ([]int32, bool) { return singleton(javaPartition(k, n)) },
	})
	if err := pipeFK(t, d, "table_2", "ID123", "BBB", "Q7", "CCC"); err != nil {
		t.Fatal(err)
	}
	if err := pipeFK(t, d, "table_1", "ID123-1", "ID123-A1", "Q7-1", "Q7-B1"); err != nil {
		t.Fatal(err)
	}
	resp := d.Records("fk-partitioner-placed-subscription-response-topic")
	if len(resp) != 2 {
		t.Fatalf("%d responses, want 2; topics %v", len(resp), d.Topics())
	}
	for _, r := range resp {
		if r.Partition != 3 {
			t.Errorf("response for %s in partition %d, want 3", r.Key, r.Partition)
		}
	}
	got := map[string]string{}
	for _, r := range d.Records("output") {
		got[string(r.Key)] = string(r.Value)
	}
	// Exactly the left row that lives in partition 3 joins.
	for _, k := range []string{"ID123-1", "Q7-1"} {
		_, joined := got[k]
		if lives := javaPartition(keyB(k), 4) == 3; joined != lives {
			t.Errorf("%s joined %v; its row is in partition %d", k, joined, javaPartition(keyB(k), 4))
		}
	}
}

// shouldThrowIllegalArgumentExceptionWhenCustomPartitionerReturnsMultiplePartitions:
// a foreign-key join's partitioner must choose one partition; several, or
// none, fail the record with Kafka Streams' message. ok false leaves the
// record to the default partitioner, the key's hash, not the left row's
// partition.
func TestFKJoinPartitionerMustChooseOnePartition(t *testing.T) {
	const msg = "The partitions returned by StreamPartitioner#partitions method when used for FK join should be a singleton set"
	other := func(_ string, k string, _ any, n int) ([]int32, bool) { return singleton(javaPartition(k, n)) }
	for name, p := range map[string]kstreams.StreamPartitioner[string, any]{
		"multi": func(string, string, any, int) ([]int32, bool) { return []int32{0, 1, 2}, true },
		"none":  func(string, string, any, int) ([]int32, bool) { return nil, true },
	} {
		for _, side := range []string{"partitioner", "other"} {
			tj := kstreams.TableJoinedWith[string, string]{Partitioner: p, OtherPartitioner: other}
			if side == "other" {
				tj = kstreams.TableJoinedWith[string, string]{OtherPartitioner: p}
			}
			d := fkPartitionedTopology(t, tj)
			err := pipeFK(t, d, "table_2", "ID123", "BBB")
			if err == nil {
				err = pipeFK(t, d, "table_1", "ID123-1", "ID123-A1")
			}
			if err == nil || !strings.Contains(err.Error(), msg) {
				t.Errorf("%s %s partitioner: error %v, want %q", name, side, err, msg)
			}
		}
	}
	// A repeated partition is one partition.
	d := fkPartitionedTopology(t, kstreams.TableJoinedWith[string, string]{
		OtherPartitioner: func(_ string, k string, _ any, n int) ([]int32, bool) {
			return []int32{javaPartition(k, n), javaPartition(k, n)}, true
		}})
	if err := pipeFK(t, d, "table_2", "ID123", "BBB"); err != nil {
		t.Fatal(err)
	}
	if err := pipeFK(t, d, "table_1", "ID123-1", "ID123-A1"); err != nil {
		t.Fatalf("a partitioner naming one partition twice: %v", err)
	}

	d = fkPartitionedTopology(t, kstreams.TableJoinedWith[string, string]{
		Partitioner:      func(string, string, any, int) ([]int32, bool) { return nil, false },
		OtherPartitioner: other,
	})
	if err := pipeFK(t, d, "table_2", "ID123", "BBB"); err != nil {
		t.Fatal(err)
	}
	keys := []string{"ID123-1", "ID123-2", "ID123-3", "ID123-4", "ID123-5", "ID123-6"}
	for _, k := range keys {
		if err := pipeFK(t, d, "table_1", k, "ID123-x"+k); err != nil {
			t.Fatal(err)
		}
	}
	resp := d.Records("fk-partitioner-KTABLE-FK-JOIN-SUBSCRIPTION-RESPONSE-0000000020-topic")
	if len(resp) != len(keys) {
		t.Fatalf("%d responses, want %d", len(resp), len(keys))
	}
	moved := false
	for _, r := range resp {
		if want := kstreams.DefaultPartition(r.Key, 4); r.Partition != want {
			t.Errorf("response for %s in partition %d, want the key's hash's %d", r.Key, r.Partition, want)
		}
		moved = moved || r.Partition != javaPartition("ID123", 4)
	}
	if !moved {
		t.Error("every response stayed in the left rows' partition: the test shows nothing")
	}
}
