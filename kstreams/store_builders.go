package kstreams

import (
	"maps"
	"time"

	"github.com/stoatflow/stoatflow/kstreams/serde"
)

// The StoreBuilder factories below are Kafka's Stores.*StoreBuilder over
// its persistent store suppliers; InMemory switches a builder to the
// in-memory engine (Stores.inMemory*). As in Kafka, a builder has logging
// on and caching off until its With... methods say otherwise. Sizes are
// checked when the store is added, with Kafka's messages.

// InMemory returns sb over the in-memory engine: Stores.inMemoryKeyValueStore,
// inMemoryWindowStore or inMemorySessionStore.
func (sb StoreBuilder) InMemory() StoreBuilder {
	sb.Type, sb.LRU, sb.MaxCacheSize = InMemory, false, 0
	return sb
}

// InMemoryLRU returns a KeyValueStoreBuilder over Stores.lruMap(name,
// maxCacheSize): an in-memory store of at most maxCacheSize entries. When a
// put makes it hold more, the least recently used entry is evicted and,
// with logging on, a tombstone for it goes to the changelog before the
// put's record, with the timestamp of the record being processed. A Get
// that finds its key and every put use the key; scans do not. A negative
// maxCacheSize fails when the store is added, with Kafka's message.
//
// After an aborted transaction and after a restore, the entries are ordered
// by their last write in the changelog, as in Kafka Streams, whose store is
// then rebuilt from the changelog (state.LRUKeyValueStore). The store is
// not persistent: a restart restores it in full.
func (sb StoreBuilder) InMemoryLRU(maxCacheSize int) StoreBuilder {
	sb.Type, sb.LRU, sb.MaxCacheSize = InMemory, true, maxCacheSize
	return sb
}

// WithCachingEnabled is StoreBuilder.withCachingEnabled: writes wait in the
// record cache (statestore.cache.max.bytes) until a commit or an eviction.
func (sb StoreBuilder) WithCachingEnabled() StoreBuilder {
	sb.Caching = true
	return sb
}

// WithCachingDisabled is StoreBuilder.withCachingDisabled.
func (sb StoreBuilder) WithCachingDisabled() StoreBuilder {
	sb.Caching = false
	return sb
}

// WithLoggingEnabled is StoreBuilder.withLoggingEnabled: a changelog topic
// with config over the topic.* defaults. As in Kafka, config is added to
// what the builder holds (a store retaining duplicates starts with
// cleanup.policy=delete).
func (sb StoreBuilder) WithLoggingEnabled(config map[string]string) StoreBuilder {
	logConfig := maps.Clone(sb.LogConfig)
	if logConfig == nil {
		logConfig = map[string]string{}
	}
	maps.Copy(logConfig, config)
	sb.LoggingDisabled, sb.LogConfig = false, logConfig
	return sb
}

// WithLoggingDisabled is StoreBuilder.withLoggingDisabled: no changelog; a
// task that moves starts the store empty.
func (sb StoreBuilder) WithLoggingDisabled() StoreBuilder {
	sb.LoggingDisabled, sb.LogConfig = true, nil
	return sb
}

// TimestampedKeyValueStoreBuilder is Stores.timestampedKeyValueStoreBuilder
// over Stores.persistentTimestampedKeyValueStore: values with their
// timestamps (a TimestampedKeyValueStore in the processor).
func TimestampedKeyValueStoreBuilder[K, V any](name string, k serde.Serde[K], v serde.Serde[V]) StoreBuilder {
	sb := KeyValueStoreBuilder(name, k, v)
	sb.Timestamped = true
	return sb
}

// TimestampedWindowStoreBuilder is Stores.timestampedWindowStoreBuilder over
// Stores.persistentTimestampedWindowStore(name, retention, windowSize,
// false): a TimestampedWindowStore in the processor.
func TimestampedWindowStoreBuilder[K, V any](name string, retention, windowSize time.Duration, k serde.Serde[K], v serde.Serde[V]) StoreBuilder {
	return StoreBuilder{Name: name, Kind: WindowStoreKind, Timestamped: true, KeySerde: serde.Erase(k), ValueSerde: serde.Erase(v),
		RetentionMs: retention.Milliseconds(), WindowSizeMs: windowSize.Milliseconds()}
}

// WindowStoreBuilder is Stores.windowStoreBuilder over
// Stores.persistentWindowStore(name, retention, windowSize,
// retainDuplicates): plain values, without timestamps (a WindowStore in
// the processor).
func WindowStoreBuilder[K, V any](name string, retention, windowSize time.Duration, retainDuplicates bool, k serde.Serde[K], v serde.Serde[V]) StoreBuilder {
	sb := StoreBuilder{Name: name, Kind: WindowStoreKind, KeySerde: serde.Erase(k), ValueSerde: serde.Erase(v),
		RetentionMs: retention.Milliseconds(), WindowSizeMs: windowSize.Milliseconds(), RetainDuplicates: retainDuplicates}
	if retainDuplicates {
		// Every put logs under a key of its own (its sequence number), so
		// there is nothing to compact: Kafka's builder makes the changelog
		// delete-only.
		sb.LogConfig = map[string]string{"cleanup.policy": "delete"}
	}
	return sb
}

// SessionStoreBuilder is Stores.sessionStoreBuilder over
// Stores.persistentSessionStore(name, retention): a SessionStore in the
// processor.
func SessionStoreBuilder[K, V any](name string, retention time.Duration, k serde.Serde[K], v serde.Serde[V]) StoreBuilder {
	return StoreBuilder{Name: name, Kind: SessionStoreKind, KeySerde: serde.Erase(k), ValueSerde: serde.Erase(v),
		RetentionMs: retention.Milliseconds()}
}

// checkSizes applies the checks of Kafka's window and session store
// suppliers and of Stores.lruMap.
func (sb StoreBuilder) checkSizes() error {
	switch sb.Kind {
	case WindowStoreKind:
		switch {
		case sb.RetentionMs < 0:
			return errIllegalArgument("retentionPeriod cannot be negative")
		case sb.WindowSizeMs < 0:
			return errIllegalArgument("windowSize cannot be negative")
		case sb.WindowSizeMs > sb.RetentionMs:
			return errIllegalArgument("The retention period of the window store " + sb.Name +
				" must be no smaller than its window size. Got size=[" + itoa(int(sb.WindowSizeMs)) +
				"], retention=[" + itoa(int(sb.RetentionMs)) + "]")
		}
	case SessionStoreKind:
		if sb.RetentionMs < 0 {
			return errIllegalArgument("retentionPeriod cannot be negative")
		}
	}
	if sb.LRU && sb.MaxCacheSize < 0 {
		return errIllegalArgument("maxCacheSize cannot be negative")
	}
	return nil
}
