package compat

import "strings"

// Serde is a built-in serde StoatFlow implements, named by the Kafka class it
// stands for.
type Serde int

// The built-in serdes (org.apache.kafka.common.serialization.Serdes$...).
const (
	SerdeUnset Serde = iota
	SerdeString
	SerdeLong
	SerdeInteger
	SerdeShort
	SerdeFloat
	SerdeDouble
	SerdeByteArray
	SerdeBytes
	SerdeByteBuffer
	SerdeVoid
	SerdeUUID
	SerdeBoolean
)

const serdesPrefix = "org.apache.kafka.common.serialization.Serdes$"

var serdeClasses = map[string]Serde{
	serdesPrefix + "StringSerde":     SerdeString,
	serdesPrefix + "LongSerde":       SerdeLong,
	serdesPrefix + "IntegerSerde":    SerdeInteger,
	serdesPrefix + "ShortSerde":      SerdeShort,
	serdesPrefix + "FloatSerde":      SerdeFloat,
	serdesPrefix + "DoubleSerde":     SerdeDouble,
	serdesPrefix + "ByteArraySerde":  SerdeByteArray,
	serdesPrefix + "BytesSerde":      SerdeBytes,
	serdesPrefix + "ByteBufferSerde": SerdeByteBuffer,
	serdesPrefix + "VoidSerde":       SerdeVoid,
	serdesPrefix + "UUIDSerde":       SerdeUUID,
	serdesPrefix + "BooleanSerde":    SerdeBoolean,

	ClassSpecificAvroSerde:    SerdeSpecificAvro,
	ClassGenericAvroSerde:     SerdeGenericAvro,
	ClassPrimitiveAvroSerde:   SerdePrimitiveAvro,
	ClassKafkaProtobufSerde:   SerdeProtobuf,
	ClassKafkaJSONSchemaSerde: SerdeJSONSchema,
}

// String returns the Kafka class name of the serde, or "null" when unset.
func (s Serde) String() string {
	for k, v := range serdeClasses {
		if v == s {
			return k
		}
	}
	return "null"
}

// ProcessingGuarantee is processing.guarantee.
type ProcessingGuarantee int

// The processing guarantees.
const (
	AtLeastOnce ProcessingGuarantee = iota
	ExactlyOnceV2
)

// String returns the processing.guarantee value.
func (g ProcessingGuarantee) String() string {
	if g == ExactlyOnceV2 {
		return "exactly_once_v2"
	}
	return "at_least_once"
}

// DeserializationHandler is the built-in DeserializationExceptionHandler in use.
type DeserializationHandler int

// The built-in deserialization exception handlers.
const (
	DeserializationLogAndFail DeserializationHandler = iota
	DeserializationLogAndContinue
)

var deserializationClasses = map[string]DeserializationHandler{
	"org.apache.kafka.streams.errors.LogAndFailExceptionHandler":     DeserializationLogAndFail,
	"org.apache.kafka.streams.errors.LogAndContinueExceptionHandler": DeserializationLogAndContinue,
}

// String returns the Kafka class name.
func (h DeserializationHandler) String() string {
	if h == DeserializationLogAndContinue {
		return "org.apache.kafka.streams.errors.LogAndContinueExceptionHandler"
	}
	return "org.apache.kafka.streams.errors.LogAndFailExceptionHandler"
}

// ProcessingHandler is the built-in ProcessingExceptionHandler in use.
type ProcessingHandler int

// The built-in processing exception handlers.
const (
	ProcessingLogAndFail ProcessingHandler = iota
	ProcessingLogAndContinue
)

var processingClasses = map[string]ProcessingHandler{
	"org.apache.kafka.streams.errors.LogAndFailProcessingExceptionHandler":     ProcessingLogAndFail,
	"org.apache.kafka.streams.errors.LogAndContinueProcessingExceptionHandler": ProcessingLogAndContinue,
}

// String returns the Kafka class name.
func (h ProcessingHandler) String() string {
	if h == ProcessingLogAndContinue {
		return "org.apache.kafka.streams.errors.LogAndContinueProcessingExceptionHandler"
	}
	return "org.apache.kafka.streams.errors.LogAndFailProcessingExceptionHandler"
}

// defaultProductionHandlerClass is Kafka's DefaultProductionExceptionHandler,
// which production.exception.handler names by default and which is always
// bound (kstreams.DefaultProductionExceptionHandlerClass).
const defaultProductionHandlerClass = "org.apache.kafka.streams.errors.DefaultProductionExceptionHandler"

// TimestampExtractor is the built-in TimestampExtractor in use.
type TimestampExtractor int

// The built-in timestamp extractors.
const (
	FailOnInvalidTimestamp TimestampExtractor = iota
	LogAndSkipOnInvalidTimestamp
	UsePartitionTimeOnInvalidTimestamp
	WallclockTimestampExtractor
)

var timestampClasses = map[string]TimestampExtractor{
	"org.apache.kafka.streams.processor.FailOnInvalidTimestamp":             FailOnInvalidTimestamp,
	"org.apache.kafka.streams.processor.LogAndSkipOnInvalidTimestamp":       LogAndSkipOnInvalidTimestamp,
	"org.apache.kafka.streams.processor.UsePartitionTimeOnInvalidTimestamp": UsePartitionTimeOnInvalidTimestamp,
	"org.apache.kafka.streams.processor.WallclockTimestampExtractor":        WallclockTimestampExtractor,
}

// String returns the Kafka class name.
func (t TimestampExtractor) String() string {
	for k, v := range timestampClasses {
		if v == t {
			return k
		}
	}
	return "?"
}

