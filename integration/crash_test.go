package integration

import (
	"encoding/hex"
	"fmt"
	"maps"
	"strconv"
	"strings"
	"testing"

	"github.com/stoatflow/stoatflow/examples/fkjoin"
	"github.com/stoatflow/stoatflow/examples/sessioncount"
	"github.com/stoatflow/stoatflow/examples/ssjoin"
	"github.com/stoatflow/stoatflow/examples/twostores"
	"github.com/stoatflow/stoatflow/examples/windowedcount"
	"github.com/stoatflow/stoatflow/examples/wordcount"
)

// The crash workloads. Inputs are deterministic; timestamps grow with the
// record index, so no record is ever late and the in-process fold of the
// input (the test driver) is the one expected output.
var (
	wordCountWorkload = crashWorkload{
		name: "wordcount", topology: wordcount.Name, example: "wordcount", outputs: []string{"output"},
		partitions: 2, stepMs: 1, perRound: 10, perTick: 10,
		input: func(i int) (string, string) { return "line-" + strconv.Itoa(i), wordLine(i) },
	}
	windowedCountWorkload = crashWorkload{
		name: "windowedcount", topology: windowedcount.Name, example: "windowedcount", outputs: []string{"output"},
		partitions: 2, stepMs: 5, perRound: 10, perTick: 10,
		input: func(i int) (string, string) { return fmt.Sprintf("key-%d", crashKey(i, 8)), "v" },
	}
	sessionCountWorkload = crashWorkload{
		name: "sessioncount", topology: sessioncount.Name, example: "sessioncount", outputs: []string{"output"},
		partitions: 2, stepMs: 5, perRound: 10, perTick: 10,
		input: func(i int) (string, string) { return fmt.Sprintf("user-%d", sessionKey(i)), "click" },
	}
	// A left join of one topic's L and R records: its window stores retain
	// duplicates and its shared store holds the left records that found no
	// partner yet, emitted once their window closed.
	leftJoinWorkload = crashWorkload{
		name: "ssjoincrash", topology: ssjoin.CrashName, example: "ssjoin", outputs: []string{"output"},
		partitions: 2, stepMs: 5, perRound: 10, perTick: 10, noQueries: true, closing: "R-end",
		floating: func(v string) bool { return strings.HasSuffix(v, hex.EncodeToString([]byte("+null"))) },
		input: func(i int) (string, string) {
			side := "L"
			if (i*5+i/3)%3 == 0 {
				side = "R"
			}
			return fmt.Sprintf("key-%d", crashKey(i, 8)), side + strconv.Itoa(i)
		},
	}
	// A foreign-key join of two tables split from one topic: orders naming
	// customers, the customers, and the join's subscription store; the
	// result is materialized, so READ_COMMITTED queries of it are checked
	// (I5). Its output is checked by checkSettled.
	fkJoinWorkload = crashWorkload{
		name: "fkjoincrash", topology: fkjoin.CrashName, example: "fkjoin", outputs: []string{"output"},
		partitions: 2, stepMs: 1, perRound: 10, perTick: 10,
		unqueried: []string{fkjoin.CrashOrdersStore, fkjoin.CrashCustomersStore, fkjoin.CrashSubscriptionStore},
		input: func(i int) (string, string) {
			k, v, _ := fkJoinInput(i)
			return k, v
		},
		tombstone: func(i int) bool {
			_, _, del := fkJoinInput(i)
			return del
		},
		settling: fkJoinRank,
	}
	twoStoresWorkload = crashWorkload{
		name: "twostores", topology: twostores.Name, example: "twostores", outputs: []string{"counts", "sums"},
		storeOutput: map[string]string{twostores.CountsStore: "counts", twostores.SumsStore: "sums"},
		partitions:  2, stepMs: 1, perRound: 10, perTick: 10,
		input: func(i int) (string, string) {
			return fmt.Sprintf("account-%d", crashKey(i, 8)), strconv.Itoa(1 + (i*37)%100)
		},
	}
)

// crashKey spreads record i over n keys irregularly, so that sessions both
// merge and close.
func crashKey(i, n int) int { return (i*i*7 + i*3 + i/5) % n }

// sessionKey gives each of six users bursts of 400 records two seconds
// long, with sparse records in between, so that sessions grow, close after
// the five-second gap, and start again.
func sessionKey(i int) int {
	k := i / 400
	if i%5 == 0 {
		k += 3
	}
	return k % 6
}

// defaultCrashKills is the kills per workload in the default run.
const defaultCrashKills = 30

// TestCrashWordCountExactlyOnce kills the word count with SIGKILL at every
// named failpoint and at random moments, restarting it each time, and
// checks I1-I5 after every kill and at the end (see docs/crash-testing.md).
func TestCrashWordCountExactlyOnce(t *testing.T) {
	r := newCrashRun(t, wordCountWorkload, "exactly_once_v2", nil)
	r.runKills(crashWorkloadKills(t, defaultCrashKills))
}

// TestCrashWindowedCountExactlyOnce is the crash test of a window store.
func TestCrashWindowedCountExactlyOnce(t *testing.T) {
	r := newCrashRun(t, windowedCountWorkload, "exactly_once_v2", nil)
	r.runKills(crashWorkloadKills(t, defaultCrashKills))
}

// TestCrashSessionCountExactlyOnce is the crash test of a session store,
// whose updates include retractions of merged sessions.
func TestCrashSessionCountExactlyOnce(t *testing.T) {
	r := newCrashRun(t, sessionCountWorkload, "exactly_once_v2", nil)
	r.runKills(crashWorkloadKills(t, defaultCrashKills))
}

