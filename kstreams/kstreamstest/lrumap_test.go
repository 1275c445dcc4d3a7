package kstreamstest_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/kstreamstest"
	"github.com/stoatflow/stoatflow/kstreams/serde"
)

// lruCommands runs the commands of each record's value (";"-separated,
// fields separated by spaces) on the store "lru" and forwards their
// results, ";"-separated: put k v, nul k (a null put), putall k v k v...
// (a value "null" is a null),
// get k, del k, pia k v (putIfAbsent), all, rall (reverseAll), range a b,
// rrange a b, prefix p, n (approximateNumEntries). A scan's result is
// [k=v,...].
func lruCommands(ctx kstreams.ProcessorContext, r kstreams.Record) error {
	st, err := ctx.StateStore("lru")
	if err != nil {
		return err
	}
	kv := st.(*kstreams.KeyValueStore)
	show := func(v any, ok bool) string {
		if !ok || v == nil {
			return "null"
		}
		return v.(string)
	}
	scan := func(it *kstreams.KeyValueIterator, err error) (string, error) {
		if err != nil {
			return "", err
		}
		defer it.Close()
		var es []string
		for it.Next() {
			es = append(es, fmt.Sprintf("%v=%v", it.Entry().Key, it.Entry().Value))
		}
		return "[" + strings.Join(es, ",") + "]", it.Err()
	}
	var out []string
	for _, cmd := range strings.Split(r.Value.(string), ";") {
		f := strings.Fields(cmd)
		var res string
		switch f[0] {
		case "put":
			res, err = "ok", kv.Put(f[1], f[2])
		case "nul":
			res, err = "ok", kv.Put(f[1], nil)
		case "putall":
			var es []kstreams.StoreEntry
			for i := 1; i+1 < len(f); i += 2 {
				var v any = f[i+1]
				if v == "null" {
					v = nil
				}
				es = append(es, kstreams.StoreEntry{Key: f[i], Value: v})
			}
			res, err = "ok", kv.PutAll(es)
		case "get":
			var v any
			var ok bool
			v, ok, err = kv.Get(f[1])
			res = show(v, ok)
		case "del":
			var v any
			var ok bool
			if v, ok, err = kv.Get(f[1]); err == nil {
				err = kv.Delete(f[1])
			}
			res = show(v, ok)
		case "pia":
			var old any
			old, err = kv.PutIfAbsent(f[1], f[2])
			res = show(old, old != nil)
		case "all":
			res, err = scan(kv.All())
		case "rall":
			res, err = scan(kv.ReverseAll())
		case "range":
			res, err = scan(kv.Range(f[1], f[2]))
		case "rrange":
			res, err = scan(kv.ReverseRange(f[1], f[2]))
		case "prefix":
			res, err = scan(kv.PrefixScan(f[1], serde.Erase[string](serde.String{})))
		case "n":
			var n int64
			n, err = kv.ApproximateNumEntries()
			res = fmt.Sprint(n)
		default:
			return fmt.Errorf("unknown command %q", cmd)
		}
		if err != nil {
			return err
		}
		out = append(out, res)
	}
	return ctx.Forward(kstreams.Record{Key: r.Key, Value: strings.Join(out, ";"), Timestamp: r.Timestamp})
}

// lruDriver runs lruCommands over a store built by sb.
func lruDriver(t *testing.T, sb kstreams.StoreBuilder, cfg kstreamstest.Config) *kstreamstest.Driver {
	t.Helper()
	s := serde.String{}
	topo := kstreams.NewTopology()
	if err := errors.Join(topo.AddSource("source", kstreams.SourceSerdes[string, string](s, s), "in"),
		topo.AddProcessor("commands", kstreams.ProcessorFunc(lruCommands).Supplier(), "source"),
		topo.AddStateStore(sb, "commands"),
		topo.AddSink("sink", "out", kstreams.SinkSerdes[string, string](s, s), "commands")); err != nil {
		t.Fatal(err)
	}
	cfg.ApplicationID = "app"
	d, err := kstreamstest.New(topo, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = d.Close() })
	return d
}

// runLRU pipes each command line as a record of key "k" at timestamps
// 100, 200, ... and returns the results, one line per record, and the
// store's changelog, one key=value@timestamp per record.
func runLRU(t *testing.T, d *kstreamstest.Driver, lines ...string) (results, changelog []string) {
	t.Helper()
	in := kstreamstest.NewInputTopic(d, "in", serde.String{}, serde.String{})
	for i, l := range lines {
		if err := in.Pipe("k", l, int64(i+1)*100); err != nil {
			t.Fatal(err)
		}
	}
	for _, r := range d.ReadOutput("out") {
		results = append(results, string(r.Value))
	}
	for _, r := range d.Changelog("lru") {
		v := "null"
		if r.Value != nil {
			v = string(r.Value)
		}
		changelog = append(changelog, fmt.Sprintf("%s=%s@%d", r.Key, v, r.Timestamp))
	}
	return results, changelog
}

