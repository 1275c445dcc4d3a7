package streams

import (
	"encoding/base64"
	"maps"
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

// The cases of Kafka's TopicPartitionMetadataTest and ProcessorMetadataTest,
// with Kafka Streams' byte layout written out by hand.
func TestCommitMetadataPartitionTime(t *testing.T) {
	for _, ts := range []int64{-1, 0, 1_700_000_000_000} {
		for _, md := range []map[string]int64{nil, {"store": 42}, {"a": 1, "bb": -3}} {
			got, gotMD, ok := decodeCommitMetadata(encodeCommitMetadata(ts, md))
			if !ok || got != ts || !maps.Equal(gotMD, md) {
				t.Errorf("round trip of %d, %v = %d, %v, %v", ts, md, got, gotMD, ok)
			}
		}
	}
	// Kafka Streams writes version 2 with no processor metadata after the
	// time when there is none; StoatFlow writes the same bytes.
	v2 := base64.StdEncoding.EncodeToString([]byte{2, 0, 0, 0, 0, 0, 0, 0x30, 0x39})
	if got := encodeCommitMetadata(12345, nil); got != v2 {
		t.Errorf("encode(12345) = %q, Kafka Streams writes %q", got, v2)
	}
	// Version 1 (before Kafka Streams 3.2) holds the time alone.
	v1 := base64.StdEncoding.EncodeToString([]byte{1, 0, 0, 0, 0, 0, 0, 0x30, 0x39})
	if got, md, ok := decodeCommitMetadata(v1); !ok || got != 12345 || md != nil {
		t.Errorf("version 1 = %d, %v, %v; want 12345", got, md, ok)
	}
	// Version 2 with one entry: count, key length, key, value.
	withMD := base64.StdEncoding.EncodeToString([]byte{2, 0, 0, 0, 0, 0, 0, 0x30, 0x39,
		0, 0, 0, 1, 0, 0, 0, 2, 'k', 's', 0, 0, 0, 0, 0, 0, 0x01, 0x00})
	if got, md, ok := decodeCommitMetadata(withMD); !ok || got != 12345 || !maps.Equal(md, map[string]int64{"ks": 256}) {
		t.Errorf("version 2 with metadata = %d, %v, %v; want 12345, ks=256", got, md, ok)
	}
	if got := encodeCommitMetadata(12345, map[string]int64{"ks": 256}); got != withMD {
		t.Errorf("encode(12345, ks=256) = %q, Kafka Streams writes %q", got, withMD)
	}
	// Unreadable processor metadata: the time is kept, as Kafka Streams
	// keeps it.
	truncated := base64.StdEncoding.EncodeToString([]byte{2, 0, 0, 0, 0, 0, 0, 0x30, 0x39, 0, 0, 0, 1, 0, 0, 0, 9, 'k'})
	if got, md, ok := decodeCommitMetadata(truncated); !ok || got != 12345 || md != nil {
		t.Errorf("truncated processor metadata = %d, %v, %v; want 12345 and none", got, md, ok)
	}
	for _, bad := range []string{"", "not base64!", base64.StdEncoding.EncodeToString([]byte{3, 0, 0, 0, 0, 0, 0, 0, 1}),
		base64.StdEncoding.EncodeToString([]byte{1, 0, 0})} {
		if _, _, ok := decodeCommitMetadata(bad); ok {
			t.Errorf("decodeCommitMetadata(%q) succeeded, want unknown", bad)
		}
	}
}
