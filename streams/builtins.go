package streams

import (
	"github.com/stoatflow/stoatflow/compat"
	"github.com/stoatflow/stoatflow/kstreams"
)

// timestampExtractor is the kstreams built-in that default.timestamp.extractor
// names.
func timestampExtractor(e compat.TimestampExtractor) kstreams.TimestampExtractor {
	switch e {
	case compat.LogAndSkipOnInvalidTimestamp:
		return kstreams.LogAndSkipOnInvalidTimestamp{}
	case compat.UsePartitionTimeOnInvalidTimestamp:
		return kstreams.UsePartitionTimeOnInvalidTimestamp{}
	case compat.WallclockTimestampExtractor:
		return kstreams.WallclockTimestampExtractor{}
	}
	return kstreams.FailOnInvalidTimestamp{}
}

// dslStoreType is the engine of DSL stores without a Materialized store
// type: dsl.store.suppliers.class, or default.dsl.store alone (as a
// topology built with Kafka's TopologyConfig applies it).
func dslStoreType(d compat.DSLStore) kstreams.StoreType {
	if d == compat.DSLStoreInMemory {
		return kstreams.InMemory
	}
	return kstreams.RocksDB
}
