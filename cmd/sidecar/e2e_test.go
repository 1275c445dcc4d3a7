package main

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/common/expfmt"

	"github.com/stoatflow/stoatflow/internal/sidecartest"
	"github.com/stoatflow/stoatflow/internal/testkafka"
)

// count queries word's count at an isolation level: -1 when absent (404).
func count(t *testing.T, base, store, word, iso string) int64 {
	t.Helper()
	code, body := sidecartest.Get(t, fmt.Sprintf("%s/stores/%s/keys/%s?isolation=%s", base, store, word, iso))
	switch code {
	case http.StatusNotFound:
		return -1
	case http.StatusOK:
	default:
		t.Fatalf("query %s %s: %d %s", word, iso, code, body)
	}
	var r struct {
		Value     int64  `json:"value"`
		Isolation string `json:"isolation"`
	}
	if err := json.Unmarshal(body, &r); err != nil || r.Isolation != iso {
		t.Fatalf("query answer %s: %v", body, err)
	}
	return r.Value
}

func scrapeMetrics(t *testing.T, base string) map[string]float64 {
	t.Helper()
	code, body := sidecartest.Get(t, base+"/metrics")
	if code != http.StatusOK {
		t.Fatalf("/metrics: %d", code)
	}
	var parser expfmt.TextParser
	fams, err := parser.TextToMetricFamilies(bytes.NewReader(body))
	if err != nil {
		t.Fatalf("/metrics is not Prometheus text: %v\n%s", err, body)
	}
	out := map[string]float64{}
	for name, f := range fams {
		for _, m := range f.GetMetric() {
			key := name
			for _, l := range m.GetLabel() {
				key += "," + l.GetName() + "=" + l.GetValue()
			}
			switch {
			case m.Gauge != nil:
				out[key] = m.GetGauge().GetValue()
			case m.Counter != nil:
				out[key] = m.GetCounter().GetValue()
			case m.Histogram != nil:
				out[key] = float64(m.GetHistogram().GetSampleCount())
			}
		}
	}
	return out
}

