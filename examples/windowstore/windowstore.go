// Package windowstore keeps a plain window store with the Processor API,
// the way Kafka Streams runs the same calls:
//
//	Source(<input>) → Recorder (store "recent": Stores.windowStoreBuilder over
//	                   persistentWindowStore, 60 s retention, 10 s windows)
//	                → Sink(<output>)
//
// Recorder appends each value to its key's window (the record's timestamp
// rounded down to 10 s), or deletes the window on "clear", and forwards
// the key's windows of the last 30 s as "start:values|…". Importing the
// package registers it. Arguments: input and output. Keys and values are
// Strings.
package windowstore

import (
	"strconv"
	"strings"
	"time"

	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/serde"
)

// Name is the name the topology is registered under; Store is its store's.
const (
	Name   = "windowstore"
	Store  = "recent"
	Window = 10 * time.Second
)

func init() { kstreams.RegisterTopology(Name, Build) }

// Build returns the topology.
func Build(args map[string]string) (*kstreams.Topology, error) {
	input, output := "windowstore-input", "windowstore-output"
	if v := args["input"]; v != "" {
		input = v
	}
	if v := args["output"]; v != "" {
		output = v
	}
	s := serde.String{}
	t := kstreams.NewTopology()
	for _, step := range []func() error{
		func() error { return t.AddSource("Source", kstreams.SourceSerdes[string, string](s, s), input) },
		func() error {
			return t.AddProcessor("Recorder", func() kstreams.Processor { return &recorder{} }, "Source")
		},
		func() error {
			return t.AddStateStore(kstreams.WindowStoreBuilder[string, string](Store, time.Minute, Window, false, s, s), "Recorder")
		},
		func() error { return t.AddSink("Sink", output, kstreams.SinkSerdes[string, string](s, s), "Recorder") },
	} {
		if err := step(); err != nil {
			return nil, err
		}
	}
	return t, nil
}

type recorder struct {
	ctx   kstreams.ProcessorContext
	store *kstreams.WindowStore
}

func (p *recorder) Init(ctx kstreams.ProcessorContext) error {
	st, err := ctx.StateStore(Store)
	if err != nil {
		return err
	}
	p.ctx, p.store = ctx, st.(*kstreams.WindowStore)
	return nil
}

func (p *recorder) Process(r kstreams.Record) error {
	size := Window.Milliseconds()
	start := r.Timestamp - r.Timestamp%size
	v, _ := r.Value.(string)
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
	if err := p.store.Put(r.Key, next, start); err != nil {
		return err
	}
	var windows []string
	if err := p.store.FetchRange(r.Key, start-3*size, start, func(ws int64, value any) error {
		windows = append(windows, strconv.FormatInt(ws, 10)+":"+value.(string))
		return nil
	}); err != nil {
		return err
	}
	r.Value = strings.Join(windows, "|")
	return p.ctx.Forward(r)
}

func (p *recorder) Close() error { return nil }
