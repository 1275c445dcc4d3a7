package kstreams

import (
	"fmt"
	"maps"
	"math"
	"sync"

	"github.com/stoatflow/stoatflow/kstreams/serde"
)

// Name prefixes of the stream-stream join's processors, as Kafka Streams
// spells them.
const (
	prefixWindowed    = "KSTREAM-WINDOWED-"
	prefixJoinThis    = "KSTREAM-JOINTHIS-"
	prefixJoinOther   = "KSTREAM-JOINOTHER-"
	prefixOuterThis   = "KSTREAM-OUTERTHIS-"
	prefixOuterOther  = "KSTREAM-OUTEROTHER-"
	prefixOuterShared = "KSTREAM-OUTERSHARED-"
)

// droppedNullKeyOrValue is the reason a join gives for a record it skips.
const droppedNullKeyOrValue = "Skipping record due to null key or value."

// StreamJoined configures a stream-stream join: Kafka's StreamJoined.
// Empty fields take the defaults.
type StreamJoined[K, V, VO any] struct {
	// Name names the join's processors and repartition topics
	// (StreamJoined.withName): <name>-this-windowed, <name>-other-windowed,
	// <name>-this-join or -outer-this-join, <name>-other-join or
	// -outer-other-join, <name>-merge, and <name>-left-repartition /
	// <name>-right-repartition when a side must be repartitioned.
	Name string
	// StoreName names the join's stores (StreamJoined.withStoreName):
	// <storeName>-this-join-store (-outer-this-join-store),
	// <storeName>-other-join-store (-outer-other-join-store) and the shared
	// store <storeName>-left-shared-join-store (-outer-shared-join-store).
	// Without it the stores take the generated processor names.
	StoreName string
	// KeySerde, ValueSerde and OtherValueSerde serialize the key and the
	// two sides' values in the join stores and repartition topics
	// (withKeySerde, withValueSerde, withOtherValueSerde). Where one is nil
	// the stores take the application's default serde, as Kafka Streams'
	// do, or, with no default configured, the stream's own serde; a
	// repartition topic takes the stream's own serde.
	KeySerde        serde.Serde[K]
	ValueSerde      serde.Serde[V]
	OtherValueSerde serde.Serde[VO]
	// StoreType picks the engine of all three stores
	// (withDslStoreSuppliers(BuiltInDslStoreSuppliers.InMemoryDslStoreSuppliers
	// / RocksDBDslStoreSuppliers)); DefaultStore takes the application's
	// dsl.store.suppliers.class.
	StoreType StoreType
	// LoggingDisabled turns the stores' changelogs off (withLoggingDisabled);
	// LogConfig configures them (withLoggingEnabled(config)). The window
	// stores' changelogs are cleanup.policy=delete whatever LogConfig says,
	// as they retain duplicates; the shared store's is compacted.
	LoggingDisabled bool
	LogConfig       map[string]string
	// ThisStoreSupplier and OtherStoreSupplier give a side's window store
	// its own name and engine (withThisStoreSupplier,
	// withOtherStoreSupplier), as Stores.persistentWindowStore or
	// inMemoryWindowStore do. Its retention must be the windows' size plus
	// grace, its window size theirs, and it must retain duplicates. Such a
	// store is built as Stores.windowStoreBuilder builds it: logged, with
	// its changelog's default configs, whatever LoggingDisabled and
	// LogConfig say; the shared store takes the name and engine of
	// ThisStoreSupplier.
	ThisStoreSupplier, OtherStoreSupplier *WindowStoreSupplier
}

// WindowStoreSupplier describes a window store a stream-stream join side
// keeps its records in: Kafka's WindowBytesStoreSupplier from
// Stores.persistentWindowStore (Type RocksDB) or Stores.inMemoryWindowStore
// (Type InMemory).
type WindowStoreSupplier struct {
	Name             string
	Type             StoreType
	RetentionMs      int64
	WindowSizeMs     int64
	RetainDuplicates bool
}

// String names the supplier's settings, for errors.
func (s WindowStoreSupplier) String() string {
	return fmt.Sprintf("WindowStoreSupplier{name=%s, type=%s, retentionMs=%d, windowSizeMs=%d, retainDuplicates=%v}",
		s.Name, s.Type, s.RetentionMs, s.WindowSizeMs, s.RetainDuplicates)
}

