package kstreams

import (
	"time"

	"github.com/stoatflow/stoatflow/kstreams/serde"
)

// Window and Windowed are the serde package's window types, re-exported.
type (
	Window             = serde.Window
	Windowed[K any]    = serde.Windowed[K]
	KeyValue[K, V any] struct {
		Key   K
		Value V
	}
)

// Named names the processor an operation creates, Kafka's Named.as(name).
type Named string

func firstNamed(n []Named) string {
	if len(n) > 0 {
		return string(n[0])
	}
	return ""
}

// maxNameLength is Kafka's Named.MAX_NAME_LENGTH.
const maxNameLength = 249

// validateName applies Kafka's rules for processor and store names (Named,
// Materialized, Consumed, Produced); "" means "generate one" and passes.
func validateName(name string) error {
	switch {
	case name == "":
		return nil
	case name == "." || name == "..":
		return invalidTopology(`Name cannot be "." or ".."`)
	case len(name) > maxNameLength:
		return invalidTopology("Name is illegal, it can't be longer than %d characters, name: %s", maxNameLength, name)
	}
	for _, c := range name {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-') {
			return invalidTopology("Name %q is illegal, it contains a character other than ASCII alphanumerics, '.', '_' and '-'", name)
		}
	}
	return nil
}

// Consumed configures a source: Kafka's Consumed. Empty fields take the
// defaults (generated name, default serdes, default.timestamp.extractor).
type Consumed[K, V any] struct {
	Name       string
	KeySerde   serde.Serde[K]
	ValueSerde serde.Serde[V]
	// TimestampExtractor gives the source's records their timestamps; nil
	// means the application's default.timestamp.extractor.
	TimestampExtractor TimestampExtractor
	// OffsetReset is where the source's partitions start without a
	// committed offset (Consumed.withOffsetResetPolicy); unset, the
	// application's auto.offset.reset decides. A global table ignores it
	// and reads its topic from the start, as Kafka Streams does.
	OffsetReset AutoOffsetReset
}

// WithOffsetResetPolicy is Consumed.withOffsetResetPolicy: c with its
// source's partitions started by r when the group has no offset for them.
func (c Consumed[K, V]) WithOffsetResetPolicy(r AutoOffsetReset) Consumed[K, V] {
	c.OffsetReset = r
	return c
}

// ConsumedWith is Consumed.with(keySerde, valueSerde).
func ConsumedWith[K, V any](k serde.Serde[K], v serde.Serde[V]) Consumed[K, V] {
	return Consumed[K, V]{KeySerde: k, ValueSerde: v}
}

// WithTimestampExtractor is Consumed.withTimestampExtractor: c with its
// source's timestamps taken by e.
func (c Consumed[K, V]) WithTimestampExtractor(e TimestampExtractor) Consumed[K, V] {
	c.TimestampExtractor = e
	return c
}

// Produced configures a sink: Kafka's Produced. Partitioner, if set,
// chooses the partitions of each record (Produced.streamPartitioner).
type Produced[K, V any] struct {
	Name        string
	KeySerde    serde.Serde[K]
	ValueSerde  serde.Serde[V]
	Partitioner StreamPartitioner[K, V]
}

// ProducedWith is Produced.with(keySerde, valueSerde).
func ProducedWith[K, V any](k serde.Serde[K], v serde.Serde[V]) Produced[K, V] {
	return Produced[K, V]{KeySerde: k, ValueSerde: v}
}

// Grouped configures a grouping: Kafka's Grouped. Name names the key-select
// processor of GroupBy and the repartition topic (<name>-repartition).
type Grouped[K, V any] struct {
	Name       string
	KeySerde   serde.Serde[K]
	ValueSerde serde.Serde[V]
}

// GroupedWith is Grouped.with(keySerde, valueSerde).
func GroupedWith[K, V any](k serde.Serde[K], v serde.Serde[V]) Grouped[K, V] {
	return Grouped[K, V]{KeySerde: k, ValueSerde: v}
}

// Materialized configures the store of an aggregation or a table: Kafka's
// Materialized. The zero value is Materialized.with(null, null): a generated
// store name, default serdes, the engine dsl.store.suppliers.class names
// (RocksDB unless configured), caching and logging enabled.
type Materialized[K, V any] struct {
	Name       string
	KeySerde   serde.Serde[K]
	ValueSerde serde.Serde[V]
	StoreType  StoreType
	// LoggingDisabled turns the changelog off (withLoggingDisabled).
	LoggingDisabled bool
	// LogConfig is the changelog topic config (withLoggingEnabled(map)).
	LogConfig map[string]string
	// CachingDisabled is withCachingDisabled. StoatFlow forwards every update
	// either way for now; the flag is kept for the runtime.
	CachingDisabled bool
	// Retention of window and session stores; 0 means window size (or gap)
	// plus grace, as Kafka.
	Retention time.Duration

	// versioned is the versioned store of MaterializedAsVersioned.
	versioned *VersionedStoreSupplier
}

// MaterializedAs is Materialized.as(name).
func MaterializedAs[K, V any](name string) Materialized[K, V] {
	return Materialized[K, V]{Name: name}
}

