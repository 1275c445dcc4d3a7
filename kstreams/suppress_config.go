package kstreams

import (
	"maps"
	"math"
	"time"
)

// Suppressed says what KTable.Suppress holds back and for how long: Kafka
// Streams' Suppressed. Build one with UntilWindowCloses or UntilTimeLimit.
type Suppressed struct {
	name string
	// final is untilWindowCloses: a windowed table's updates wait until
	// their window closes (its end plus the window's grace period), then
	// the last one is emitted; tombstones are dropped.
	final bool
	// limit is untilTimeLimit's wait, measured in stream time from the
	// first update of a key the buffer holds.
	limit  time.Duration
	buffer bufferConfig
}

// UntilWindowCloses emits only the final result of each window of a
// windowed table, once stream time has passed the window's end by the
// grace period of the windowed aggregation upstream:
// Suppressed.untilWindowCloses. Suppressing a table that is not windowed
// fails when the topology is built.
func UntilWindowCloses(b StrictBufferConfig) Suppressed {
	return Suppressed{final: true, buffer: b.c}
}

// UntilTimeLimit holds each key's updates for limit of stream time after
// the first of them, then emits the latest; a full buffer emits its oldest
// keys early or fails the task, as b says: Suppressed.untilTimeLimit.
func UntilTimeLimit(limit time.Duration, b Buffer) Suppressed {
	return Suppressed{limit: limit, buffer: b.config()}
}

// WithName names the suppression's processor and, with "-store", its
// buffer store: Suppressed.withName. A named suppression uses up no index
// of the generated names.
func (s Suppressed) WithName(name string) Suppressed {
	s.name = name
	return s
}

// Buffer is a suppression buffer's configuration: a BufferConfig (emits
// early when full) or a StrictBufferConfig (never emits early).
type Buffer interface {
	config() bufferConfig
}

// bufferConfig is Kafka's BufferConfigInternal: bounds (math.MaxInt64 for
// none), what happens when they are exceeded, and the changelog.
type bufferConfig struct {
	maxRecords, maxBytes int64
	shutDown             bool
	loggingDisabled      bool
	logConfig            map[string]string
}

func (c bufferConfig) withLog(on bool, cfg map[string]string) bufferConfig {
	c.loggingDisabled = !on
	c.logConfig = nil
	if on {
		c.logConfig = maps.Clone(cfg)
	}
	return c
}

// BufferConfig is a suppression buffer that emits its oldest keys early
// when it is full: Kafka's EagerBufferConfig. Build one with MaxRecords or
// MaxBytes.
type BufferConfig struct{ c bufferConfig }

// StrictBufferConfig is a suppression buffer that never emits early: when
// it is full the task fails, Kafka's StrictBufferConfig. Build one with
// Unbounded or BufferConfig.ShutDownWhenFull.
type StrictBufferConfig struct{ c bufferConfig }

func (b BufferConfig) config() bufferConfig       { return b.c }
func (b StrictBufferConfig) config() bufferConfig { return b.c }

// MaxRecords bounds a buffer to n keys: BufferConfig.maxRecords.
func MaxRecords(n int64) BufferConfig {
	return BufferConfig{bufferConfig{maxRecords: n, maxBytes: math.MaxInt64}}
}

// MaxBytes bounds a buffer to n bytes, as Kafka Streams estimates a
// buffered record's memory: BufferConfig.maxBytes.
func MaxBytes(n int64) BufferConfig {
	return BufferConfig{bufferConfig{maxRecords: math.MaxInt64, maxBytes: n}}
}

// Unbounded is a buffer without bounds: BufferConfig.unbounded. It fails
// the task only if the process runs out of memory.
func Unbounded() StrictBufferConfig {
	return StrictBufferConfig{bufferConfig{maxRecords: math.MaxInt64, maxBytes: math.MaxInt64, shutDown: true}}
}

// WithMaxRecords sets the bound on keys.
func (b BufferConfig) WithMaxRecords(n int64) BufferConfig { b.c.maxRecords = n; return b }

// WithMaxBytes sets the bound on bytes.
func (b BufferConfig) WithMaxBytes(n int64) BufferConfig { b.c.maxBytes = n; return b }

// WithNoBound removes both bounds, which makes the buffer strict.
func (b BufferConfig) WithNoBound() StrictBufferConfig { return Unbounded().keepLog(b.c) }

// EmitEarlyWhenFull returns b: it already emits early.
func (b BufferConfig) EmitEarlyWhenFull() BufferConfig { return b }

// ShutDownWhenFull makes a full buffer fail the task instead.
func (b BufferConfig) ShutDownWhenFull() StrictBufferConfig {
	c := b.c
	c.shutDown = true
	return StrictBufferConfig{c}
}

// WithLoggingDisabled keeps the buffer without a changelog: it starts empty
// after a restart.
func (b BufferConfig) WithLoggingDisabled() BufferConfig { b.c = b.c.withLog(false, nil); return b }

// WithLoggingEnabled logs the buffer (the default) with cfg as its
// changelog topic's configuration.
func (b BufferConfig) WithLoggingEnabled(cfg map[string]string) BufferConfig {
	b.c = b.c.withLog(true, cfg)
	return b
}

// WithMaxRecords sets the bound on keys.
func (b StrictBufferConfig) WithMaxRecords(n int64) StrictBufferConfig { b.c.maxRecords = n; return b }

// WithMaxBytes sets the bound on bytes.
func (b StrictBufferConfig) WithMaxBytes(n int64) StrictBufferConfig { b.c.maxBytes = n; return b }

// WithNoBound removes both bounds.
func (b StrictBufferConfig) WithNoBound() StrictBufferConfig { return Unbounded().keepLog(b.c) }

// EmitEarlyWhenFull makes a full buffer emit its oldest keys instead of
// failing.
func (b StrictBufferConfig) EmitEarlyWhenFull() BufferConfig {
	c := b.c
	c.shutDown = false
	return BufferConfig{c}
}

// ShutDownWhenFull returns b: it already fails when full.
func (b StrictBufferConfig) ShutDownWhenFull() StrictBufferConfig { return b }

// WithLoggingDisabled keeps the buffer without a changelog.
func (b StrictBufferConfig) WithLoggingDisabled() StrictBufferConfig {
	b.c = b.c.withLog(false, nil)
	return b
}

// WithLoggingEnabled logs the buffer (the default) with cfg as its
// changelog topic's configuration.
func (b StrictBufferConfig) WithLoggingEnabled(cfg map[string]string) StrictBufferConfig {
	b.c = b.c.withLog(true, cfg)
	return b
}

// keepLog carries the logging settings of c over, as Kafka's withNoBound
// keeps them.
func (b StrictBufferConfig) keepLog(c bufferConfig) StrictBufferConfig {
	b.c.loggingDisabled, b.c.logConfig = c.loggingDisabled, c.logConfig
	return b
}
