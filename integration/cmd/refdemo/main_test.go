package main

import (
	"slices"
	"testing"

	"github.com/stoatflow/stoatflow/internal/demoinput"
)

// TestFeedsMakeDemosLines: make demo-jvm feeds the lines make demo feeds,
// in the same order, so that the two outputs compare line by line.
func TestFeedsMakeDemosLines(t *testing.T) {
	if want := slices.Concat(demoinput.Batches()...); !slices.Equal(sample, want) {
		t.Errorf("refdemo feeds %q, make demo %q", sample, want)
	}
}
