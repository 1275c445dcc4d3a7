package kstreams

import (
	"bytes"
	"fmt"
	"slices"

	"github.com/stoatflow/stoatflow/internal/storeformat"
	"github.com/stoatflow/stoatflow/kstreams/serde"
)

// Name prefixes of the foreign-key join (KTableImpl's constants).
const (
	prefixFKRegistration = "KTABLE-FK-JOIN-SUBSCRIPTION-REGISTRATION-"
	prefixFKResponse     = "KTABLE-FK-JOIN-SUBSCRIPTION-RESPONSE-"
	prefixFKProcessor    = "KTABLE-FK-JOIN-SUBSCRIPTION-PROCESSOR-"
	prefixFKStore        = "KTABLE-FK-JOIN-SUBSCRIPTION-STATE-STORE-"
	prefixFKResolver     = "KTABLE-FK-JOIN-SUBSCRIPTION-RESPONSE-RESOLVER-PROCESSOR-"
	prefixFKOutput       = "KTABLE-FK-JOIN-OUTPUT-"
	prefixTableSink      = "KTABLE-SINK-"
	fkTopicSuffix        = "-topic"
)

// TableJoined names a foreign-key join: Kafka's TableJoined.as(name). The
// join's processors, store and topics are then name-suffix (for instance
// name-subscription-registration-topic) instead of generated names.
type TableJoined struct {
	Name string
}

// TableJoinedAs is TableJoined.as(name).
func TableJoinedAs(name string) TableJoined { return TableJoined{Name: name} }

// TableJoinedWith is a TableJoined with partitioners: Kafka's
// TableJoined.with(partitioner, otherPartitioner), withName,
// withPartitioner and withOtherPartitioner, for tables whose topics are not
// partitioned by the default partitioner. Partitioner places a key of the
// left table (K), and so the subscription-response topic's records, which
// otherwise go to the partition the left row was read from;
// OtherPartitioner places a key of the other table (KO), and so the
// subscription-registration topic's records, keyed by foreign key, which
// otherwise go where the key's hash says. Either may be nil (the default).
// The value a partitioner gets is always nil (Kafka's Void). A partitioner
// that chooses partitions must choose exactly one: more, or none, fail the
// record with Kafka Streams' error; ok false leaves the record to the
// default partitioner (the key's hash), on the response topic too.
type TableJoinedWith[K, KO any] struct {
	Name             string
	Partitioner      StreamPartitioner[K, any]
	OtherPartitioner StreamPartitioner[KO, any]
}

// FKJoinOption is an option of a foreign-key join: a TableJoined, a
// TableJoinedWith[K, KO] or a Materialized[K, VR] (the result's store).
type FKJoinOption[K, VR any] interface{ fkJoinOption() }

func (TableJoined) fkJoinOption()            {}
func (TableJoinedWith[K, KO]) fkJoinOption() {}
func (Materialized[K, V]) fkJoinOption()     {}

// fkPartitioner erases a foreign-key join's partitioner for its sink: the
// record's value is not the partitioner's to see.
func fkPartitioner[K any](p StreamPartitioner[K, any]) partitionerFunc {
	if p == nil {
		return nil
	}
	return func(topic string, k, _ any, n int) ([]int32, bool) { return p(topic, as[K](k), nil, n) }
}

// TableForeignKeyJoin joins t with other where a row of t names a row of
// other: KTable.join(other, foreignKeyExtractor, joiner, TableJoined,
// Materialized). fk gives a left value's foreign key (ok false: none, a
// null foreign key); the result holds joiner(v, vo) for every row of t
// whose foreign key other holds, keyed as t. It is computed as Kafka
// Streams does, through a subscription-registration topic partitioned as
// other, a subscription store, and a subscription-response topic
// partitioned as t; responses computed from a left value that has changed
// since are dropped (the hash of the left value they carry no longer
// matches). Records whose foreign key is null are dropped and counted.
//
// opts may hold a TableJoined and a Materialized; only a named
// Materialized gives the result a store, as in Kafka Streams.
func TableForeignKeyJoin[K, V, KO, VO, VR any](t *KTable[K, V], other *KTable[KO, VO], fk func(V) (KO, bool), joiner func(V, VO) VR, opts ...FKJoinOption[K, VR]) *KTable[K, VR] {
	return TableForeignKeyJoinWithKey(t, other, func(_ K, v V) (KO, bool) { return fk(v) }, joiner, opts...)
}

