package sidecar

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestMakeDemoNeedsOnlyGoAndRocksDB: make demo installs librocksdb-dev
// when it is missing and nothing else (no JDK, Maven or lint tool), then
// runs the demo through scripts/demo.sh.
func TestMakeDemoNeedsOnlyGoAndRocksDB(t *testing.T) {
	mk, err := os.ReadFile(filepath.Join("..", "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	rule := regexp.MustCompile(`(?m)^demo:(.*)\n((?:\t.*\n)+)`).FindSubmatch(mk)
	if rule == nil {
		t.Fatal("Makefile has no demo rule")
	}
	if prereqs := strings.TrimSpace(string(rule[1])); prereqs != "" {
		t.Errorf("make demo depends on %q: each prerequisite installs what make test needs", prereqs)
	}
	recipe := string(rule[2])
	for _, want := range []string{"scripts/setup.sh demo", "scripts/demo.sh embedded"} {
		if !strings.Contains(recipe, want) {
			t.Errorf("make demo's recipe does not run %s:\n%s", want, recipe)
		}
	}
	out, err := exec.Command(filepath.Join("..", "scripts", "setup.sh"), "demo", "--plan").Output()
	if err != nil {
		t.Fatal(err)
	}
	if got := string(out); got != "apt librocksdb-dev\n" {
		t.Errorf("scripts/setup.sh demo installs on a bare machine:\n%swant librocksdb-dev only", got)
	}
}

// TestDemoScriptShowsTheBuildsProgress: while the sidecar compiles,
// scripts/demo.sh prints a line every few seconds with the packages
// compiled so far, then runs the demo it built.
func TestDemoScriptShowsTheBuildsProgress(t *testing.T) {
	dir := t.TempDir()
	fakeGo := filepath.Join(dir, "go")
	// A go build that compiles two packages over three seconds and writes
	// a sidecar that says it ran.
	script := `#!/usr/bin/env bash
set -eu
[[ $1 == build ]] || exit 3
while [[ $1 != -o ]]; do shift; done
out=$2
echo github.com/linxGnu/grocksdb >&2
sleep 3
echo github.com/stoatflow/stoatflow/cmd/sidecar >&2
printf '#!/usr/bin/env bash\necho "sidecar ran: $*"\n' >"$out"
chmod +x "$out"
`
	if err := os.WriteFile(fakeGo, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(filepath.Join("..", "scripts", "demo.sh"), "embedded")
	cmd.Env = append(os.Environ(), "GO="+fakeGo, "STOATFLOW_DEMO_BIN="+filepath.Join(dir, "sidecar"), "STOATFLOW_DEMO_PROGRESS_SECONDS=1")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	progress := regexp.MustCompile(`(?m)^demo:   \d+s: 1 packages compiled, the last github.com/linxGnu/grocksdb$`)
	if n := len(progress.FindAllString(stderr.String(), -1)); n < 1 {
		t.Errorf("no progress line while the build ran:\n%s", stderr.String())
	}
	if !strings.Contains(stderr.String(), "demo: building the sidecar") || !strings.Contains(stderr.String(), "demo: built ") {
		t.Errorf("the build is not announced and its end not said:\n%s", stderr.String())
	}
	if got := stdout.String(); got != "sidecar ran: demo\n" {
		t.Errorf("after the build, stdout %q; want the built sidecar's demo", got)
	}
}
