package kstreamstest_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/examples/ttl"
	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/kstreamstest"
	"github.com/stoatflow/stoatflow/kstreams/serde"
)

func ttlDriver(t *testing.T) *kstreamstest.Driver {
	t.Helper()
	topo, err := ttl.Build(map[string]string{"input": "in", "wall": "wall", "output": "out"})
	if err != nil {
		t.Fatal(err)
	}
	s := serde.Erase[string](serde.String{})
	d, err := kstreamstest.New(topo, kstreamstest.Config{ApplicationID: "app", DefaultKeySerde: s, DefaultValueSerde: s,
		WallClockStart: time.UnixMilli(100_000)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = d.Close() })
	return d
}

func showTTL[V any](recs []kstreamstest.TestRecord[string, V]) string {
	var b strings.Builder
	for _, r := range recs {
		v := fmt.Sprint(r.Value)
		if r.ValueNull {
			v = "null"
		}
		fmt.Fprintf(&b, "%s=%s@%d ", r.Key, v, r.Timestamp)
	}
	return strings.TrimSpace(b.String())
}

// TestTTLOnStreamTime: the stream-time punctuation runs at the first
// record and then at each multiple of 10 s that stream time reaches; it
// deletes, while it iterates, the keys last seen more than 30 s before and
// forwards their tombstones stamped with the last sighting. Its deletes are
// changelogged at the punctuation's time, as Kafka Streams stamps what a
// punctuator writes.
func TestTTLOnStreamTime(t *testing.T) {
	d := ttlDriver(t)
	in := kstreamstest.NewInputTopic(d, "in", serde.String{}, serde.String{})
	for _, r := range []struct {
		key, value string
		ts         int64
	}{{"a", "x", 1000}, {"b", "x", 2000}, {"a", "x", 5000}, {"c", "x", 12000}, {"b", "", 13000}, {"d", "x", 40000}, {"e", "x", 55000}} {
		var err error
		if r.value == "" {
			err = in.PipeNullValue(r.key, r.ts)
		} else {
			err = in.Pipe(r.key, r.value, r.ts)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	out, err := kstreamstest.ReadOutput(d, "out", serde.String{}, serde.String{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := showTTL(out), "a=null@5000 c=null@12000"; got != want {
		t.Errorf("output %q, want %q", got, want)
	}
	log, err := kstreamstest.ReadOutput(d, "app-"+ttl.StreamStore+"-changelog", serde.String{}, serde.Long{})
	if err != nil {
		t.Fatal(err)
	}
	want := "a=1000@1000 b=2000@2000 a=5000@5000 c=12000@12000 b=null@13000 d=40000@40000 a=null@40000 e=55000@55000 c=null@55000"
	if got := showTTL(log); got != want {
		t.Errorf("changelog\n %s\nwant\n %s", got, want)
	}
}

// TestTTLOnTheWallClock: the wall-clock punctuation runs every 500 ms of
// the driver's clock, walks the store backwards and expires what was last
// seen more than a minute before the clock; records alone never expire
// anything.
func TestTTLOnTheWallClock(t *testing.T) {
	d := ttlDriver(t)
	in := kstreamstest.NewInputTopic(d, "wall", serde.String{}, serde.String{})
	for _, r := range []struct {
		key string
		ts  int64
	}{{"w1", 1000}, {"w2", 200_000}, {"w3", 2000}, {"w4", 3000}} {
		if err := in.Pipe(r.key, "x", r.ts); err != nil {
			t.Fatal(err)
		}
	}
	read := func() string {
		out, err := kstreamstest.ReadOutput(d, "out-wall", serde.String{}, serde.String{})
		if err != nil {
			t.Fatal(err)
		}
		return showTTL(out)
	}
	if got := read(); got != "" {
		t.Fatalf("output before the wall clock moved: %q", got)
	}
	if err := d.AdvanceWallClock(499 * time.Millisecond); err != nil {
		t.Fatal(err)
	}
	if got := read(); got != "" {
		t.Fatalf("output before the first punctuation: %q", got)
	}
	if err := d.AdvanceWallClock(time.Millisecond); err != nil {
		t.Fatal(err)
	}
	if got, want := read(), "w4=expired@3000 w3=expired@2000 w1=expired@1000"; got != want {
		t.Errorf("first punctuation: %q, want %q", got, want)
	}
	if err := d.AdvanceWallClock(200 * time.Second); err != nil {
		t.Fatal(err)
	}
	if got, want := read(), "w2=expired@200000"; got != want {
		t.Errorf("after 200 s: %q, want %q", got, want)
	}
}

// TestKeyValueStoreScans: ranges include both ends, nil bounds are open, a
// from after to gives nothing, prefix scans take their own serde, and
// PutIfAbsent writes only an absent key.
func TestKeyValueStoreScans(t *testing.T) {
	var results []string
	scan := func(what string, it *kstreams.KeyValueIterator, err error) {
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		defer it.Close()
		var keys []string
		for it.Next() {
			keys = append(keys, fmt.Sprintf("%v=%v", it.Entry().Key, it.Entry().Value))
		}
		if err := it.Err(); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		results = append(results, what+":"+strings.Join(keys, ","))
	}
	probe := kstreams.ProcessorFunc(func(ctx kstreams.ProcessorContext, r kstreams.Record) error {
		st, err := ctx.StateStore("kv")
		if err != nil {
			return err
		}
		kv := st.(*kstreams.KeyValueStore)
		for _, k := range []string{"b", "a2", "a1", "c"} {
			if err := kv.Put(k, int64(len(results))); err != nil {
				return err
			}
		}
		old, err := kv.PutIfAbsent("a1", int64(99))
		results = append(results, fmt.Sprintf("putIfAbsent(a1):%v,%v", old, err))
		old, err = kv.PutIfAbsent("d", int64(7))
		results = append(results, fmt.Sprintf("putIfAbsent(d):%v,%v", old, err))
		it, err := kv.Range("a2", "c")
		scan("range(a2,c)", it, err)
		it, err = kv.ReverseRange("a2", "c")
		scan("reverseRange(a2,c)", it, err)
		it, err = kv.Range(nil, "b")
		scan("range(nil,b)", it, err)
		it, err = kv.Range("c", "a1")
		scan("range(c,a1)", it, err)
		it, err = kv.PrefixScan("a", serde.Erase[string](serde.String{}))
		scan("prefixScan(a)", it, err)
		it, err = kv.All()
		scan("all", it, err)
		it, err = kv.ReverseAll()
		scan("reverseAll", it, err)
		return nil
	})
	topo := kstreams.NewTopology()
	s := kstreams.SourceSerdes[string, string](serde.String{}, serde.String{})
	if err := errors.Join(topo.AddSource("source", s, "in"), topo.AddProcessor("probe", probe.Supplier(), "source"),
		topo.AddStateStore(kstreams.KeyValueStoreBuilder[string, int64]("kv", serde.String{}, serde.Long{}), "probe")); err != nil {
		t.Fatal(err)
	}
	d, err := kstreamstest.New(topo, kstreamstest.Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if err := kstreamstest.NewInputTopic(d, "in", serde.String{}, serde.String{}).Pipe("k", "v", 1); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"putIfAbsent(a1):0,<nil>",
		"putIfAbsent(d):<nil>,<nil>",
		"range(a2,c):a2=0,b=0,c=0",
		"reverseRange(a2,c):c=0,b=0,a2=0",
		"range(nil,b):a1=0,a2=0,b=0",
		"range(c,a1):",
		"prefixScan(a):a1=0,a2=0",
		"all:a1=0,a2=0,b=0,c=0,d=7",
		"reverseAll:d=7,c=0,b=0,a2=0,a1=0",
	}
	if strings.Join(results, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(results, "\n"), strings.Join(want, "\n"))
	}
}

// TestTimestampedStoreScansMergeTheCache: a caching timestamped store's
// scans see the cache's writes not yet flushed over the store's entries (a
// newer value wins, a cached deletion hides the key, a new key appears), in
// key order both ways, as Kafka's caching store merges them.
func TestTimestampedStoreScansMergeTheCache(t *testing.T) {
	var results []string
	scan := func(what string, it *kstreams.KeyValueIterator, err error) {
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		defer it.Close()
		var got []string
		for it.Next() {
			vt := it.Entry().Value.(kstreams.ValueAndTimestamp)
			got = append(got, fmt.Sprintf("%v=%v@%d", it.Entry().Key, vt.Value, vt.Timestamp))
		}
		if err := it.Err(); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		results = append(results, what+":"+strings.Join(got, ","))
	}
	probe := kstreams.ProcessorFunc(func(ctx kstreams.ProcessorContext, r kstreams.Record) error {
		st, err := ctx.StateStore("ts")
		if err != nil {
			return err
		}
		kv := st.(*kstreams.TimestampedKeyValueStore)
		if r.Value == "fill" {
			return errors.Join(kv.Put("a", "a1", 1), kv.Put("b", "b1", 2), kv.Put("c", "c1", 3))
		}
		if err := errors.Join(kv.Put("b", "b2", 4), kv.Put("c", nil, 5), kv.Put("d", "d2", 6)); err != nil {
			return err
		}
		it, err := kv.All()
		scan("all", it, err)
		it, err = kv.ReverseAll()
		scan("reverseAll", it, err)
		it, err = kv.Range("b", "c")
		scan("range(b,c)", it, err)
		it, err = kv.ReverseRange(nil, "b")
		scan("reverseRange(nil,b)", it, err)
		it, err = kv.PrefixScan("d", serde.Erase[string](serde.String{}))
		scan("prefixScan(d)", it, err)
		return nil
	})
	topo := kstreams.NewTopology()
	s := serde.Erase[string](serde.String{})
	if err := errors.Join(topo.AddSource("source", kstreams.SourceOptions{KeySerde: s, ValueSerde: s}, "in"),
		topo.AddProcessor("probe", probe.Supplier(), "source"),
		topo.AddStateStore(kstreams.StoreBuilder{Name: "ts", Kind: kstreams.KeyValueStoreKind, Timestamped: true, Caching: true,
			KeySerde: s, ValueSerde: s}, "probe")); err != nil {
		t.Fatal(err)
	}
	d, err := kstreamstest.New(topo, kstreamstest.Config{Caching: true})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	in := kstreamstest.NewInputTopic(d, "in", serde.String{}, serde.String{})
	if err := errors.Join(in.Pipe("k", "fill", 1), in.Pipe("k", "scan", 2)); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"all:a=a1@1,b=b2@4,d=d2@6",
		"reverseAll:d=d2@6,b=b2@4,a=a1@1",
		"range(b,c):b=b2@4",
		"reverseRange(nil,b):b=b2@4,a=a1@1",
		"prefixScan(d):d=d2@6",
	}
	if strings.Join(results, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(results, "\n"), strings.Join(want, "\n"))
	}
	if n := len(d.Changelog("ts")); n != 6 {
		t.Errorf("%d changelog records, want 6 (three writes flushed after each record)", n)
	}
}
