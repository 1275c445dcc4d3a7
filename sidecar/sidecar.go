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
// Options give it the Go counterparts of the Java classes the application's
// .properties file may name besides: production exception handlers
// (WithProductionHandlers) and the types of Protobuf and JSON Schema values
// (WithSchemaClasses). The sidecar knows nothing else: no package registers
// a topology, a handler or a class by being imported.
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

	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/stoatflow/stoatflow/compat"
	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/serde/registry"
	"github.com/stoatflow/stoatflow/streams"
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

// An Option gives the sidecar more of the program than its topologies.
type Option func(*program)

// WithProductionHandlers binds the Java classes production.exception.handler
// may name to Go handlers: the configuration is checked against them, and
// each stream thread gets its handler from them. Several are merged.
func WithProductionHandlers(h kstreams.ProductionHandlers) Option {
	return func(p *program) {
		if p.handlers == nil {
			p.handlers = kstreams.ProductionHandlers{}
		}
		maps.Copy(p.handlers, h)
	}
}

// WithSchemaClasses binds the Java classes specific.protobuf.key.type,
// specific.protobuf.value.type, json.key.type and json.value.type may name
// to Go types, for the Protobuf and JSON Schema default serdes. Several are
// merged.
func WithSchemaClasses(c registry.Classes) Option {
	return func(p *program) {
		if p.classes.Protobuf == nil {
			p.classes.Protobuf = map[string]protoreflect.MessageType{}
		}
		if p.classes.JSONSchema == nil {
			p.classes.JSONSchema = map[string]registry.JSONSchemaType{}
		}
		maps.Copy(p.classes.Protobuf, c.Protobuf)
		maps.Copy(p.classes.JSONSchema, c.JSONSchema)
	}
}

// WithUnlistedTopologies names topologies of the program that run as any
// other but are left out of help and of the names a mistaken
// stoatflow.topology is offered: those that exist for tests. Each must be
// one of the program's topologies.
func WithUnlistedTopologies(names ...string) Option {
	return func(p *program) {
		if p.unlisted == nil {
			p.unlisted = map[string]bool{}
		}
		for _, n := range names {
			p.unlisted[n] = true
		}
	}
}

// program is what the sidecar's main package gives it: the topologies, and
// the Go counterparts of the Java classes a configuration may name.
type program struct {
	topologies Topologies
	// unlisted are the topologies help and hints leave out.
	unlisted map[string]bool
	handlers kstreams.ProductionHandlers
	classes  registry.Classes
}

// newProgram collects topologies and opts, refusing the program's
// mistakes.
func newProgram(topologies Topologies, opts []Option) (*program, error) {
	p := &program{topologies: maps.Clone(topologies)}
	for _, opt := range opts {
		opt(p)
	}
	if err := p.topologies.validate(); err != nil {
		return nil, err
	}
	for _, n := range slices.Sorted(maps.Keys(p.unlisted)) {
		if p.topologies[n] == nil {
			return nil, fmt.Errorf("sidecar: unlisted topology %q is not one of the program's topologies", n)
		}
	}
	if err := p.handlers.Validate(); err != nil {
		return nil, fmt.Errorf("sidecar: %w", err)
	}
	if err := p.classes.Validate(); err != nil {
		return nil, fmt.Errorf("sidecar: %w", err)
	}
	return p, nil
}

// loadOptions resolve a configuration's Java classes against the
// program's.
func (p *program) loadOptions() []compat.LoadOption {
	return []compat.LoadOption{compat.WithProductionHandlerClasses(p.handlers.Classes()...), compat.WithSchemaClasses(p.classes)}
}

// streamsOptions give the runtime the program's production handlers.
func (p *program) streamsOptions() []streams.Option {
	return []streams.Option{streams.WithProductionHandlers(p.handlers)}
}

// Main runs the sidecar on os.Args with the given topologies and options and
// exits with its status: 0 on success, 2 for a command-line mistake or a
// configuration config refused, 1 for any other failure (printed to
// stderr).
//
// The first SIGTERM or SIGINT starts a graceful shutdown (commit, close the
// stores, within stoatflow.shutdown.timeout-ms); a second one ends the
// process at once.
func Main(topologies Topologies, opts ...Option) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	go func() {
		<-ctx.Done()
		stop() // restore the default action: a second signal kills
	}()
	err := Run(ctx, topologies, os.Args[1:], os.Stdout, os.Stderr, opts...)
	stop()
	os.Exit(ExitCode(err, os.Stderr))
}

// Run runs one sidecar command line, args without the program name (for
// example "run", "--config", "streams.properties"), with the given
// topologies and options, until the subcommand ends or ctx does; run then shuts the
// application down cleanly. Diagnostics go to stderr as they are found; the
// returned error says how the command failed, and ExitCode turns it into a
// process status.
func Run(ctx context.Context, topologies Topologies, args []string, stdout, stderr io.Writer, opts ...Option) error {
	p, err := newProgram(topologies, opts)
	if err != nil {
		return err
	}
	return run(ctx, p, args, stdout, stderr)
}

// ExitCode maps Run's error to a process exit status: 0 for nil, 2 for a
// command-line mistake (the usage has been printed) or a configuration
// config refused (the findings have been printed), 3 when describe
// --compare found the topologies different, 1 otherwise. It prints
// an error to stderr unless Run has printed its details already.
func ExitCode(err error, stderr io.Writer) int { return exitCode(err, stderr) }
