package main

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
)

// The backpressure workload: one partition of the input topic (partition
// 0, "hot") is fed backPressureFactor times faster than each of the others
// ("slow"), after a backlog of -records records on the hot partition alone,
// through the stateless passthrough topology under at_least_once. It
// measures how long the slow partitions' records take to come out while
// the engine works through the hot one (input timestamp → output visible),
// and the engine's peak RSS, with buffered.records.per.partition at
// backPressureBound and with it unbounded, on both engines.
const (
	wlBackPressure     = "backpressure"
	backPressureFactor = 100
	backPressureBound  = 1000
)

// backPressureRuns are the workload's engines: the engine a run starts and
// the buffered.records.per.partition it is given, under the name the table
// shows.
var backPressureRuns = []struct{ name, engine, bound string }{
	{engStoat, engStoat, strconv.Itoa(backPressureBound)},
	{engStoat + ", unbounded buffer", engStoat, "2147483647"},
	{engKS, engKS, strconv.Itoa(backPressureBound)},
	{engKS + ", unbounded buffer", engKS, "2147483647"},
}

func (b *bench) runBackPressure(ctx context.Context, props string) error {
	set := map[string]string{"processing.guarantee": "at_least_once", "commit.interval.ms": strconv.Itoa(b.cfg.commitMs)}
	b.notes = append(b.notes, fmt.Sprintf("%s: input partition 0 preloaded with %d records, then fed %d records/s, the %d others %d records/s each, "+
		"for %v (the first %v not counted); p50/p99 are the slow partitions' latencies; buffered.records.per.partition=%d, \"unbounded buffer\" 2147483647",
		wlBackPressure, b.cfg.records, b.cfg.backPressureRate, b.cfg.partitions-1, max(1, b.cfg.backPressureRate/backPressureFactor),
		b.cfg.latencyDur, b.cfg.latencyWarmup, backPressureBound))
	if b.cfg.partitions < 2 {
		return fmt.Errorf("%s needs at least 2 partitions (-partitions)", wlBackPressure)
	}
	names := make([]string, len(backPressureRuns))
	for i, r := range backPressureRuns {
		names[i] = r.name
	}
	for round := 0; round < b.cfg.rounds; round++ {
		for _, name := range rotate(names, round) {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			i := slices.Index(names, name)
			run := backPressureRuns[i]
			runSet := maps.Clone(set)
			runSet["buffered.records.per.partition"] = run.bound
			r := b.backPressureRun(ctx, run.name, run.engine, round, props, runSet)
			if r.err != nil {
				b.logf("%s on %s, round %d: %v", wlBackPressure, name, round+1, r.err)
			} else {
				b.logf("%s on %s, round %d: slow partitions p50 %v, p99 %v; peak RSS %.0f MiB", wlBackPressure, name, round+1,
					r.p50.Round(time.Millisecond), r.p99.Round(time.Millisecond), float64(r.rss)/(1<<20))
			}
			b.results = append(b.results, r)
		}
	}
	return nil
}

