package kstreams

import (
	"fmt"
	"time"

	"github.com/stoatflow/stoatflow/kstreams/serde"
)

// Name prefixes of the stream–table join processors.
const (
	prefixStreamTableJoin     = "KSTREAM-JOIN-"
	prefixStreamTableLeftJoin = "KSTREAM-LEFTJOIN-"
)

// Joined configures a stream–table join: Kafka's Joined. Name names the
// join processor (Joined.as) and, if an earlier operation changed the
// stream's key, the repartition topic <Name>-repartition written first.
// KeySerde is the key serde of the repartition topic and of the result;
// ValueSerde the stream's value serde on the repartition topic. Nil serdes
// take the stream's own, else the application defaults. The table's values
// come from its own store, so Kafka's otherValueSerde has no counterpart.
type Joined[K, V any] struct {
	Name       string
	KeySerde   serde.Serde[K]
	ValueSerde serde.Serde[V]

	grace    time.Duration
	hasGrace bool
}

// JoinedWith is Joined.with(keySerde, valueSerde, otherValueSerde) without
// the other value serde.
func JoinedWith[K, V any](k serde.Serde[K], v serde.Serde[V]) Joined[K, V] {
	return Joined[K, V]{KeySerde: k, ValueSerde: v}
}

// WithGracePeriod is Joined.withGracePeriod: each stream record waits in
// the join's buffer (store <join>-Buffer, with a changelog) until stream
// time has passed it by grace, then joins the table as of its timestamp, so
// table updates up to grace late are seen. The table must be versioned,
// with a history retention of at least grace; a record already older than
// stream time minus grace joins at once.
func (j Joined[K, V]) WithGracePeriod(grace time.Duration) Joined[K, V] {
	j.grace, j.hasGrace = grace, true
	return j
}

// StreamTableJoin joins each record of s with the row of t under its key,
// as t holds it when the record is processed: KStream.join(KTable,
// ValueJoinerWithKey, Joined), a KSTREAM-JOIN processor. A record whose key
// has no row in t produces nothing; one with a null key or a null value is
// dropped and counted in the dropped-records metric, as Kafka Streams does.
// Table updates produce nothing: only stream records look the table up. The
// result has the stream record's key and timestamp; a nil result (of a VR
// that can hold nil) is forwarded as a null value.
//
// t is read through its value getter: a table without a store computes its
// rows from its parent's, and an unmaterialized source table is
// materialized (store <topic>-STATE-STORE-<n>, with a changelog), as in
// Kafka Streams. If an earlier operation changed the stream's key, the
// stream is first repartitioned through <Joined.Name or the stream's last
// processor>-repartition.
func StreamTableJoin[K, V, VO, VR any](s *KStream[K, V], t *KTable[K, VO], joiner func(K, V, VO) VR, joined ...Joined[K, V]) *KStream[K, VR] {
	tv := valueArg[VO](t.view)
	return streamTableJoin(s, t, false, firstJoined(joined), func(k K, v V, raw any) VR {
		vo, _ := tv(raw) // never null: an inner join is called only for a row
		return joiner(k, v, vo)
	})
}

// StreamTableLeftJoin is StreamTableJoin as a left join:
// KStream.leftJoin(KTable, ...), a KSTREAM-LEFTJOIN processor. A record whose
// key has no row in t is joined all the same, with a nil *VO: the joiner
// tells the missing row from a zero value by the pointer (a *VO points at a
// value only for a row of t). A record with a null key but a value is
// joined with a nil *VO too (the joiner sees K's zero value; the result
// keeps the null key); one with a null value is dropped and counted.
func StreamTableLeftJoin[K, V, VO, VR any](s *KStream[K, V], t *KTable[K, VO], joiner func(K, V, *VO) VR, joined ...Joined[K, V]) *KStream[K, VR] {
	tv := valueArg[VO](t.view)
	return streamTableJoin(s, t, true, firstJoined(joined), func(k K, v V, raw any) VR {
		if raw == nil {
			return joiner(k, v, nil)
		}
		vo, _ := tv(raw)
		return joiner(k, v, &vo)
	})
}

func firstJoined[K, V any](j []Joined[K, V]) Joined[K, V] {
	if len(j) > 0 {
		return j[0]
	}
	return Joined[K, V]{}
}

