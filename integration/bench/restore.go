package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/stoatflow/stoatflow/kstreams"
)

// latestTopology keeps the latest value of every key in the store
// "latest": the restore workload's application. Its changelog,
// <application.id>-latest-changelog, is written directly by the bench.
const latestTopology = "bench-latest"

// buildLatest builds latestTopology.
func buildLatest(args map[string]string) (*kstreams.Topology, error) {
	b := kstreams.NewStreamsBuilder()
	s := kstreams.Stream[string, string](b, []string{args["input"]})
	s.GroupByKey().Reduce(func(_, v string) string { return v },
		kstreams.MaterializedAs[string, string]("latest"))
	return b.Build()
}

// restoreUpdates is how many records the crash scenario processes before
// the kill, so the store has commits that are not yet flushed.
const restoreUpdates = 20_000

// runRestore measures StoatFlow restoring a large store: in full (an empty
// state directory), after a clean stop, and after SIGKILL; and the raw
// ceiling, the same changelog consumed and written with grocksdb
// WriteBatches. One application id and changelog serve every round; each
// round empties the task directories (keeping the process id, so the
// static member keeps its identity).
func (b *bench) runRestore(ctx context.Context) error {
	appID := "bench-restore-" + randSuffix()
	input, changelog := appID+"-in", appID+"-latest-changelog"
	stateDir := filepath.Join(b.workDir, appID)
	if !b.cfg.keep {
		defer os.RemoveAll(stateDir)
		defer b.broker.deletePrefix(context.Background(), appID)
	}
	if err := b.broker.createTopics(ctx, b.cfg.partitions, nil, input); err != nil {
		return err
	}
	if err := b.broker.createTopics(ctx, b.cfg.partitions, map[string]string{"cleanup.policy": "compact"}, changelog); err != nil {
		return err
	}
	recBytes := 13 + b.cfg.restoreValue
	n := int(int64(b.cfg.restoreMB) << 20 / int64(recBytes))
	b.logf("restore: producing %d changelog records (%d MiB) to %s", n, b.cfg.restoreMB, changelog)
	gen := func(i int) record {
		return record{key: []byte(fmt.Sprintf("k%012d", i)), value: value(i, b.cfg.restoreValue)}
	}
	if err := produce(ctx, b.cfg.bootstrap, changelog, n, gen); err != nil {
		return err
	}
	changelogBytes := int64(n) * int64(recBytes)
	b.notes = append(b.notes, fmt.Sprintf("restore: changelog of %d records, %d-byte keys and %d-byte values, %.0f MiB, over %d partitions",
		n, 13, b.cfg.restoreValue, float64(changelogBytes)/(1<<20), b.cfg.partitions))

	a := app{topology: latestTopology, props: filepath.Join(b.root, "examples", "wordcount", "streams.properties"),
		set: b.streamsSet(appID, stateDir, map[string]string{"processing.guarantee": "exactly_once_v2",
			"commit.interval.ms": strconv.Itoa(b.cfg.commitMs)}),
		args: map[string]string{"input": input}}
	updates := 0
	for round := 0; round < b.cfg.rounds; round++ {
		for _, engine := range rotate([]string{engStoat, engRawRestore}, round) {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			if engine == engRawRestore {
				r := b.rawRestoreRun(ctx, changelog, round)
				b.results = append(b.results, r)
				continue
			}
			rs := b.stoatRestoreRound(ctx, a, stateDir, round, changelogBytes, &updates, gen)
			b.results = append(b.results, rs...)
			// Updates went through the topology into the changelog.
			changelogBytes = int64(n+updates) * int64(recBytes)
		}
	}
	return nil
}

