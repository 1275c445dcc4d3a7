// Package sidecar is StoatFlow's sidecar program as a library: the
// subcommands (config, describe, run, shadow, demo, version) that read a Kafka
// Streams application's .properties file unchanged and run the Go topology
// its stoatflow.topology key names.
//
// A team runs its own topologies in the sidecar with a main package of its
// own that names them:
//
//	package main
//
//	import (
//		"github.com/stoatflow/stoatflow/sidecar"
//
//		"example.com/orders/enrich"
//	)
//
//	func main() { sidecar.Main(sidecar.Topologies{"enrich": enrich.Build}) }
//
// The binary it builds takes the same subcommands, flags, files, HTTP routes
// and exit statuses as cmd/sidecar; only the set of topologies differs.
package sidecar

import (
	"context"
	"fmt"
	"io"
	"maps"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"

	"github.com/stoatflow/stoatflow/kstreams"
)

// Topologies maps the names stoatflow.topology takes to the factories that
// build them. A factory receives the --arg name=value flags of describe and
// run, and gives missing arguments its own defaults.
type Topologies map[string]kstreams.TopologyFactory

// names returns the registered names, sorted.
func (t Topologies) names() []string {
	return slices.Sorted(maps.Keys(t))
}

// validate reports a name stoatflow.topology could not select, or one
// without a factory: mistakes in the program, found before any subcommand
// runs.
func (t Topologies) validate() error {
	for _, n := range t.names() {
		switch {
		case n == "" || strings.TrimSpace(n) != n:
			return fmt.Errorf("sidecar: topology name %q: a stoatflow.topology value cannot be empty or start or end with white space", n)
		case t[n] == nil:
			return fmt.Errorf("sidecar: topology %q has a nil factory", n)
		}
	}
	return nil
}

// Main runs the sidecar on os.Args with the given topologies and exits with
// its status: 0 on success, 2 for a command-line mistake, 1 for any other
// failure (printed to stderr).
//
// The first SIGTERM or SIGINT starts a graceful shutdown (commit, close the
// stores, within stoatflow.shutdown.timeout-ms); a second one ends the
// process at once.
func Main(topologies Topologies) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	go func() {
		<-ctx.Done()
		stop() // restore the default action: a second signal kills
	}()
	err := Run(ctx, topologies, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(ExitCode(err, os.Stderr))
}

// Run runs one sidecar command line, args without the program name (for
// example "run", "--config", "streams.properties"), with the given
// topologies, until the subcommand ends or ctx does; run then shuts the
// application down cleanly. Diagnostics go to stderr as they are found; the
// returned error says how the command failed, and ExitCode turns it into a
// process status.
func Run(ctx context.Context, topologies Topologies, args []string, stdout, stderr io.Writer) error {
	if err := topologies.validate(); err != nil {
		return err
	}
	return run(ctx, maps.Clone(topologies), args, stdout, stderr)
}

// ExitCode maps Run's error to a process exit status: 0 for nil, 2 for a
// command-line mistake (the usage has been printed), 3 when describe
// --compare found the topologies different, 1 otherwise. It prints
// an error to stderr unless Run has printed its details already.
func ExitCode(err error, stderr io.Writer) int { return exitCode(err, stderr) }