func lruBuilder(max int) kstreams.StoreBuilder {
	return kstreams.KeyValueStoreBuilder[string, string]("lru", serde.String{}, serde.String{}).InMemoryLRU(max)
}

func sameLines(t *testing.T, what string, got, want []string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("%s:\n got %q\nwant %q", what, got, want)
	}
}

// TestLRUMapEvictsTheEldestAndLogsItsTombstone ports Kafka's
// InMemoryLRUCacheStoreTest.testEvict: in a store of ten, the eleventh
// key evicts the first, whose tombstone is logged before the put, with the
// record's timestamp; a delete frees a place; a key written again is used.
func TestLRUMapEvictsTheEldestAndLogsItsTombstone(t *testing.T) {
	d := lruDriver(t, lruBuilder(10), kstreamstest.Config{})
	var puts []string
	for i, w := range []string{"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"} {
		puts = append(puts, fmt.Sprintf("put %d %s", i, w))
	}
	results, changelog := runLRU(t, d, strings.Join(puts, ";")+";n",
		"put 10 ten;n", "del 1;n", "put 11 eleven;n", "put 2 two-again;n", "put 12 twelve;n;get 3;get 4")
	sameLines(t, "results", results, []string{
		"ok;ok;ok;ok;ok;ok;ok;ok;ok;ok;10",
		"ok;10",
		"one;9",
		"ok;10",
		"ok;10",
		"ok;10;null;four",
	})
	var tombstones []string
	for _, c := range changelog {
		if strings.Contains(c, "=null@") {
			tombstones = append(tombstones, c)
		}
	}
	sameLines(t, "tombstones", tombstones, []string{"0=null@200", "1=null@300", "3=null@600"})
	sameLines(t, "changelog tail", changelog[10:], []string{
		"0=null@200", "10=ten@200", "1=null@300", "11=eleven@400", "2=two-again@500", "3=null@600", "12=twelve@600"})
}

// TestLRUMapPutAllAndUpdates ports InMemoryLRUCacheStoreTest's
// shouldPutAllKeyValuePairs and shouldUpdateValuesForExistingKeysOnPutAll.
func TestLRUMapPutAllAndUpdates(t *testing.T) {
	d := lruDriver(t, lruBuilder(10), kstreamstest.Config{})
	results, _ := runLRU(t, d, "putall 1 1 2 2 3 3;n;get 1;get 2;get 3",
		"putall 1 ONE 2 TWO 3 THREE;n;get 1;get 2;get 3")
	sameLines(t, "results", results, []string{"ok;3;1;2;3", "ok;3;ONE;TWO;THREE"})
}

// TestLRUMapPutAllLogsEvictionsFirst: Kafka's changelogging store writes
// every entry of a putAll, then logs them, so the tombstones of the keys
// the writes evicted come before all of the entries' records; behind the
// record cache the entries are flushed one put at a time. The expectations
// are Kafka Streams 4.4's TopologyTestDriver's.
func TestLRUMapPutAllLogsEvictionsFirst(t *testing.T) {
	lines := []string{"putall a 1 b 2 c 3 d 4;all", "putall e 5 c null a 6;all;n"}
	for _, c := range []struct {
		caching            bool
		results, changelog []string
	}{
		{false, []string{"ok;[c=3,d=4]", "ok;[a=6,e=5];2"},
			[]string{"a=null@100", "b=null@100", "a=1@100", "b=2@100", "c=3@100", "d=4@100",
				"c=null@200", "d=null@200", "e=5@200", "c=null@200", "a=6@200"}},
		{true, []string{"ok;[a=1,b=2,c=3,d=4]", "ok;[a=6,b=2,d=4,e=5];2"},
			[]string{"a=1@100", "b=2@100", "a=null@100", "c=3@100", "b=null@100", "d=4@100",
				"c=null@200", "e=5@200", "c=null@200", "d=null@200", "a=6@200"}},
	} {
		t.Run(fmt.Sprintf("caching=%v", c.caching), func(t *testing.T) {
			sb := lruBuilder(2)
			if c.caching {
				sb = sb.WithCachingEnabled()
			}
			results, changelog := runLRU(t, lruDriver(t, sb, kstreamstest.Config{Caching: true}), lines...)
			sameLines(t, "results", results, c.results)
			sameLines(t, "changelog", changelog, c.changelog)
		})
	}
}

