package sidecar

import (
	"strings"
	"testing"

	"github.com/stoatflow/stoatflow/kstreams"
)

func TestShadowRefusesBadFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"shadow"}, "give at least one --config FILE"},
		{[]string{"shadow", "--config", "../examples/wordcount/streams.properties", "--mode", "eventually"}, `mode "eventually": want sequence`},
		{[]string{"shadow", "--config", "../examples/wordcount/streams.properties", "--suffix", ""}, "--suffix cannot be empty"},
		{[]string{"shadow", "--config", "../examples/wordcount/streams.properties", "--application-id", "streams-wordcount"},
			"is the live application's"},
		{[]string{"shadow", "--config", "../examples/wordcount/streams.properties", "--arg", "input"}, `invalid value "input" for flag -arg: want name=value`},
		{[]string{"shadow", "--config", "../examples/wordcount/streams.properties", "--outputs", "disk"}, `--outputs "disk": want topics`},
	} {
		_, stderr, err := runArgs(t, tc.args...)
		if code := ExitCode(err, &strings.Builder{}); code != 2 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", tc.args, code, stderr, tc.want)
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
	if code := ExitCode(err, &strings.Builder{}); code != 2 || !strings.Contains(stderr, "reads its output topic middle") {
		t.Errorf("exit %d, stderr: %s", code, stderr)
	}
}
