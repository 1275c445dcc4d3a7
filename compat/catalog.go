package compat

import (
	"os"
	"path/filepath"
	"sort"
)

// Key describes one configuration key: its ConfigDef type, default, validator,
// importance and documentation.
type Key struct {
	Name string
	Type Type
	// Default is the default in its textual form, parsed with Type. It is
	// meaningless when Required or NullDefault is set.
	Default string
	// Required keys have no default ("Missing required configuration").
	Required bool
	// NullDefault keys default to null.
	NullDefault bool
	Validator   Validator
	Importance  Importance
	Doc         string
	// Twin names the Kafka Streams key a stoatflow.* key also sets (and for a
	// Kafka Streams key, its stoatflow.* twin). See docs/config.md for which wins.
	Twin string
}

// DefaultValue returns the parsed default (a null Value for required keys).
func (k *Key) DefaultValue() Value {
	if k.Required {
		return Value{Type: k.Type, Null: true}
	}
	return parseDefault(k)
}

// The Kafka Streams key names StoatFlow reads.
const (
	ApplicationIDConfig                          = "application.id"
	BootstrapServersConfig                       = "bootstrap.servers"
	ClientIDConfig                               = "client.id"
	ProcessingGuaranteeConfig                    = "processing.guarantee"
	CommitIntervalMsConfig                       = "commit.interval.ms"
	NumStreamThreadsConfig                       = "num.stream.threads"
	StateDirConfig                               = "state.dir"
	StatestoreUncommittedMaxBytesConfig          = "statestore.uncommitted.max.bytes"
	DefaultIQIsolationLevelConfig                = "default.interactive.query.isolation.level"
	TransactionalStateStoresConfig               = "enable.transactional.statestores"
	SecurityProtocolConfig                       = "security.protocol"
	ApplicationServerConfig                      = "application.server"
	ConfigProvidersConfig                        = "config.providers"
	StatestoreCacheMaxBytesConfig                = "statestore.cache.max.bytes"
	CacheMaxBytesBufferingConfig                 = "cache.max.bytes.buffering"
	DefaultKeySerdeConfig                        = "default.key.serde"
	DefaultValueSerdeConfig                      = "default.value.serde"
	DeserializationExceptionHandlerConfig        = "deserialization.exception.handler"
	DefaultDeserializationExceptionHandlerConfig = "default.deserialization.exception.handler"
	ProductionExceptionHandlerConfig             = "production.exception.handler"
	DefaultProductionExceptionHandlerConfig      = "default.production.exception.handler"
	ProcessingExceptionHandlerConfig             = "processing.exception.handler"
	DefaultTimestampExtractorConfig              = "default.timestamp.extractor"
	DSLStoreSuppliersClassConfig                 = "dsl.store.suppliers.class"
	DefaultDSLStoreConfig                        = "default.dsl.store"
	RocksDBConfigSetterConfig                    = "rocksdb.config.setter"
	StateCleanupDelayMsConfig                    = "state.cleanup.delay.ms"
	StateCleanupDirMaxAgeMsConfig                = "state.cleanup.dir.max.age.ms"
	EnsureExplicitInternalResourceNamingConfig   = "ensure.explicit.internal.resource.naming"
	AllowOSGroupWriteAccessConfig                = "allow.os.group.write.access"
)

// The prefixes Kafka Streams gives client and topic settings.
const (
	ConsumerPrefix        = "consumer."
	MainConsumerPrefix    = "main.consumer."
	RestoreConsumerPrefix = "restore.consumer."
	GlobalConsumerPrefix  = "global.consumer."
	ProducerPrefix        = "producer."
	AdminPrefix           = "admin."
	TopicPrefix           = "topic."
	ClientTagPrefix       = "client.tag."
)

func tmpStateDir() string { return filepath.Join(os.TempDir(), "kafka-streams") }