func streamTableJoin[K, V, VO, VR any](s *KStream[K, V], t *KTable[K, VO], left bool, j Joined[K, V], join func(K, V, any) VR) *KStream[K, VR] {
	b := s.b
	if t.b != b {
		b.fail(invalidTopology("kstreams: the stream and the table of a join must come from the same builder"))
		return derive[K, V, K, VR](s, s.name, serdeSpec{}, serdeSpec{}, false)
	}
	key := orSpec(j.KeySerde, s.key)
	streamSide := s.name
	if s.repartitionRequired {
		streamSide = repartitionForJoin(b, s.name, j.Name, "", &s.joinRepartition, key, viewSpec(s.view, j.ValueSerde, s.val))
	}
	prefix := prefixStreamTableJoin
	if left {
		prefix = prefixStreamTableLeftJoin
	}
	name := b.orGenerate(j.Name, prefix)
	g, err := t.valueGetterSupplier()
	b.fail(err)
	buffer, grace := "", int64(-1)
	if j.hasGrace {
		buffer, grace = name+"-Buffer", j.grace.Milliseconds()
		if j.Name == "" {
			b.unnamedStore(buffer, true)
		}
		b.fail(b.checkJoinGrace(t.versioned, g, grace))
		b.fail(b.topo.addStore(&StoreSpec{Name: buffer, Kind: KeyValueStoreKind, Type: RocksDB, Logging: true, joinBuffer: true,
			key: key, val: viewSpec(s.view, j.ValueSerde, s.val)}))
	}
	arg := valueArg[V](s.view)
	b.copartition(streamSide, t.name)
	b.addNode(&nodeSpec{name: name, kind: ProcessorNode, preds: []string{streamSide}, supplier: func() Processor {
		return &streamTableJoinProcessor{getter: g, left: left, buffer: buffer, grace: grace, joiner: func(k, v, vo any) any {
			x, _ := arg(v) // never null: null values are dropped before the join
			return nullable(join(as[K](k), x, vo))
		}}
	}})
	b.connectGetter(name, g)
	if buffer != "" {
		b.fail(b.topo.connectStore(name, buffer))
	}
	if left {
		b.nullKeys.relaxed(name)
	}
	return &KStream[K, VR]{b: b, name: name, key: key}
}

// checkJoinGrace makes Kafka Streams' checks of a join's grace period: the
// table is versioned, and so is every store its getter reads, each keeping
// history for at least grace.
func (b *StreamsBuilder) checkJoinGrace(versioned bool, g getterSupplier, grace int64) error {
	if !versioned || g.asOf == nil {
		return errIllegalArgument("KTable must be versioned to use a grace period in a stream table join.")
	}
	for _, name := range g.stores {
		st := b.topo.stores[name]
		if st == nil || st.Kind != VersionedStoreKind {
			return errIllegalArgument("KTable must be versioned to use a grace period in a stream table join.")
		}
		if grace > st.Retention {
			return errIllegalArgument("History retention must be at least grace period.")
		}
	}
	return nil
}

// streamTableJoinProcessor is KStreamKTableJoinProcessor: each stream
// record looks the table up through the getter, at once or, with a grace
// period, when it leaves the buffer.
type streamTableJoinProcessor struct {
	ctx    ProcessorContext
	getter getterSupplier
	buffer string // the grace-period buffer's store, or ""
	grace  int64
	buf    *joinBuffer
	get    valueGetter
	asOf   asOfGetter // set for a versioned table: the row at the record's timestamp
	left   bool
	joiner func(k, v, vo any) any // vo nil: no row
}

func (p *streamTableJoinProcessor) Init(ctx ProcessorContext) (err error) {
	p.ctx = ctx
	if p.buffer != "" {
		s, err := ctx.StateStore(p.buffer)
		if err != nil {
			return err
		}
		var ok bool
		if p.buf, ok = s.(*joinBuffer); !ok {
			return fmt.Errorf("kstreams: store %s is a %T, not a join buffer", p.buffer, s)
		}
		if err := p.buf.load(); err != nil {
			return err
		}
	}
	if p.getter.asOf != nil {
		p.asOf, err = p.getter.asOf(ctx)
		return err
	}
	p.get, err = p.getter.init(ctx)
	return err
}

func (p *streamTableJoinProcessor) Process(r Record) error {
	// A null value is no record to join (and a left join's null table side
	// means a missing row, so it cannot stand for one either); a null key
	// has no row, but a left join still emits it.
	keep := p.left && r.Key == nil && r.Value != nil
	if !keep && (r.Key == nil || r.Value == nil) {
		p.ctx.RecordDropped("Skipping record due to null join key or value.")
		return nil
	}
	if p.buf == nil || r.Key == nil {
		return p.join(r)
	}
	nc, ok := p.ctx.(nodeContext)
	if !ok {
		return fmt.Errorf("kstreams: a stream-table join's buffer needs a task's processor context, got %T", p.ctx)
	}
	task := nc.n.task
	if buffered, err := p.buf.put(p.grace, r, recordContextOf(task, r)); err != nil || !buffered {
		if err != nil {
			return err
		}
		return p.join(r)
	}
	return p.buf.evict(p.grace, func(r Record, rc bufferedContext) error {
		prevMD, prevHas := task.md, task.hasMD
		task.md, task.hasMD = RecordMetadata{Topic: rc.Topic, Partition: rc.Partition, Offset: rc.Offset}, true
		defer func() { task.md, task.hasMD = prevMD, prevHas }()
		return p.join(r)
	})
}

// join looks r's key up in the table (as of r's time for a versioned
// table) and forwards the joined record.
func (p *streamTableJoinProcessor) join(r Record) error {
	var vo any
	if r.Key != nil {
		var v any
		var ok bool
		var err error
		if p.asOf != nil {
			v, _, ok, err = p.asOf(r.Key, r.Timestamp)
		} else {
			v, _, ok, err = p.get(r.Key)
		}
		if err != nil {
			return err
		}
		if ok {
			vo = v
		}
	}
	if vo == nil && !p.left {
		return nil
	}
	r.Value = p.joiner(r.Key, r.Value, vo)
	return p.ctx.Forward(r)
}

func (p *streamTableJoinProcessor) Close() error { return nil }