// errStreams is Kafka's StreamsException for a join the DSL refuses.
type errStreams struct{ msg string }

func (e *errStreams) Error() string { return e.msg }

// checkSupplier applies KStreamImplJoin.assertWindowSettings.
func checkSupplier(s *WindowStoreSupplier, w JoinWindows) error {
	if s == nil {
		return nil
	}
	if s.Name == "" {
		return invalidTopology("Name is illegal, it can't be empty")
	}
	if err := validateName(s.Name); err != nil {
		return err
	}
	if !s.RetainDuplicates {
		return &errStreams{"The StoreSupplier must set retainDuplicates=true, found retainDuplicates=false"}
	}
	if s.RetentionMs != w.Size()+w.GraceMs || s.WindowSizeMs != w.Size() {
		return &errStreams{fmt.Sprintf("Window settings mismatch. WindowBytesStoreSupplier settings %s must match JoinWindows settings %s"+
			" for the window size and retention period", s, w)}
	}
	return nil
}

// Join is KStream.join with a ValueJoiner: for every pair of records with
// the same key whose timestamps fall within w, it emits joiner(left, right)
// with the larger of the two timestamps. Records with a null key or value
// join nothing and are counted as dropped. A nil result (of a VR that can
// hold nil) is emitted as a null value.
func Join[K, V, VO, VR any](left *KStream[K, V], right *KStream[K, VO], joiner func(V, VO) VR, w JoinWindows, sj ...StreamJoined[K, V, VO]) *KStream[K, VR] {
	return JoinWithKey(left, right, func(_ K, v V, vo VO) VR { return joiner(v, vo) }, w, sj...)
}

// JoinWithKey is KStream.join with a ValueJoinerWithKey: Join whose joiner
// also sees the key.
func JoinWithKey[K, V, VO, VR any](left *KStream[K, V], right *KStream[K, VO], joiner func(K, V, VO) VR, w JoinWindows, sj ...StreamJoined[K, V, VO]) *KStream[K, VR] {
	lv, rv := valueArg[V](left.view), valueArg[VO](right.view)
	return streamStreamJoin[K, V, VO, VR](left, right, false, false, func(k, l, r any) any {
		a, _ := lv(l) // an inner join only pairs records with values
		b, _ := rv(r)
		return nullable(joiner(as[K](k), a, b))
	}, w, sj)
}

// LeftJoin is KStream.leftJoin with a ValueJoiner: Join, and every left
// record that joined no right record within its window is emitted as
// joiner(left, nil) with its own timestamp, once stream time has passed
// its window's end plus the grace period. The right value is a pointer,
// nil when there is none (Java's null). A left record with a null key is
// emitted at once as joiner(left, nil); one with a null value is dropped.
func LeftJoin[K, V, VO, VR any](left *KStream[K, V], right *KStream[K, VO], joiner func(V, *VO) VR, w JoinWindows, sj ...StreamJoined[K, V, VO]) *KStream[K, VR] {
	return LeftJoinWithKey(left, right, func(_ K, v V, vo *VO) VR { return joiner(v, vo) }, w, sj...)
}

// LeftJoinWithKey is KStream.leftJoin with a ValueJoinerWithKey. For a left
// record with a null key, the key is K's zero value (nil for a K that can
// hold nil) and the result keeps the null key.
func LeftJoinWithKey[K, V, VO, VR any](left *KStream[K, V], right *KStream[K, VO], joiner func(K, V, *VO) VR, w JoinWindows, sj ...StreamJoined[K, V, VO]) *KStream[K, VR] {
	lv, rv := valueArg[V](left.view), optionalArg[VO](right.view)
	return streamStreamJoin[K, V, VO, VR](left, right, true, false, func(k, l, r any) any {
		a, _ := lv(l) // the left side is always there in a left join
		return nullable(joiner(as[K](k), a, rv(r)))
	}, w, sj)
}

// OuterJoin is KStream.outerJoin with a ValueJoiner: LeftJoin on both
// sides. A record of either side that joined nothing is emitted, once its
// window has closed, with nil for the missing side; both values are
// pointers.
func OuterJoin[K, V, VO, VR any](left *KStream[K, V], right *KStream[K, VO], joiner func(*V, *VO) VR, w JoinWindows, sj ...StreamJoined[K, V, VO]) *KStream[K, VR] {
	return OuterJoinWithKey(left, right, func(_ K, v *V, vo *VO) VR { return joiner(v, vo) }, w, sj...)
}

