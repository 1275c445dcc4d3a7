package demoinput

import (
	"encoding/binary"
	"testing"
)

func TestCountLine(t *testing.T) {
	for _, c := range []struct {
		word  string
		value []byte
		want  string
	}{
		{"kafka", binary.BigEndian.AppendUint64(nil, 3), "  kafka      3\n"},
		{"stoatflowing", binary.BigEndian.AppendUint64(nil, 12), "  stoatflowing 12\n"},
		{"odd", []byte{1}, "  odd        -1\n"},
	} {
		if got := CountLine(c.word, c.value); got != c.want {
			t.Errorf("CountLine(%q, % x) = %q, want %q", c.word, c.value, got, c.want)
		}
	}
	if got, want := len(Lines()), len(Batches()[0])+len(Batches()[1]); got != want {
		t.Errorf("Lines has %d lines, Batches %d", got, want)
	}
}
