package compat

import (
	"fmt"
	"log/slog"
	"maps"
	"sort"
	"strings"
	"time"

	"github.com/stoatflow/stoatflow/properties"
)

// Secret is a string that never prints: String, Format verbs and text
// marshalling all give "[hidden]", as Kafka's Password does. Use Value for the
// secret itself.
type Secret struct{ v string }

// NewSecret wraps s.
func NewSecret(s string) Secret { return Secret{s} }

// Value returns the secret.
func (s Secret) Value() string { return s.v }

// IsSet reports whether the secret is non-empty.
func (s Secret) IsSet() bool { return s.v != "" }

// String returns "[hidden]".
func (s Secret) String() string { return "[hidden]" }

// GoString returns "[hidden]".
func (s Secret) GoString() string { return "[hidden]" }

// MarshalText returns "[hidden]".
func (s Secret) MarshalText() ([]byte, error) { return []byte("[hidden]"), nil }

// LogValue keeps the secret out of slog output.
func (s Secret) LogValue() slog.Value { return slog.StringValue("[hidden]") }

// StateCleanupDirMaxAgeDisabled is state.cleanup.dir.max.age.ms's default,
// -1 (Kafka Streams' STATE_CLEANUP_DIR_MAX_AGE_MS_DISABLED): Start deletes
// no task directory for its age.
const StateCleanupDirMaxAgeDisabled = -time.Millisecond