// TableForeignKeyJoinWithKey is TableForeignKeyJoin with an extractor that
// reads the left key as well as the value (the BiFunction extractor of
// Kafka Streams 4.x).
func TableForeignKeyJoinWithKey[K, V, KO, VO, VR any](t *KTable[K, V], other *KTable[KO, VO], fk func(K, V) (KO, bool), joiner func(V, VO) VR, opts ...FKJoinOption[K, VR]) *KTable[K, VR] {
	tv, ov := valueArg[V](t.view), valueArg[VO](other.view)
	return foreignKeyJoin(t, other, false, fkExtractor(t, fk), func(v, vo any) any {
		x, _ := tv(v)
		y, _ := ov(vo)
		return nullable(joiner(x, y))
	}, opts)
}

// TableForeignKeyLeftJoin is TableForeignKeyJoin as a left join:
// KTable.leftJoin(other, foreignKeyExtractor, joiner, ...). Every row of t
// has a result; the joiner's *VO is nil where the foreign key is null or
// other holds no row for it.
func TableForeignKeyLeftJoin[K, V, KO, VO, VR any](t *KTable[K, V], other *KTable[KO, VO], fk func(V) (KO, bool), joiner func(V, *VO) VR, opts ...FKJoinOption[K, VR]) *KTable[K, VR] {
	return TableForeignKeyLeftJoinWithKey(t, other, func(_ K, v V) (KO, bool) { return fk(v) }, joiner, opts...)
}

// TableForeignKeyLeftJoinWithKey is TableForeignKeyLeftJoin with an
// extractor that reads the left key as well as the value.
func TableForeignKeyLeftJoinWithKey[K, V, KO, VO, VR any](t *KTable[K, V], other *KTable[KO, VO], fk func(K, V) (KO, bool), joiner func(V, *VO) VR, opts ...FKJoinOption[K, VR]) *KTable[K, VR] {
	tv, ov := valueArg[V](t.view), rowPointer[VO](other.view)
	return foreignKeyJoin(t, other, true, fkExtractor(t, fk), func(v, vo any) any {
		x, _ := tv(v)
		return nullable(joiner(x, ov(vo)))
	}, opts)
}

// fkExtractor adapts a typed extractor to the records' raw keys and values;
// a nil result is a null foreign key.
func fkExtractor[K, V, KO any](t *KTable[K, V], fk func(K, V) (KO, bool)) func(k, v any) any {
	tv := valueArg[V](t.view)
	return func(k, v any) any {
		x, ok := tv(v)
		if !ok {
			return nil
		}
		key, _ := k.(K)
		out, ok := fk(key, x)
		if !ok {
			return nil
		}
		return nullable(out)
	}
}

// fkJoin is what the processors of one foreign-key join share.
type fkJoin struct {
	left         bool
	extract      func(k, v any) any
	joiner       func(v, vo any) any
	registration string // subscription-registration topic, undecorated
	store        string // subscription store
	// The serdes of the left key and value and of the foreign key, as the
	// tables give them (nil: the application's default).
	leftKey, leftVal, foreignKey serdeSpec
	// leftVersioned and rightVersioned: that side's table is versioned, and
	// its out-of-order updates join nothing (KIP-914).
	leftVersioned, rightVersioned bool
}

// fkSerdes are an fkJoin's serdes resolved in a task, with the pseudo
// topics Kafka Streams serializes them for.
type fkSerdes struct {
	leftKey, leftVal, foreignKey serde.Untyped
	pkTopic, fkTopic, vhTopic    string
}

func (j *fkJoin) serdes(ctx ProcessorContext) (fkSerdes, error) {
	var defKey, defVal serde.Untyped
	if d, ok := ctx.(interface {
		defaultSerdes() (serde.Untyped, serde.Untyped)
	}); ok {
		defKey, defVal = d.defaultSerdes()
	}
	var s fkSerdes
	var err error
	if s.leftKey, err = j.leftKey.resolve(defKey); err != nil {
		return s, fmt.Errorf("kstreams: foreign-key join: left key serde: %w", err)
	}
	if s.leftVal, err = j.leftVal.resolve(defVal); err != nil {
		return s, fmt.Errorf("kstreams: foreign-key join: left value serde: %w", err)
	}
	if s.foreignKey, err = j.foreignKey.resolve(defKey); err != nil {
		return s, fmt.Errorf("kstreams: foreign-key join: foreign key serde: %w", err)
	}
	// Kafka Streams' decoratePseudoTopic: the serdes see these names, which
	// matters to serdes that look at the topic (a schema registry's).
	base := ctx.ApplicationID() + "-" + j.registration
	s.pkTopic, s.fkTopic, s.vhTopic = base+"-pk", base+"-fk", base+"-vh"
	return s, nil
}

