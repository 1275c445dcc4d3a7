package compat

import (
	"regexp"
	"sort"
	"time"
)

// StoatFlow's own keys.
const (
	StrictConfig                  = "stoatflow.config.strict"
	TopologyConfig                = "stoatflow.topology"
	EmbeddedBrokerConfig          = "stoatflow.embedded-broker"
	HTTPListenConfig              = "stoatflow.http.listen"
	HTTPAuthTokenConfig           = "stoatflow.http.auth-token"
	HTTPTLSCertFileConfig         = "stoatflow.http.tls.cert-file"
	HTTPTLSKeyFileConfig          = "stoatflow.http.tls.key-file"
	ShutdownTimeoutMsConfig       = "stoatflow.shutdown.timeout-ms"
	ShutdownLeaveGroupConfig      = "stoatflow.shutdown.leave-group"
	LogFormatConfig               = "stoatflow.log.format"
	LogLevelConfig                = "stoatflow.log.level"
	RocksDBWriteBufferBytesConfig = "stoatflow.rocksdb.write-buffer-bytes"
	FlushMaxLagRecordsConfig      = "stoatflow.rocksdb.flush.max-lag-records"
	FlushMaxLagMsConfig           = "stoatflow.rocksdb.flush.max-lag-ms"
	StateDirTwinConfig            = "stoatflow.state.dir"
	UncommittedMaxBytesTwinConfig = "stoatflow.state.uncommitted-max-bytes"
	IQIsolationLevelConfig        = "stoatflow.state.interactive-query-isolation-level"
	CommitIntervalTwinConfig      = "stoatflow.commit-barrier.interval-ms"
	ApplicationServerTwinConfig   = "stoatflow.application-server"
	StaticMembershipConfig        = "stoatflow.consumer.static-membership"
	UncaughtExceptionConfig       = "stoatflow.thread.uncaught-exception-response"
	QueryRemoteConfig             = "stoatflow.query.remote"
	QueryRemoteTimeoutMsConfig    = "stoatflow.query.remote.timeout-ms"
)

// DefaultHTTPListen is the default of stoatflow.http.listen.
const DefaultHTTPListen = "127.0.0.1:7070"

// DefaultRocksDBWriteBufferBytes is the default RocksDB write buffer (16 MiB).
const DefaultRocksDBWriteBufferBytes = 16 << 20

// DefaultFlushMaxLagRecords and DefaultFlushMaxLagMs are the defaults of
// the flush policy keys (docs/config.md gives the measurements behind
// them).
const (
	DefaultFlushMaxLagRecords = 100000
	DefaultFlushMaxLagMs      = 60000
)

// StoreWriteBufferKey returns the per-store write-buffer key of store.
func StoreWriteBufferKey(store string) string {
	return "stoatflow.store." + store + ".rocksdb.write-buffer-bytes"
}

// StoreFlushMaxLagRecordsKey returns the per-store key of
// stoatflow.rocksdb.flush.max-lag-records.
func StoreFlushMaxLagRecordsKey(store string) string {
	return "stoatflow.store." + store + ".rocksdb.flush.max-lag-records"
}

// StoreFlushMaxLagMsKey returns the per-store key of
// stoatflow.rocksdb.flush.max-lag-ms.
func StoreFlushMaxLagMsKey(store string) string {
	return "stoatflow.store." + store + ".rocksdb.flush.max-lag-ms"
}

