// Package ttl is a Processor API topology (Topology.addSource, addProcessor,
// addStateStore, addSink) whose punctuators expire old store entries, on
// stream time and on the wall clock, the way Kafka Streams runs the same
// calls:
//
//	StreamSource(input) → StreamTtl [stream-ttl] → StreamSink(output)
//	WallSource(wall)    → WallTtl   [wall-ttl]   → WallSink(output-wall)
//
// Each processor keeps every key's latest record timestamp in its store; a
// null value deletes the key. Every 10 s of stream time, StreamTtl deletes
// the keys last seen more than 30 s of stream time ago and forwards a
// tombstone for each, stamped with the time the key was last seen. Every 500
// ms of wall-clock time, WallTtl deletes the keys last seen more than a
// minute before the wall clock and forwards "expired" for each, stamped the
// same way; it walks its store backwards. Arguments: input, wall and output.
// Keys and values are Strings; the stores hold Longs.
package ttl

import (
	"time"

	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/serde"
)

// Name is the stoatflow.topology value of the topology.
const Name = "ttl"

// The stores, and how old an entry may grow in each.
const (
	StreamStore = "stream-ttl"
	WallStore   = "wall-ttl"
	StreamTTL   = 30 * time.Second
	WallTTL     = time.Minute
	// StreamInterval and WallInterval are the punctuation intervals.
	StreamInterval = 10 * time.Second
	WallInterval   = 500 * time.Millisecond
)

// Build returns the topology.
func Build(args map[string]string) (*kstreams.Topology, error) {
	input, wall, output := "ttl-input", "ttl-wall", "ttl-output"
	if v := args["input"]; v != "" {
		input = v
	}
	if v := args["wall"]; v != "" {
		wall = v
	}
	if v := args["output"]; v != "" {
		output = v
	}
	s := serde.String{}
	strings := kstreams.SourceSerdes[string, string](s, s)
	t := kstreams.NewTopology()
	for _, step := range []func() error{
		func() error { return t.AddSource("StreamSource", strings, input) },
		func() error {
			return t.AddProcessor("StreamTtl", expirer(StreamStore, kstreams.StreamTime, StreamInterval, StreamTTL), "StreamSource")
		},
		func() error {
			return t.AddStateStore(kstreams.KeyValueStoreBuilder[string, int64](StreamStore, s, serde.Long{}), "StreamTtl")
		},
		func() error {
			return t.AddSink("StreamSink", output, kstreams.SinkSerdes[string, string](s, s), "StreamTtl")
		},
		func() error { return t.AddSource("WallSource", strings, wall) },
		func() error {
			return t.AddProcessor("WallTtl", expirer(WallStore, kstreams.WallClockTime, WallInterval, WallTTL), "WallSource")
		},
		func() error {
			return t.AddStateStore(kstreams.KeyValueStoreBuilder[string, int64](WallStore, s, serde.Long{}), "WallTtl")
		},
		func() error {
			return t.AddSink("WallSink", output+"-wall", kstreams.SinkSerdes[string, string](s, s), "WallTtl")
		},
	} {
		if err := step(); err != nil {
			return nil, err
		}
	}
	return t, nil
}

// expirer returns the supplier of a processor that expires the entries of
// store older than ttl every interval of clock. A wall-clock expirer walks
// the store backwards and forwards "expired"; a stream-time one forwards
// tombstones.
func expirer(store string, clock kstreams.PunctuationType, interval, ttl time.Duration) func() kstreams.Processor {
	return func() kstreams.Processor {
		return &expiry{storeName: store, clock: clock, interval: interval, ttl: ttl.Milliseconds()}
	}
}

type expiry struct {
	storeName string
	clock     kstreams.PunctuationType
	interval  time.Duration
	ttl       int64
	ctx       kstreams.ProcessorContext
	store     *kstreams.KeyValueStore
}

func (p *expiry) Init(ctx kstreams.ProcessorContext) error {
	st, err := ctx.StateStore(p.storeName)
	if err != nil {
		return err
	}
	p.ctx, p.store = ctx, st.(*kstreams.KeyValueStore)
	_, err = ctx.Schedule(p.interval, p.clock, p.expire)
	return err
}

// Process keeps the record's timestamp as its key's last sighting; a null
// value forgets the key.
func (p *expiry) Process(r kstreams.Record) error {
	if r.Value == nil {
		return p.store.Delete(r.Key)
	}
	return p.store.Put(r.Key, r.Timestamp)
}

// expire deletes, while it iterates, every entry last seen before now-ttl.
func (p *expiry) expire(now int64) error {
	var it *kstreams.KeyValueIterator
	var err error
	if p.clock == kstreams.WallClockTime {
		it, err = p.store.ReverseAll()
	} else {
		it, err = p.store.All()
	}
	if err != nil {
		return err
	}
	defer it.Close()
	for it.Next() {
		e := it.Entry()
		seen := e.Value.(int64)
		if seen >= now-p.ttl {
			continue
		}
		if err := p.store.Delete(e.Key); err != nil {
			return err
		}
		var v any // a tombstone
		if p.clock == kstreams.WallClockTime {
			v = "expired"
		}
		if err := p.ctx.Forward(kstreams.Record{Key: e.Key, Value: v, Timestamp: seen}); err != nil {
			return err
		}
	}
	return it.Err()
}

func (p *expiry) Close() error { return nil }