// hash is Murmur3.hash128 of the serialized left value; nil for a null one.
func (s fkSerdes) hash(v any) (*storeformat.ValueHash, error) {
	if v == nil {
		return nil, nil
	}
	b, err := s.leftVal.SerializeAny(s.vhTopic, v)
	if err != nil {
		return nil, fmt.Errorf("kstreams: foreign-key join: hashing the left value: %w", err)
	}
	if b == nil {
		return nil, nil
	}
	h := storeformat.Murmur3Hash128(b)
	return &h, nil
}

func foreignKeyJoin[K, V, KO, VO, VR any](t *KTable[K, V], other *KTable[KO, VO], left bool, extract func(k, v any) any,
	joiner func(v, vo any) any, opts []FKJoinOption[K, VR]) *KTable[K, VR] {
	b := t.b
	if other.b != b {
		b.fail(invalidTopology("kstreams: the tables of a join must come from the same builder"))
		return &KTable[K, VR]{b: b, name: t.name}
	}
	var name string
	var mat Materialized[K, VR]
	var partitioner, otherPartitioner partitionerFunc
	for _, opt := range opts {
		switch o := opt.(type) {
		case TableJoined:
			name = o.Name
		case TableJoinedWith[K, KO]:
			name = o.Name
			partitioner, otherPartitioner = fkPartitioner(o.Partitioner), fkPartitioner(o.OtherPartitioner)
		case Materialized[K, VR]:
			mat = o
			b.fail(validateName(o.Name))
		default:
			b.fail(invalidTopology("option of type %T does not fit a foreign-key join", opt))
		}
	}
	// Old values of the right side spare a scan when its value did not
	// change; those of the left side let a changed foreign key unsubscribe.
	other.old.request(true)
	t.old.request(true)

	j := &fkJoin{left: left, extract: extract, joiner: joiner, leftKey: t.key, leftVal: t.val, foreignKey: other.key,
		leftVersioned: t.versioned, rightVersioned: other.versioned}
	j.registration = b.suffixOrGenerate(name, "-subscription-registration", prefixFKRegistration) + fkTopicSuffix
	sendName := b.suffixOrGenerate(name, "-subscription-registration-processor", prefixFKRegistration)
	b.addNode(&nodeSpec{name: sendName, kind: ProcessorNode, preds: []string{t.name},
		supplier: func() Processor { return &fkSubscriptionSend{j: j} }})

	subSerde := serdeSpec{explicit: fkSubscriptionSerde{}}
	sinkName := b.suffixOrGenerate(name, "-subscription-registration-sink", prefixTableSink)
	b.topo.repartition[j.registration] = &repartitionSpec{name: j.registration, copartition: b.sourcesOf(other.name)}
	b.addNode(&nodeSpec{name: sinkName, kind: SinkNode, preds: []string{sendName}, topic: j.registration, key: other.key, val: subSerde,
		partitioner: otherPartitioner, singlePartition: true})
	sourceName := b.suffixOrGenerate(name, "-subscription-registration-source", prefixTableSource)
	b.addNode(&nodeSpec{name: sourceName, kind: SourceNode, topics: []string{j.registration}, key: other.key, val: subSerde})
	b.topo.copartitionSources = append(b.topo.copartitionSources, append(b.sourcesOf(other.name), sourceName))

	j.store = b.suffixOrGenerate(name, "-subscription-store", prefixFKStore)
	b.fail(b.topo.addStore(kvStoreSpec(j.store, DefaultStore, false, nil, true, spec[serde.BytesValue](serde.Bytes{}), subSerde)))

	receiveName := b.suffixOrGenerate(name, "-subscription-receive", prefixFKProcessor)
	b.addNode(&nodeSpec{name: receiveName, kind: ProcessorNode, preds: []string{sourceName},
		supplier: func() Processor { return &fkSubscriptionReceive{j: j} }})
	b.fail(b.topo.connectStore(receiveName, j.store))

	foreignGetter, err := other.valueGetterSupplier()
	b.fail(err)
	joinName := b.suffixOrGenerate(name, "-subscription-join-foreign", prefixFKProcessor)
	b.addNode(&nodeSpec{name: joinName, kind: ProcessorNode, preds: []string{receiveName},
		supplier: func() Processor { return &fkSubscriptionJoin{j: j, getter: foreignGetter} }})
	b.connectGetter(joinName, foreignGetter)

	foreignJoinName := b.suffixOrGenerate(name, "-foreign-join-subscription", prefixFKProcessor)
	b.addNode(&nodeSpec{name: foreignJoinName, kind: ProcessorNode, preds: []string{other.name},
		supplier: func() Processor { return &fkForeignTableJoin{j: j} }})
	b.fail(b.topo.connectStore(foreignJoinName, j.store))

	response := b.suffixOrGenerate(name, "-subscription-response", prefixFKResponse) + fkTopicSuffix
	respSerde := serdeSpec{explicit: other.val.explicit, wrap: func(fv serde.Untyped) serde.Untyped {
		if other.val.wrap != nil {
			fv = other.val.wrap(fv)
		}
		return fkResponseSerde{foreign: fv}
	}}
	respSink := b.suffixOrGenerate(name, "-subscription-response-sink", prefixTableSink)
	b.topo.repartition[response] = &repartitionSpec{name: response, copartition: b.sourcesOf(t.name)}
	// A partitioner of the left table's keys replaces the left row's
	// partition the subscription carried, as in Kafka Streams.
	respNode := &nodeSpec{name: respSink, kind: SinkNode, preds: []string{joinName, foreignJoinName}, topic: response, key: t.key, val: respSerde,
		partitioner: partitioner, singlePartition: true}
	if partitioner == nil {
		respNode.partition = func(r Record) (int32, bool) {
			resp, ok := r.Value.(fkResponse)
			return resp.partition, ok && resp.hasPartition
		}
	}
	b.addNode(respNode)
	respSource := b.suffixOrGenerate(name, "-subscription-response-source", prefixTableSource)
	b.addNode(&nodeSpec{name: respSource, kind: SourceNode, topics: []string{response}, key: t.key, val: respSerde})
	b.topo.copartitionSources = append(b.topo.copartitionSources, append(b.sourcesOf(t.name), respSource))

	leftGetter, err := t.valueGetterSupplier()
	b.fail(err)
	resolverName := b.suffixOrGenerate(name, "-subscription-response-resolver", prefixFKResolver)
	b.addNode(&nodeSpec{name: resolverName, kind: ProcessorNode, preds: []string{respSource},
		supplier: func() Processor { return &fkResponseJoin{j: j, getter: leftGetter} }})
	b.connectGetter(resolverName, leftGetter)

	outputName := b.suffixOrGenerate(name, "-result", prefixFKOutput)
	// The result is a KTableSource: Kafka Streams draws its store name even
	// when only a later join or re-grouping builds the store, and only a
	// named Materialized materializes it at once.
	store, drawn := mat.Name, mat.Name
	if store == "" {
		drawn = b.newStoreName(prefixFKOutput)
		b.unnamedStore(drawn, !mat.LoggingDisabled)
	}
	key, val := orSpec(mat.KeySerde, t.key), spec(mat.ValueSerde)
	m := mat
	src := newSourceTable(b, outputName, drawn, store != "", func() *StoreSpec {
		return kvStoreSpec(drawn, m.StoreType, m.LoggingDisabled, m.LogConfig, m.CachingDisabled, key, val)
	})
	b.addNode(&nodeSpec{name: outputName, kind: ProcessorNode, preds: []string{resolverName}, supplier: src.supplier()})
	result := &KTable[K, VR]{b: b, name: outputName, key: key, val: val, storeName: store, old: src.old, getter: src.getter,
		versioned: mat.isVersioned()}
	result.addTableStore(outputName, store, mat, key, val)
	return result
}