// Config is StoatFlow's typed configuration, built by Load from a Kafka Streams
// .properties file. Nothing downstream reads raw keys. Each field names its key
// and its default. Some fields are not acted on yet (buffered.records.per.partition,
// task.timeout.ms, ...; docs/config.md lists them): Load reports any value of
// theirs other than Kafka's default, saying what StoatFlow does instead.
type Config struct {
	// ApplicationID identifies the application (application.id; required).
	ApplicationID string
	// BootstrapServers are the brokers (bootstrap.servers; required).
	BootstrapServers []string
	// ClientID is the prefix of client ids (client.id; default "", meaning
	// <ApplicationID>-<processId>; see EffectiveClientID).
	ClientID string
	// ProcessingGuarantee is at_least_once or exactly_once_v2
	// (processing.guarantee; default AtLeastOnce).
	ProcessingGuarantee ProcessingGuarantee
	// NumStreamThreads is the number of stream threads (num.stream.threads; default 1).
	NumStreamThreads int
	// CommitInterval is how often to commit (commit.interval.ms or
	// stoatflow.commit-barrier.interval-ms; default 30s, 100ms under exactly_once_v2).
	CommitInterval time.Duration
	// StateDir is the root of local state (state.dir or stoatflow.state.dir;
	// default <os.TempDir()>/kafka-streams).
	StateDir string
	// AllowOSGroupWriteAccess (allow.os.group.write.access; default false)
	// gives the OS group write access to the state directory and the
	// application's directory in it: Start sets their modes to rwxrwx---
	// instead of rwxr-x---, as Kafka Streams 4.4's StateDirectory does.
	AllowOSGroupWriteAccess bool
	// ReplicationFactor of internal topics (replication.factor; default -1 = broker default).
	ReplicationFactor int
	// NumStandbyReplicas per stateful task (num.standby.replicas; default
	// 0): a StoatFlow leader places them, and every instance keeps the
	// standbys it is given up to date from their changelogs.
	NumStandbyReplicas int
	// DefaultKeySerde (default.key.serde; default SerdeUnset).
	DefaultKeySerde Serde
	// DefaultValueSerde (default.value.serde; default SerdeUnset).
	DefaultValueSerde Serde
	// SchemaRegistry holds Confluent's serde keys (schema.registry.url,
	// basic.auth.*, auto.register.schemas, ...), used when a default serde
	// is a Schema Registry serde.
	SchemaRegistry SchemaRegistryConfig
	// DeserializationExceptionHandler (deserialization.exception.handler, or the
	// deprecated default.deserialization.exception.handler; default LogAndFail).
	DeserializationExceptionHandler DeserializationHandler
	// ProcessingExceptionHandler (processing.exception.handler; default LogAndFail).
	ProcessingExceptionHandler ProcessingHandler
	// ProcessingExceptionHandlerGlobal applies it to global stores too
	// (processing.exception.handler.global.enabled; default false).
	ProcessingExceptionHandlerGlobal bool
	// ProductionExceptionHandler is the class production.exception.handler
	// (or the deprecated default.production.exception.handler) names:
	// Kafka's DefaultProductionExceptionHandler (the default), or a class
	// the program has a Go handler for (WithProductionHandlerClasses); the
	// kstreams.ProductionHandlers given to the runtime make one.
	ProductionExceptionHandler string
	// TimestampExtractor (default.timestamp.extractor; default FailOnInvalidTimestamp).
	TimestampExtractor TimestampExtractor
	// DeadLetterQueueTopic receives records the built-in handlers give up on
	// (errors.dead.letter.queue.topic.name; default "" = none).
	DeadLetterQueueTopic string
	// MaxTaskIdle (max.task.idle.ms; default 0; negative means never wait).
	MaxTaskIdle time.Duration
	// BufferedRecordsPerPartition (buffered.records.per.partition; default
	// 1000): a stream thread stops fetching an input partition whose queue
	// holds more records than this after a poll, and fetches it again once
	// processing has brought the queue back to it or below.
	BufferedRecordsPerPartition int
	// StatestoreCacheMaxBytes for all threads (statestore.cache.max.bytes, or the
	// deprecated cache.max.bytes.buffering; default 10 MiB).
	StatestoreCacheMaxBytes int64
	// UncommittedMaxBytes is the instance's uncommitted-bytes budget
	// (statestore.uncommitted.max.bytes or stoatflow.state.uncommitted-max-bytes;
	// default 64 MiB; <= 0 disables). See UncommittedBytesPerThread.
	UncommittedMaxBytes int64
	// IsolationLevel of interactive queries that name none
	// (stoatflow.state.interactive-query-isolation-level or
	// default.interactive.query.isolation.level; default ReadUncommitted).
	IsolationLevel IsolationLevel
	// ApplicationServer is this instance's query endpoint (application.server or
	// stoatflow.application-server; default "").
	ApplicationServer string
	// TopicConfigs are the topic.* settings for internal topics, without the prefix.
	TopicConfigs map[string]string
	// RepartitionPurgeInterval (repartition.purge.interval.ms; default 30s).
	RepartitionPurgeInterval time.Duration
	// WindowstoreChangelogAdditionalRetention
	// (windowstore.changelog.additional.retention.ms; default 24h).
	WindowstoreChangelogAdditionalRetention time.Duration
	// OuterJoinEmitInterval throttles a stream-stream left or outer join's
	// scans of its shared store to one per interval of wall-clock time
	// (Kafka Streams' private
	// __emit.interval.ms.kstreams.outer.join.spurious.results.fix__;
	// default 1s). Zero scans at every record, which makes what is emitted
	// depend on the input alone.
	OuterJoinEmitInterval time.Duration
	// WindowedAggregationEmitInterval throttles the final results of a
	// windowed aggregation with emitStrategy(onWindowClose) to one emission
	// per interval of wall-clock time (Kafka Streams' private
	// __emit.interval.ms.kstreams.windowed.aggregation__; default 1s). Zero
	// emits at every record that closes a window.
	WindowedAggregationEmitInterval time.Duration
	// PollTimeout is the longest a poll blocks (poll.ms; default 100ms).
	PollTimeout time.Duration
	// AcceptableRecoveryLag (acceptable.recovery.lag; default 10000): how
	// far behind a client's state may be for a leader to give it the task.
	AcceptableRecoveryLag int64
	// MaxWarmupReplicas (max.warmup.replicas; default 2): warm-up replicas,
	// run as standbys, that a leader places at once to move tasks.
	MaxWarmupReplicas int
	// ProbingRebalanceInterval (probing.rebalance.interval.ms; default
	// 10m): how often a leader with warm-ups out checks whether they caught
	// up.
	ProbingRebalanceInterval time.Duration
	// TaskTimeout (task.timeout.ms; default 5m).
	TaskTimeout time.Duration
	// Optimizations are the enabled DSL optimizations (topology.optimization;
	// default none), each one of the Optimize* names other than none and all.
	Optimizations []string
	// DSLStore is the store kind of DSL operators (dsl.store.suppliers.class, or
	// the deprecated default.dsl.store; default DSLStoreRocksDB).
	DSLStore DSLStore
	// DSLStoreHeaders selects headers-aware DSL stores (dsl.store.format=HEADERS; default false).
	DSLStoreHeaders bool
	// GroupProtocol (group.protocol; default classic): classic runs each
	// stream thread's consumer in a classic group under Kafka Streams'
	// assignor; streams (KIP-1071) makes each thread a member of a streams
	// group, whose coordinator assigns the tasks.
	GroupProtocol GroupProtocol
	// TopologyDescriptionPushEnabled (topology.description.push.enabled;
	// default true): under group.protocol=streams, a member pushes the
	// topology's description to the group's coordinator when a heartbeat's
	// answer asks for it (KIP-1331), for the broker's
	// group.streams.topology.description.plugin.class. Under classic
	// nothing is pushed either way.
	TopologyDescriptionPushEnabled bool
	// EnsureExplicitInternalResourceNaming
	// (ensure.explicit.internal.resource.naming, KIP-1111; default false):
	// the runtime refuses a topology whose DSL left an internal topic or
	// store to a generated name (kstreams.Topology.UnnamedResources), as
	// Kafka Streams 4.4 refuses it; false logs the names at WARN.
	EnsureExplicitInternalResourceNaming bool
	// StateCleanupDelay (state.cleanup.delay.ms; default 10m): how often
	// the cleaner runs, the first time one delay after Start, and how long
	// ago a task directory no thread of the instance has open must have
	// been let go for the cleaner to delete it. At least 1ms: Kafka
	// Streams' start fails on a lower one.
	StateCleanupDelay time.Duration
	// StateCleanupDirMaxAge (state.cleanup.dir.max.age.ms, Kafka Streams
	// 4.3's KIP-1259; default StateCleanupDirMaxAgeDisabled): Start deletes
	// the task directories last modified longer ago than this before any
	// task opens. Any other negative age deletes them all, as in Kafka
	// Streams.
	StateCleanupDirMaxAge time.Duration
	// LogSummaryInterval (log.summary.interval.ms; default 2m): each stream
	// thread logs at Info, this often, what it did since its last such line
	// (records processed, punctuators run, polls, tasks committed), as Kafka
	// Streams' StreamThread does. Zero or negative: no summary.
	LogSummaryInterval time.Duration
	// MetricsRecordingLevel (metrics.recording.level; default
	// RecordingInfo): metrics whose Kafka Streams sensor is of a higher
	// level (DEBUG: the task-level process, restore and update metrics)
	// are exposed but not recorded.
	MetricsRecordingLevel RecordingLevel
	// MetricsNumSamples (metrics.num.samples; default 2) and
	// MetricsSampleWindow (metrics.sample.window.ms; default 30s): rates,
	// averages and maxima are measured over that many samples of that
	// window each, as Kafka's SampledStat measures them. A window of 0
	// measures nothing: averages, maxima and rates read NaN.
	MetricsNumSamples   int
	MetricsSampleWindow time.Duration
	// ClientTags are the client.tag.* settings, without the prefix.
	ClientTags map[string]string
	// RackAwareAssignmentTags (rack.aware.assignment.tags; default empty).
	RackAwareAssignmentTags []string
	// RackAwareAssignmentStrategy (rack.aware.assignment.strategy; default
	// none): none, min_traffic or balance_subtopology. A StoatFlow group
	// leader places tasks by it as a Kafka Streams leader does, when every
	// member reports a client.rack and every partition's replicas have racks.
	RackAwareAssignmentStrategy string
	// RackAwareTrafficCost (rack.aware.assignment.traffic_cost; default
	// null: the assignor's 10) and RackAwareNonOverlapCost
	// (rack.aware.assignment.non_overlap_cost; default null: 1) weigh
	// cross-rack traffic against moving tasks.
	RackAwareTrafficCost    *int
	RackAwareNonOverlapCost *int
	// TaskAssignor (task.assignor.class; default null:
	// TaskAssignorHighAvailability) is how a StoatFlow group leader places
	// the tasks: Kafka Streams' HighAvailabilityTaskAssignor, or its
	// KIP-924 StickyTaskAssignor when the key names StickyTaskAssignorClass.
	// Any other class falls back to the default, with a warning.
	TaskAssignor TaskAssignor
	// UpgradeFrom (upgrade.from; default "").
	UpgradeFrom string
	// MaxPollRecords is what the main consumer's max.poll.records resolves to
	// (consumer./main.consumer. prefixes apply; default 1000). The engine
	// bounds its own batches (PollRecords) with it.
	MaxPollRecords int
	// ProducerBatchBytes is what the stream threads' producers' batch.size
	// resolves to (producer. prefix applies; default 16384). While records
	// linger (linger.ms), a partition that buffers this many bytes is sent
	// at once, as the Java producer sends a full batch.
	ProducerBatchBytes int

	// Topology names the Go topology to run, one of those the program gives
	// the sidecar (stoatflow.topology; default "").
	Topology string
	// EmbeddedBroker runs an in-process broker (stoatflow.embedded-broker; default false).
	EmbeddedBroker bool
	// StaticMembership gives each main consumer a group.instance.id derived
	// from the host, the application id and the state directory, and the
	// thread index (stoatflow.consumer.static-membership, default true).
	StaticMembership bool
	// LeaveGroupOnClose makes Close leave the group
	// (stoatflow.shutdown.leave-group, default false).
	LeaveGroupOnClose bool
	// UncaughtExceptionResponse is what a stream thread's failure does
	// (stoatflow.thread.uncaught-exception-response): SHUTDOWN_CLIENT
	// (default), REPLACE_THREAD or SHUTDOWN_APPLICATION. A handler set on
	// the instance in Go replaces it.
	UncaughtExceptionResponse string
	// HTTPListen is the HTTP server's address (stoatflow.http.listen; default 127.0.0.1:7070).
	HTTPListen string
	// HTTPAuthToken is the HTTP bearer token (stoatflow.http.auth-token; default none).
	HTTPAuthToken Secret
	// HTTPTLSCertFile (stoatflow.http.tls.cert-file; default "" = plain HTTP).
	HTTPTLSCertFile string
	// HTTPTLSKeyFile (stoatflow.http.tls.key-file; default "").
	HTTPTLSKeyFile string
	// QueryRemote is what the HTTP API does with a key query whose
	// partition another instance hosts (stoatflow.query.remote; default
	// QueryForward).
	QueryRemote QueryRemote
	// QueryRemoteTimeout bounds the wait for the instance a query is
	// forwarded to (stoatflow.query.remote.timeout-ms; default 5s; 0
	// takes the default).
	QueryRemoteTimeout time.Duration
	// ShutdownTimeout (stoatflow.shutdown.timeout-ms; default 30s).
	ShutdownTimeout time.Duration
	// LogFormat (stoatflow.log.format; default text).
	LogFormat LogFormat
	// LogLevel (stoatflow.log.level; default info).
	LogLevel slog.Level
	// RocksDBWriteBufferBytes per store (stoatflow.rocksdb.write-buffer-bytes; default 16 MiB).
	RocksDBWriteBufferBytes int64
	// StoreWriteBufferBytes overrides it per store
	// (stoatflow.store.<store>.rocksdb.write-buffer-bytes). See WriteBufferBytes.
	StoreWriteBufferBytes map[string]int64
	// FlushMaxLagRecords bounds, in changelog offsets, how far a RocksDB
	// store's durable offset trails its committed one
	// (stoatflow.rocksdb.flush.max-lag-records; default 100000; 0: no
	// bound). See FlushPolicy.
	FlushMaxLagRecords int64
	// FlushMaxLag bounds the age of a RocksDB store's oldest commit not yet
	// on disk (stoatflow.rocksdb.flush.max-lag-ms; default 60s; 0: no
	// bound). See FlushPolicy.
	FlushMaxLag time.Duration
	// StoreFlushMaxLagRecords and StoreFlushMaxLag override them per store
	// (stoatflow.store.<store>.rocksdb.flush.max-lag-records and
	// stoatflow.store.<store>.rocksdb.flush.max-lag-ms).
	StoreFlushMaxLagRecords map[string]int64
	StoreFlushMaxLag        map[string]time.Duration
	// Strict makes unknown keys errors (stoatflow.config.strict; default false).
	Strict bool

	// values holds the effective value of every catalog key, for the printer.
	values map[string]Value
	// invalid holds the keys whose values were refused; the printer marks them.
	invalid map[string]bool
	// originals holds every property as given (after config providers), for
	// AppConfigs.
	originals map[string]string
	// positions holds where each property was set, for Pos.
	positions map[string]properties.Pos
	// files are the files the keys name, for CheckFiles.
	files []fileSetting
	// kgo holds the franz-go options shared by all instances of a client
	// kind; kgoOptions adds the derived ids.
	kgo map[ClientKind][]ClientOption
	// groupInstance is the user's group.instance.id of the main consumer,
	// to which each thread's index is appended.
	groupInstance clientSetting
	// hostname is the host's name, which static members are named after.
	hostname string
	// autoOffsetReset is the main consumer's auto.offset.reset, lower case.
	autoOffsetReset string
}

