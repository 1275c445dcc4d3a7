package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/stoatflow/stoatflow/examples/avrocount"
	"github.com/stoatflow/stoatflow/examples/wordcount"
	"github.com/stoatflow/stoatflow/integration"
)

// Engines and ceilings, as the table names them.
const (
	engStoat    = "StoatFlow"
	engBaseline = "StoatFlow baseline"
	// engNoPolicy is StoatFlow with the flush policy off, so that one run
	// measures what the default policy costs.
	engNoPolicy   = "StoatFlow, no flush policy"
	engKS         = "Kafka Streams 4.4"
	engTxnLoop    = "raw txn loop"
	engPlainLoop  = "raw plain loop"
	engRawRestore = "raw WriteBatch"
)

// result is one run of one engine in one workload.
type result struct {
	workload, engine string
	round            int
	err              error

	recsPerSec float64
	cpuPerM    float64 // CPU-seconds per million input records
	rss        int64   // peak resident bytes
	p50, p99   time.Duration
	restoreMBs float64
	replayed   int64         // restore: changelog records replayed
	toRunning  time.Duration // restore: start to RUNNING
	commits    *commitPhases
	window     time.Duration // throughput: the measured window
	outputs    int64         // join workloads: records in the output topic at the end
	nulls      int64         // join workloads: of them, results without a partner ("…+null")
	goMem      int64         // StoatFlow: bytes the Go runtime held from the OS at the end
	fileMem    int64         // StoatFlow: resident file-backed bytes at the end (binary, libraries)
	gap        time.Duration // rebalance: the longest an output partition went without a record
	toStable   time.Duration // rebalance: from the join to the group's stability
	rebalances int           // rebalance: generations the group went through; -1: not counted
	moved      int           // rebalance: stateful tasks that changed instance
	fedAtJoin  int64         // rebalance: lines fed at the steady rate before the join
	toOutput   time.Duration // failover: from the kill to the first output of the dead instance's stateful task
}

// commitPhases are the p50 and p99 of each commit phase of one run.
type commitPhases struct {
	n, failed        int
	flush, kafka, st [2]time.Duration
}

type bench struct {
	cfg     *config
	root    string
	self    string
	jar     string
	workDir string
	broker  *broker
	log     io.Writer
	results []result
	notes   []string
}

func newBench(ctx context.Context, cfg *config, root string, log io.Writer) (*bench, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	fmt.Fprintln(log, "bench: building the Kafka Streams reference jar (cached)")
	jar, err := integration.ReferenceJar(ctx)
	if err != nil {
		return nil, err
	}
	workDir, err := os.MkdirTemp("", "stoatflow-bench-")
	if err != nil {
		return nil, err
	}
	br, err := newBroker(cfg.bootstrap)
	if err != nil {
		return nil, err
	}
	if cfg.profileDir != "" {
		if err := os.MkdirAll(cfg.profileDir, 0o755); err != nil {
			return nil, err
		}
	}
	return &bench{cfg: cfg, root: root, self: self, jar: jar, workDir: workDir, broker: br, log: log}, nil
}

func (b *bench) close() {
	b.broker.close()
	if !b.cfg.keep {
		os.RemoveAll(b.workDir)
	}
}

// errUnmeasurable marks a run that went right but whose commits came too
// far apart to measure its rate: it shows as a run that was not ok, and is
// no failure of the command.
var errUnmeasurable = errors.New("not measurable")

// failure reports the first failed run, so a smoke run fails loudly.
func (b *bench) failure() error {
	for _, r := range b.results {
		if r.err != nil && !errors.Is(r.err, errUnmeasurable) {
			return fmt.Errorf("%s on %s, round %d: %w", r.workload, r.engine, r.round+1, r.err)
		}
	}
	return nil
}

