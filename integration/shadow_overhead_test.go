package integration

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/stoatflow/stoatflow/examples/wordcount"
	"github.com/stoatflow/stoatflow/internal/testkafka"
)

// procStats reads a process's CPU time (utime+stime) and resident set
// (VmRSS, VmHWM) from /proc.
func procStats(pid int) (cpu time.Duration, rss, hwm int64, err error) {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, 0, 0, err
	}
	// The command name is in parentheses and may hold spaces: fields count
	// from the last ')'.
	f := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+2:]))
	if f[0] == "Z" || f[0] == "X" {
		return 0, 0, 0, fmt.Errorf("process %d has exited", pid)
	}
	ut, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	cpu = time.Duration(ut+st) * time.Second / 100 // USER_HZ
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, 0, 0, err
	}
	for _, l := range strings.Split(string(status), "\n") {
		kb := func(p string) int64 {
			v, _ := strconv.ParseInt(strings.Fields(strings.TrimPrefix(l, p))[0], 10, 64)
			return v << 10
		}
		switch {
		case strings.HasPrefix(l, "VmRSS:"):
			rss = kb("VmRSS:")
		case strings.HasPrefix(l, "VmHWM:"):
			hwm = kb("VmHWM:")
		}
	}
	return cpu, rss, hwm, nil
}

// shadowOutputs is the shadow's --outputs in the overhead measurement.
var shadowOutputs = flag.String("shadow.outputs", "topics", "--outputs of the shadow TestShadowOverheadAt1000RecordsPerSecond measures: topics or memory")