// TestLRUMapUsesAndScans: a get that finds its key and a putIfAbsent of a
// present key use it; a get of an absent key and scans do not. A null put
// and a delete are logged as tombstones, a delete of an absent key too.
// The expected lines are what Kafka Streams 4.4's TopologyTestDriver gives
// the same topology.
func TestLRUMapUsesAndScans(t *testing.T) {
	d := lruDriver(t, lruBuilder(3), kstreamstest.Config{})
	results, changelog := runLRU(t, d,
		"put a 1;put b 2;put c 3;get a;put d 4;all",
		"pia c 9;all;range a c;rrange a d;prefix d;rall;put e 5;all",
		"get x;put f 6;all",
		"nul c;put g 7;all;n",
		"del zz;pia zz 8;all",
		"put a 1;put b 2;put c 3;put d 4;n",
	)
	sameLines(t, "results", results, []string{
		"ok;ok;ok;1;ok;[a=1,c=3,d=4]",
		"3;[a=1,c=3,d=4];[a=1,c=3];[d=4,c=3,a=1];[d=4];[d=4,c=3,a=1];ok;[c=3,d=4,e=5]",
		"null;ok;[c=3,e=5,f=6]",
		"ok;ok;[e=5,f=6,g=7];3",
		"null;null;[f=6,g=7,zz=8]",
		"ok;ok;ok;ok;3",
	})
	sameLines(t, "changelog", changelog, []string{
		"a=1@100", "b=2@100", "c=3@100", "b=null@100", "d=4@100",
		"a=null@200", "e=5@200",
		"d=null@300", "f=6@300",
		"c=null@400", "g=7@400",
		"zz=null@500", "e=null@500", "zz=8@500",
		"f=null@600", "a=1@600", "g=null@600", "b=2@600", "zz=null@600", "c=3@600", "a=null@600", "d=4@600",
	})
}

// TestLRUMapOfZeroEntries: every put evicts the key it put, whose
// tombstone comes before the put's record.
func TestLRUMapOfZeroEntries(t *testing.T) {
	d := lruDriver(t, lruBuilder(0), kstreamstest.Config{})
	results, changelog := runLRU(t, d, "put a 1;get a;n;all")
	sameLines(t, "results", results, []string{"ok;null;0;[]"})
	sameLines(t, "changelog", changelog, []string{"a=null@100", "a=1@100"})
}

// TestLRUMapUnderTheRecordCache: with caching enabled, Kafka wraps the LRU
// map in its caching store. Writes reach the map when the cache is flushed
// (after each record here, as TopologyTestDriver commits), in the order of
// their last writes, so evictions and their tombstones happen then, with
// the timestamp of the record that wrote the entry; reads the cache
// answers do not use the key in the map, and an entry the map evicted is
// still read from the cache. Without the cache the same input evicts
// other keys. Every expectation is Kafka Streams 4.4's
// TopologyTestDriver's.
func TestLRUMapUnderTheRecordCache(t *testing.T) {
	lines := []string{
		"put a 1;put b 2;put c 3;get a",
		"get a;get b;put d 4;all",
		"get c;put e 5;all;n",
	}
	for _, c := range []struct {
		caching            bool
		lines              []string
		results, changelog []string
	}{
		{false, lines,
			[]string{"ok;ok;ok;null", "null;2;ok;[b=2,d=4]", "null;ok;[d=4,e=5];2"},
			[]string{"a=1@100", "b=2@100", "a=null@100", "c=3@100", "c=null@200", "d=4@200", "b=null@300", "e=5@300"}},
		{true, lines,
			[]string{"ok;ok;ok;1", "1;2;ok;[a=1,b=2,c=3,d=4]", "3;ok;[a=1,b=2,c=3,d=4,e=5];2"},
			[]string{"a=1@100", "b=2@100", "a=null@100", "c=3@100", "b=null@200", "d=4@200", "c=null@300", "e=5@300"}},
		// A deletion waits in the cache too; a null put of an absent key is
		// logged when it is flushed.
		{true, []string{"put a 1;put b 2", "get a;del b;put c 3;all;n", "put d 4;nul zz;all;n"},
			[]string{"ok;ok", "1;2;ok;[a=1,c=3];2", "ok;ok;[a=1,c=3,d=4];2"},
			[]string{"a=1@100", "b=2@100", "b=null@200", "c=3@200", "a=null@300", "d=4@300", "zz=null@300"}},
	} {
		t.Run(fmt.Sprintf("caching=%v/%s", c.caching, c.lines[0]), func(t *testing.T) {
			sb := lruBuilder(2)
			if c.caching {
				sb = sb.WithCachingEnabled()
			}
			results, changelog := runLRU(t, lruDriver(t, sb, kstreamstest.Config{Caching: true}), c.lines...)
			sameLines(t, "results", results, c.results)
			sameLines(t, "changelog", changelog, c.changelog)
		})
	}
}

