package shadow

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"
)

var t0 = time.Unix(1_700_000_000, 0)

func rec(key, value string, off int64) Record {
	r := Record{Topic: "out", Partition: 0, Offset: off, Key: []byte(key)}
	if value != "<null>" {
		r.Value = []byte(value)
	}
	return r
}

func TestSequenceMatchesMismatchesAndMissing(t *testing.T) {
	var logged []Divergence
	c := NewComparer(Options{Mode: Sequence, Grace: time.Second, OnDivergence: func(d Divergence) { logged = append(logged, d) }})
	add := func(s Side, r Record, at time.Duration) {
		if err := c.Add(s, r, t0.Add(at)); err != nil {
			t.Fatal(err)
		}
	}
	// a: 1, 2 on both sides in order; b: 1 vs 9; c: only on Kafka Streams;
	// d: a tombstone against an empty value; e: only on StoatFlow.
	add(KafkaStreams, rec("a", "1", 0), 0)
	add(StoatFlow, rec("a", "1", 0), 0)
	add(StoatFlow, rec("a", "2", 1), 0)
	add(KafkaStreams, rec("a", "2", 1), 0)
	add(KafkaStreams, rec("b", "1", 2), 0)
	add(StoatFlow, rec("b", "9", 2), 0)
	add(KafkaStreams, rec("c", "1", 3), 0)
	add(KafkaStreams, rec("d", "<null>", 4), 0)
	add(StoatFlow, rec("d", "", 3), 0)
	add(StoatFlow, rec("e", "5", 4), 500*time.Millisecond)
	c.Check(t0.Add(time.Second))
	r := c.Report()
	if r.Total.Matched != 2 || r.Total.Mismatched != 2 || r.Total.Missing != 1 || r.Total.Pending != 1 {
		t.Fatalf("after the grace of c: %+v", r.Total)
	}
	r = c.Finish(t0.Add(time.Second))
	if r.Total.Missing != 2 || r.Total.Pending != 0 || r.Total.ReadKafkaStreams != 5 || r.Total.ReadStoatFlow != 5 {
		t.Fatalf("finished: %+v", r.Total)
	}
	want := []string{
		`mismatch: topic out key "b": kafka-streams "1" (partition 0, offset 2), stoatflow "9" (partition 0, offset 2)`,
		`mismatch: topic out key "d": kafka-streams null (partition 0, offset 4), stoatflow "" (partition 0, offset 3)`,
		`missing: topic out key "c": kafka-streams "1" (partition 0, offset 3), stoatflow none`,
		`missing: topic out key "e": kafka-streams none, stoatflow "5" (partition 0, offset 4)`,
	}
	if len(r.Divergences) != len(want) || len(logged) != len(want) {
		t.Fatalf("divergences %v, logged %v", r.Divergences, logged)
	}
	for i, w := range want {
		if r.Divergences[i].String() != w {
			t.Errorf("divergence %d: %s\nwant %s", i, r.Divergences[i], w)
		}
	}
	if s := r.Summary(); !strings.Contains(s, "2 matched, 2 mismatched, 2 missing, 0 pending") {
		t.Errorf("summary:\n%s", s)
	}
}

// TestSequenceOrderPerKey: the same values in another order per key are
// mismatches; records of different keys interleave freely.
func TestSequenceOrderPerKey(t *testing.T) {
	c := NewComparer(Options{Mode: Sequence})
	c.Add(KafkaStreams, rec("a", "1", 0), t0)
	c.Add(KafkaStreams, rec("b", "1", 1), t0)
	c.Add(KafkaStreams, rec("a", "2", 2), t0)
	c.Add(StoatFlow, rec("b", "1", 0), t0)
	c.Add(StoatFlow, rec("a", "2", 1), t0)
	c.Add(StoatFlow, rec("a", "1", 2), t0)
	r := c.Finish(t0)
	if r.Total.Matched != 1 || r.Total.Mismatched != 2 || r.Total.Missing != 0 {
		t.Fatalf("%+v", r.Total)
	}
}

