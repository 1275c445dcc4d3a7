package fkjoin_test

import (
	"os"
	"testing"

	"github.com/stoatflow/stoatflow/examples/fkjoin"
)

// The topology's description is the one Kafka Streams 4.4 prints for the
// twin (testdata/describe.jvm.txt, captured from the reference FkJoin).
func TestDescribeMatchesKafkaStreams(t *testing.T) {
	topo, err := fkjoin.Build(nil)
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("testdata/describe.jvm.txt")
	if err != nil {
		t.Fatal(err)
	}
	if got := topo.Describe().String(); got != string(want) {
		t.Errorf("describe() differs from Kafka Streams'\ngot:\n%s\nwant:\n%s", got, want)
	}
}

func TestForeignKey(t *testing.T) {
	for in, want := range map[string]string{"p1|x": "p1", "p1|": "p1", "|x": "", "x": "", "a|b|c": "a"} {
		got, ok := fkjoin.ForeignKey(in)
		if ok != (want != "") || got != want {
			t.Errorf("ForeignKey(%q) = %q, %v", in, got, ok)
		}
	}
}
