package integration

import (
	"context"
	"flag"
	"fmt"
	"os"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"
)

// The failover tests: an instance of a two-instance application dies
// (SIGKILL) while input flows, and the other, the survivor, must go on
// producing output on the partitions it already owned, on StoatFlow as on
// Kafka Streams.

var failoverKills = flag.Int("failover.kills", 0, "kills per engine of TestFailoverSurvivorKeepsProcessing (0: 3, or $STOATFLOW_FAILOVER_KILLS)")

func failoverKillCount(t *testing.T) int {
	if *failoverKills > 0 {
		return *failoverKills
	}
	if v := os.Getenv("STOATFLOW_FAILOVER_KILLS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			t.Fatalf("STOATFLOW_FAILOVER_KILLS=%q: want a positive number", v)
		}
		return n
	}
	return 3
}

// TestFailoverSurvivorKeepsProcessing: two instances of the word count
// under exactly_once_v2 at a steady rate, on StoatFlow and, side by side,
// on Kafka Streams 4.4, each with and without a standby replica. One
// instance is SIGKILLed at a random moment, the group settles without it,
// it is started again (on a new state directory, as a replaced pod) and
// the group settles with it; then again. Per kill the test reports the
// survivor's longest output pause on the partitions it owned before the
// kill, from the kill until the group has settled without the dead
// instance, and whether the dead instance's open transaction held the
// survivor's input; the output is exactly once throughout.
//
// A kill that leaves the dead instance's transaction open with records in
// the repartition partitions the survivor reads holds the survivor there
// on either engine: read_committed reads stop at the transaction's first
// record until it ends. Kafka Streams waits for the broker to abort it
// (transaction.timeout.ms, 10 s, after it began); StoatFlow fences it once
// the group has dropped the dead member (streams/fence.go). Which kills
// meet that is chance, so the two kinds of kill are compared apart:
// StoatFlow's worst pause over the kills whose input was free must not
// exceed Kafka Streams' worst over the same kind, or freeKillFloor if
// that is larger, and over the kills whose input was held, not Kafka
// Streams' wait for the abort.
func TestFailoverSurvivorKeepsProcessing(t *testing.T) {
	t.Parallel()
	kills := failoverKillCount(t)
	type key struct {
		jvm      bool
		standbys int
	}
	var mu sync.Mutex
	worst := map[key]survivorPauses{}
	t.Run("engines", func(t *testing.T) {
		for _, standbys := range []int{0, 1} {
			for _, jvm := range []bool{false, true} {
				k := key{jvm, standbys}
				t.Run(fmt.Sprintf("%s/standbys=%d", engineName(jvm), standbys), func(t *testing.T) {
					t.Parallel()
					w := survivorGaps(t, jvm, standbys, kills)
					mu.Lock()
					worst[k] = w
					mu.Unlock()
				})
			}
		}
	})
	if t.Failed() {
		return
	}
	for _, standbys := range []int{0, 1} {
		s, j := worst[key{false, standbys}], worst[key{true, standbys}]
		t.Logf("standbys=%d: the survivor's worst pause on its own partitions, input free: StoatFlow %v over %d kills, Kafka Streams %v over %d; "+
			"input held by the dead instance's transaction: StoatFlow %v over %d kills, Kafka Streams %v over %d", standbys,
			s.free.Round(time.Millisecond), s.freeKills, j.free.Round(time.Millisecond), j.freeKills,
			s.held.Round(time.Millisecond), s.heldKills, j.held.Round(time.Millisecond), j.heldKills)
		if bound := max(j.free, freeKillFloor); s.free > bound {
			t.Errorf("standbys=%d: StoatFlow's survivor paused %v on its own partitions with its input free, Kafka Streams' at worst %v", standbys,
				s.free.Round(time.Millisecond), j.free.Round(time.Millisecond))
		}
		if bound := max(j.held, fleetTransactionTimeout+time.Second); s.held > bound {
			t.Errorf("standbys=%d: StoatFlow's survivor paused %v on its own partitions held by the dead instance's transaction, "+
				"longer than the transaction's timeout (%v) that Kafka Streams waits out", standbys, s.held.Round(time.Millisecond), fleetTransactionTimeout)
		}
	}
}

// freeKillFloor is the least bound on StoatFlow's worst pause over the
// kills whose input was free: the noise of make test's load on a two-core
// machine, where either engine's survivor pauses up to about a second on
// such a kill (StoatFlow 1.13 s, Kafka Streams 1.08 s and 1.92 s in one
// run), and with three kills Kafka Streams may have had one such kill or
// none. A survivor held by its own work, as the several seconds the issue
// saw, stays well above it.
const freeKillFloor = 2 * time.Second

// fleetTransactionTimeout is both engines' transaction.timeout.ms under
// exactly_once_v2 (Kafka Streams' default, which StoatFlow shares).
const fleetTransactionTimeout = 10 * time.Second

