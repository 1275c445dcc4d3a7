package kstreamstest_test

import (
	"fmt"
	"math/rand"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/kstreamstest"
	"github.com/stoatflow/stoatflow/kstreams/serde"
)

type valueTs struct {
	v  string
	ts int64
}

// slidingTopology aggregates topic "in" in sliding windows of diff and
// grace with agg (STRING_INIT "0" and TOSTRING_ADDER unless given), and
// writes each update to "out" keyed "key@start".
func slidingTopology(diff, grace time.Duration, init func() string, agg func(string, string, string) string) *kstreams.StreamsBuilder {
	return slidingTopologyEmit(diff, grace, kstreams.EmitOnWindowUpdate, init, agg)
}

// slidingTopologyEmit is slidingTopology with an emit strategy.
func slidingTopologyEmit(diff, grace time.Duration, emit kstreams.EmitStrategy, init func() string,
	agg func(string, string, string) string) *kstreams.StreamsBuilder {
	b := kstreams.NewStreamsBuilder()
	s := kstreams.Stream(b, []string{"in"}, kstreams.ConsumedWith[string, string](serde.String{}, serde.String{}))
	w := kstreams.WindowedBySliding(s.GroupByKey(), kstreams.SlidingWindowsOfTimeDifferenceAndGrace(diff, grace)).EmitStrategy(emit)
	t := kstreams.SlidingAggregate(w, init, agg, kstreams.Materialized[string, string]{Name: "topic-Canonized", ValueSerde: serde.String{}})
	kstreams.Map(t.ToStream(), func(k kstreams.Windowed[string], v string) (string, string) {
		if k.Window.End != k.Window.Start+diff.Milliseconds() {
			panic(fmt.Sprintf("window %+v is not %d long", k.Window, diff.Milliseconds()))
		}
		return k.Key + "@" + strconv.FormatInt(k.Window.Start, 10), v
	}).To("out")
	return b
}

// gather is KStreamSlidingWindowAggregateTest.gatherOutput: the updates of
// each window start, as a set.
func gather(recs []kstreamstest.Record) map[int64][]valueTs {
	out := map[int64][]valueTs{}
	for _, r := range recs {
		_, s, _ := strings.Cut(string(r.Key), "@")
		start, _ := strconv.ParseInt(s, 10, 64)
		vt := valueTs{string(r.Value), r.Timestamp}
		if !slices.Contains(out[start], vt) {
			out[start] = append(out[start], vt)
		}
	}
	return out
}

func sameSets(t *testing.T, got, want map[int64][]valueTs) {
	t.Helper()
	for start, w := range want {
		g := got[start]
		if len(g) != len(w) {
			t.Errorf("window %d: %v, want %v", start, g, w)
			continue
		}
		for _, x := range w {
			if !slices.Contains(g, x) {
				t.Errorf("window %d: %v, want %v", start, g, w)
				break
			}
		}
	}
	for start, g := range got {
		if _, ok := want[start]; !ok {
			t.Errorf("window %d: %v, want none", start, g)
		}
	}
}

func eachCaching(t *testing.T, fn func(t *testing.T, cfg kstreamstest.Config)) {
	for _, caching := range []bool{false, true} {
		t.Run(fmt.Sprintf("caching=%t", caching), func(t *testing.T) {
			cfg := stringDefaults
			cfg.Caching = caching
			fn(t, cfg)
		})
	}
}

func pipeValues(t *testing.T, d *kstreamstest.Driver, in []valueTs) {
	t.Helper()
	for _, r := range in {
		if err := d.Pipe("in", []byte("A"), []byte(r.v), r.ts); err != nil {
			t.Fatal(err)
		}
	}
}

// KStreamSlidingWindowAggregateTest.testAggregateSmallInput (emit on update).
func TestSlidingWindowAggregateSmallInput(t *testing.T) {
	eachCaching(t, func(t *testing.T, cfg kstreamstest.Config) {
		d := build(t, slidingTopology(10*time.Millisecond, 5*time.Millisecond, zeroString, toStringAdder), cfg)
		pipeValues(t, d, []valueTs{{"1", 10}, {"2", 10}, {"3", 14}, {"4", 15}, {"5", 20}, {"6", 22}, {"7", 30}})
		want := map[int64][]valueTs{
			0:  {{"0+1", 10}, {"0+1+2", 10}},
			4:  {{"0+1+2+3", 14}},
			5:  {{"0+1+2+3+4", 15}},
			10: {{"0+1+2+3+4+5", 20}},
			11: {{"0+3", 14}, {"0+3+4", 15}, {"0+3+4+5", 20}},
			12: {{"0+3+4+5+6", 22}},
			15: {{"0+4", 15}, {"0+4+5", 20}, {"0+4+5+6", 22}},
			16: {{"0+5", 20}, {"0+5+6", 22}},
			20: {{"0+5+6+7", 30}},
			21: {{"0+6", 22}, {"0+6+7", 30}},
			23: {{"0+7", 30}},
		}
		sameSets(t, gather(d.Records("out")), want)
	})
}

