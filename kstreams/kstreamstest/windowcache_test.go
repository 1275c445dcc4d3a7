package kstreamstest_test

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/internal/storeformat"
	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/kstreamstest"
	"github.com/stoatflow/stoatflow/kstreams/serde"
	"github.com/stoatflow/stoatflow/state"
)

// windowCommands runs the commands of each record's value (";"-separated,
// fields separated by spaces) on the plain window store "win" and forwards
// their results, ";"-separated: put k v start, nul k start (a null put),
// get k start (fetch), range k from to (fetch(key, from, to), each window
// as start=value) and all from to (fetchAll, each window as
// key@start=value). The Java twin is Commands in
// testdata/jvmcapture/WindowCacheSim.java.
func windowCommands(ctx kstreams.ProcessorContext, r kstreams.Record) error {
	st, err := ctx.StateStore("win")
	if err != nil {
		return err
	}
	ws := st.(*kstreams.WindowStore)
	num := func(s string) int64 {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			panic(err)
		}
		return n
	}
	var out []string
	for _, cmd := range strings.Split(r.Value.(string), ";") {
		f := strings.Fields(cmd)
		var res string
		switch f[0] {
		case "put":
			res, err = "ok", ws.Put(f[1], f[2], num(f[3]))
		case "nul":
			res, err = "ok", ws.Put(f[1], nil, num(f[2]))
		case "get":
			var v any
			var ok bool
			v, ok, err = ws.Fetch(f[1], num(f[2]))
			res = "null"
			if ok {
				res = v.(string)
			}
		case "range":
			var es []string
			err = ws.FetchRange(f[1], num(f[2]), num(f[3]), func(start int64, v any) error {
				es = append(es, fmt.Sprintf("%d=%v", start, v))
				return nil
			})
			res = "[" + strings.Join(es, ",") + "]"
		case "all":
			var es []string
			err = ws.FetchAll(num(f[1]), num(f[2]), func(k any, start int64, v any) error {
				es = append(es, fmt.Sprintf("%v@%d=%v", k, start, v))
				return nil
			})
			res = "[" + strings.Join(es, ",") + "]"
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

// windowCacheBuilder is WindowCacheSim's store: 2 min retention, 10 s
// windows.
func windowCacheBuilder(inMemory, dups, caching bool) kstreams.StoreBuilder {
	s := serde.String{}
	sb := kstreams.WindowStoreBuilder[string, string]("win", 2*time.Minute, 10*time.Second, dups, s, s)
	if inMemory {
		sb = sb.InMemory()
	}
	if caching {
		sb = sb.WithCachingEnabled()
	}
	return sb
}

// windowDriver runs windowCommands over a store built by sb.
func windowDriver(t *testing.T, sb kstreams.StoreBuilder, cfg kstreamstest.Config) *kstreamstest.Driver {
	t.Helper()
	s := serde.String{}
	topo := kstreams.NewTopology()
	if err := errors.Join(topo.AddSource("source", kstreams.SourceSerdes[string, string](s, s), "in"),
		topo.AddProcessor("commands", kstreams.ProcessorFunc(windowCommands).Supplier(), "source"),
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

// runWindow pipes each line, "timestamp|commands", as a record of key "k"
// and returns the results, one line per record, and the store's changelog,
// one key@start#seq=value@timestamp per record.
func runWindow(t *testing.T, d *kstreamstest.Driver, lines ...string) (results, changelog []string) {
	t.Helper()
	in := kstreamstest.NewInputTopic(d, "in", serde.String{}, serde.String{})
	for _, l := range lines {
		ts, cmds, _ := strings.Cut(l, "|")
		n, err := strconv.ParseInt(ts, 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		if err := in.Pipe("k", cmds, n); err != nil {
			t.Fatal(err)
		}
	}
	for _, r := range d.ReadOutput("out") {
		results = append(results, string(r.Value))
	}
	for _, r := range d.Changelog("win") {
		key, start, seq, err := storeformat.SplitWindowKey(r.Key)
		if err != nil {
			t.Fatal(err)
		}
		v := "null"
		if r.Value != nil {
			v = string(r.Value)
		}
		changelog = append(changelog, fmt.Sprintf("%s@%d#%d=%s@%d", key, start, seq, v, r.Timestamp))
	}
	return results, changelog
}

// windowCacheScripts are WindowCacheSim.java's scenarios, in its order.
func windowCacheScripts() []struct {
	name                    string
	inMemory, dups, caching bool
	lines                   []string
} {
	basic := []string{
		"1000|put a 1 0;put a 2 0;get a 0;put b 3 0;nul c 0;put d 4 10000;nul d 10000;get d 10000;range a 0 100000;all 0 100000",
		"2000|put a 5 0;nul b 0;get b 0;range b 0 0;put aa 6 0;put a 7 70000;put b 8 65000;all 0 100000;range a 0 100000",
		"3000|put a 9 200000;get a 0;get a 70000;range a 0 300000;put z 1 1000;get z 1000;range z 0 300000;all 0 300000",
		"4000|get a 0;all 0 300000;put b 10 190000;nul a 70000;range a 0 300000;all 60000 300000",
	}
	max := strconv.FormatInt(1<<63-1, 10)
	exact := []string{
		"1000|put a 0001 0;put aa 0002 0;put a 0003 1;put aa 0004 1;put a 0005 60000;range a 0 " + max + ";range aa 0 5;all 0 " + max,
		"2000|range a 0 " + max + ";all 0 " + max + ";put a 0006 1;range a 1 1;get a 1",
	}
	type script = struct {
		name                    string
		inMemory, dups, caching bool
		lines                   []string
	}
	return []script{
		{"basic", false, false, false, basic},
		{"basic", false, false, true, basic},
		{"basic", true, false, false, basic},
		{"basic", true, false, true, basic},
		{"exact", false, false, false, exact},
		{"exact", false, false, true, exact},
		{"order", false, false, true, []string{"1000|put a 1 0;put b 2 0;put a 3 0;nul c 0;put b 4 0;all 0 0",
			"2000|put b 5 0;nul a 0;put a 6 0;nul c 0;all 0 0"}},
		{"dups", false, true, true, []string{"1000|put a 1 0;put a 2 0;nul a 0;range a 0 0;all 0 0", "2000|put a 3 0;range a 0 0"}},
	}
}

// TestPlainWindowStoreCacheMatchesKafkaStreams44 runs the command scripts
// of testdata/jvmcapture/WindowCacheSim.java, which Kafka Streams 4.4's
// TopologyTestDriver ran on Stores.windowStoreBuilder over persistent and
// in-memory window stores, with and without withCachingEnabled(), and
// requires the same results and changelogs (windowcache.sim.txt there).
// The driver commits, and so flushes the cache, after each record, as
// TopologyTestDriver does. What the scripts show:
//   - cached puts to one window within a record reach the changelog once,
//     with the last value, in the order of the last puts; a null put of a
//     window the store never had is logged as a tombstone;
//   - fetch, fetch(key, from, to) and fetchAll read the cache over the
//     store, and a cached deletion hides the store's window;
//   - a put older than the retention is dropped by the store and logged,
//     and with the cache it is still read from the cache after the flush,
//     as are windows the store has since expired;
//   - fetchAll orders a persistent store's windows by segment (1 min here),
//     then key and start, and an in-memory store's by start, then key;
//   - a store retaining duplicates is built without its cache.
func TestPlainWindowStoreCacheMatchesKafkaStreams44(t *testing.T) {
	want, err := os.ReadFile(filepath.Join("..", "testdata", "jvmcapture", "windowcache.sim.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var got strings.Builder
	for _, c := range windowCacheScripts() {
		d := windowDriver(t, windowCacheBuilder(c.inMemory, c.dups, c.caching), kstreamstest.Config{Caching: true})
		results, changelog := runWindow(t, d, c.lines...)
		fmt.Fprintf(&got, "== %s inMemory=%v dups=%v caching=%v\n", c.name, c.inMemory, c.dups, c.caching)
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

// TestPlainWindowStoreCacheFlushesWhatItEvicts ports Kafka's
// CachingPersistentWindowStoreTest.shouldFlushEvictedItemsIntoUnderlyingStore
// and shouldIterateCacheAndStore: when the cache runs out of room, it
// writes the dirty windows to the store and its changelog (the evicted one
// first, each with the timestamp of the record that put it) before the
// commit, and reads then merge the store's windows with the cache's. The
// cache's size estimates are not Kafka's, so the evictions need not come
// at the same puts as there.
func TestPlainWindowStoreCacheFlushesWhatItEvicts(t *testing.T) {
	// Room for about two windows.
	d := windowDriver(t, windowCacheBuilder(false, false, true), kstreamstest.Config{Caching: true, CacheMaxBytes: 160})
	results, changelog := runWindow(t, d,
		"1000|put a 1 0;put b 2 0;put c 3 0;put d 4 10000",
		"2000|range a 0 10000;range d 0 10000;nul a 0;get a 0;all 0 10000")
	sameLines(t, "results", results, []string{
		"ok;ok;ok;ok",
		"[0=1];[10000=4];ok;null;[b@0=2,c@0=3,d@10000=4]",
	})
	// The third put evicts a, which flushes every written window, a first;
	// the fourth evicts b, clean by then, and d waits for the commit. In
	// the second record a is read from the store, d from the cache, and
	// a's cached deletion hides the store's a until the second commit.
	sameLines(t, "changelog", changelog, []string{
		"a@0#0=1@1000", "b@0#0=2@1000", "c@0#0=3@1000", "d@10000#0=4@1000", "a@0#0=null@2000",
	})
}

// collector is a RecordCollector that keeps what a task sends.
type collector []kstreams.ProducerRecord

func (c *collector) Send(r kstreams.ProducerRecord) error {
	*c = append(*c, r)
	return nil
}

// TestPlainWindowStoreCacheLogsEachWindowWithItsPutsTimestamp: windows put
// by several records and flushed together (as at a commit every few
// records on a broker) are logged in the order of their last puts, each
// with the timestamp of the record that last put it; a window put then
// deleted before the flush is logged as a tombstone once; nothing is
// logged before the flush.
func TestPlainWindowStoreCacheLogsEachWindowWithItsPutsTimestamp(t *testing.T) {
	s := serde.String{}
	topo := kstreams.NewTopology()
	if err := errors.Join(topo.AddSource("source", kstreams.SourceSerdes[string, string](s, s), "in"),
		topo.AddProcessor("commands", kstreams.ProcessorFunc(windowCommands).Supplier(), "source"),
		topo.AddStateStore(windowCacheBuilder(false, false, true), "commands"),
		topo.AddSink("sink", "out", kstreams.SinkSerdes[string, string](s, s), "commands")); err != nil {
		t.Fatal(err)
	}
	inner, err := state.NewInMemoryWindow(state.WindowOptions{Name: "win", RetentionMs: 120_000})
	if err != nil {
		t.Fatal(err)
	}
	var out collector
	task, err := topo.NewTask(kstreams.TaskConfig{ApplicationID: "app", CacheMaxBytes: 1 << 20,
		Stores: map[string]kstreams.StateStore{"win": kstreams.WindowBytes(inner)}, Output: &out})
	if err != nil {
		t.Fatal(err)
	}
	if err := task.Init(); err != nil {
		t.Fatal(err)
	}
	for i, cmds := range []string{"put a 1 0;put b 1 0", "put c 2 0;put a 2 0", "put d 3 10000;nul d 10000;put b 3 0", "get c 0;range a 0 0"} {
		ts := int64(i+1) * 1000
		if err := task.Process("in", 0, int64(i), []byte("k"), []byte(cmds), ts, nil); err != nil {
			t.Fatal(err)
		}
	}
	logged := func() []string {
		var lines []string
		for _, pr := range out {
			if pr.Topic != "app-win-changelog" {
				continue
			}
			key, start, seq, err := storeformat.SplitWindowKey(pr.Key)
			if err != nil {
				t.Fatal(err)
			}
			v := "null"
			if pr.Value != nil {
				v = string(pr.Value)
			}
			lines = append(lines, fmt.Sprintf("%s@%d#%d=%s@%d", key, start, seq, v, pr.Timestamp))
		}
		return lines
	}
	sameLines(t, "changelog before the flush", logged(), nil)
	if err := task.Flush(); err != nil {
		t.Fatal(err)
	}
	sameLines(t, "changelog", logged(), []string{"c@0#0=2@2000", "a@0#0=2@2000", "d@10000#0=null@3000", "b@0#0=3@3000"})
	var results []string
	for _, pr := range out {
		if pr.Topic == "out" {
			results = append(results, string(pr.Value))
		}
	}
	sameLines(t, "results", results, []string{"ok;ok", "ok;ok", "ok;ok;ok", "2;[0=2]"})
}

// TestRetainingDuplicatesTurnsTheCacheOff: Kafka's WindowStoreBuilder
// builds a store that retains duplicates without its cache, with a
// warning; every put reaches the store and its changelog at once.
func TestRetainingDuplicatesTurnsTheCacheOff(t *testing.T) {
	var logs strings.Builder
	s := serde.String{}
	topo := kstreams.NewTopology()
	if err := errors.Join(topo.AddSource("source", kstreams.SourceSerdes[string, string](s, s), "in"),
		topo.AddProcessor("commands", kstreams.ProcessorFunc(windowCommands).Supplier(), "source"),
		topo.AddStateStore(windowCacheBuilder(false, true, true), "commands"),
		topo.AddSink("sink", "out", kstreams.SinkSerdes[string, string](s, s), "commands")); err != nil {
		t.Fatal(err)
	}
	inner, err := state.NewInMemoryWindow(state.WindowOptions{Name: "win", RetentionMs: 120_000, RetainDuplicates: true})
	if err != nil {
		t.Fatal(err)
	}
	var out collector
	task, err := topo.NewTask(kstreams.TaskConfig{ApplicationID: "app", CacheMaxBytes: 1 << 20,
		Stores: map[string]kstreams.StateStore{"win": kstreams.WindowBytes(inner)}, Output: &out,
		Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	if err := task.Init(); err != nil {
		t.Fatal(err)
	}
	if err := task.Process("in", 0, 0, []byte("k"), []byte("put a 1 0;put a 2 0"), 1000, nil); err != nil {
		t.Fatal(err)
	}
	if st, _ := task.Store("win"); st.(*kstreams.WindowStore).Caching() {
		t.Error("a store retaining duplicates has a record cache")
	}
	if n := len(out); n != 3 { // two changelog records and the output
		t.Errorf("%d records before any flush, want 3", n)
	}
	if !strings.Contains(logs.String(), "disabling caching") || !strings.Contains(logs.String(), "store=win") {
		t.Errorf("no warning that caching is off: %q", logs.String())
	}
}
