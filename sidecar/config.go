package sidecar

import (
	"context"
	"fmt"
	"io"

	"github.com/stoatflow/stoatflow/compat"
	"github.com/stoatflow/stoatflow/properties"
)

// exampleProcessID stands in for the process id (a UUID the running
// application persists in its state directory) when printing client settings.
const exampleProcessID = "00000000-0000-0000-0000-000000000000"

// loadConfig reads the files and overrides, resolves config providers and
// loads the typed config with opts, printing every finding to stderr. It
// returns errReported when there was any error.
func loadConfig(files, sets []string, env *properties.Environment, stderr io.Writer, opts ...compat.LoadOption) (*compat.Config, error) {
	cfg, diags := compat.LoadFiles(files, sets, env, opts...)
	for _, d := range diags {
		fmt.Fprintln(stderr, d.String())
	}
	if diags.HasErrors() {
		fmt.Fprintf(stderr, "sidecar: configuration has errors (%d)\n", len(diags.Errors()))
		return cfg, errReported
	}
	return cfg, nil
}

func runConfig(_ context.Context, p *program, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("config", stderr)
	var files, sets stringList
	fs.Var(&files, "config", "a .properties `file` (repeatable; later files win)")
	fs.Var(&sets, "set", "a `key=value` override (repeatable; wins over files)")
	processID := fs.String("process-id", exampleProcessID, "process `id` (UUID) used to show the derived client ids")
	if err := fs.Parse(args); err != nil {
		return errUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "sidecar config: unexpected argument %q; give files with --config\n", fs.Arg(0))
		return errUsage
	}
	if len(files) == 0 && len(sets) == 0 {
		fmt.Fprintln(stderr, "sidecar config: give at least one --config FILE or --set key=value")
		return errUsage
	}
	// The blocks are printed even when there are errors, so every problem is
	// visible at once; refused values show as "<invalid: see the errors>".
	cfg, loadErr := loadConfig(files, sets, nil, stderr, p.loadOptions()...)
	if cfg == nil {
		return loadErr
	}
	if err := printConfig(cfg, *processID, stdout); err != nil {
		return err
	}
	return loadErr
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