// sourcesOf is the source nodes that feed node: the nodes Kafka Streams
// keeps as a table's subTopologySourceNodes, which co-partition the
// foreign-key join's topics.
func (b *StreamsBuilder) sourcesOf(node string) []string {
	var out []string
	seen := map[string]bool{}
	var walk func(string)
	walk = func(name string) {
		if seen[name] {
			return
		}
		seen[name] = true
		n, ok := b.topo.byName[name]
		if !ok {
			return
		}
		if n.kind == SourceNode {
			out = append(out, name)
			return
		}
		for _, p := range n.preds {
			walk(p)
		}
	}
	walk(node)
	slices.Sort(out)
	return out
}

// fkSubscriptionSend is SubscriptionSendProcessorSupplier's processor: a
// change of a left row becomes the subscriptions its old and new foreign
// keys need, keyed by foreign key.
type fkSubscriptionSend struct {
	ctx ProcessorContext
	j   *fkJoin
	s   fkSerdes
}

func (p *fkSubscriptionSend) Init(ctx ProcessorContext) (err error) {
	p.ctx = ctx
	p.s, err = p.j.serdes(ctx)
	return err
}

func (p *fkSubscriptionSend) Process(r Record) error {
	c, _ := r.Value.(Change)
	if p.j.leftVersioned && c.notLatest {
		p.ctx.RecordDropped(outOfOrderVersionedJoin)
		return nil
	}
	var oldFK, newFK any
	if c.Old != nil {
		oldFK = p.j.extract(r.Key, c.Old)
	}
	if c.New != nil {
		newFK = p.j.extract(r.Key, c.New)
	}
	hash, err := p.s.hash(c.New)
	if err != nil {
		return err
	}
	send := func(fk any, in storeformat.FKInstruction) error { return p.forward(r, fk, in, hash) }
	if p.j.left {
		if c.Old == nil && c.New == nil {
			return nil
		}
		if oldFK != nil {
			changed, err := p.changed(newFK, oldFK)
			if err != nil {
				return err
			}
			if changed {
				if err := send(oldFK, storeformat.DeleteKeyNoPropagate); err != nil {
					return err
				}
			}
		}
		return send(newFK, storeformat.PropagateNullIfNoFKValAvailable)
	}
	if c.New == nil {
		if oldFK != nil {
			return send(oldFK, storeformat.DeleteKeyAndPropagate)
		}
		return nil
	}
	if newFK == nil {
		p.ctx.RecordDropped("Skipping record due to null foreign key.")
		if oldFK != nil {
			return send(oldFK, storeformat.DeleteKeyAndPropagate)
		}
		return nil
	}
	if oldFK == nil {
		return send(newFK, storeformat.PropagateOnlyIfFKValAvailable)
	}
	changed, err := p.changed(newFK, oldFK)
	if err != nil {
		return err
	}
	if !changed {
		return send(newFK, storeformat.PropagateOnlyIfFKValAvailable)
	}
	// A new foreign key: leave the old one's subscriptions, and clear the
	// result if the new one has no row.
	if err := send(oldFK, storeformat.DeleteKeyNoPropagate); err != nil {
		return err
	}
	return send(newFK, storeformat.PropagateNullIfNoFKValAvailable)
}