// OuterJoinWithKey is KStream.outerJoin with a ValueJoinerWithKey.
func OuterJoinWithKey[K, V, VO, VR any](left *KStream[K, V], right *KStream[K, VO], joiner func(K, *V, *VO) VR, w JoinWindows, sj ...StreamJoined[K, V, VO]) *KStream[K, VR] {
	lv, rv := optionalArg[V](left.view), optionalArg[VO](right.view)
	return streamStreamJoin[K, V, VO, VR](left, right, true, true, func(k, l, r any) any {
		return nullable(joiner(as[K](k), lv(l), rv(r)))
	}, w, sj)
}

// optionalArg hands a join side's value to a joiner as a *V: nil when the
// side has no record.
func optionalArg[V any](view *valueView) func(raw any) *V {
	arg := valueArg[V](view)
	return func(raw any) *V {
		if raw == nil {
			return nil
		}
		v, ok := arg(raw)
		if !ok {
			return nil
		}
		return &v
	}
}

// streamStreamJoin builds the join as Kafka's KStreamImpl.doJoin and
// KStreamImplJoin.join do, in their naming order: the repartition topics a
// re-keyed side needs (left, then right), the co-partition group, the two
// windowed processors, the two join processors and the merge; then the
// stores: this side's window store, the other's, and for a left or outer
// join the shared store. joiner takes the key and the left and right record
// values, nil for a missing side.
func streamStreamJoin[K, V, VO, VR any](left *KStream[K, V], right *KStream[K, VO], leftOuter, rightOuter bool,
	joiner func(k, l, r any) any, w JoinWindows, sjs []StreamJoined[K, V, VO]) *KStream[K, VR] {
	b := left.b
	var sj StreamJoined[K, V, VO]
	if len(sjs) > 0 {
		sj = sjs[0]
	}
	if right.b != b {
		b.fail(invalidTopology("Joining streams from different builders is not allowed."))
	}
	b.fail(w.err)
	b.fail(validateName(sj.Name))
	b.fail(validateName(sj.StoreName))
	if sj.ThisStoreSupplier != nil && sj.OtherStoreSupplier != nil && sj.ThisStoreSupplier.Name == sj.OtherStoreSupplier.Name {
		b.fail(&errStreams{"Both StoreSuppliers have the same name.  StoreSuppliers must provide unique names"})
	}
	b.fail(checkSupplier(sj.ThisStoreSupplier, w))
	b.fail(checkSupplier(sj.OtherStoreSupplier, w))
	keySpec := func(stream serdeSpec) serdeSpec {
		if sj.KeySerde != nil {
			return spec(sj.KeySerde)
		}
		return stream
	}
	thisVal := viewSpec(left.view, sj.ValueSerde, serdeSpec{})
	otherVal := viewSpec(right.view, sj.OtherValueSerde, serdeSpec{})

	// Re-keyed sides go through a repartition topic first; for a left or
	// outer join it lets null keys through (relaxed at Build, below), as
	// the join handles them.
	thisNode, otherNode := left.name, right.name
	thisKey, thisValSpec := left.key, left.val
	otherValSpec := right.val
	if left.repartitionRequired {
		thisKey, thisValSpec = keySpec(left.key), orSpecOf(thisVal, left.val)
		thisNode = repartitionForJoin(b, left.name, sj.Name, "-left", &left.joinRepartition, thisKey, thisValSpec)
	}
	if right.repartitionRequired {
		otherValSpec = orSpecOf(otherVal, right.val)
		otherNode = repartitionForJoin(b, right.name, sj.Name, "-right", &right.joinRepartition, keySpec(right.key), otherValSpec)
	}
	b.copartition(thisNode, otherNode)

	thisSuffix, otherSuffix := "-this-join", "-other-join"
	if rightOuter {
		thisSuffix = "-outer-this-join"
	}
	if leftOuter {
		otherSuffix = "-outer-other-join"
	}
	named := func(suffix, prefix string) string {
		gen := b.newProcessorName(prefix)
		if sj.Name == "" {
			return gen
		}
		n := sj.Name + suffix
		b.fail(validateName(n))
		return n
	}
	thisWindowedName := named("-this-windowed", prefixWindowed)
	otherWindowedName := named("-other-windowed", prefixWindowed)
	thisPrefix, otherPrefix := prefixJoinThis, prefixJoinOther
	if rightOuter {
		thisPrefix = prefixOuterThis
	}
	if leftOuter {
		otherPrefix = prefixOuterOther
	}
	thisGenerated := b.newProcessorName(thisPrefix)
	otherGenerated := b.newProcessorName(otherPrefix)
	thisJoinName, otherJoinName := thisGenerated, otherGenerated
	if sj.Name != "" {
		thisJoinName, otherJoinName = sj.Name+thisSuffix, sj.Name+otherSuffix
		b.fail(validateName(thisJoinName))
		b.fail(validateName(otherJoinName))
	}
	mergeName := named("-merge", prefixMerge)

	thisStore, otherStore := thisGenerated+"-store", otherGenerated+"-store"
	if sj.StoreName != "" {
		thisStore, otherStore = sj.StoreName+thisSuffix+"-store", sj.StoreName+otherSuffix+"-store"
	}
	outerStore := ""
	if leftOuter {
		suffix := "-left-shared-join"
		if rightOuter {
			suffix = "-outer-shared-join"
		}
		switch {
		case sj.ThisStoreSupplier != nil && sj.ThisStoreSupplier.Name != "":
			outerStore = sj.ThisStoreSupplier.Name + suffix + "-store"
		case sj.StoreName != "":
			outerStore = sj.StoreName + suffix + "-store"
		default:
			outerStore = prefixOuterShared + thisGenerated[len(thisPrefix):] + "-store"
		}
	}

	// The stores take StreamJoined's serdes, else the application's
	// defaults (Kafka Streams' rule), else the stream's own.
	storeKey := serdeSpec{fallback: thisKey.explicit}
	if sj.KeySerde != nil {
		storeKey = spec(sj.KeySerde)
	}
	thisStoreVal, otherStoreVal := withFallback(thisVal, thisValSpec), withFallback(otherVal, otherValSpec)

	retention := w.Size() + w.GraceMs
	windowLog := map[string]string{}
	maps.Copy(windowLog, sj.LogConfig)
	// Window stores retaining duplicates must not be compacted.
	windowLog["cleanup.policy"] = "delete"
	windowStore := func(name string, sup *WindowStoreSupplier, val serdeSpec) *StoreSpec {
		if sup != nil {
			// Stores.windowStoreBuilder over the supplier: logged with the
			// window changelog defaults; StreamJoined's logging settings
			// do not reach it.
			return &StoreSpec{Name: sup.Name, Kind: WindowStoreKind, Type: sup.Type.Resolve(RocksDB), Logging: true,
				Retention: sup.RetentionMs, WindowSize: sup.WindowSizeMs, RetainDuplicates: true, key: storeKey, val: val}
		}
		return &StoreSpec{Name: name, Kind: WindowStoreKind, Type: sj.StoreType, Logging: !sj.LoggingDisabled, LogConfig: windowLog,
			Retention: retention, WindowSize: w.Size(), RetainDuplicates: true, key: storeKey, val: val}
	}
	if sj.ThisStoreSupplier != nil {
		thisStore = sj.ThisStoreSupplier.Name
	}
	if sj.OtherStoreSupplier != nil {
		otherStore = sj.OtherStoreSupplier.Name
	}
	if sj.StoreName == "" {
		// Kafka Streams counts the three stores unless StreamJoined names
		// them, a store supplier's name included; a supplier's store is
		// logged whatever StreamJoined says.
		b.unnamedStore(thisStore, sj.ThisStoreSupplier != nil || !sj.LoggingDisabled)
		b.unnamedStore(otherStore, sj.OtherStoreSupplier != nil || !sj.LoggingDisabled)
		if outerStore != "" {
			b.unnamedStore(outerStore, !sj.LoggingDisabled)
		}
	}
	outerType := sj.StoreType
	if outerType == DefaultStore && sj.ThisStoreSupplier != nil {
		// The shared store matches the engine of this side's supplier.
		outerType = sj.ThisStoreSupplier.Type.Resolve(RocksDB)
	}

	trackers := &timeTrackers{m: map[TaskID]*timeTracker{}}
	side := func(isLeft, outer bool, otherStoreName string, before, after int64) func() Processor {
		return func() Processor {
			return &ssJoinProcessor{left: isLeft, outer: outer, otherStore: otherStoreName, outerStore: outerStore,
				joinBefore: before, joinAfter: after, windowBefore: w.BeforeMs, windowAfter: w.AfterMs, grace: w.GraceMs,
				joiner: joiner, trackers: trackers}
		}
	}
	windowed := func(store string) func() Processor {
		return func() Processor { return &joinWindowProcessor{store: store} }
	}
	b.addNode(&nodeSpec{name: thisWindowedName, kind: ProcessorNode, preds: []string{thisNode}, supplier: windowed(thisStore)})
	b.addNode(&nodeSpec{name: otherWindowedName, kind: ProcessorNode, preds: []string{otherNode}, supplier: windowed(otherStore)})
	b.addNode(&nodeSpec{name: thisJoinName, kind: ProcessorNode, preds: []string{thisWindowedName},
		supplier: side(true, leftOuter, otherStore, w.BeforeMs, w.AfterMs)})
	b.addNode(&nodeSpec{name: otherJoinName, kind: ProcessorNode, preds: []string{otherWindowedName},
		supplier: side(false, rightOuter, thisStore, w.AfterMs, w.BeforeMs)})
	b.addNode(&nodeSpec{name: mergeName, kind: ProcessorNode, preds: []string{thisJoinName, otherJoinName},
		supplier: stateless(func(ctx ProcessorContext, r Record) error { return ctx.Forward(r) })})
	if leftOuter || rightOuter {
		b.nullKeys.relaxed(mergeName)
	}
	b.topo.selfJoins = append(b.topo.selfJoins, selfJoin{thisWindowed: thisWindowedName, otherWindowed: otherWindowedName,
		thisJoin: thisJoinName, otherJoin: otherJoinName, merge: mergeName, thisStore: thisStore, otherStore: otherStore, outerStore: outerStore,
		supplier: func() Processor {
			return &selfJoinProcessor{store: thisStore, thisBefore: w.BeforeMs, thisAfter: w.AfterMs, otherBefore: w.AfterMs, otherAfter: w.BeforeMs,
				retention: retention, joiner: joiner}
		}})
	b.fail(b.topo.addStore(windowStore(thisStore, sj.ThisStoreSupplier, thisStoreVal)))
	b.fail(b.topo.connectStore(thisWindowedName, thisStore))
	b.fail(b.topo.connectStore(otherJoinName, thisStore))
	b.fail(b.topo.addStore(windowStore(otherStore, sj.OtherStoreSupplier, otherStoreVal)))
	b.fail(b.topo.connectStore(otherWindowedName, otherStore))
	b.fail(b.topo.connectStore(thisJoinName, otherStore))
	if outerStore != "" {
		b.fail(b.topo.addStore(&StoreSpec{Name: outerStore, Kind: KeyValueStoreKind, Type: outerType, Logging: !sj.LoggingDisabled,
			LogConfig: sj.LogConfig, Retention: retention, WindowSize: w.Size(), key: storeKey, val: thisStoreVal,
			outerJoin: true, otherVal: otherStoreVal}))
		b.fail(b.topo.connectStore(thisJoinName, outerStore))
		b.fail(b.topo.connectStore(otherJoinName, outerStore))
	}
	// The result has no value serde; its key serde is StreamJoined's.
	outKey := serdeSpec{fallback: thisKey.explicit}
	if sj.KeySerde != nil {
		outKey = spec(sj.KeySerde)
	}
	return &KStream[K, VR]{b: b, name: mergeName, key: outKey}
}

