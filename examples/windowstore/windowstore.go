// Package windowstore keeps a plain window store with the Processor API,
// the way Kafka Streams runs the same calls:
//
//	Source(<input>) → Recorder (store "recent": Stores.windowStoreBuilder over
//	                   persistentWindowStore, 60 s retention, 10 s windows)
//	                → Sink(<output>)
//
// Recorder appends each value to its key's window (the record's timestamp
// rounded down to 10 s), or deletes the window on "clear", puts "tmp" there
// and deletes it again on "undo", and forwards the key's windows of the
// last 30 s as "start:values|…"; on "all" it writes nothing and forwards
// every key's windows of the last 30 s as "key@start:values|…", in the
// store's order.
//
// The topology registered as CachedName is the same with the store's
// record cache on (withCachingEnabled), and a second store, "seen", that
// retains duplicates and asks for the cache too, which Kafka Streams
// builds without it: Recorder puts every value there under its record's
// timestamp and adds " seen=<n>" to what it forwards, n the key's values
// of the last 30 s.
//
// Arguments: input and output. Keys and values are Strings.
package windowstore

import (
	"strconv"
	"strings"
	"time"

	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/serde"
)

// Name and CachedName are the stoatflow.topology values of the
// topologies; Store and SeenStore are their stores'.
const (
	Name       = "windowstore"
	CachedName = "windowstore-cached"
	Store      = "recent"
	SeenStore  = "seen"
	Window     = 10 * time.Second
)

// Build returns the topology.
func Build(args map[string]string) (*kstreams.Topology, error) { return build(args, false) }

// BuildCached returns the topology with the record cache over the store,
// and the store "seen".
func BuildCached(args map[string]string) (*kstreams.Topology, error) { return build(args, true) }

func build(args map[string]string, cached bool) (*kstreams.Topology, error) {
	input, output := "windowstore-input", "windowstore-output"
	if v := args["input"]; v != "" {
		input = v
	}
	if v := args["output"]; v != "" {
		output = v
	}
	s := serde.String{}
	t := kstreams.NewTopology()
	recent := kstreams.WindowStoreBuilder[string, string](Store, time.Minute, Window, false, s, s)
	steps := []func() error{
		func() error { return t.AddSource("Source", kstreams.SourceSerdes[string, string](s, s), input) },
		func() error {
			return t.AddProcessor("Recorder", func() kstreams.Processor { return &recorder{seen: cached} }, "Source")
		},
	}
	if cached {
		seen := kstreams.WindowStoreBuilder[string, string](SeenStore, time.Minute, Window, true, s, s)
		steps = append(steps,
			func() error { return t.AddStateStore(recent.WithCachingEnabled(), "Recorder") },
			func() error { return t.AddStateStore(seen.WithCachingEnabled(), "Recorder") })
	} else {
		steps = append(steps, func() error { return t.AddStateStore(recent, "Recorder") })
	}
	steps = append(steps, func() error { return t.AddSink("Sink", output, kstreams.SinkSerdes[string, string](s, s), "Recorder") })
	for _, step := range steps {
		if err := step(); err != nil {
			return nil, err
		}
	}
	return t, nil
}

type recorder struct {
	ctx   kstreams.ProcessorContext
	store *kstreams.WindowStore
	// seen is set in the cached topology, whose store "seen" keeps every
	// value.
	seen      bool
	seenStore *kstreams.WindowStore
}

func (p *recorder) Init(ctx kstreams.ProcessorContext) error {
	st, err := ctx.StateStore(Store)
	if err != nil {
		return err
	}
	p.ctx, p.store = ctx, st.(*kstreams.WindowStore)
	if p.seen {
		if st, err = ctx.StateStore(SeenStore); err != nil {
			return err
		}
		p.seenStore = st.(*kstreams.WindowStore)
	}
	return nil
}

func (p *recorder) Process(r kstreams.Record) error {
	size := Window.Milliseconds()
	start := r.Timestamp - r.Timestamp%size
	v, _ := r.Value.(string)
	var windows []string
	var err error
	switch v {
	case "all":
		err = p.store.FetchAll(start-3*size, start, func(k any, ws int64, value any) error {
			windows = append(windows, k.(string)+"@"+strconv.FormatInt(ws, 10)+":"+value.(string))
			return nil
		})
	case "undo":
		if err = p.store.Put(r.Key, "tmp", start); err == nil {
			err = p.store.Put(r.Key, nil, start)
		}
	default:
		var next any // "clear" deletes the window
		if v != "clear" {
			old, ok, err := p.store.Fetch(r.Key, start)
			if err != nil {
				return err
			}
			next = v
			if ok {
				next = old.(string) + "," + v
			}
		}
		err = p.store.Put(r.Key, next, start)
	}
	if err != nil {
		return err
	}
	if v != "all" {
		if err := p.store.FetchRange(r.Key, start-3*size, start, func(ws int64, value any) error {
			windows = append(windows, strconv.FormatInt(ws, 10)+":"+value.(string))
			return nil
		}); err != nil {
			return err
		}
	}
	out := strings.Join(windows, "|")
	if p.seen {
		if err := p.seenStore.Put(r.Key, r.Value, r.Timestamp); err != nil {
			return err
		}
		n := 0
		if err := p.seenStore.FetchRange(r.Key, r.Timestamp-3*size, r.Timestamp, func(int64, any) error {
			n++
			return nil
		}); err != nil {
			return err
		}
		out += " seen=" + strconv.Itoa(n)
	}
	r.Value = out
	return p.ctx.Forward(r)
}

func (p *recorder) Close() error { return nil }