// TestLRUMapRejectsWhatKafkaRejects: a negative size fails when the store
// is added, with Stores.lruMap's message; an LRU map backs neither a
// timestamped store nor a global store.
func TestLRUMapRejectsWhatKafkaRejects(t *testing.T) {
	s := serde.String{}
	if err := kstreams.NewTopology().AddStateStore(lruBuilder(-1)); err == nil || err.Error() != "maxCacheSize cannot be negative" {
		t.Errorf("negative size: %v", err)
	}
	ts := kstreams.TimestampedKeyValueStoreBuilder[string, string]("lru", s, s).InMemoryLRU(3)
	if err := kstreams.NewTopology().AddStateStore(ts); !errors.Is(err, kstreams.ErrInvalidTopology) {
		t.Errorf("timestamped LRU map: %v, want ErrInvalidTopology", err)
	}
	noop := kstreams.ProcessorFunc(func(kstreams.ProcessorContext, kstreams.Record) error { return nil })
	err := kstreams.NewTopology().AddGlobalStore(lruBuilder(3).WithLoggingDisabled(), "gsource", kstreams.SourceSerdes[string, string](s, s),
		"gtopic", "gproc", noop.Supplier())
	if !errors.Is(err, kstreams.ErrInvalidTopology) {
		t.Errorf("global LRU map: %v, want ErrInvalidTopology", err)
	}
	// InMemory after InMemoryLRU is Stores.inMemoryKeyValueStore again.
	if err := kstreams.NewTopology().AddStateStore(lruBuilder(-1).InMemory()); err != nil {
		t.Errorf("InMemory() after InMemoryLRU(-1): %v", err)
	}
}

// TestLRUMapMatchesKafkaStreams44 runs the command scripts of
// testdata/jvmcapture/LruMapSim.java, which Kafka Streams 4.4's
// TopologyTestDriver ran on Stores.lruMap, and requires the same results
// and changelogs (lrumap.sim.txt there).
func TestLRUMapMatchesKafkaStreams44(t *testing.T) {
	want, err := os.ReadFile(filepath.Join("..", "testdata", "jvmcapture", "lrumap.sim.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var puts []string
	for i, w := range []string{"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"} {
		puts = append(puts, fmt.Sprintf("put %d %s", i, w))
	}
	cache := []string{"put a 1;put b 2;put c 3;get a", "get a;get b;put d 4;all", "get c;put e 5;all;n"}
	putAll := []string{"putall a 1 b 2 c 3 d 4;all", "putall e 5 c null a 6;all;n"}
	var got strings.Builder
	for _, c := range []struct {
		name    string
		max     int
		caching bool
		lines   []string
	}{
		{"evict", 10, false, []string{strings.Join(puts, ";") + ";n", "put 10 ten;n", "del 1;n", "put 11 eleven;n",
			"put 2 two-again;n", "put 12 twelve;n;get 3;get 4"}},
		{"putall", 10, false, []string{"putall 1 1 2 2 3 3;n;get 1;get 2;get 3", "putall 1 ONE 2 TWO 3 THREE;n;get 1;get 2;get 3"}},
		{"uses", 3, false, []string{
			"put a 1;put b 2;put c 3;get a;put d 4;all",
			"pia c 9;all;range a c;rrange a d;prefix d;rall;put e 5;all",
			"get x;put f 6;all",
			"nul c;put g 7;all;n",
			"del zz;pia zz 8;all",
			"put a 1;put b 2;put c 3;put d 4;n"}},
		{"zero", 0, false, []string{"put a 1;get a;n;all"}},
		{"cache", 2, false, cache},
		{"cache", 2, true, cache},
		{"cache-delete", 2, true, []string{"put a 1;put b 2", "get a;del b;put c 3;all;n", "put d 4;nul zz;all;n"}},
		{"putall-evict", 2, false, putAll},
		{"putall-evict", 2, true, putAll},
	} {
		sb := lruBuilder(c.max)
		if c.caching {
			sb = sb.WithCachingEnabled()
		}
		results, changelog := runLRU(t, lruDriver(t, sb, kstreamstest.Config{Caching: true}), c.lines...)
		fmt.Fprintf(&got, "== %s max=%d caching=%v\n", c.name, c.max, c.caching)
		for _, r := range results {
			fmt.Fprintf(&got, "R %s\n", r)
		}
		for _, r := range changelog {
			fmt.Fprintf(&got, "C %s\n", r)
		}
	}
	if got.String() != string(want) {
		t.Errorf("StoatFlow:\n%s\nKafka Streams 4.4:\n%s", got.String(), want)
	}
}
