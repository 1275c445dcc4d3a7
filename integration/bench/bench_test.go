package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/internal/testkafka"
	"github.com/stoatflow/stoatflow/internal/testregistry"
)

func TestMain(m *testing.M) {
	if spec := os.Getenv(envChild); spec != "" {
		os.Exit(runChild(spec))
	}
	os.Exit(m.Run())
}

// TestSmoke runs every workload once at tiny sizes against the test
// broker, so the harness cannot rot: each engine, ceiling and scenario
// must finish and the table must be printed.
func TestSmoke(t *testing.T) {
	bootstrap := testkafka.Bootstrap(t)
	testregistry.URL(t) // the avro workload's
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	var out, log bytes.Buffer
	args := []string{"-bootstrap", bootstrap, "-rounds", "1", "-records", "1000", "-keys", "200",
		"-latency-rate", "200", "-latency-duration", "2s", "-latency-warmup", "500ms",
		// Two of the four loads keep the smoke short. At these sizes
		// Kafka Streams' word count may fit in one commit and not be
		// measurable; the loads then take their maximum from -latency-max.
		"-latency-loads", "25,90", "-latency-max", "1000", "-restore-mb", "4", "-restore-value-size", "200"}
	if err := run(ctx, args, &out, &log); err != nil {
		t.Fatalf("bench: %v\n%s\n%s", err, out.String(), log.String())
	}
	for _, want := range []string{"| wordcount-eos | StoatFlow |", "| wordcount-eos | Kafka Streams 4.4 |", "| wordcount-eos | raw txn loop |",
		"| stateless | raw plain loop |", "| latency | StoatFlow |", "| latency @25% | Kafka Streams 4.4 |", "| latency @90% | StoatFlow |", "| wordcount-alos | Kafka Streams 4.4 |", "| windowed | StoatFlow |", "| suppress | Kafka Streams 4.4 |",
		"| ssjoin-eos | StoatFlow |", "| ssjoin-eos | Kafka Streams 4.4 |", "| streamtable-eos | StoatFlow |", "| streamtable-eos | Kafka Streams 4.4 |",
		"| restore (full) | raw WriteBatch |", "| avro | StoatFlow |", "| avro | Kafka Streams 4.4 |", "| restart after SIGKILL | StoatFlow |", "Targets:"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, out.String())
		}
	}
	t.Log("\n" + out.String())
}

func TestParseFlagsReadsEnvironment(t *testing.T) {
	t.Setenv("STOATFLOW_BENCH_RECORDS", "1234")
	t.Setenv("STOATFLOW_BENCH_LATENCY_DURATION", "7s")
	c, err := parseFlags([]string{"-keys", "9"}, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	if c.records != 1234 || c.keys != 9 || c.latencyDur != 7*time.Second {
		t.Fatalf("records=%d keys=%d latency=%v, want 1234, 9, 7s", c.records, c.keys, c.latencyDur)
	}
	c, err = parseFlags([]string{"-records", "5"}, &bytes.Buffer{})
	if err != nil || c.records != 5 {
		t.Fatalf("a flag must win over the environment: %v %v", c, err)
	}
	if _, err := parseFlags([]string{"-workloads", "nope"}, &bytes.Buffer{}); err == nil {
		t.Fatal("an unknown workload must be an error")
	}
}

func TestWordsPerLine(t *testing.T) {
	b := &bench{cfg: &config{words: 4, keys: 100}}
	for i := 0; i < 100; i++ {
		if n := wordsIn(b.line(i)); n != 4 {
			t.Fatalf("line %d has %d words, want 4: %q", i, n, b.line(i).value)
		}
	}
}

func TestTableRows(t *testing.T) {
	for _, keys := range []int{1, 7, 8, 9, 15, 16, 200, 10000} {
		b := &bench{cfg: &config{keys: keys, valueSize: 10}}
		seen := map[string]bool{}
		for n := 0; n < b.tableRows(); n++ {
			k := string(b.tableRecord(n).key)
			var j int
			if _, err := fmt.Sscanf(k, "k%08d", &j); err != nil || j >= keys || j%8 == 7 || seen[k] {
				t.Fatalf("keys=%d: row %d has key %q: outside the cardinality, a key without a row, or a repeat", keys, n, k)
			}
			seen[k] = true
		}
		want := 0
		for j := 0; j < keys; j++ {
			if j%8 != 7 {
				want++
			}
		}
		if len(seen) != want {
			t.Fatalf("keys=%d: %d rows, want %d", keys, len(seen), want)
		}
	}
}

func TestSsJoinRecords(t *testing.T) {
	b := &bench{cfg: &config{keys: 100, valueSize: 20}}
	for i := 0; i < 100; i++ {
		r := b.ssJoinRecord(i)
		side := byte('L')
		if i%2 == 1 {
			side = 'R'
		}
		if r.value[0] != side || !r.stamped || r.at != time.Duration(i)*ssJoinStep || len(r.value) != 20 {
			t.Fatalf("record %d: value %q, stamped %v at %v", i, r.value, r.stamped, r.at)
		}
	}
}

// TestStreamTableOutput pins the expected output of the streamtable-eos
// workload at its default sizes to what Kafka Streams 4.4 wrote for it.
func TestStreamTableOutput(t *testing.T) {
	b := &bench{cfg: &config{records: 100_000, keys: 10_000}}
	if n, nulls := b.streamTableOutput(); n != 187429 || nulls != 12571 {
		t.Fatalf("expected output %d records, %d without a partner; Kafka Streams wrote 187429 and 12571", n, nulls)
	}
}
