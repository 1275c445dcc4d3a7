package streams

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/compat"
)

// summaryLines returns the summary lines logged as JSON to buf.
func summaryLines(t *testing.T, buf *bytes.Buffer) []map[string]any {
	t.Helper()
	var out []map[string]any
	dec := json.NewDecoder(bytes.NewReader(buf.Bytes()))
	for dec.More() {
		var m map[string]any
		if err := dec.Decode(&m); err != nil {
			t.Fatal(err)
		}
		if m["msg"] == "processed records, ran punctuators, polled and committed tasks since the last summary" {
			out = append(out, m)
		}
	}
	return out
}

// TestSummaryComesEveryIntervalWithWhatTheThreadDid: as Kafka Streams'
// StreamThread, the first summary comes at once, the next only once more
// than log.summary.interval.ms has passed, each with the counts since the
// one before; records dropped before the topology do not count.
func TestSummaryComesEveryIntervalWithWhatTheThreadDid(t *testing.T) {
	var buf bytes.Buffer
	th := &streamThread{s: &KafkaStreams{cfg: &compat.Config{LogSummaryInterval: 100 * time.Millisecond}},
		log: slog.New(slog.NewJSONHandler(&buf, nil)).With("thread", 1)}
	t0 := time.UnixMilli(1_700_000_000_000)
	th.summary.started = t0
	th.summary.polls = 1
	th.maybeLogSummary(t0.Add(20 * time.Millisecond))
	th.summary.polls, th.summary.records, th.summary.skipped = 3, 12, 2
	th.summary.punctuators, th.summary.committed = 4, 1
	th.maybeLogSummary(t0.Add(120 * time.Millisecond)) // 100 ms after the first: not more than the interval
	th.summary.polls++
	th.maybeLogSummary(t0.Add(121 * time.Millisecond))
	th.maybeLogSummary(t0.Add(200 * time.Millisecond))
	lines := summaryLines(t, &buf)
	if len(lines) != 2 {
		t.Fatalf("%d summaries, want 2:\n%s", len(lines), buf.String())
	}
	for i, want := range []map[string]float64{
		{"records": 0, "punctuators": 0, "polls": 1, "committed_tasks": 0, "since_ms": 20, "thread": 1},
		{"records": 10, "punctuators": 4, "polls": 4, "committed_tasks": 1, "since_ms": 101, "thread": 1},
	} {
		for k, v := range want {
			if got, ok := lines[i][k].(float64); !ok || got != v {
				t.Errorf("summary %d: %s = %v, want %v", i+1, k, lines[i][k], v)
			}
		}
		if lines[i]["level"] != "INFO" {
			t.Errorf("summary %d at level %v, want INFO", i+1, lines[i]["level"])
		}
	}
	if th.summary.polls != 0 || th.summary.records != 0 || th.summary.skipped != 0 || !th.summary.last.Equal(t0.Add(121*time.Millisecond)) {
		t.Errorf("counts not started afresh after the summary: %+v", th.summary)
	}
}

// TestNoSummaryWithoutAPositiveInterval: 0 or a negative
// log.summary.interval.ms turns the summary off, as in Kafka Streams.
func TestNoSummaryWithoutAPositiveInterval(t *testing.T) {
	for _, interval := range []time.Duration{0, -time.Millisecond} {
		var buf bytes.Buffer
		th := &streamThread{s: &KafkaStreams{cfg: &compat.Config{LogSummaryInterval: interval}},
			log: slog.New(slog.NewJSONHandler(&buf, nil))}
		th.summary.started = time.Now()
		th.maybeLogSummary(time.Now())
		th.maybeLogSummary(time.Now().Add(time.Hour))
		if buf.Len() != 0 {
			t.Errorf("interval %v logged: %s", interval, buf.String())
		}
	}
}