// changed compares two foreign keys by their serialized bytes, as Kafka
// Streams does.
func (p *fkSubscriptionSend) changed(newFK, oldFK any) (bool, error) {
	nb, err := p.fkBytes(newFK)
	if err != nil {
		return false, err
	}
	ob, err := p.fkBytes(oldFK)
	if err != nil {
		return false, err
	}
	return (nb == nil) != (ob == nil) || !bytes.Equal(nb, ob), nil
}

func (p *fkSubscriptionSend) fkBytes(fk any) ([]byte, error) {
	if fk == nil {
		return nil, nil
	}
	b, err := p.s.foreignKey.SerializeAny(p.s.fkTopic, fk)
	if err != nil {
		return nil, fmt.Errorf("kstreams: foreign-key join: foreign key %v: %w", fk, err)
	}
	return b, nil
}

func (p *fkSubscriptionSend) forward(r Record, fk any, in storeformat.FKInstruction, hash *storeformat.ValueHash) error {
	pk, err := p.s.leftKey.SerializeAny(p.s.pkTopic, r.Key)
	if err != nil {
		return fmt.Errorf("kstreams: foreign-key join: primary key %v: %w", r.Key, err)
	}
	if pk == nil {
		return fmt.Errorf("kstreams: foreign-key join: the primary key serialized to null")
	}
	partition := p.ctx.TaskID().Partition
	if md, ok := p.ctx.RecordMetadata(); ok {
		partition = md.Partition
	}
	sub := storeformat.Subscription{Version: storeformat.SubscriptionVersion, Instruction: in, Hash: hash, PrimaryKey: pk,
		PrimaryPartition: partition, HasPartition: true}
	return p.ctx.Forward(Record{Key: fk, Value: sub, Timestamp: r.Timestamp, Headers: r.Headers})
}