// stoatRestoreRound runs the three restore scenarios once.
func (b *bench) stoatRestoreRound(ctx context.Context, a app, stateDir string, round int, changelogBytes int64, updates *int, gen func(int) record) []result {
	full := result{workload: "restore (full)", engine: engStoat, round: round}
	clean := result{workload: "restart after clean stop", engine: engStoat, round: round}
	crash := result{workload: "restart after SIGKILL", engine: engStoat, round: round}
	fail := func(err error) []result {
		full.err, clean.err, crash.err = err, err, err
		return []result{full, clean, crash}
	}
	if err := emptyTasks(filepath.Join(stateDir, a.set["application.id"])); err != nil {
		return fail(err)
	}
	profile := ""
	if b.cfg.profileDir != "" {
		profile = filepath.Join(b.cfg.profileDir, fmt.Sprintf("restore-round%d.pprof", round+1))
	}
	// Full restore.
	p, took, err := b.startAndWait(ctx, a, profile)
	if err != nil {
		return fail(err)
	}
	span, records := restoreSpan(p)
	full.toRunning, full.replayed = took, records
	if span > 0 {
		full.restoreMBs = float64(changelogBytes) / (1 << 20) / span.Seconds()
	}
	full.rss, _ = p.peakRSS()
	b.logf("restore on StoatFlow, round %d: %d records in %v (%.1f MiB/s), RUNNING after %v", round+1, records, span, full.restoreMBs, took)
	if err := p.stop(2 * time.Minute); err != nil {
		return fail(err)
	}
	// After a clean stop: the store's offset is current.
	p, took, err = b.startAndWait(ctx, a, "")
	if err != nil {
		return fail(err)
	}
	_, clean.replayed = restoreSpan(p)
	clean.toRunning = took
	clean.rss, _ = p.peakRSS()
	b.logf("restart after clean stop, round %d: %d records replayed, RUNNING after %v", round+1, clean.replayed, took)
	// Process updates, then SIGKILL: the store's durable offset is that of
	// its last memtable flush.
	first := *updates
	if err := produce(ctx, b.cfg.bootstrap, a.args["input"], restoreUpdates, func(i int) record { return gen(first + i) }); err != nil {
		p.kill()
		return fail(err)
	}
	*updates += restoreUpdates
	tps, err := b.broker.partitions(a.args["input"])
	if err != nil {
		p.kill()
		return fail(err)
	}
	deadline := time.Now().Add(b.cfg.runTimeout)
	for {
		c, err := b.broker.committed(ctx, a.set["application.id"], tps)
		if err == nil && c >= int64(*updates) {
			break
		}
		if time.Now().After(deadline) || !p.alive() {
			p.kill()
			return fail(fmt.Errorf("updates not committed: %v\n%s", err, p.stderr.String()))
		}
		time.Sleep(100 * time.Millisecond)
	}
	p.kill()
	p, took, err = b.startAndWait(ctx, a, "")
	if err != nil {
		return fail(err)
	}
	span, crash.replayed = restoreSpan(p)
	crash.toRunning = took
	if span > 0 && crash.replayed > 0 {
		crash.restoreMBs = float64(crash.replayed) * float64(13+b.cfg.restoreValue) / (1 << 20) / span.Seconds()
	}
	crash.rss, _ = p.peakRSS()
	b.logf("restart after SIGKILL, round %d: %d records replayed, RUNNING after %v", round+1, crash.replayed, took)
	if err := p.stop(2 * time.Minute); err != nil {
		return fail(err)
	}
	return []result{full, clean, crash}
}

func (b *bench) startAndWait(ctx context.Context, a app, profile string) (*proc, time.Duration, error) {
	p, err := b.startEngine(engStoat, a, "", profile)
	if err != nil {
		return nil, 0, err
	}
	wctx, cancel := context.WithTimeout(ctx, b.cfg.runTimeout)
	defer cancel()
	at, err := p.waitRunning(wctx)
	if err != nil {
		p.kill()
		return nil, 0, err
	}
	return p, at.Sub(p.started), nil
}

// restoreSpan returns the time from the first RESTORE-START to the last
// RESTORE-END a child printed (its own clock), and the records replayed.
func restoreSpan(p *proc) (time.Duration, int64) {
	var first, last int64
	for _, l := range p.linesWith("RESTORE-START ") {
		f := strings.Fields(l.text)
		if ns, err := strconv.ParseInt(f[1], 10, 64); err == nil && (first == 0 || ns < first) {
			first = ns
		}
	}
	var records int64
	for _, l := range p.linesWith("RESTORE-END ") {
		f := strings.Fields(l.text)
		if len(f) < 5 {
			continue
		}
		if ns, err := strconv.ParseInt(f[1], 10, 64); err == nil && ns > last {
			last = ns
		}
		n, _ := strconv.ParseInt(f[4], 10, 64)
		records += n
	}
	if first == 0 || last < first {
		return 0, records
	}
	return time.Duration(last - first), records
}

// emptyTasks deletes the task directories under an application's state
// directory, keeping the process id file.
func emptyTasks(dir string) error {
	entries, err := os.ReadDir(dir)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		return err
	}
	for _, e := range entries {
		if e.IsDir() {
			if err := os.RemoveAll(filepath.Join(dir, e.Name())); err != nil {
				return err
			}
		}
	}
	return nil
}

func (b *bench) rawRestoreRun(ctx context.Context, changelog string, round int) (r result) {
	r = result{workload: "restore (full)", engine: engRawRestore, round: round}
	dir := filepath.Join(b.workDir, "raw-restore-"+randSuffix())
	defer os.RemoveAll(dir)
	spec := childSpec{Mode: "rawrestore", Bootstrap: b.cfg.bootstrap, Group: "bench-raw-restore", Input: changelog, Dir: dir}
	p, err := b.startChild(spec)
	if err != nil {
		r.err = err
		return r
	}
	defer p.kill()
	wctx, cancel := context.WithTimeout(ctx, b.cfg.runTimeout)
	defer cancel()
	if _, err := p.waitLine(wctx, func(s string) bool { return strings.HasPrefix(s, "RESTORE-END ") }); err != nil {
		r.err = err
		return r
	}
	span, _ := restoreSpan(p)
	f := strings.Fields(p.linesWith("RESTORE-END ")[0].text)
	bytes, _ := strconv.ParseInt(f[len(f)-1], 10, 64)
	records, _ := strconv.ParseInt(f[len(f)-2], 10, 64)
	r.replayed = records
	if span > 0 {
		r.restoreMBs = float64(bytes) / (1 << 20) / span.Seconds()
	}
	r.rss, _ = p.peakRSS()
	if err := p.stop(time.Minute); err != nil {
		b.logf("raw restore: %v", err)
	}
	b.logf("restore on raw WriteBatch, round %d: %d records, %.1f MiB/s", round+1, records, r.restoreMBs)
	return r
}
