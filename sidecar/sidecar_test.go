package sidecar

import (
	"bytes"
	"context"
	"errors"
	"io"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/serde/registry"
)

// upper is a topology no package registers anywhere: the sidecar can only
// know it from the Topologies it was given.
func upper(args map[string]string) (*kstreams.Topology, error) {
	in := args["input"]
	if in == "" {
		in = "upper-input"
	}
	b := kstreams.NewStreamsBuilder()
	kstreams.MapValues(kstreams.Stream[string, string](b, []string{in}), strings.ToUpper).To("upper-output")
	return b.Build()
}

// TestRunBuildsOnlyTheTopologiesGiven: describe and run look
// stoatflow.topology up in the Topologies passed to Run, and nowhere else
// (this test binary links the examples, which wordcount is one of).
func TestRunBuildsOnlyTheTopologiesGiven(t *testing.T) {
	mine := Topologies{"upper": upper}
	out, stderr, err := runWith(t, mine, "describe", "--config", "../examples/wordcount/streams.properties",
		"--set", "stoatflow.topology=upper", "--arg", "input=orders")
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	if !strings.Contains(out, "Source: KSTREAM-SOURCE-0000000000 (topics: [orders])") || !strings.Contains(out, "(topic: upper-output)") {
		t.Errorf("describe of upper:\n%s", out)
	}
	_, stderr, err = runWith(t, mine, "describe", "--config", "../examples/wordcount/streams.properties")
	if !errors.Is(err, errReported) || !strings.Contains(stderr, "streams.properties:36: error: stoatflow.topology = wordcount is not a topology of this binary; set it to one of upper\n") {
		t.Errorf("wordcount, not given: %v\n%s", err, stderr)
	}
	_, stderr, err = runWith(t, nil, "run", "--config", "../examples/wordcount/streams.properties")
	if !errors.Is(err, errReported) || !strings.Contains(stderr, "streams.properties:36: error: stoatflow.topology = wordcount: this binary has no topologies; its main package gave sidecar.Main none") {
		t.Errorf("no topologies: %v\n%s", err, stderr)
	}
	if _, stderr, err := runWith(t, mine, "help"); err != nil || !strings.HasSuffix(stderr, "\ntopologies (stoatflow.topology): upper\n") {
		t.Errorf("help names the topologies: %v\n%s", err, stderr)
	}
	// The commands that need no topology run without any.
	if out, _, err := runWith(t, nil, "version"); err != nil || !strings.HasPrefix(out, "stoatflow sidecar ") {
		t.Errorf("version without topologies: %q %v", out, err)
	}
}

// TestRunRefusesTopologiesItCannotSelect: a name stoatflow.topology could
// not hold, or a missing factory, is the program's mistake and fails every
// command before it starts.
func TestRunRefusesTopologiesItCannotSelect(t *testing.T) {
	for _, tc := range []struct {
		topologies Topologies
		want       string
	}{
		{Topologies{"": upper}, `sidecar: topology name "": a stoatflow.topology value cannot be empty`},
		{Topologies{"upper ": upper}, `sidecar: topology name "upper ": a stoatflow.topology value cannot be empty or start or end with white space`},
		{Topologies{"upper": upper, "lower": nil}, `sidecar: topology "lower" has a nil factory`},
	} {
		out, stderr, err := runWith(t, tc.topologies, "version")
		if err == nil || !strings.Contains(err.Error(), tc.want) || out != "" {
			t.Errorf("%v: err %v, out %q", tc.topologies, err, out)
			continue
		}
		var buf bytes.Buffer
		if code := ExitCode(err, &buf); code != 1 || !strings.Contains(buf.String(), tc.want) || stderr != "" {
			t.Errorf("%v: exit %d, printed %q", tc.topologies, code, buf.String())
		}
	}
}

