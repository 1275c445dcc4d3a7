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
			r := b.latencyRun(ctx, engine, round, props, set)
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

func (b *bench) latencyRun(ctx context.Context, engine string, round int, props string, set map[string]string) (r result) {
	r = result{workload: "latency", engine: engine, round: round}
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
	p, err := b.startEngine(engine, a, appID, profile)
	if err != nil {
		r.err = err
		return r
	}
	defer p.kill()
	wctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	_, err = p.waitRunning(wctx)
	cancel()
	if err != nil {
		r.err = err
		return r
	}
	probe := &latencyProbe{bootstrap: b.cfg.bootstrap, input: input, output: output, rate: b.cfg.latencyRate,
		duration: b.cfg.latencyDur, warmup: b.cfg.latencyWarmup, gen: b.line, outputsPer: wordsIn}
	lat, want, got, err := probe.run(ctx)
	if err != nil {
		r.err = err
		return r
	}
	if got < want {
		r.err = fmt.Errorf("%d of %d outputs arrived within 30 s of the end of the load", got, want)
		return r
	}
	if len(lat) == 0 {
		r.err = fmt.Errorf("no output after the warm-up")
		return r
	}
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