// TestCrashTwoStoresExactlyOnce is the crash test of a task with two
// stores, where txn.between-stores kills after one store committed and
// before the other did.
func TestCrashTwoStoresExactlyOnce(t *testing.T) {
	r := newCrashRun(t, twoStoresWorkload, "exactly_once_v2", nil)
	r.runKills(crashWorkloadKills(t, defaultCrashKills))
}

// TestCrashLeftJoinExactlyOnce is the crash test of a stream-stream left
// join: its two window stores retaining duplicates and its shared outer
// store, with left records emitted without a partner once their window has
// closed.
func TestCrashLeftJoinExactlyOnce(t *testing.T) {
	r := newCrashRun(t, leftJoinWorkload, "exactly_once_v2", nil)
	r.runKills(crashWorkloadKills(t, defaultCrashKills))
}

// TestCrashFKJoinExactlyOnce is the crash test of a foreign-key join: its
// subscription-registration and -response topics, its subscription store
// and the stores of both tables. As the order in which the two tables'
// updates meet differs from the in-process run, each order's last result
// is checked, and that its results are ones the input can give, each once,
// in the one order the join can emit them (checkSettled).
func TestCrashFKJoinExactlyOnce(t *testing.T) {
	r := newCrashRun(t, fkJoinWorkload, "exactly_once_v2", nil)
	r.runKills(crashWorkloadKills(t, defaultCrashKills))
}

// TestCrashWordCountAtLeastOnce: under at_least_once nothing is lost and
// stores still hold exactly the fold of their changelogs up to their
// offsets.
func TestCrashWordCountAtLeastOnce(t *testing.T) {
	r := newCrashRun(t, wordCountWorkload, "at_least_once", nil)
	r.runKills(crashWorkloadKills(t, 8))
}

// TestCrashTwoStoresAtLeastOnce is TestCrashWordCountAtLeastOnce for two
// stores in one task.
func TestCrashTwoStoresAtLeastOnce(t *testing.T) {
	r := newCrashRun(t, twoStoresWorkload, "at_least_once", nil)
	r.runKills(crashWorkloadKills(t, 8))
}

// TestCrashFleetWordCountExactlyOnce is the word count's crash test on two
// StoatFlow instances in one group, one at a time killed at the failpoints
// (rebalance callbacks among them) and at random moments while the other
// runs (see runFleetKills).
func TestCrashFleetWordCountExactlyOnce(t *testing.T) {
	t.Parallel()
	r := newCrashRun(t, fleetWorkload(wordCountWorkload), "exactly_once_v2", nil)
	r.runFleetKills(crashWorkloadKills(t, defaultFleetKills), false)
}

// TestCrashFleetStandbysExactlyOnce is the word count's fleet crash test
// with a standby of every stateful task (and a warm-up when an instance
// comes back more than acceptable.recovery.lag behind, moved by a probing
// rebalance a minute later), killed also where a standby applies a batch,
// where a standby's stores become its active task's and where an active
// task's become its standby's: every store on disk, standbys' included,
// holds exactly its changelog up to its offset after each kill.
func TestCrashFleetStandbysExactlyOnce(t *testing.T) {
	t.Parallel()
	r := newCrashRun(t, fleetWorkload(wordCountWorkload), "exactly_once_v2",
		map[string]string{"num.standby.replicas": "1", "probing.rebalance.interval.ms": "60000"})
	r.standbys = true
	r.runFleetKills(crashWorkloadKills(t, defaultFleetKills), false)
}

// TestCrashFleetStreamsProtocolExactlyOnce runs the fleet crash tests
// above with group.protocol=streams: the members form a streams group
// (KIP-1071) whose session and standbys the broker takes from the group's
// configs, and the rebalance failpoint fires in the streams reconciliation,
// before a revocation and between a revocation and its acknowledgement.
func TestCrashFleetStreamsProtocolExactlyOnce(t *testing.T) {
	t.Parallel()
	streamsSet := func(extra map[string]string) map[string]string {
		m := map[string]string{"group.protocol": "streams"}
		maps.Copy(m, extra)
		return m
	}
	for _, c := range []struct {
		name     string
		w        crashWorkload
		set      map[string]string
		standbys bool
		jvm      bool
	}{
		{name: "wordcount", w: wordCountWorkload},
		{name: "standbys", w: wordCountWorkload, set: map[string]string{"num.standby.replicas": "1"}, standbys: true},
		{name: "windowedcount-mixed", w: windowedCountWorkload, jvm: true},
		{name: "wordcount-mixed", w: wordCountWorkload, jvm: true},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r := newCrashRun(t, fleetWorkload(c.w), "exactly_once_v2", streamsSet(c.set))
			r.standbys = c.standbys
			r.runFleetKills(crashWorkloadKills(t, defaultFleetKills), c.jvm)
		})
	}
}

// TestCrashFleetWindowedCountExactlyOnce is the windowed count's crash test
// on two StoatFlow instances and a Kafka Streams 4.4 one in one group.
func TestCrashFleetWindowedCountExactlyOnce(t *testing.T) {
	t.Parallel()
	r := newCrashRun(t, fleetWorkload(windowedCountWorkload), "exactly_once_v2", nil)
	r.runFleetKills(crashWorkloadKills(t, defaultFleetKills), true)
}

// TestCrashFleetWordCountMixedExactlyOnce is the word count's crash test
// on two StoatFlow instances and a Kafka Streams 4.4 one in one group.
func TestCrashFleetWordCountMixedExactlyOnce(t *testing.T) {
	t.Parallel()
	r := newCrashRun(t, fleetWorkload(wordCountWorkload), "exactly_once_v2", nil)
	r.runFleetKills(crashWorkloadKills(t, defaultFleetKills), true)
}