// AppConfigs returns the application's configuration as a processor reads
// it through Kafka's ProcessorContext.appConfigs(): every property of the
// .properties as given, the application's own keys among them, and over
// them every Kafka Streams key with its effective value, its default when
// unset, in its text form (a list comma-separated, a class by its name). A
// key whose value is null is absent. The map is a copy; a Config not built
// by Load has no properties to give.
func (c *Config) AppConfigs() map[string]string {
	m := make(map[string]string, len(c.originals)+len(streamsKeys))
	maps.Copy(m, c.originals)
	for _, k := range streamsKeys {
		if v, ok := c.values[k.Name]; ok && !v.Null {
			m[k.Name] = v.text()
		}
	}
	return m
}

// EffectiveClientID returns client.id, or <ApplicationID>-<processID> when it is empty.
func (c *Config) EffectiveClientID(processID string) string {
	if c.ClientID != "" {
		return c.ClientID
	}
	return c.ApplicationID + "-" + processID
}

// ExactlyOnce reports whether processing.guarantee is exactly_once_v2.
func (c *Config) ExactlyOnce() bool { return c.ProcessingGuarantee == ExactlyOnceV2 }

// UncommittedBytesPerThread returns each thread's share of UncommittedMaxBytes:
// the budget divided evenly by numThreads, plus one share for the global thread
// when hasGlobal. It returns -1 (no bound) when the budget is <= 0.
func (c *Config) UncommittedBytesPerThread(numThreads int, hasGlobal bool) int64 {
	return UncommittedShare(c.UncommittedMaxBytes, numThreads, hasGlobal)
}

