package topodiff_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stoatflow/stoatflow/sidecar/internal/topodiff"
)

func goldens(t testing.TB) []string {
	var texts []string
	for _, glob := range []string{"*.describe.txt", "jvm/*.txt", "jvmcapture/*.describe.txt", "kafka/*.txt"} {
		m, _ := filepath.Glob(filepath.Join("..", "..", "..", "kstreams", "testdata", glob))
		for _, f := range m {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			texts = append(texts, string(b))
		}
	}
	return texts
}

// TestCompareEveryPair compares every two golden descriptions: two
// different texts are never reported the same, and nothing panics.
func TestCompareEveryPair(t *testing.T) {
	texts := goldens(t)
	for i, a := range texts {
		da, err := topodiff.Parse(a)
		if err != nil {
			t.Fatal(err)
		}
		for j, b := range texts {
			db, err := topodiff.Parse(b)
			if err != nil {
				t.Fatal(err)
			}
			if r := topodiff.Compare(da, db); r.Same() != (a == b) {
				t.Errorf("texts %d and %d: Same()=%v, texts equal=%v", i, j, r.Same(), a == b)
			}
		}
	}
}

// FuzzParse: any text parses or fails with ErrSyntax, and what parses
// compares with itself as the same.
func FuzzParse(f *testing.F) {
	for _, g := range goldens(f) {
		f.Add(g)
	}
	f.Fuzz(func(t *testing.T, text string) {
		d, err := topodiff.Parse(text)
		if err != nil {
			return
		}
		if r := topodiff.Compare(d, d); !r.Same() {
			t.Fatalf("differs from itself: %+v", r)
		}
	})
}
