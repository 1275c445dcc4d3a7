package sidecar

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/stoatflow/stoatflow/compat"
	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/state"
)

// preflight returns every reason run would refuse cfg before it connects
// to a broker, each on the line of the key that causes it: a
// stoatflow.topology the program does not have, a file the clients or the
// HTTP server would read and cannot (compat.Config.CheckFiles), a state
// directory that cannot be created or written. config and run both call
// it, so the two cannot disagree. It creates the application's state
// directory as run does, and leaves no file in it.
func (p *program) preflight(cfg *compat.Config) compat.Diagnostics {
	var ds compat.Diagnostics
	if d := p.checkTopology(cfg); d != nil {
		ds = append(ds, *d)
	}
	ds = append(ds, cfg.CheckFiles()...)
	ds = append(ds, checkStateDir(cfg)...)
	return ds
}

// checkTopology reports a stoatflow.topology the program cannot run,
// suggesting the listed names closest to it.
func (p *program) checkTopology(cfg *compat.Config) *compat.Diagnostic {
	d := &compat.Diagnostic{Severity: compat.SeverityError, Key: compat.TopologyConfig, Pos: cfg.Pos(compat.TopologyConfig)}
	listed := p.listedTopologies()
	switch _, ok := p.topologies[cfg.Topology]; {
	case ok:
		return nil
	case len(p.topologies) == 0:
		d.Message = fmt.Sprintf("%s = %s: this binary has no topologies", compat.TopologyConfig, cfg.Topology)
		d.Hint = "its main package gave sidecar.Main none; build the sidecar with the topologies it should run"
	case cfg.Topology == "":
		d.Message = compat.TopologyConfig + " is not set"
		d.Hint = "set it to the name of the topology to run: " + nameList(listed)
	default:
		d.Message = fmt.Sprintf("%s = %s is not a topology of this binary", compat.TopologyConfig, cfg.Topology)
		if near := closest(cfg.Topology, listed); len(near) > 0 {
			d.Hint = "did you mean " + strings.Join(near, " or ") + "? (`sidecar help` lists them all)"
		} else {
			d.Hint = "set it to one of " + nameList(listed)
		}
	}
	return d
}

// nameList lists names for a hint, or says where to find them when there
// are many.
func nameList(names []string) string {
	if len(names) > 10 {
		return fmt.Sprintf("the %d that `sidecar help` lists", len(names))
	}
	return strings.Join(names, ", ")
}

// closest returns the names at the smallest edit distance from name, at
// most three, when that distance is small for name's length.
func closest(name string, names []string) []string {
	best := max(2, len(name)/3) // the farthest a suggestion may be
	var out []string
	for _, n := range names {
		switch d := editDistance(strings.ToLower(name), strings.ToLower(n)); {
		case d < best:
			best, out = d, []string{n}
		case d == best:
			out = append(out, n)
		}
	}
	if len(out) > 3 {
		out = out[:3]
	}
	return out
}

// editDistance is the Levenshtein distance between a and b.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// checkStateDir creates the application's state directory as run does
// (state.NewDirectory: <state.dir>/<application.id> and its missing
// parents, then the modes allow.os.group.write.access asks for) and writes
// and removes a probe file in it. Modes it cannot set are a warning: run
// logs them and goes on, as Kafka Streams does.
func checkStateDir(cfg *compat.Config) compat.Diagnostics {
	dir := filepath.Join(cfg.StateDir, cfg.ApplicationID)
	d, err := state.NewDirectory(cfg.StateDir, cfg.ApplicationID)
	switch {
	case errors.Is(err, state.ErrInvalidArgument) && cfg.ApplicationID == "":
		return nil // the missing application.id is reported on its own
	case errors.Is(err, state.ErrInvalidArgument):
		return compat.Diagnostics{{Severity: compat.SeverityError, Key: compat.ApplicationIDConfig, Pos: cfg.Pos(compat.ApplicationIDConfig),
			Message: fmt.Sprintf("application.id = %s cannot name the application's directory in state.dir", cfg.ApplicationID),
			Hint:    "leave / and \\ out of it (" + err.Error() + ")"}}
	}
	if pe := (*fs.PathError)(nil); errors.As(err, &pe) {
		err = pe // the system's words are the cause; the diagnostic says the rest
	}
	what := "create"
	var ds compat.Diagnostics
	if err == nil {
		if perr := d.SetPermissions(cfg.AllowOSGroupWriteAccess); perr != nil {
			ds = append(ds, compat.Diagnostic{Severity: compat.SeverityWarning, Key: compat.StateDirConfig, Pos: cfg.Pos(compat.StateDirConfig),
				Message: fmt.Sprintf("state.dir = %s: %v", cfg.StateDir, perr),
				Hint:    "run starts with the modes the directories have, as Kafka Streams does; give the process's user ownership of them to set their modes"})
		}
		what = "write to"
		var f *os.File
		if f, err = os.CreateTemp(dir, ".stoatflow-probe-*"); err == nil {
			f.Close()
			err = os.Remove(f.Name())
		}
	}
	if err == nil {
		return ds
	}
	return append(ds, *stateDirDiagnostic(cfg, what, dir, err))
}

