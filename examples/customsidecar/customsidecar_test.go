package main

import (
	"encoding/json"
	"errors"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/internal/sidecartest"
	"github.com/stoatflow/stoatflow/internal/testkafka"
)

var update = flag.Bool("update", false, "rewrite testdata/large-orders.describe.txt from the binary's describe output")

func TestParseOrder(t *testing.T) {
	for v, want := range map[string]Order{
		"alice,12500": {"alice", 12500},
		"bob,0":       {"bob", 0},
		"c d,7":       {"c d", 7},
	} {
		if got, ok := ParseOrder(v); !ok || got != want {
			t.Errorf("ParseOrder(%q) = %v, %v; want %v", v, got, ok, want)
		}
	}
	for _, v := range []string{"", "alice", "alice,", ",12500", "alice,-1", "alice,12.50", "alice,1,2", "alice, 5"} {
		if o, ok := ParseOrder(v); ok {
			t.Errorf("ParseOrder(%q) = %v, want not an order", v, o)
		}
	}
}

// runBinary runs the built binary to completion and returns its stdout,
// stderr and exit status.
func runBinary(t *testing.T, bin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	var out, errOut strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		code = exit.ExitCode()
	case err != nil:
		t.Fatal(err)
	}
	return out.String(), errOut.String(), code
}

// TestCustomSidecarDescribesAndRunsLargeOrders builds this directory's
// main package, as a team builds its own sidecar, and runs it as a user
// would: describe prints the team's topology, which no StoatFlow package
// registers, and run processes it on the embedded broker until SIGTERM
// stops it cleanly.
func TestCustomSidecarDescribesAndRunsLargeOrders(t *testing.T) {
	bin := sidecartest.Build(t, ".")

	out, stderr, code := runBinary(t, bin, "describe", "--config", "streams.properties")
	if code != 0 {
		t.Fatalf("describe: exit %d\n%s", code, stderr)
	}
	golden := filepath.Join("testdata", "large-orders.describe.txt")
	if *update {
		if err := os.WriteFile(golden, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if out != string(want) {
		t.Errorf("describe differs from %s (go test -update rewrites it):\n--- got\n%s--- want\n%s", golden, out, want)
	}
	if _, stderr, code := runBinary(t, bin, "describe", "--config", "streams.properties", "--arg", "min-cents=lots"); code != 1 ||
		!strings.Contains(stderr, `sidecar: building topology large-orders: large-orders: min-cents="lots": want a whole number of cents`) {
		t.Errorf("bad min-cents: exit %d\n%s", code, stderr)
	}
	// Only the topology main.go gave is there: the examples cmd/sidecar
	// runs are not.
	if _, stderr, code := runBinary(t, bin, "describe", "--config", "streams.properties", "--set", "stoatflow.topology=wordcount"); code != 1 ||
		!strings.Contains(stderr, "--set #1: error: stoatflow.topology = wordcount is not a topology of this binary; set it to one of large-orders\n") {
		t.Errorf("wordcount in the custom sidecar: exit %d\n%s", code, stderr)
	}
	if out, _, code := runBinary(t, bin, "version"); code != 0 || !strings.HasPrefix(out, "stoatflow sidecar ") {
		t.Errorf("version: exit %d %q", code, out)
	}

	dir := t.TempDir()
	listen := sidecartest.FreeAddr(t)
	p := sidecartest.Start(t, bin, "run", "--config", "streams.properties", "--embedded-broker",
		"--arg", "input=shop-orders", "--arg", "min-cents=5000",
		"--set", "state.dir="+filepath.Join(dir, "state"), "--set", "stoatflow.http.listen="+listen,
		"--set", "stoatflow.log.format=json", "--set", "enable.metrics.push=false")
	p.WaitReady(t, "http://"+listen)
	bootstrap := embeddedBootstrap(t, p.Output())

	var in []testkafka.Record
	for i, v := range []string{"alice,12500", "bob,4999", "carol,5000", "not an order", "", "dave,-7", "alice,5001"} {
		in = append(in, testkafka.Record{Topic: "shop-orders", Partition: testkafka.AnyPartition,
			Key: []byte{'o', byte('0' + i)}, Value: []byte(v)})
	}
	testkafka.Produce(t, bootstrap, in...)
	recs, err := testkafka.ReadCommitted(bootstrap, "large-orders", 3, 60*time.Second, 2*time.Second)
	if err != nil {
		t.Fatalf("reading large-orders: %v (%d records)\n%s", err, len(recs), sidecartest.Tail(p.Output(), 30))
	}
	var got []string
	for _, r := range recs {
		got = append(got, string(r.Key)+"="+string(r.Value))
	}
	if want := []string{"alice=alice,12500", "carol=carol,5000", "alice=alice,5001"}; !slices.Equal(got, want) {
		t.Errorf("large-orders holds %q, want %q", got, want)
	}
	p.Stop(t)
	if !strings.Contains(p.Output(), `"msg":"stopped cleanly"`) {
		t.Errorf("no clean stop:\n%s", sidecartest.Tail(p.Output(), 20))
	}
}

// embeddedBootstrap reads the embedded broker's address from the JSON log
// line run writes when it starts the broker.
func embeddedBootstrap(t *testing.T, log string) string {
	t.Helper()
	for _, line := range strings.Split(log, "\n") {
		var rec struct {
			Msg       string `json:"msg"`
			Bootstrap string `json:"bootstrap"`
		}
		if json.Unmarshal([]byte(line), &rec) == nil && strings.HasPrefix(rec.Msg, "running on an embedded in-process broker") && rec.Bootstrap != "" {
			return rec.Bootstrap
		}
	}
	t.Fatalf("no embedded broker address in the log:\n%s", sidecartest.Tail(log, 30))
	return ""
}
