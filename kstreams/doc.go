// Package kstreams is StoatFlow's Kafka Streams DSL: the typed StreamsBuilder,
// Topology and its describe() text, serdes and the Processor API. It links no
// Kafka client: package streams runs a Topology against Kafka, and package
// kstreamstest runs one in process.
//
// # Building a topology
//
// A StreamsBuilder records DSL calls. Operations that keep the key and value
// types are methods (Filter, FilterNot, Peek, Foreach, To, Merge, Split,
// GroupByKey, Count, Reduce, ToStream, Suppress); operations that change a type are functions, because Go
// methods cannot take type parameters (Map, MapValues, FlatMap,
// FlatMapValues, SelectKey, GroupBy, Aggregate, WindowedBy,
// WindowedBySession, WindowedAggregate, SessionAggregate, Process,
// ProcessTyped):
//
//	b := kstreams.NewStreamsBuilder()
//	lines := kstreams.Stream(b, []string{"streams-plaintext-input"},
//		kstreams.ConsumedWith[string, string](serde.String{}, serde.String{}))
//	words := kstreams.FlatMapValues(lines, strings.Fields)
//	counts := kstreams.GroupBy(words, func(_, w string) string { return w }).Count()
//	counts.ToStream().To("streams-wordcount-output",
//		kstreams.ProducedWith[string, int64](serde.String{}, serde.Long{}))
//	topo, err := b.Build()
//
// Options follow Kafka's: Consumed, Produced, Grouped, Materialized and
// Named (passed as an AggOption to aggregations). A nil serde means the
// application's default.key.serde / default.value.serde.
//
// # Joins
//
// StreamTableJoin and StreamTableLeftJoin join a stream with a table
// (KStream.join / leftJoin(KTable), options in Joined); TableTableJoin,
// TableTableLeftJoin and TableTableOuterJoin join two tables (KTable.join /
// leftJoin / outerJoin, options Named and Materialized). A side that may be
// missing reaches the joiner as a pointer, nil when that side has no row,
// so a missing row is never taken for a zero value:
//
//	enriched := kstreams.StreamTableLeftJoin(orders, customers,
//		func(id string, o Order, c *Customer) Enriched { ... }) // c == nil: no customer
//
// A join reads the other side through the table's value getter: its own
// store if it has one, else its parents' (an unmaterialized filter,
// mapValues or join computes its rows on demand); an unmaterialized source
// table is materialized in the store its Table or ToTable call named,
// with a changelog, as Kafka Streams does. The stores a join reads are
// connected to its processors, so describe() lists them.
//
// # Naming and Describe
//
// Generated names, repartition topics and sub-topology numbers are those
// Kafka Streams 4.4 gives the same calls: one counter for processors and
// stores; a named processor still uses up its index; count() with an unnamed
// Materialized uses up one more; a key-changing operation followed by an
// aggregation inserts <base>-repartition with its sink, null-key filter and
// source. Topology.Describe returns TopologyDescription.toString() byte for
// byte, including Kafka's ordering quirks (Java HashSet order of topics and
// stores, TreeSet order of successors fixed when they were connected).
// testdata/jvmcapture holds the texts a real Kafka Streams 4.4.0 printed.
//
// # For the runtime
//
// These exported names exist for the code that runs a Topology: package
// streams against Kafka, package kstreamstest in process, and the sidecar.
// A topology's own code has no use for them. The files named runtime_*.go
// hold nothing else; task.go is the task they drive.
//
//   - Reading a built topology: Topology.Subtopologies (SubtopologyInfo:
//     per sub-topology its nodes, its source and sink topics as TopicRef,
//     internal ones undecorated until TopicRef.Decorated adds the
//     application id, and its StoreSpecs with their StoreKind),
//     Topology.Store, Topology.SubtopologyOfTopic,
//     Topology.CopartitionGroups, Topology.CopartitionSources
//     (CopartitionSource: each join's co-partitioned source nodes, as a
//     streams group member sends them), Topology.GlobalStores (GlobalStoreInfo),
//     Topology.ReadOnlyStoreTopics, Topology.StoreSourceTopics (a
//     store's source topics for interactive-query routing),
//     ChangelogTopic and StoreType.Resolve.
//   - Internal topics: Topology.InternalTopics and
//     Topology.InternalTopicPartitions (InternalTopicsConfig,
//     InternalTopic, InternalTopicKind), the repartition and changelog
//     topics with Kafka's configs and partition counts, and
//     ChangelogConfigs, a store's changelog configs.
//   - Subscriptions: Topology.SourceIndex (SourceIndex: a topic's
//     sub-topology, whether it is internal, the subscription and the
//     topic's offset reset), Topology.HasPatternSources,
//     Topology.MatchPatterns, Topology.SourcePatterns,
//     AutoOffsetReset.Policy and NoValidOffsetMessage.
//   - Tasks: Topology.NewTask builds the processors of one task from a
//     TaskConfig: the task's byte stores (KeyValueBytesStore,
//     WindowBytesStore, SessionBytesStore, VersionedBytesStore; WindowBytes,
//     SessionBytes and GlobalKeyValueBytes adapt the state package's) and a
//     RecordCollector for sink and changelog records (PartitionCounter, when
//     it implements it, gives sinks their topics' partition counts).
//     Task.Process runs one input record through the sub-topology
//     synchronously; Task.Init, Flush, Close, PunctuateStreamTime,
//     PunctuateWallClock, TakeCommitRequest, PeekTimestamp, SinkFor, the
//     partition times and the processor metadata (MergeMetadata) are what
//     the runtime's poll, punctuate and commit loop calls.
//     CallProductionHandler calls a ProductionExceptionHandler as a task
//     does.
//   - Interactive queries and the sidecar: Topology.StoreSerdes, and
//     Topology.RedirectSinks for the sidecar's shadow mode.
//
// The kstreamstest package runs a topology in process, like Kafka's
// TopologyTestDriver.
//
// # Record caches
//
// With TaskConfig.CacheMaxBytes above zero, stores that ask for caching
// (Materialized's default) keep updates in a record cache that Task.Flush
// (before each commit) writes to the store and changelog and forwards
// downstream, once per key, as Kafka Streams' caches do. With zero, every
// update is forwarded at once (cache.max.bytes.buffering=0).
//
// # Null values
//
// Records carry Go values as any; nil is Kafka's null, and a null value is a
// tombstone. Serdes never see it: nil bytes become nil and nil becomes nil
// bytes. What a user function sees depends on whether its type can hold nil:
//
//   - A pointer, slice, map or interface type: nil is null, both ways. The
//     function is called with nil, as Kafka Streams calls a Java lambda with
//     null, and a nil it returns is forwarded as null (a tombstone). Read
//     such values with serde.Nullable, or take a Nullable view.
//   - Any other type (string, int64, a struct) cannot hold null, and a null
//     never becomes its zero value. Value-only functions are not called:
//     MapValues and FlatMapValues forward the tombstone unchanged (once),
//     Peek and Foreach skip the call, Filter and FilterNot let it pass (a
//     predicate cannot judge a value it cannot see), Split sends it to the
//     default branch. Where a key must still be computed (Map, FlatMap,
//     SelectKey, GroupBy), the function is called with the zero value and
//     the value of what it returns is dropped: the record stays a
//     tombstone. Windowed and session Reduce and Aggregate leave the
//     aggregate as it was (a windowed Count counts the record, as Kafka
//     Streams does).
//
// So a natural Go port of a topology written with null-safe Java lambdas
// (v == null ? null : v.toUpperCase()) keeps every tombstone with plain
// string values. To decide on null itself, take the view Nullable(s): a
// KStream[K, *V] over the same records, in which nil is null:
//
//	live := kstreams.Nullable(s).Filter(func(_ string, v *string) bool { return v != nil })
//
// The view adds no processor, so describe() is unchanged; a serde given to
// its operators is one for *V (serde.Nullable). Aggregations follow Kafka
// Streams 4.4: Count, Reduce and Aggregate of a KGroupedStream skip a record
// with a null key or value and count it as dropped; windowed and session
// aggregations skip only a null key; a KTable source skips a null key and
// forwards a delete as a null value, even for a key it never held; a session
// merge retracts each replaced session with a null value stamped with that
// session's end. A TypedProcessor sees TypedRecord.KeyNull and ValueNull.
//
// Keys: the key a key-computing function (Map, FlatMap, SelectKey,
// GroupBy; KTable groupBy and a global join's key selector too) returns is
// Kafka's null only when it is a nil of a type that can hold nil (a
// pointer, slice, map or interface), never because it is its type's zero
// value: over string keys "" is a key, as Java's "" is, and is written,
// grouped and counted as one. A null key reaches such a function over a K
// that cannot hold nil as K's zero value, so that re-keying topologies over
// unkeyed topics still run; the function cannot tell it from a real "" or
// 0, and what it returns is a key. A topology that must keep a null key
// through a key function (Java's k -> k over null keys) or make one reads
// its keys as pointers (serde.Nullable on the source, or as the default key
// serde) and returns nil; a TypedProcessor says so with TypedRecord.KeyNull.
// Operators that do not compute a key forward a null key untouched. A null
// key goes no further than a repartition topic's filter, which drops it
// without counting it (Kafka's KStreamFilter), unless the topic feeds a
// left or outer join.
//
// # Stream-stream joins
//
// Join, LeftJoin and OuterJoin (and their WithKey forms, Kafka's
// ValueJoinerWithKey) join two streams over JoinWindows with Kafka Streams
// 4.4's processors, names, stores and results. An inner joiner takes both
// values; where a side may be missing its value is a pointer, nil for
// Java's null:
//
//	kstreams.LeftJoin(clicks, views, func(c Click, v *View) string { ... }, w)
//	kstreams.OuterJoin(a, b, func(x *string, y *string) string { ... }, w)
//
// Records with a null value, and records with a null key on an inner side,
// join nothing and are counted as dropped; a null-key record of an outer
// side is emitted at once with nil for the other side (its joiner sees K's
// zero key and the result keeps the null key). A record that found no
// partner waits in the shared store (KSTREAM-OUTERSHARED-...-store) until
// stream time has passed its window's end plus the grace period. A re-keyed
// side is repartitioned first, and both sides form a co-partition group:
// the runtime refuses to start a join over topics whose partition counts
// differ.
//
// # Processor API
//
// Processor, ProcessorContext and Record are the node-level API the DSL is
// built on. Records carry Go values (nil is Kafka's null); serdes turn them
// into bytes at sources, sinks and stores. An untyped Processor on a
// Nullable view sees the records' own values. Stores reach processors as
// typed views (TimestampedKeyValueStore, TimestampedWindowStore,
// SessionStore) that write Kafka's changelog formats; a nil value deletes.
package kstreams