// backPressureRun is one run of the workload on engine, named name.
func (b *bench) backPressureRun(ctx context.Context, name, engine string, round int, props string, set map[string]string) (r result) {
	r = result{workload: wlBackPressure, engine: name, round: round}
	appID := fmt.Sprintf("bench-bp-%s-%d-%s", slug(engine), round, randSuffix())
	if set["buffered.records.per.partition"] != strconv.Itoa(backPressureBound) {
		appID = fmt.Sprintf("bench-bp-%s-unbounded-%d-%s", slug(engine), round, randSuffix())
	}
	input, output := appID+"-in", appID+"-out"
	stateDir := filepath.Join(b.workDir, appID)
	if !b.cfg.keep {
		defer os.RemoveAll(stateDir)
		defer b.broker.deletePrefix(context.Background(), appID)
	}
	if r.err = b.broker.createTopics(ctx, b.cfg.partitions, nil, input, output); r.err != nil {
		return r
	}
	b.logf("%s: preloading %d records on %s partition 0", wlBackPressure, b.cfg.records, input)
	if r.err = produceToPartition(ctx, b.cfg.bootstrap, input, 0, b.cfg.records, b.cfg.valueSize); r.err != nil {
		return r
	}
	a := app{topology: "passthrough", props: props, set: b.streamsSet(appID, stateDir, set),
		args: map[string]string{"input": input, "output": output}}
	p, err := b.startRunning(ctx, engine, a, appID, "")
	if err != nil {
		r.err = err
		return r
	}
	defer p.kill()
	res, err := b.backPressureProbe(ctx, input, output)
	if err != nil {
		r.err = err
		return r
	}
	r.rss, _ = p.peakRSS()
	if len(res.slow) == 0 {
		r.err = fmt.Errorf("no slow-partition output after the warm-up")
		return r
	}
	if res.slowGot < res.slowWant {
		r.err = fmt.Errorf("%d of %d slow-partition outputs arrived within 60 s of the end of the load", res.slowGot, res.slowWant)
		return r
	}
	slices.Sort(res.slow)
	slices.Sort(res.hot)
	r.p50, r.p99 = res.slow[len(res.slow)/2], res.slow[len(res.slow)*99/100]
	r.recsPerSec = res.offered
	hot := "none counted"
	if len(res.hot) > 0 {
		hot = fmt.Sprintf("p50 %v, p99 %v", res.hot[len(res.hot)/2].Round(time.Millisecond), res.hot[len(res.hot)*99/100].Round(time.Millisecond))
	}
	b.notes = append(b.notes, fmt.Sprintf("%s on %s, round %d: hot partition %s; %d of %d hot outputs (backlog included) read %v after the load ended",
		wlBackPressure, name, round+1, hot, res.hotGot, res.hotWant, res.drained.Round(time.Second)))
	if err := p.stop(time.Minute); err != nil {
		b.logf("%s on %s: %v", wlBackPressure, name, err)
	}
	return r
}

// produceToPartition writes n records of valueSize bytes to partition of
// topic, stamped with the wall clock.
func produceToPartition(ctx context.Context, bootstrap, topic string, partition int32, n, valueSize int) error {
	p, err := kgo.NewClient(kgo.SeedBrokers(strings.Split(bootstrap, ",")...),
		kgo.DefaultProduceTopic(topic), kgo.RecordPartitioner(kgo.ManualPartitioner()),
		kgo.ProducerLinger(20*time.Millisecond), kgo.ProducerBatchMaxBytes(1<<20),
		kgo.MaxBufferedRecords(1_000_000), kgo.MaxBufferedBytes(256<<20))
	if err != nil {
		return err
	}
	defer p.Close()
	var failed atomic.Pointer[error]
	for i := 0; i < n; i++ {
		v := append([]byte(fmt.Sprintf("p%d-", partition)), value(i, valueSize)...)
		p.Produce(ctx, &kgo.Record{Partition: partition, Key: key(i, 1<<30), Value: v, Timestamp: time.Now()}, func(_ *kgo.Record, err error) {
			if err != nil {
				failed.CompareAndSwap(nil, &err)
			}
		})
	}
	if err := p.Flush(ctx); err != nil {
		return err
	}
	if err := failed.Load(); err != nil {
		return fmt.Errorf("bench: producing to %s partition %d: %w", topic, partition, *err)
	}
	return nil
}

// backPressureResult is what one probe saw: the latencies of the counted
// outputs of the slow partitions and of the hot one, and how many outputs
// of each were expected and read (the hot one's with its backlog).
type backPressureResult struct {
	slow, hot                          []time.Duration
	slowWant, slowGot, hotWant, hotGot int
	offered                            float64 // input records per second sent, all partitions
	drained                            time.Duration
}