// repartitionForJoin is KStreamImpl.repartitionForJoin, shared by every
// join: the source of the repartition topic a re-keyed join side reads,
// <name><suffix>-repartition for a named join, else <stream>-repartition.
// An unnamed join reuses the repartition the stream's previous join created
// (named or not: reuse holds the latest), and the three names it would have
// taken are still drawn, as in Kafka Streams. The topic of an unnamed join
// counts as unnamed at every join, reused or not.
func repartitionForJoin(b *StreamsBuilder, stream, name, suffix string, reuse **string, key, val serdeSpec) string {
	repartitionName := stream
	if name != "" {
		repartitionName = name + suffix
	} else {
		b.unnamedRepartition(repartitionName)
	}
	if *reuse != nil && repartitionName == stream {
		b.newProcessorName(prefixSink)
		b.newProcessorName(prefixFilter)
		b.newProcessorName(prefixSource)
		return **reuse
	}
	src := createRepartition(b, stream, repartitionName, key, val)
	*reuse = &src
	return src
}

// orSpecOf returns given if it names a serde, else fallback.
func orSpecOf(given, fallback serdeSpec) serdeSpec {
	if given.explicit != nil {
		return given
	}
	return fallback
}

// withFallback is a store serde: given if set, else the application's
// default, else the stream's own serde.
func withFallback(given, stream serdeSpec) serdeSpec {
	if given.explicit != nil {
		return given
	}
	return serdeSpec{fallback: stream.explicit}
}

