package kstreams_test

import (
	"errors"
	"maps"
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/serde"
)

func TestWordCountInternalTopics(t *testing.T) {
	topo, err := wordCount().Build()
	if err != nil {
		t.Fatal(err)
	}
	cfg := kstreams.InternalTopicsConfig{ApplicationID: "wc", WindowStoreChangelogAdditionalRetentionMs: kstreams.DefaultWindowStoreChangelogAdditionalRetentionMs,
		TopicConfigs: map[string]string{"min.insync.replicas": "2", "cleanup.policy": "compact"}}
	got := topo.InternalTopics(cfg)
	if len(got) != 2 {
		t.Fatalf("%+v", got)
	}
	rp, cl := got[0], got[1]
	if rp.Name != "wc-KSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition" || rp.Kind != kstreams.RepartitionTopicKind || rp.Subtopology != 1 {
		t.Errorf("repartition %+v", rp)
	}
	wantRP := map[string]string{"cleanup.policy": "compact", "segment.bytes": "52428800", "retention.ms": "-1",
		"message.timestamp.type": "CreateTime", "min.insync.replicas": "2"}
	if !maps.Equal(rp.Configs, wantRP) {
		t.Errorf("repartition configs %v", rp.Configs)
	}
	if cl.Name != "wc-KSTREAM-AGGREGATE-STATE-STORE-0000000003-changelog" || cl.Kind != kstreams.ChangelogTopicKind ||
		cl.Store != "KSTREAM-AGGREGATE-STATE-STORE-0000000003" || cl.Subtopology != 1 {
		t.Errorf("changelog %+v", cl)
	}
	if !maps.Equal(cl.Configs, map[string]string{"cleanup.policy": "compact", "message.timestamp.type": "CreateTime", "min.insync.replicas": "2"}) {
		t.Errorf("changelog configs %v", cl.Configs)
	}
	parts, tasks, err := topo.InternalTopicPartitions(cfg, func(topic string) (int, bool) {
		return 6, topic == "streams-plaintext-input"
	})
	if err != nil {
		t.Fatal(err)
	}
	if parts[rp.Name] != 6 || parts[cl.Name] != 6 || tasks[0] != 6 || tasks[1] != 6 {
		t.Errorf("partitions %v tasks %v", parts, tasks)
	}
	if _, _, err := topo.InternalTopicPartitions(cfg, func(string) (int, bool) { return 0, false }); !errors.Is(err, kstreams.ErrMissingSourceTopic) {
		t.Errorf("missing source: %v", err)
	}
	st := topo.Subtopologies()
	if len(st) != 2 || st[1].Stores[0].Kind != kstreams.KeyValueStoreKind || !st[1].Stores[0].Timestamped ||
		st[0].Sinks[0].Decorated("wc") != rp.Name || st[1].Sources[0].Decorated("wc") != rp.Name || st[1].Sinks[0].Name != "streams-wordcount-output" {
		t.Errorf("subtopologies %+v", st)
	}
}

func TestWindowedChangelogRetention(t *testing.T) {
	b := kstreams.NewStreamsBuilder()
	g := kstreams.Stream(b, []string{"in"}, kstreams.ConsumedWith[string, string](serde.String{}, serde.String{})).GroupByKey()
	kstreams.WindowedBy(g, kstreams.TimeWindowsOfSizeAndGrace(time.Minute, time.Second)).Count(kstreams.MaterializedAs[string, int64]("w"))
	kstreams.WindowedBySession(g, kstreams.SessionWindowsOfInactivityGapWithNoGrace(time.Minute)).
		Count(kstreams.Materialized[string, int64]{Name: "s", LogConfig: map[string]string{"retention.ms": "5", "segment.bytes": "100"}})
	kstreams.WindowedBy(g, kstreams.TimeWindowsOfSizeWithNoGrace(time.Minute)).
		Count(kstreams.Materialized[string, int64]{Name: "quiet", LoggingDisabled: true})
	topo, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	got := topo.InternalTopics(kstreams.InternalTopicsConfig{ApplicationID: "app", WindowStoreChangelogAdditionalRetentionMs: kstreams.DefaultWindowStoreChangelogAdditionalRetentionMs})
	if len(got) != 2 {
		t.Fatalf("%+v", got)
	}
	if got[0].Name != "app-w-changelog" || !maps.Equal(got[0].Configs, map[string]string{"cleanup.policy": "compact,delete",
		"retention.ms": "86461000", "message.timestamp.type": "CreateTime"}) {
		t.Errorf("window changelog %+v", got[0])
	}
	if got[1].Name != "app-s-changelog" || !maps.Equal(got[1].Configs, map[string]string{"cleanup.policy": "compact,delete",
		"retention.ms": "5", "segment.bytes": "100", "message.timestamp.type": "CreateTime"}) {
		t.Errorf("session changelog %+v", got[1])
	}
}

// TestPlainWindowStoreRetainingDuplicatesLogsDeleteOnly: Kafka's
// WindowStoreBuilder gives a store that retains duplicates a delete-only
// changelog, and withLoggingEnabled(config) adds to that config rather
// than replacing it.
func TestPlainWindowStoreRetainingDuplicatesLogsDeleteOnly(t *testing.T) {
	s := serde.String{}
	noop := kstreams.ProcessorFunc(func(kstreams.ProcessorContext, kstreams.Record) error { return nil })
	topo := kstreams.NewTopology()
	if err := errors.Join(topo.AddSource("source", kstreams.SourceSerdes[string, string](s, s), "in"),
		topo.AddProcessor("p", noop.Supplier(), "source"),
		topo.AddStateStore(kstreams.WindowStoreBuilder[string, string]("dups", time.Minute, time.Second, true, s, s), "p"),
		topo.AddStateStore(kstreams.WindowStoreBuilder[string, string]("dups-configured", time.Minute, time.Second, true, s, s).
			WithLoggingEnabled(map[string]string{"segment.bytes": "1000"}), "p"),
		topo.AddStateStore(kstreams.WindowStoreBuilder[string, string]("one", time.Minute, time.Second, false, s, s), "p")); err != nil {
		t.Fatal(err)
	}
	want := map[string]map[string]string{
		"app-dups-changelog":            {"cleanup.policy": "delete", "retention.ms": "86460000", "message.timestamp.type": "CreateTime"},
		"app-dups-configured-changelog": {"cleanup.policy": "delete", "retention.ms": "86460000", "message.timestamp.type": "CreateTime", "segment.bytes": "1000"},
		"app-one-changelog":             {"cleanup.policy": "compact,delete", "retention.ms": "86460000", "message.timestamp.type": "CreateTime"},
	}
	got := topo.InternalTopics(kstreams.InternalTopicsConfig{ApplicationID: "app",
		WindowStoreChangelogAdditionalRetentionMs: kstreams.DefaultWindowStoreChangelogAdditionalRetentionMs})
	if len(got) != len(want) {
		t.Fatalf("%d internal topics, want %d: %+v", len(got), len(want), got)
	}
	for _, it := range got {
		if !maps.Equal(it.Configs, want[it.Name]) {
			t.Errorf("%s: configs %v, want %v", it.Name, it.Configs, want[it.Name])
		}
	}
}
