// Package lrumap keeps an LRU map with the Processor API, the way Kafka
// Streams runs the same calls:
//
//	Source(<input>) → Recent (store "recent": Stores.keyValueStoreBuilder
//	                  over Stores.lruMap, at most 3 entries) → Sink(<output>)
//
// Each record's value is a command on its key: "get" reads the key, "del"
// deletes it, "?v" puts v if the key has no value (putIfAbsent), "range:to"
// and "rrange:to" scan from the key to "to" (forwards and backwards),
// "prefix" scans the keys that start with the key, "all" and "rall" scan
// everything, "count" counts the entries, "+k=v,k2,..." puts each k=v and
// deletes each bare k (putAll, whatever the record's key); a null value
// deletes the key (a put of null), and any other value is put under the key.
// A put of a fourth key evicts the least recently used one: a read that
// finds its key and every put use the key, scans do not. Recent forwards the
// command's result and what the store holds: "result|k=v,...". Arguments:
// input and output. Keys and values are Strings.
package lrumap

import (
	"fmt"
	"strings"

	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/serde"
)

// Name is the stoatflow.topology value of the topology, Store its store's
// and MaxEntries the store's size.
const (
	Name       = "lrumap"
	Store      = "recent"
	MaxEntries = 3
)

// Build returns the topology.
func Build(args map[string]string) (*kstreams.Topology, error) {
	input, output := "lrumap-input", "lrumap-output"
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
			return t.AddProcessor("Recent", func() kstreams.Processor { return &recent{} }, "Source")
		},
		func() error {
			return t.AddStateStore(kstreams.KeyValueStoreBuilder[string, string](Store, s, s).InMemoryLRU(MaxEntries), "Recent")
		},
		func() error { return t.AddSink("Sink", output, kstreams.SinkSerdes[string, string](s, s), "Recent") },
	} {
		if err := step(); err != nil {
			return nil, err
		}
	}
	return t, nil
}

type recent struct {
	ctx   kstreams.ProcessorContext
	store *kstreams.KeyValueStore
}

func (p *recent) Init(ctx kstreams.ProcessorContext) error {
	st, err := ctx.StateStore(Store)
	if err != nil {
		return err
	}
	p.ctx, p.store = ctx, st.(*kstreams.KeyValueStore)
	return nil
}

func (p *recent) Process(r kstreams.Record) error {
	key := r.Key.(string)
	res, err := p.run(key, r.Value)
	if err != nil {
		return err
	}
	all, err := scan(p.store.All())
	if err != nil {
		return err
	}
	r.Value = res + "|" + all
	return p.ctx.Forward(r)
}

// run runs the command value on key and returns its result.
func (p *recent) run(key string, value any) (string, error) {
	if value == nil {
		return "ok", p.store.Put(key, nil)
	}
	cmd := value.(string)
	switch {
	case cmd == "get":
		v, _, err := p.store.Get(key)
		return orNull(v), err
	case cmd == "del":
		v, _, err := p.store.Get(key)
		if err != nil {
			return "", err
		}
		return orNull(v), p.store.Delete(key)
	case strings.HasPrefix(cmd, "?"):
		old, err := p.store.PutIfAbsent(key, cmd[1:])
		return orNull(old), err
	case strings.HasPrefix(cmd, "range:"):
		return scan(p.store.Range(key, cmd[len("range:"):]))
	case strings.HasPrefix(cmd, "rrange:"):
		return scan(p.store.ReverseRange(key, cmd[len("rrange:"):]))
	case cmd == "prefix":
		return scan(p.store.PrefixScan(key, serde.Erase[string](serde.String{})))
	case cmd == "all":
		return scan(p.store.All())
	case cmd == "rall":
		return scan(p.store.ReverseAll())
	case cmd == "count":
		n, err := p.store.ApproximateNumEntries()
		return fmt.Sprint(n), err
	case strings.HasPrefix(cmd, "+"):
		var es []kstreams.StoreEntry
		for _, pair := range strings.Split(cmd[1:], ",") {
			k, v, ok := strings.Cut(pair, "=")
			e := kstreams.StoreEntry{Key: k}
			if ok {
				e.Value = v
			}
			es = append(es, e)
		}
		return "ok", p.store.PutAll(es)
	}
	return "ok", p.store.Put(key, cmd)
}

func (p *recent) Close() error { return nil }

func orNull(v any) string {
	if v == nil {
		return "null"
	}
	return v.(string)
}

// scan lists an iteration's entries as "k=v,...".
func scan(it *kstreams.KeyValueIterator, err error) (string, error) {
	if err != nil {
		return "", err
	}
	defer it.Close()
	var es []string
	for it.Next() {
		e := it.Entry()
		es = append(es, e.Key.(string)+"="+e.Value.(string))
	}
	return strings.Join(es, ","), it.Err()
}