// streamsKeys is every StreamsConfig key of Kafka Streams 4.4.
var streamsKeys = []*Key{
	{Name: "application.id", Type: TypeString, Required: true, Importance: High,
		Doc: "Identifier of the application: the consumer group id, the prefix of internal topics and transactional ids, and the default client.id prefix."},
	{Name: "bootstrap.servers", Type: TypeList, Required: true, Importance: High, Validator: ValidList{EmptyAllowed: false, NullAllowed: false},
		Doc: "host:port pairs of brokers to bootstrap from; given to every client and not overridable per client."},
	{Name: "num.standby.replicas", Type: TypeInt, Default: "0", Importance: High,
		Doc: "Number of standby replicas kept of each task's state."},
	{Name: "processing.exception.handler.global.enabled", Type: TypeBoolean, Default: "false", Importance: High,
		Doc: "Deprecated: also apply processing.exception.handler to global store and global KTable processing."},
	{Name: "state.dir", Type: TypeString, Default: tmpStateDir(), Importance: High, Twin: "stoatflow.state.dir",
		Doc: "Root directory of local state; each application uses <state.dir>/<application.id>."},
	{Name: "ensure.explicit.internal.resource.naming", Type: TypeBoolean, Default: "false", Importance: High,
		Doc: "Refuse to start when any internal topic or store name would be generated instead of given."},
	{Name: "acceptable.recovery.lag", Type: TypeLong, Default: "10000", Validator: AtLeast(0), Importance: Medium,
		Doc: "Largest changelog lag (records) at which an instance counts as caught up for an active task."},
	{Name: "cache.max.bytes.buffering", Type: TypeLong, Default: "10485760", Validator: AtLeast(0), Importance: Medium,
		Doc: "Deprecated name of statestore.cache.max.bytes."},
	{Name: "statestore.cache.max.bytes", Type: TypeLong, Default: "10485760", Validator: AtLeast(0), Importance: Medium,
		Doc: "Record-cache bytes for all stream threads together."},
	{Name: "statestore.uncommitted.max.bytes", Type: TypeLong, Default: "67108864", Validator: AtLeast(-1), Importance: Low, Twin: "stoatflow.state.uncommitted-max-bytes",
		Doc: "Uncommitted state-store bytes the instance may buffer, shared evenly by stream threads (plus one share for the global thread); a thread over its share commits early. -1 (or 0) disables the bound."},
	{Name: "client.id", Type: TypeString, Default: "", Importance: Medium,
		Doc: "Prefix of the internal clients' ids; empty means <application.id>-<processId>."},
	{Name: "default.deserialization.exception.handler", Type: TypeClass, Default: "org.apache.kafka.streams.errors.LogAndFailExceptionHandler", Importance: Medium,
		Doc: "Deprecated name of deserialization.exception.handler."},
	{Name: "default.key.serde", Type: TypeClass, NullDefault: true, Importance: Medium,
		Doc: "Serde of record keys where the topology names none."},
	{Name: "default.list.key.serde.inner", Type: TypeClass, NullDefault: true, Importance: Medium,
		Doc: "Inner serde when default.key.serde is Serdes$ListSerde."},
	{Name: "default.list.value.serde.inner", Type: TypeClass, NullDefault: true, Importance: Medium,
		Doc: "Inner serde when default.value.serde is Serdes$ListSerde."},
	{Name: "default.list.key.serde.type", Type: TypeClass, NullDefault: true, Importance: Medium,
		Doc: "java.util.List class when default.key.serde is Serdes$ListSerde."},
	{Name: "default.list.value.serde.type", Type: TypeClass, NullDefault: true, Importance: Medium,
		Doc: "java.util.List class when default.value.serde is Serdes$ListSerde."},
	{Name: "default.production.exception.handler", Type: TypeClass, Default: "org.apache.kafka.streams.errors.DefaultProductionExceptionHandler", Importance: Medium,
		Doc: "Deprecated name of production.exception.handler."},
	{Name: "default.timestamp.extractor", Type: TypeClass, Default: "org.apache.kafka.streams.processor.FailOnInvalidTimestamp", Importance: Medium,
		Doc: "How a record's timestamp is chosen where the topology names no extractor."},
	{Name: "default.value.serde", Type: TypeClass, NullDefault: true, Importance: Medium,
		Doc: "Serde of record values where the topology names none."},
	{Name: "deserialization.exception.handler", Type: TypeClass, Default: "org.apache.kafka.streams.errors.LogAndFailExceptionHandler", Importance: Medium,
		Doc: "What to do with a source record that cannot be deserialized."},
	{Name: "errors.dead.letter.queue.topic.name", Type: TypeString, NullDefault: true, Importance: Medium,
		Doc: "Topic the built-in exception handlers send failed records to; null sends none."},
	{Name: "max.task.idle.ms", Type: TypeLong, Default: "0", Importance: Medium,
		Doc: "How long a task waits for data on all its inputs before processing out of order; -1 never waits."},
	{Name: "max.warmup.replicas", Type: TypeInt, Default: "2", Validator: AtLeast(1), Importance: Medium,
		Doc: "Warm-up replicas assigned at once while moving state."},
	{Name: "num.stream.threads", Type: TypeInt, Default: "1", Importance: Medium,
		Doc: "Number of stream threads."},
	{Name: "processing.exception.handler", Type: TypeClass, Default: "org.apache.kafka.streams.errors.LogAndFailProcessingExceptionHandler", Importance: Medium,
		Doc: "What to do when a processor throws."},
	{Name: "processing.guarantee", Type: TypeString, Default: "at_least_once", Validator: ValidString{[]string{"at_least_once", "exactly_once_v2"}}, Importance: Medium,
		Doc: "at_least_once or exactly_once_v2 (transactions; commit.interval.ms defaults to 100)."},
	{Name: "production.exception.handler", Type: TypeClass, Default: "org.apache.kafka.streams.errors.DefaultProductionExceptionHandler", Importance: Medium,
		Doc: "What to do when a record cannot be written to Kafka."},
	{Name: "task.assignor.class", Type: TypeString, NullDefault: true, Importance: Medium,
		Doc: "KIP-924 TaskAssignor class; null uses the built-in HighAvailabilityTaskAssignor. StoatFlow has Kafka's StickyTaskAssignor."},
	{Name: "replication.factor", Type: TypeInt, Default: "-1", Importance: Medium,
		Doc: "Replication factor of changelog and repartition topics; -1 uses the broker default."},
	{Name: "security.protocol", Type: TypeString, Default: "PLAINTEXT", Validator: CaseInsensitiveValidString{[]string{"PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL"}}, Importance: Medium,
		Doc: "Protocol of every client's broker connections."},
	{Name: "task.timeout.ms", Type: TypeLong, Default: "300000", Validator: AtLeast(0), Importance: Medium,
		Doc: "How long a task may stall on retriable errors before failing."},
	{Name: "topology.optimization", Type: TypeString, Default: "none", Validator: topologyOptimizationValidator, Importance: Medium,
		Doc: "DSL optimizations: none, all, or a list of reuse.ktable.source.topics, merge.repartition.topics, single.store.self.join."},
	{Name: "group.protocol", Type: TypeString, Default: "classic", Validator: CaseInsensitiveValidString{[]string{"classic", "streams"}}, Importance: Medium,
		Doc: "Rebalance protocol: classic or streams (KIP-1071)."},
	{Name: "topology.description.push.enabled", Type: TypeBoolean, Default: "true", Importance: Medium,
		Doc: "Push the topology description to the broker when it asks (streams protocol)."},
	{Name: "allow.os.group.write.access", Type: TypeBoolean, Default: "false", Importance: Low,
		Doc: "Give the OS group write access to created state directories."},
	{Name: "application.server", Type: TypeString, Default: "", Validator: applicationServerValidator, Importance: Low, Twin: "stoatflow.application-server",
		Doc: "host:port (or protocol://host:port) where this instance serves interactive queries."},
	{Name: "buffered.records.per.partition", Type: TypeInt, Default: "1000", Importance: Low,
		Doc: "Records buffered per input partition before the partition is paused."},
	{Name: "built.in.metrics.version", Type: TypeString, Default: "latest", Validator: ValidString{[]string{"latest"}}, Importance: Low,
		Doc: "Version of the built-in metrics."},
	{Name: "commit.interval.ms", Type: TypeLong, Default: "30000", Validator: AtLeast(0), Importance: Low, Twin: "stoatflow.commit-barrier.interval-ms",
		Doc: "How often to commit; 100 by default under exactly_once_v2."},
	{Name: "config.providers", Type: TypeList, Default: "", Validator: ValidList{EmptyAllowed: true, NullAllowed: false}, Importance: Low,
		Doc: "Names of config providers resolving ${name:...} references."},
	{Name: "enable.metrics.push", Type: TypeBoolean, Default: "true", Importance: Low,
		Doc: "Push client metrics to the broker (KIP-714)."},
	{Name: "enable.transactional.statestores", Type: TypeBoolean, Default: "false", Importance: Low,
		Doc: "KIP-892 transactional state stores. StoatFlow's stores are always transactional."},
	{Name: "rack.aware.assignment.non_overlap_cost", Type: TypeInt, NullDefault: true, Importance: Low,
		Doc: "Rack-aware assignor cost of moving a task."},
	{Name: "rack.aware.assignment.strategy", Type: TypeString, Default: "none", Validator: ValidString{[]string{"none", "min_traffic", "balance_subtopology"}}, Importance: Low,
		Doc: "Rack-aware assignment strategy."},
	{Name: "rack.aware.assignment.tags", Type: TypeList, Default: "", Validator: ListSize{5}, Importance: Low,
		Doc: "client.tag.* keys used to spread standby replicas."},
	{Name: "rack.aware.assignment.traffic_cost", Type: TypeInt, NullDefault: true, Importance: Low,
		Doc: "Rack-aware assignor cost of cross-rack traffic."},
	{Name: "repartition.purge.interval.ms", Type: TypeLong, Default: "30000", Validator: AtLeast(0), Importance: Low,
		Doc: "How often consumed repartition records are deleted."},
	{Name: "connections.max.idle.ms", Type: TypeLong, Default: "540000", Importance: Low,
		Doc: "Close idle client connections after this long."},
	{Name: "default.dsl.store", Type: TypeString, Default: "rocksDB", Validator: ValidString{[]string{"rocksDB", "in_memory"}}, Importance: Low,
		Doc: "Deprecated: store type of DSL operators; use dsl.store.suppliers.class."},
	{Name: "dsl.store.suppliers.class", Type: TypeClass, Default: "org.apache.kafka.streams.state.BuiltInDslStoreSuppliers$RocksDBDslStoreSuppliers", Importance: Low,
		Doc: "Store type of DSL operators."},
	{Name: "dsl.store.format", Type: TypeString, Default: "DEFAULT", Validator: CaseInsensitiveValidString{[]string{"DEFAULT", "HEADERS"}}, Importance: Low,
		Doc: "DEFAULT or HEADERS (headers-aware DSL stores)."},
	{Name: "default.interactive.query.isolation.level", Type: TypeString, Default: "READ_UNCOMMITTED", Validator: CaseInsensitiveValidString{[]string{"READ_UNCOMMITTED", "READ_COMMITTED"}}, Importance: Low, Twin: "stoatflow.state.interactive-query-isolation-level",
		Doc: "Isolation level of interactive queries that name none."},
	{Name: "default.client.supplier", Type: TypeClass, Default: "org.apache.kafka.streams.processor.internals.DefaultKafkaClientSupplier", Importance: Low,
		Doc: "Factory of the Kafka clients."},
	{Name: "log.summary.interval.ms", Type: TypeLong, Default: "120000", Importance: Low,
		Doc: "Interval of summary log lines; negative disables them."},
	{Name: "metadata.max.age.ms", Type: TypeLong, Default: "300000", Validator: AtLeast(0), Importance: Low,
		Doc: "Client metadata refresh interval."},
	{Name: "metrics.num.samples", Type: TypeInt, Default: "2", Validator: AtLeast(1), Importance: Low,
		Doc: "Samples kept per metric."},
	{Name: "metric.reporters", Type: TypeList, Default: "org.apache.kafka.common.metrics.JmxReporter", Validator: ValidList{EmptyAllowed: true, NullAllowed: false}, Importance: Low,
		Doc: "Java metric reporter classes."},
	{Name: "metrics.recording.level", Type: TypeString, Default: "INFO", Validator: ValidString{[]string{"INFO", "DEBUG", "TRACE"}}, Importance: Low,
		Doc: "Highest level of metrics recorded."},
	{Name: "metrics.sample.window.ms", Type: TypeLong, Default: "30000", Validator: AtLeast(0), Importance: Low,
		Doc: "Metrics sample window."},
	{Name: "poll.ms", Type: TypeLong, Default: "100", Importance: Low,
		Doc: "Longest time a poll for input blocks."},
	{Name: "probing.rebalance.interval.ms", Type: TypeLong, Default: "600000", Validator: AtLeast(60000), Importance: Low,
		Doc: "Longest wait before a rebalance that checks whether warm-ups caught up."},
	{Name: "processor.wrapper.class", Type: TypeClass, Default: "org.apache.kafka.streams.processor.internals.NoOpProcessorWrapper", Importance: Low,
		Doc: "Wrapper around every processor (KIP-1112)."},
	{Name: "receive.buffer.bytes", Type: TypeInt, Default: "32768", Validator: AtLeast(-1), Importance: Low,
		Doc: "TCP receive buffer; -1 uses the OS default."},
	{Name: "reconnect.backoff.ms", Type: TypeLong, Default: "50", Validator: AtLeast(0), Importance: Low,
		Doc: "First wait before reconnecting to a broker."},
	{Name: "reconnect.backoff.max.ms", Type: TypeLong, Default: "1000", Validator: AtLeast(0), Importance: Low,
		Doc: "Longest wait before reconnecting to a broker."},
	{Name: "retry.backoff.ms", Type: TypeLong, Default: "100", Validator: AtLeast(0), Importance: Low,
		Doc: "Wait before retrying a failed request."},
	{Name: "request.timeout.ms", Type: TypeInt, Default: "40000", Validator: AtLeast(0), Importance: Low,
		Doc: "How long a client waits for a response."},
	{Name: "metadata.recovery.strategy", Type: TypeString, Default: "rebootstrap", Validator: CaseInsensitiveValidString{[]string{"none", "rebootstrap"}}, Importance: Low,
		Doc: "What clients do when no known broker is reachable."},
	{Name: "metadata.recovery.rebootstrap.trigger.ms", Type: TypeLong, Default: "300000", Validator: AtLeast(0), Importance: Low,
		Doc: "How long without metadata before clients re-bootstrap."},
	{Name: "metadata.cluster.check.enable", Type: TypeBoolean, Default: "true", Importance: Low,
		Doc: "Detect connections routed to the wrong cluster."},
	{Name: "rocksdb.config.setter", Type: TypeClass, NullDefault: true, Importance: Low,
		Doc: "Java RocksDBConfigSetter class; StoatFlow uses stoatflow.rocksdb.* keys instead."},
	{Name: "send.buffer.bytes", Type: TypeInt, Default: "131072", Validator: AtLeast(-1), Importance: Low,
		Doc: "TCP send buffer; -1 uses the OS default."},
	{Name: "state.cleanup.delay.ms", Type: TypeLong, Default: "600000", Importance: Low,
		Doc: "How long state of tasks that moved away is kept."},
	{Name: "state.cleanup.dir.max.age.ms", Type: TypeLong, Default: "-1", Importance: Low,
		Doc: "At start-up, delete state directories untouched for this long; -1 keeps them."},
	{Name: "upgrade.from", Type: TypeString, NullDefault: true, Validator: ValidString{[]string{"null", "2.4", "2.5", "2.6", "2.7", "2.8", "3.0", "3.1", "3.2", "3.3", "3.4", "3.5", "3.6", "3.7", "3.8", "3.9", "4.0", "4.1", "4.2", "4.3"}}, Importance: Low,
		Doc: "Version being upgraded from during a rolling upgrade of JVM instances."},
	{Name: "windowed.inner.class.serde", Type: TypeString, NullDefault: true, Importance: Low,
		Doc: "Deprecated: inner serde of windowed deserializers of plain consumers; not for Streams applications."},
	{Name: "windowstore.changelog.additional.retention.ms", Type: TypeLong, Default: "86400000", Importance: Low,
		Doc: "Added to a window or session store's retention for its changelog's retention.ms."},
	{Name: "window.size.ms", Type: TypeLong, NullDefault: true, Importance: Low,
		Doc: "Deprecated: window size of windowed deserializers of plain consumers."},
}

var streamsIndex = indexKeys(streamsKeys)

func indexKeys(ks []*Key) map[string]*Key {
	m := make(map[string]*Key, len(ks))
	for _, k := range ks {
		m[k.Name] = k
	}
	return m
}

// StreamsKeys returns every StreamsConfig key of Kafka Streams 4.4, sorted by name.
func StreamsKeys() []*Key {
	out := append([]*Key(nil), streamsKeys...)
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// StreamsKey returns the catalog entry of a StreamsConfig key.
func StreamsKey(name string) (*Key, bool) {
	k, ok := streamsIndex[name]
	return k, ok
}
