package kstreamstest_test

import (
	"fmt"
	"math/rand"
	"slices"
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/kstreamstest"
)

type selfJoinInput struct {
	key, value string
	ts         int64
}

// selfJoinOutput runs a join of one stream with itself, rewritten by
// single.store.self.join or not, and returns what it wrote.
func selfJoinOutput(t *testing.T, w kstreams.JoinWindows, optimize bool, in []selfJoinInput) []string {
	t.Helper()
	b := kstreams.NewStreamsBuilder()
	s := kstreams.Stream[string, string](b, []string{"in"})
	kstreams.JoinWithKey(s, s, func(k, l, r string) string { return k + ":" + l + "+" + r }, w).To("out")
	topo, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	if optimize {
		topo, err = topo.Optimize([]string{kstreams.OptimizeSingleStoreSelfJoin})
		if err != nil {
			t.Fatal(err)
		}
		if n := len(topo.Subtopologies()[0].Stores); n != 1 {
			t.Fatalf("the self-join keeps %d stores, want 1", n)
		}
	}
	d, err := kstreamstest.New(topo, stringDefaults)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	for _, r := range in {
		if err := d.Pipe("in", []byte(r.key), []byte(r.value), r.ts); err != nil {
			t.Fatal(err)
		}
	}
	var out []string
	for _, r := range d.Records("out") {
		out = append(out, fmt.Sprintf("%s@%d", r.Value, r.Timestamp))
	}
	return out
}

// KStreamKStreamSelfJoinTest: the self-join emits what the two-sided inner
// join emits, record for record and in its order; here for Kafka's inputs
// (one stream, different before and after windows, records past the
// grace period) and for random ones with out-of-order and equal
// timestamps.
func TestSelfJoinMatchesTheInnerJoin(t *testing.T) {
	cases := map[string]struct {
		w  kstreams.JoinWindows
		in []selfJoinInput
	}{
		"singleStream": {kstreams.JoinWindowsOfTimeDifferenceWithNoGrace(100 * time.Millisecond),
			[]selfJoinInput{{"A", "1", 1}, {"B", "1", 2}, {"A", "2", 3}, {"B", "2", 4}, {"B", "3", 5}}},
		"differentBeforeAfterWindows": {kstreams.JoinWindowsOfTimeDifferenceAndGrace(11*time.Second, 10*time.Second).After(10 * time.Second).Before(5 * time.Second),
			[]selfJoinInput{{"A", "1", 0}, {"A", "2", 11000}, {"B", "1", 12000}, {"A", "3", 13000}, {"A", "4", 15000},
				{"C", "1", 16000}, {"D", "1", 17000}, {"A", "5", 30000}, {"A", "6", 0}, {"A", "7", 25000}}},
	}
	rng := rand.New(rand.NewSource(7))
	for i := range 20 {
		var in []selfJoinInput
		for j := range 40 {
			in = append(in, selfJoinInput{[]string{"A", "B", "C"}[rng.Intn(3)], fmt.Sprint(j), int64(rng.Intn(60)) * 100})
		}
		w := kstreams.JoinWindowsOfTimeDifferenceAndGrace(time.Duration(1+rng.Intn(10))*100*time.Millisecond, time.Duration(rng.Intn(20))*100*time.Millisecond).
			Before(time.Duration(rng.Intn(10)) * 100 * time.Millisecond)
		cases[fmt.Sprintf("random-%d", i)] = struct {
			w  kstreams.JoinWindows
			in []selfJoinInput
		}{w, in}
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			want := selfJoinOutput(t, c.w, false, c.in)
			got := selfJoinOutput(t, c.w, true, c.in)
			if !slices.Equal(got, want) {
				t.Errorf("self-join output differs from the inner join's (%v)\n inner: %v\n self:  %v", c.w, want, got)
			}
			if len(want) == 0 {
				t.Error("the case joins nothing")
			}
		})
	}
}