// timed runs one run of a workload under -run-timeout: run fills in r's
// figures, and its error is r's, saying so when the timeout ended it.
func (b *bench) timed(ctx context.Context, r result, run func(ctx context.Context, r *result) error) result {
	rctx, cancel := context.WithTimeout(ctx, b.cfg.runTimeout)
	defer cancel()
	if err := run(rctx, &r); err != nil {
		r.err = err
		if rctx.Err() != nil && ctx.Err() == nil {
			r.err = fmt.Errorf("not done within %v (-run-timeout): %w", b.cfg.runTimeout, err)
		}
	}
	return r
}

func (b *bench) logf(format string, args ...any) {
	fmt.Fprintf(b.log, "bench: "+format+"\n", args...)
}

func randSuffix() string {
	var x [3]byte
	_, _ = rand.Read(x[:])
	return hex.EncodeToString(x[:])
}

func slug(engine string) string {
	switch engine {
	case engStoat:
		return "sf"
	case engBaseline:
		return "sfbase"
	case engNoPolicy:
		return "sfnopolicy"
	case engKS:
		return "ks"
	case engTxnLoop:
		return "txnloop"
	case engPlainLoop:
		return "plainloop"
	}
	return "raw"
}

// rotate returns engines rotated by round, so each engine runs first,
// second, ... in turn (ABAB... over rounds).
func rotate(engines []string, round int) []string {
	n := len(engines)
	out := make([]string, n)
	for i := range engines {
		out[i] = engines[(i+round)%n]
	}
	return out
}

// app is how one run of a streams workload is configured.
type app struct {
	topology string // topology (a key of topologies) and reference app name
	props    string // .properties path, shared by both engines
	set      map[string]string
	args     map[string]string // input, output
}

func (b *bench) streamsSet(appID, stateDir string, extra map[string]string) map[string]string {
	set := map[string]string{
		"application.id":     appID,
		"bootstrap.servers":  b.cfg.bootstrap,
		"state.dir":          stateDir,
		"num.stream.threads": strconv.Itoa(b.cfg.threads),
	}
	for k, v := range extra {
		set[k] = v
	}
	for k, v := range b.cfg.set {
		set[k] = v
	}
	return set
}

// startRunning starts engine as startEngine does and waits up to 2
// minutes until it runs; a child that does not is killed.
func (b *bench) startRunning(ctx context.Context, engine string, a app, appID, profile string) (*proc, error) {
	p, err := b.startEngine(engine, a, appID, profile)
	if err != nil {
		return nil, err
	}
	wctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	if _, err := p.waitRunning(wctx); err != nil {
		p.kill()
		return nil, err
	}
	return p, nil
}

// startEngine starts engine as a child for a; appID doubles as the group
// of the ceilings.
func (b *bench) startEngine(engine string, a app, appID, profile string) (*proc, error) {
	var cmd *exec.Cmd
	switch engine {
	case engStoat, engBaseline, engNoPolicy:
		set := a.set
		if engine == engNoPolicy {
			set = maps.Clone(a.set)
			set["stoatflow.rocksdb.flush.max-lag-records"] = "0"
			set["stoatflow.rocksdb.flush.max-lag-ms"] = "0"
		}
		spec := childSpec{Mode: "stoatflow", Topology: a.topology, Args: a.args, Files: []string{a.props}, Set: set}
		raw, _ := json.Marshal(spec)
		bin := b.self
		if engine == engBaseline {
			bin = b.cfg.baseline
		}
		cmd = exec.Command(bin)
		cmd.Env = append(os.Environ(), envChild+"="+string(raw))
		if profile != "" {
			cmd.Env = append(cmd.Env, envCPUProfile+"="+profile)
		}
	case engKS:
		args := strings.Fields(b.cfg.jvmOpts)
		args = append(args, "-jar", b.jar, a.topology, "--config", a.props)
		for _, k := range sortedKeys(a.set) {
			args = append(args, "--set", k+"="+a.set[k])
		}
		for _, k := range sortedKeys(a.args) {
			args = append(args, "--arg", k+"="+a.args[k])
		}
		cmd = exec.Command("java", args...)
	case engTxnLoop, engPlainLoop:
		return b.startChild(childSpec{Mode: "loop", Bootstrap: b.cfg.bootstrap, Group: appID, Input: a.args["input"], Output: a.args["output"],
			Transactional: engine == engTxnLoop, CommitMs: b.cfg.commitMs})
	default:
		return nil, fmt.Errorf("bench: unknown engine %q", engine)
	}
	cmd.Dir = b.root
	return startProc(engine, cmd)
}

