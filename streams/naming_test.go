package streams

import (
	"bytes"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stoatflow/stoatflow/compat"
	"github.com/stoatflow/stoatflow/kstreams"
)

// repartitioned is in → repartition() → out, the repartition topic named
// or not.
func repartitioned(t *testing.T, name string) *kstreams.Topology {
	t.Helper()
	b := kstreams.NewStreamsBuilder()
	kstreams.Stream[string, string](b, []string{"in"}).Repartition(kstreams.Repartitioned[string, string]{Name: name}).To("out")
	topo, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return topo
}

// ensure.explicit.internal.resource.naming=true: New refuses a topology
// with a generated repartition topic name, as Kafka Streams 4.4 refuses to
// build it, with Kafka's message inside an error that names the key and
// how to name the topic; a named one passes.
func TestNewRefusesUnnamedResourcesWhenEnsured(t *testing.T) {
	cfg := lifecycleConfig(t, nowhere, t.TempDir(), compat.EnsureExplicitInternalResourceNamingConfig+"=true")
	_, err := New(repartitioned(t, ""), cfg, WithLogger(quiet))
	var ue *kstreams.UnnamedResourcesError
	if !errors.As(err, &ue) || !errors.Is(err, kstreams.ErrInvalidTopology) {
		t.Fatalf("New: %v, want a *kstreams.UnnamedResourcesError", err)
	}
	kafka := "Invalid topology: Following repartition topic(s) has not been named: KSTREAM-REPARTITION-0000000001-repartition"
	for _, want := range []string{kafka, "ensure.explicit.internal.resource.naming is true", "a Repartitioned name for repartition()",
		"ensure.explicit.internal.resource.naming=false"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
	if s, err := New(repartitioned(t, "by-key"), cfg, WithLogger(quiet)); err != nil || s == nil {
		t.Errorf("New with the topic named: %v", err)
	}
}

// By default New starts with the generated names and logs them at WARN in
// Kafka's words, once; a topology with every name given logs nothing.
func TestNewLogsUnnamedResourcesByDefault(t *testing.T) {
	var logs bytes.Buffer
	log := slog.New(slog.NewTextHandler(&logs, nil))
	cfg := lifecycleConfig(t, nowhere, t.TempDir())
	if _, err := New(repartitioned(t, ""), cfg, WithLogger(log)); err != nil {
		t.Fatal(err)
	}
	want := "Explicit naming for internal resources is currently disabled. If you want to enforce user-defined names for all internal resources, " +
		"set ensure.explicit.internal.resource.naming to true."
	if got := logs.String(); strings.Count(got, want) != 1 || !strings.Contains(got, "level=WARN") ||
		!strings.Contains(got, "KSTREAM-REPARTITION-0000000001-repartition") {
		t.Errorf("log:\n%s\nwant one WARN with Kafka's warning and the topic", got)
	}
	logs.Reset()
	if _, err := New(repartitioned(t, "by-key"), cfg, WithLogger(log)); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(logs.String(), "Explicit naming") {
		t.Errorf("logged for a topology with every name given:\n%s", logs.String())
	}
}

// The runtime gives state.dir and the application directory Kafka Streams'
// modes when it opens them (CleanUp here; Start opens them the same way):
// rwxr-x---, or rwxrwx--- under allow.os.group.write.access=true.
func TestStateDirectoryModes(t *testing.T) {
	for _, c := range []struct {
		set  string
		want os.FileMode
	}{
		{compat.AllowOSGroupWriteAccessConfig + "=false", 0o750},
		{compat.AllowOSGroupWriteAccessConfig + "=true", 0o770},
	} {
		t.Run(c.set, func(t *testing.T) {
			stateDir := filepath.Join(t.TempDir(), "state")
			if err := os.Mkdir(stateDir, 0o755); err != nil {
				t.Fatal(err)
			}
			cfg := lifecycleConfig(t, nowhere, stateDir, c.set)
			s, err := New(repartitioned(t, "by-key"), cfg, WithLogger(quiet))
			if err != nil {
				t.Fatal(err)
			}
			if err := s.CleanUp(); err != nil {
				t.Fatal(err)
			}
			for _, p := range []string{stateDir, filepath.Join(stateDir, cfg.ApplicationID)} {
				fi, err := os.Stat(p)
				if err != nil {
					t.Fatal(err)
				}
				if fi.Mode().Perm() != c.want {
					t.Errorf("%s: mode %v, want %v", p, fi.Mode().Perm(), c.want)
				}
			}
		})
	}
}
