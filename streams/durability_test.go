package streams

import (
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/compat"
	"github.com/stoatflow/stoatflow/examples/windowedcount"
	"github.com/stoatflow/stoatflow/examples/wordcount"
	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/state"
)

func TestFlushPolicyTimeBoundStaysWithinHalfTheChangelogRetention(t *testing.T) {
	load := func(sets ...string) *compat.Config {
		cfg, diags := compat.LoadFiles(nil, append([]string{"application.id=retention", "bootstrap.servers=b:9092"}, sets...), nil)
		if err := diags.Err(); err != nil {
			t.Fatal(err)
		}
		return cfg
	}
	policyOf := func(t *testing.T, topo *kstreams.Topology, cfg *compat.Config) state.FlushPolicy {
		t.Helper()
		th := &streamThread{s: &KafkaStreams{topo: topo, cfg: cfg}}
		st := topo.Subtopologies()
		for _, sub := range st {
			for _, spec := range sub.Stores {
				tp := &state.TopicPartition{Topic: kstreams.ChangelogTopic(cfg.ApplicationID, spec.Name)}
				return th.flushPolicy(spec, tp)
			}
		}
		t.Fatal("no store")
		return state.FlushPolicy{}
	}
	windowed, err := windowedcount.Build(nil)
	if err != nil {
		t.Fatal(err)
	}
	counts, err := wordcount.Build(nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		topo *kstreams.Topology
		sets []string
		want state.FlushPolicy
	}{
		// A window store's changelog keeps its retention plus a day: the
		// configured minute is the tighter bound.
		{"window, default retention", windowed, nil, state.FlushPolicy{MaxLagRecords: 100000, MaxLag: time.Minute}},
		// A minute of retention in all (15 s of windows and grace, 45 s
		// more): flush within half of it.
		{"window, short retention", windowed, []string{"windowstore.changelog.additional.retention.ms=45000"},
			state.FlushPolicy{MaxLagRecords: 100000, MaxLag: 30 * time.Second}},
		// Four minutes, and no configured time bound: half of them.
		{"window, short retention, no time bound", windowed, []string{"windowstore.changelog.additional.retention.ms=225000", "stoatflow.rocksdb.flush.max-lag-ms=0"},
			state.FlushPolicy{MaxLagRecords: 100000, MaxLag: 2 * time.Minute}},
		// A compacted changelog keeps every key's latest record: no
		// retention to stay within.
		{"key-value, compacted", counts, []string{"stoatflow.rocksdb.flush.max-lag-ms=0", "topic.retention.ms=1000"}, state.FlushPolicy{MaxLagRecords: 100000}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := policyOf(t, tc.topo, load(tc.sets...)); got != tc.want {
				t.Errorf("policy %+v, want %+v", got, tc.want)
			}
		})
	}
}