// joinWindowProcessor is Kafka's KStreamJoinWindow: it forwards each record
// to its side's join processor, then keeps it in its side's window store
// (a null key never joins and is not kept).
type joinWindowProcessor struct {
	store string
	ctx   ProcessorContext
	ws    *WindowStore
}

func (p *joinWindowProcessor) Init(ctx ProcessorContext) (err error) {
	p.ctx = ctx
	p.ws, err = windowStoreOf(ctx, p.store)
	return err
}

// windowStoreOf returns the join window store name of ctx's processor.
func windowStoreOf(ctx ProcessorContext, name string) (*WindowStore, error) {
	s, err := ctx.StateStore(name)
	if err != nil {
		return nil, err
	}
	ws, ok := s.(*WindowStore)
	if !ok {
		return nil, errStoreType(name, s)
	}
	return ws, nil
}

func (p *joinWindowProcessor) Process(r Record) error {
	if err := p.ctx.Forward(r); err != nil {
		return err
	}
	if r.Key == nil {
		return nil
	}
	return p.ws.Put(r.Key, r.Value, r.Timestamp)
}

func (p *joinWindowProcessor) Close() error { return nil }

// timeTracker is the stream time one join shares between its two sides in
// one task (Kafka's KStreamImplJoin.TimeTracker): the largest timestamp
// either side has seen, the smallest timestamp in the shared store, and the
// next wall-clock time the shared store may be scanned.
type timeTracker struct {
	streamTime     int64
	minTime        int64
	nextTimeToEmit int64
}

