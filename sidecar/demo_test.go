package sidecar

import (
	"context"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/internal/sidecartest"
	"github.com/stoatflow/stoatflow/internal/testkafka"
)

// TestDemoRunsOnEmbeddedBroker runs `sidecar demo` with no broker: it
// must count the sample lines, show READ_UNCOMMITTED ahead of
// READ_COMMITTED before a commit and equal after it, and finish by itself.
func TestDemoRunsOnEmbeddedBroker(t *testing.T) {
	checkDemo(t)
}

// TestDemoRunsOnKafka is the same demo against the real broker.
func TestDemoRunsOnKafka(t *testing.T) {
	checkDemo(t, "--bootstrap", testkafka.Bootstrap(t))
}

func checkDemo(t *testing.T, args ...string) {
	before := runtime.NumGoroutine()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	start := time.Now()
	var out, errOut sidecartest.Buffer
	if err := Run(ctx, nil, append([]string{"demo"}, args...), &out, &errOut); err != nil {
		t.Fatalf("demo: %v\n%s\n%s", err, out.String(), errOut.String())
	}
	got := out.String()
	for _, want := range []string{
		"  kafka      3\n",
		"  READ_UNCOMMITTED hello = 2 ",
		"  READ_COMMITTED   hello = 1 ",
		"After the commit:\n  READ_COMMITTED   hello = 2\n",
		"Closed cleanly",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("demo output lacks %q:\n%s", want, got)
		}
	}
	t.Logf("demo took %v", time.Since(start).Round(time.Millisecond))
	deadline := time.Now().Add(10 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		buf := make([]byte, 1<<20)
		t.Errorf("the demo left %d goroutines behind:\n%s", n-before, buf[:runtime.Stack(buf, true)])
	}
}
