package compat

import (
	"strings"
	"testing"
	"time"
)

func TestFlushPolicyPerStoreOverrides(t *testing.T) {
	c, diags := load(t, base+"stoatflow.rocksdb.flush.max-lag-records=5000\n"+
		"stoatflow.store.counts.rocksdb.flush.max-lag-records=0\n"+
		"stoatflow.store.quiet.store.rocksdb.flush.max-lag-ms=2000\n"+
		"stoatflow.store.quiet.store.rocksdb.write-buffer-bytes=65536\n")
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	for _, tc := range []struct {
		store   string
		records int64
		lag     time.Duration
	}{
		{"counts", 0, DefaultFlushMaxLagMs * time.Millisecond},
		// A store name may hold dots: the suffix decides which key it is.
		{"quiet.store", 5000, 2 * time.Second},
		{"other", 5000, DefaultFlushMaxLagMs * time.Millisecond},
	} {
		r, l := c.FlushPolicy(tc.store)
		if r != tc.records || l != tc.lag {
			t.Errorf("FlushPolicy(%q) = %d, %v; want %d, %v", tc.store, r, l, tc.records, tc.lag)
		}
	}
	if c.WriteBufferBytes("quiet.store") != 65536 {
		t.Errorf("write buffer of quiet.store: %d", c.WriteBufferBytes("quiet.store"))
	}
	var b strings.Builder
	if err := c.WriteStoatFlowConfig(&b); err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{
		"stoatflow.rocksdb.flush.max-lag-records = 5000",
		"stoatflow.store.counts.rocksdb.flush.max-lag-records = 0",
		"stoatflow.store.quiet.store.rocksdb.flush.max-lag-ms = 2000",
	} {
		if !strings.Contains(b.String(), line) {
			t.Errorf("printed config lacks %q:\n%s", line, b.String())
		}
	}
}

func TestFlushPolicyDefaults(t *testing.T) {
	c, _ := load(t, base)
	if r, l := c.FlushPolicy("any"); r != DefaultFlushMaxLagRecords || l != DefaultFlushMaxLagMs*time.Millisecond {
		t.Errorf("defaults %d, %v", r, l)
	}
	c.FlushMaxLagRecords = -1
	if err := c.Validate(); err == nil || !strings.Contains(err.Error(), FlushMaxLagRecordsConfig) {
		t.Errorf("Validate of a negative bound: %v", err)
	}
}
