// Command bench runs StoatFlow's end-to-end benchmarks on a real Apache
// Kafka 4.4 broker: each workload on StoatFlow and on its Kafka Streams 4.4
// reference twin (same .properties), next to raw client ceilings, in
// alternating rounds, and prints one table of medians and ratios.
//
//	go run ./integration/bench [flags]
//
// Every engine runs as a child process, so CPU time (utime+stime from
// /proc/<pid>/stat) and peak RSS (VmHWM) are the engine's alone. StoatFlow
// children are this binary re-executed (STOATFLOW_BENCH_CHILD); Kafka
// Streams children are the reference jar. Without -bootstrap the command
// starts the local broker with integration/kafka.sh on
// STOATFLOW_KAFKA_PORT (default 9092) and stops it again if it started it.
//
// Each flag has an environment variable of the same name in upper case
// with a STOATFLOW_BENCH_ prefix (-records → STOATFLOW_BENCH_RECORDS); a
// flag given on the command line wins.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/stoatflow/stoatflow/integration"
)

func main() {
	if spec := os.Getenv(envChild); spec != "" {
		os.Exit(runChild(spec))
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

// config is the benchmark's knobs.
type config struct {
	bootstrap        string
	workloads        []string
	rounds           int
	records          int
	keys             int
	valueSize        int
	words            int
	partitions       int
	threads          int
	commitMs         int
	alosCommitMs     int
	latencyRate      int
	latencyDur       time.Duration
	latencyWarmup    time.Duration
	latencyLoads     []int // percentages of Kafka Streams' maximum throughput
	latencyMax       int   // lines/s; 0: as this run's wordcount-eos measured it
	restoreMB        int
	restoreValue     int
	rebalanceRecords int
	rebalanceRate    int
	failoverRecords  int
	failoverRate     int
	backPressureRate int // backpressure workload: records/s of the hot partition
	jvmOpts          string
	profileDir       string
	baseline         string
	runTimeout       time.Duration
	keep             bool
	set              map[string]string // extra properties for both engines
	args             []string          // as given, for the report
}

// setFlag collects repeated -set key=value flags.
type setFlag map[string]string

func (s setFlag) String() string { return fmt.Sprint(map[string]string(s)) }

func (s setFlag) Set(kv string) error {
	k, v, ok := strings.Cut(kv, "=")
	if !ok || k == "" {
		return fmt.Errorf("-set wants key=value, got %q", kv)
	}
	s[k] = v
	return nil
}

// allWorkloads in the order they run (the most important first).
var allWorkloads = []string{"wordcount-eos", "stateless", "latency", "latency-load", "wordcount-alos", "windowed", "suppress", "ssjoin-eos", "streamtable-eos", "avro", "restore", "rebalance", "rebalance-streams", "failover", "backpressure"}

func parseFlags(args []string, stderr io.Writer) (*config, error) {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	c := &config{}
	var workloads string
	str := func(p *string, name, def, usage string) { fs.StringVar(p, name, envOr(name, def), usage) }
	num := func(p *int, name string, def int, usage string) {
		fs.IntVar(p, name, atoiOr(envOr(name, ""), def), usage)
	}
	dur := func(p *time.Duration, name string, def time.Duration, usage string) {
		d, err := time.ParseDuration(envOr(name, def.String()))
		if err != nil {
			d = def
		}
		fs.DurationVar(p, name, d, usage)
	}
	str(&c.bootstrap, "bootstrap", "", "broker address; empty: start the local broker with integration/kafka.sh (port STOATFLOW_KAFKA_PORT, default 9092)")
	str(&workloads, "workloads", strings.Join(allWorkloads, ","), "comma-separated workloads: "+strings.Join(allWorkloads, ", "))
	num(&c.rounds, "rounds", 3, "rounds; engines alternate their order each round")
	num(&c.records, "records", 100_000, "input records of the throughput workloads (word count: lines)")
	num(&c.keys, "keys", 10_000, "key cardinality (word count: vocabulary size)")
	num(&c.valueSize, "value-size", 100, "value bytes of the stateless and windowed workloads")
	num(&c.words, "words", 4, "words per word-count line (8 bytes each)")
	num(&c.partitions, "partitions", 4, "partitions of every input topic")
	num(&c.threads, "threads", 1, "num.stream.threads of both engines")
	num(&c.commitMs, "commit-ms", 100, "commit.interval.ms under exactly_once_v2 (and of the stateless runs and the ceilings)")
	num(&c.alosCommitMs, "alos-commit-ms", 100, "commit.interval.ms of word count under at_least_once")
	num(&c.latencyRate, "latency-rate", 400, "offered load of the latency workload, input lines per second")
	dur(&c.latencyDur, "latency-duration", 20*time.Second, "how long the latency workload offers load")
	dur(&c.latencyWarmup, "latency-warmup", 8*time.Second, "outputs of inputs sent in the first part of the load are not counted")
	var loads string
	str(&loads, "latency-loads", "25,50,75,90", "latency-load workload: offered loads, percent of Kafka Streams' maximum word-count throughput")
	num(&c.latencyMax, "latency-max", 0, "latency-load workload: Kafka Streams' maximum word-count throughput, lines/s; 0: the median this run's wordcount-eos measured")
	num(&c.restoreMB, "restore-mb", 1024, "changelog size of the restore workload, MiB")
	num(&c.restoreValue, "restore-value-size", 1000, "value bytes of the restore workload's changelog records")
	num(&c.rebalanceRecords, "rebalance-records", 50_000, "rebalance workload: word-count lines counted before the third instance joins")
	num(&c.rebalanceRate, "rebalance-rate", 1000, "rebalance workload: input lines per second fed while the instances run")
	num(&c.failoverRecords, "failover-records", 100_000, "failover workload: word-count lines counted before the feed, so that the dead instance's stores restore for seconds")
	num(&c.failoverRate, "failover-rate", 1000, "failover workload: input lines per second fed while the instances run")
	num(&c.backPressureRate, "backpressure-rate", 20_000, "backpressure workload: records/s fed to the hot input partition (each other partition gets 1/100 of it), after -records preloaded on it")
	str(&c.jvmOpts, "jvm-opts", "-Xmx512m", "JVM options of the Kafka Streams children")
	str(&c.baseline, "baseline", "", "another build of this command (go build -o PATH ./integration/bench at an older commit), run as the engine \"StoatFlow baseline\" in the throughput workloads: before/after ratios from one run")
	str(&c.profileDir, "profile", "", "directory for CPU profiles of the StoatFlow children (one per run); empty: none")
	dur(&c.runTimeout, "run-timeout", 5*time.Minute, "longest a single run may take")
	fs.BoolVar(&c.keep, "keep", false, "keep the topics and state directories of each run")
	c.set = map[string]string{}
	for _, kv := range strings.Split(envOr("set", ""), ",") {
		if kv = strings.TrimSpace(kv); kv != "" {
			if err := setFlag(c.set).Set(kv); err != nil {
				return nil, err
			}
		}
	}
	fs.Var(setFlag(c.set), "set", "key=value: a Kafka Streams property for both engines, after the workload's own (repeatable; env: comma-separated)")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	c.args = args
	for _, f := range strings.Split(loads, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		pct, err := strconv.Atoi(f)
		if err != nil || pct < 1 || pct > 100 {
			return nil, fmt.Errorf("-latency-loads wants percentages from 1 to 100, got %q", f)
		}
		c.latencyLoads = append(c.latencyLoads, pct)
	}
	for _, w := range strings.Split(workloads, ",") {
		w = strings.TrimSpace(w)
		if w == "" {
			continue
		}
		if !contains(allWorkloads, w) {
			return nil, fmt.Errorf("unknown workload %q (have %s)", w, strings.Join(allWorkloads, ", "))
		}
		c.workloads = append(c.workloads, w)
	}
	switch {
	case c.rounds < 1, c.records < 1, c.keys < 1, c.valueSize < 1, c.words < 1, c.partitions < 1, c.threads < 1,
		c.commitMs < 1, c.alosCommitMs < 1, c.latencyRate < 1, c.latencyMax < 0, len(c.latencyLoads) == 0, c.restoreMB < 1, c.restoreValue < 1,
		c.rebalanceRecords < 1, c.rebalanceRate < 1, c.failoverRecords < 1, c.failoverRate < 1, c.backPressureRate < 1:
		return nil, fmt.Errorf("counts, sizes and intervals must be at least 1")
	}
	return c, nil
}

func envOr(flagName, def string) string {
	name := "STOATFLOW_BENCH_" + strings.ToUpper(strings.ReplaceAll(flagName, "-", "_"))
	if v, ok := os.LookupEnv(name); ok && v != "" {
		return v
	}
	return def
}

func atoiOr(s string, def int) int {
	if n, err := strconv.Atoi(s); err == nil {
		return n
	}
	return def
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// run is the command: parse, start or find the broker, run every
// workload, print the table.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	cfg, err := parseFlags(args, stderr)
	if err != nil {
		return err
	}
	root, err := integration.RepoRoot()
	if err != nil {
		return err
	}
	if cfg.bootstrap == "" {
		addr, stopBroker, err := startBroker(ctx, root, stderr)
		if err != nil {
			return err
		}
		defer stopBroker()
		cfg.bootstrap = addr
	}
	b, err := newBench(ctx, cfg, root, stderr)
	if err != nil {
		return err
	}
	defer b.close()
	started := time.Now()
	for _, w := range cfg.workloads {
		if err := ctx.Err(); err != nil {
			return err
		}
		fmt.Fprintf(stderr, "bench: workload %s\n", w)
		if err := b.runWorkload(ctx, w); err != nil {
			return fmt.Errorf("workload %s: %w", w, err)
		}
	}
	b.report(stdout, cfg, time.Since(started))
	return b.failure()
}

// startBroker runs integration/kafka.sh up and returns the address and a
// function that stops the broker again if this call started it.
func startBroker(ctx context.Context, root string, stderr io.Writer) (string, func(), error) {
	script := filepath.Join(root, "integration", "kafka.sh")
	wasUp := exec.CommandContext(ctx, script, "status").Run() == nil
	cmd := exec.CommandContext(ctx, script, "up")
	cmd.Stderr = stderr
	out, err := cmd.Output()
	if err != nil {
		return "", nil, fmt.Errorf("starting the broker (%s up): %w", script, err)
	}
	lines := strings.Fields(string(out))
	if len(lines) == 0 {
		return "", nil, fmt.Errorf("%s up printed no address", script)
	}
	addr := lines[len(lines)-1]
	stopBroker := func() {
		if wasUp {
			return
		}
		down := exec.Command(script, "down")
		down.Stderr = stderr
		_ = down.Run()
	}
	return addr, stopBroker, nil
}
