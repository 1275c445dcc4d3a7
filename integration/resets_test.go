package integration

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/examples/resets"
	"github.com/stoatflow/stoatflow/internal/testkafka"
)

// TestOffsetResetPoliciesMatchKafkaStreams: three sources without committed
// offsets, started as their reset policies say on both engines: input by
// auto.offset.reset=earliest (all of it), late by its source's latest
// (none of what was produced before the start), recent by its source's
// byDuration(1 h) (only its records of the last hour; the records of two
// hours ago are skipped). Both partitions of each topic. Compared: output
// per partition as a set (the three topics of one task are merged in the
// order their fetches arrive, on either engine), internal topics (none) and
// describe().
func TestOffsetResetPoliciesMatchKafkaStreams(t *testing.T) {
	t.Parallel()
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	rec := func(p int32, v string, ts time.Time) testkafka.Record {
		return testkafka.Record{Partition: p, Key: []byte("k" + v), Value: []byte(v), Timestamp: ts}
	}
	var input, late, recent []testkafka.Record
	want := 0
	for i := range 6 {
		p := int32(i % 2)
		input = append(input, rec(p, fmt.Sprintf("input-%d", i), time.UnixMilli(epochBase+int64(i)*1000)))
		late = append(late, rec(p, fmt.Sprintf("late-%d", i), now.Add(-time.Duration(10-i)*time.Minute)))
		old := i < 2 // two hours ago: before the hour the source looks back
		ts := now.Add(-resets.Recent / 2).Add(time.Duration(i) * time.Second)
		if old {
			ts = now.Add(-2 * resets.Recent).Add(time.Duration(i) * time.Second)
		}
		recent = append(recent, rec(p, fmt.Sprintf("recent-%d", i), ts))
		want++ // the input record
		if !old {
			want++
		}
	}
	out := runDifferential(t, diffCase{
		app: resets.Name, props: filepath.Join(root, "examples", "resets", "streams.properties"),
		input: input, inputs: map[string][]testkafka.Record{"late": late, "recent": recent}, outputs: want,
		noInternalTopics: true, unordered: true,
	})
	for _, r := range out {
		if v := string(r.Value); strings.HasPrefix(v, "late-") || v == "recent-0" || v == "recent-1" {
			t.Errorf("StoatFlow read %s, which its source's reset policy skips", v)
		}
	}
}
