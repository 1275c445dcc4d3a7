package compat

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// referenceTSV is the shared reference beside the repository clone.
const referenceTSV = "../../shared/reference/streams-config.tsv"

func TestCatalogMatchesReference(t *testing.T) {
	t.Run("committed copy", func(t *testing.T) { checkCatalogAgainst(t, "testdata/streams-config.tsv") })
	t.Run("shared reference", func(t *testing.T) {
		if _, err := os.Stat(referenceTSV); err != nil {
			if os.Getenv("CI") == "" {
				t.Skipf("%s not present (and CI unset): %v", referenceTSV, err)
			}
			t.Fatalf("%s must be present under CI: %v", referenceTSV, err)
		}
		checkCatalogAgainst(t, referenceTSV)
	})
}

func checkCatalogAgainst(t *testing.T, path string) {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	seen := map[string]bool{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		cols := strings.Split(sc.Text(), "\t")
		if len(cols) < 6 || cols[0] != "config" {
			continue
		}
		name, typ, def, imp := cols[1], cols[2], cols[3], strings.Fields(cols[5])[0]
		seen[name] = true
		k, ok := StreamsKey(name)
		if !ok {
			t.Errorf("%s: missing from the catalog", name)
			continue
		}
		if k.Type.String() != typ {
			t.Errorf("%s: type %s, reference %s", name, k.Type, typ)
		}
		if k.Importance.String() != imp {
			t.Errorf("%s: importance %s, reference %s", name, k.Importance, imp)
		}
		switch {
		case strings.HasPrefix(def, "(none; required)"):
			if !k.Required {
				t.Errorf("%s: should be required", name)
			}
		case strings.HasPrefix(def, "null"):
			if !k.NullDefault {
				t.Errorf("%s: default should be null", name)
			}
		case name == StateDirConfig:
			if k.Default != filepath.Join(os.TempDir(), "kafka-streams") {
				t.Errorf("state.dir default %q", k.Default)
			}
		case strings.HasPrefix(def, `""`) || strings.HasPrefix(def, "[]"):
			if k.Default != "" || k.Required || k.NullDefault {
				t.Errorf("%s: default %q, reference empty", name, k.Default)
			}
		default:
			want := strings.Fields(def)[0]
			if k.Default != want || k.Required || k.NullDefault {
				t.Errorf("%s: default %q, reference %q", name, k.Default, want)
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	for _, k := range streamsKeys {
		if !seen[k.Name] {
			t.Errorf("%s: in the catalog but not in %s", k.Name, path)
		}
	}
	if len(seen) != len(streamsKeys) {
		t.Errorf("reference has %d keys, catalog %d", len(seen), len(streamsKeys))
	}
}

func TestEveryKeyDocumented(t *testing.T) {
	for _, k := range append(StreamsKeys(), StoatFlowKeys()...) {
		if k.Doc == "" {
			t.Errorf("%s has no doc", k.Name)
		}
		if !k.Required {
			_ = k.DefaultValue() // panics on a bad default
		}
	}
}
