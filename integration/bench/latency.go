package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"
)

// runLatency runs word count under exactly_once_v2 on each engine at a
// fixed offered load (latency-rate lines per second, below both engines'
// saturation) and measures input timestamp → output visible to a
// read_committed consumer.
func (b *bench) runLatency(ctx context.Context, props string, set map[string]string) error {
	for round := 0; round < b.cfg.rounds; round++ {
		for _, engine := range rotate([]string{engStoat, engKS}, round) {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			r := b.latencyRun(ctx, "latency", b.cfg.latencyRate, engine, round, props, set)
			if r.err != nil {
				b.logf("latency on %s, round %d: %v", engine, round+1, r.err)
			} else {
				b.logf("latency on %s, round %d: p50 %v, p99 %v", engine, round+1, r.p50, r.p99)
			}
			b.results = append(b.results, r)
		}
	}
	return nil
}

// latencyLoadWorkload names the latency run at pct% of Kafka Streams'
// measured maximum throughput.
func latencyLoadWorkload(pct int) string { return fmt.Sprintf("latency @%d%%", pct) }

// runLatencyLoad measures word count's latency under exactly_once_v2 on
// each engine at each of the configured fractions of Kafka Streams'
// maximum throughput, as this run's wordcount-eos workload measured it
// (or as -latency-max gives it): latency under load, not only at a light
// one.
func (b *bench) runLatencyLoad(ctx context.Context, props string, set map[string]string) error {
	maxRate, from := b.ksMaxThroughput()
	if maxRate <= 0 {
		return fmt.Errorf("latency-load needs Kafka Streams' maximum word-count throughput: run the wordcount-eos workload before it " +
			"(no run of it on Kafka Streams was measurable here), or give -latency-max")
	}
	b.logf("latency under load: Kafka Streams' maximum word-count throughput %.0f lines/s (%s)", maxRate, from)
	b.notes = append(b.notes, fmt.Sprintf("latency @N%%: offered N%% of Kafka Streams' maximum word-count throughput under exactly_once_v2, %.0f lines/s (%s)", maxRate, from))
	for _, pct := range b.cfg.latencyLoads {
		rate := int(maxRate * float64(pct) / 100)
		if rate < 1 {
			rate = 1
		}
		name := latencyLoadWorkload(pct)
		for round := 0; round < b.cfg.rounds; round++ {
			for _, engine := range rotate([]string{engStoat, engKS}, round) {
				if ctx.Err() != nil {
					return ctx.Err()
				}
				r := b.latencyRun(ctx, name, rate, engine, round, props, set)
				if r.err != nil {
					b.logf("%s (%d lines/s) on %s, round %d: %v", name, rate, engine, round+1, r.err)
				} else {
					b.logf("%s (%d lines/s) on %s, round %d: p50 %v, p99 %v", name, rate, engine, round+1, r.p50, r.p99)
				}
				b.results = append(b.results, r)
			}
		}
	}
	return nil
}

// ksMaxThroughput returns the median throughput of Kafka Streams' word
// count under exactly_once_v2 in this run's results, or -latency-max.
func (b *bench) ksMaxThroughput() (float64, string) {
	var xs []float64
	for _, r := range b.results {
		if r.workload == "wordcount-eos" && r.engine == engKS && r.err == nil && r.recsPerSec > 0 {
			xs = append(xs, r.recsPerSec)
		}
	}
	if len(xs) > 0 {
		return median(xs), fmt.Sprintf("median of %d wordcount-eos run(s) in this run", len(xs))
	}
	if b.cfg.latencyMax > 0 {
		return float64(b.cfg.latencyMax), "-latency-max"
	}
	return 0, ""
}

// latencyRun runs word count on engine while a probe offers rate input
// lines per second, and returns the latencies under workload's name.
func (b *bench) latencyRun(ctx context.Context, workload string, rate int, engine string, round int, props string, set map[string]string) (r result) {
	r = result{workload: workload, engine: engine, round: round}
	appID := fmt.Sprintf("bench-latency-%s-%d-%s", slug(engine), round, randSuffix())
	input, output := appID+"-in", appID+"-out"
	stateDir := filepath.Join(b.workDir, appID)
	if !b.cfg.keep {
		defer os.RemoveAll(stateDir)
		defer b.broker.deletePrefix(context.Background(), appID)
	}
	if r.err = b.broker.createTopics(ctx, b.cfg.partitions, nil, input, output); r.err != nil {
		return r
	}
	a := app{topology: "wordcount", props: props, set: b.streamsSet(appID, stateDir, set),
		args: map[string]string{"input": input, "output": output}}
	profile := ""
	if engine == engStoat && b.cfg.profileDir != "" {
		profile = filepath.Join(b.cfg.profileDir, fmt.Sprintf("latency-round%d.pprof", round+1))
	}
	p, err := b.startRunning(ctx, engine, a, appID, profile)
	if err != nil {
		r.err = err
		return r
	}
	defer p.kill()
	probe := &latencyProbe{bootstrap: b.cfg.bootstrap, input: input, output: output, rate: rate,
		duration: b.cfg.latencyDur, warmup: b.cfg.latencyWarmup, gen: b.line, outputsPer: wordsIn}
	res, err := probe.run(ctx)
	if err != nil {
		r.err = err
		return r
	}
	lat := res.lat
	if res.got < res.want {
		if workload == "latency" {
			r.err = fmt.Errorf("%d of %d outputs arrived within 30 s of the end of the load", res.got, res.want)
			return r
		}
		// Under load an engine that cannot keep up is a result, not a
		// failure of the run: every missing output is at least as late as
		// the read went on after the last input was sent, so its latency
		// counts as that lower bound.
		missing := res.want - res.got
		for i := 0; i < missing; i++ {
			lat = append(lat, res.drained)
		}
		b.notes = append(b.notes, fmt.Sprintf("%s on %s, round %d: saturated at %.0f lines/s, %d of %d outputs had not arrived %v after the load ended; "+
			"they count with that latency, so p50/p99 are lower bounds", workload, engine, round+1, res.offered, missing, res.want, res.drained.Round(time.Second)))
	}
	if len(lat) == 0 {
		r.err = fmt.Errorf("no output after the warm-up")
		return r
	}
	// The load actually offered, which falls short of rate when the
	// producer cannot keep up.
	r.recsPerSec = res.offered
	slices.Sort(lat)
	r.p50, r.p99 = lat[len(lat)/2], lat[len(lat)*99/100]
	r.rss, _ = p.peakRSS()
	if err := p.stop(time.Minute); err != nil {
		b.logf("latency on %s: %v", engine, err)
	}
	if engine == engStoat {
		r.commits = parseCommits(p)
	}
	return r
}
