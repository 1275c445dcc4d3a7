package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stoatflow/stoatflow/examples"
	"github.com/stoatflow/stoatflow/sidecar"
)

// TestReadmeCommandsRunAsShown: every `go run ./cmd/sidecar` command of the
// README names files that are in the repository, and those that need no
// broker (config, describe) succeed as written, so a reader can paste them.
func TestReadmeCommandsRunAsShown(t *testing.T) {
	root := filepath.Join("..", "..")
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := regexp.MustCompile(`(?m)^go run \./cmd/sidecar ([^#\n]*?)\s*(?:#.*)?$`)
	ran := 0
	for _, m := range cmd.FindAllStringSubmatch(string(readme), -1) {
		args := strings.Fields(m[1])
		for i, a := range args {
			if i > 0 && (args[i-1] == "--config" || args[i-1] == "--compare") {
				if _, err := os.Stat(filepath.Join(root, a)); err != nil {
					t.Errorf("README: %q names %s, which is not in the repository", m[0], a)
				}
				args[i] = filepath.Join(root, a)
			}
		}
		if len(args) == 0 || (args[0] != "config" && args[0] != "describe") {
			continue
		}
		args = append(args, "--set", "state.dir="+t.TempDir())
		var out, errOut bytes.Buffer
		if err := sidecar.Run(context.Background(), examples.Topologies(), args, &out, &errOut); err != nil {
			t.Errorf("README: %q: %v\n%s", m[0], err, errOut.String())
		}
		ran++
	}
	if ran < 3 {
		t.Errorf("README: %d config and describe commands found, want the 3 it shows", ran)
	}
}