// TestSidecarRunsWordCountServesQueriesAndRestartsWithoutReplay runs the
// built binary as a user would against the real broker: word count under
// exactly_once_v2 with a 5 s commit interval, queried over HTTP while records
// flow. READ_COMMITTED answers are always counts the committed output
// holds; READ_UNCOMMITTED answers run ahead of them between commits. After
// SIGTERM, a restart restores no changelog record.
func TestSidecarRunsWordCountServesQueriesAndRestartsWithoutReplay(t *testing.T) {
	bootstrap := testkafka.Bootstrap(t)
	bin := sidecartest.Build(t, ".")
	in, out := testkafka.Topic(t, "in"), testkafka.Topic(t, "out")
	testkafka.CreateTopics(t, bootstrap, 2, in, out)
	dir := t.TempDir()
	listen := sidecartest.FreeAddr(t)
	base := "http://" + listen
	props := filepath.Join(dir, "streams.properties")
	appID := testkafka.Topic(t, "app")
	os.WriteFile(props, []byte(strings.Join([]string{
		"application.id=" + appID,
		"bootstrap.servers=" + bootstrap,
		"processing.guarantee=exactly_once_v2",
		"commit.interval.ms=5000",
		"default.key.serde=org.apache.kafka.common.serialization.Serdes$StringSerde",
		"default.value.serde=org.apache.kafka.common.serialization.Serdes$StringSerde",
		"statestore.cache.max.bytes=0",
		"replication.factor=1",
		"state.dir=" + filepath.Join(dir, "state"),
		"session.timeout.ms=10000",
		"stoatflow.topology=wordcount",
		"stoatflow.http.listen=" + listen,
		"stoatflow.shutdown.timeout-ms=30000",
	}, "\n")+"\n"), 0o644)
	args := []string{"run", "--config", props, "--arg", "input=" + in, "--arg", "output=" + out}

	p := sidecartest.Start(t, bin, args...)
	p.WaitReady(t, base)
	if !strings.Contains(p.Output(), "StreamsConfig values: \n\tacceptable.recovery.lag") {
		t.Errorf("no StreamsConfig block in the log:\n%s", sidecartest.Tail(p.Output(), 20))
	}
	var md struct {
		Stores map[string]struct {
			Kind string `json:"kind"`
		} `json:"stores"`
	}
	_, body := sidecartest.Get(t, base+"/metadata")
	if err := json.Unmarshal(body, &md); err != nil || len(md.Stores) != 1 {
		t.Fatalf("/metadata: %s %v", body, err)
	}
	var store string
	for s := range md.Stores {
		store = s
	}

	// Feed lines in rounds while querying both isolation levels.
	const rounds = 6
	words := []string{"alpha", "beta", "gamma"}
	var committedSeen, uncommittedSeen []int64
	ahead := false
	for r := 0; r < rounds; r++ {
		testkafka.Produce(t, bootstrap,
			testkafka.Record{Topic: in, Partition: testkafka.AnyPartition, Key: []byte("l"), Value: []byte("alpha beta alpha")},
			testkafka.Record{Topic: in, Partition: testkafka.AnyPartition, Key: []byte("m"), Value: []byte("gamma alpha")})
		until := time.Now().Add(2 * time.Second)
		for time.Now().Before(until) {
			rc := count(t, base, store, "alpha", "READ_COMMITTED")
			ru := count(t, base, store, "alpha", "READ_UNCOMMITTED")
			committedSeen = append(committedSeen, rc)
			uncommittedSeen = append(uncommittedSeen, ru)
			if ru > rc {
				ahead = true
			}
			if ru < rc {
				t.Errorf("READ_UNCOMMITTED %d behind READ_COMMITTED %d", ru, rc)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	const wantAlpha = 3 * rounds
	deadline := time.Now().Add(60 * time.Second)
	for count(t, base, store, "alpha", "READ_COMMITTED") != wantAlpha {
		if time.Now().After(deadline) {
			t.Fatalf("alpha never reached %d committed:\n%s", wantAlpha, sidecartest.Tail(p.Output(), 30))
		}
		time.Sleep(200 * time.Millisecond)
	}
	if !ahead {
		t.Errorf("READ_UNCOMMITTED never saw pending writes ahead of READ_COMMITTED: %v / %v", uncommittedSeen, committedSeen)
	}
	// Every READ_COMMITTED answer is a count in the committed output.
	recs, err := testkafka.ReadCommitted(bootstrap, out, 5*rounds, 60*time.Second, time.Second)
	if err != nil {
		t.Fatalf("reading output: %v (%d records)", err, len(recs))
	}
	outCounts := map[int64]bool{-1: true}
	for _, rec := range recs {
		if string(rec.Key) == "alpha" {
			outCounts[int64(binary.BigEndian.Uint64(rec.Value))] = true
		}
	}
	for _, c := range committedSeen {
		if !outCounts[c] {
			t.Errorf("READ_COMMITTED answered %d for alpha, a count the committed output never had (%v)", c, outCounts)
		}
	}
	for _, w := range words[1:] {
		if got := count(t, base, store, w, "READ_COMMITTED"); got != rounds {
			t.Errorf("%s = %d, want %d", w, got, rounds)
		}
	}
	if code, _ := sidecartest.Get(t, base+"/stores/"+store+"/keys/zeta"); code != http.StatusNotFound {
		t.Errorf("absent key: %d, want 404", code)
	}
	if code, _ := sidecartest.Get(t, base+"/stores/nope/keys/alpha"); code != http.StatusNotFound {
		t.Errorf("unknown store: %d, want 404", code)
	}
	if code, _ := sidecartest.Get(t, base+"/stores/"+store+"/keys/alpha?isolation=SOMETIMES"); code != http.StatusBadRequest {
		t.Errorf("bad isolation: %d, want 400", code)
	}
	code, body := sidecartest.Get(t, base+"/stores/"+store+"/all?isolation=READ_COMMITTED")
	var all struct {
		Results []struct {
			Key   string `json:"key"`
			Value int64  `json:"value"`
		} `json:"results"`
	}
	if err := json.Unmarshal(body, &all); code != http.StatusOK || err != nil || len(all.Results) != 3 || all.Results[0].Key != "alpha" {
		t.Errorf("all: %d %s", code, body)
	}

	m := scrapeMetrics(t, base)
	gotStoreGauge := false
	for k := range m {
		if strings.HasPrefix(k, "stoatflow_store_uncommitted_bytes,store="+store+",task=") {
			gotStoreGauge = true
		}
	}
	if !gotStoreGauge {
		t.Errorf("no stoatflow_store_uncommitted_bytes for %s", store)
	}
	if _, ok := m["stoatflow_barrier_epoch_uncommitted_bytes"]; !ok {
		t.Error("no stoatflow_barrier_epoch_uncommitted_bytes")
	}
	clientState := false
	for k, v := range m {
		if strings.HasPrefix(k, "kafka_streams_stream_metrics_client_state,client_id="+appID+"-") && strings.Contains(k, ",process_id=") && v == 2 {
			clientState = true
		}
	}
	threadCommits := 0.0
	for k, v := range m {
		if strings.HasPrefix(k, "kafka_streams_stream_thread_metrics_commit_total,thread_id="+appID+"-") && strings.HasSuffix(k, "-StreamThread-1") {
			threadCommits = v
		}
	}
	if threadCommits < 1 {
		t.Error("no kafka_streams_stream_thread_metrics_commit_total{thread_id=<client.id>-StreamThread-1}")
	}
	if !clientState {
		t.Error("no kafka_streams_stream_metrics_client_state{client_id,process_id} = 2 (RUNNING)")
	}
	if m["stoatflow_barrier_completed_total"] < 1 {
		t.Errorf("stoatflow_barrier_completed_total = %v", m["stoatflow_barrier_completed_total"])
	}
	p.Stop(t)
	if !strings.Contains(p.Output(), "stopped cleanly") {
		t.Errorf("no clean stop:\n%s", sidecartest.Tail(p.Output(), 20))
	}

	// Restart: the stores are clean, nothing is replayed.
	p2 := sidecartest.Start(t, bin, args...)
	p2.WaitReady(t, base)
	m = scrapeMetrics(t, base)
	restored, ok := m["stoatflow_restoration_records_restored_total,store="+store]
	if !ok || restored != 0 {
		t.Errorf("restart restored %v records (reported %v), want 0:\n%s", restored, ok, sidecartest.Tail(p2.Output(), 30))
	}
	if got := count(t, base, store, "alpha", "READ_COMMITTED"); got != wantAlpha {
		t.Errorf("after restart alpha = %d, want %d", got, wantAlpha)
	}
	p2.Stop(t)
}
