package kstreamstest_test

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/kstreamstest"
	"github.com/stoatflow/stoatflow/kstreams/serde"
)

// TestStoreBuildersForEveryStoreType: a processor holds a store of each
// kind the Stores factories build (in-memory and persistent), reads back
// what it wrote, and each logged store writes its changelog; a store with
// logging disabled writes none.
func TestStoreBuildersForEveryStoreType(t *testing.T) {
	s := serde.String{}
	builders := []kstreams.StoreBuilder{
		kstreams.KeyValueStoreBuilder[string, string]("kv", s, s).InMemory(),
		kstreams.TimestampedKeyValueStoreBuilder[string, string]("tkv", s, s).WithCachingEnabled(),
		kstreams.TimestampedWindowStoreBuilder[string, string]("win", time.Hour, time.Minute, s, s),
		kstreams.SessionStoreBuilder[string, string]("ses", time.Hour, s, s).InMemory().WithLoggingDisabled(),
	}
	var seen []string
	probe := kstreams.ProcessorFunc(func(ctx kstreams.ProcessorContext, r kstreams.Record) error {
		get := func(name string) kstreams.StateStore {
			st, err := ctx.StateStore(name)
			if err != nil {
				t.Fatal(err)
			}
			return st
		}
		kv, tkv := get("kv").(*kstreams.KeyValueStore), get("tkv").(*kstreams.TimestampedKeyValueStore)
		win, ses := get("win").(*kstreams.TimestampedWindowStore), get("ses").(*kstreams.SessionStore)
		w := kstreams.Window{Start: r.Timestamp, End: r.Timestamp + 10}
		if err := errors.Join(kv.Put(r.Key, r.Value), tkv.Put(r.Key, r.Value, r.Timestamp),
			win.Put(r.Key, 60_000, r.Value, r.Timestamp), ses.Put(r.Key, w, r.Value)); err != nil {
			return err
		}
		v1, _, err1 := kv.Get(r.Key)
		v2, ts2, _, err2 := tkv.Get(r.Key)
		v3, _, _, err3 := win.Fetch(r.Key, 60_000)
		sessions, err4 := ses.FindSessions(r.Key, 0, r.Timestamp)
		if err := errors.Join(err1, err2, err3, err4); err != nil {
			return err
		}
		seen = append(seen, fmt.Sprintf("%v %v@%d %v %d", v1, v2, ts2, v3, len(sessions)))
		return nil
	})
	topo := kstreams.NewTopology()
	ss := kstreams.SourceSerdes[string, string](s, s)
	errs := []error{topo.AddSource("source", ss, "in"), topo.AddProcessor("probe", probe.Supplier(), "source")}
	for _, sb := range builders {
		errs = append(errs, topo.AddStateStore(sb, "probe"))
	}
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	d, err := kstreamstest.New(topo, kstreamstest.Config{ApplicationID: "app", Caching: true})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if err := kstreamstest.NewInputTopic(d, "in", s, s).Pipe("k", "v", 70_000); err != nil {
		t.Fatal(err)
	}
	if len(seen) != 1 || seen[0] != "v v@70000 v 1" {
		t.Errorf("the processor read %q, want [\"v v@70000 v 1\"]", seen)
	}
	for _, name := range []string{"kv", "tkv", "win"} {
		if n := len(d.Changelog(name)); n != 1 {
			t.Errorf("store %s: %d changelog records, want 1", name, n)
		}
	}
	if n := len(d.Changelog("ses")); n != 0 {
		t.Errorf("store ses has logging disabled, yet %d changelog records", n)
	}
}

