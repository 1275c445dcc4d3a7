package kstreams

import (
	"maps"
	"slices"
)

// selfJoin is a stream-stream join as topology.optimization's
// single.store.self.join may rewrite it: its nodes and stores, and the
// processor that replaces its two sides.
type selfJoin struct {
	thisWindowed, otherWindowed, thisJoin, otherJoin, merge string
	thisStore, otherStore, outerStore                       string
	supplier                                                func() Processor
}

// RewriteSelfJoins returns the topology as Kafka Streams 4.4 builds it under
// topology.optimization's single.store.self.join (part of "all"),
// InternalStreamsBuilder.rewriteSingleStoreSelfJoin: a stream-stream join
// whose two sides are one stream keeps one window store, the left side's;
// the other side's windowed processor and both join processors leave the
// graph, and the merge processor (it keeps its name) joins each record
// with the store as KStreamKStreamSelfJoin does. As in Kafka Streams, a
// left or outer self-join is rewritten too and then joins as the inner join
// does (every record finds itself). The receiver is not changed.
func (t *Topology) RewriteSelfJoins() *Topology {
	if len(t.selfJoins) == 0 {
		return t
	}
	c := t.deepCopy()
	c.optimized = append(slices.Clip(t.optimized), OptimizeSingleStoreSelfJoin)
	c.stores = maps.Clone(t.stores)
	c.storeOrder = slices.Clone(t.storeOrder)
	for _, j := range t.selfJoins {
		this, other := c.byName[j.thisWindowed], c.byName[j.otherWindowed]
		if this == nil || other == nil || len(this.preds) != 1 || !slices.Equal(this.preds, other.preds) {
			continue
		}
		gone := map[string]bool{j.otherWindowed: true, j.thisJoin: true, j.otherJoin: true}
		c.nodes = slices.DeleteFunc(c.nodes, func(n *nodeSpec) bool { return gone[n.name] })
		for name := range gone {
			delete(c.byName, name)
		}
		m := c.byName[j.merge]
		m.preds, m.supplier, m.stores = []string{j.thisWindowed}, j.supplier, []string{j.thisStore}
		for _, s := range []string{j.otherStore, j.outerStore} {
			if s != "" {
				delete(c.stores, s)
				c.storeOrder = slices.DeleteFunc(c.storeOrder, func(n string) bool { return n == s })
			}
		}
		kept := *c.stores[j.thisStore]
		kept.users = []string{j.thisWindowed, j.merge}
		c.stores[j.thisStore] = &kept
	}
	c.selfJoins = nil
	c.relink()
	c.finish()
	return c
}

// selfJoinProcessor is Kafka's KStreamKStreamSelfJoin: the join of a stream
// with itself over one window store, in the order the two-sided join
// emits. The store lacks the record itself (the windowed processor stores
// it after forwarding it), so the record's own pair is emitted at its
// place among the other side's matches: after those no later than it.
type selfJoinProcessor struct {
	store                   string
	thisBefore, thisAfter   int64
	otherBefore, otherAfter int64
	retention               int64
	joiner                  func(k, l, r any) any
	ctx                     ProcessorContext
	ws                      *WindowStore
	streamTime              int64
}

func (p *selfJoinProcessor) Init(ctx ProcessorContext) (err error) {
	p.ctx, p.streamTime = ctx, -1
	p.ws, err = windowStoreOf(ctx, p.store)
	return err
}

func (p *selfJoinProcessor) Process(r Record) error {
	if r.Key == nil || r.Value == nil {
		p.ctx.RecordDropped(droppedNullKeyOrValue)
		return nil
	}
	ts := r.Timestamp
	p.streamTime = max(p.streamTime, ts)
	// The window store would not have kept an expired record, so the
	// two-sided join would not have found the record itself.
	emitSelf := ts > p.streamTime-p.retention+1
	forward := func(v any, at int64) error {
		out := r
		out.Value, out.Timestamp = v, at
		return p.ctx.Forward(out)
	}
	type match struct {
		ts    int64
		value any
	}
	fetch := func(before, after int64) ([]match, error) {
		var ms []match
		err := p.ws.FetchRange(r.Key, max(0, ts-before), max(0, ts+after), func(ots int64, v any) error {
			ms = append(ms, match{ots, v})
			return nil
		})
		return ms, err
	}
	ms, err := fetch(p.thisBefore, p.thisAfter)
	if err != nil {
		return err
	}
	for _, m := range ms {
		if err := forward(p.joiner(r.Key, r.Value, m.value), max(ts, m.ts)); err != nil {
			return err
		}
	}
	if ms, err = fetch(p.otherBefore, p.otherAfter); err != nil {
		return err
	}
	selfDone := !emitSelf
	for _, m := range ms {
		if !selfDone && m.ts > ts {
			selfDone = true
			if err := forward(p.joiner(r.Key, r.Value, r.Value), ts); err != nil {
				return err
			}
		}
		if err := forward(p.joiner(r.Key, m.value, r.Value), max(ts, m.ts)); err != nil {
			return err
		}
	}
	if !selfDone {
		return forward(p.joiner(r.Key, r.Value, r.Value), ts)
	}
	return nil
}

func (p *selfJoinProcessor) Close() error { return nil }