var stoatflowKeys = []*Key{
	{Name: StrictConfig, Type: TypeBoolean, Default: "false", Importance: Medium,
		Doc: "Treat unknown keys as errors instead of warnings."},
	{Name: TopologyConfig, Type: TypeString, Default: "", Importance: High,
		Doc: "Name of the Go topology to run, one of those the sidecar's main package gives it, e.g. wordcount."},
	{Name: EmbeddedBrokerConfig, Type: TypeBoolean, Default: "false", Importance: Low,
		Doc: "Run an in-process Kafka-protocol broker (for demos and tests only) instead of connecting to bootstrap.servers."},
	{Name: HTTPListenConfig, Type: TypeString, Default: DefaultHTTPListen, Validator: hostPortValidator, Importance: Medium,
		Doc: "host:port of the HTTP server (metrics, health, interactive queries)."},
	{Name: HTTPAuthTokenConfig, Type: TypePassword, NullDefault: true, Importance: Medium,
		Doc: "Bearer token the HTTP server requires; null requires none."},
	{Name: HTTPTLSCertFileConfig, Type: TypeString, NullDefault: true, Importance: Low,
		Doc: "PEM certificate file of the HTTP server; set with key-file to serve HTTPS."},
	{Name: HTTPTLSKeyFileConfig, Type: TypeString, NullDefault: true, Importance: Low,
		Doc: "PEM private key file of the HTTP server; set with cert-file to serve HTTPS."},
	{Name: ShutdownTimeoutMsConfig, Type: TypeLong, Default: "30000", Validator: AtLeast(0), Importance: Medium,
		Doc: "Longest time a graceful shutdown may take before the process exits."},
	{Name: LogFormatConfig, Type: TypeString, Default: "text", Validator: CaseInsensitiveValidString{[]string{"text", "json"}}, Importance: Low,
		Doc: "Log format: text or json."},
	{Name: LogLevelConfig, Type: TypeString, Default: "info", Validator: CaseInsensitiveValidString{[]string{"debug", "info", "warn", "error"}}, Importance: Low,
		Doc: "Lowest log level written: debug, info, warn or error."},
	{Name: RocksDBWriteBufferBytesConfig, Type: TypeLong, Default: "16777216", Validator: AtLeast(1), Importance: Medium,
		Doc: "RocksDB write buffer (memtable) size of each store; smaller buffers flush quiet stores sooner and shorten replay after a crash."},
	{Name: FlushMaxLagRecordsConfig, Type: TypeLong, Default: "100000", Validator: AtLeast(0), Importance: Medium,
		Doc: "Flush a RocksDB store's memtables (all column families, atomically with its offsets) when a changelog partition's durable offset " +
			"trails the committed one by more than half this many offsets, and make the commit wait for the flush past all of it: " +
			"a crash replays at most this many changelog records (plus one commit's) per store partition. 0: no bound."},
	{Name: FlushMaxLagMsConfig, Type: TypeLong, Default: "60000", Validator: AtLeast(0), Importance: Medium,
		Doc: "Flush a RocksDB store when its oldest commit not yet on disk is older than this, also when no records arrive: " +
			"keeps a quiet store's durable offset inside its changelog's retention. 0: no bound."},
	{Name: StateDirTwinConfig, Type: TypeString, NullDefault: true, Importance: Low, Twin: StateDirConfig,
		Doc: "Twin of state.dir; wins over it when both are set."},
	{Name: UncommittedMaxBytesTwinConfig, Type: TypeLong, NullDefault: true, Validator: nullOr(AtLeast(-1)), Importance: Low, Twin: StatestoreUncommittedMaxBytesConfig,
		Doc: "Twin of statestore.uncommitted.max.bytes; wins over it when both are set."},
	{Name: IQIsolationLevelConfig, Type: TypeString, NullDefault: true, Validator: nullOr(CaseInsensitiveValidString{[]string{"READ_UNCOMMITTED", "READ_COMMITTED"}}), Importance: Medium, Twin: DefaultIQIsolationLevelConfig,
		Doc: "Twin of default.interactive.query.isolation.level; wins over it when both are set."},
	{Name: CommitIntervalTwinConfig, Type: TypeLong, NullDefault: true, Validator: nullOr(AtLeast(0)), Importance: Low, Twin: CommitIntervalMsConfig,
		Doc: "Twin of commit.interval.ms; wins over it when both are set."},
	{Name: StaticMembershipConfig, Type: TypeBoolean, Default: "true", Importance: Medium,
		Doc: "Give each stream thread's main consumer the group.instance.id <host>-<hash of application.id and state.dir>-<thread> (KIP-345 static membership) " +
			"unless group.instance.id is set: a restarted instance gets its tasks back, with their local state, without a rebalance. " +
			"A stopped instance's tasks then move only when its session times out (session.timeout.ms)."},
	{Name: ShutdownLeaveGroupConfig, Type: TypeBoolean, Default: "false", Importance: Medium,
		Doc: "Whether a closing instance's members leave the application's group (Kafka Streams' CloseOptions LEAVE_GROUP), so that its tasks move at once: " +
			"for an instance stopped for good, as in each step of a migration or a scale-down. By default a static member stays in the group until " +
			"session.timeout.ms passes, so that a restart takes its tasks back without a rebalance (REMAIN_IN_GROUP, Kafka Streams' default)."},
	{Name: UncaughtExceptionConfig, Type: TypeString, Default: "SHUTDOWN_CLIENT",
		Validator: CaseInsensitiveValidString{[]string{"SHUTDOWN_CLIENT", "REPLACE_THREAD", "SHUTDOWN_APPLICATION"}}, Importance: Medium,
		Doc: "What a stream thread's failure does, as Kafka Streams' uncaught-exception handler answers: SHUTDOWN_CLIENT stops the instance (ERROR); " +
			"REPLACE_THREAD starts a new thread that resumes the failed one's tasks from their committed state; " +
			"SHUTDOWN_APPLICATION stops every instance of the application in the group, each ending in ERROR (the request goes through the group, as in Kafka Streams)."},
	{Name: QueryRemoteConfig, Type: TypeString, Default: "forward", Validator: CaseInsensitiveValidString{[]string{"forward", "redirect", "none"}}, Importance: Medium,
		Doc: "What the HTTP API does with a key query whose partition another instance hosts, by the group's host maps (application.server of every instance): " +
			"forward asks that instance's StoatFlow HTTP API and relays its answer (once: a forwarded query is never forwarded again); " +
			"redirect answers 307 to it; none answers 503 with the key's metadata."},
	{Name: QueryRemoteTimeoutMsConfig, Type: TypeLong, Default: "5000", Validator: AtLeast(1), Importance: Low,
		Doc: "Longest wait for the instance a key query is forwarded to; past it the query answers 503 with the key's metadata."},
	{Name: ApplicationServerTwinConfig, Type: TypeString, NullDefault: true, Validator: nullOr(applicationServerValidator), Importance: Low, Twin: ApplicationServerConfig,
		Doc: "Twin of application.server; wins over it when both are set."},
}