// survivorPauses are one engine's worst survivor pauses over the kills
// whose survivor's input was free and over those whose input the dead
// instance's open transaction held, with the number of each.
type survivorPauses struct {
	free, held           time.Duration
	freeKills, heldKills int
}

// survivorGaps runs the kills on one engine and returns the survivor's
// worst pauses.
func survivorGaps(t *testing.T, jvm bool, standbys, kills int) survivorPauses {
	app := newWordCountFleet(t)
	app.name = fmt.Sprintf("%s, standbys=%d", engineName(jvm), standbys)
	app.extra = map[string]string{"num.standby.replicas": strconv.Itoa(standbys)}
	fl := newFleet(t, app)
	es := fl.startAll(t, jvm, jvm)
	rng := fl.app.rng()
	var w survivorPauses
	for k := range kills {
		victim := es[rng.IntN(2)]
		var survivor engine
		for _, e := range es {
			if e != victim {
				survivor = e
			}
		}
		own := fl.outputPartitionsOf(fl.labels[survivor])
		time.Sleep(time.Duration(1000+rng.IntN(2000)) * time.Millisecond)
		killed := time.Now()
		held := fl.watchHeldInput(own)
		victim.kill()
		fl.stopped[victim] = true
		fl.members--
		fl.owners = fl.settle(t)
		// The survivor alone: through the dead member's session and the
		// rebalance that hands it the dead member's tasks.
		gap, p := fl.tail.longestGapOn(killed, time.Now(), own)
		heldBy := held()
		restarted := fl.start(t, jvm)
		fl.members++
		fl.owners = fl.settle(t)
		input := "its input free"
		if heldBy != "" {
			input = "its input held by an open transaction (" + heldBy + ")"
			w.held, w.heldKills = max(w.held, gap), w.heldKills+1
		} else {
			w.free, w.freeKills = max(w.free, gap), w.freeKills+1
		}
		t.Logf("%s: kill %d of %s: the survivor %s paused at most %v on its partitions %v (partition %d), %s", app.name, k+1,
			fl.labels[victim], fl.labels[survivor], gap.Round(time.Millisecond), own, p, input)
		es = []engine{survivor, restarted}
	}
	fl.finish(t)
	fl.stopAll(t)
	t.Logf("%s: worst survivor pause over %d kills: %v with its input free (%d kills), %v with it held (%d kills)", app.name, kills,
		w.free.Round(time.Millisecond), w.freeKills, w.held.Round(time.Millisecond), w.heldKills)
	return w
}

// heldFor is how long a repartition partition's last stable offset must
// stay put below its high watermark for the test to count it held by the
// dead instance's transaction: the survivor's own transactions end every
// commit interval (100 ms), so only an abandoned one lasts that long.
const heldFor = 2 * time.Second

// watchHeldInput polls, every 250 ms until the returned function is
// called, the last stable offsets and high watermarks of the word count's
// repartition partitions that feed output partitions parts (task 1_p reads
// repartition partition p). The function returns "" if none was held, or
// the first held partition and for how long.
func (fl *fleet) watchHeldInput(parts []int32) func() string {
	topic := fl.app.appID + "-KSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition"
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan string, 1)
	go func() {
		type since struct {
			lso int64
			at  time.Time
		}
		stuck := map[int32]since{}
		found := ""
		for ctx.Err() == nil {
			stable, err1 := fl.admin.ListCommittedOffsets(ctx, topic)
			ends, err2 := fl.admin.ListEndOffsets(ctx, topic)
			now := time.Now()
			for _, p := range parts {
				st, ok1 := stable.Lookup(topic, p)
				end, ok2 := ends.Lookup(topic, p)
				if err1 != nil || err2 != nil || !ok1 || !ok2 || st.Err != nil || end.Err != nil || st.Offset >= end.Offset {
					delete(stuck, p)
					continue
				}
				if s, ok := stuck[p]; !ok || s.lso != st.Offset {
					stuck[p] = since{st.Offset, now}
				} else if d := now.Sub(s.at); d >= heldFor && found == "" {
					found = fmt.Sprintf("repartition partition %d stuck at offset %d for %v or more", p, st.Offset, d.Round(time.Second))
				}
			}
			select {
			case <-ctx.Done():
			case <-time.After(250 * time.Millisecond):
			}
		}
		done <- found
	}()
	return func() string {
		cancel()
		return <-done
	}
}

// outputPartitionsOf returns the output partitions whose writing task
// label holds: the word count's sub-topology 1 task p writes output
// partition p.
func (fl *fleet) outputPartitionsOf(label string) []int32 {
	var out []int32
	for task, o := range fl.owners {
		var sub, p int32
		if _, err := fmt.Sscanf(task, "%d_%d", &sub, &p); err == nil && sub == 1 && o == label {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out
}