// timeTrackers hands the two sides of one join in one task the same
// tracker; tasks of different stream threads ask concurrently.
type timeTrackers struct {
	mu sync.Mutex
	m  map[TaskID]*timeTracker
}

func (t *timeTrackers) get(id TaskID) *timeTracker {
	t.mu.Lock()
	defer t.mu.Unlock()
	tt, ok := t.m[id]
	if !ok {
		tt = &timeTracker{streamTime: -1, minTime: math.MaxInt64}
		t.m[id] = tt
	}
	return tt
}

func (t *timeTrackers) remove(id TaskID) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.m, id)
}

// ssJoinProcessor is one side of a stream-stream join (Kafka's
// KStreamKStreamJoinLeftSide / RightSide). For each record of its side it
// emits the joins with the other side's window store; in a left or outer
// join, a record of an outer side that found no partner waits in the shared
// store until its window has closed (stream time past its end plus grace),
// unless its window had already closed when it came; the shared store is
// scanned and its closed entries emitted whenever a record moves stream
// time. joinBefore and joinAfter are this side's look-back and look-ahead.
type ssJoinProcessor struct {
	left, outer                      bool
	otherStore, outerStore           string
	joinBefore, joinAfter            int64
	windowBefore, windowAfter, grace int64
	joiner                           func(k, l, r any) any
	trackers                         *timeTrackers
	ctx                              ProcessorContext
	other                            *WindowStore
	shared                           *outerJoinStore // nil in an inner join
	tt                               *timeTracker
	emitInterval                     int64
	wallClock                        func() int64
	id                               TaskID
}

func (p *ssJoinProcessor) Init(ctx ProcessorContext) error {
	p.ctx, p.id = ctx, ctx.TaskID()
	other, err := windowStoreOf(ctx, p.otherStore)
	if err != nil {
		return err
	}
	p.other = other
	if p.outerStore != "" {
		s, err := ctx.StateStore(p.outerStore)
		if err != nil {
			return err
		}
		shared, ok := s.(*outerJoinStore)
		if !ok {
			return errStoreType(p.outerStore, s)
		}
		p.shared = shared
	}
	p.tt = p.trackers.get(p.id)
	p.wallClock = func() int64 { return 0 }
	if nc, ok := ctx.(nodeContext); ok {
		task := nc.n.task
		p.emitInterval, p.wallClock = task.outerJoinEmitInterval, task.wallClock
	}
	return nil
}

