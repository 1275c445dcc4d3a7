// Package streams is StoatFlow's runtime: KafkaStreams runs a kstreams
// Topology against Kafka with the semantics of Kafka Streams 4.4, as
// org.apache.kafka.streams.KafkaStreams does.
//
// An instance owns num.stream.threads stream threads in the application's
// consumer group. Each thread holds a main consumer, a restore consumer, an
// exactly_once_v2 or at_least_once producer (package txn) and the tasks the
// group assigned it; a task's stores are the state package's transactional
// stores, opened under state.dir, restored from their changelogs from the
// committed offset on, and committed only after the Kafka transaction
// commits. A topology with global stores also gets a global thread: it
// reads every partition of the global topics into its stores, restoring
// them to the topics' end before the stream threads start, and keeps them
// up to date; stream tasks read them by name. Interactive queries reach the
// running stores, global ones included, through KafkaStreams.LocalStores,
// and Hooks report commits, restores and drops for metrics.
//
//	topo, err := wordcount.Build(nil)
//	cfg, diags := compat.LoadFiles([]string{"streams.properties"}, nil, nil)
//	app, err := streams.New(topo, cfg)
//	err = app.Start(ctx)
//	defer app.Close(ctx)
//
// The Java classes a configuration names are resolved against what the
// program passes, never against a process-wide registry: Protobuf and JSON
// Schema value types against the registry.Classes given to the loader
// (compat.WithSchemaClasses), production.exception.handler against the
// kstreams.ProductionHandlers given to both the loader
// (compat.WithProductionHandlerClasses) and New (WithProductionHandlers).
// Each instance builds its own Schema Registry default serdes.
//
// The DSL, Topology and Processor API live in package kstreams, which
// imports neither this package nor a Kafka client, so a topology can be
// built and tested (package kstreams/kstreamstest) without one.
package streams
