package kstreamstest_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stoatflow/stoatflow/examples/routing"
	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/kstreamstest"
	"github.com/stoatflow/stoatflow/kstreams/serde"
)

// The routing example on the driver: the partitioner's multicast, drop,
// default and computed partitions, and the extractor's two topics.
func TestRepartitionPartitionerAndTopicExtractor(t *testing.T) {
	topo, err := routing.Build(map[string]string{"input": "in", "output": "out"})
	if err != nil {
		t.Fatal(err)
	}
	cfg := stringDefaults
	cfg.Partitions = 3
	d, err := kstreamstest.New(topo, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	for _, k := range []string{"multi-1", "drop-1", "bb", "xa"} {
		if err := d.Pipe("in", []byte(k), []byte("v"), 1); err != nil {
			t.Fatal(err)
		}
	}
	var parts []int32
	for _, r := range d.Records("app-" + routing.Spread + "-repartition") {
		parts = append(parts, r.Partition)
	}
	// multi-1 to 0, 1 and 2; drop-1 nowhere; bb by length (2), xa too.
	if len(parts) != 5 || parts[0] != 0 || parts[1] != 1 || parts[2] != 2 || parts[3] != 2 || parts[4] != 2 {
		t.Fatalf("repartition partitions %v", parts)
	}
	if n := len(d.Records("out")); n != 4 {
		t.Errorf("out: %d records, want 4 (three copies of multi-1, bb)", n)
	}
	if n := len(d.Records("out-x")); n != 1 {
		t.Errorf("out-x: %d records, want 1", n)
	}
	if dr := d.Dropped(); len(dr) != 1 || dr[0].Reason != "Skipping record as partitioner returned empty partitions." {
		t.Errorf("dropped: %+v", dr)
	}
}

// KStream.print to a file: "[label]: key, value", null as null, the label
// defaulting to the processor name.
func TestPrintWritesKafkasFormat(t *testing.T) {
	dir := t.TempDir()
	labelled, unlabelled := filepath.Join(dir, "a.txt"), filepath.Join(dir, "b.txt")
	b := kstreams.NewStreamsBuilder()
	s := kstreams.Stream(b, []string{"in"}, kstreams.ConsumedWith[string, string](serde.String{}, serde.String{}))
	s.Print(kstreams.Printed[string, string]{ToFile: labelled, Label: "seen"})
	kstreams.Nullable(s).Print(kstreams.Printed[string, *string]{ToFile: unlabelled})
	d := build(t, b, stringDefaults)
	if err := d.Pipe("in", []byte("k"), []byte("v"), 1); err != nil {
		t.Fatal(err)
	}
	if err := d.Pipe("in", []byte("k"), nil, 2); err != nil {
		t.Fatal(err)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{
		labelled:   "[seen]: k, v\n[seen]: k, null\n",
		unlabelled: "[KSTREAM-PRINTER-0000000002]: k, v\n[KSTREAM-PRINTER-0000000002]: k, null\n",
	} {
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != want {
			t.Errorf("%s: %q, want %q", filepath.Base(path), got, want)
		}
	}
}