// TestShadowOverheadAt1000RecordsPerSecond measures what shadow mode costs:
// the Kafka Streams word count runs on one-word lines arriving at 1,000
// records/s, and beside it two sidecar processes on the same input: `shadow`
// (the Go topology, its shadow topic, and the comparison reading both
// outputs) and `run` (the Go topology alone, writing its own output), so the
// comparison's own share is the difference. It checks that the shadow
// matched every update and the baseline wrote every update, and logs CPU
// (as a share of one core) and RSS of both and of the JVM application.
// It is not parallel: the figures it logs are those of a machine that runs
// nothing else of the suite, and its shadow's grace period is wall-clock
// time.
func TestShadowOverheadAt1000RecordsPerSecond(t *testing.T) {
	if testing.Short() {
		t.Skip("a 75-second measurement")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "sidecar")
	build := exec.CommandContext(ctx, "go", "build", "-o", bin, "./cmd/sidecar")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/sidecar: %v\n%s", err, out)
	}
	cmdDir := root
	const partitions = 2
	a := newWordCountApp(t, partitions)
	runOut := testkafka.Topic(t, "runout")
	testkafka.CreateTopics(t, a.bootstrap, partitions, runOut)
	props := filepath.Join(root, "examples", "wordcount", "streams.properties")
	ref, err := StartReference(ctx, ReferenceOptions{App: wordcount.Name, Configs: []string{props}, Set: a.config(t, nil),
		Args: map[string]string{"input": a.in, "output": a.out}, Measured: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ref.Stop(30 * time.Second) //nolint:errcheck // the checks are on the shadow's report
	if err := ref.WaitState(ctx, "RUNNING"); err != nil {
		t.Fatalf("%v\n%s", err, ref.Stderr())
	}

	freePort := func() string {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer ln.Close()
		return ln.Addr().String()
	}
	start := func(args ...string) (*exec.Cmd, *bytes.Buffer, *tailBuffer) {
		cmd := exec.Command(bin, args...)
		cmd.Dir = cmdDir
		var out bytes.Buffer
		errOut := &tailBuffer{max: 64 << 10}
		cmd.Stdout, cmd.Stderr = &out, errOut
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
		return cmd, &out, errOut
	}
	sets := func(extra map[string]string) []string {
		var out []string
		for k, v := range a.config(t, extra) {
			out = append(out, "--set", k+"="+v)
		}
		return out
	}
	shadowID := a.appID + "-shadow"
	sh, shOut, shErr := start(append([]string{"shadow", "--config", props, "--listen", freePort(), "--grace", "10s", "--drain", "10s",
		"--arg", "input=" + a.in, "--arg", "output=" + a.out, "--application-id", shadowID, "--suffix", "-" + shadowID,
		"--outputs", *shadowOutputs},
		sets(map[string]string{"state.dir": t.TempDir()})...)...)
	run, _, runErr := start(append([]string{"run", "--config", props, "--arg", "input=" + a.in, "--arg", "output=" + runOut},
		sets(map[string]string{"state.dir": t.TempDir(), "application.id": a.appID + "-run", "stoatflow.http.listen": freePort()})...)...)

	// 1,000 one-word lines a second, from a vocabulary of 1,000 words, for
	// 60 s; measured over the 45 s after a 10 s warm-up.
	const rate, seconds = 1000, 60
	client, err := kgo.NewClient(kgo.SeedBrokers(a.bootstrap), kgo.ProducerLinger(5*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	type sample struct {
		at       time.Time
		cpu      [3]time.Duration
		rss, hwm [3]int64
	}
	take := func() sample {
		s := sample{at: time.Now()}
		for i, c := range []*exec.Cmd{sh, run, ref.cmd} {
			cpu, rss, hwm, err := procStats(c.Process.Pid)
			if err != nil {
				t.Fatalf("%v\nshadow:\n%s\nrun:\n%s", err, shErr.String(), runErr.String())
			}
			s.cpu[i], s.rss[i], s.hwm[i] = cpu, rss, hwm
		}
		return s
	}
	var first, last sample
	var rssSum [3]int64
	var rssN int64
	tick := time.NewTicker(100 * time.Millisecond)
	began := time.Now()
	sent := 0
	for sent < rate*seconds {
		<-tick.C
		for i := 0; i < rate/10; i++ {
			client.Produce(ctx, &kgo.Record{Topic: a.in, Partition: int32(sent % partitions),
				Value: []byte(fmt.Sprintf("w%03d", sent%1000)), Timestamp: time.UnixMilli(epochBase + int64(sent))}, nil)
			sent++
		}
		el := time.Since(began)
		switch {
		case el >= 10*time.Second && first.at.IsZero():
			first = take()
		case el >= 10*time.Second && el < 55*time.Second && sent%1000 == 0:
			s := take()
			for i := range rssSum {
				rssSum[i] += s.rss[i]
			}
			rssN++
		case el >= 55*time.Second && last.at.IsZero():
			last = take()
		}
	}
	tick.Stop()
	if err := client.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	if last.at.IsZero() {
		last = take()
	}
	wall := last.at.Sub(first.at)
	for i, name := range []string{"sidecar shadow", "sidecar run", "Kafka Streams 4.4 (the live application)"} {
		t.Logf("%s at %d records/s: CPU %.1f%% of one core, RSS mean %.0f MiB, peak %.0f MiB (over %v)", name, rate,
			100*float64(last.cpu[i]-first.cpu[i])/float64(wall), float64(rssSum[i])/float64(max(rssN, 1))/(1<<20), float64(last.hwm[i])/(1<<20),
			wall.Round(time.Second))
	}

	time.Sleep(5 * time.Second)
	_ = sh.Process.Signal(syscall.SIGTERM)
	_ = run.Process.Signal(syscall.SIGTERM)
	done := make(chan error, 1)
	go func() { done <- sh.Wait() }()
	select {
	case err = <-done:
	case <-time.After(2 * time.Minute):
		t.Fatalf("shadow did not stop\n%s", shErr.String())
	}
	if err != nil {
		t.Fatalf("shadow exited with %v:\n%s\n%s", err, shOut.String(), shErr.String())
	}
	want := fmt.Sprintf("shadow comparison (sequence): %d matched, 0 mismatched, 0 missing, 0 pending", rate*seconds)
	if !strings.Contains(shOut.String(), want) {
		t.Errorf("summary lacks %q:\n%s", want, shOut.String())
	}
	t.Logf("summary: %s", strings.TrimSpace(shOut.String()))
	// The baseline did the same work: every update in its own output.
	if recs, err := testkafka.ReadCommitted(a.bootstrap, runOut, rate*seconds, time.Minute, 2*time.Second); err != nil || len(recs) != rate*seconds {
		t.Errorf("sidecar run wrote %d records (%v), want %d", len(recs), err, rate*seconds)
	}
}
