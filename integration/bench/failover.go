package main

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"
)

// The failover workload: the instance that hosts a stateful task of a
// loaded two-instance word count under exactly_once_v2 dies (SIGKILL)
// while input flows at a steady rate, and the harness measures how long
// the task's output waits for its new owner, with a standby replica of
// every stateful task and without.

const (
	// failoverSession is both engines' session.timeout.ms: the dead
	// instance's tasks move once the coordinator has waited it out.
	failoverSession = 6 * time.Second
	// failoverHeartbeat is both engines' heartbeat.interval.ms.
	failoverHeartbeat = time.Second
	// failoverKillAfter is how long the input is fed before the kill
	// (later if the two are not caught up by then).
	failoverKillAfter = 20 * time.Second
	// failoverWait is the longest the harness waits past the kill for the
	// dead instance's stateful tasks to write output again.
	failoverWait = 2 * time.Minute
	// failoverTask is the partition of the stateful task whose host is
	// killed: the count's task 1_0, which writes output partition 0.
	failoverTask = 0
)

// failoverWorkload names the failover runs with standbys standby replicas.
func failoverWorkload(standbys int) string { return fmt.Sprintf("failover standbys=%d", standbys) }

// runFailover runs the kill on each engine, without a standby replica and
// with one, alternating the engines' order every round.
func (b *bench) runFailover(ctx context.Context, props string, set map[string]string) error {
	if brokerLogPath(b.root, b.cfg.bootstrap) == "" {
		b.notes = append(b.notes, "failover: rebalances not counted: no broker log (set STOATFLOW_TEST_BROKER_LOG to the broker's server.log)")
	}
	for round := 0; round < b.cfg.rounds; round++ {
		for _, standbys := range []int{0, 1} {
			for _, engine := range rotate([]string{engStoat, engKS}, round) {
				if ctx.Err() != nil {
					return ctx.Err()
				}
				r := b.timed(ctx, result{workload: failoverWorkload(standbys), engine: engine, round: round, rebalances: -1},
					func(ctx context.Context, r *result) error { return b.failoverRun(ctx, r, standbys, props, set) })
				if r.err != nil {
					b.logf("%s on %s, round %d: %v", r.workload, engine, round+1, r.err)
				} else {
					b.logf("%s on %s, round %d: kill → output %v, %d records restored, %s rebalances", r.workload, engine, round+1,
						r.toOutput.Round(time.Millisecond), r.replayed, countOrUnknown(r.rebalances))
				}
				b.results = append(b.results, r)
			}
		}
	}
	return nil
}

// failoverRun starts two instances of r's engine on a preloaded word
// count with standbys standby replicas, feeds input steadily, waits until
// they are caught up, kills the host of stateful task 1_<failoverTask> and
// measures the time from the kill to the first record its new owner
// writes to the task's output partition, and what the new owner restored
// meanwhile.
func (b *bench) failoverRun(ctx context.Context, r *result, standbys int, props string, set map[string]string) error {
	extra := maps.Clone(set)
	extra["num.standby.replicas"] = strconv.Itoa(standbys)
	// The dead instance's tasks wait out its session on both engines alike.
	extra["main.consumer.session.timeout.ms"] = strconv.FormatInt(failoverSession.Milliseconds(), 10)
	extra["main.consumer.heartbeat.interval.ms"] = strconv.FormatInt(failoverHeartbeat.Milliseconds(), 10)
	appID := fmt.Sprintf("bench-failover-%d-%s-%d-%s", standbys, slug(r.engine), r.round, randSuffix())
	f, err := b.newFleet(ctx, appID, fmt.Sprintf("%s on %s, round %d", r.workload, r.engine, r.round+1), r.engine, props, extra)
	if err != nil {
		return err
	}
	defer f.close()
	if _, err := f.begin(ctx, "A", "B"); err != nil {
		return err
	}
	// The input comes once the two share the work, so each stateful task's
	// changelog was written by its host alone: without a standby the new
	// owner restores all of it.
	if err := f.load(ctx, b.cfg.failoverRecords, b.cfg.failoverRate, failoverKillAfter, "kill"); err != nil {
		return err
	}
	// Who hosts what as the kill comes.
	tasks, _, err := f.watch.settle(ctx, 2)
	if err != nil {
		return err
	}
	victim, ok := tasks[failoverTask]
	if !ok {
		return fmt.Errorf("no instance hosts stateful task 1_%d: %v", failoverTask, tasks)
	}
	survivor := f.labels[0]
	if survivor == victim {
		survivor = f.labels[1]
	}
	// The victim's stateful tasks, and the producer that writes each one's
	// output until the kill.
	var lost []int32
	writer := map[int32]int64{}
	for p, owner := range tasks {
		if owner == victim {
			lost = append(lost, p)
			writer[p] = f.tail.lastProducer(int(p))
		}
	}
	slices.Sort(lost)
	if writer[failoverTask] < 0 {
		return fmt.Errorf("output partition %d received nothing before the kill", failoverTask)
	}
	f.watch.poll(ctx) // only what the kill causes counts
	gens := f.watch.generations
	fed := f.feed.fed()
	killed := time.Now()
	f.kill(f.instance(victim))
	resumed := map[int32]time.Time{}
	for {
		for _, p := range lost {
			if at, ok := f.tail.firstAfter(int(p), killed, writer[p]); ok {
				resumed[p] = at
			}
		}
		if len(resumed) == len(lost) {
			break
		}
		if time.Since(killed) > failoverWait {
			return fmt.Errorf("the new owner of %s wrote no output within %v of the kill", taskList(lost, resumed), failoverWait)
		}
		if err := f.check(ctx); err != nil {
			return err
		}
		time.Sleep(20 * time.Millisecond)
	}
	end := time.Now()
	r.toOutput = resumed[failoverTask].Sub(killed)
	// The new owner's restores on the way to its output; its standby
	// replicas' loads (Kafka Streams' STANDBY-BATCH lines) hold up no
	// output and are only logged.
	restored, loaded, restores := f.restores(survivor, killed, end)
	r.replayed = restored
	if f.watch.counts() {
		f.watch.poll(ctx)
		r.rebalances = f.watch.generations - gens
	}
	r.rss = f.peakRSS()
	var took []string
	for _, p := range lost {
		took = append(took, fmt.Sprintf("1_%d after %v", p, resumed[p].Sub(killed).Round(time.Millisecond)))
	}
	b.logf("%s: killed %s, host of %s; %s took over: output again of %s; %d lines fed at %d/s before the kill; "+
		"%d records loaded into standby replicas after it; restores: %s", f.name, victim, taskList(lost, nil), survivor,
		strings.Join(took, ", "), fed, b.cfg.failoverRate, loaded, strings.Join(restores, ", "))
	return nil
}

// taskList names the stateful tasks of partitions ps that are not in
// except: "1_0, 1_2".
func taskList(ps []int32, except map[int32]time.Time) string {
	var out []string
	for _, p := range ps {
		if _, ok := except[p]; !ok {
			out = append(out, fmt.Sprintf("1_%d", p))
		}
	}
	return strings.Join(out, ", ")
}
