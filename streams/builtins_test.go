package streams

import (
	"encoding/base64"
	"testing"

	"github.com/stoatflow/stoatflow/compat"
	"github.com/stoatflow/stoatflow/kstreams"
)

func TestTimestampExtractorMapsEveryBuiltIn(t *testing.T) {
	want := map[compat.TimestampExtractor]kstreams.TimestampExtractor{
		compat.FailOnInvalidTimestamp:             kstreams.FailOnInvalidTimestamp{},
		compat.LogAndSkipOnInvalidTimestamp:       kstreams.LogAndSkipOnInvalidTimestamp{},
		compat.UsePartitionTimeOnInvalidTimestamp: kstreams.UsePartitionTimeOnInvalidTimestamp{},
		compat.WallclockTimestampExtractor:        kstreams.WallclockTimestampExtractor{},
	}
	for c, k := range want {
		if got := timestampExtractor(c); got != k {
			t.Errorf("timestampExtractor(%v) = %T, want %T", c, got, k)
		}
	}
}

func TestDSLStoreTypeResolution(t *testing.T) {
	cases := []struct {
		materialized kstreams.StoreType
		config       compat.DSLStore
		want         kstreams.StoreType
	}{
		{kstreams.DefaultStore, compat.DSLStoreRocksDB, kstreams.RocksDB},
		{kstreams.DefaultStore, compat.DSLStoreInMemory, kstreams.InMemory},
		// An explicit Materialized store type wins over the config.
		{kstreams.RocksDB, compat.DSLStoreInMemory, kstreams.RocksDB},
		{kstreams.InMemory, compat.DSLStoreRocksDB, kstreams.InMemory},
	}
	for _, c := range cases {
		if got := c.materialized.Resolve(dslStoreType(c.config)); got != c.want {
			t.Errorf("%v with %v: %v, want %v", c.materialized, c.config, got, c.want)
		}
	}
}

// The cases of Kafka's TopicPartitionMetadataTest that concern the
// partition time.
func TestCommitMetadataPartitionTime(t *testing.T) {
	for _, ts := range []int64{-1, 0, 1_700_000_000_000} {
		got, ok := decodeCommitMetadata(encodeCommitMetadata(ts))
		if !ok || got != ts {
			t.Errorf("round trip of %d = %d, %v", ts, got, ok)
		}
	}
	// Version 2 (Kafka Streams 3.x+) carries processor metadata after the time.
	v2 := base64.StdEncoding.EncodeToString([]byte{2, 0, 0, 0, 0, 0, 0, 0x30, 0x39, 0, 0, 0, 0})
	if got, ok := decodeCommitMetadata(v2); !ok || got != 12345 {
		t.Errorf("version 2 = %d, %v; want 12345", got, ok)
	}
	for _, bad := range []string{"", "not base64!", base64.StdEncoding.EncodeToString([]byte{3, 0, 0, 0, 0, 0, 0, 0, 1}),
		base64.StdEncoding.EncodeToString([]byte{1, 0, 0})} {
		if _, ok := decodeCommitMetadata(bad); ok {
			t.Errorf("decodeCommitMetadata(%q) succeeded, want unknown", bad)
		}
	}
}
