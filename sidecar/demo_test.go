package sidecar

import (
	"context"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/examples/wordcount"
	"github.com/stoatflow/stoatflow/internal/demoinput"
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

// TestDemoTopologyIsTheWordCountExample: the demo builds its own word count
// so that the sidecar imports no example; it must stay examples/wordcount's,
// the twin of make demo-jvm's Kafka Streams word count: the same
// describe() and the same words per line.
func TestDemoTopologyIsTheWordCountExample(t *testing.T) {
	demo, err := demoTopology("in", "out")
	if err != nil {
		t.Fatal(err)
	}
	example, err := wordcount.Build(map[string]string{"input": "in", "output": "out"})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := demo.Describe().String(), example.Describe().String(); got != want {
		t.Errorf("demo topology:\n%s\nexamples/wordcount:\n%s", got, want)
	}
	lines := []string{"", "kafka", "Hello, Kafka Streams!", "  leading space", "trailing..", "a_b c-d", "caf\u00e9 au lait", "x--y__z"}
	for _, batch := range demoLines {
		lines = append(lines, batch...)
	}
	for _, l := range lines {
		if got, want := demoWords(l), wordcount.Words(l); !slices.Equal(got, want) {
			t.Errorf("demoWords(%q) = %q, wordcount.Words gives %q", l, got, want)
		}
	}
}

// TestDemoFeedsTheJVMTwinsLines: make demo feeds, batch after batch, the
// lines make demo-jvm's twin feeds (integration/cmd/refdemo checks its
// side), so that their outputs compare line by line.
func TestDemoFeedsTheJVMTwinsLines(t *testing.T) {
	if got, want := slices.Concat(demoLines...), demoinput.Lines(); !slices.Equal(got, want) {
		t.Errorf("make demo feeds %q, make demo-jvm %q", got, want)
	}
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
		// The heading says both isolation levels and shows both.
		"at both isolation levels:\n  READ_UNCOMMITTED hello = 1 ",
		"  READ_COMMITTED   hello = 1\n",
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
