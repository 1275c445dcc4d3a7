// Package failpoint holds named points in the commit and restore paths where
// a test can make the process die or fail, to prove that a crash at that
// moment breaks no invariant.
//
// Points are armed only through the environment variable STOATFLOW_FAILPOINTS,
// read once at start-up; when it is unset, Hit is a single load of a false
// bool. The variable holds comma-separated entries `name=action[@n]`:
//
//	txn.after-commit=kill        SIGKILL the process at the first hit
//	state.between-stores=kill@3  SIGKILL at the third hit
//	restore.mid=error@2          Hit returns ErrInjected at the second hit
//
// A name `*` arms every point, which suits random-moment kill tests:
// `*=kill@17` kills at the 17th hit of any point.
package failpoint

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
)

// The named points. Each sits where a crash tests one protection.
const (
	AfterChangelogFlush = "txn.after-changelog-flush" // changelog and output records are on the broker, uncommitted
	AfterSendOffsets    = "txn.after-send-offsets"    // offsets added to the transaction, not committed
	AfterCommit         = "txn.after-commit"          // Kafka transaction committed, no store committed yet
	BetweenStores       = "txn.between-stores"        // some stores committed, others not
	MidRestore          = "restore.mid"               // after one restore batch reached a store
	RebalanceCallback   = "rebalance.callback"        // inside a partition assignment or revocation
)

// ErrInjected is what an `error` action returns.
var ErrInjected = errors.New("failpoint: injected failure")

// EnvVar names the environment variable that arms points.
const EnvVar = "STOATFLOW_FAILPOINTS"

type point struct {
	action string // "kill" or "error"
	at     int    // hit number that fires; 0 = every hit
	hits   int
}

var (
	enabled atomic.Bool
	mu      sync.Mutex
	points  map[string]*point
)

func init() {
	spec := os.Getenv(EnvVar)
	if spec == "" {
		return
	}
	ps, err := parse(spec)
	if err != nil {
		fmt.Fprintf(os.Stderr, "failpoint: %v; no point armed\n", err)
		return
	}
	points = ps
	enabled.Store(true)
}

// parse reads a STOATFLOW_FAILPOINTS value.
func parse(spec string) (map[string]*point, error) {
	out := map[string]*point{}
	for _, e := range strings.Split(spec, ",") {
		e = strings.TrimSpace(e)
		if e == "" {
			continue
		}
		name, act, ok := strings.Cut(e, "=")
		if !ok {
			return nil, fmt.Errorf("entry %q: want name=action[@n]", e)
		}
		p := &point{action: act}
		if a, n, ok := strings.Cut(act, "@"); ok {
			at, err := strconv.Atoi(n)
			if err != nil || at < 1 {
				return nil, fmt.Errorf("entry %q: hit number must be a positive integer", e)
			}
			p.action, p.at = a, at
		}
		if p.action != "kill" && p.action != "error" {
			return nil, fmt.Errorf("entry %q: action must be kill or error", e)
		}
		out[name] = p
	}
	return out, nil
}

// Hit passes point name. Unarmed, it returns nil at the cost of one atomic
// load.
// Armed with kill, it SIGKILLs the process when it fires; with error, it
// returns ErrInjected.
func Hit(name string) error {
	if !enabled.Load() {
		return nil
	}
	return hitSlow(name)
}

func hitSlow(name string) error {
	mu.Lock()
	p := points[name]
	if p == nil {
		p = points["*"]
	}
	if p == nil {
		mu.Unlock()
		return nil
	}
	p.hits++
	fires := p.at == 0 || p.hits == p.at
	mu.Unlock()
	if !fires {
		return nil
	}
	if p.action == "kill" {
		fmt.Fprintf(os.Stderr, "failpoint: %s: killing process %d\n", name, os.Getpid())
		_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
		select {} // the signal is on its way
	}
	return fmt.Errorf("%w at %s", ErrInjected, name)
}

// Arm replaces the armed points, for tests within one process.
func Arm(spec string) error {
	ps, err := parse(spec)
	if err != nil {
		return err
	}
	mu.Lock()
	defer mu.Unlock()
	points = ps
	enabled.Store(len(ps) > 0)
	return nil
}
