package main

import (
	"context"
	"fmt"
	"maps"
	"math"
	"strconv"
	"strings"
	"time"
)

// The rebalance workloads: a third instance joins a loaded two-instance
// word count under exactly_once_v2 while input flows at a steady rate, and
// the harness measures what the join costs the output, in a classic group
// (rebalance) and in a streams group (rebalance-streams,
// group.protocol=streams), whose tasks the broker assigns.

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

// The rebalance workloads, by the group protocol their instances use.
const (
	wlRebalance        = "rebalance"
	wlRebalanceStreams = "rebalance-streams"
)

// rebalanceWorkloads are the rebalance workloads in the order they run
// and report.
var rebalanceWorkloads = []string{wlRebalance, wlRebalanceStreams}

// runRebalance runs workload's join on each engine, alternating their
// order every round.
func (b *bench) runRebalance(ctx context.Context, workload, props string, set map[string]string) error {
	set = maps.Clone(set)
	if workload == wlRebalanceStreams {
		set["group.protocol"] = "streams"
		b.notes = append(b.notes, wlRebalanceStreams+": group.protocol=streams (KIP-1071): the broker assigns the tasks, taking "+
			"acceptable.recovery.lag and any -set session, heartbeat, standby and warm-up keys from the group's configs "+
			"(streams.*; the broker's defaults otherwise: a 5 s heartbeat interval); rebalances are the streams group's epoch "+
			"increases (StreamsGroupDescribe) from the join to the end of the window, not the broker log's Stabilized group lines")
	} else if brokerLogPath(b.root, b.cfg.bootstrap) == "" {
		b.notes = append(b.notes, "rebalance: rebalances not counted: no broker log (set STOATFLOW_TEST_BROKER_LOG to the broker's server.log)")
	}
	for round := 0; round < b.cfg.rounds; round++ {
		for _, engine := range rotate([]string{engStoat, engKS}, round) {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			r := b.timed(ctx, result{workload: workload, engine: engine, round: round, rebalances: -1},
				func(ctx context.Context, r *result) error { return b.rebalanceRun(ctx, r, props, set) })
			if r.err != nil {
				b.logf("%s on %s, round %d: %v", workload, engine, round+1, r.err)
			} else {
				b.logf("%s on %s, round %d: output gap %v, %d records restored, %s rebalances, join → stable %v, %d of %d stateful tasks moved",
					workload, engine, round+1, r.gap.Round(time.Millisecond), r.replayed, countOrUnknown(r.rebalances), r.toStable.Round(time.Millisecond),
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

// rebalanceRun starts two instances of r's engine on a preloaded word
// count, feeds input steadily, waits until they are caught up and the
// group is stable, starts a third, and measures from the moment the group
// starts rebalancing until it is stable again plus rebalanceAfter. The
// group is a streams group when set has group.protocol=streams.
func (b *bench) rebalanceRun(ctx context.Context, r *result, props string, set map[string]string) error {
	extra := maps.Clone(set)
	// Every instance counts as caught up on every task, so the join moves
	// stateful tasks at once and they restore on the new instance. Under
	// the default (10,000) the assignor keeps them on their owners and
	// gives the new instance warm-up replicas, to move them at a probing
	// rebalance probing.rebalance.interval.ms (10 minutes) later; -set
	// acceptable.recovery.lag=10000 measures that join.
	extra["acceptable.recovery.lag"] = strconv.FormatInt(math.MaxInt64, 10)
	appID := fmt.Sprintf("bench-%s-%s-%d-%s", r.workload, slug(r.engine), r.round, randSuffix())
	f, err := b.newFleet(ctx, appID, fmt.Sprintf("%s on %s, round %d", r.workload, r.engine, r.round+1), r.engine, props, extra)
	if err != nil {
		return err
	}
	defer f.close()
	before, err := f.begin(ctx, "A", "B")
	if err != nil {
		return err
	}
	// The input comes once the two share the work: no task has been
	// processed elsewhere before, so a task that moves at the join restores
	// its whole changelog on either engine.
	if err := f.load(ctx, b.cfg.rebalanceRecords, b.cfg.rebalanceRate, rebalanceJoinAfter, "join"); err != nil {
		return err
	}
	r.fedAtJoin = f.feed.fed()
	w := f.watch
	w.poll(ctx) // only what the join causes counts
	gens := w.generations
	if _, err := f.start("C"); err != nil {
		return err
	}
	joined, err := w.waitChange(ctx, 2)
	if err != nil {
		return err
	}
	after, stableAt, err := w.settle(ctx, 3)
	if err != nil {
		return err
	}
	// Every output partition must hear from the application again, at
	// least rebalanceAfter past the group's stability.
	end := stableAt.Add(rebalanceAfter)
	for {
		now := time.Now()
		if !now.Before(end) && f.tail.allSince(stableAt) {
			end = now
			break
		}
		if now.After(stableAt.Add(rebalanceWait)) {
			b.notes = append(b.notes, fmt.Sprintf("%s: an output partition received nothing for %v past the group's stability; "+
				"the gap is a lower bound", f.name, rebalanceWait))
			end = now
			break
		}
		if err := f.check(ctx); err != nil {
			return err
		}
		time.Sleep(100 * time.Millisecond)
	}
	if err := f.feed.failed(); err != nil {
		return err
	}
	var gapPart int
	r.gap, gapPart = longestGap(f.tail.snapshot(), joined, end)
	r.toStable = stableAt.Sub(joined)
	var restores []string
	for _, label := range f.labels {
		restored, loaded, desc := f.restores(label, joined, end)
		r.replayed += restored + loaded
		restores = append(restores, desc...)
	}
	if w.counts() {
		w.poll(ctx)
		r.rebalances = w.generations - gens
	}
	r.moved = movedTasks(before, after)
	r.rss = f.peakRSS()
	b.logf("%s: the longest gap was on output partition %d; %d lines fed at %d/s, %d of them before the join; "+
		"stateful tasks %s; restores: %s", f.name, gapPart, f.feed.fed(), b.cfg.rebalanceRate, r.fedAtJoin,
		statefulOwners(before, after), strings.Join(restores, ", "))
	return nil
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
