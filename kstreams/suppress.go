package kstreams

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
)

const prefixSuppress = "KTABLE-SUPPRESS-"

// Suppress holds the table's updates back and emits only some of them, as
// s says: KTable.suppress. The result is a KTABLE-SUPPRESS processor with
// an in-memory buffer store (KTABLE-SUPPRESS-STATE-STORE-N, or
// <name>-store with Suppressed.WithName) that is changelogged unless the
// buffer config disables it, so a restarted task finds its buffer again.
//
// Emission follows stream time as the suppression sees it (the largest
// timestamp of the updates it has received), never the wall clock: a
// buffered key leaves the buffer when a later update moves stream time
// past its deadline. An emitted update keeps the timestamp, headers and
// origin of the last update it stands for. Suppress asks its parent for
// old values, which makes an unmaterialized source table materialize.
//
// UntilWindowCloses on a table that is not the result of a windowed
// aggregation fails the build with Kafka Streams' message.
func (t *KTable[K, V]) Suppress(s Suppressed) *KTable[K, V] {
	b := t.b
	if t.versioned {
		b.fail(invalidTopology("suppress() is only supported for non-versioned KTables " +
			"(note that version semantics might be inherited from upstream)"))
	}
	name := s.name
	if name == "" {
		name = b.newProcessorName(prefixSuppress)
	}
	p := &suppressSpec{name: name, maxRecords: s.buffer.maxRecords, maxBytes: s.buffer.maxBytes, shutDown: s.buffer.shutDown,
		limit: s.limit.Milliseconds()}
	if s.final {
		grace, err := b.windowGrace(t.name, "")
		b.fail(err)
		p.limit, p.final = grace, true
		if err == nil {
			end, err := windowEndOf[K]()
			b.fail(err)
			p.windowEnd = end
		}
	}
	storeName := s.name + "-store"
	if s.name == "" {
		storeName = b.newStoreName(prefixSuppress)
		if !s.buffer.loggingDisabled {
			b.unnamedChangelog(storeName)
		}
	}
	p.store = storeName
	// The buffer keeps the value a key had before it was buffered, which
	// only the parent's old values tell.
	t.old.request(true)
	b.addNode(&nodeSpec{name: name, kind: ProcessorNode, preds: []string{t.name},
		supplier: func() Processor { return &suppressProcessor{spec: p} }})
	b.fail(b.topo.addStore(&StoreSpec{Name: storeName, Kind: KeyValueStoreKind, Type: InMemory,
		Logging: !s.buffer.loggingDisabled, LogConfig: s.buffer.logConfig, key: t.key, val: t.val, suppressBuffer: true}))
	b.fail(b.topo.connectStore(name, storeName))
	old := &oldValues{send: true, enable: func(force bool) bool { return t.old.request(force) }}
	return &KTable[K, V]{b: b, name: name, key: t.key, val: t.val, view: t.view, old: old}
}

// windowEndOf reads the window end of a windowed key: the buffer time of
// untilWindowCloses. K is a Windowed[X] once the grace search found the
// windowed aggregation; any other K is a table that is not windowed after
// all.
func windowEndOf[K any]() (func(any) (int64, bool), error) {
	typ := reflect.TypeFor[K]()
	if typ.Kind() != reflect.Struct {
		return nil, invalidTopology("Window close time is only defined for windowed computations. Got a table keyed by %s.", typ)
	}
	f, ok := typ.FieldByName("Window")
	if !ok || f.Type != reflect.TypeFor[Window]() || !strings.HasPrefix(typ.Name(), "Windowed[") {
		return nil, invalidTopology("Window close time is only defined for windowed computations. Got a table keyed by %s.", typ)
	}
	idx := f.Index
	return func(k any) (int64, bool) {
		v := reflect.ValueOf(k)
		if !v.IsValid() || v.Type() != typ {
			return 0, false
		}
		return v.FieldByIndex(idx).Interface().(Window).End, true
	}, nil
}

// graceDefiner is a windowed aggregation: its grace period (for sessions,
// plus the inactivity gap) is when its windows close.
type graceDefiner interface{ windowCloseAfter() int64 }

func (p *windowAggregate) windowCloseAfter() int64 { return p.windows.GraceMs }

func (p *sessionAggregate) windowCloseAfter() int64 { return p.windows.GraceMs + p.windows.GapMs }

// windowGrace is Kafka's GraphGraceSearchUtil.findAndVerifyWindowGrace: the
// grace period of the windowed aggregation node descends from, searched
// through its parents (every parent must lead to one; the largest wins).
// chain names the nodes walked, from the root down, for the error.
func (b *StreamsBuilder) windowGrace(node, chain string) (int64, error) {
	spec := b.topo.byName[node]
	if spec == nil {
		return 0, invalidTopology("Window close time is only defined for windowed computations. Got [%s].", chain)
	}
	if spec.kind == ProcessorNode {
		if g, ok := spec.supplier().(graceDefiner); ok {
			return g.windowCloseAfter(), nil
		}
	}
	next := node
	if chain != "" {
		next = node + "->" + chain
	}
	parents := b.graphParents(spec)
	if len(parents) == 0 {
		// Kafka's graph hangs every source under a root node.
		return 0, invalidTopology("Window close time is only defined for windowed computations. Got [%s].", "root->"+next)
	}
	grace := int64(-1)
	for _, p := range parents {
		g, err := b.windowGrace(p, next)
		if err != nil {
			return 0, err
		}
		grace = max(grace, g)
	}
	return grace, nil
}

