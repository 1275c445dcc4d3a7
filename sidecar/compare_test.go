package sidecar

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDescribeCompareSameExitsZero: the JVM word count's captured
// describe() text against the Go word count.
func TestDescribeCompareSameExitsZero(t *testing.T) {
	out, stderr, err := runArgs(t, "describe", "--config", "../examples/wordcount/streams.properties",
		"--compare", "../kstreams/testdata/jvm/wordcount.describe.txt")
	if err != nil || ExitCode(err, &bytes.Buffer{}) != 0 {
		t.Fatalf("err %v\n%s%s", err, out, stderr)
	}
	if !strings.Contains(out, "same: the Kafka Streams application and StoatFlow describe the same topology") {
		t.Fatalf("output:\n%s", out)
	}
}

// TestDescribeCompareDifferentExitsThree: the JVM word count with a named
// store against the Go one without, from stdin: exit status 3 and the fix.
func TestDescribeCompareDifferentExitsThree(t *testing.T) {
	text, err := os.ReadFile("../kstreams/testdata/wordcount-materialized.describe.txt")
	if err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	ctx := withStdin(context.Background(), bytes.NewReader(text))
	err = Run(ctx, examples, []string{"describe", "--config", "../examples/wordcount/streams.properties", "--compare", "-"}, &out, &errOut)
	if code := ExitCode(err, &errOut); code != 3 {
		t.Fatalf("exit %d (%v), want 3\n%s%s", code, err, out.String(), errOut.String())
	}
	for _, want := range []string{
		"different: 2 difference(s)",
		"the store of KSTREAM-AGGREGATE-0000000003 is counts-store in the Kafka Streams application and KSTREAM-AGGREGATE-STATE-STORE-0000000003",
		`fix: Materialized.as("counts-store") on the Go count()/aggregate() that creates KSTREAM-AGGREGATE-0000000004`,
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}

// TestDescribeCompareBadFile: a file that is not a description fails with
// status 1 and says why; one that cannot be read is a command-line mistake
// (status 2) that says what to give, then the usage line.
func TestDescribeCompareBadFile(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.txt")
	if err := os.WriteFile(bad, []byte("Topologies:\n   Sub-topology: 0\n    Sauce: x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	absent := filepath.Join(t.TempDir(), "absent")
	for _, tc := range []struct {
		file string
		code int
		want []string
	}{
		{bad, 1, []string{"line 3: want a Source:, Processor: or Sink: line"}},
		{absent, 2, []string{"sidecar describe: --compare " + absent + ": cannot read it; give the file the Kafka Streams application's topology.describe() text was saved to, or - to read it from stdin (open " + absent + ": no such file or directory)",
			"usage: " + usageLines["describe"]}},
	} {
		_, stderr, err := runArgs(t, "describe", "--config", "../examples/wordcount/streams.properties", "--compare", tc.file)
		code := ExitCode(err, &bytes.Buffer{})
		if code != tc.code {
			t.Errorf("--compare %s: exit %d, want %d; stderr %q", tc.file, code, tc.code, stderr)
		}
		for _, w := range tc.want {
			if !strings.Contains(stderr, w) {
				t.Errorf("--compare %s: stderr %q lacks %q", tc.file, stderr, w)
			}
		}
	}
}
