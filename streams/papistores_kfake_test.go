package streams_test

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/internal/testkafka"
	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/serde"
)

// TestKfakeProcessorAPIWindowAndSessionStores: a Processor API processor
// on the runtime holds a persistent timestamped window store and an
// in-memory session store from the Stores-style builders, and reads back,
// record after record, what it wrote; both stores get their changelogs.
func TestKfakeProcessorAPIWindowAndSessionStores(t *testing.T) {
	_, addr := startBroker(t)
	createTopics(t, addr, 1, "in", "out")
	s := serde.String{}
	probe := kstreams.ProcessorFunc(func(ctx kstreams.ProcessorContext, r kstreams.Record) error {
		ws, err := ctx.StateStore("win")
		if err != nil {
			return err
		}
		ss, err := ctx.StateStore("ses")
		if err != nil {
			return err
		}
		win, ses := ws.(*kstreams.TimestampedWindowStore), ss.(*kstreams.SessionStore)
		start := r.Timestamp - r.Timestamp%60_000
		prev, _, _, err := win.Fetch(r.Key, start)
		if err != nil {
			return err
		}
		count := 1
		if prev != nil {
			count = len(prev.(string)) + 1
		}
		sessions, err := ses.FindSessions(r.Key, r.Timestamp-5_000, r.Timestamp)
		if err != nil {
			return err
		}
		if err := errors.Join(win.Put(r.Key, start, fmt.Sprintf("%0*d", count, 0), r.Timestamp),
			ses.Put(r.Key, kstreams.Window{Start: r.Timestamp, End: r.Timestamp}, r.Value)); err != nil {
			return err
		}
		return ctx.Forward(kstreams.Record{Key: r.Key, Value: fmt.Sprintf("window %d, sessions near %d", count, len(sessions)),
			Timestamp: r.Timestamp})
	})
	topo := kstreams.NewTopology()
	ss := kstreams.SourceSerdes[string, string](s, s)
	if err := errors.Join(topo.AddSource("source", ss, "in"), topo.AddProcessor("probe", probe.Supplier(), "source"),
		topo.AddStateStore(kstreams.TimestampedWindowStoreBuilder[string, string]("win", time.Hour, time.Minute, s, s), "probe"),
		topo.AddStateStore(kstreams.SessionStoreBuilder[string, string]("ses", time.Hour, s, s).InMemory(), "probe"),
		topo.AddSink("sink", "out", kstreams.SinkSerdes[string, string](s, s), "probe")); err != nil {
		t.Fatal(err)
	}
	ks := startApp(t, topo, appConfig(t, addr, "papistores", t.TempDir()))
	base := time.UnixMilli(1_700_000_080_000) // 40 s into a minute
	for i, sec := range []int{0, 2, 30} {
		testkafka.Produce(t, addr, testkafka.Record{Topic: "in", Partition: 0, Key: []byte("k"), Value: []byte(fmt.Sprint(i)),
			Timestamp: base.Add(time.Duration(sec) * time.Second)})
	}
	got, err := testkafka.ReadCommitted(addr, "out", 3, 30*time.Second, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"window 1, sessions near 0", "window 2, sessions near 1", "window 1, sessions near 0"}
	for i, r := range got {
		if string(r.Value) != want[i] {
			t.Errorf("record %d: %q, want %q", i, r.Value, want[i])
		}
	}
	for _, store := range []string{"win", "ses"} {
		if _, err := testkafka.ReadCommitted(addr, "papistores-"+store+"-changelog", 3, 10*time.Second, time.Second); err != nil {
			t.Errorf("changelog of %s: %v", store, err)
		}
	}
	closeApp(t, ks)
}
