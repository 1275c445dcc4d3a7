package kstreams_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/serde"
)

// topicCases mirror testdata/jvmcapture/Topics.java, which printed the
// internal topics Kafka Streams 4.4.0 derives for the same topologies.
var topicCases = map[string]struct {
	build func() *kstreams.StreamsBuilder
	cfg   kstreams.InternalTopicsConfig
}{
	"wordcount": {
		build: func() *kstreams.StreamsBuilder { return wordCount() },
		cfg: kstreams.InternalTopicsConfig{ApplicationID: "wc", WindowStoreChangelogAdditionalRetentionMs: kstreams.DefaultWindowStoreChangelogAdditionalRetentionMs,
			TopicConfigs: map[string]string{"min.insync.replicas": "2", "cleanup.policy": "compact"}},
	},
	"windowed-configs": {
		build: func() *kstreams.StreamsBuilder {
			b := kstreams.NewStreamsBuilder()
			g := kstreams.Stream(b, []string{"in"}, kstreams.ConsumedWith[string, string](serde.String{}, serde.String{})).GroupByKey()
			kstreams.WindowedBy(g, kstreams.TimeWindowsOfSizeAndGrace(time.Minute, time.Second)).Count(kstreams.MaterializedAs[string, int64]("w"))
			kstreams.WindowedBySession(g, kstreams.SessionWindowsOfInactivityGapWithNoGrace(time.Minute)).
				Count(kstreams.Materialized[string, int64]{Name: "s", LogConfig: map[string]string{"retention.ms": "5", "segment.bytes": "100"}})
			kstreams.WindowedBy(g, kstreams.TimeWindowsOfSizeWithNoGrace(time.Minute)).Count(kstreams.Materialized[string, int64]{Name: "quiet", LoggingDisabled: true})
			kstreams.WindowedBy(g, kstreams.TimeWindowsOfSizeWithNoGrace(time.Minute)).Count(kstreams.Materialized[string, int64]{Name: "kept", Retention: 2 * time.Hour})
			g.Count(kstreams.Materialized[string, int64]{Name: "kv", LogConfig: map[string]string{"min.compaction.lag.ms": "7"}})
			return b
		},
		cfg: kstreams.InternalTopicsConfig{ApplicationID: "app", WindowStoreChangelogAdditionalRetentionMs: 1000,
			TopicConfigs: map[string]string{"retention.ms": "123"}},
	},
	"chained": {
		build: func() *kstreams.StreamsBuilder {
			b := kstreams.NewStreamsBuilder()
			keyed := kstreams.SelectKey(kstreams.Stream(b, []string{"in"}, kstreams.ConsumedWith[string, string](serde.String{}, serde.String{})),
				func(_, v string) string { return v })
			c1 := keyed.GroupByKey(kstreams.Grouped[string, string]{Name: "first"}).Count(kstreams.MaterializedAs[string, int64]("c1")).ToStream()
			kstreams.SelectKey(c1, func(k string, _ int64) string { return k }).GroupByKey(kstreams.Grouped[string, int64]{Name: "second"}).
				Count(kstreams.MaterializedAs[string, int64]("c2"))
			kstreams.Table(b, "t", kstreams.ConsumedWith[string, string](serde.String{}, serde.String{}), kstreams.MaterializedAs[string, string]("t-store"))
			return b
		},
		cfg: kstreams.InternalTopicsConfig{ApplicationID: "app", WindowStoreChangelogAdditionalRetentionMs: 1000,
			TopicConfigs: map[string]string{"retention.ms": "123"}},
	},
}

// javaMap renders a map as Java's TreeMap.toString.
func javaMap(m map[string]string) string {
	keys := slices.Sorted(func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	})
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + m[k]
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

func TestInternalTopicsMatchKafkaStreams44(t *testing.T) {
	for name, tc := range topicCases {
		t.Run(name, func(t *testing.T) {
			want, err := os.ReadFile(filepath.Join("testdata", "jvmcapture", name+".topics.txt"))
			if err != nil {
				t.Fatal(err)
			}
			topo, err := tc.build().Build()
			if err != nil {
				t.Fatal(err)
			}
			topics := topo.InternalTopics(tc.cfg)
			var b strings.Builder
			for _, st := range topo.Subtopologies() {
				var srcs []string
				for _, s := range st.Sources {
					srcs = append(srcs, s.Decorated(tc.cfg.ApplicationID))
				}
				slices.Sort(srcs)
				fmt.Fprintf(&b, "subtopology %d sources [%s]\n", st.ID, strings.Join(srcs, ", "))
				var rp, cl []string
				for _, it := range topics {
					if it.Subtopology != st.ID {
						continue
					}
					if it.Kind == kstreams.RepartitionTopicKind {
						parts := "Optional.empty"
						if it.NumPartitions > 0 {
							parts = fmt.Sprintf("Optional[%d]", it.NumPartitions)
						}
						rp = append(rp, fmt.Sprintf("  repartition %s partitions=%s %s\n", it.Name, parts, javaMap(it.Configs)))
					} else {
						cl = append(cl, fmt.Sprintf("  changelog %s %s\n", it.Name, javaMap(it.Configs)))
					}
				}
				slices.Sort(rp)
				slices.Sort(cl)
				b.WriteString(strings.Join(rp, "") + strings.Join(cl, ""))
			}
			if got := b.String(); got != string(want) {
				t.Errorf("got\n%s\nkafka streams 4.4.0\n%s", got, want)
			}
		})
	}
}
