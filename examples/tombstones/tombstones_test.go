package tombstones

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/kstreamstest"
	"github.com/stoatflow/stoatflow/kstreams/serde"
)

var args = map[string]string{"input": "tombstones-input", "output": "tombstones-output"}

// TestDescribeMatchesKafkaStreams compares describe() with what Kafka
// Streams 4.4 printed for the twins (stoatflow-reference APP --describe
// --arg input=tombstones-input --arg output=tombstones-output).
func TestDescribeMatchesKafkaStreams(t *testing.T) {
	for name, build := range map[string]func(map[string]string) (*kstreams.Topology, error){
		SessionName: BuildSession, TableName: BuildTable,
	} {
		topo, err := build(args)
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(filepath.Join("testdata", name+".describe.txt"))
		if err != nil {
			t.Fatal(err)
		}
		if got := topo.Describe().String(); got != string(want) {
			t.Errorf("%s: describe() differs from Kafka Streams 4.4:\n--- got\n%s--- want\n%s", name, got, want)
		}
	}
}

func run(t *testing.T, build func(map[string]string) (*kstreams.Topology, error), in [][2]*string, secs []int64) []kstreamstest.TestRecord[string, string] {
	t.Helper()
	topo, err := build(args)
	if err != nil {
		t.Fatal(err)
	}
	d, err := kstreamstest.New(topo, kstreamstest.Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	for i, r := range in {
		var k, v []byte
		if r[0] != nil {
			k = []byte(*r[0])
		}
		if r[1] != nil {
			v = []byte(*r[1])
		}
		if err := d.Pipe(args["input"], k, v, secs[i]*1000); err != nil {
			t.Fatal(err)
		}
	}
	out, err := kstreamstest.ReadOutput(d, args["output"], serde.String{}, serde.String{})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func transcript(out []kstreamstest.TestRecord[string, string]) string {
	var b strings.Builder
	for _, r := range out {
		v := r.Value
		if r.ValueNull {
			v = "null"
		}
		b.WriteString(r.Key + "=" + v + "\n")
	}
	return b.String()
}

func s(v string) *string { return &v }

func TestSessionRetractionsStayNull(t *testing.T) {
	out := run(t, BuildSession, [][2]*string{{s("a"), s("x")}, {s("a"), nil}, {s("a"), s("")}, {s("a"), s("y")}},
		[]int64{0, 3, 20, 21})
	want := "a@0-0=N=1\n" +
		"a@0-0=null\n" + // merged into [0, 3], whose count of 2 is filtered
		"a@20000-20000=N=1\n" +
		"a@20000-20000=null\n" // merged into [20, 21], count 2, filtered
	if got := transcript(out); got != want {
		t.Errorf("output\n%s\nwant\n%s", got, want)
	}
}

func TestTableDeletesStayNullAndEmptyStaysEmpty(t *testing.T) {
	out := run(t, BuildTable, [][2]*string{{s("u1"), s("alice")}, {s("u2"), s("")}, {s("u1"), nil}, {s("u2"), s("skip")}, {nil, s("x")}},
		[]int64{1, 2, 3, 4, 5})
	want := "u1!=<ALICE>\nu2!=<>\nu1!=null\n"
	if got := transcript(out); got != want {
		t.Errorf("output\n%s\nwant\n%s", got, want)
	}
}
