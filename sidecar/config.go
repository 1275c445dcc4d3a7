package sidecar

import (
	"context"
	"errors"
	"fmt"
	"io"
	"regexp"

	"github.com/stoatflow/stoatflow/compat"
	"github.com/stoatflow/stoatflow/properties"
)

// exampleProcessID stands in for the process id (a UUID the running
// application persists in its state directory) when printing client settings.
const exampleProcessID = "00000000-0000-0000-0000-000000000000"

// uuidPattern matches a UUID as Java's UUID.toString writes it, the form
// of a Kafka Streams process id.
var uuidPattern = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)

// loadConfig reads the files and overrides, resolves config providers and
// loads the typed config with opts, printing every finding to stderr. It
// returns errReported when there was any error.
func loadConfig(files, sets []string, env *properties.Environment, stderr io.Writer, opts ...compat.LoadOption) (*compat.Config, error) {
	cfg, diags := compat.LoadFiles(files, sets, env, opts...)
	return cfg, report(diags, stderr)
}

func runConfig(_ context.Context, p *program, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("config", stderr)
	var files stringList
	var sets pairList
	fs.Var(&files, "config", "a .properties `file` (repeatable; later files win)")
	fs.Var(&sets, "set", "a `key=value` override (repeatable; wins over files)")
	processID := fs.String("process-id", exampleProcessID, "process `id` (UUID) used to show the derived client ids")
	if err := fs.Parse(args); err != nil {
		return errUsage
	}
	if fs.NArg() > 0 {
		return usageError(fs, "unexpected argument %q; give files with --config", fs.Arg(0))
	}
	if !uuidPattern.MatchString(*processID) {
		return usageError(fs, "--process-id %s is not a UUID; give one such as %s, or leave the flag out", *processID, exampleProcessID)
	}
	if len(files) == 0 && len(sets) == 0 {
		return usageError(fs, "give at least one --config FILE or --set key=value")
	}
	// The blocks are printed even when there are errors, so every problem is
	// visible at once; refused values show as "<invalid: see the errors>".
	// config refuses what run would refuse before connecting: it checks
	// the same (preflight), and exits 2 where run exits 1.
	cfg, loadErr := p.loadChecked(files, sets, stderr)
	if cfg == nil {
		return refused(loadErr)
	}
	if err := printConfig(cfg, *processID, stdout); err != nil {
		return err
	}
	return refused(loadErr)
}

// refused turns a configuration's errors into config's refusal.
func refused(err error) error {
	if errors.Is(err, errReported) {
		return errRefused
	}
	return err
}

// printConfig writes the StreamsConfig, StoatFlowConfig and client blocks.
func printConfig(cfg *compat.Config, processID string, stdout io.Writer) error {
	if err := cfg.WriteStreamsConfig(stdout); err != nil {
		return err
	}
	fmt.Fprintln(stdout)
	if err := cfg.WriteStoatFlowConfig(stdout); err != nil {
		return err
	}
	fmt.Fprintln(stdout)
	if cfg.UsesSchemaRegistry() {
		if err := cfg.WriteSchemaRegistryConfig(stdout); err != nil {
			return err
		}
		fmt.Fprintln(stdout)
	}
	return cfg.WriteClientConfigs(stdout, processID)
}