// join calls the joiner with this side's and the other side's values in
// left, right order.
func (p *ssJoinProcessor) join(key, this, other any) any {
	if p.left {
		return p.joiner(key, this, other)
	}
	return p.joiner(key, other, this)
}

func (p *ssJoinProcessor) Process(r Record) error {
	ts := r.Timestamp
	p.tt.streamTime = max(p.tt.streamTime, ts)
	if p.outer && r.Key == nil && r.Value != nil {
		// A null key never joins; an outer side emits it at once.
		r.Value = p.join(nil, r.Value, nil)
		return p.ctx.Forward(r)
	}
	if r.Key == nil || r.Value == nil {
		p.ctx.RecordDropped(droppedNullKeyOrValue)
		return nil
	}
	if p.shared != nil && ts == p.tt.streamTime {
		if err := p.emitClosed(r); err != nil {
			return err
		}
	}
	from, to := max(0, ts-p.joinBefore), max(0, ts+p.joinAfter)
	type match struct {
		ts    int64
		value any
	}
	var matches []match
	if err := p.other.FetchRange(r.Key, from, to, func(ots int64, v any) error {
		matches = append(matches, match{ots, v})
		return nil
	}); err != nil {
		return err
	}
	for _, m := range matches {
		if p.shared != nil {
			// The other side's record has found a partner: it is no
			// longer a candidate for a non-joined result.
			if err := p.shared.DeleteIfPresent(r.Key, m.ts, !p.left); err != nil {
				return err
			}
		}
		out := r
		out.Value, out.Timestamp = p.join(r.Key, r.Value, m.value), max(ts, m.ts)
		if err := p.ctx.Forward(out); err != nil {
			return err
		}
	}
	if !p.outer || len(matches) > 0 {
		return nil
	}
	if p.shared == nil || to < p.tt.streamTime {
		// The window had closed when the record came: no later record of
		// the other side can join it.
		out := r
		out.Value = p.join(r.Key, r.Value, nil)
		return p.ctx.Forward(out)
	}
	p.tt.minTime = min(p.tt.minTime, ts)
	return p.shared.Append(r.Key, ts, p.left, r.Value)
}

// emitClosed emits, and removes from the shared store, the records whose
// windows have closed, in store order (by timestamp), as Kafka's
// emitNonJoinedOuterRecords does, throttled to one scan per emit interval
// of wall-clock time.
func (p *ssJoinProcessor) emitClosed(r Record) error {
	tt := p.tt
	if tt.minTime+p.joinAfter+p.grace >= tt.streamTime {
		return nil
	}
	now := p.wallClock()
	if now < tt.nextTimeToEmit {
		return nil
	}
	tt.nextTimeToEmit = now + p.emitInterval
	tt.minTime = math.MaxInt64
	entries, err := p.shared.All()
	if err != nil {
		return err
	}
	var prev []byte
	leftOpen, rightOpen := false, false
	for _, e := range entries {
		tt.minTime = e.ts
		if leftOpen && rightOpen {
			break
		}
		lookBack := p.windowBefore
		if e.left {
			lookBack = p.windowAfter
		}
		if tt.minTime+lookBack+p.grace >= tt.streamTime {
			// This side's window is still open; later entries of the
			// other side may have closed.
			if e.left {
				leftOpen = true
			} else {
				rightOpen = true
			}
			continue
		}
		out := r
		out.Key, out.Timestamp = e.key, e.ts
		if e.left {
			out.Value = p.joiner(e.key, e.value, nil)
		} else {
			out.Value = p.joiner(e.key, nil, e.value)
		}
		if err := p.ctx.Forward(out); err != nil {
			return err
		}
		if prev != nil && string(prev) != string(e.kb) {
			// A key is removed once all its values were emitted, so that
			// a failure in between emits the rest again.
			if err := p.shared.deleteKey(prev); err != nil {
				return err
			}
		}
		prev = e.kb
	}
	if prev != nil {
		return p.shared.deleteKey(prev)
	}
	return nil
}

func (p *ssJoinProcessor) Close() error {
	p.trackers.remove(p.id)
	return nil
}

func errStoreType(name string, s StateStore) error {
	return invalidTopology("store %s is a %T, not a stream-stream join store", name, s)
}