// UncommittedShare divides total as Kafka Streams 4.4 does: -1 when total <= 0,
// else total / (numThreads + 1 if hasGlobal), and total itself when the divisor is 0.
func UncommittedShare(total int64, numThreads int, hasGlobal bool) int64 {
	if total <= 0 {
		return -1
	}
	d := int64(numThreads)
	if hasGlobal {
		d++
	}
	if d <= 0 {
		return total
	}
	return total / d
}

// WriteBufferBytes returns the RocksDB write buffer of store.
func (c *Config) WriteBufferBytes(store string) int64 {
	if n, ok := c.StoreWriteBufferBytes[store]; ok {
		return n
	}
	return c.RocksDBWriteBufferBytes
}

// FlushPolicy returns the flush policy bounds of store: the records (in
// changelog offsets) and the age by which its durable offset may trail
// the committed one; 0 sets no bound.
func (c *Config) FlushPolicy(store string) (maxLagRecords int64, maxLag time.Duration) {
	maxLagRecords, maxLag = c.FlushMaxLagRecords, c.FlushMaxLag
	if n, ok := c.StoreFlushMaxLagRecords[store]; ok {
		maxLagRecords = n
	}
	if d, ok := c.StoreFlushMaxLag[store]; ok {
		maxLag = d
	}
	return maxLagRecords, maxLag
}

