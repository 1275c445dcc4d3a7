// Package kstreams is StoatFlow's Kafka Streams DSL: the typed StreamsBuilder,
// Topology and its describe() text, serdes and the Processor API. It links no
// Kafka client: package streams runs a Topology against Kafka, and package
// kstreamstest runs one in process.
//
// # Building a topology
//
// A StreamsBuilder records DSL calls. Operations that keep the key and value
// types are methods (Filter, FilterNot, Peek, Foreach, To, Merge, Split,
// GroupByKey, Count, Reduce, ToStream); operations that change a type are functions, because Go
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
// # What a runtime reads
//
//   - Topology.Subtopologies: per sub-topology its nodes, source and sink
//     topics (TopicRef, internal ones undecorated; Decorated adds the
//     application id) and its StoreSpecs (name, kind, timestamped, logging,
//     changelog config, retention, store type).
//   - Topology.InternalTopics and InternalTopicPartitions: repartition and
//     changelog topics with Kafka's configs and partition counts.
//   - Topology.NewTask: the processors of one task, given byte stores
//     (KeyValueBytesStore, WindowBytesStore, SessionBytesStore) and a
//     RecordCollector for sink and changelog records. Task.Process runs one
//     input record through the sub-topology synchronously.
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
// # Processor API
//
// Processor, ProcessorContext and Record are the node-level API the DSL is
// built on. Records carry Go values (nil is Kafka's null); serdes turn them
// into bytes at sources, sinks and stores. Stores reach processors as typed
// views (TimestampedKeyValueStore, TimestampedWindowStore, SessionStore)
// that write Kafka's changelog formats.
package kstreams