// AggOption is an option of Count, Reduce and Aggregate: a Named (the
// processor name) or a Materialized[K, VA] (the store).
type AggOption[K, VA any] interface{ aggOption() }

func (Named) aggOption()              {}
func (Materialized[K, V]) aggOption() {}

type aggOpts[K, VA any] struct {
	named string
	mat   Materialized[K, VA]
	// hasMat is true when a Materialized was passed (count() with one burns
	// an index when it has no name, as Kafka does for compatibility).
	hasMat bool
}

func parseAggOpts[K, VA any](b *StreamsBuilder, opts []AggOption[K, VA]) aggOpts[K, VA] {
	var o aggOpts[K, VA]
	for _, opt := range opts {
		switch v := opt.(type) {
		case Named:
			o.named = string(v)
		case Materialized[K, VA]:
			o.mat, o.hasMat = v, true
			b.fail(validateName(v.Name))
		default:
			b.fail(invalidTopology("option of type %T does not fit this aggregation", opt))
		}
	}
	return o
}

// storeName is the name of the aggregation's store: the Materialized's, or
// one drawn with prefix, which counts as unnamed with its changelog.
func (o aggOpts[K, VA]) storeName(b *StreamsBuilder, prefix string) string {
	if o.mat.Name != "" {
		return o.mat.Name
	}
	name := b.newStoreName(prefix)
	b.unnamedStore(name, !o.mat.LoggingDisabled)
	return name
}

// countStoreName is storeName for a count, which draws an index first when
// given a Materialized without a name: Kafka burns one there for
// compatibility.
func (o aggOpts[K, VA]) countStoreName(b *StreamsBuilder) string {
	if o.hasMat && o.mat.Name == "" {
		b.newStoreName(prefixAggregate)
	}
	return o.storeName(b, prefixAggregate)
}

// TimeWindows are tumbling or hopping windows: Kafka's TimeWindows.
type TimeWindows struct {
	SizeMs    int64
	AdvanceMs int64
	GraceMs   int64
	err       error
}

// TimeWindowsOfSizeWithNoGrace is TimeWindows.ofSizeWithNoGrace: tumbling
// windows of size, closing as soon as stream time passes their end.
func TimeWindowsOfSizeWithNoGrace(size time.Duration) TimeWindows {
	return TimeWindowsOfSizeAndGrace(size, 0)
}

// TimeWindowsOfSizeAndGrace is TimeWindows.ofSizeAndGrace.
func TimeWindowsOfSizeAndGrace(size, grace time.Duration) TimeWindows {
	w := TimeWindows{SizeMs: size.Milliseconds(), AdvanceMs: size.Milliseconds(), GraceMs: grace.Milliseconds()}
	if w.SizeMs <= 0 {
		w.err = errIllegalArgument("Window size (sizeMs) must be larger than zero.")
	} else if w.GraceMs < 0 {
		w.err = errIllegalArgument("Grace period must not be negative.")
	}
	return w
}

// AdvanceBy makes the windows hopping: TimeWindows.advanceBy.
func (w TimeWindows) AdvanceBy(advance time.Duration) TimeWindows {
	a := advance.Milliseconds()
	if w.err == nil && (a <= 0 || a > w.SizeMs) {
		w.err = errIllegalArgument("Window advancement interval should be more than zero and less than window duration which is " +
			itoa(int(w.SizeMs)) + " ms, but given advancement interval is: " + itoa(int(a)) + " ms")
	}
	w.AdvanceMs = a
	return w
}

// windowsFor returns the starts of the windows containing ts, ascending
// (Kafka's TimeWindows.windowsFor).
func (w TimeWindows) windowsFor(ts int64) []int64 {
	start := max(0, ts-w.SizeMs+w.AdvanceMs) / w.AdvanceMs * w.AdvanceMs
	var out []int64
	for ; start <= ts; start += w.AdvanceMs {
		out = append(out, start)
	}
	return out
}

// SessionWindows group records by activity: Kafka's SessionWindows.
type SessionWindows struct {
	GapMs   int64
	GraceMs int64
	err     error
}

// SessionWindowsOfInactivityGapWithNoGrace is SessionWindows.ofInactivityGapWithNoGrace.
func SessionWindowsOfInactivityGapWithNoGrace(gap time.Duration) SessionWindows {
	return SessionWindowsOfInactivityGapAndGrace(gap, 0)
}

// SessionWindowsOfInactivityGapAndGrace is SessionWindows.ofInactivityGapAndGrace.
func SessionWindowsOfInactivityGapAndGrace(gap, grace time.Duration) SessionWindows {
	w := SessionWindows{GapMs: gap.Milliseconds(), GraceMs: grace.Milliseconds()}
	if w.GapMs < 0 {
		w.err = errIllegalArgument("Gap time cannot be negative.")
	} else if w.GraceMs < 0 {
		w.err = errIllegalArgument("Grace period cannot be negative.")
	}
	return w
}

type illegalArgument struct{ msg string }

func (e *illegalArgument) Error() string { return e.msg }

func errIllegalArgument(msg string) error { return &illegalArgument{msg} }