// Validate checks the typed fields, for a Config built or changed in code.
// Load already reports everything Validate would.
func (c *Config) Validate() error {
	var errs []string
	if c.ApplicationID == "" {
		errs = append(errs, `Missing required configuration "application.id" which has no default value.`)
	}
	if len(c.BootstrapServers) == 0 && !c.EmbeddedBroker {
		errs = append(errs, "Configuration 'bootstrap.servers' must not be empty. Valid values include: any non-empty value")
	}
	if c.NumStreamThreads < 1 {
		errs = append(errs, fmt.Sprintf("num.stream.threads is %d; StoatFlow needs at least 1 stream thread", c.NumStreamThreads))
	}
	if c.CommitInterval < 0 {
		errs = append(errs, invalid(CommitIntervalMsConfig, fmt.Sprint(c.CommitInterval.Milliseconds()), "Value must be at least 0"))
	}
	if c.UncommittedMaxBytes < -1 {
		errs = append(errs, invalid(StatestoreUncommittedMaxBytesConfig, fmt.Sprint(c.UncommittedMaxBytes), "Value must be at least -1"))
	}
	if c.StatestoreCacheMaxBytes < 0 {
		errs = append(errs, invalid(StatestoreCacheMaxBytesConfig, fmt.Sprint(c.StatestoreCacheMaxBytes), "Value must be at least 0"))
	}
	if c.StateDir == "" {
		errs = append(errs, "state.dir must not be empty")
	}
	if c.StateCleanupDelay < time.Millisecond {
		errs = append(errs, fmt.Sprintf("%s is %d; Kafka Streams' start fails on a cleanup delay below 1 ms (its cleaner's period must be positive)",
			StateCleanupDelayMsConfig, c.StateCleanupDelay.Milliseconds()))
	}
	if (c.HTTPTLSCertFile == "") != (c.HTTPTLSKeyFile == "") {
		errs = append(errs, "stoatflow.http.tls.cert-file and stoatflow.http.tls.key-file must be set together")
	}
	if c.QueryRemoteTimeout < 0 {
		errs = append(errs, invalid(QueryRemoteTimeoutMsConfig, fmt.Sprint(c.QueryRemoteTimeout.Milliseconds()), "Value must be at least 1"))
	}
	if c.RocksDBWriteBufferBytes < 1 {
		errs = append(errs, invalid(RocksDBWriteBufferBytesConfig, fmt.Sprint(c.RocksDBWriteBufferBytes), "Value must be at least 1"))
	}
	for s, n := range c.StoreWriteBufferBytes {
		if n < 1 {
			errs = append(errs, invalid(StoreWriteBufferKey(s), fmt.Sprint(n), "Value must be at least 1"))
		}
	}
	if c.FlushMaxLagRecords < 0 {
		errs = append(errs, invalid(FlushMaxLagRecordsConfig, fmt.Sprint(c.FlushMaxLagRecords), "Value must be at least 0"))
	}
	if c.FlushMaxLag < 0 {
		errs = append(errs, invalid(FlushMaxLagMsConfig, fmt.Sprint(c.FlushMaxLag.Milliseconds()), "Value must be at least 0"))
	}
	for s, n := range c.StoreFlushMaxLagRecords {
		if n < 0 {
			errs = append(errs, invalid(StoreFlushMaxLagRecordsKey(s), fmt.Sprint(n), "Value must be at least 0"))
		}
	}
	for s, d := range c.StoreFlushMaxLag {
		if d < 0 {
			errs = append(errs, invalid(StoreFlushMaxLagMsKey(s), fmt.Sprint(d.Milliseconds()), "Value must be at least 0"))
		}
	}
	if len(errs) == 0 {
		return nil
	}
	sort.Strings(errs)
	return fmt.Errorf("%w: %s", ErrInvalidConfig, strings.Join(errs, "; "))
}
