package kgolog

import (
	"bytes"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
)

func newTest(level slog.Level) (*Logger, *bytes.Buffer, *time.Time) {
	var buf bytes.Buffer
	now := time.Unix(1000, 0)
	l := New(slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: level})), "producer").(*Logger)
	l.now = func() time.Time { return now }
	return l, &buf, &now
}

func TestLevelsMapOntoSlog(t *testing.T) {
	l, buf, _ := newTest(slog.LevelDebug)
	if l.Level() != kgo.LogLevelDebug {
		t.Fatalf("Level = %v with slog at Debug", l.Level())
	}
	l.Log(kgo.LogLevelInfo, "issuing request", "broker", 1)
	l.Log(kgo.LogLevelWarn, "metadata refresh failed", "err", "x")
	l.Log(kgo.LogLevelError, "fatal", "err", "y")
	out := buf.String()
	for _, want := range []string{`level=DEBUG msg="issuing request" kafka_client=producer broker=1`,
		`level=WARN msg="metadata refresh failed"`, `level=ERROR msg=fatal`} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if l, _, _ := newTest(slog.LevelInfo); l.Level() != kgo.LogLevelWarn {
		t.Errorf("Level = %v with slog at Info, want Warn (franz-go's Info goes to Debug)", l.Level())
	}
}

func TestConnectionFailureIsExplainedAndRateLimited(t *testing.T) {
	l, buf, now := newTest(slog.LevelInfo)
	fail := func(addr, cause string) {
		l.Log(kgo.LogLevelWarn, "unable to open connection to broker", "addr", addr, "broker", "seed_0", "err", cause)
	}
	fail("127.0.0.1:1", "dial tcp 127.0.0.1:1: connect: connection refused")
	for range 5 {
		*now = now.Add(time.Second)
		fail("127.0.0.1:1", "dial tcp 127.0.0.1:1: connect: connection refused")
	}
	fail("127.0.0.1:2", "remote error: tls: handshake failure")
	out := buf.String()
	if n := strings.Count(out, "cannot connect to Kafka broker"); n != 2 {
		t.Fatalf("%d entries, want one per address and cause within the interval:\n%s", n, out)
	}
	if !strings.Contains(out, "broker=127.0.0.1:1") || !strings.Contains(out, "is a broker listening") {
		t.Errorf("refused connection lacks its address or what to check:\n%s", out)
	}
	if !strings.Contains(out, "ssl.*") {
		t.Errorf("TLS failure lacks what to check:\n%s", out)
	}
	*now = now.Add(RepeatInterval)
	fail("127.0.0.1:1", "dial tcp 127.0.0.1:1: connect: connection refused")
	if !strings.Contains(buf.String(), "repeats_not_logged=5") {
		t.Errorf("the repeat after the interval does not count what was left out:\n%s", buf.String())
	}
}

func TestHealthClearsWhenABrokerAnswers(t *testing.T) {
	h := NewHealth()
	if _, ok := h.Current(); ok {
		t.Fatal("a new Health has a failure")
	}
	meta := kgo.BrokerMetadata{Host: "10.0.0.7", Port: 9093}
	h.OnBrokerConnect(meta, 0, nil, errors.New("tls: failed to verify certificate: x509: certificate signed by unknown authority"))
	l, _, _ := newTest(slog.LevelWarn)
	l.health = h
	l.Log(kgo.LogLevelWarn, "unable to initialize sasl", "addr", "10.0.0.8:9094", "err", "SASL_AUTHENTICATION_FAILED")
	f, ok := h.Current()
	if !ok || f.Count != 2 || f.Broker != "10.0.0.8:9094" || !strings.Contains(f.String(), "sasl.mechanism") {
		t.Fatalf("after two failures: %+v (%s)", f, f)
	}
	h.OnBrokerRead(meta, 36, 0, 0, 0, nil) // a refused SaslAuthenticate is read too
	if _, ok := h.Current(); !ok {
		t.Fatal("a SASL response cleared the failure")
	}
	h.OnBrokerRead(meta, 3, 0, 0, 0, nil) // metadata answered
	if f, ok := h.Current(); ok {
		t.Fatalf("a metadata response left the failure: %s", f)
	}
}
