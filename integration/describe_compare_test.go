package integration

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/examples/windowedcount"
	"github.com/stoatflow/stoatflow/examples/wordcount"
	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/sidecar"
)

// TestDescribeCompareAgainstKafkaStreams runs `sidecar describe --compare`
// on the describe() text the Kafka Streams 4.4 reference twin prints: the
// true Go twins are the same (exit 0); a Go word count with one mapValues
// more is different (exit 3), and the report names that mapValues as the
// first difference and gives the store its Kafka Streams name.
func TestDescribeCompareAgainstKafkaStreams(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("needs Java and Maven")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	jvmText := func(app string) string {
		text, err := Describe(ctx, ReferenceOptions{App: app})
		if err != nil {
			t.Fatal(err)
		}
		f := filepath.Join(dir, app+".describe.txt")
		if err := os.WriteFile(f, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return f
	}
	compare := func(topologies sidecar.Topologies, props, file string) (string, int) {
		var out, errOut bytes.Buffer
		err := sidecar.Run(ctx, topologies, []string{"describe", "--config", props, "--compare", file}, &out, &errOut)
		return out.String() + errOut.String(), sidecar.ExitCode(err, &errOut)
	}

	for app, build := range map[string]kstreams.TopologyFactory{wordcount.Name: wordcount.Build, windowedcount.Name: windowedcount.Build} {
		props := filepath.Join(root, "examples", app, "streams.properties")
		out, code := compare(sidecar.Topologies{app: build}, props, jvmText(app))
		if code != 0 || !strings.Contains(out, "same:") {
			t.Errorf("%s: exit %d, want 0 (same):\n%s", app, code, out)
		}
	}

	// The word count with a mapValues between flatMapValues and groupBy.
	changed := func(map[string]string) (*kstreams.Topology, error) {
		b := kstreams.NewStreamsBuilder()
		lines := kstreams.Stream[string, string](b, []string{"streams-plaintext-input"})
		words := kstreams.MapValues(kstreams.FlatMapValues(lines, wordcount.Words), strings.TrimSpace)
		kstreams.GroupBy(words, func(_, w string) string { return w }).Count().ToStream().To("streams-wordcount-output")
		return b.Build()
	}
	props := filepath.Join(root, "examples", "wordcount", "streams.properties")
	out, code := compare(sidecar.Topologies{wordcount.Name: changed}, props, filepath.Join(dir, "wordcount.describe.txt"))
	if code != 3 {
		t.Fatalf("changed word count: exit %d, want 3:\n%s", code, out)
	}
	for _, want := range []string{
		"different: 1 difference(s)",
		"1. sub-topology 0: StoatFlow's topology has processor KSTREAM-MAPVALUES-0000000002 (mapValues()) after KSTREAM-FLATMAPVALUES-0000000001 that the Kafka Streams application does not have",
		"store (and its changelog) KSTREAM-AGGREGATE-STATE-STORE-0000000003 vs KSTREAM-AGGREGATE-STATE-STORE-0000000004 (+1)",
		`fix: Materialized.as("KSTREAM-AGGREGATE-STATE-STORE-0000000003") on the Go count()/aggregate() that creates KSTREAM-AGGREGATE-0000000005`,
		"topic KSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition vs KSTREAM-AGGREGATE-STATE-STORE-0000000004-repartition (+1)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "\n2. ") {
		t.Errorf("report names more than the one operator:\n%s", out)
	}
}