// storeKey is a per-store override, stoatflow.store.<store>.<suffix>,
// of the application key stoatflow.<suffix>.
type storeKey struct {
	key     *Key
	pattern *regexp.Regexp
	set     func(c *Config, store string, v Value)
}

func newStoreKey(suffix string, min int64, doc string, set func(c *Config, store string, v Value)) storeKey {
	return storeKey{
		key: &Key{Name: "stoatflow.store.<store>." + suffix, Type: TypeLong, NullDefault: true,
			Validator: nullOr(AtLeast(min)), Importance: Low, Doc: doc},
		pattern: regexp.MustCompile(`^stoatflow\.store\.(.+)\.` + regexp.QuoteMeta(suffix) + `$`),
		set:     set,
	}
}

// storeKeys are the per-store overrides.
var storeKeys = []storeKey{
	newStoreKey("rocksdb.write-buffer-bytes", 1, "RocksDB write buffer of one store, overriding stoatflow.rocksdb.write-buffer-bytes.",
		func(c *Config, store string, v Value) { c.StoreWriteBufferBytes[store] = v.Int }),
	newStoreKey("rocksdb.flush.max-lag-records", 0, "Flush policy record bound of one store, overriding stoatflow.rocksdb.flush.max-lag-records.",
		func(c *Config, store string, v Value) { c.StoreFlushMaxLagRecords[store] = v.Int }),
	newStoreKey("rocksdb.flush.max-lag-ms", 0, "Flush policy time bound of one store, overriding stoatflow.rocksdb.flush.max-lag-ms.",
		func(c *Config, store string, v Value) {
			c.StoreFlushMaxLag[store] = time.Duration(v.Int) * time.Millisecond
		}),
}

var stoatflowIndex = indexKeys(stoatflowKeys)

func nullOr(v Validator) Validator {
	return FuncValidator{Desc: v.String() + " or unset", Fn: func(name string, x Value) string {
		if x.Null {
			return ""
		}
		return v.Validate(name, x)
	}}
}

// StoatFlowKeys returns every stoatflow.* key (the per-store patterns last), sorted by name.
func StoatFlowKeys() []*Key {
	out := append([]*Key(nil), stoatflowKeys...)
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	for _, sk := range storeKeys {
		out = append(out, sk.key)
	}
	return out
}

// perStoreKey returns the per-store override a stoatflow.* key is, and its
// store name.
func perStoreKey(name string) (storeKey, string, bool) {
	for _, sk := range storeKeys {
		if m := sk.pattern.FindStringSubmatch(name); m != nil {
			return sk, m[1], true
		}
	}
	return storeKey{}, "", false
}
