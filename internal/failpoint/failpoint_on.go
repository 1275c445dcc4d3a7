//go:build failpoint

package failpoint

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
)

// Enabled reports whether failpoints are compiled in: true under the
// failpoint build tag.
const Enabled = true

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
