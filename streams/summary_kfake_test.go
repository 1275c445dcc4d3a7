package streams_test

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"log/slog"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/internal/testkafka"
	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/serde"
	"github.com/stoatflow/stoatflow/streams"
)

// tickingPassThrough forwards every record and runs a wall-clock
// punctuator every 20 ms that does nothing but count its runs.
type tickingPassThrough struct {
	ctx  kstreams.ProcessorContext
	runs *atomic.Int64
}

func (p *tickingPassThrough) Init(ctx kstreams.ProcessorContext) error {
	p.ctx = ctx
	_, err := ctx.Schedule(20*time.Millisecond, kstreams.WallClockTime, func(int64) error {
		p.runs.Add(1)
		return nil
	})
	return err
}

func (p *tickingPassThrough) Process(r kstreams.Record) error { return p.ctx.Forward(r) }
func (p *tickingPassThrough) Close() error                    { return nil }

// summaryLine is one stream thread's summary, as logged.
type summaryLine struct {
	Thread         int   `json:"thread"`
	Records        int64 `json:"records"`
	Punctuators    int64 `json:"punctuators"`
	Polls          int64 `json:"polls"`
	CommittedTasks int64 `json:"committed_tasks"`
	SinceMs        int64 `json:"since_ms"`
}

func summaries(t *testing.T, logs *lockedBuffer) []summaryLine {
	t.Helper()
	var out []summaryLine
	dec := json.NewDecoder(bytes.NewReader([]byte(logs.String())))
	for dec.More() {
		var raw map[string]json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			t.Fatal(err)
		}
		if string(raw["msg"]) != `"processed records, ran punctuators, polled and committed tasks since the last summary"` {
			continue
		}
		var l summaryLine
		b, _ := json.Marshal(raw)
		if err := json.Unmarshal(b, &l); err != nil {
			t.Fatal(err)
		}
		out = append(out, l)
	}
	return out
}

// TestKfakeThreadLogsItsSummaryEveryInterval: with
// log.summary.interval.ms=300 the stream thread logs, every 300 ms, the
// records its tasks processed (each input record once; those the
// deserialization handler skipped not at all, as Kafka Streams drops them
// before its tasks), the punctuations that ran, its polls and the tasks
// its commits committed.
func TestKfakeThreadLogsItsSummaryEveryInterval(t *testing.T) {
	_, addr := startBroker(t)
	createTopics(t, addr, 1, "in", "out")
	var runs atomic.Int64
	b := kstreams.NewStreamsBuilder()
	in := kstreams.Stream(b, []string{"in"}, kstreams.ConsumedWith[string, int64](serde.String{}, serde.Long{}))
	kstreams.Process[string, int64](in, func() kstreams.Processor { return &tickingPassThrough{runs: &runs} }, "").
		To("out", kstreams.ProducedWith[string, int64](serde.String{}, serde.Long{}))
	topo, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	var logs lockedBuffer
	cfg := appConfig(t, addr, "summary", t.TempDir(), "log.summary.interval.ms=300",
		"deserialization.exception.handler=org.apache.kafka.streams.errors.LogAndContinueExceptionHandler")
	started := time.Now()
	ks := startApp(t, topo, cfg, streams.WithLogger(slog.New(slog.NewJSONHandler(&logs, nil))))
	const good, bad = 20, 5
	var recs []testkafka.Record
	for i := range good + bad {
		v := binary.BigEndian.AppendUint64(nil, uint64(i))
		if i%5 == 4 {
			v = []byte("bad") // not a Long: skipped by the handler
		}
		recs = append(recs, testkafka.Record{Topic: "in", Partition: 0, Key: []byte(fmt.Sprint(i)), Value: v})
	}
	testkafka.Produce(t, addr, recs...)
	if _, err := testkafka.ReadCommitted(addr, "out", good, time.Minute, 0); err != nil {
		t.Fatal(err)
	}
	var lines []summaryLine
	var records int64
	for deadline := time.Now().Add(10 * time.Second); ; {
		lines = summaries(t, &logs)
		records = 0
		for _, l := range lines {
			records += l.Records
		}
		// Three summaries at least: two intervals measured.
		if records >= good && len(lines) >= 3 || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	punctuationsRun := runs.Load()
	elapsed := time.Since(started)
	closeApp(t, ks)
	if records != good {
		t.Fatalf("the summaries count %d records, want %d (%d skipped by the handler not counted): %+v", records, good, bad, lines)
	}
	var punctuators, polls, committed int64
	for i, l := range lines {
		punctuators += l.Punctuators
		polls += l.Polls
		committed += l.CommittedTasks
		if l.Thread != 1 {
			t.Errorf("summary %d names thread %d", i+1, l.Thread)
		}
		if l.Polls < 1 {
			t.Errorf("summary %d: %d polls, want at least the one of the loop's iteration that logged it", i+1, l.Polls)
		}
		if i > 0 && (l.SinceMs <= 300 || l.SinceMs > 300+1000) {
			t.Errorf("summary %d came %d ms after the one before, want just over 300", i+1, l.SinceMs)
		}
	}
	// The first comes at the loop's first iteration, then one every 300
	// ms or a little more.
	if most := elapsed.Milliseconds()/300 + 1; int64(len(lines)) > most || len(lines) < 3 {
		t.Errorf("%d summaries in %v, want 3 to %d", len(lines), elapsed, most)
	}
	if punctuators < 1 || punctuators > punctuationsRun {
		t.Errorf("the summaries count %d punctuations, the punctuator ran %d times", punctuators, punctuationsRun)
	}
	if committed < 1 {
		t.Errorf("the summaries count no committed task")
	}
}
