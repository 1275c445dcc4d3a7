package passthrough

import (
	"context"
	"os/exec"
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/integration"
)

func TestDroppedOnlyHashPrefixed(t *testing.T) {
	for v, want := range map[string]bool{"#x": true, "#": true, "x#": false, "": false, "abc": false} {
		if got := Dropped(v); got != want {
			t.Errorf("Dropped(%q) = %v, want %v", v, got, want)
		}
	}
}

// TestDescribeMatchesKafkaStreams compares the topology's describe() with
// what Kafka Streams 4.4 prints for the Java twin.
func TestDescribeMatchesKafkaStreams(t *testing.T) {
	for _, tool := range []string{"java", "mvn"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not found: the Kafka Streams reference jar cannot be built", tool)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	want, err := integration.Describe(ctx, integration.ReferenceOptions{App: Name})
	if err != nil {
		t.Fatal(err)
	}
	topo, err := Build(nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := topo.Describe().String(); got != want {
		t.Fatalf("describe() differs from Kafka Streams 4.4:\n--- got\n%s--- want\n%s", got, want)
	}
}
