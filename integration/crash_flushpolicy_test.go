package integration

import (
	"strconv"
	"strings"
	"testing"
)

// The flush policy crash tests: the crash workloads with a write buffer
// that never fills in a run (16 MiB), so that only the flush policy moves a
// store's durable offset, and a record bound small against the changelogs
// the runs write. Every restore, after every kill, must replay at most the
// bound plus one commit's records; I1-I5 hold as in the other crash tests.
// Without the policy the same runs replay their changelogs from offset 0
// until the first clean stop.

// flushPolicyBound is stoatflow.rocksdb.flush.max-lag-records in these runs.
const flushPolicyBound = 150

// flushPolicySlack bounds one commit's changelog records: a commit every
// 100 ms, the parent feeding 10 input records every 50 ms (each input
// record is at most 3 changelog records: three words, or one window
// count), and a commit that waited on the broker covering several of
// those intervals. A restore's end also counts the transaction markers
// since the durable offset, one per commit, in its offsets.
const flushPolicySlack = 150

func runFlushPolicyCrash(t *testing.T, w crashWorkload) {
	r := newCrashRun(t, w, "exactly_once_v2", map[string]string{
		"stoatflow.rocksdb.write-buffer-bytes":    "16777216",
		"stoatflow.rocksdb.flush.max-lag-records": strconv.Itoa(flushPolicyBound),
		"stoatflow.rocksdb.flush.max-lag-ms":      "60000",
	})
	var restores, over int
	var largest int64
	var largestAt string
	r.restoreCheck = func(lines []string) {
		starts := map[string][2]int64{}
		for _, l := range lines {
			f := strings.Fields(l)
			switch {
			case len(f) == 6 && f[0] == "RESTORE-START":
				start, _ := strconv.ParseInt(f[3], 10, 64)
				end, _ := strconv.ParseInt(f[4], 10, 64)
				starts[f[2]] = [2]int64{start, end}
			case len(f) == 4 && f[0] == "RESTORE-END":
				n, _ := strconv.ParseInt(f[3], 10, 64)
				restores++
				se := starts[f[2]]
				if n > largest {
					largest, largestAt = n, f[2]+" from "+strconv.FormatInt(se[0], 10)
				}
				if n > flushPolicyBound+flushPolicySlack {
					over++
					r.diverge("%s: restore from offset %d replayed %d records, bound %d + %d for one commit",
						f[2], se[0], n, flushPolicyBound, flushPolicySlack)
				}
			}
		}
	}
	r.runKills(crashWorkloadKills(t, 12))
	if r.stats.wipes > 0 {
		t.Errorf("%d full restores of stores whose offset the changelog held", r.stats.wipes)
	}
	if restores == 0 || r.stats.tailRestores == 0 {
		t.Errorf("%d restores, %d from a store offset: the kills never left anything to replay", restores, r.stats.tailRestores)
	}
	t.Logf("flush policy crash %s: kills=%d restores=%d from-offset=%d full=%d largest-replay=%d (%s) bound=%d+%d over-bound=%d",
		w.name, r.stats.kills, restores, r.stats.tailRestores, r.stats.fullRestores, largest, largestAt, flushPolicyBound, flushPolicySlack, over)
}

// TestCrashFlushPolicyWordCountExactlyOnce kills the word count and bounds
// every restart's replay by the flush policy.
func TestCrashFlushPolicyWordCountExactlyOnce(t *testing.T) {
	runFlushPolicyCrash(t, wordCountWorkload)
}

// TestCrashFlushPolicyWindowedCountExactlyOnce is the same for a window
// store.
func TestCrashFlushPolicyWindowedCountExactlyOnce(t *testing.T) {
	runFlushPolicyCrash(t, windowedCountWorkload)
}
