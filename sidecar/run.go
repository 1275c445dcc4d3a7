package sidecar

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"runtime/debug"
	"sort"
	"strings"
)

// version is the sidecar's version; release builds set it with
// -ldflags "-X github.com/stoatflow/stoatflow/sidecar.version=...".
var version = "0.1.0-dev"

// command is one subcommand. Adding a subcommand is one entry in commands.
type command struct {
	// summary is the one-line description shown by help.
	summary string
	// run executes the subcommand with the arguments after its name.
	run func(ctx context.Context, args []string, stdout, stderr io.Writer) error
}

// commands is the subcommand table; describe and run build the program's
// topologies, and config, describe, run and shadow resolve the Java
// classes a configuration names against its bindings.
func commands(p *program) map[string]command {
	return map[string]command{
		"config": {summary: "validate .properties files and print the effective configuration",
			run: func(ctx context.Context, args []string, stdout, stderr io.Writer) error {
				return runConfig(ctx, p, args, stdout, stderr)
			}},
		"demo": {summary: "word count end to end on an embedded broker (or --bootstrap HOST:PORT), then exit", run: runDemo},
		"describe": {summary: "print the topology stoatflow.topology names, as Kafka Streams' describe() prints it",
			run: func(ctx context.Context, args []string, stdout, stderr io.Writer) error {
				return runDescribe(ctx, p, args, stdout, stderr)
			}},
		"run": {summary: "run the topology stoatflow.topology names, serving metrics, probes and queries over HTTP",
			run: func(ctx context.Context, args []string, stdout, stderr io.Writer) error {
				return runRun(ctx, p, args, stdout, stderr)
			}},
		"shadow": {summary: "run the topology beside the live Kafka Streams application and compare their outputs key by key",
			run: func(ctx context.Context, args []string, stdout, stderr io.Writer) error {
				return runShadow(ctx, p, args, stdout, stderr)
			}},
		"version": {summary: "print the version", run: runVersion},
	}
}

// errUsage marks a command-line mistake; the message has been printed.
var errUsage = errors.New("sidecar: usage")

// errDifferent marks a comparison that found differences; the report has
// been printed. Its exit status, 3, tells it from a failure.
var errDifferent = errors.New("sidecar: different")

// errRefused marks a configuration config refused; the findings have
// been printed. Its exit status is 2: the input given was wrong.
var errRefused = errors.New("sidecar: configuration refused")

// errReported marks a failure whose details have been printed.
var errReported = errors.New("sidecar: failed")

// run dispatches args to a subcommand.
func run(ctx context.Context, p *program, args []string, stdout, stderr io.Writer) error {
	commands := commands(p)
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage(commands, p.listedTopologies(), stderr)
		if len(args) == 0 {
			return errUsage
		}
		return nil
	}
	cmd, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "sidecar: unknown command %q\n\n", args[0])
		usage(commands, p.listedTopologies(), stderr)
		return errUsage
	}
	return cmd.run(ctx, args[1:], stdout, stderr)
}

func usage(commands map[string]command, topologies []string, w io.Writer) {
	fmt.Fprintln(w, "usage: sidecar <command> [flags]")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "commands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %s\n", n, commands[n].summary)
	}
	if len(topologies) > 0 {
		fmt.Fprintf(w, "\ntopologies (stoatflow.topology): %s\n", strings.Join(topologies, ", "))
	}
}

// exitCode maps run's error to a process exit code, printing unexpected errors.
func exitCode(err error, stderr io.Writer) int {
	switch {
	case err == nil:
		return 0
	case errors.Is(err, errUsage), errors.Is(err, errRefused):
		return 2
	case errors.Is(err, errDifferent):
		return 3
	case errors.Is(err, errReported):
		return 1
	}
	fmt.Fprintln(stderr, err)
	return 1
}

// stringList is a repeatable string flag.
type stringList []string

// String implements flag.Value.
func (s *stringList) String() string { return strings.Join(*s, ",") }

// Set implements flag.Value, appending v.
func (s *stringList) Set(v string) error {
	*s = append(*s, v)
	return nil
}

// pairList is a repeatable key=value flag: --set or --arg. A value
// without a key and "=" is refused as the flag is parsed, a command-line
// mistake like an unknown flag.
type pairList []string

// String implements flag.Value.
func (s *pairList) String() string { return strings.Join(*s, ",") }

// Set implements flag.Value, appending v.
func (s *pairList) Set(v string) error {
	if k, _, ok := strings.Cut(v, "="); !ok || strings.TrimSpace(k) == "" {
		return errors.New("want name=value, such as num.stream.threads=4 or input=my-topic")
	}
	*s = append(*s, v)
	return nil
}

// usageLines are the subcommands' synopses, as docs/sidecar.md gives them.
var usageLines = map[string]string{
	"config":   "sidecar config --config FILE [--config FILE2] [--set key=value] [--process-id UUID]",
	"demo":     "sidecar demo [--bootstrap HOST:PORT] [--state-dir DIR] [--verbose]",
	"describe": "sidecar describe --config FILE [--set key=value] [--arg name=value] [--compare JVM-DESCRIBE-FILE]",
	"run":      "sidecar run --config FILE [--config FILE2] [--set key=value] [--arg name=value] [--embedded-broker]",
	"shadow":   "sidecar shadow --config FILE [--mode sequence|latest] [--outputs topics|memory] [--suffix -shadow] [--application-id ID] [--grace 30s]",
	"version":  "sidecar version",
}

// newFlagSet returns a flag set that reports errors to stderr as usage
// errors: the mistake, the subcommand's usage line and its flags.
func newFlagSet(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("sidecar "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: %s\n", usageLines[name])
		fs.PrintDefaults()
	}
	return fs
}

// usageError prints a command-line mistake found after fs parsed its
// flags, then the usage, and returns errUsage.
func usageError(fs *flag.FlagSet, format string, args ...any) error {
	fmt.Fprintf(fs.Output(), "%s: %s\n", fs.Name(), fmt.Sprintf(format, args...))
	fs.Usage()
	return errUsage
}

func runVersion(_ context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("version", stderr)
	if err := fs.Parse(args); err != nil {
		return errUsage
	}
	info, _ := debug.ReadBuildInfo()
	_, err := fmt.Fprintf(stdout, "stoatflow sidecar %s, Kafka Streams 4.4 configuration\n", versionOf(info))
	return err
}

// modulePath is StoatFlow's module.
const modulePath = "github.com/stoatflow/stoatflow"

// versionOf is the version the version command prints: the sidecar's
// version and the VCS revision of the build. In a binary whose main module
// is another one (a team's sidecar built on this package), that revision is
// the team's, so the line names the main module with it and StoatFlow's
// module version beside it.
func versionOf(info *debug.BuildInfo) string {
	v := version
	if info == nil {
		return v
	}
	rev := ""
	for _, s := range info.Settings {
		if s.Key == "vcs.revision" && len(s.Value) >= 12 {
			rev = " (" + s.Value[:12] + ")"
		}
	}
	if info.Main.Path == "" || info.Main.Path == modulePath {
		return v + rev
	}
	for _, d := range info.Deps {
		if d.Path == modulePath {
			v += " (" + modulePath + " " + d.Version + ")"
		}
	}
	return v + " in " + info.Main.Path + rev
}
