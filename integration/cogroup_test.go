package integration

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/examples/cogroup"
	"github.com/stoatflow/stoatflow/internal/testkafka"
	"github.com/stoatflow/stoatflow/kstreams"
)

// TestCogroupMatchesKafkaStreams: clicks, views and purchases (re-keyed by
// user, so through a repartition topic) cogrouped into one summary per user,
// and the same three streams cogrouped again over tumbling windows with a
// grace period, on both engines: out-of-order records, records past the
// grace (dropped by the windowed cogroup only) and a null key (dropped by
// both). Every user's records land on partition 0, so one task processes
// them and the per-processor stream times are those computed here.
// Compared: output per partition (both outputs), both changelogs, both
// repartition topics, internal topics and describe().
func TestCogroupMatchesKafkaStreams(t *testing.T) {
	t.Parallel()
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	var users []string
	for i := 0; len(users) < 4; i++ {
		if u := fmt.Sprintf("user-%d", i); kstreams.DefaultPartition([]byte(u), 2) == 0 {
			users = append(users, u)
		}
	}
	u1, u2, u3, u4 := users[0], users[1], users[2], users[3]
	type event struct {
		key   string // "" is a null key
		value string
		sec   int64
	}
	clicks := []event{{u1, "p", 1}, {u2, "p", 2}, {u1, "p", 4}, {u3, "p", 6}, {"", "p", 7}, {u2, "p", 11}, {u1, "p", 13}, {u3, "p", 19}}
	// u1 at 9 comes after 18: past the grace of its window [0, 10).
	views := []event{{u1, "v", 3}, {u2, "v", 5}, {u3, "v", 8}, {u1, "v", 12}, {u2, "v", 15}, {u4, "v", 18}, {u1, "v", 9}}
	// Purchases come after every click and view, so that their repartitioned
	// records are processed last on both engines, whenever they arrive. The
	// one at 38 after 45 is past its window's grace; the one at 42 is not.
	purchases := []event{{"o1", u1 + ":30", 31}, {"o2", u2 + ":15", 33}, {"o3", u1 + ":5", 41}, {"o4", u3 + ":12", 45},
		{"o5", u2 + ":7", 38}, {"o6", u1 + ":9", 42}, {"o7", u4 + ":1", 52}}

	const sizeSec, graceSec = 10, 5
	kvOut, windowedOut := 0, 0
	fold := func(evs []event) []testkafka.Record {
		var recs []testkafka.Record
		streamTime := int64(-1)
		for _, e := range evs {
			// Partition 0 throughout: the users' own partition, and one
			// writer of the purchases into the repartition topics.
			r := testkafka.Record{Partition: 0, Value: []byte(e.value), Timestamp: time.UnixMilli(epochBase + e.sec*1000)}
			if e.key != "" {
				r.Key = []byte(e.key)
			}
			recs = append(recs, r)
			if e.key == "" {
				continue // dropped by both cogroups
			}
			kvOut++
			streamTime = max(streamTime, e.sec)
			if start := e.sec - e.sec%sizeSec; start+sizeSec > streamTime-graceSec {
				windowedOut++
			}
		}
		return recs
	}
	input, viewRecs, purchaseRecs := fold(clicks), fold(views), fold(purchases)
	out := runDifferential(t, diffCase{
		app: cogroup.Name, props: filepath.Join(root, "examples", "cogroup", "streams.properties"),
		input: input, inputs: map[string][]testkafka.Record{"views": viewRecs, "purchases": purchaseRecs},
		outputs: kvOut, moreOutputs: map[string]int{"-windowed": windowedOut},
		changelogs: map[string]int{
			cogroup.ActivityStore + "-changelog":                          kvOut,
			cogroup.ActivityStore + "-repartition":                        len(purchases),
			"COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000013-changelog":   windowedOut,
			"COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000013-repartition": len(purchases),
		},
	})
	if len(out) != kvOut {
		t.Errorf("StoatFlow wrote %d summaries, want %d", len(out), kvOut)
	}
}
