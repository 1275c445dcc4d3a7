package integration

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/examples/windowedcount"
	"github.com/stoatflow/stoatflow/examples/wordcount"
	"github.com/stoatflow/stoatflow/internal/testkafka"
	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/serde"
	"github.com/stoatflow/stoatflow/sidecar"
)

// shadowReport is the part of the JSON document GET /shadow answers
// (docs/migration.md) that these tests read.
type shadowReport struct {
	Total struct {
		Matched          int64 `json:"matched"`
		Mismatched       int64 `json:"mismatched"`
		Missing          int64 `json:"missing"`
		Pending          int64 `json:"pending"`
		ReadKafkaStreams int64 `json:"read_kafka_streams"`
		ReadStoatFlow    int64 `json:"read_stoatflow"`
	} `json:"total"`
	Divergences []shadowDivergence `json:"divergences"`
}

// shadowDivergence is one divergence of a shadowReport; a side without a
// record is nil.
type shadowDivergence struct {
	Kind         string      `json:"kind"`
	Topic        string      `json:"topic"`
	Key          string      `json:"key"`
	KafkaStreams *shadowSeen `json:"kafka_streams"`
	StoatFlow    *shadowSeen `json:"stoatflow"`
}

// shadowSeen is one side's record in a shadowDivergence.
type shadowSeen struct {
	Partition int32  `json:"partition"`
	Offset    int64  `json:"offset"`
	Value     string `json:"value"`
}

// String is the divergence in one line, as the shadow's log prints it.
func (d shadowDivergence) String() string {
	side := func(s *shadowSeen) string {
		if s == nil {
			return "none"
		}
		return fmt.Sprintf("%s (partition %d, offset %d)", s.Value, s.Partition, s.Offset)
	}
	return fmt.Sprintf("%s: topic %s key %s: kafka-streams %s, stoatflow %s", d.Kind, d.Topic, d.Key, side(d.KafkaStreams), side(d.StoatFlow))
}

// shadowRun is one `sidecar shadow` running in the test process.
type shadowRun struct {
	url    string
	cancel context.CancelFunc
	done   chan struct{}
	err    error
	out    bytes.Buffer
	errOut bytes.Buffer
}

func startShadow(t *testing.T, topologies sidecar.Topologies, args ...string) *shadowRun {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	ctx, cancel := context.WithCancel(context.Background())
	s := &shadowRun{url: "http://" + addr, cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(s.done)
		s.err = sidecar.Run(ctx, topologies, append([]string{"shadow", "--listen", addr}, args...), &s.out, &s.errOut)
	}()
	t.Cleanup(func() { s.stop() })
	return s
}

func (s *shadowRun) stop() {
	s.cancel()
	<-s.done
}

// waitCompared polls /shadow until n records per side have been read and
// compared, and returns the report.
func (s *shadowRun) waitCompared(t *testing.T, n int64, timeout time.Duration) shadowReport {
	t.Helper()
	deadline := time.Now().Add(timeout)
	var last shadowReport
	for time.Now().Before(deadline) {
		select {
		case <-s.done:
			t.Fatalf("shadow ended: %v\n%s%s", s.err, s.out.String(), s.errOut.String())
		default:
		}
		resp, err := http.Get(s.url + "/shadow")
		if err == nil {
			last = shadowReport{}
			err = json.NewDecoder(resp.Body).Decode(&last)
			resp.Body.Close()
			tot := last.Total
			if err == nil && tot.ReadKafkaStreams >= n && tot.ReadStoatFlow >= n && tot.Matched+tot.Mismatched >= n {
				return last
			}
		}
		time.Sleep(500 * time.Millisecond)
	}
	t.Fatalf("after %v the shadow compared %+v, want %d records per side\n%s", timeout, last.Total, n, s.errOut.String())
	return last
}

