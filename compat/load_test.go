package compat

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/properties"
)

const base = "application.id=app\nbootstrap.servers=127.0.0.1:9092\n"

func load(t *testing.T, src string, opts ...LoadOption) (*Config, Diagnostics) {
	t.Helper()
	p, err := properties.Parse("t.properties", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return Load(p, opts...)
}

// validSamples are valid non-default values for every catalog key whose
// non-default value cannot be derived from its type alone.
var validSamples = map[string]string{
	"application.id":    "other-app",
	"bootstrap.servers": "a:9092, b:9092",
	"state.dir":         "/var/lib/stoatflow",
	"client.id":         "my-client",
	"default.deserialization.exception.handler": "org.apache.kafka.streams.errors.LogAndContinueExceptionHandler",
	"deserialization.exception.handler":         "org.apache.kafka.streams.errors.LogAndContinueExceptionHandler",
	"default.key.serde":                         "org.apache.kafka.common.serialization.Serdes$StringSerde",
	"default.value.serde":                       "org.apache.kafka.common.serialization.Serdes$LongSerde",
	"default.list.key.serde.inner":              "org.apache.kafka.common.serialization.Serdes$StringSerde",
	"default.list.value.serde.inner":            "org.apache.kafka.common.serialization.Serdes$LongSerde",
	"default.list.key.serde.type":               "java.util.ArrayList",
	"default.list.value.serde.type":             "java.util.LinkedList",
	"default.production.exception.handler":      "org.apache.kafka.streams.errors.DefaultProductionExceptionHandler",
	"production.exception.handler":              "org.apache.kafka.streams.errors.DefaultProductionExceptionHandler",
	"default.timestamp.extractor":               "org.apache.kafka.streams.processor.WallclockTimestampExtractor",
	"processing.exception.handler":              "org.apache.kafka.streams.errors.LogAndContinueProcessingExceptionHandler",
	"errors.dead.letter.queue.topic.name":       "app-dlq",
	"processing.guarantee":                      "exactly_once_v2",
	"task.assignor.class":                       "com.acme.StickyAssignor",
	"security.protocol":                         "sasl_ssl",
	"topology.optimization":                     "reuse.ktable.source.topics, merge.repartition.topics",
	"group.protocol":                            "CLASSIC",
	"application.server":                        "http://10.0.0.1:7070",
	"built.in.metrics.version":                  "latest",
	"config.providers":                          "env, file",
	"rack.aware.assignment.strategy":            "min_traffic",
	"rack.aware.assignment.tags":                "zone",
	"default.dsl.store":                         "in_memory",
	"dsl.store.suppliers.class":                 "org.apache.kafka.streams.state.BuiltInDslStoreSuppliers$InMemoryDslStoreSuppliers",
	"dsl.store.format":                          "headers",
	"default.interactive.query.isolation.level": "read_committed",
	"default.client.supplier":                   "org.apache.kafka.streams.processor.internals.DefaultKafkaClientSupplier",
	"metric.reporters":                          "",
	"rack.aware.assignment.non_overlap_cost":    "5",
	"metrics.recording.level":                   "DEBUG",
	"processor.wrapper.class":                   "org.apache.kafka.streams.processor.internals.NoOpProcessorWrapper",
	"metadata.recovery.strategy":                "NONE",
	"rocksdb.config.setter":                     "com.acme.BloomFilterSetter",
	"upgrade.from":                              "3.9",
	"windowed.inner.class.serde":                "org.apache.kafka.common.serialization.Serdes$StringSerde",
	"probing.rebalance.interval.ms":             "120000",
	"commit.interval.ms":                        "5000",
}

func sampleFor(k *Key) string {
	if s, ok := validSamples[k.Name]; ok {
		return s
	}
	switch k.Type {
	case TypeBoolean:
		if k.Default == "true" {
			return "FALSE"
		}
		return "True"
	case TypeInt, TypeLong:
		if k.NullDefault {
			return "7"
		}
		return "+12345"
	}
	return "x"
}

func TestEveryStreamsKeyParsesDefaultAndNonDefault(t *testing.T) {
	for _, k := range streamsKeys {
		t.Run(k.Name, func(t *testing.T) {
			var inputs []string
			if !k.Required && !k.NullDefault {
				inputs = append(inputs, k.Default)
			}
			inputs = append(inputs, sampleFor(k))
			for _, in := range inputs {
				src := base + k.Name + "=" + in + "\nclient.tag.zone=eu-1\n"
				if k.Name == "processing.guarantee" {
					src += "commit.interval.ms=100\n"
				}
				c, diags := load(t, src)
				for _, d := range diags.Errors() {
					// Keys StoatFlow cannot honour (list serdes, windowed.inner.class.serde)
					// report that, but Kafka's own rules must accept the value.
					if strings.Contains(d.Message, "for configuration "+k.Name+":") || strings.Contains(d.Message, "Configuration '"+k.Name+"'") || d.Key != k.Name {
						t.Fatalf("%s=%q: %v", k.Name, in, d)
					}
				}
				want, err := ParseValue(k.Name, in, k.Type)
				if err != nil {
					t.Fatal(err)
				}
				if got := c.values[k.Name]; !got.Equal(want) && k.Twin == "" {
					t.Errorf("%s=%q: effective %s, want %s", k.Name, in, got.JavaString(), want.JavaString())
				}
			}
		})
	}
}

func TestEveryStoatFlowKeyParses(t *testing.T) {
	samples := map[string]string{
		StrictConfig: "true", TopologyConfig: "wordcount", EmbeddedBrokerConfig: "true", HTTPListenConfig: ":8080",
		HTTPAuthTokenConfig: "tok", ShutdownTimeoutMsConfig: "5000", LogFormatConfig: "JSON", LogLevelConfig: "debug",
		RocksDBWriteBufferBytesConfig: "1048576", StateDirTwinConfig: "/data", UncommittedMaxBytesTwinConfig: "-1",
		IQIsolationLevelConfig: "read_committed", CommitIntervalTwinConfig: "250", ApplicationServerTwinConfig: "h:1",
	}
	for _, k := range stoatflowKeys {
		s, ok := samples[k.Name]
		if !ok {
			continue
		}
		_, diags := load(t, base+k.Name+"="+s+"\n")
		if diags.HasErrors() {
			t.Errorf("%s=%s: %v", k.Name, s, diags.Errors())
		}
	}
	c, diags := load(t, base+"stoatflow.http.tls.cert-file=c.pem\nstoatflow.http.tls.key-file=k.pem\nstoatflow.store.counts.rocksdb.write-buffer-bytes=65536\n")
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if c.WriteBufferBytes("counts") != 65536 || c.WriteBufferBytes("other") != DefaultRocksDBWriteBufferBytes {
		t.Errorf("write buffers %v", c.StoreWriteBufferBytes)
	}
}

type badCase struct{ key, value, msg string }

// badInputs pairs bad values with the exact message Kafka Streams 4.4 gives
// (the Kafka-worded ones were checked against kafka-streams 4.4.0 itself).
var badInputs = []badCase{
	{"security.protocol", "abc", "Invalid value abc for configuration security.protocol: String must be one of (case insensitive): SASL_SSL, PLAINTEXT, SSL, SASL_PLAINTEXT"},
	{"group.protocol", "x", "Invalid value x for configuration group.protocol: String must be one of (case insensitive): STREAMS, CLASSIC"},
	{"default.interactive.query.isolation.level", "x", "Invalid value x for configuration default.interactive.query.isolation.level: String must be one of (case insensitive): READ_UNCOMMITTED, READ_COMMITTED"},
	{"metadata.recovery.strategy", "x", "Invalid value x for configuration metadata.recovery.strategy: String must be one of (case insensitive): REBOOTSTRAP, NONE"},
	{"dsl.store.format", "x", "Invalid value x for configuration dsl.store.format: String must be one of (case insensitive): HEADERS, DEFAULT"},
	{"bootstrap.servers", "", "Configuration 'bootstrap.servers' must not be empty. Valid values include: any non-empty value"},
	{"bootstrap.servers", "a,,b", "Configuration 'bootstrap.servers' values must not be empty."},
	{"num.stream.threads", "abc", "Invalid value abc for configuration num.stream.threads: Not a number of type INT"},
	{"num.stream.threads", " 1.5", "Invalid value 1.5 for configuration num.stream.threads: Not a number of type INT"},
	{"max.warmup.replicas", "0", "Invalid value 0 for configuration max.warmup.replicas: Value must be at least 1"},
	{"enable.metrics.push", "yes", "Invalid value yes for configuration enable.metrics.push: Expected value to be either true or false"},
	{"processing.guarantee", "exactly_once", "Invalid value exactly_once for configuration processing.guarantee: String must be one of: at_least_once, exactly_once_v2"},
	{"processing.guarantee", "exactly_once_beta", "Invalid value exactly_once_beta for configuration processing.guarantee: String must be one of: at_least_once, exactly_once_v2"},
	{"upgrade.from", "1.0", "Invalid value 1.0 for configuration upgrade.from: String must be one of: null, 2.4, 2.5, 2.6, 2.7, 2.8, 3.0, 3.1, 3.2, 3.3, 3.4, 3.5, 3.6, 3.7, 3.8, 3.9, 4.0, 4.1, 4.2, 4.3"},
	{"topology.optimization", "all,none", `"all,none" is not a valid optimization config. Acceptable values are: "+NO_OPTIMIZATION+", "+OPTIMIZE+", or a comma separated list of specific optimizations: ("+REUSE_KTABLE_SOURCE_TOPICS+", "+MERGE_REPARTITION_TOPICS+" + "SINGLE_STORE_SELF_JOIN+").`},
	{"topology.optimization", "foo", `Unrecognized config. Acceptable values are: "+NO_OPTIMIZATION+", "+OPTIMIZE+", or a comma separated list of specific optimizations: ("+REUSE_KTABLE_SOURCE_TOPICS+", "+MERGE_REPARTITION_TOPICS+" + "SINGLE_STORE_SELF_JOIN+").`},
	{"rack.aware.assignment.tags", "a,b,c,d,e,f", "Invalid value [a, b, c, d, e, f] for configuration rack.aware.assignment.tags: exceeds maximum list size of [5]."},
	{"rack.aware.assignment.tags", "zone", "Invalid value [zone] for configuration rack.aware.assignment.tags: Contains invalid value [zone] which doesn't have corresponding tag set via [client.tag.] prefix."},
	{"application.server", "nohost", "Invalid value nohost for configuration application.server: Error parsing host address nohost. Expected format host:port."},
	{"application.server", "h:abc", "Invalid value h:abc for configuration application.server: Error parsing host address h:abc. Expected format host:port."},
	{"application.server", "h:-1", "Invalid value h:-1 for configuration application.server: Error parsing host address h:-1. Expected format host:port."},
	{"application.server", "h:", "Invalid value h: for configuration application.server: Error parsing host address h:. Expected format host:port."},
	{"application.server", ":80", "Invalid value :80 for configuration application.server: Error parsing host address :80. Expected format host:port."},
	{"application.server", "http://h:8080/x", "Invalid value http://h:8080/x for configuration application.server: Error parsing host address http://h:8080/x. Expected format host:port."},
	{"default.key.serde", "", "Invalid value  for configuration default.key.serde: Class  could not be found."},
	{"default.key.serde", "not a class", "Invalid value not a class for configuration default.key.serde: Class not a class could not be found."},
	{"statestore.uncommitted.max.bytes", "-2", "Invalid value -2 for configuration statestore.uncommitted.max.bytes: Value must be at least -1"},
	{"probing.rebalance.interval.ms", "1000", "Invalid value 1000 for configuration probing.rebalance.interval.ms: Value must be at least 60000"},
	{"task.timeout.ms", "99999999999999999999", "Invalid value 99999999999999999999 for configuration task.timeout.ms: Not a number of type LONG"},
	{"receive.buffer.bytes", "-2", "Invalid value -2 for configuration receive.buffer.bytes: Value must be at least -1"},
	{"send.buffer.bytes", "-5", "Invalid value -5 for configuration send.buffer.bytes: Value must be at least -1"},
	{"num.stream.threads", "2147483648", "Invalid value 2147483648 for configuration num.stream.threads: Not a number of type INT"},
	{"num.stream.threads", "0x10", "Invalid value 0x10 for configuration num.stream.threads: Not a number of type INT"},
	{"num.stream.threads", "1_000", "Invalid value 1_000 for configuration num.stream.threads: Not a number of type INT"},
	{"num.stream.threads", "", "Invalid value  for configuration num.stream.threads: Not a number of type INT"},
	{"num.stream.threads", "0", "num.stream.threads = 0: StoatFlow needs at least one stream thread"},
	{"commit.interval.ms", "-1", "Invalid value -1 for configuration commit.interval.ms: Value must be at least 0"},
	{"commit.interval.ms", "10s", "Invalid value 10s for configuration commit.interval.ms: Not a number of type LONG"},
	{"acceptable.recovery.lag", "-1", "Invalid value -1 for configuration acceptable.recovery.lag: Value must be at least 0"},
	{"statestore.cache.max.bytes", "-1", "Invalid value -1 for configuration statestore.cache.max.bytes: Value must be at least 0"},
	{"cache.max.bytes.buffering", "-1", "Invalid value -1 for configuration cache.max.bytes.buffering: Value must be at least 0"},
	{"metrics.num.samples", "0", "Invalid value 0 for configuration metrics.num.samples: Value must be at least 1"},
	{"metrics.recording.level", "debug", "Invalid value debug for configuration metrics.recording.level: String must be one of: INFO, DEBUG, TRACE"},
	{"built.in.metrics.version", "0.10.0-2.4", "Invalid value 0.10.0-2.4 for configuration built.in.metrics.version: String must be one of: latest"},
	{"rack.aware.assignment.strategy", "MIN_TRAFFIC", "Invalid value MIN_TRAFFIC for configuration rack.aware.assignment.strategy: String must be one of: none, min_traffic, balance_subtopology"},
	{"default.dsl.store", "rocksdb", "Invalid value rocksdb for configuration default.dsl.store: String must be one of: rocksDB, in_memory"},
	{"upgrade.from", "null", "Invalid value null for configuration upgrade.from: String must be one of: null, 2.4, 2.5, 2.6, 2.7, 2.8, 3.0, 3.1, 3.2, 3.3, 3.4, 3.5, 3.6, 3.7, 3.8, 3.9, 4.0, 4.1, 4.2, 4.3"},
	{"repartition.purge.interval.ms", "-1", "Invalid value -1 for configuration repartition.purge.interval.ms: Value must be at least 0"},
	{"metadata.max.age.ms", "-1", "Invalid value -1 for configuration metadata.max.age.ms: Value must be at least 0"},
	{"request.timeout.ms", "-1", "Invalid value -1 for configuration request.timeout.ms: Value must be at least 0"},
	{"retry.backoff.ms", "-1", "Invalid value -1 for configuration retry.backoff.ms: Value must be at least 0"},
	{"reconnect.backoff.ms", "-1", "Invalid value -1 for configuration reconnect.backoff.ms: Value must be at least 0"},
	{"reconnect.backoff.max.ms", "-1", "Invalid value -1 for configuration reconnect.backoff.max.ms: Value must be at least 0"},
	{"metrics.sample.window.ms", "-1", "Invalid value -1 for configuration metrics.sample.window.ms: Value must be at least 0"},
	{"metadata.recovery.rebootstrap.trigger.ms", "-1", "Invalid value -1 for configuration metadata.recovery.rebootstrap.trigger.ms: Value must be at least 0"},
	{"task.timeout.ms", "-1", "Invalid value -1 for configuration task.timeout.ms: Value must be at least 0"},
	{"default.key.serde", "com.acme.AvroSerde", "default.key.serde = com.acme.AvroSerde names a Java class with no Go equivalent"},
	{"default.value.serde", "io.confluent.kafka.streams.serdes.avro.SpecificAvroSerde", "default.value.serde = io.confluent.kafka.streams.serdes.avro.SpecificAvroSerde needs schema.registry.url, which is not set"},
	{"default.value.serde", "io.confluent.kafka.streams.serdes.protobuf.KafkaProtobufSerde", "default.value.serde = io.confluent.kafka.streams.serdes.protobuf.KafkaProtobufSerde needs schema.registry.url, which is not set"},
	{"default.timestamp.extractor", "com.acme.EventTimeExtractor", "default.timestamp.extractor = com.acme.EventTimeExtractor names a Java class with no Go equivalent"},
	{"deserialization.exception.handler", "com.acme.Handler", "deserialization.exception.handler = com.acme.Handler names a Java class with no Go equivalent"},
	{"processing.exception.handler", "com.acme.Handler", "processing.exception.handler = com.acme.Handler names a Java class with no Go equivalent"},
	{"production.exception.handler", "com.acme.Handler", "production.exception.handler = com.acme.Handler names a Java class with no Go handler bound to it"},
	{"dsl.store.suppliers.class", "com.acme.Suppliers", "dsl.store.suppliers.class = com.acme.Suppliers names a Java class with no Go equivalent"},
	{"default.list.key.serde.inner", "org.apache.kafka.common.serialization.Serdes$StringSerde", "default.list.key.serde.inner = org.apache.kafka.common.serialization.Serdes$StringSerde configures Serdes$ListSerde, which StoatFlow does not provide as a default serde"},
	{"windowed.inner.class.serde", "x", "windowed.inner.class.serde = x is for windowed deserializers of plain consumers and must not be set in a Kafka Streams application"},
	{"stoatflow.config.strict", "1", "Invalid value 1 for configuration stoatflow.config.strict: Expected value to be either true or false"},
	{"stoatflow.http.listen", "7070", "Invalid value 7070 for configuration stoatflow.http.listen: Expected host:port, e.g. 127.0.0.1:7070 or :7070"},
	{"stoatflow.http.listen", "h:70000", "Invalid value h:70000 for configuration stoatflow.http.listen: Port must be a number between 0 and 65535"},
	{"stoatflow.log.format", "xml", "Invalid value xml for configuration stoatflow.log.format: String must be one of (case insensitive): TEXT, JSON"},
	{"stoatflow.rocksdb.write-buffer-bytes", "0", "Invalid value 0 for configuration stoatflow.rocksdb.write-buffer-bytes: Value must be at least 1"},
	{"stoatflow.rocksdb.write-buffer-bytes", "16MiB", "Invalid value 16MiB for configuration stoatflow.rocksdb.write-buffer-bytes: Not a number of type LONG"},
	{"stoatflow.store.counts.rocksdb.write-buffer-bytes", "0", "Invalid value 0 for configuration stoatflow.store.counts.rocksdb.write-buffer-bytes: Value must be at least 1"},
	{"stoatflow.rocksdb.flush.max-lag-records", "-1", "Invalid value -1 for configuration stoatflow.rocksdb.flush.max-lag-records: Value must be at least 0"},
	{"stoatflow.rocksdb.flush.max-lag-ms", "1m", "Invalid value 1m for configuration stoatflow.rocksdb.flush.max-lag-ms: Not a number of type LONG"},
	{"stoatflow.store.counts.rocksdb.flush.max-lag-records", "-5", "Invalid value -5 for configuration stoatflow.store.counts.rocksdb.flush.max-lag-records: Value must be at least 0"},
	{"stoatflow.store.counts.rocksdb.flush.max-lag-ms", "-1", "Invalid value -1 for configuration stoatflow.store.counts.rocksdb.flush.max-lag-ms: Value must be at least 0"},
	{"stoatflow.shutdown.timeout-ms", "-1", "Invalid value -1 for configuration stoatflow.shutdown.timeout-ms: Value must be at least 0"},
	{"stoatflow.state.interactive-query-isolation-level", "serializable", "Invalid value serializable for configuration stoatflow.state.interactive-query-isolation-level: String must be one of (case insensitive): READ_UNCOMMITTED, READ_COMMITTED"},
	{"stoatflow.state.uncommitted-max-bytes", "-7", "Invalid value -7 for configuration stoatflow.state.uncommitted-max-bytes: Value must be at least -1"},
	{"stoatflow.embedded-broker", "on", "Invalid value on for configuration stoatflow.embedded-broker: Expected value to be either true or false"},
	{"stoatflow.http.tls.cert-file", "c.pem", "stoatflow.http.tls.cert-file is set alone; HTTPS needs a certificate and a key"},
	{"producer.max.in.flight.requests.per.connection", "6", "Invalid value 6 for configuration max.in.flight.requests.per.connection: Can't exceed 5 when exactly-once processing is enabled"},
	{"producer.max.in.flight.requests.per.connection", "x", "Invalid value x for configuration max.in.flight.requests.per.connection: String value could not be parsed as 32-bit integer"},
	{"commit.interval.ms", "20000", "Transaction timeout 10000 was set lower than streams commit interval 20000. This will cause ongoing transaction always timeout due to inactivity caused by long commit interval. Consider reconfiguring commit interval to match transaction timeout by tuning 'commit.interval.ms' config, or increase the transaction timeout to match commit interval by tuning `producer.transaction.timeout.ms` config."},
	{"client.tag.abcdefghijabcdefghijX", "v", "Invalid value abcdefghijabcdefghijX for configuration client.tag.abcdefghijabcdefghijX: Tag key exceeds maximum length of 20."},
	{"client.tag.zone", "0123456789012345678901234567890", "Invalid value 0123456789012345678901234567890 for configuration client.tag.zone: Tag value exceeds maximum length of 30."},
	{"sasl.jaas.config", "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"u\"", "sasl.jaas.config cannot be read: missing ';' after the login module options"},
	{"sasl.login.callback.handler.class", "com.acme.Handler", "sasl.login.callback.handler.class = com.acme.Handler cannot be honoured by StoatFlow's Kafka client: it names a Java class, which a Go client cannot load"},
	{"security.providers", "com.acme.Provider", "security.providers = com.acme.Provider cannot be honoured by StoatFlow's Kafka client: it names a Java class, which a Go client cannot load"},
	{"sasl.oauthbearer.assertion.file", "/etc/kafka/assertion.jwt", "sasl.oauthbearer.assertion.file = /etc/kafka/assertion.jwt cannot be honoured by StoatFlow's Kafka client: the jwt-bearer grant is not available; use the client_credentials grant"},
	{"consumer.auto.offset.reset", "by_duration:PT1H", "consumer.auto.offset.reset = by_duration:PT1H cannot be honoured by StoatFlow's Kafka client: franz-go has no reset relative to the time of the reset"},
	{"max.poll.records", "0", "Invalid value 0 for configuration max.poll.records: Value must be at least 1"},
	{"session.timeout.ms", "abc", "Invalid value abc for configuration session.timeout.ms: Not a number of type INT"},
	{"consumer.check.crcs", "yes", "Invalid value yes for configuration check.crcs: Expected value to be either true or false"},
	{"producer.linger.ms", "1.5", "Invalid value 1.5 for configuration linger.ms: Not a number of type LONG"},
	{"main.consumer.fetch.max.bytes", "1e6", "Invalid value 1e6 for configuration fetch.max.bytes: Not a number of type INT"},
	{"producer.buffer.memory", "32MB", "Invalid value 32MB for configuration buffer.memory: Not a number of type LONG"},
	{"sasl.login.refresh.buffer.seconds", "40000", "Invalid value 40000 for configuration sasl.login.refresh.buffer.seconds: Not a number of type SHORT"},
	{"sasl.login.refresh.window.factor", "high", "Invalid value high for configuration sasl.login.refresh.window.factor: Not a number of type DOUBLE"},
	{"admin.retries", "many", "Invalid value many for configuration retries: Not a number of type INT"},
	{"restore.consumer.max.poll.records", "lots", "Invalid value lots for configuration max.poll.records: Not a number of type INT"},
}

// generatedBadInputs adds, for every numeric and boolean catalog key, values
// Java's parser refuses.
func generatedBadInputs() []badCase {
	var out []badCase
	for _, k := range streamsKeys {
		switch k.Type {
		case TypeInt, TypeLong:
			for _, v := range []string{"ten", "1.0", "1e3", "--1"} {
				out = append(out, badCase{k.Name, v, fmt.Sprintf("Invalid value %s for configuration %s: Not a number of type %s", v, k.Name, k.Type)})
			}
		case TypeBoolean:
			for _, v := range []string{"yes", "1", "t"} {
				out = append(out, badCase{k.Name, v, fmt.Sprintf("Invalid value %s for configuration %s: Expected value to be either true or false", v, k.Name)})
			}
		}
	}
	return out
}

func TestBadInputsGiveExactMessages(t *testing.T) {
	cases := append(append([]badCase(nil), badInputs...), generatedBadInputs()...)
	if len(cases) < 150 {
		t.Fatalf("only %d bad inputs", len(cases))
	}
	for _, tc := range cases {
		t.Run(tc.key+"="+tc.value, func(t *testing.T) {
			src := base
			if strings.HasPrefix(tc.key, "producer.") || tc.key == "commit.interval.ms" && tc.value == "20000" {
				src += "processing.guarantee=exactly_once_v2\n"
			}
			src += "\n" + tc.key + "=" + tc.value + "\n"
			_, diags := load(t, src)
			var got []string
			for _, d := range diags.Errors() {
				if d.Message == tc.msg {
					if d.Pos.File != "t.properties" || d.Pos.Line != strings.Count(src, "\n") {
						t.Errorf("position %v, want t.properties:%d", d.Pos, strings.Count(src, "\n"))
					}
					if !strings.Contains(d.String(), "t.properties:") {
						t.Errorf("String() %q lacks the position", d.String())
					}
					return
				}
				got = append(got, d.Message)
			}
			t.Errorf("no error %q\ngot: %q", tc.msg, got)
		})
	}
}

func TestTooManyClientTags(t *testing.T) {
	_, diags := load(t, base+"client.tag.a=1\nclient.tag.b=1\nclient.tag.c=1\nclient.tag.d=1\nclient.tag.e=1\nclient.tag.f=1\n")
	errs := diags.Errors()
	if len(errs) != 1 || errs[0].Message != "At most 5 client tags can be specified using client.tag. prefix." || errs[0].Pos.Line != 3 {
		t.Errorf("%v", errs)
	}
}

func TestMissingRequiredAllReported(t *testing.T) {
	_, diags := load(t, "num.stream.threads=abc\nmax.warmup.replicas=0\n")
	want := []string{
		`Missing required configuration "application.id" which has no default value.`,
		`Missing required configuration "bootstrap.servers" which has no default value.`,
		"Invalid value abc for configuration num.stream.threads: Not a number of type INT",
		"Invalid value 0 for configuration max.warmup.replicas: Value must be at least 1",
	}
	for _, w := range want {
		found := false
		for _, d := range diags.Errors() {
			found = found || d.Message == w
		}
		if !found {
			t.Errorf("missing %q in %v", w, diags)
		}
	}
}

func TestUnknownKeysWarnAndStrictErrors(t *testing.T) {
	src := base + "num.stream.thread=2\nconsumer.max.poll.record=5\nfoo.bar=1\nconsumer.session.timeout.ms=10000\nsasl.mechanism=PLAIN\nmain.consumer.fetch.max.wait.ms=100\ntopic.cleanup.policy=compact\n"
	_, diags := load(t, src)
	if diags.HasErrors() {
		t.Fatal(diags.Errors())
	}
	var unknown []string
	for _, d := range diags.Warnings() {
		if strings.Contains(d.Message, "isn't a known config") {
			unknown = append(unknown, d.Message)
		}
	}
	want := []string{
		"The configuration 'num.stream.thread' was supplied but isn't a known config.",
		"The configuration 'consumer.max.poll.record' was supplied but isn't a known config.",
		"The configuration 'foo.bar' was supplied but isn't a known config.",
	}
	if strings.Join(unknown, "\n") != strings.Join(want, "\n") {
		t.Errorf("unknown-key warnings:\n%s\nwant:\n%s", strings.Join(unknown, "\n"), strings.Join(want, "\n"))
	}
	for _, d := range diags {
		if d.Key == "num.stream.thread" && !strings.Contains(d.Hint, "num.stream.threads") {
			t.Errorf("no suggestion: %q", d.Hint)
		}
	}
	_, diags = load(t, src+"stoatflow.config.strict=true\n")
	if n := len(diags.Errors()); n != 3 {
		t.Errorf("strict: %d errors, want 3: %v", n, diags.Errors())
	}
}

func TestCommitIntervalDependsOnGuarantee(t *testing.T) {
	c, _ := load(t, base)
	if c.CommitInterval.Milliseconds() != 30000 {
		t.Errorf("ALOS commit interval %v", c.CommitInterval)
	}
	c, _ = load(t, base+"processing.guarantee=exactly_once_v2\n")
	if c.CommitInterval.Milliseconds() != 100 {
		t.Errorf("EOS commit interval %v", c.CommitInterval)
	}
	c, _ = load(t, base+"processing.guarantee=exactly_once_v2\ncommit.interval.ms=5000\n")
	if c.CommitInterval.Milliseconds() != 5000 {
		t.Errorf("explicit EOS commit interval %v", c.CommitInterval)
	}
	if got := c.EffectiveClientID("pid"); got != "app-pid" {
		t.Errorf("client id %q", got)
	}
}

func TestUncommittedBytesShare(t *testing.T) {
	tests := []struct {
		total     int64
		threads   int
		hasGlobal bool
		want      int64
	}{
		{64 << 20, 1, false, 64 << 20},
		{64 << 20, 4, false, 16 << 20},
		{64 << 20, 3, true, 16 << 20},
		{100, 3, false, 33},
		{-1, 4, true, -1},
		{0, 4, false, -1},
		{100, 0, false, 100},
		{100, 0, true, 100},
	}
	for _, tt := range tests {
		if got := UncommittedShare(tt.total, tt.threads, tt.hasGlobal); got != tt.want {
			t.Errorf("UncommittedShare(%d, %d, %v) = %d, want %d", tt.total, tt.threads, tt.hasGlobal, got, tt.want)
		}
	}
	c, _ := load(t, base)
	if c.UncommittedMaxBytes != 64<<20 || c.UncommittedBytesPerThread(2, true) != (64<<20)/3 {
		t.Errorf("default budget %d", c.UncommittedMaxBytes)
	}
}

func TestKIP892Keys(t *testing.T) {
	c, diags := load(t, base+"enable.transactional.statestores=false\ndefault.interactive.query.isolation.level=read_committed\n")
	if c.IsolationLevel != ReadCommitted {
		t.Errorf("isolation %v", c.IsolationLevel)
	}
	if !hasWarning(diags, "enable.transactional.statestores=false is ignored: StoatFlow's state stores are always transactional") {
		t.Errorf("no warning for enable.transactional.statestores=false: %v", diags)
	}
	c, diags = load(t, base+"default.interactive.query.isolation.level=READ_COMMITTED\nstoatflow.state.interactive-query-isolation-level=read_uncommitted\n")
	if c.IsolationLevel != ReadUncommitted {
		t.Errorf("stoatflow key should win: %v", c.IsolationLevel)
	}
	if !hasWarning(diags, "stoatflow.state.interactive-query-isolation-level = read_uncommitted and default.interactive.query.isolation.level = READ_COMMITTED disagree; using read_uncommitted") {
		t.Errorf("no disagreement warning: %v", diags)
	}
	_, diags = load(t, base+"default.interactive.query.isolation.level=READ_COMMITTED\nstoatflow.state.interactive-query-isolation-level=read_committed\n")
	if len(diags) != 0 {
		t.Errorf("agreeing twins warned: %v", diags)
	}
	c, diags = load(t, base+"state.dir=/a\nstoatflow.state.dir=/b\nstatestore.uncommitted.max.bytes=-1\n")
	if c.StateDir != "/b" || c.UncommittedBytesPerThread(4, false) != -1 || !hasWarning(diags, "stoatflow.state.dir = /b and state.dir = /a disagree; using /b") {
		t.Errorf("state dir %q, diags %v", c.StateDir, diags)
	}
}

func hasWarning(ds Diagnostics, msg string) bool {
	for _, d := range ds.Warnings() {
		if d.Message == msg {
			return true
		}
	}
	return false
}

func TestBuiltInClassesMapToEnums(t *testing.T) {
	c, diags := load(t, base+`default.key.serde=org.apache.kafka.common.serialization.Serdes$IntegerSerde
default.value.serde=org.apache.kafka.common.serialization.Serdes$ByteArraySerde
deserialization.exception.handler=org.apache.kafka.streams.errors.LogAndContinueExceptionHandler
processing.exception.handler=org.apache.kafka.streams.errors.LogAndContinueProcessingExceptionHandler
default.timestamp.extractor=org.apache.kafka.streams.processor.UsePartitionTimeOnInvalidTimestamp
dsl.store.suppliers.class=org.apache.kafka.streams.state.BuiltInDslStoreSuppliers$InMemoryDslStoreSuppliers
rocksdb.config.setter=com.acme.Setter
`)
	// The extractor and the DSL store are mapped, but not acted on yet.
	diags = withoutKeys(diags, DefaultTimestampExtractorConfig, DSLStoreSuppliersClassConfig)
	if diags.HasErrors() {
		t.Fatal(diags.Errors())
	}
	if c.DefaultKeySerde != SerdeInteger || c.DefaultValueSerde != SerdeByteArray || c.DeserializationExceptionHandler != DeserializationLogAndContinue ||
		c.ProcessingExceptionHandler != ProcessingLogAndContinue || c.TimestampExtractor != UsePartitionTimeOnInvalidTimestamp || c.DSLStore != DSLStoreInMemory {
		t.Errorf("enums: %+v", c)
	}
	if len(diags.Warnings()) != 1 || !strings.Contains(diags.Warnings()[0].Hint, "stoatflow.rocksdb.write-buffer-bytes") {
		t.Errorf("rocksdb.config.setter warning: %v", diags)
	}
}

// withoutKeys drops the findings about keys.
func withoutKeys(ds Diagnostics, keys ...string) Diagnostics {
	var out Diagnostics
	for _, d := range ds {
		if !slices.Contains(keys, d.Key) {
			out = append(out, d)
		}
	}
	return out
}

func TestValidateTypedConfig(t *testing.T) {
	c, diags := load(t, base)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	c.NumStreamThreads = 0
	c.HTTPTLSCertFile = "x"
	if err := c.Validate(); err == nil || !strings.Contains(err.Error(), "num.stream.threads") || !strings.Contains(err.Error(), "tls") {
		t.Errorf("Validate = %v", err)
	}
}

func TestParseValueTypes(t *testing.T) {
	v, err := ParseValue("k", " a ,b,  c ", TypeList)
	if err != nil || strings.Join(v.List, "|") != "a|b|c" || v.JavaString() != "[a, b, c]" {
		t.Errorf("list %v %v", v, err)
	}
	v, _ = ParseValue("k", "", TypeList)
	if v.JavaString() != "[]" {
		t.Errorf("empty list %q", v.JavaString())
	}
	for in, want := range map[string]float64{"1.5": 1.5, "1e3": 1000, ".5": 0.5, "2.": 2, "1.5d": 1.5, "-0x1p3": -8} {
		v, err := ParseValue("k", in, TypeDouble)
		if err != nil || v.Float != want {
			t.Errorf("double %q = %v, %v", in, v.Float, err)
		}
	}
	if _, err := ParseValue("k", "1_0", TypeDouble); err == nil {
		t.Error("1_0 accepted as DOUBLE")
	}
	if _, err := ParseValue("k", "40000", TypeShort); err == nil || !strings.HasSuffix(err.Error(), "Not a number of type SHORT") {
		t.Errorf("short: %v", err)
	}
	v, _ = ParseValue("k", " secret ", TypePassword)
	if v.JavaString() != "[hidden]" || v.Str != "secret" {
		t.Errorf("password %+v", v)
	}
}

func TestTaskAssignorClass(t *testing.T) {
	for _, tc := range []struct {
		value string
		want  TaskAssignor
		warn  string // a part of the warning, "" for none
	}{
		{"", TaskAssignorHighAvailability, ""},
		{StickyTaskAssignorClass, TaskAssignorSticky, ""},
		{"org.apache.kafka.streams.processor.internals.assignment.HighAvailabilityTaskAssignor", TaskAssignorHighAvailability, "Kafka Streams 4.4 refuses this class name"},
		{"com.acme.RackFirstAssignor", TaskAssignorHighAvailability, "with Kafka Streams' default HighAvailabilityTaskAssignor instead"},
	} {
		src := base
		if tc.value != "" {
			src += "task.assignor.class=" + tc.value + "\n"
		}
		c, diags := load(t, src)
		if diags.HasErrors() {
			t.Fatalf("%q: %v", tc.value, diags.Errors())
		}
		if c.TaskAssignor != tc.want {
			t.Errorf("%q: assignor %v, want %v", tc.value, c.TaskAssignor, tc.want)
		}
		ws := diags.Warnings()
		switch {
		case tc.warn == "" && len(ws) > 0:
			t.Errorf("%q: warnings %v", tc.value, ws)
		case tc.warn != "" && (len(ws) != 1 || ws[0].Key != "task.assignor.class" || !strings.Contains(ws[0].Message, tc.warn)):
			t.Errorf("%q: warnings %v, want one saying %q", tc.value, ws, tc.warn)
		}
	}
}

// TestStateCleanupKeys: state.cleanup.delay.ms below 1 ms is refused, as
// Kafka Streams' start fails on it; state.cleanup.dir.max.age.ms is off
// only at -1, and another negative age, which makes Kafka Streams delete
// every task directory at start-up, is reported; ages too long for a
// Duration stay forever.
func TestStateCleanupKeys(t *testing.T) {
	c, diags := load(t, base)
	if diags.HasErrors() || c.StateCleanupDelay != 10*time.Minute || c.StateCleanupDirMaxAge != StateCleanupDirMaxAgeDisabled {
		t.Fatalf("defaults: delay %v, max age %v, %v", c.StateCleanupDelay, c.StateCleanupDirMaxAge, diags)
	}
	for _, delay := range []string{"0", "-1"} {
		c, diags = load(t, base+"state.cleanup.delay.ms="+delay+"\n")
		if errs := diags.Errors(); len(errs) != 1 || errs[0].Key != StateCleanupDelayMsConfig || !strings.Contains(errs[0].Message, "state.cleanup.delay.ms = "+delay) {
			t.Errorf("state.cleanup.delay.ms=%s: %v", delay, diags)
		}
		if err := c.Validate(); err == nil || !strings.Contains(err.Error(), StateCleanupDelayMsConfig) {
			t.Errorf("Validate with state.cleanup.delay.ms=%s: %v", delay, err)
		}
	}
	c, diags = load(t, base+"state.cleanup.dir.max.age.ms=-5\n")
	if diags.HasErrors() || len(diags) != 1 || diags[0].Severity != SeverityWarning || !strings.Contains(diags[0].Message, "deletes every task directory") {
		t.Errorf("state.cleanup.dir.max.age.ms=-5: %v", diags)
	}
	if c.StateCleanupDirMaxAge != -5*time.Millisecond {
		t.Errorf("max age %v, want -5ms", c.StateCleanupDirMaxAge)
	}
	c, diags = load(t, base+"state.cleanup.dir.max.age.ms=9223372036854775807\nstate.cleanup.delay.ms=9223372036854775807\n")
	if len(diags) != 0 || c.StateCleanupDirMaxAge != math.MaxInt64 || c.StateCleanupDelay != math.MaxInt64 {
		t.Errorf("Long.MAX_VALUE: max age %v, delay %v, %v", c.StateCleanupDirMaxAge, c.StateCleanupDelay, diags)
	}
}