// graphParents are a node's parents in Kafka Streams' DSL graph, which has
// a node less in two places than the topology: a table's source is one
// graph node (its KTABLE-SOURCE), and a repartition is one graph node (its
// source) whose parent is what fed the repartition's filter and sink.
func (b *StreamsBuilder) graphParents(n *nodeSpec) []string {
	if n.kind == SourceNode {
		var out []string
		for _, sink := range b.topo.nodes {
			if sink.kind != SinkNode || b.topo.repartition[sink.topic] == nil || !slices.Contains(n.topics, sink.topic) {
				continue
			}
			for _, filter := range sink.preds {
				if f := b.topo.byName[filter]; f != nil {
					out = append(out, f.preds...)
				}
			}
		}
		return out
	}
	if len(n.preds) == 1 {
		if src := b.topo.byName[n.preds[0]]; src != nil && src.kind == SourceNode && len(src.topics) == 1 && b.tableTopics[src.topics[0]] {
			return nil // the table's own source
		}
	}
	return n.preds
}

// suppressSpec is what every task's suppression processor shares.
type suppressSpec struct {
	name, store string
	// limit is how long (in stream time) a key stays buffered:
	// untilTimeLimit's duration, or the window grace for untilWindowCloses.
	limit int64
	// final is untilWindowCloses: the buffer time of a key is its window's
	// end, and tombstones are never emitted (the window's result is final).
	final                bool
	windowEnd            func(any) (int64, bool)
	maxRecords, maxBytes int64
	shutDown             bool
}

// suppressProcessor is KTableSuppressProcessor: it buffers each update
// under its key (a later update of a buffered key replaces it but keeps its
// place), then emits what stream time or the buffer's bounds push out.
type suppressProcessor struct {
	spec       *suppressSpec
	ctx        nodeContext
	buf        *suppressBuffer
	streamTime int64
}

func (p *suppressProcessor) Init(ctx ProcessorContext) error {
	nc, ok := ctx.(nodeContext)
	if !ok {
		return fmt.Errorf("kstreams: %s needs a task's processor context, got %T", p.spec.name, ctx)
	}
	p.ctx, p.streamTime = nc, -1
	s, err := ctx.StateStore(p.spec.store)
	if err != nil {
		return err
	}
	if p.buf, ok = s.(*suppressBuffer); !ok {
		return fmt.Errorf("kstreams: %s: store %s is a %T, not a suppression buffer", p.spec.name, p.spec.store, s)
	}
	return p.buf.load()
}

func (p *suppressProcessor) Process(r Record) error {
	c, _ := r.Value.(Change)
	p.streamTime = max(p.streamTime, r.Timestamp)
	bufferTime := r.Timestamp
	if p.spec.final {
		end, ok := p.spec.windowEnd(r.Key)
		if !ok {
			return fmt.Errorf("%w: untilWindowCloses got a key of type %T, not a windowed key", ErrValueType, r.Key)
		}
		bufferTime = end
	}
	task := p.ctx.n.task
	rc := recordContextOf(task, r)
	if err := p.buf.put(bufferTime, r.Key, c, rc); err != nil {
		return err
	}
	return p.enforce()
}

// enforce emits what has waited long enough, then what the bounds push
// out, oldest first (KTableSuppressProcessor.enforceConstraints).
func (p *suppressProcessor) enforce() error {
	// Go's int64 arithmetic wraps as Java's long does, so a huge limit
	// behaves as it does in Kafka Streams.
	expiry := p.streamTime - p.spec.limit
	if err := p.buf.evictWhile(func() bool { return p.buf.minTime <= expiry }, p.emit); err != nil {
		return err
	}
	if !p.overCapacity() {
		return nil
	}
	if p.spec.shutDown {
		//lint:ignore ST1005 Kafka Streams' message, which ends in a period
		return fmt.Errorf("%s buffer exceeded its max capacity. Currently [%d/%d] records and [%d/%d] bytes.",
			p.spec.name, p.buf.numRecords(), p.spec.maxRecords, p.buf.memBytes, p.spec.maxBytes)
	}
	return p.buf.evictWhile(p.overCapacity, p.emit)
}

func (p *suppressProcessor) overCapacity() bool {
	return int64(p.buf.numRecords()) > p.spec.maxRecords || p.buf.memBytes > p.spec.maxBytes
}

// emit forwards an evicted update with the record context it was buffered
// with: its timestamp, headers and origin (topic, partition, offset) are
// the last update's.
func (p *suppressProcessor) emit(key any, c Change, rc bufferedContext) error {
	if p.spec.final && c.New == nil {
		return nil // a window's final result is never a deletion
	}
	task := p.ctx.n.task
	prevMD, prevHas := task.md, task.hasMD
	task.md, task.hasMD = RecordMetadata{Topic: rc.Topic, Partition: rc.Partition, Offset: rc.Offset}, true
	defer func() { task.md, task.hasMD = prevMD, prevHas }()
	return p.ctx.Forward(Record{Key: key, Value: c, Timestamp: rc.Timestamp, Headers: headersOf(rc)})
}

func (p *suppressProcessor) Close() error { return nil }
