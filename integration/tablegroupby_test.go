package integration

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/stoatflow/stoatflow/examples/tablegroupby"
	"github.com/stoatflow/stoatflow/examples/tabletransform"
	"github.com/stoatflow/stoatflow/internal/testkafka"
)

// TestTableGroupByMatchesKafkaStreams: a table of users by region
// re-grouped by region, counted and aggregated with a subtractor, on both
// engines: users moving between regions (a subtraction under the old region,
// an addition under the new), an update within the same region (one
// repartition record with both values), deletes of present and absent users,
// an empty region and a null key. Compared: output per partition, the
// repartition topic's records (Kafka Streams' Change layout), the three
// changelogs, internal topics and describe().
func TestTableGroupByMatchesKafkaStreams(t *testing.T) {
	t.Parallel()
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	events := []tombstoneEvent{
		{str("u1"), str("north"), 1},
		{str("u2"), str("north"), 2},
		{str("u3"), str("south"), 3},
		{str("u1"), str("south"), 4}, // moves: north loses u1, south gains it
		{str("u2"), str("north"), 5}, // same region again: one record, old and new
		{str("u4"), nil, 6},          // delete of a user never held: nothing
		{str("u3"), nil, 7},          // delete: south loses u3
		{nil, str("east"), 8},        // null key: dropped by the table
		{str("u5"), str(""), 9},      // an empty region is a region
		{str("u5"), str("east"), 10},
		{str("u2"), str("east"), 11},
		{str("u1"), nil, 12},
		{str("u6"), str("north"), 13},
	}
	users := map[string]*string{}
	repartition, usersLog := 0, 0
	var recs []testkafka.Record
	for _, e := range events {
		recs = append(recs, e.record())
		if e.key == nil {
			continue
		}
		usersLog++
		old := users[*e.key]
		users[*e.key] = e.value
		switch {
		case old != nil && e.value != nil && *old == *e.value:
			repartition++
		default:
			if old != nil {
				repartition++
			}
			if e.value != nil {
				repartition++
			}
		}
	}
	if repartition < 12 {
		t.Fatalf("the input must move users: %d repartition records", repartition)
	}
	out := runDifferential(t, diffCase{
		app: tablegroupby.Name, props: filepath.Join(root, "examples", "tablegroupby", "streams.properties"),
		input: recs, outputs: 2 * repartition,
		changelogs: map[string]int{
			tablegroupby.UsersStore + "-changelog":   usersLog,
			tablegroupby.CountsStore + "-changelog":  repartition,
			tablegroupby.MembersStore + "-changelog": repartition,
			tablegroupby.Regions + "-repartition":    repartition,
		},
	})
	final := map[string]string{}
	for _, r := range out {
		final[string(r.Key)+"/"+string(r.Value)[:1]] = string(r.Value)
	}
	for region, want := range map[string]string{"north/c": "count:1", "south/c": "count:0", "east/c": "count:2", "/c": "count:0",
		"north/m": "members:u6;", "east/m": "members:u5;u2;", "south/m": "members:"} {
		if final[region] != want {
			t.Errorf("last output for %s: %q, want %q (all: %v)", region, final[region], want, fmt.Sprint(final))
		}
	}
}

// TestTableTransformValuesMatchesKafkaStreams: a stateful value transformer
// with a store of its own over an unmaterialized table, its result
// materialized, on both engines: updates, deletions (which reach the
// transformer and become values) and a null key. Compared: output per
// partition, both changelogs, internal topics and describe().
func TestTableTransformValuesMatchesKafkaStreams(t *testing.T) {
	t.Parallel()
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	events := []tombstoneEvent{
		{str("a"), str("1"), 1}, {str("b"), str("2"), 2}, {str("a"), str("3"), 3}, {str("c"), nil, 4},
		{nil, str("x"), 5}, {str("a"), nil, 6}, {str("b"), str(""), 7}, {str("d"), str("4"), 8}, {str("a"), str("5"), 9},
	}
	var recs []testkafka.Record
	n := 0
	for _, e := range events {
		recs = append(recs, e.record())
		if e.key != nil {
			n++
		}
	}
	out := runDifferential(t, diffCase{
		app: tabletransform.Name, props: filepath.Join(root, "examples", "tabletransform", "streams.properties"),
		input: recs, outputs: n,
		changelogs: map[string]int{tabletransform.UpdatesStore + "-changelog": n, tabletransform.ResultStore + "-changelog": n},
	})
	for _, r := range out {
		if string(r.Key) == "a" && string(r.Value) == "a->null!#3" {
			return
		}
	}
	t.Errorf("no a->null!#3 for the deletion of a: %v", out)
}