// TestVersionNamesTheMainModule: in a team's binary the VCS revision is the
// team's, so the version line says whose it is and which StoatFlow module
// version runs.
func TestVersionNamesTheMainModule(t *testing.T) {
	rev := []debug.BuildSetting{{Key: "vcs.revision", Value: "0123456789abcdef0123"}}
	for _, tc := range []struct {
		info *debug.BuildInfo
		want string
	}{
		{nil, version},
		{&debug.BuildInfo{Main: debug.Module{Path: modulePath}, Settings: rev}, version + " (0123456789ab)"},
		{&debug.BuildInfo{Main: debug.Module{Path: "example.com/orders"}, Settings: rev,
			Deps: []*debug.Module{{Path: "golang.org/x/sys", Version: "v0.38.0"}, {Path: modulePath, Version: "v0.4.1"}}},
			version + " (github.com/stoatflow/stoatflow v0.4.1) in example.com/orders (0123456789ab)"},
	} {
		if got := versionOf(tc.info); got != tc.want {
			t.Errorf("versionOf = %q, want %q", got, tc.want)
		}
	}
}

type invoice struct {
	Number string `json:"number"`
}

// TestRunResolvesClassesAgainstTheOptionsGiven: the Java classes
// production.exception.handler and json.value.type name are known to the
// sidecar only from the bindings its main package gives it.
func TestRunResolvesClassesAgainstTheOptionsGiven(t *testing.T) {
	const handler, class = "com.acme.SkipAll", "com.acme.Invoice"
	args := []string{"config", "--config", "../examples/wordcount/streams.properties",
		"--set", "production.exception.handler=" + handler,
		"--set", "default.value.serde=io.confluent.kafka.streams.serdes.json.KafkaJsonSchemaSerde",
		"--set", "json.value.type=" + class, "--set", "schema.registry.url=http://registry.example:8081",
		"--set", "state.dir=" + t.TempDir()}
	_, stderr, err := runWith(t, examples, args...)
	if !errors.Is(err, errRefused) || !strings.Contains(stderr, "production.exception.handler = "+handler+" names a Java class with no Go handler bound to it") ||
		!strings.Contains(stderr, "json.value.type = "+class+" (for default.value.serde = io.confluent.kafka.streams.serdes.json.KafkaJsonSchemaSerde) is bound to no Go type") {
		t.Fatalf("without bindings: %v\n%s", err, stderr)
	}
	newHandler := func() kstreams.ProductionExceptionHandler { return &kstreams.DefaultProductionExceptionHandler{} }
	handlers := WithProductionHandlers(kstreams.ProductionHandlers{handler: newHandler})
	classes := WithSchemaClasses(registry.Classes{JSONSchema: map[string]registry.JSONSchemaType{class: registry.JSONSchemaOf[invoice]()}})
	var out, errOut bytes.Buffer
	if err := Run(context.Background(), examples, args, &out, &errOut, handlers, classes); err != nil {
		t.Fatalf("with bindings: %v\n%s", err, errOut.String())
	}
	if !strings.Contains(out.String(), "\tproduction.exception.handler = class "+handler+"\n") || !strings.Contains(out.String(), "\tjson.value.type = class "+class+"\n") {
		t.Errorf("config output lacks the bound classes:\n%s", out.String())
	}

	// Bindings that cannot work are the program's mistake, refused before
	// any command runs.
	for _, bad := range []Option{
		WithProductionHandlers(kstreams.ProductionHandlers{handler: nil}),
		WithProductionHandlers(kstreams.ProductionHandlers{kstreams.DefaultProductionExceptionHandlerClass: newHandler}),
		WithSchemaClasses(registry.Classes{JSONSchema: map[string]registry.JSONSchemaType{class: registry.JSONSchemaOf[any]()}}),
	} {
		if err := Run(context.Background(), examples, []string{"version"}, io.Discard, io.Discard, bad); err == nil {
			t.Error("a bad binding was accepted")
		}
	}
}