// TestStoreBuildersRejectWhatKafkaRejects: the window and session store
// suppliers' checks, with Kafka's messages, when the store is added.
func TestStoreBuildersRejectWhatKafkaRejects(t *testing.T) {
	s := serde.String{}
	for _, c := range []struct {
		sb   kstreams.StoreBuilder
		want string
	}{
		{kstreams.TimestampedWindowStoreBuilder[string, string]("w", time.Second, time.Minute, s, s),
			"The retention period of the window store w must be no smaller than its window size. Got size=[60000], retention=[1000]"},
		{kstreams.TimestampedWindowStoreBuilder[string, string]("w", -time.Second, 0, s, s), "retentionPeriod cannot be negative"},
		{kstreams.SessionStoreBuilder[string, string]("s", -time.Second, s, s), "retentionPeriod cannot be negative"},
	} {
		if err := kstreams.NewTopology().AddStateStore(c.sb); err == nil || err.Error() != c.want {
			t.Errorf("%s: %v, want %q", c.sb.Name, err, c.want)
		}
	}
}

// TestPlainWindowStore: a plain window store keeps one value per window
// (a nil put deletes it) unless it retains duplicates, when every put
// adds one (and a nil put is ignored); FetchAll orders a persistent
// store's windows as Kafka's does: by segment (here one, of 30 min), then
// key, then start.
func TestPlainWindowStore(t *testing.T) {
	s := serde.String{}
	var seen []string
	probe := kstreams.ProcessorFunc(func(ctx kstreams.ProcessorContext, r kstreams.Record) error {
		for _, name := range []string{"one", "dups"} {
			st, err := ctx.StateStore(name)
			if err != nil {
				return err
			}
			w := st.(*kstreams.WindowStore)
			if err := errors.Join(w.Put(r.Key, r.Value, 10_000), w.Put(r.Key, "again", 10_000), w.Put("b", "other", 0)); err != nil {
				return err
			}
			v, ok, err := w.Fetch(r.Key, 10_000)
			if err != nil {
				return err
			}
			line := fmt.Sprintf("%s fetch=%v/%v range=", name, v, ok)
			if err := w.FetchRange(r.Key, 0, 20_000, func(start int64, v any) error {
				line += fmt.Sprintf("%d:%v,", start, v)
				return nil
			}); err != nil {
				return err
			}
			line += " all="
			if err := w.FetchAll(0, 20_000, func(k any, start int64, v any) error {
				line += fmt.Sprintf("%v@%d:%v,", k, start, v)
				return nil
			}); err != nil {
				return err
			}
			if err := w.Put(r.Key, nil, 10_000); err != nil {
				return err
			}
			_, ok, err = w.Fetch(r.Key, 10_000)
			if err != nil {
				return err
			}
			seen = append(seen, line+fmt.Sprintf(" after a nil put=%v", ok))
		}
		return nil
	})
	topo := kstreams.NewTopology()
	errs := []error{
		topo.AddSource("source", kstreams.SourceSerdes[string, string](s, s), "in"),
		topo.AddProcessor("probe", probe.Supplier(), "source"),
		topo.AddStateStore(kstreams.WindowStoreBuilder[string, string]("one", time.Hour, 10*time.Second, false, s, s), "probe"),
		topo.AddStateStore(kstreams.WindowStoreBuilder[string, string]("dups", time.Hour, 10*time.Second, true, s, s), "probe"),
	}
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	d, err := kstreamstest.New(topo, kstreamstest.Config{ApplicationID: "app"})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if err := kstreamstest.NewInputTopic(d, "in", s, s).Pipe("a", "v", 70_000); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"one fetch=again/true range=10000:again, all=a@10000:again,b@0:other, after a nil put=false",
		// Fetch finds nothing in a store retaining duplicates.
		"dups fetch=<nil>/false range=10000:v,10000:again, all=a@10000:v,a@10000:again,b@0:other, after a nil put=false",
	}
	if fmt.Sprint(seen) != fmt.Sprint(want) {
		t.Errorf("the processor read\n%q\nwant\n%q", seen, want)
	}
	if n := len(d.Changelog("dups")); n != 4 {
		t.Errorf("%d changelog records of the store retaining duplicates, want one per put (4)", n)
	}
}