// KStreamSlidingWindowAggregateTest.testAggregateSmallInput with
// emitStrategy(onWindowClose): each window once, with its final aggregate,
// once stream time passes its end plus the grace period; the windows still
// open at the end are not emitted.
func TestSlidingWindowEmitOnCloseSmallInput(t *testing.T) {
	eachCaching(t, func(t *testing.T, cfg kstreamstest.Config) {
		d := build(t, slidingTopologyEmit(10*time.Millisecond, 5*time.Millisecond, kstreams.EmitOnWindowClose, zeroString, toStringAdder), cfg)
		pipeValues(t, d, []valueTs{{"1", 10}, {"2", 10}, {"3", 14}, {"4", 15}, {"5", 20}, {"6", 22}, {"7", 30}})
		sameSets(t, gather(d.Records("out")), map[int64][]valueTs{
			0:  {{"0+1+2", 10}},
			4:  {{"0+1+2+3", 14}},
			5:  {{"0+1+2+3+4", 15}},
			10: {{"0+1+2+3+4+5", 20}},
			11: {{"0+3+4+5", 20}},
			12: {{"0+3+4+5+6", 22}},
		})
	})
}

// KStreamSlidingWindowAggregateTest.testNoGracePeriodSmallInput with
// emitStrategy(onWindowClose).
func TestSlidingWindowEmitOnCloseNoGrace(t *testing.T) {
	eachCaching(t, func(t *testing.T, cfg kstreamstest.Config) {
		d := build(t, slidingTopologyEmit(50*time.Millisecond, 0, kstreams.EmitOnWindowClose, zeroString, toStringAdder), cfg)
		pipeValues(t, d, []valueTs{{"1", 100}, {"2", 105}, {"3", 106}, {"4", 103}, {"5", 113}, {"6", 110}})
		sameSets(t, gather(d.Records("out")), map[int64][]valueTs{
			50: {{"0+1", 100}},
			55: {{"0+1+2", 105}},
			56: {{"0+1+2+3+4", 106}},
		})
	})
}

// KStreamSlidingWindowAggregateTest.testEarlyRecordsSmallInput: records
// before the time difference share the window [0, diff].
func TestSlidingWindowEarlyRecords(t *testing.T) {
	eachCaching(t, func(t *testing.T, cfg kstreamstest.Config) {
		d := build(t, slidingTopology(50*time.Millisecond, 0, zeroString, toStringAdder), cfg)
		pipeValues(t, d, []valueTs{{"1", 0}, {"2", 5}, {"3", 6}, {"4", 3}, {"5", 13}, {"6", 10}, {"7", 70}})
		sameSets(t, gather(d.Records("out")), map[int64][]valueTs{
			0:  {{"0+1", 0}, {"0+1+2", 5}, {"0+1+2+3", 6}, {"0+1+2+3+4", 6}, {"0+1+2+3+4+5", 13}, {"0+1+2+3+4+5+6", 13}},
			1:  {{"0+2", 5}, {"0+2+3", 6}, {"0+2+3+4", 6}, {"0+2+3+4+5", 13}, {"0+2+3+4+5+6", 13}},
			4:  {{"0+2+3", 6}, {"0+2+3+5", 13}, {"0+2+3+5+6", 13}},
			6:  {{"0+3", 6}, {"0+3+5", 13}, {"0+3+5+6", 13}},
			7:  {{"0+5", 13}, {"0+5+6", 13}},
			11: {{"0+5", 13}},
			20: {{"0+7", 70}},
		})
	})
}

