package main

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strings"
	"time"
)

// agg is the medians of one (workload, engine) over its successful runs.
type agg struct {
	workload, engine string
	ok, runs         int
	recsPerSec       float64
	cpuPerM          float64
	rss              float64
	p50, p99         float64 // milliseconds
	restoreMBs       float64
	replayed         float64
	toRunning        float64 // seconds
	gap, toStable    float64 // rebalance: seconds
	rebalances       float64 // rebalance: -1 where no run counted them
	moved            float64 // rebalance: stateful tasks moved
	toOutput         float64 // failover: seconds from the kill to the task's output
	commits          *commitPhases
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func medianDur(ds []time.Duration) time.Duration {
	xs := make([]float64, len(ds))
	for i, d := range ds {
		xs[i] = float64(d)
	}
	return time.Duration(median(xs))
}

func (b *bench) aggregate() []*agg {
	var out []*agg
	idx := map[[2]string]*agg{}
	vals := map[*agg]map[string][]float64{}
	phases := map[*agg][][6]time.Duration{}
	for _, r := range b.results {
		k := [2]string{r.workload, r.engine}
		a := idx[k]
		if a == nil {
			a = &agg{workload: r.workload, engine: r.engine}
			idx[k] = a
			out = append(out, a)
			vals[a] = map[string][]float64{}
		}
		a.runs++
		if r.err != nil {
			continue
		}
		a.ok++
		v := vals[a]
		v["rps"] = append(v["rps"], r.recsPerSec)
		v["cpu"] = append(v["cpu"], r.cpuPerM)
		v["rss"] = append(v["rss"], float64(r.rss))
		v["p50"] = append(v["p50"], float64(r.p50)/1e6)
		v["p99"] = append(v["p99"], float64(r.p99)/1e6)
		v["mbs"] = append(v["mbs"], r.restoreMBs)
		v["rep"] = append(v["rep"], float64(r.replayed))
		v["run"] = append(v["run"], r.toRunning.Seconds())
		v["gap"] = append(v["gap"], r.gap.Seconds())
		v["stable"] = append(v["stable"], r.toStable.Seconds())
		v["moved"] = append(v["moved"], float64(r.moved))
		v["out"] = append(v["out"], r.toOutput.Seconds())
		if r.rebalances >= 0 {
			v["reb"] = append(v["reb"], float64(r.rebalances))
		}
		if c := r.commits; c != nil {
			phases[a] = append(phases[a], [6]time.Duration{c.flush[0], c.flush[1], c.kafka[0], c.kafka[1], c.st[0], c.st[1]})
			if a.commits == nil {
				a.commits = &commitPhases{}
			}
			a.commits.n += c.n
			a.commits.failed += c.failed
		}
	}
	for _, a := range out {
		v := vals[a]
		a.recsPerSec, a.cpuPerM, a.rss = median(v["rps"]), median(v["cpu"]), median(v["rss"])
		a.p50, a.p99, a.restoreMBs = median(v["p50"]), median(v["p99"]), median(v["mbs"])
		a.replayed, a.toRunning = median(v["rep"]), median(v["run"])
		a.gap, a.toStable, a.moved = median(v["gap"]), median(v["stable"]), median(v["moved"])
		a.toOutput = median(v["out"])
		a.rebalances = -1
		if len(v["reb"]) > 0 {
			a.rebalances = median(v["reb"])
		}
		if ps := phases[a]; len(ps) > 0 {
			col := func(i int) time.Duration {
				ds := make([]time.Duration, len(ps))
				for j, p := range ps {
					ds[j] = p[i]
				}
				return medianDur(ds)
			}
			a.commits.flush = [2]time.Duration{col(0), col(1)}
			a.commits.kafka = [2]time.Duration{col(2), col(3)}
			a.commits.st = [2]time.Duration{col(4), col(5)}
		}
	}
	return out
}

func find(aggs []*agg, workload, engine string) *agg {
	for _, a := range aggs {
		if a.workload == workload && a.engine == engine && a.ok > 0 {
			return a
		}
	}
	return nil
}

// report prints the run's settings, the table of medians, the ratios
// against Kafka Streams and the ceilings, the targets and commit phases.
func (b *bench) report(w io.Writer, c *config, took time.Duration) {
	aggs := b.aggregate()
	fmt.Fprintf(w, "\nStoatFlow benchmarks: %d round(s), medians; %s total\n", c.rounds, took.Round(time.Second))
	fmt.Fprintf(w, "command: go run ./integration/bench %s\n", strings.Join(c.args, " "))
	fmt.Fprintf(w, "machine: %s\n", machine())
	fmt.Fprintf(w, "records=%d keys=%d value-size=%d words=%d partitions=%d threads=%d commit-ms=%d alos-commit-ms=%d "+
		"latency-rate=%d/s latency-duration=%v latency-loads=%v%% restore-mb=%d restore-value-size=%d "+
		"rebalance-records=%d rebalance-rate=%d/s failover-records=%d failover-rate=%d/s backpressure-rate=%d/s jvm-opts=%q\n\n",
		c.records, c.keys, c.valueSize, c.words, c.partitions, c.threads, c.commitMs, c.alosCommitMs,
		c.latencyRate, c.latencyDur, c.latencyLoads, c.restoreMB, c.restoreValue, c.rebalanceRecords, c.rebalanceRate,
		c.failoverRecords, c.failoverRate, c.backPressureRate, c.jvmOpts)
	if len(c.set) > 0 {
		fmt.Fprintf(w, "properties set on both engines: %v\n", c.set)
	}

	fmt.Fprintln(w, "| workload | engine | records/s | CPU-s per M records | peak RSS MiB | p50 ms | p99 ms | restore MiB/s | records restored | start → RUNNING s | output gap s | rebalances | join → stable s | kill → output s | ok runs |")
	fmt.Fprintln(w, "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
	dash := func(x float64, format string) string {
		if x == 0 {
			return "—"
		}
		return fmt.Sprintf(format, x)
	}
	for _, a := range aggs {
		restoreRow := strings.HasPrefix(a.workload, "restore") || strings.HasPrefix(a.workload, "restart")
		rps, cpu := dash(a.recsPerSec, "%.0f"), dash(a.cpuPerM, "%.2f")
		rep, run, gap, reb, stable, out := "—", "—", "—", "—", "—", "—"
		if restoreRow {
			rep = fmt.Sprintf("%.0f", a.replayed)
			if a.engine == engStoat {
				run = fmt.Sprintf("%.1f", a.toRunning)
			}
		}
		if slices.Contains(rebalanceWorkloads, a.workload) && a.ok > 0 {
			rep, gap, stable = fmt.Sprintf("%.0f", a.replayed), fmt.Sprintf("%.2f", a.gap), fmt.Sprintf("%.1f", a.toStable)
			if a.rebalances >= 0 {
				reb = fmt.Sprintf("%g", a.rebalances)
			}
		}
		if strings.HasPrefix(a.workload, "failover") && a.ok > 0 {
			rep, out = fmt.Sprintf("%.0f", a.replayed), fmt.Sprintf("%.2f", a.toOutput)
			if a.rebalances >= 0 {
				reb = fmt.Sprintf("%g", a.rebalances)
			}
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %d/%d |\n", a.workload, a.engine, rps, cpu,
			dash(a.rss/(1<<20), "%.0f"), dash(a.p50, "%.1f"), dash(a.p99, "%.1f"), dash(a.restoreMBs, "%.1f"), rep, run, gap, reb, stable, out, a.ok, a.runs)
	}

	fmt.Fprintln(w, "\nRatios of medians (StoatFlow ÷ reference):")
	ratio := func(label string, num, den float64) {
		if num == 0 || den == 0 {
			fmt.Fprintf(w, "- %s: n/a\n", label)
			return
		}
		fmt.Fprintf(w, "- %s: %.3f\n", label, num/den)
	}
	for _, ref := range []struct{ engine, name string }{{engKS, "Kafka Streams"}, {engBaseline, "the baseline build"}} {
		for _, wl := range []string{"wordcount-eos", "stateless", "wordcount-alos", "windowed", "suppress", "ssjoin-eos", "streamtable-eos"} {
			sf, other := find(aggs, wl, engStoat), find(aggs, wl, ref.engine)
			if sf == nil || other == nil {
				continue
			}
			ratio(wl+" throughput vs "+ref.name, sf.recsPerSec, other.recsPerSec)
			ratio(wl+" CPU per record vs "+ref.name, sf.cpuPerM, other.cpuPerM)
			ratio(wl+" peak RSS vs "+ref.name, sf.rss, other.rss)
		}
	}
	if sf, ks := find(aggs, "latency", engStoat), find(aggs, "latency", engKS); sf != nil && ks != nil {
		ratio("latency p50 vs Kafka Streams", sf.p50, ks.p50)
		ratio("latency p99 vs Kafka Streams", sf.p99, ks.p99)
	}
	for _, pct := range c.latencyLoads {
		wl := latencyLoadWorkload(pct)
		if sf, ks := find(aggs, wl, engStoat), find(aggs, wl, engKS); sf != nil && ks != nil {
			ratio(wl+" p50 vs Kafka Streams", sf.p50, ks.p50)
			ratio(wl+" p99 vs Kafka Streams", sf.p99, ks.p99)
		}
	}

	for _, wl := range rebalanceWorkloads {
		sf, ks := find(aggs, wl, engStoat), find(aggs, wl, engKS)
		if sf == nil || ks == nil {
			continue
		}
		ratio(wl+" output gap vs Kafka Streams", sf.gap, ks.gap)
		ratio(wl+" records restored vs Kafka Streams", sf.replayed, ks.replayed)
		ratio(wl+" join → stable vs Kafka Streams", sf.toStable, ks.toStable)
		if sf.rebalances >= 0 && ks.rebalances >= 0 {
			label := "rebalances"
			if wl != wlRebalance {
				label = wl + " rebalances"
			}
			ratio(label+" vs Kafka Streams", sf.rebalances, ks.rebalances)
		}
	}
	for _, standbys := range []int{0, 1} {
		wl := failoverWorkload(standbys)
		if sf, ks := find(aggs, wl, engStoat), find(aggs, wl, engKS); sf != nil && ks != nil {
			ratio(wl+" kill → output vs Kafka Streams", sf.toOutput, ks.toOutput)
			ratio(wl+" records restored vs Kafka Streams", sf.replayed, ks.replayed)
		}
	}

	fmt.Fprintln(w, "\nTargets:")
	target := func(label string, sf, ref *agg, get func(*agg) float64, bound float64, atMost bool) {
		if sf == nil || ref == nil || get(ref) == 0 {
			fmt.Fprintf(w, "- %s: not measured\n", label)
			return
		}
		r := get(sf) / get(ref)
		met := r >= bound
		if atMost {
			met = r <= bound
		}
		verdict := "NOT MET"
		if met {
			verdict = "met"
		}
		fmt.Fprintf(w, "- %s: %.3f → %s\n", label, r, verdict)
	}
	cpu := func(a *agg) float64 { return a.cpuPerM }
	rss := func(a *agg) float64 { return a.rss }
	p99 := func(a *agg) float64 { return a.p99 }
	rps := func(a *agg) float64 { return a.recsPerSec }
	mbs := func(a *agg) float64 { return a.restoreMBs }
	target("word count EOS CPU per record ≤ 1/4 of Kafka Streams", find(aggs, "wordcount-eos", engStoat), find(aggs, "wordcount-eos", engKS), cpu, 0.25, true)
	target("word count EOS throughput ≥ 2× Kafka Streams'", find(aggs, "wordcount-eos", engStoat), find(aggs, "wordcount-eos", engKS), rps, 2, false)
	target("word count EOS peak RSS ≤ 1/5 of Kafka Streams", find(aggs, "wordcount-eos", engStoat), find(aggs, "wordcount-eos", engKS), rss, 0.2, true)
	target("word count EOS peak RSS ≤ 1/8 of Kafka Streams", find(aggs, "wordcount-eos", engStoat), find(aggs, "wordcount-eos", engKS), rss, 0.125, true)
	target("word count EOS p99 latency ≤ 1/14 of Kafka Streams", find(aggs, "latency", engStoat), find(aggs, "latency", engKS), p99, 1.0/14, true)
	for _, pct := range c.latencyLoads {
		if pct >= 75 {
			wl := latencyLoadWorkload(pct)
			target(fmt.Sprintf("word count EOS p99 latency at %d%% of Kafka Streams' maximum throughput ≤ 1/5 of Kafka Streams'", pct),
				find(aggs, wl, engStoat), find(aggs, wl, engKS), p99, 0.2, true)
		}
	}
	target("word count EOS CPU per record with the default flush policy ≤ 1.05× without it", find(aggs, "wordcount-eos", engStoat), find(aggs, "wordcount-eos", engNoPolicy), cpu, 1.05, true)
	target("word count EOS throughput ≥ 70% of the transactional consume→produce ceiling", find(aggs, "wordcount-eos", engStoat), find(aggs, "wordcount-eos", engTxnLoop), rps, 0.70, false)
	target("stateless throughput ≥ 80% of the plain consume→produce ceiling", find(aggs, "stateless", engStoat), find(aggs, "stateless", engPlainLoop), rps, 0.80, false)
	for _, wl := range []string{"ssjoin-eos", "streamtable-eos"} {
		target(wl+" throughput ≥ Kafka Streams'", find(aggs, wl, engStoat), find(aggs, wl, engKS), rps, 1, false)
		target(wl+" CPU per record ≤ 1/2 of Kafka Streams'", find(aggs, wl, engStoat), find(aggs, wl, engKS), cpu, 0.5, true)
	}
	// No worse than Kafka Streams: at most its figure, 0 against 0 included.
	noWorse := func(workload, label, format string, get func(*agg) float64) {
		sf, ks := find(aggs, workload, engStoat), find(aggs, workload, engKS)
		if sf == nil || ks == nil {
			fmt.Fprintf(w, "- %s: not measured\n", label)
			return
		}
		verdict := "NOT MET"
		if get(sf) <= get(ks) {
			verdict = "met"
		}
		fmt.Fprintf(w, "- %s: "+format+" against "+format+" → %s\n", label, get(sf), get(ks), verdict)
	}
	for _, wl := range rebalanceWorkloads {
		if wl != wlRebalance && !contains(c.workloads, wl) {
			continue // not run: the classic row's "not measured" says enough
		}
		noWorse(wl, wl+" output gap ≤ Kafka Streams'", "%.2f s", func(a *agg) float64 { return a.gap })
		noWorse(wl, wl+" records restored ≤ Kafka Streams'", "%.0f", func(a *agg) float64 { return a.replayed })
	}
	for _, standbys := range []int{0, 1} {
		wl := failoverWorkload(standbys)
		noWorse(wl, wl+" kill → output ≤ Kafka Streams'", "%.2f s", func(a *agg) float64 { return a.toOutput })
	}
	if contains(c.workloads, wlBackPressure) {
		noWorse(wlBackPressure, wlBackPressure+" slow partitions' p99 ≤ Kafka Streams'", "%.1f ms", p99)
		noWorse(wlBackPressure, wlBackPressure+" peak RSS ≤ Kafka Streams'", "%.0f MiB", func(a *agg) float64 { return a.rss / (1 << 20) })
		bounded, unbounded := find(aggs, wlBackPressure, engStoat), find(aggs, wlBackPressure, backPressureRuns[1].name)
		if bounded != nil && unbounded != nil {
			fmt.Fprintf(w, "- %s peak RSS, bound %d against unbounded: %.0f MiB against %.0f MiB\n", wlBackPressure, backPressureBound,
				bounded.rss/(1<<20), unbounded.rss/(1<<20))
		}
	}
	target("restore ≥ 70% of raw WriteBatch ingest", find(aggs, "restore (full)", engStoat), find(aggs, "restore (full)", engRawRestore), mbs, 0.70, false)

	first := true
	for _, a := range aggs {
		if a.commits == nil {
			continue
		}
		if first {
			fmt.Fprintln(w, "\nStoatFlow commit phases (txn.CommitStats; medians over runs of each run's p50 / p99):")
			fmt.Fprintln(w, "\n| workload | commits | failed | flush p50 / p99 ms | send offsets + commit p50 / p99 ms | store write batch p50 / p99 ms |")
			fmt.Fprintln(w, "| --- | ---: | ---: | ---: | ---: | ---: |")
			first = false
		}
		ms := func(d [2]time.Duration) string {
			return fmt.Sprintf("%.2f / %.2f", float64(d[0])/1e6, float64(d[1])/1e6)
		}
		fmt.Fprintf(w, "| %s | %d | %d | %s | %s | %s |\n", a.workload, a.commits.n, a.commits.failed, ms(a.commits.flush), ms(a.commits.kafka), ms(a.commits.st))
	}
	for _, wl := range []string{"wordcount-eos", "stateless"} {
		var gm, fm []float64
		for _, r := range b.results {
			if r.workload == wl && r.engine == engStoat && r.err == nil && r.goMem > 0 {
				gm = append(gm, float64(r.goMem))
				fm = append(fm, float64(r.fileMem))
			}
		}
		if sf := find(aggs, wl, engStoat); sf != nil && len(gm) > 0 {
			b.notes = append(b.notes, fmt.Sprintf("%s: of StoatFlow's %.0f MiB peak RSS, the Go runtime held %.0f MiB and mapped files "+
				"(the binary, librocksdb and the other shared libraries) %.0f MiB at the end (medians); the rest is C memory "+
				"(RocksDB's memtables and block cache, the allocator's arenas)", wl, sf.rss/(1<<20), median(gm)/(1<<20), median(fm)/(1<<20)))
		}
	}
	for _, wl := range []string{"ssjoin-eos", "streamtable-eos"} {
		var parts []string
		for _, eng := range []string{engStoat, engKS, engBaseline} {
			var outs, nulls []float64
			for _, r := range b.results {
				if r.workload == wl && r.engine == eng && r.err == nil {
					outs = append(outs, float64(r.outputs))
					nulls = append(nulls, float64(r.nulls))
				}
			}
			if len(outs) > 0 {
				parts = append(parts, fmt.Sprintf("%s %.0f (%.0f without a partner)", eng, median(outs), median(nulls)))
			}
		}
		if len(parts) > 0 {
			b.notes = append(b.notes, fmt.Sprintf("%s: output records per run (medians): %s", wl, strings.Join(parts, ", ")))
		}
	}
	if len(b.notes) > 0 {
		fmt.Fprintln(w, "\nNotes:")
		for _, n := range b.notes {
			fmt.Fprintln(w, "- "+n)
		}
	}
	first = true
	for _, r := range b.results {
		if r.err != nil {
			if first {
				fmt.Fprintln(w, "\nFailed runs:")
				first = false
			}
			fmt.Fprintf(w, "- %s on %s, round %d: %v\n", r.workload, r.engine, r.round+1, firstLine(r.err.Error()))
		}
	}
}

// machine describes the host: CPUs, CPU model and memory.
func machine() string {
	model := "unknown CPU"
	if raw, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, l := range strings.Split(string(raw), "\n") {
			if k, v, ok := strings.Cut(l, ":"); ok && strings.TrimSpace(k) == "model name" {
				model = strings.TrimSpace(v)
				break
			}
		}
	}
	mem := "unknown memory"
	if raw, err := os.ReadFile("/proc/meminfo"); err == nil {
		for _, l := range strings.Split(string(raw), "\n") {
			if v, ok := strings.CutPrefix(l, "MemTotal:"); ok {
				var kb int64
				fmt.Sscan(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), &kb)
				mem = fmt.Sprintf("%.1f GiB", float64(kb)/(1<<20))
				break
			}
		}
	}
	return fmt.Sprintf("%d CPUs (runtime.NumCPU), %s, %s RAM, %s", runtime.NumCPU(), model, mem, runtime.Version())
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
