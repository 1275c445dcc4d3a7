package kstreams

import (
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

// WithGracePeriod is Joined.withGracePeriod: stream records wait up to
// grace for the table, which must be versioned. StoatFlow has no versioned
// tables yet, so a join with a grace period fails to build, with Kafka
// Streams' IllegalArgumentException message for a table that is not
// versioned. (Kafka Streams throws it when the join is built, or, over an
// unmaterialized filter or mapValues whose versioning it cannot tell then,
// when the task starts.)
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
	if j.hasGrace {
		b.fail(errIllegalArgument("KTable must be versioned to use a grace period in a stream table join."))
	}
	g, err := t.valueGetterSupplier()
	b.fail(err)
	arg := valueArg[V](s.view)
	b.copartition(streamSide, t.name)
	b.addNode(&nodeSpec{name: name, kind: ProcessorNode, preds: []string{streamSide}, supplier: func() Processor {
		return &streamTableJoinProcessor{getter: g, left: left, join: func(k, v, vo any) any {
			x, _ := arg(v) // never null: null values are dropped before the join
			return nullable(join(as[K](k), x, vo))
		}}
	}})
	b.connectGetter(name, g)
	if left {
		b.nullKeys.relaxed(name)
	}
	return &KStream[K, VR]{b: b, name: name, key: key}
}

// streamTableJoinProcessor is KStreamKTableJoinProcessor without a grace
// period: each stream record looks the table up through the getter.
type streamTableJoinProcessor struct {
	ctx    ProcessorContext
	getter getterSupplier
	get    valueGetter
	asOf   asOfGetter // set for a versioned table: the row at the record's timestamp
	left   bool
	join   func(k, v, vo any) any // vo nil: no row
}

func (p *streamTableJoinProcessor) Init(ctx ProcessorContext) (err error) {
	p.ctx = ctx
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
	r.Value = p.join(r.Key, r.Value, vo)
	return p.ctx.Forward(r)
}

func (p *streamTableJoinProcessor) Close() error { return nil }