// KStreamSlidingWindowAggregateTest.testAggregateRandomInput: whatever the
// order of the records (within the grace period), each window ends with the
// same value; many shuffles, with and without the cache.
func TestSlidingWindowAggregateRandomInput(t *testing.T) {
	sorted := func(_ string, v, agg string) string {
		b := []byte(agg + v)
		slices.Sort(b)
		return string(b)
	}
	input := []valueTs{{"A", 10}, {"B", 15}, {"C", 16}, {"D", 18}, {"E", 30}, {"F", 40}, {"G", 55}, {"H", 56}, {"I", 58}, {"J", 58},
		{"K", 62}, {"L", 63}, {"M", 63}, {"N", 63}, {"O", 76}, {"P", 77}, {"Q", 80}, {"R", 2}, {"S", 3}, {"T", 5}, {"U", 8}}
	want := map[int64]valueTs{0: {"ARSTU", 10}, 3: {"ASTU", 10}, 4: {"ATU", 10}, 5: {"ABTU", 15}, 6: {"ABCU", 16}, 8: {"ABCDU", 18},
		9: {"ABCD", 18}, 11: {"BCD", 18}, 16: {"CD", 18}, 17: {"D", 18}, 20: {"E", 30}, 30: {"EF", 40}, 31: {"F", 40}, 45: {"G", 55},
		46: {"GH", 56}, 48: {"GHIJ", 58}, 52: {"GHIJK", 62}, 53: {"GHIJKLMN", 63}, 56: {"HIJKLMN", 63}, 57: {"IJKLMN", 63},
		59: {"KLMN", 63}, 63: {"LMN", 63}, 66: {"O", 76}, 67: {"OP", 77}, 70: {"OPQ", 80}, 77: {"PQ", 80}, 78: {"Q", 80}, 171: {"V", 181}}
	eachCaching(t, func(t *testing.T, cfg kstreamstest.Config) {
		for seed := int64(0); seed < 50; seed++ {
			in := slices.Clone(input)
			rand.New(rand.NewSource(seed)).Shuffle(len(in), func(i, j int) { in[i], in[j] = in[j], in[i] })
			d := build(t, slidingTopology(10*time.Millisecond, 100*time.Millisecond, func() string { return "" }, sorted), cfg)
			pipeValues(t, d, append(in, valueTs{"V", 181}))
			last := map[int64]valueTs{}
			for _, r := range d.Records("out") {
				_, s, _ := strings.Cut(string(r.Key), "@")
				start, _ := strconv.ParseInt(s, 10, 64)
				last[start] = valueTs{string(r.Value), r.Timestamp}
			}
			for start, w := range want {
				if last[start] != w {
					t.Fatalf("seed %d: window %d ends with %v, want %v (all %v)", seed, start, last[start], w, last)
				}
			}
			if len(last) != len(want) {
				t.Fatalf("seed %d: %d windows, want %d: %v", seed, len(last), len(want), last)
			}
		}
	})
}

// KStreamSlidingWindowAggregateTest.testReduceSmallInput, and the null
// values a sliding window drops (counted), unlike a time window.
func TestSlidingWindowReduce(t *testing.T) {
	b := kstreams.NewStreamsBuilder()
	s := kstreams.Stream(b, []string{"in"}, kstreams.ConsumedWith[string, string](serde.String{}, serde.String{}))
	w := kstreams.WindowedBySliding(s.GroupByKey(), kstreams.SlidingWindowsOfTimeDifferenceAndGrace(10*time.Millisecond, 5*time.Millisecond))
	t1 := w.Reduce(func(agg, v string) string { return agg + "+" + v }, kstreams.MaterializedAs[string, string]("reduced"))
	kstreams.Map(t1.ToStream(), func(k kstreams.Windowed[string], v string) (string, string) {
		return k.Key + "@" + strconv.FormatInt(k.Window.Start, 10), v
	}).To("out")
	d := build(t, b, stringDefaults)
	pipeValues(t, d, []valueTs{{"1", 10}, {"2", 14}, {"3", 15}, {"4", 22}, {"5", 26}, {"6", 30}})
	if err := d.Pipe("in", []byte("A"), nil, 31); err != nil {
		t.Fatal(err)
	}
	sameSets(t, gather(d.Records("out")), map[int64][]valueTs{
		0:  {{"1", 10}},
		4:  {{"1+2", 14}},
		5:  {{"1+2+3", 15}},
		11: {{"2", 14}, {"2+3", 15}},
		12: {{"2+3+4", 22}},
		15: {{"3", 15}, {"3+4", 22}},
		16: {{"4+5", 26}, {"4", 22}},
		20: {{"4+5+6", 30}},
		23: {{"5", 26}, {"5+6", 30}},
		27: {{"6", 30}},
	})
	if dr := d.Dropped(); len(dr) != 1 || !strings.Contains(dr[0].Reason, "null key or value") {
		t.Errorf("dropped: %+v, want the null value", dr)
	}
}
