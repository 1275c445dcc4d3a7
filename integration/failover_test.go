package integration

import (
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
// instance; StoatFlow's worst must not exceed Kafka Streams' worst, and the
// output is exactly once throughout.
func TestFailoverSurvivorKeepsProcessing(t *testing.T) {
	t.Parallel()
	kills := failoverKillCount(t)
	type key struct {
		jvm      bool
		standbys int
	}
	var mu sync.Mutex
	worst := map[key]time.Duration{}
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
		t.Logf("standbys=%d: the survivor's worst pause on its own partitions: StoatFlow %v, Kafka Streams %v", standbys,
			s.Round(time.Millisecond), j.Round(time.Millisecond))
		// Whether a kill leaves the dead instance's transaction open with
		// records in the survivor's repartition partitions is chance, on
		// both engines: read_committed then holds the survivor there until
		// the broker aborts it, transaction.timeout.ms (10 s) after it
		// began. A few kills may meet that on one engine and not on the
		// other, so the bound is Kafka Streams' worst or that one,
		// whichever is larger, and a second for the loaded machine.
		if bound := max(j, 10*time.Second) + time.Second; s > bound {
			t.Errorf("standbys=%d: StoatFlow's survivor paused %v on its own partitions, Kafka Streams' at worst %v", standbys,
				s.Round(time.Millisecond), j.Round(time.Millisecond))
		}
	}
}

// survivorGaps runs the kills on one engine and returns the survivor's
// worst pause.
func survivorGaps(t *testing.T, jvm bool, standbys, kills int) time.Duration {
	app := newWordCountFleet(t)
	app.name = fmt.Sprintf("%s, standbys=%d", engineName(jvm), standbys)
	app.extra = map[string]string{"num.standby.replicas": strconv.Itoa(standbys)}
	fl := newFleet(t, app)
	es := fl.startAll(t, jvm, jvm)
	rng := fl.app.rng()
	var worst time.Duration
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
		victim.kill()
		fl.stopped[victim] = true
		fl.members--
		fl.owners = fl.settle(t)
		// The survivor alone: through the dead member's session and the
		// rebalance that hands it the dead member's tasks.
		gap, p := fl.tail.longestGapOn(killed, time.Now(), own)
		restarted := fl.start(t, jvm)
		fl.members++
		fl.owners = fl.settle(t)
		t.Logf("%s: kill %d of %s: the survivor %s paused at most %v on its partitions %v (partition %d)", app.name, k+1,
			fl.labels[victim], fl.labels[survivor], gap.Round(time.Millisecond), own, p)
		worst = max(worst, gap)
		es = []engine{survivor, restarted}
	}
	fl.finish(t)
	fl.stopAll(t)
	t.Logf("%s: worst survivor pause over %d kills: %v", app.name, kills, worst.Round(time.Millisecond))
	return worst
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
