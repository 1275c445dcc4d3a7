package sidecar

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestKubernetesExampleConfigLoads checks that the .properties file in
// examples/kubernetes/pod.yaml's ConfigMap, with the sidecar container's
// --set flags, loads without a finding and keeps the token hidden.
func TestKubernetesExampleConfigLoads(t *testing.T) {
	raw, err := os.ReadFile("../examples/kubernetes/pod.yaml")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(raw), "\n")
	var props []string
	var sets []string
	in := false
	for _, l := range lines {
		switch {
		case strings.TrimSpace(l) == "streams.properties: |":
			in = true
			continue
		case in && (strings.HasPrefix(l, "    ") || strings.TrimSpace(l) == ""):
			props = append(props, strings.TrimPrefix(l, "    "))
			continue
		case in:
			in = false
		}
		if s, ok := strings.CutPrefix(strings.TrimSpace(l), "- --set="); ok {
			sets = append(sets, s)
		}
	}
	if len(props) < 10 || len(sets) != 2 {
		t.Fatalf("could not find the ConfigMap's properties (%d lines) or the sidecar's --set flags (%v)", len(props), sets)
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "http-token"), []byte("T0ken-From-Secret"), 0o600)
	text := strings.ReplaceAll(strings.Join(props, "\n"), "/etc/stoatflow/secrets", dir)
	f := filepath.Join(dir, "streams.properties")
	os.WriteFile(f, []byte(text), 0o644)
	args := []string{"config", "--config", f}
	for _, s := range sets {
		args = append(args, "--set", s)
	}
	out, stderr, err := runArgs(t, args...)
	if err != nil || stderr != "" {
		t.Fatalf("config: %v\n%s", err, stderr)
	}
	for _, want := range []string{"\tapplication.id = streams-wordcount-stoatflow\n", "\tstoatflow.http.listen = 0.0.0.0:7070\n",
		"\tstoatflow.http.auth-token = [hidden]\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("config output lacks %q", want)
		}
	}
	if strings.Contains(out, "T0ken-From-Secret") {
		t.Error("token printed")
	}
}
