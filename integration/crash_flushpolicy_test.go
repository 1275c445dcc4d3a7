package integration

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stoatflow/stoatflow/state"
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

// A commit returns only once its store partition's durable offset is
// within the bound of the committed one, so a crash replays at most the
// bound plus the records of the last commit (the one the crash
// interrupted, or whose store commit it prevented). The test finds that
// commit in the changelog: read_committed, a transaction's records have
// consecutive offsets and the commit marker after them takes one, so a
// gap starts the next transaction.

func runFlushPolicyCrash(t *testing.T, w crashWorkload) {
	r := newCrashRun(t, w, "exactly_once_v2", map[string]string{
		"stoatflow.rocksdb.write-buffer-bytes":    "16777216",
		"stoatflow.rocksdb.flush.max-lag-records": strconv.Itoa(flushPolicyBound),
		"stoatflow.rocksdb.flush.max-lag-ms":      "60000",
	})
	var restores, over int
	var largest, largestBeforeLast int64
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
				largest = max(largest, n)
				se, ok := starts[f[2]]
				if !ok || n == 0 {
					continue
				}
				before, err := r.lagBeforeLastCommit(f[2], se[0], se[1])
				if err != nil {
					t.Fatal(err)
				}
				largestBeforeLast = max(largestBeforeLast, before)
				if before > flushPolicyBound {
					over++
					r.diverge("%s: restore from offset %d replayed %d records, %d offsets of them before the last commit: bound %d",
						f[2], se[0], n, before, flushPolicyBound)
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
	t.Logf("flush policy crash %s: kills=%d restores=%d from-offset=%d full=%d largest-replay=%d records largest-before-last-commit=%d offsets bound=%d over-bound=%d",
		w.name, r.stats.kills, restores, r.stats.tailRestores, r.stats.fullRestores, largest, largestBeforeLast, flushPolicyBound, over)
}

// lagBeforeLastCommit returns, for a restore of changelog partition tp
// (its String form) over [start, end), how many offsets past the durable
// one (start - 1) the last record before the range's last transaction
// is: the durable lag when the last completed commit returned.
func (r *crashRun) lagBeforeLastCommit(tp string, start, end int64) (int64, error) {
	i := strings.LastIndexByte(tp, '-')
	p, err := strconv.Atoi(tp[i+1:])
	if err != nil || end <= start {
		return 0, err
	}
	part := state.TopicPartition{Topic: tp[:i], Partition: int32(p)}
	logs, err := r.readChangelogs(map[state.TopicPartition]int64{part: end - 1})
	if err != nil {
		return 0, err
	}
	var in []int64
	for _, c := range logs[part] {
		if c.offset >= start {
			in = append(in, c.offset)
		}
	}
	for j := len(in) - 1; j > 0; j-- {
		if in[j]-in[j-1] > 1 {
			return in[j-1] - (start - 1), nil
		}
	}
	return 0, nil
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