func (p *fkSubscriptionSend) Close() error { return nil }

// fkCombinedKey is Kafka's CombinedKey: a foreign key (nil: null) and the
// serialized primary key.
type fkCombinedKey struct {
	foreignKey any
	primaryKey []byte
}

// fkChange is the Change<ValueAndTimestamp<SubscriptionWrapper>> the
// receive processor forwards; only its new side is read downstream.
type fkChange struct {
	sub storeformat.Subscription
	ts  int64
}

// fkSubscriptionReceive is SubscriptionReceiveProcessorSupplier's
// processor: it keeps the subscriptions of each foreign key in the
// subscription store, under CombinedKey(foreign key, primary key).
type fkSubscriptionReceive struct {
	ctx   ProcessorContext
	j     *fkJoin
	s     fkSerdes
	store *TimestampedKeyValueStore
}

func (p *fkSubscriptionReceive) Init(ctx ProcessorContext) (err error) {
	p.ctx = ctx
	if p.s, err = p.j.serdes(ctx); err != nil {
		return err
	}
	p.store, err = storeAs[*TimestampedKeyValueStore](ctx, p.j.store)
	return err
}

func (p *fkSubscriptionReceive) Process(r Record) error {
	sub, ok := r.Value.(storeformat.Subscription)
	if !ok {
		return fmt.Errorf("kstreams: foreign-key join: subscription of type %T: %w", r.Value, ErrValueType)
	}
	if r.Key == nil && sub.Instruction != storeformat.PropagateNullIfNoFKValAvailable {
		p.ctx.RecordDropped("Skipping record due to null foreign key.")
		return nil
	}
	out := Record{Key: fkCombinedKey{foreignKey: r.Key, primaryKey: sub.PrimaryKey}, Value: fkChange{sub: sub, ts: r.Timestamp},
		Timestamp: r.Timestamp, Headers: r.Headers}
	if r.Key == nil { // a left join's null foreign key: nothing to remember
		return p.ctx.Forward(out)
	}
	fk, err := p.s.foreignKey.SerializeAny(p.s.fkTopic, r.Key)
	if err != nil {
		return fmt.Errorf("kstreams: foreign-key join: foreign key %v: %w", r.Key, err)
	}
	key := serde.BytesValue(storeformat.AppendCombinedKey(nil, fk, sub.PrimaryKey))
	switch sub.Instruction {
	case storeformat.DeleteKeyAndPropagate, storeformat.DeleteKeyNoPropagate:
		err = p.store.Put(key, nil, r.Timestamp)
	default:
		err = p.store.Put(key, sub, r.Timestamp)
	}
	if err != nil {
		return err
	}
	return p.ctx.Forward(out)
}

func (p *fkSubscriptionReceive) Close() error { return nil }

// fkResponse is a SubscriptionResponseWrapper on its way to the response
// topic: the hash of the left value it answers, the foreign value (nil:
// null) and the left row's partition, which picks the topic partition.
type fkResponse struct {
	version      byte
	hash         *storeformat.ValueHash
	foreign      any
	partition    int32
	hasPartition bool
}

// fkSubscriptionJoin is SubscriptionJoinProcessorSupplier's processor: a
// new subscription looks its foreign key up in the right table and answers
// as its instruction says.
type fkSubscriptionJoin struct {
	ctx    ProcessorContext
	j      *fkJoin
	s      fkSerdes
	getter getterSupplier
	get    valueGetter
}

func (p *fkSubscriptionJoin) Init(ctx ProcessorContext) (err error) {
	p.ctx = ctx
	if p.s, err = p.j.serdes(ctx); err != nil {
		return err
	}
	p.get, err = p.getter.init(ctx)
	return err
}