// stateDirDiagnostic says that the state directory dir could not be
// created, written or locked, on state.dir's line.
func stateDirDiagnostic(cfg *compat.Config, what, dir string, err error) *compat.Diagnostic {
	hint := "set state.dir to a directory the process can create and write, or give its user write access to "
	switch p := existingAncestor(dir); {
	case errors.Is(err, state.ErrLocked):
		hint = "stop the other instance, or give each instance its own state.dir"
	case !isDir(p):
		hint = "set state.dir to a directory the process can create and write: " + p + " is not a directory"
	default:
		hint += p
	}
	return &compat.Diagnostic{Severity: compat.SeverityError, Key: compat.StateDirConfig, Pos: cfg.Pos(compat.StateDirConfig),
		Message: fmt.Sprintf("state.dir = %s: cannot %s the state directory %s", cfg.StateDir, what, dir), Hint: hint + " (" + err.Error() + ")"}
}

// existingAncestor returns dir or its nearest ancestor that exists.
func existingAncestor(dir string) string {
	for {
		if _, err := os.Stat(dir); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return dir
		}
		dir = parent
	}
}

// isDir reports whether path is a directory.
func isDir(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}

// startError is a start-up failure explained on the lines of the keys
// that cause it, the library's error last.
type startError struct {
	diags compat.Diagnostics
	err   error
}

func (e *startError) Error() string {
	lines := make([]string, len(e.diags))
	for i, d := range e.diags {
		lines[i] = d.String()
	}
	return strings.Join(lines, "\n")
}

func (e *startError) Unwrap() error { return e.err }

// explainStart names the keys behind err, an error of starting the
// application: the state directory's creation or lock (state.dir), the
// HTTP server's listen address (stoatflow.http.listen), or a store, keytab
// or other file the clients read (CheckFiles). It returns
// err, wrapped, when it finds none.
func explainStart(cfg *compat.Config, err error) error {
	dir := filepath.Join(cfg.StateDir, cfg.ApplicationID)
	var ds compat.Diagnostics
	var pe *fs.PathError
	var ue *kstreams.UnnamedResourcesError
	var oe *net.OpError
	switch {
	case errors.As(err, &ue):
		key := compat.EnsureExplicitInternalResourceNamingConfig
		ds = compat.Diagnostics{{Severity: compat.SeverityError, Key: key, Pos: cfg.Pos(key),
			Message: fmt.Sprintf("%s = true: topology %s leaves internal resources to generated names, which Kafka Streams 4.4 refuses too: %v",
				key, cfg.Topology, ue),
			Hint: ue.Resources.Hint() + "; or set " + key + "=false to run with the generated names (they are then logged)"}}
	case errors.Is(err, state.ErrLocked):
		ds = compat.Diagnostics{*stateDirDiagnostic(cfg, "lock", dir, err)}
	case errors.As(err, &pe) && within(pe.Path, cfg.StateDir):
		ds = compat.Diagnostics{*stateDirDiagnostic(cfg, "create or write to", dir, err)}
	case errors.As(err, &oe) && oe.Op == "listen":
		ds = compat.Diagnostics{{Severity: compat.SeverityError, Key: compat.HTTPListenConfig, Pos: cfg.Pos(compat.HTTPListenConfig),
			Message: fmt.Sprintf("%s = %s: cannot listen", compat.HTTPListenConfig, cfg.HTTPListen),
			Hint:    listenHint("set "+compat.HTTPListenConfig+" to", err) + " (" + oe.Error() + ")"}}
	default:
		ds = cfg.CheckFiles()
	}
	if len(ds) == 0 {
		return fmt.Errorf("sidecar: starting %s: %w", cfg.Topology, err)
	}
	return &startError{diags: ds, err: err}
}

// listenHint says what to do when an HTTP listen address cannot be bound;
// set is how to give another one ("set stoatflow.http.listen to").
func listenHint(set string, err error) string {
	switch {
	case errors.Is(err, syscall.EADDRINUSE):
		return "another process listens there (another instance on this host?); stop it, or " + set + " a free port"
	case errors.Is(err, syscall.EACCES):
		return set + " a port above 1023, or give the process the right to bind low ports (CAP_NET_BIND_SERVICE)"
	}
	return set + " a host:port of this host (an address of one of its interfaces, or :port for all of them)"
}

// within reports whether path is dir or under it.
func within(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// loadChecked loads the configuration as loadConfig does and adds the
// program's preflight findings, printing every finding to stderr. It
// returns errReported when there was any error.
func (p *program) loadChecked(files, sets []string, stderr io.Writer) (*compat.Config, error) {
	cfg, diags := compat.LoadFiles(files, sets, nil, p.loadOptions()...)
	if cfg != nil {
		diags = append(diags, p.preflight(cfg)...)
	}
	return cfg, report(diags, stderr)
}

// report prints diags and returns errReported when any is an error.
func report(diags compat.Diagnostics, stderr io.Writer) error {
	for _, d := range diags {
		fmt.Fprintln(stderr, d.String())
	}
	if diags.HasErrors() {
		fmt.Fprintf(stderr, "sidecar: configuration has errors (%d)\n", len(diags.Errors()))
		return errReported
	}
	return nil
}

// listedTopologies returns the names help and hints show: every
// topology's but the unlisted ones', sorted.
func (p *program) listedTopologies() []string {
	return slices.DeleteFunc(p.topologies.names(), func(n string) bool { return p.unlisted[n] })
}
