package sidecar

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestBadInputTableCitesTests: every row of docs/sidecar.md's "When the
// input is wrong" tables names a test, and every test it names exists (a
// subtest of TestConfigRefusesWhatRunRefuses, written …/name, among that
// test's cases), so the table cannot outlive its tests.
func TestBadInputTableCitesTests(t *testing.T) {
	doc, err := os.ReadFile("../docs/sidecar.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(doc), "\n## When the input is wrong\n")
	if !ok {
		t.Fatal("docs/sidecar.md has no section When the input is wrong")
	}
	section, _, _ = strings.Cut(section, "\n## ")

	funcs := map[string]bool{}
	var cases string
	err = filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && strings.HasPrefix(d.Name(), ".") && path != "..":
			return filepath.SkipDir // .git, .cache
		case !strings.HasSuffix(path, "_test.go"):
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range regexp.MustCompile(`(?m)^func (Test\w+)\(`).FindAllStringSubmatch(string(src), -1) {
			funcs[filepath.Base(filepath.Dir(path))+"."+m[1]] = true
		}
		if strings.HasSuffix(path, filepath.Join("sidecar", "preflight_test.go")) {
			cases = string(src)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}

	cited := regexp.MustCompile("`((?:[a-z]+\\.)?Test\\w+|…)(/[^`]+)?`")
	rows := 0
	for _, line := range strings.Split(section, "\n") {
		if !strings.HasPrefix(line, "| ") || strings.HasPrefix(line, "| bad input") || strings.HasPrefix(line, "| situation") ||
			strings.HasPrefix(line, "| request") || strings.HasPrefix(line, "| ---") {
			continue
		}
		rows++
		cells := strings.Split(line, " | ")
		last := cells[len(cells)-1]
		names := cited.FindAllStringSubmatch(last, -1)
		if len(names) == 0 && !strings.HasPrefix(last, "same") {
			t.Errorf("row cites no test: %s", line)
		}
		for _, n := range names {
			name, sub := n[1], strings.TrimPrefix(n[2], "/")
			if name == "…" {
				name = "sidecar.TestConfigRefusesWhatRunRefuses"
			}
			if !funcs[name] {
				t.Errorf("row cites %s, which no package has: %s", name, line)
			}
			if sub != "" && !strings.Contains(cases, `{"`+strings.ReplaceAll(sub, "_", " ")+`",`) {
				t.Errorf("row cites %s/%s, which is not one of its cases", name, sub)
			}
		}
	}
	if rows < 30 {
		t.Errorf("found %d rows, want the section's tables", rows)
	}
}