// backPressureProbe offers the workload's load to input (partition 0 at
// -backpressure-rate, the others at a hundredth of it each) for
// -latency-duration and reads output until every slow-partition output
// and every hot one (backlog included) came, or 60 s after the load.
// An output's partition is in its value: the passthrough upper-cases
// "p<n>-" to "P<n>-".
func (b *bench) backPressureProbe(ctx context.Context, input, output string) (res backPressureResult, err error) {
	seeds := kgo.SeedBrokers(strings.Split(b.cfg.bootstrap, ",")...)
	c, err := kgo.NewClient(seeds, kgo.ConsumeTopics(output), kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()),
		kgo.FetchMaxWait(10*time.Millisecond))
	if err != nil {
		return res, err
	}
	defer c.Close()
	p, err := kgo.NewClient(seeds, kgo.DefaultProduceTopic(input), kgo.RecordPartitioner(kgo.ManualPartitioner()),
		kgo.ProducerLinger(time.Millisecond), kgo.MaxBufferedRecords(1_000_000))
	if err != nil {
		return res, err
	}
	defer p.Close()
	hotRate := b.cfg.backPressureRate
	slowRate := max(1, hotRate/backPressureFactor)
	slowParts := b.cfg.partitions - 1
	var failed atomic.Pointer[error]
	promise := func(_ *kgo.Record, err error) {
		if err != nil {
			failed.CompareAndSwap(nil, &err)
		}
	}
	type sentResult struct {
		hot, slow int
		err       error
	}
	sent := make(chan sentResult, 1)
	begin := time.Now()
	countFrom := begin.Add(b.cfg.latencyWarmup)
	go func() {
		t := time.NewTicker(10 * time.Millisecond)
		defer t.Stop()
		hot, slow := 0, 0
		for now := range t.C {
			if now.Sub(begin) >= b.cfg.latencyDur || ctx.Err() != nil {
				break
			}
			s := now.Sub(begin).Seconds()
			for due := int(float64(hotRate) * s); hot < due; hot++ {
				i := b.cfg.records + hot
				v := append([]byte("p0-"), value(i, b.cfg.valueSize)...)
				p.Produce(ctx, &kgo.Record{Partition: 0, Key: key(i, 1<<30), Value: v, Timestamp: time.Now()}, promise)
			}
			for due := int(float64(slowRate) * s); slow < due; slow++ {
				for part := 1; part <= slowParts; part++ {
					i := slow*slowParts + part
					v := append([]byte(fmt.Sprintf("p%d-", part)), value(i, b.cfg.valueSize)...)
					p.Produce(ctx, &kgo.Record{Partition: int32(part), Key: key(i, 1<<30), Value: v, Timestamp: time.Now()}, promise)
				}
			}
		}
		fctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		err := p.Flush(fctx)
		if perr := failed.Load(); perr != nil {
			err = *perr
		}
		sent <- sentResult{hot, slow * slowParts, err}
	}()
	var done bool
	var drainUntil, loadEnd time.Time
	for {
		if !done {
			select {
			case s := <-sent:
				if s.err != nil {
					return res, fmt.Errorf("bench: offering load to %s: %w", input, s.err)
				}
				done = true
				res.hotWant, res.slowWant = b.cfg.records+s.hot, s.slow
				res.offered = float64(s.hot+s.slow) / b.cfg.latencyDur.Seconds()
				loadEnd = time.Now()
				drainUntil = loadEnd.Add(60 * time.Second)
			default:
			}
		}
		if done && ((res.slowGot >= res.slowWant && res.hotGot >= res.hotWant) || time.Now().After(drainUntil)) {
			res.drained = time.Since(loadEnd)
			return res, nil
		}
		if ctx.Err() != nil {
			return res, ctx.Err()
		}
		pctx, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
		fetches := c.PollFetches(pctx)
		cancel()
		now := time.Now()
		fetches.EachRecord(func(m *kgo.Record) {
			hot := strings.HasPrefix(string(m.Value), "P0-")
			if hot {
				res.hotGot++
			} else {
				res.slowGot++
			}
			if m.Timestamp.Before(countFrom) {
				return
			}
			if hot {
				res.hot = append(res.hot, now.Sub(m.Timestamp))
			} else {
				res.slow = append(res.slow, now.Sub(m.Timestamp))
			}
		})
	}
}
