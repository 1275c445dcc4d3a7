package main

import (
	"context"
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// The rebalance workload: a third instance joins a loaded two-instance word
// count under exactly_once_v2 while input flows at a steady rate, and the
// harness measures what the join costs the output.

const (
	// rebalanceAfter is how long past the group's stability the output is
	// still watched for gaps: tasks that moved may restore, or wait for
	// their first commit, after the group is stable.
	rebalanceAfter = 5 * time.Second
	// rebalanceWait is the longest the harness waits past the group's
	// stability for every output partition to receive a record again.
	rebalanceWait = time.Minute
	// rebalanceJoinAfter is how long the input is fed before the third
	// instance starts (later if the two are not caught up by then).
	rebalanceJoinAfter = 30 * time.Second
)

// runRebalance runs the join on each engine, alternating their order
// every round.
func (b *bench) runRebalance(ctx context.Context, props string, set map[string]string) error {
	logPath := brokerLogPath(b.root, b.cfg.bootstrap)
	if logPath == "" {
		b.notes = append(b.notes, "rebalance: rebalances not counted: no broker log (set STOATFLOW_TEST_BROKER_LOG to the broker's server.log)")
	}
	for round := 0; round < b.cfg.rounds; round++ {
		for _, engine := range rotate([]string{engStoat, engKS}, round) {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			r := b.rebalanceRun(ctx, engine, round, props, set, logPath)
			if r.err != nil {
				b.logf("rebalance on %s, round %d: %v", engine, round+1, r.err)
			} else {
				b.logf("rebalance on %s, round %d: output gap %v, %d records restored, %s rebalances, join → stable %v, %d of %d stateful tasks moved",
					engine, round+1, r.gap.Round(time.Millisecond), r.replayed, countOrUnknown(r.rebalances), r.toStable.Round(time.Millisecond),
					r.moved, b.cfg.partitions)
			}
			b.results = append(b.results, r)
		}
	}
	return nil
}

func countOrUnknown(n int) string {
	if n < 0 {
		return "unknown"
	}
	return strconv.Itoa(n)
}

// rebalanceRun starts two instances of engine on a preloaded word count,
// feeds input steadily, waits until they are caught up and the group is
// stable, starts a third, and measures from the moment the group starts
// rebalancing until it is stable again plus rebalanceAfter.
func (b *bench) rebalanceRun(ctx context.Context, engine string, round int, props string, set map[string]string, logPath string) (r result) {
	r = result{workload: "rebalance", engine: engine, round: round, rebalances: -1}
	appID := fmt.Sprintf("bench-rebalance-%s-%d-%s", slug(engine), round, randSuffix())
	input, output := appID+"-in", appID+"-out"
	stateRoot := filepath.Join(b.workDir, appID)
	if !b.cfg.keep {
		defer os.RemoveAll(stateRoot)
		defer b.broker.deletePrefix(context.Background(), appID)
	}
	rctx, cancel := context.WithTimeout(ctx, b.cfg.runTimeout)
	defer cancel()
	fail := func(err error) result {
		r.err = err
		if rctx.Err() != nil && ctx.Err() == nil {
			r.err = fmt.Errorf("not done within %v (-run-timeout): %w", b.cfg.runTimeout, err)
		}
		return r
	}
	if err := b.broker.createTopics(rctx, b.cfg.partitions, nil, input, output); err != nil {
		return fail(err)
	}
	tps, err := b.broker.partitions(input)
	if err != nil {
		return fail(err)
	}
	extra := maps.Clone(set)
	// A stopped StoatFlow instance's static members leave the group, as
	// the reference jar's close does (CloseOptions LEAVE_GROUP).
	extra["stoatflow.shutdown.leave-group"] = "true"
	// Every instance counts as caught up on every task, so the join moves
	// stateful tasks at once and they restore on the new instance. Under
	// the default (10,000) the assignor keeps them on their owners and
	// gives the new instance warm-up replicas, to move them at a probing
	// rebalance probing.rebalance.interval.ms (10 minutes) later; -set
	// acceptable.recovery.lag=10000 measures that join.
	extra["acceptable.recovery.lag"] = strconv.FormatInt(math.MaxInt64, 10)
	var procs []*proc
	defer func() {
		// Every instance is stopped at once; each closes cleanly and
		// leaves the group.
		var wg sync.WaitGroup
		for _, p := range procs {
			wg.Go(func() {
				if err := p.stop(time.Minute); err != nil {
					b.logf("rebalance on %s: %v", engine, err)
				}
			})
		}
		wg.Wait()
	}()
	start := func(label string) (*proc, error) {
		dir := filepath.Join(stateRoot, label)
		if err := seedProcessID(filepath.Join(dir, appID), label); err != nil {
			return nil, err
		}
		s := b.streamsSet(appID, dir, extra)
		s["client.id"] = appID + "-" + label
		p, err := b.startEngine(engine, app{topology: "wordcount", props: props, set: s,
			args: map[string]string{"input": input, "output": output}}, appID, "")
		if err == nil {
			procs = append(procs, p)
		}
		return p, err
	}
	// The first instance starts alone, so that it leads the group.
	for _, label := range []string{"A", "B"} {
		p, err := start(label)
		if err != nil {
			return fail(err)
		}
		if _, err := p.waitRunning(rctx); err != nil {
			return fail(err)
		}
	}
	w := &groupWatch{admin: b.broker.admin, group: appID, log: openBrokerLog(logPath)}
	before, _, err := w.settle(rctx, 2)
	if err != nil {
		return fail(err)
	}
	// The input comes once the two share the work: no task has been
	// processed elsewhere before, so a task that moves at the join restores
	// its whole changelog on either engine.
	preload := b.cfg.rebalanceRecords
	b.logf("rebalance on %s, round %d: producing %d lines to %s", engine, round+1, preload, input)
	if err := produce(rctx, b.cfg.bootstrap, input, preload, b.line); err != nil {
		return fail(err)
	}
	feed := startFeed(rctx, b.cfg.bootstrap, input, b.cfg.rebalanceRate, preload, b.line)
	defer feed.stop()
	tail, err := startTail(b.cfg.bootstrap, output, b.cfg.partitions)
	if err != nil {
		return fail(err)
	}
	defer tail.close()
	// Caught up: the input committed to within a second's feed.
	for {
		c, err := b.broker.committed(rctx, appID, tps)
		if err == nil && c >= int64(preload)+feed.fed()-int64(b.cfg.rebalanceRate) {
			break
		}
		if err := feed.failed(); err != nil {
			return fail(err)
		}
		if err := alive(procs); err != nil {
			return fail(err)
		}
		if rctx.Err() != nil {
			return fail(fmt.Errorf("%d preloaded lines not committed: %v", preload, err))
		}
		time.Sleep(100 * time.Millisecond)
	}
	// Both engines have the same input behind them at the join, so their
	// stores hold the same counts: the join waits for rebalanceJoinAfter's
	// feed (and at least a steady second).
	time.Sleep(time.Second)
	for feed.fed() < int64(float64(b.cfg.rebalanceRate)*rebalanceJoinAfter.Seconds()) {
		if err := feed.failed(); err != nil {
			return fail(err)
		}
		if err := alive(procs); err != nil {
			return fail(err)
		}
		if rctx.Err() != nil {
			return fail(rctx.Err())
		}
		time.Sleep(50 * time.Millisecond)
	}
	r.fedAtJoin = feed.fed()
	if want := int64(float64(b.cfg.rebalanceRate) * rebalanceJoinAfter.Seconds()); r.fedAtJoin > want+int64(b.cfg.rebalanceRate) {
		b.notes = append(b.notes, fmt.Sprintf("rebalance on %s, round %d: the instances caught up only after %d lines of the feed, not %d: "+
			"the join came later, with more state", engine, round+1, r.fedAtJoin, want))
	}
	w.poll() // only what the join causes counts
	gens := w.generations
	if _, err := start("C"); err != nil {
		return fail(err)
	}
	joined, err := w.waitChange(rctx, 2)
	if err != nil {
		return fail(err)
	}
	after, stableAt, err := w.settle(rctx, 3)
	if err != nil {
		return fail(err)
	}
	// Every output partition must hear from the application again, at
	// least rebalanceAfter past the group's stability.
	end := stableAt.Add(rebalanceAfter)
	for {
		now := time.Now()
		if !now.Before(end) && tail.allSince(stableAt) {
			end = now
			break
		}
		if now.After(stableAt.Add(rebalanceWait)) {
			b.notes = append(b.notes, fmt.Sprintf("rebalance on %s, round %d: an output partition received nothing for %v past the group's stability; "+
				"the gap is a lower bound", engine, round+1, rebalanceWait))
			end = now
			break
		}
		if err := alive(procs); err != nil {
			return fail(err)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if err := feed.failed(); err != nil {
		return fail(err)
	}
	var gapPart int
	r.gap, gapPart = longestGap(tail.snapshot(), joined, end)
	r.toStable = stableAt.Sub(joined)
	var restores []string
	for i, p := range procs {
		r.replayed += restoredBetween(p.linesWith("RESTORE-"), joined, end)
		r.replayed += restoredBetween(p.linesWith("STANDBY-BATCH "), joined, end)
		restores = append(restores, describeRestores(fmt.Sprintf("%c", 'A'+i), p.linesWith("RESTORE-"), joined, end)...)
		if n := restoredBetween(p.linesWith("STANDBY-BATCH "), joined, end); n > 0 {
			restores = append(restores, fmt.Sprintf("%c loaded %d into standby or warm-up replicas", 'A'+i, n))
		}
	}
	if w.log != nil {
		w.poll()
		r.rebalances = w.generations - gens
	}
	r.moved = movedTasks(before, after, appID)
	for _, p := range procs {
		if rss, err := p.peakRSS(); err == nil && rss > r.rss {
			r.rss = rss
		}
	}
	b.logf("rebalance on %s, round %d: the longest gap was on output partition %d; %d lines fed at %d/s, %d of them before the join; "+
		"stateful tasks %s; restores: %s", engine, round+1, gapPart, feed.fed(), b.cfg.rebalanceRate, r.fedAtJoin,
		statefulOwners(before, after, appID), strings.Join(restores, ", "))
	return r
}

// longestGap is the longest time within [from, to] during which some
// partition received nothing, and that partition. arrivals holds each
// partition's arrival times in order; from and to bound every partition's
// silence, so a partition that received nothing in the window has a gap of
// the whole window.
func longestGap(arrivals [][]time.Time, from, to time.Time) (time.Duration, int) {
	var gap time.Duration
	at := -1
	for p, ts := range arrivals {
		prev := from
		for _, a := range ts {
			if !a.After(prev) {
				continue
			}
			if a.After(to) {
				break
			}
			if d := a.Sub(prev); d > gap || at < 0 {
				gap, at = d, p
			}
			prev = a
		}
		if d := to.Sub(prev); d > gap || at < 0 {
			gap, at = d, p
		}
	}
	return gap, at
}