// TestLatestIgnoresIntermediateUpdates: with caching one side skips
// updates; the latest value per key decides, once both sides are quiet.
func TestLatestIgnoresIntermediateUpdates(t *testing.T) {
	c := NewComparer(Options{Mode: Latest, Grace: time.Second})
	c.Add(KafkaStreams, rec("a", "1", 0), t0)
	c.Add(KafkaStreams, rec("a", "2", 1), t0)
	c.Add(KafkaStreams, rec("a", "3", 2), t0)
	c.Add(StoatFlow, rec("a", "3", 0), t0)
	c.Add(KafkaStreams, rec("b", "7", 3), t0)
	c.Add(StoatFlow, rec("b", "8", 1), t0)
	c.Add(KafkaStreams, rec("c", "1", 4), t0)
	c.Check(t0.Add(500 * time.Millisecond))
	if r := c.Report(); r.Total.Matched+r.Total.Mismatched+r.Total.Missing != 0 || r.Total.Pending != 3 {
		t.Fatalf("inside the grace: %+v", r.Total)
	}
	c.Check(t0.Add(time.Second))
	r := c.Report()
	if r.Total.Matched != 1 || r.Total.Mismatched != 1 || r.Total.Missing != 1 {
		t.Fatalf("%+v", r.Total)
	}
	// b converges: its key moves from mismatched to matched.
	c.Add(StoatFlow, rec("b", "7", 2), t0.Add(2*time.Second))
	r = c.Finish(t0.Add(2 * time.Second))
	if r.Total.Matched != 2 || r.Total.Mismatched != 0 || r.Total.Missing != 1 || len(r.Divergences) != 2 {
		t.Fatalf("%+v %v", r.Total, r.Divergences)
	}
}

func TestDivergencesBounded(t *testing.T) {
	c := NewComparer(Options{Mode: Sequence, MaxDivergences: 2})
	for i := 0; i < 5; i++ {
		c.Add(KafkaStreams, rec(string(rune('a'+i)), "1", int64(i)), t0)
	}
	r := c.Finish(t0)
	if len(r.Divergences) != 2 || r.DivergencesDropped != 3 || r.Total.Missing != 5 {
		t.Fatalf("%+v", r)
	}
}

func TestPrintable(t *testing.T) {
	for in, want := range map[string]string{"hello": `"hello"`, "\x00\x00\x00\x00\x00\x00\x00\x02": "0x0000000000000002", "": `""`} {
		if got := Printable([]byte(in)); got != want {
			t.Errorf("Printable(%q) = %s, want %s", in, got, want)
		}
	}
	if Printable(nil) != "null" {
		t.Error("nil is not null")
	}
	if _, err := ParseMode("eventually"); err == nil {
		t.Error("ParseMode accepted a bad mode")
	}
}

// TestSequenceInterleavingsMatch: the same updates per key, interleaved
// differently across keys and sides, always match in full; changing one
// value anywhere gives exactly one mismatch on that key.
func TestSequenceInterleavingsMatch(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for round := 0; round < 200; round++ {
		n := 1 + rng.IntN(60)
		var ks []Record
		for i := 0; i < n; i++ {
			ks = append(ks, rec(fmt.Sprintf("k%d", rng.IntN(5)), fmt.Sprint(rng.IntN(3)), int64(i)))
		}
		// StoatFlow's: a shuffle that keeps each key's order.
		sf := slices.Clone(ks)
		for i := 0; i < 3*n; i++ {
			j := rng.IntN(n)
			if j+1 < n && string(sf[j].Key) != string(sf[j+1].Key) {
				sf[j], sf[j+1] = sf[j+1], sf[j]
			}
		}
		bad := -1
		if round%2 == 1 {
			bad = rng.IntN(n)
			sf[bad].Value = []byte("changed")
		}
		c := NewComparer(Options{Mode: Sequence})
		for i := 0; i < n; i++ {
			// Alternate sides in random runs.
			if rng.IntN(2) == 0 {
				c.Add(KafkaStreams, ks[i], t0)
				c.Add(StoatFlow, sf[i], t0)
			} else {
				c.Add(StoatFlow, sf[i], t0)
				c.Add(KafkaStreams, ks[i], t0)
			}
		}
		r := c.Finish(t0)
		wantMismatch := int64(0)
		if bad >= 0 {
			wantMismatch = 1
		}
		if r.Total.Mismatched != wantMismatch || r.Total.Matched != int64(n)-wantMismatch || r.Total.Missing != 0 || r.Total.Pending != 0 {
			t.Fatalf("round %d: %+v", round, r.Total)
		}
		if bad >= 0 && r.Divergences[0].Key != Printable(sf[bad].Key) {
			t.Fatalf("round %d: divergence on %s, changed %s", round, r.Divergences[0].Key, sf[bad].Key)
		}
	}
}
