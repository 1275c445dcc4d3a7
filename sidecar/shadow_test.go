package sidecar

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stoatflow/stoatflow/compat"
	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/metrics"
	"github.com/stoatflow/stoatflow/sidecar/internal/shadow"
	"github.com/stoatflow/stoatflow/streams"
)

// TestShadowRefusesBadFlags: each mistake in the shadow's flags exits 2
// with what is wrong and the command's usage line.
func TestShadowRefusesBadFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"shadow"}, "give at least one --config FILE"},
		{[]string{"shadow", "--config", "../examples/wordcount/streams.properties", "--mode", "eventually"}, `mode "eventually": want sequence`},
		{[]string{"shadow", "--config", "../examples/wordcount/streams.properties", "--suffix", ""}, "--suffix cannot be empty"},
		{[]string{"shadow", "--config", "../examples/wordcount/streams.properties", "--application-id", "streams-wordcount"},
			"--application-id streams-wordcount is the live application's: give the shadow an application.id of its own"},
		{[]string{"shadow", "--config", "../examples/wordcount/streams.properties", "--arg", "input"}, `invalid value "input" for flag -arg: want name=value`},
		{[]string{"shadow", "--config", "../examples/wordcount/streams.properties", "--outputs", "disk"}, `--outputs "disk": want topics`},
	} {
		_, stderr, err := runArgs(t, tc.args...)
		if code := ExitCode(err, &strings.Builder{}); code != 2 || !strings.Contains(stderr, tc.want) || !strings.Contains(stderr, "usage: "+usageLines["shadow"]) {
			t.Errorf("%v: exit %d, stderr %q; want 2, %q and the usage line", tc.args, code, stderr, tc.want)
		}
	}
}

// TestShadowNeedsAnOutputTopic: a topology without a fixed output topic has
// nothing to compare; the shadow says so before connecting.
func TestShadowNeedsAnOutputTopic(t *testing.T) {
	noSink := Topologies{"wordcount": func(map[string]string) (*kstreams.Topology, error) {
		b := kstreams.NewStreamsBuilder()
		kstreams.Stream[string, string](b, []string{"in"}).Foreach(func(string, string) {})
		return b.Build()
	}}
	_, stderr, err := runWith(t, noSink, "shadow", "--config", "../examples/wordcount/streams.properties")
	if code := ExitCode(err, &strings.Builder{}); code != 1 || !strings.Contains(stderr, "writes to no output topic with a fixed name: nothing to compare") {
		t.Errorf("exit %d, stderr: %s", code, stderr)
	}
}

// TestShadowInMemoryRefusesATopologyReadingItsOutput: with --outputs memory
// nothing is written, so a topology that reads its own output topic would
// read the live application's instead; the shadow refuses it before
// connecting.
func TestShadowInMemoryRefusesATopologyReadingItsOutput(t *testing.T) {
	loop := Topologies{"wordcount": func(map[string]string) (*kstreams.Topology, error) {
		b := kstreams.NewStreamsBuilder()
		kstreams.Stream[string, string](b, []string{"in"}).To("middle")
		kstreams.Stream[string, string](b, []string{"middle"}).To("out")
		return b.Build()
	}}
	_, stderr, err := runWith(t, loop, "shadow", "--config", "../examples/wordcount/streams.properties", "--outputs", "memory")
	if code := ExitCode(err, &strings.Builder{}); code != 2 || !strings.Contains(stderr, "reads its output topic middle") || !strings.Contains(stderr, "usage: "+usageLines["shadow"]) {
		t.Errorf("exit %d, stderr: %s", code, stderr)
	}
}

// stateOf is an instance in a fixed state, for the shadow's /readyz.
type stateOf struct{ s streams.State }

func (i *stateOf) State() streams.State { return i.s }

// TestShadowReadyzIsRuns: the shadow's /readyz means what run's does, 200
// only in RUNNING and 503 with the state otherwise, and like run's needs
// no token when stoatflow.http.auth-token is set.
func TestShadowReadyzIsRuns(t *testing.T) {
	s := &shadowRun{cfg: &compat.Config{HTTPAuthToken: compat.NewSecret("secret")}, flags: &shadowFlags{},
		cmp: shadow.NewComparer(shadow.Options{})}
	in := &stateOf{streams.Rebalancing}
	h := s.handler(metrics.New(metrics.Options{}), s.metrics(), in)
	get := func(path string) (int, string) {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
		return rec.Code, rec.Body.String()
	}
	if code, body := get("/readyz"); code != http.StatusServiceUnavailable || !strings.Contains(body, `"state":"REBALANCING"`) {
		t.Errorf("readyz while rebalancing: %d %s", code, body)
	}
	in.s = streams.Running
	if code, body := get("/readyz"); code != http.StatusOK || !strings.Contains(body, `"state":"RUNNING"`) {
		t.Errorf("readyz while running: %d %s", code, body)
	}
	if code, _ := get("/shadow"); code != http.StatusUnauthorized {
		t.Errorf("/shadow without the token: %d", code)
	}
}
