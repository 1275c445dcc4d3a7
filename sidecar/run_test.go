package sidecar

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestDescribePrintsKafkaStreamsText(t *testing.T) {
	out, stderr, err := runArgs(t, "describe", "--config", "../examples/wordcount/streams.properties")
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	want, err := os.ReadFile("../kstreams/testdata/jvm/wordcount.describe.txt")
	if err != nil {
		t.Fatal(err)
	}
	if out != string(want) {
		t.Errorf("describe differs from kafka-streams 4.4.0:\n--- got\n%s\n--- want\n%s", out, want)
	}
}

// TestRunConfigErrorsExitBeforeConnecting: every diagnostic is printed with
// its position and run fails at once, without reaching the (unroutable)
// broker.
func TestRunConfigErrorsExitBeforeConnecting(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "bad.properties")
	os.WriteFile(f, []byte("application.id=a\nbootstrap.servers=10.255.255.1:9092\nnum.stream.threads=four\ncommit.interval.ms=-5\n"+
		"stoatflow.topology=wordcount\n"), 0o644)
	start := time.Now()
	_, stderr, err := runArgs(t, "run", "--config", f)
	if !errors.Is(err, errReported) {
		t.Fatalf("err = %v\n%s", err, stderr)
	}
	for _, want := range []string{f + ":3: error: Invalid value four for configuration num.stream.threads",
		f + ":4: error: Invalid value -5 for configuration commit.interval.ms", "configuration has errors (2)"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v: it tried to connect", d)
	}
}

func TestRunRefusesUnknownTopologyAndBadArgs(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "p.properties")
	os.WriteFile(f, []byte("application.id=a\nbootstrap.servers=10.255.255.1:9092\nstoatflow.topology=nope\n"), 0o644)
	_, stderr, err := runArgs(t, "run", "--config", f)
	if !errors.Is(err, errReported) || !strings.Contains(stderr, f+":3: error: stoatflow.topology = nope is not a topology of this binary; set it to one of passthrough, ") ||
		!strings.Contains(stderr, "windowedcount, wordcount\n") {
		t.Errorf("unknown topology: %v\n%s", err, stderr)
	}
	if _, _, err := runArgs(t, "run", "--config", f, "--arg", "input"); !errors.Is(err, errUsage) {
		t.Errorf("--arg without =: %v", err)
	}
	if _, _, err := runArgs(t, "run"); !errors.Is(err, errUsage) {
		t.Errorf("run without --config: %v", err)
	}
}

// TestStreamsConfigBlockLogged: text logs carry the block verbatim (for a
// diff against the JVM application's log), JSON logs as one record.
func TestStreamsConfigBlockLogged(t *testing.T) {
	for _, format := range []string{"text", "json"} {
		cfg, err := loadConfig([]string{"../examples/wordcount/streams.properties"}, []string{"stoatflow.log.format=" + format}, nil, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		logStreamsConfig(cfg, newLogger(cfg, &buf), &buf)
		got := buf.String()
		switch format {
		case "text":
			if !strings.HasPrefix(got, "StreamsConfig values: \n\tacceptable.recovery.lag = 10000\n") {
				t.Errorf("text: %.200q", got)
			}
		case "json":
			var rec map[string]any
			if err := json.Unmarshal([]byte(got), &rec); err != nil || !strings.HasPrefix(rec["msg"].(string), "StreamsConfig values: \n") || rec["level"] != "INFO" {
				t.Errorf("json: %v %.200q", err, got)
			}
		}
	}
}