func (p *fkSubscriptionJoin) Process(r Record) error {
	key, ok1 := r.Key.(fkCombinedKey)
	c, ok2 := r.Value.(fkChange)
	if !ok1 || !ok2 {
		return fmt.Errorf("kstreams: foreign-key join: subscription record of types %T, %T: %w", r.Key, r.Value, ErrValueType)
	}
	var fv any
	found, ts := false, c.ts
	if key.foreignKey != nil {
		v, fts, ok, err := p.get(key.foreignKey)
		if err != nil {
			return err
		}
		if ok {
			fv, found, ts = v, true, max(c.ts, fts)
		}
	}
	sub := c.sub
	resp := fkResponse{version: storeformat.ResponseVersion, hash: sub.Hash, partition: sub.PrimaryPartition, hasPartition: sub.HasPartition}
	switch sub.Instruction {
	case storeformat.DeleteKeyNoPropagate:
		return nil
	case storeformat.DeleteKeyAndPropagate:
	case storeformat.PropagateNullIfNoFKValAvailable:
		resp.foreign = fv
	case storeformat.PropagateOnlyIfFKValAvailable:
		if !found {
			return nil
		}
		resp.foreign = fv
	default:
		return fmt.Errorf("kstreams: foreign-key join: unhandled instruction %v", sub.Instruction)
	}
	pk, err := p.s.leftKey.DeserializeAny(p.s.pkTopic, key.primaryKey)
	if err != nil {
		return fmt.Errorf("kstreams: foreign-key join: primary key %x: %w", key.primaryKey, err)
	}
	return p.ctx.Forward(Record{Key: pk, Value: resp, Timestamp: ts, Headers: r.Headers})
}

func (p *fkSubscriptionJoin) Close() error { return nil }

// fkForeignTableJoin is ForeignTableJoinProcessorSupplier's processor: an
// update of a right row answers every subscription of its key with the
// new value.
type fkForeignTableJoin struct {
	ctx   ProcessorContext
	j     *fkJoin
	s     fkSerdes
	store *TimestampedKeyValueStore
}

func (p *fkForeignTableJoin) Init(ctx ProcessorContext) (err error) {
	p.ctx = ctx
	if p.s, err = p.j.serdes(ctx); err != nil {
		return err
	}
	p.store, err = storeAs[*TimestampedKeyValueStore](ctx, p.j.store)
	return err
}

func (p *fkForeignTableJoin) Process(r Record) error {
	if r.Key == nil {
		p.ctx.RecordDropped("Skipping record due to null key.")
		return nil
	}
	c, _ := r.Value.(Change)
	if p.j.rightVersioned && c.notLatest {
		p.ctx.RecordDropped(outOfOrderVersionedJoin)
		return nil
	}
	fk, err := p.s.foreignKey.SerializeAny(p.s.fkTopic, r.Key)
	if err != nil {
		return fmt.Errorf("kstreams: foreign-key join: foreign key %v: %w", r.Key, err)
	}
	prefix := storeformat.CombinedKeyPrefix(fk)
	it, err := p.store.inner.Range(prefix, nil)
	if err != nil {
		return err
	}
	type match struct {
		pk  []byte
		sub storeformat.Subscription
	}
	var matches []match
	for it.Next() {
		if !bytes.HasPrefix(it.Key(), prefix) {
			break
		}
		_, pk, err := storeformat.SplitCombinedKey(it.Key())
		if err != nil {
			_ = it.Close()
			return fmt.Errorf("kstreams: store %s: %w", p.j.store, err)
		}
		_, raw, err := storeformat.SplitTimestamped(it.Value())
		if err != nil {
			_ = it.Close()
			return fmt.Errorf("kstreams: store %s: %w", p.j.store, err)
		}
		sub, err := storeformat.DecodeSubscription(slices.Clone(raw))
		if err != nil {
			_ = it.Close()
			return fmt.Errorf("kstreams: store %s: %w", p.j.store, err)
		}
		matches = append(matches, match{pk: slices.Clone(pk), sub: sub})
	}
	if err := it.Err(); err != nil {
		_ = it.Close()
		return err
	}
	if err := it.Close(); err != nil {
		return err
	}
	// Forward after the scan: what the responses cause must not write into
	// a store under an open iterator.
	for _, m := range matches {
		pk, err := p.s.leftKey.DeserializeAny(p.s.pkTopic, m.pk)
		if err != nil {
			return fmt.Errorf("kstreams: foreign-key join: primary key %x: %w", m.pk, err)
		}
		resp := fkResponse{version: storeformat.ResponseVersion, hash: m.sub.Hash, foreign: c.New,
			partition: m.sub.PrimaryPartition, hasPartition: m.sub.HasPartition}
		if err := p.ctx.Forward(Record{Key: pk, Value: resp, Timestamp: r.Timestamp, Headers: r.Headers}); err != nil {
			return err
		}
	}
	return nil
}

func (p *fkForeignTableJoin) Close() error { return nil }