// startChild re-executes this binary as a ceiling child.
func (b *bench) startChild(spec childSpec) (*proc, error) {
	raw, err := json.Marshal(spec)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(b.self)
	cmd.Env = append(os.Environ(), envChild+"="+string(raw))
	cmd.Dir = b.root
	name := engRawRestore
	if spec.Mode == "loop" {
		name = engPlainLoop
		if spec.Transactional {
			name = engTxnLoop
		}
	}
	return startProc(name, cmd)
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// Generated data. Keys are k<n> over the key cardinality; words are 7
// characters over the same cardinality; values are printable and never
// start with '#', except one in sixteen stateless values, which the
// passthrough filter drops.

func key(i, keys int) []byte { return []byte(fmt.Sprintf("k%08d", mix(i)%uint64(keys))) }

func mix(i int) uint64 {
	x := uint64(i) + 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

func word(n uint64) string {
	s := strconv.FormatUint(n, 36)
	return "w" + strings.Repeat("0", max(0, 6-len(s))) + s
}

func (b *bench) line(i int) record {
	var sb strings.Builder
	for j := 0; j < b.cfg.words; j++ {
		if j > 0 {
			sb.WriteByte(' ')
		}
		sb.WriteString(word(mix(i*b.cfg.words+j) % uint64(b.cfg.keys)))
	}
	return record{key: key(i, b.cfg.keys), value: []byte(sb.String())}
}

func value(i, size int) []byte {
	v := make([]byte, size)
	x := mix(i)
	for j := range v {
		v[j] = 'a' + byte((x>>(j%58))&15)
	}
	return v
}

func (b *bench) statelessRecord(i int) record {
	v := value(i, b.cfg.valueSize)
	if i%16 == 15 {
		v[0] = '#'
	}
	return record{key: key(i, b.cfg.keys), value: v}
}

func (b *bench) windowedRecord(i int) record {
	return record{key: key(i, b.cfg.keys), value: value(i, b.cfg.valueSize)}
}

func wordsIn(r record) int { return len(wordcount.Words(string(r.value))) }

// throughput describes a workload measured by input records per second.
type throughput struct {
	name     string
	topology string
	props    string
	set      map[string]string
	engines  []string
	gen      func(int) record
	// table, when set, is the generator of a second input topic, the
	// topology's "table" argument, filled with tableN records before the
	// stream's topic so that every table record precedes every stream
	// record in time; the measured window starts once the table and 5% of
	// the stream are committed, so its records are the stream's alone.
	table  func(int) record
	tableN int
	// countOutput counts the output topic's records after each run, so
	// the log shows both engines doing the same work.
	countOutput bool
	// want, when set, is the output every correct run writes (records, and
	// of them results without a partner); a run that wrote other output
	// fails, so that no wrong answer is counted as a fast one.
	want func() (outputs, nulls int64)
}

func (b *bench) runWorkload(ctx context.Context, name string) error {
	props := func(example string) string { return filepath.Join(b.root, "examples", example, "streams.properties") }
	eos := map[string]string{"processing.guarantee": "exactly_once_v2", "commit.interval.ms": strconv.Itoa(b.cfg.commitMs)}
	switch name {
	case "wordcount-eos":
		return b.runThroughput(ctx, throughput{name: name, topology: "wordcount", props: props("wordcount"), set: eos,
			engines: []string{engStoat, engNoPolicy, engKS, engTxnLoop}, gen: b.line})
	case "wordcount-alos":
		return b.runThroughput(ctx, throughput{name: name, topology: "wordcount", props: props("wordcount"),
			set:     map[string]string{"processing.guarantee": "at_least_once", "commit.interval.ms": strconv.Itoa(b.cfg.alosCommitMs)},
			engines: []string{engStoat, engKS}, gen: b.line})
	case "stateless":
		return b.runThroughput(ctx, throughput{name: name, topology: "passthrough", props: props("passthrough"),
			set:     map[string]string{"processing.guarantee": "at_least_once", "commit.interval.ms": strconv.Itoa(b.cfg.commitMs)},
			engines: []string{engStoat, engKS, engPlainLoop}, gen: b.statelessRecord})
	case "windowed":
		return b.runThroughput(ctx, throughput{name: name, topology: "windowedcount", props: props("windowedcount"), set: eos,
			engines: []string{engStoat, engKS}, gen: b.windowedRecord})
	case "suppress":
		// The windowed workload's records through suppressfinal: time and
		// session counts, each suppressed until its windows close.
		return b.runThroughput(ctx, throughput{name: name, topology: "suppressfinal", props: props("suppress"), set: eos,
			engines: []string{engStoat, engKS}, gen: b.windowedRecord})
	case "ssjoin-eos":
		// A stream-stream left join of one topic's left and right records
		// (benchssjoin, joins.go), a partner per record on average.
		return b.runThroughput(ctx, throughput{name: name, topology: ssJoinName, props: filepath.Join(b.root, "integration", "bench", "ssjoin.properties"),
			set: eos, engines: []string{engStoat, engKS}, gen: b.ssJoinRecord, countOutput: true})
	case "streamtable-eos":
		// examples/joins' stream-table inner and left join: a table of a row
		// per key (but every eighth), then a stream of lookups.
		return b.runThroughput(ctx, throughput{name: name, topology: "streamtablejoin", props: props("joins"), set: eos,
			engines: []string{engStoat, engKS}, gen: b.windowedRecord, table: b.tableRecord, tableN: b.tableRows(), countOutput: true,
			want: b.streamTableOutput})
	case "latency":
		return b.runLatency(ctx, props("wordcount"), eos)
	case "latency-load":
		return b.runLatencyLoad(ctx, props("wordcount"), eos)
	case "restore":
		return b.runRestore(ctx)
	case wlRebalance, wlRebalanceStreams:
		return b.runRebalance(ctx, name, props("wordcount"), eos)
	case "failover":
		return b.runFailover(ctx, props("wordcount"), eos)
	case wlBackPressure:
		return b.runBackPressure(ctx, props("passthrough"))
	case "avro":
		// The windowed sum of AvroWindowed: Avro values in, Avro window
		// totals in the store and out, through the schema registry.
		gen, err := b.avroClicks(fmt.Sprintf("bench-avro-clicks-%s", randSuffix()))
		if err != nil {
			return err
		}
		return b.runThroughput(ctx, throughput{name: name, topology: avrocount.WindowedName, props: filepath.Join(b.root, "examples", "avrocount", "windowed.properties"),
			set: eos, engines: []string{engStoat, engKS}, gen: gen})
	}
	return fmt.Errorf("unknown workload %q", name)
}

// runThroughput preloads one input topic, then runs every engine on it in
// turn, each with its own application id (consumer group), output topic
// and internal topics.
func (b *bench) runThroughput(ctx context.Context, w throughput) error {
	input := fmt.Sprintf("bench-%s-in-%s", w.name, randSuffix())
	if err := b.broker.createTopics(ctx, b.cfg.partitions, nil, input); err != nil {
		return err
	}
	if !b.cfg.keep {
		defer b.broker.deletePrefix(context.Background(), input)
	}
	table := ""
	var tableTPs []topicPartition
	if w.table != nil {
		table = fmt.Sprintf("bench-%s-table-%s", w.name, randSuffix())
		if err := b.broker.createTopics(ctx, b.cfg.partitions, nil, table); err != nil {
			return err
		}
		if !b.cfg.keep {
			defer b.broker.deletePrefix(context.Background(), table)
		}
		b.logf("%s: producing %d table records to %s", w.name, w.tableN, table)
		if err := produce(ctx, b.cfg.bootstrap, table, w.tableN, w.table); err != nil {
			return err
		}
		var err error
		if tableTPs, err = b.broker.partitions(table); err != nil {
			return err
		}
		// The stream's records must come after the table's in time.
		time.Sleep(10 * time.Millisecond)
	}
	b.logf("%s: producing %d input records to %s", w.name, b.cfg.records, input)
	if err := produce(ctx, b.cfg.bootstrap, input, b.cfg.records, w.gen); err != nil {
		return err
	}
	tps, err := b.broker.partitions(input)
	if err != nil {
		return err
	}
	tps = append(tps, tableTPs...)
	engines := w.engines
	if b.cfg.baseline != "" {
		engines = append(slices.Clip(engines), engBaseline)
	}
	for round := 0; round < b.cfg.rounds; round++ {
		for _, engine := range rotate(engines, round) {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			r := b.throughputRun(ctx, w, engine, round, input, table, tps)
			if r.err != nil {
				b.logf("%s on %s, round %d: %v", w.name, engine, round+1, r.err)
			} else {
				out := ""
				if w.countOutput {
					out = fmt.Sprintf(", %d output records (%d without a partner)", r.outputs, r.nulls)
				}
				b.logf("%s on %s, round %d: %.0f records/s, %.2f CPU-s/M, peak RSS %.0f MiB%s", w.name, engine, round+1,
					r.recsPerSec, r.cpuPerM, float64(r.rss)/(1<<20), out)
			}
			b.results = append(b.results, r)
		}
	}
	return nil
}

// sample is one observation of a run: committed input records and the
// child's CPU time.
type sample struct {
	at        time.Time
	committed int64
	cpu       time.Duration
}

func (b *bench) throughputRun(ctx context.Context, w throughput, engine string, round int, input, table string, tps []topicPartition) (r result) {
	r = result{workload: w.name, engine: engine, round: round}
	appID := fmt.Sprintf("bench-%s-%s-%d-%s", w.name, slug(engine), round, randSuffix())
	output := appID + "-out"
	stateDir := filepath.Join(b.workDir, appID)
	if !b.cfg.keep {
		defer os.RemoveAll(stateDir)
		defer b.broker.deletePrefix(context.Background(), appID)
	}
	if r.err = b.broker.createTopics(ctx, b.cfg.partitions, nil, output); r.err != nil {
		return r
	}
	a := app{topology: w.topology, props: w.props, set: b.streamsSet(appID, stateDir, w.set),
		args: map[string]string{"input": input, "output": output}}
	if table != "" {
		a.args["table"] = table
	}
	profile := ""
	if engine == engStoat && b.cfg.profileDir != "" {
		profile = filepath.Join(b.cfg.profileDir, fmt.Sprintf("%s-round%d.pprof", w.name, round+1))
	}
	p, err := b.startEngine(engine, a, appID, profile)
	if err != nil {
		r.err = err
		return r
	}
	defer p.kill()
	total := int64(b.cfg.records + w.tableN)
	var samples []sample
	var reps []topicPartition
	deadline := time.Now().Add(b.cfg.runTimeout)
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			r.err = ctx.Err()
			return r
		case <-tick.C:
		}
		if !p.alive() {
			r.err = fmt.Errorf("exited early: %v\n%s", p.err, p.stderr.String())
			return r
		}
		if time.Now().After(deadline) {
			last := int64(0)
			if len(samples) > 0 {
				last = samples[len(samples)-1].committed
			}
			r.err = fmt.Errorf("only %d of %d records committed within %v\n%s", last, total, b.cfg.runTimeout, p.stderr.String())
			return r
		}
		cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		c, err := b.broker.committed(cctx, appID, tps)
		cancel()
		if err != nil {
			continue
		}
		cpu, err := p.cpu()
		if err != nil {
			continue
		}
		now := time.Now()
		if c < total {
			samples = append(samples, sample{now, c, cpu})
			continue
		}
		// The input is committed; with a repartition topic the second
		// sub-topology may still be behind. The run ends when it has
		// committed its input too.
		if reps == nil {
			if reps, err = b.broker.repartitionTopics(appID); err != nil {
				continue
			}
		}
		done := true
		if len(reps) > 0 {
			cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
			done, err = b.broker.drained(cctx, appID, reps)
			cancel()
		}
		if err == nil && done {
			samples = append(samples, sample{now, c, cpu})
			break
		}
	}
	// The window runs from the first sample past 5% of the input (of the
	// stream, after the whole table) to the first with all of it: JVM
	// start, group join, the first fetches and the table's load are
	// outside it on both engines.
	var s0 *sample
	from := int64(w.tableN) + int64(b.cfg.records)/20
	for i := range samples {
		if samples[i].committed >= from && samples[i].committed > 0 {
			s0 = &samples[i]
			break
		}
	}
	s1 := samples[len(samples)-1]
	if len(reps) > 0 && s0 != nil && s0.committed > int64(w.tableN)+int64(b.cfg.records)/2 && s0.committed < s1.committed {
		// The first commit in the window already held most of the input,
		// and the window ends when the last sub-topology has committed
		// its share of the repartition topics, up to a commit interval
		// after the input: the few records left would be measured against
		// that wait.
		r.err = fmt.Errorf("%w: the first commit held %d of %d records, commits are too far apart to measure this run "+
			"(raise -records, or lower the workload's commit interval)", errUnmeasurable, s0.committed, total)
		return r
	}
	if s0 == nil || !s1.at.After(s0.at) || s1.committed <= s0.committed {
		if !s1.at.After(p.started) {
			r.err = fmt.Errorf("no measurable window")
			return r
		}
		// Everything landed in one commit: fall back to the whole run.
		s0 = &sample{at: p.started, committed: 0, cpu: 0}
	}
	n := float64(s1.committed - s0.committed)
	r.window = s1.at.Sub(s0.at)
	r.recsPerSec = n / r.window.Seconds()
	r.cpuPerM = (s1.cpu - s0.cpu).Seconds() / n * 1e6
	r.rss, _ = p.peakRSS()
	if err := p.stop(time.Minute); err != nil {
		b.logf("%s on %s: %v", w.name, engine, err)
	}
	if w.countOutput {
		cctx, cancel := context.WithTimeout(ctx, time.Minute)
		r.outputs, r.nulls, err = countRecords(cctx, b.broker.admin, b.cfg.bootstrap, output, 10*time.Second)
		cancel()
		if err != nil {
			b.logf("%s on %s: counting %s: %v", w.name, engine, output, err)
		} else if w.want != nil {
			if n, nulls := w.want(); r.outputs != n || r.nulls != nulls {
				r.err = fmt.Errorf("wrong output: %d records, %d of them without a partner; every correct run writes %d and %d "+
					"(the run measured %.0f records/s, %.2f CPU-s/M)", r.outputs, r.nulls, n, nulls, r.recsPerSec, r.cpuPerM)
			}
		}
	}
	if engine == engStoat {
		r.commits = parseCommits(p)
		if ls := p.linesWith("GOMEM "); len(ls) > 0 {
			if f := strings.Fields(ls[0].text); len(f) >= 3 {
				r.goMem, _ = strconv.ParseInt(f[1], 10, 64)
				if len(f) >= 4 {
					r.fileMem, _ = strconv.ParseInt(f[3], 10, 64)
				}
			}
		}
	}
	return r
}

func parseCommits(p *proc) *commitPhases {
	ls := p.linesWith("COMMITS ")
	if len(ls) == 0 {
		return nil
	}
	f := strings.Fields(ls[len(ls)-1].text)
	if len(f) != 9 {
		return nil
	}
	v := make([]int64, 8)
	for i := range v {
		v[i], _ = strconv.ParseInt(f[i+1], 10, 64)
	}
	us := func(x int64) time.Duration { return time.Duration(x) * time.Microsecond }
	return &commitPhases{n: int(v[0]), failed: int(v[1]),
		flush: [2]time.Duration{us(v[2]), us(v[3])}, kafka: [2]time.Duration{us(v[4]), us(v[5])}, st: [2]time.Duration{us(v[6]), us(v[7])}}
}
