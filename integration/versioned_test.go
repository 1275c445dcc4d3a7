package integration

import (
	"cmp"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stoatflow/stoatflow/examples/versioned"
)

// version is one version of a versioned table's key: valid from sec, nil
// value for a tombstone.
type version struct {
	sec   int64
	value *string
}

// asOf is the value of the version valid at sec, or nil.
func asOf(history []version, sec int64) *string {
	var best *version
	for i := range history {
		if v := &history[i]; v.sec <= sec && (best == nil || v.sec >= best.sec) {
			best = v
		}
	}
	if best == nil {
		return nil
	}
	return best.value
}

// versionedJoinResults folds the versioned twin's input, in processing
// order, into what its two joins write: the left join reads the table as
// of each stream record's time; the graced inner join buffers each record
// until the highest buffered timestamp passes it by the grace (5 s), then
// reads the upper-cased table as of its time, releasing records in time
// order (then key); a record already older than that joins at once. It
// also counts the table's changelog and the buffer's (each buffered
// record, and a tombstone when it leaves).
func versionedJoinResults(events []joinEvent) (want []joinResult, changelog, buffer int) {
	const grace = 5
	history := map[string][]version{}
	type waiting struct {
		key, value string
		sec        int64
		seq        int
	}
	var buffered []waiting
	bufferTime, seq := int64(-1), 0
	graced := func(k, v string, sec int64) {
		if row := asOf(history[k], sec); row != nil {
			want = append(want, joinResult{k, str("graced:" + v + "+" + strings.ToUpper(*row)), sec})
		}
	}
	for _, e := range processingOrder(events) {
		if e.side == "table" {
			if e.key != nil {
				history[*e.key] = append(history[*e.key], version{e.sec, e.value})
				changelog++
			}
			continue
		}
		if e.key == nil || e.value == nil {
			continue // dropped by both joins
		}
		k, v := *e.key, *e.value
		left := "null"
		if row := asOf(history[k], e.sec); row != nil {
			left = *row
		}
		want = append(want, joinResult{k, str("left:" + v + "+" + left), e.sec})
		if bufferTime-grace > e.sec {
			graced(k, v, e.sec)
			continue
		}
		seq++
		buffered = append(buffered, waiting{k, v, e.sec, seq})
		buffer++
		bufferTime = max(bufferTime, e.sec)
		slices.SortFunc(buffered, func(a, b waiting) int {
			return cmp.Or(cmp.Compare(a.sec, b.sec), strings.Compare(a.key, b.key), cmp.Compare(a.seq, b.seq))
		})
		for len(buffered) > 0 && buffered[0].sec <= bufferTime-grace {
			w := buffered[0]
			buffered = buffered[1:]
			buffer++
			graced(w.key, w.value, w.sec)
		}
	}
	return want, changelog, buffer
}

// TestVersionedTableJoinMatchKafkaStreams: a stream joined with a versioned
// table on both engines, as a left join as of each record's time and as an
// inner join with a grace period over the table's mapValues: table updates
// that arrive after later ones (kept as history, and joined by the stream
// records of their time), a stream record that arrives late and joins the
// version valid then, a table tombstone, a table update that is late but
// within the grace (seen by the buffered record, not by the left join), a
// stream record past the grace (joined at once), a null stream value and a
// null-key table record (dropped). Compared: output per partition, the
// versioned store's changelog (every put, stamped with its version's
// time), the join buffer's changelog (Kafka's time-first keys and buffer
// values; its records carry the wall clock, so they are compared without
// timestamps), internal topics with their configs (the versioned
// changelog's min.compaction.lag.ms) and describe().
func TestVersionedTableJoinMatchKafkaStreams(t *testing.T) {
	t.Parallel()
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	u1, u2 := str("u1"), str("u2")
	tbl := func(k, v *string, sec int64) joinEvent { return joinEvent{"table", tombstoneEvent{k, v, sec}} }
	st := func(k, v *string, sec int64) joinEvent { return joinEvent{"input", tombstoneEvent{k, v, sec}} }
	events := []joinEvent{
		tbl(u1, str("p1"), 2), st(u1, str("a"), 3),
		tbl(u1, str("p2"), 10), tbl(u1, str("p05"), 6), // out of order: valid 6..10
		st(u1, str("b"), 12), st(u1, str("c"), 7), st(u1, str("d"), 8), // c and d arrive late
		tbl(u1, nil, 15), st(u1, str("f"), 16),
		tbl(nil, str("x"), 17),
		st(u2, str("g"), 22), tbl(u2, str("q2"), 30), tbl(u2, str("q0"), 21), // q0 late, within the grace of g
		st(u2, str("h"), 35), st(u1, str("late"), 9), st(u1, nil, 40), st(u2, str("i"), 45),
	}
	want, changelog, buffer := versionedJoinResults(events)
	input, inputs := joinInputs(events)
	out := runDifferential(t, diffCase{
		app: versioned.Name, props: filepath.Join(root, "examples", "versioned", "streams.properties"),
		input: input, inputs: inputs, outputs: len(want),
		changelogs:           map[string]int{versioned.Store + "-changelog": changelog},
		punctuatedChangelogs: map[string]int{versioned.GracedJoin + "-Buffer-changelog": buffer},
	})
	checkJoinOutput(t, out, want)
}