// fkResponseJoin is ResponseJoinProcessorSupplier's processor (the
// response resolver): a response is joined with the left row as it is now,
// and dropped (and counted) if the left value has changed since the
// subscription was sent.
type fkResponseJoin struct {
	ctx    ProcessorContext
	j      *fkJoin
	s      fkSerdes
	getter getterSupplier
	get    valueGetter
}

func (p *fkResponseJoin) Init(ctx ProcessorContext) (err error) {
	p.ctx = ctx
	if p.s, err = p.j.serdes(ctx); err != nil {
		return err
	}
	p.get, err = p.getter.init(ctx)
	return err
}

func (p *fkResponseJoin) Process(r Record) error {
	resp, ok := r.Value.(fkResponse)
	if !ok {
		return fmt.Errorf("kstreams: foreign-key join: response of type %T: %w", r.Value, ErrValueType)
	}
	if resp.version != storeformat.ResponseVersion {
		return fmt.Errorf("kstreams: foreign-key join: SubscriptionResponseWrapper is of an incompatible version %d", resp.version)
	}
	cur, _, found, err := p.get(r.Key)
	if err != nil {
		return err
	}
	if !found {
		cur = nil
	}
	hash, err := p.s.hash(cur)
	if err != nil {
		return err
	}
	if (hash == nil) != (resp.hash == nil) || (hash != nil && *hash != *resp.hash) {
		// Stale: the left row has changed since; Kafka Streams counts it as
		// dropped.
		p.ctx.RecordDropped("Dropping FK-join response due to hash mismatch.")
		return nil
	}
	var result any
	if resp.foreign != nil || (p.j.left && cur != nil) {
		result = p.j.joiner(cur, resp.foreign)
	}
	return p.ctx.Forward(Record{Key: r.Key, Value: result, Timestamp: r.Timestamp, Headers: r.Headers})
}

func (p *fkResponseJoin) Close() error { return nil }

// fkSubscriptionSerde is SubscriptionWrapperSerde over a subscription whose
// primary key is already serialized.
type fkSubscriptionSerde struct{}

func (fkSubscriptionSerde) SerializeAny(_ string, v any) ([]byte, error) {
	if v == nil {
		return nil, nil
	}
	s, ok := v.(storeformat.Subscription)
	if !ok {
		return nil, fmt.Errorf("kstreams: SubscriptionWrapperSerde: value of type %T: %w", v, ErrValueType)
	}
	return storeformat.AppendSubscription(nil, s)
}

func (fkSubscriptionSerde) DeserializeAny(_ string, b []byte) (any, error) {
	if b == nil {
		return nil, nil
	}
	s, err := storeformat.DecodeSubscription(slices.Clone(b))
	if err != nil {
		return nil, fmt.Errorf("kstreams: SubscriptionWrapperSerde: %w", err)
	}
	return s, nil
}

// fkResponseSerde is SubscriptionResponseWrapperSerde over the right
// table's value serde.
type fkResponseSerde struct{ foreign serde.Untyped }

func (s fkResponseSerde) SerializeAny(topic string, v any) ([]byte, error) {
	if v == nil {
		return nil, nil
	}
	r, ok := v.(fkResponse)
	if !ok {
		return nil, fmt.Errorf("kstreams: SubscriptionResponseWrapperSerde: value of type %T: %w", v, ErrValueType)
	}
	out := storeformat.Response{Version: r.version, Hash: r.hash}
	if r.foreign != nil {
		fv, err := s.foreign.SerializeAny(topic, r.foreign)
		if err != nil {
			return nil, fmt.Errorf("kstreams: SubscriptionResponseWrapperSerde: foreign value: %w", err)
		}
		out.ForeignValue = fv
	}
	return storeformat.AppendResponse(nil, out), nil
}

func (s fkResponseSerde) DeserializeAny(topic string, b []byte) (any, error) {
	if b == nil {
		return nil, nil
	}
	r, err := storeformat.DecodeResponse(b)
	if err != nil {
		return nil, fmt.Errorf("kstreams: SubscriptionResponseWrapperSerde: %w", err)
	}
	out := fkResponse{version: r.Version, hash: r.Hash}
	if r.ForeignValue != nil {
		if out.foreign, err = s.foreign.DeserializeAny(topic, slices.Clone(r.ForeignValue)); err != nil {
			return nil, fmt.Errorf("kstreams: SubscriptionResponseWrapperSerde: foreign value: %w", err)
		}
	}
	return out, nil
}