// DSLStore is the kind of store DSL operators create.
type DSLStore int

// The built-in DSL store kinds.
const (
	DSLStoreRocksDB DSLStore = iota
	DSLStoreInMemory
)

var dslStoreClasses = map[string]DSLStore{
	"org.apache.kafka.streams.state.BuiltInDslStoreSuppliers$RocksDBDslStoreSuppliers":  DSLStoreRocksDB,
	"org.apache.kafka.streams.state.BuiltInDslStoreSuppliers$InMemoryDslStoreSuppliers": DSLStoreInMemory,
}

// String returns the Kafka class name.
func (d DSLStore) String() string {
	if d == DSLStoreInMemory {
		return "org.apache.kafka.streams.state.BuiltInDslStoreSuppliers$InMemoryDslStoreSuppliers"
	}
	return "org.apache.kafka.streams.state.BuiltInDslStoreSuppliers$RocksDBDslStoreSuppliers"
}

// IsolationLevel is the default isolation level of interactive queries.
type IsolationLevel int

// The isolation levels.
const (
	ReadUncommitted IsolationLevel = iota
	ReadCommitted
)

// String returns READ_UNCOMMITTED or READ_COMMITTED.
func (l IsolationLevel) String() string {
	if l == ReadCommitted {
		return "READ_COMMITTED"
	}
	return "READ_UNCOMMITTED"
}

// ParseIsolationLevel parses READ_UNCOMMITTED or READ_COMMITTED in any case.
func ParseIsolationLevel(s string) (IsolationLevel, bool) {
	switch strings.ToUpper(strings.TrimSpace(s)) {
	case "READ_UNCOMMITTED":
		return ReadUncommitted, true
	case "READ_COMMITTED":
		return ReadCommitted, true
	}
	return 0, false
}

// TaskAssignor is task.assignor.class: how a StoatFlow group leader places
// the tasks, as the Kafka Streams assignor of that name does.
type TaskAssignor int

// The task assignors StoatFlow has.
const (
	// TaskAssignorHighAvailability is Kafka Streams' default (null), its
	// HighAvailabilityTaskAssignor: stateful actives spread evenly, kept
	// on caught-up clients while warm-up replicas restore elsewhere, with
	// probing rebalances until they have caught up.
	TaskAssignorHighAvailability TaskAssignor = iota
	// TaskAssignorSticky is Kafka Streams' KIP-924 StickyTaskAssignor
	// (StickyTaskAssignorClass): tasks stay with their previous owners
	// within each client's share, and the fewest move.
	TaskAssignorSticky
)

// StickyTaskAssignorClass is the class name of Kafka Streams' public
// KIP-924 StickyTaskAssignor, the task.assignor.class StoatFlow honours.
const StickyTaskAssignorClass = "org.apache.kafka.streams.processor.assignment.assignors.StickyTaskAssignor"

// highAvailabilityTaskAssignorClass is the default assignor's class. It
// is not a KIP-924 TaskAssignor: Kafka Streams refuses it as
// task.assignor.class.
const highAvailabilityTaskAssignorClass = "org.apache.kafka.streams.processor.internals.assignment.HighAvailabilityTaskAssignor"

// String returns the assignor's Kafka Streams class name, without its
// package.
func (a TaskAssignor) String() string {
	if a == TaskAssignorSticky {
		return "StickyTaskAssignor"
	}
	return "HighAvailabilityTaskAssignor"
}

// GroupProtocol is group.protocol.
type GroupProtocol int

// The rebalance protocols.
const (
	GroupProtocolClassic GroupProtocol = iota
	GroupProtocolStreams
)

// String returns classic or streams.
func (g GroupProtocol) String() string {
	if g == GroupProtocolStreams {
		return "streams"
	}
	return "classic"
}

// QueryRemote is stoatflow.query.remote: what the HTTP API does with a key
// query whose partition another instance hosts.
type QueryRemote int

// The remote query modes.
const (
	// QueryForward asks the instance that hosts the key and relays its
	// answer (the default).
	QueryForward QueryRemote = iota
	// QueryRedirect answers 307 with that instance's URL.
	QueryRedirect
	// QueryNone answers 503 with the key's metadata, as before.
	QueryNone
)

// String returns forward, redirect or none.
func (q QueryRemote) String() string {
	switch q {
	case QueryRedirect:
		return "redirect"
	case QueryNone:
		return "none"
	}
	return "forward"
}

// RecordingLevel is metrics.recording.level: the most detailed sensors
// recorded. A metric whose Kafka Streams sensor has a higher level is
// exposed but never recorded, as in Kafka Streams.
type RecordingLevel int

// The recording levels, in Kafka's order (Sensor.RecordingLevel: a sensor
// records when its level is at or below the configured one).
const (
	RecordingInfo RecordingLevel = iota
	RecordingDebug
	RecordingTrace
)

// String returns INFO, DEBUG or TRACE.
func (l RecordingLevel) String() string {
	switch l {
	case RecordingDebug:
		return "DEBUG"
	case RecordingTrace:
		return "TRACE"
	}
	return "INFO"
}

// Records reports whether a sensor of level sensor records under l.
func (l RecordingLevel) Records(sensor RecordingLevel) bool { return sensor <= l }

// LogFormat is stoatflow.log.format.
type LogFormat int

// The log formats.
const (
	LogText LogFormat = iota
	LogJSON
)

// String returns text or json.
func (f LogFormat) String() string {
	if f == LogJSON {
		return "json"
	}
	return "text"
}

func shortClass(name string) string {
	if i := strings.LastIndexAny(name, ".$"); i >= 0 {
		return name[i+1:]
	}
	return name
}
