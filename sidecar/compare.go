package sidecar

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/sidecar/internal/topodiff"
)

// stdinKey carries a test's stdin in the context; the process's otherwise.
type stdinKey struct{}

// withStdin returns ctx carrying r as describe --compare -'s input.
func withStdin(ctx context.Context, r io.Reader) context.Context {
	return context.WithValue(ctx, stdinKey{}, r)
}

func stdin(ctx context.Context) io.Reader {
	if r, ok := ctx.Value(stdinKey{}).(io.Reader); ok {
		return r
	}
	return os.Stdin
}

// compareDescribe reads the Kafka Streams application's describe() text
// from file ("-": in), compares it with topo's and prints the report. It
// returns nil when they are the same, errDifferent when not.
func compareDescribe(file, name string, topo *kstreams.Topology, in io.Reader, stdout, stderr io.Writer) error {
	var text []byte
	var err error
	if file == "-" {
		text, err = io.ReadAll(in)
	} else {
		text, err = os.ReadFile(file)
	}
	if err != nil {
		return usageError(newFlagSet("describe", stderr),
			"--compare %s: cannot read it; give the file the Kafka Streams application's topology.describe() text was saved to, or - to read it from stdin (%v)", file, err)
	}
	ks, err := topodiff.Parse(string(text))
	if err != nil {
		fmt.Fprintf(stderr, "sidecar describe: --compare %s: %v; give the text the Kafka Streams application's topology.describe().toString() prints\n", file, err)
		return errReported
	}
	sf, err := topodiff.Parse(topo.Describe().String())
	if err != nil {
		return fmt.Errorf("sidecar: reading StoatFlow's own description of %s: %w", name, err)
	}
	r := topodiff.Compare(ks, sf)
	fmt.Fprintf(stdout, "comparing the Kafka Streams application's topology (%s) with StoatFlow's (stoatflow.topology=%s)\n", file, name)
	if err := r.Write(stdout); err != nil {
		return err
	}
	if !r.Same() {
		return errDifferent
	}
	return nil
}