func (s *shadowRun) metrics(t *testing.T) string {
	t.Helper()
	resp, err := http.Get(s.url + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var b bytes.Buffer
	_, _ = b.ReadFrom(resp.Body)
	return b.String()
}

// TestShadowWordCountAgainstKafkaStreams runs the Kafka Streams 4.4 word
// count on the broker and `sidecar shadow` beside it, twice: the true Go
// twin reports every update matched and exits 0; a Go twin whose one
// operator differs (a map() that adds 100 to the count of "fox") reports
// exactly the updates of "fox" as mismatches, with both values, and exits 3.
// It is not parallel: the shadow's grace period is wall-clock time, which
// other tests' load would eat into.
func TestShadowWordCountAgainstKafkaStreams(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	const partitions = 2
	a := newWordCountApp(t, partitions)
	props := filepath.Join(root, "examples", "wordcount", "streams.properties")
	ref, err := StartReference(ctx, ReferenceOptions{App: wordcount.Name, Configs: []string{props}, Set: a.config(t, nil),
		Args: map[string]string{"input": a.in, "output": a.out}})
	if err != nil {
		t.Fatal(err)
	}
	defer ref.Stop(30 * time.Second) //nolint:errcheck // the test's checks are on the outputs
	if err := ref.WaitState(ctx, "RUNNING"); err != nil {
		t.Fatalf("%v\n%s", err, ref.Stderr())
	}
	a.feed(t, sampleLines, partitions)
	updates, total := expectedUpdates(sampleLines)

	shadowArgs := func(id string) []string {
		args := []string{"--config", props, "--grace", "5s", "--drain", "5s",
			"--arg", "input=" + a.in, "--arg", "output=" + a.out, "--application-id", id, "--suffix", "-" + id}
		for k, v := range a.config(t, map[string]string{"state.dir": t.TempDir()}) {
			args = append(args, "--set", k+"="+v)
		}
		return args
	}

	for _, outputs := range []string{"topics", "memory"} {
		t.Run(outputs, func(t *testing.T) { shadowWordCount(t, a, outputs, updates, total, shadowArgs) })
	}
}

// shadowWordCount runs the two shadows of TestShadowWordCountAgainstKafkaStreams
// with StoatFlow's outputs in shadow topics or in memory.
func shadowWordCount(t *testing.T, a *wordCountApp, outputs string, updates map[string][]int64, total int,
	shadowArgs func(id string) []string) {
	args := func(id string) []string {
		return append(shadowArgs(a.appID+"-"+id+"-"+outputs), "--outputs", outputs)
	}
	t.Run("twin", func(t *testing.T) {
		s := startShadow(t, sidecar.Topologies{wordcount.Name: wordcount.Build}, args("shadow")...)
		r := s.waitCompared(t, int64(total), 3*time.Minute)
		if r.Total.Matched != int64(total) || r.Total.Mismatched != 0 || len(r.Divergences) != 0 {
			t.Errorf("report %+v, divergences %v", r.Total, r.Divergences)
		}
		m := s.metrics(t)
		if want := fmt.Sprintf(`stoatflow_shadow_matched{topic=%q,mode="sequence"} %d`, a.out, total); !strings.Contains(m, want) {
			t.Errorf("metrics lack %s:\n%s", want, grepLines(m, "stoatflow_shadow"))
		}
		s.stop()
		if s.err != nil {
			t.Fatalf("shadow: %v\n%s", s.err, s.errOut.String())
		}
		if want := fmt.Sprintf("shadow comparison (sequence): %d matched, 0 mismatched, 0 missing, 0 pending", total); !strings.Contains(s.out.String(), want) {
			t.Errorf("summary lacks %q:\n%s", want, s.out.String())
		}
		checkShadowWrites(t, a, outputs, "shadow", r.Total.ReadKafkaStreams, total)
	})

	t.Run("one operator different", func(t *testing.T) {
		changed := func(args map[string]string) (*kstreams.Topology, error) {
			b := kstreams.NewStreamsBuilder()
			lines := kstreams.Stream[string, string](b, []string{args["input"]})
			words := kstreams.FlatMapValues(lines, wordcount.Words)
			counts := kstreams.GroupBy(words, func(_, w string) string { return w }).Count()
			out := kstreams.Map(counts.ToStream(), func(w string, n int64) (string, int64) {
				if w == "fox" {
					n += 100
				}
				return w, n
			})
			out.To(args["output"], kstreams.ProducedWith[string, int64](serde.String{}, serde.Long{}))
			return b.Build()
		}
		s := startShadow(t, sidecar.Topologies{wordcount.Name: changed}, args("shadow-changed")...)
		r := s.waitCompared(t, int64(total), 3*time.Minute)
		fox := len(updates["fox"])
		if fox == 0 {
			t.Fatal("the sample has no fox")
		}
		if r.Total.Mismatched != int64(fox) || r.Total.Matched != int64(total-fox) || len(r.Divergences) != fox {
			t.Fatalf("report %+v, divergences %v", r.Total, r.Divergences)
		}
		for i, d := range r.Divergences {
			// A Long is no printable text: the report gives it in hex.
			long := func(n int64) string {
				var b [8]byte
				binary.BigEndian.PutUint64(b[:], uint64(n))
				return "0x" + hex.EncodeToString(b[:])
			}
			if d.Kind != "mismatch" || d.Topic != a.out || d.Key != `"fox"` || d.KafkaStreams == nil || d.StoatFlow == nil ||
				d.KafkaStreams.Value != long(updates["fox"][i]) || d.StoatFlow.Value != long(updates["fox"][i]+100) ||
				d.KafkaStreams.Partition != d.StoatFlow.Partition {
				t.Errorf("divergence %d: %s", i, d)
			}
		}
		s.stop()
		if code := sidecar.ExitCode(s.err, &bytes.Buffer{}); code != 3 {
			t.Errorf("exit %d (%v), want 3", code, s.err)
		}
		if !strings.Contains(s.out.String(), fmt.Sprintf("%d mismatched", fox)) || !strings.Contains(s.out.String(), `key "fox"`) {
			t.Errorf("summary:\n%s", s.out.String())
		}
		t.Logf("summary:\n%s", s.out.String())
		if !strings.Contains(s.errOut.String(), "shadow divergence") {
			t.Errorf("no divergence logged:\n%s", s.errOut.String())
		}
		checkShadowWrites(t, a, outputs, "shadow-changed", r.Total.ReadKafkaStreams, total)
	})
}

// checkShadowWrites checks where the shadow's outputs went: with
// --outputs memory no shadow topic exists and the application's output
// holds only Kafka Streams' records.
func checkShadowWrites(t *testing.T, a *wordCountApp, outputs, id string, readKafkaStreams int64, total int) {
	t.Helper()
	if readKafkaStreams != int64(total) {
		t.Errorf("the shadow read %d records of %s, Kafka Streams wrote %d", readKafkaStreams, a.out, total)
	}
	topic := a.out + "-" + a.appID + "-" + id + "-" + outputs
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	md, err := testkafka.Admin(t, a.bootstrap).Metadata(ctx, topic)
	if err != nil {
		t.Fatal(err)
	}
	_, exists := md.Topics[topic]
	exists = exists && md.Topics[topic].Err == nil
	if exists != (outputs == "topics") {
		t.Errorf("with --outputs %s, shadow topic %s exists: %v", outputs, topic, exists)
	}
}

func grepLines(s, sub string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// TestShadowLatestWindowedCountWithCaching runs the Kafka Streams windowed
// count with its record cache on, and the Go twin in the shadow's latest
// mode: the engines may forward different intermediate counts, but every
// key and window ends with the same count, and the report says so. It is
// not parallel, for the reason TestShadowWordCountAgainstKafkaStreams is
// not.
func TestShadowLatestWindowedCountWithCaching(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	const partitions = 2
	a := newWordCountApp(t, partitions)
	props := filepath.Join(root, "examples", "windowedcount", "streams.properties")
	cached := map[string]string{"statestore.cache.max.bytes": "10485760"}
	ref, err := StartReference(ctx, ReferenceOptions{App: windowedcount.Name, Configs: []string{props}, Set: a.config(t, cached),
		Args: map[string]string{"input": a.in, "output": a.out}})
	if err != nil {
		t.Fatal(err)
	}
	defer ref.Stop(30 * time.Second) //nolint:errcheck // the test's checks are on the outputs
	if err := ref.WaitState(ctx, "RUNNING"); err != nil {
		t.Fatalf("%v\n%s", err, ref.Stderr())
	}
	var recs []testkafka.Record
	windows := map[string]bool{}
	for i := 0; i < 300; i++ {
		key := fmt.Sprintf("k%d", i%6)
		ts := epochBase + int64(i)*200
		recs = append(recs, testkafka.Record{Topic: a.in, Partition: int32(i % partitions), Key: []byte(key), Value: []byte("v"),
			Timestamp: time.UnixMilli(ts)})
		windows[fmt.Sprintf("%s@%d", key, ts/10_000)] = true
	}
	testkafka.Produce(t, a.bootstrap, recs...)

	id := a.appID + "-shadow"
	// The grace period is counted from a key's last update on either side:
	// Kafka Streams' output is all there when the shadow starts, so it
	// must cover the Go topology's start (slow on a loaded machine), or
	// keys are reported missing for a while before they match.
	args := []string{"--config", props, "--mode", "latest", "--grace", "12s", "--drain", "5s",
		"--arg", "input=" + a.in, "--arg", "output=" + a.out, "--application-id", id, "--suffix", "-" + id}
	for k, v := range a.config(t, map[string]string{"state.dir": t.TempDir(), "statestore.cache.max.bytes": "10485760"}) {
		args = append(args, "--set", k+"="+v)
	}
	s := startShadow(t, sidecar.Topologies{windowedcount.Name: windowedcount.Build}, args...)
	want := int64(len(windows))
	deadline := time.Now().Add(3 * time.Minute)
	var r shadowReport
	for time.Now().Before(deadline) {
		r = s.report(t)
		if r.Total.Matched == want && r.Total.Pending == 0 {
			break
		}
		time.Sleep(500 * time.Millisecond)
	}
	if r.Total.Matched != want || r.Total.Mismatched != 0 || r.Total.Missing != 0 || len(r.Divergences) != 0 {
		t.Fatalf("report %+v (want %d key/windows matched), divergences %v\n%s", r.Total, want, r.Divergences, s.errOut.String())
	}
	s.stop()
	if s.err != nil {
		t.Fatalf("shadow: %v\n%s", s.err, s.errOut.String())
	}
	if !strings.Contains(s.out.String(), fmt.Sprintf("shadow comparison (latest): %d matched, 0 mismatched, 0 missing", want)) {
		t.Errorf("summary:\n%s", s.out.String())
	}
	t.Logf("records read: kafka streams %d, stoatflow %d, for %d key/windows", r.Total.ReadKafkaStreams, r.Total.ReadStoatFlow, want)
}

func (s *shadowRun) report(t *testing.T) shadowReport {
	t.Helper()
	var r shadowReport
	resp, err := http.Get(s.url + "/shadow")
	if err != nil {
		return r
	}
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(&r); err != nil {
		t.Fatal(err)
	}
	return r
}
