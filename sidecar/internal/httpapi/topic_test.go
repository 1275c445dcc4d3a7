package httpapi

import (
	"context"
	"maps"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/internal/storeformat"
	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/kstreamstest"
	"github.com/stoatflow/stoatflow/kstreams/serde"
	"github.com/stoatflow/stoatflow/state"
	"github.com/stoatflow/stoatflow/streams"
)

// topicLog records the topics a serde was called with.
type topicLog struct {
	mu     sync.Mutex
	topics map[string]bool
}

func (l *topicLog) add(topic string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.topics[topic] = true
}

// take returns the topics recorded so far, sorted, and forgets them.
func (l *topicLog) take() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := slices.Sorted(maps.Keys(l.topics))
	l.topics = map[string]bool{}
	return out
}

// recordingString is the String serde, recording every topic it sees.
type recordingString struct{ log *topicLog }

func (s recordingString) Serialize(topic string, v string) ([]byte, error) {
	s.log.add(topic)
	return []byte(v), nil
}

func (s recordingString) Deserialize(topic string, b []byte) (string, error) {
	s.log.add(topic)
	return string(b), nil
}

// TestStoreSerdesSeeTheTasksChangelogTopic guards the topic interactive
// queries hand the store serdes: it must be the one the tasks that wrote the
// bytes used, <application.id>-<store>-changelog, or a topic-dependent serde
// (a schema registry serde's subject) reads them differently. The topology
// runs in kstreamstest to learn the tasks' topics; the queries then run
// against stores of the same names.
func TestStoreSerdesSeeTheTasksChangelogTopic(t *testing.T) {
	log := &topicLog{topics: map[string]bool{}}
	rec := serde.Erase[string](recordingString{log})
	b := kstreams.NewStreamsBuilder()
	concat := func(agg, v string) string { return agg + v }
	kstreams.Stream[string, string](b, []string{"kv-in"}).GroupByKey().
		Reduce(concat, kstreams.MaterializedAs[string, string]("reduced"))
	kstreams.WindowedBy(kstreams.Stream[string, string](b, []string{"w-in"}).GroupByKey(),
		kstreams.TimeWindowsOfSizeWithNoGrace(10*time.Second)).Reduce(concat, kstreams.MaterializedAs[string, string]("windowed"))
	kstreams.WindowedBySession(kstreams.Stream[string, string](b, []string{"s-in"}).GroupByKey(),
		kstreams.SessionWindowsOfInactivityGapWithNoGrace(5*time.Second)).Reduce(concat, kstreams.MaterializedAs[string, string]("sessions"))
	topo, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}

	d, err := kstreamstest.New(topo, kstreamstest.Config{ApplicationID: "app", DefaultKeySerde: rec, DefaultValueSerde: rec})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	for _, in := range []string{"kv-in", "w-in", "s-in"} {
		if err := d.Pipe(in, []byte("k"), []byte("a"), 1); err != nil {
			t.Fatal(err)
		}
	}
	taskTopics := map[string]bool{}
	for _, topic := range log.take() {
		taskTopics[topic] = true
	}

	kv := state.NewInMemoryKeyValue(state.KeyValueOptions{Name: "reduced", Timestamped: true})
	ws, err := state.NewInMemoryWindow(state.WindowOptions{Name: "windowed", RetentionMs: 60_000, Timestamped: true})
	if err != nil {
		t.Fatal(err)
	}
	ss, err := state.NewInMemorySession(state.SessionOptions{Name: "sessions", RetentionMs: 60_000})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []state.Store{kv, ws, ss} {
		defer s.Close()
	}
	kv.Put([]byte("k"), storeformat.AppendTimestamped(nil, 1, []byte("a")))
	ws.Put([]byte("k"), storeformat.AppendTimestamped(nil, 1, []byte("a")), 0)
	ss.Put([]byte("k"), 1, 1, []byte("a"))
	ins := &fakeInstance{st: streams.Running, stores: map[string][]streams.LocalStore{
		"reduced":  {{Name: "reduced", Kind: kstreams.KeyValueStoreKind, Store: kv}},
		"windowed": {{Name: "windowed", Kind: kstreams.WindowStoreKind, Store: ws}},
		"sessions": {{Name: "sessions", Kind: kstreams.SessionStoreKind, Store: ss}},
	}}
	srv, err := New(Config{Listen: "127.0.0.1:0", Isolation: state.ReadUncommitted, Streams: ins, Topology: topo,
		ApplicationID: "app", DefaultKeySerde: rec, DefaultValueSerde: rec,
		Partitions: func(context.Context, string) (int, error) { return 1, nil }})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	defer hs.Close()
	f := &fixture{srv: srv, ins: ins, base: hs.URL}

	for _, c := range []struct{ store, path string }{
		{"reduced", "/stores/reduced/keys/k"},
		{"reduced", "/stores/reduced/all"},
		{"windowed", "/stores/windowed/windows/k"},
		{"windowed", "/stores/windowed/windows?keyFrom=a&keyTo=z"},
		{"sessions", "/stores/sessions/sessions/k"},
		{"sessions", "/stores/sessions/metadata/k"},
	} {
		code, m := f.get(t, c.path)
		if code != 200 {
			t.Fatalf("%s: %d %v", c.path, code, m)
		}
		want := kstreams.ChangelogTopic("app", c.store)
		got := log.take()
		if len(got) != 1 || got[0] != want {
			t.Errorf("%s: serdes called with topics %v, want only %s", c.path, got, want)
		}
		if !taskTopics[want] {
			t.Errorf("%s: the tasks never called a serde with %s; they used %v", c.path, want, slices.Sorted(maps.Keys(taskTopics)))
		}
	}
}

func TestNewRequiresApplicationID(t *testing.T) {
	_, err := New(Config{Topology: testTopology(t)})
	if err == nil || !strings.Contains(err.Error(), "application id") {
		t.Fatalf("got %v, want an error naming the missing application id", err)
	}
}
