package kstreamstest_test

import (
	"fmt"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/kstreamstest"
	"github.com/stoatflow/stoatflow/kstreams/serde"
)

// The cases of Kafka's KStreamWindowAggregateTest for
// emitStrategy(onWindowClose): windows of 10 ms advancing by 5 with 5 ms
// of grace, the aggregate "0" + "+v" per record (MockInitializer.STRING_INIT,
// MockAggregator.TOSTRING_ADDER), each result written "key@start/end" with
// its timestamp. Each runs with and without the record cache, which must not
// change what is emitted.

const day = 24 * time.Hour

type emitted struct {
	key, value string
	ts         int64
}

// emitFinalTopology builds the aggregation; retention is the store's (0:
// size plus grace). Kafka's processor-level cases give their store a day.
func emitFinalTopology(size, grace, advance, retention time.Duration, emit kstreams.EmitStrategy, init func() string) *kstreams.StreamsBuilder {
	b := kstreams.NewStreamsBuilder()
	s := kstreams.Stream(b, []string{"in"}, kstreams.ConsumedWith[string, string](serde.String{}, serde.String{}))
	w := kstreams.WindowedBy(s.GroupByKey(), kstreams.TimeWindowsOfSizeAndGrace(size, grace).AdvanceBy(advance)).EmitStrategy(emit)
	t := kstreams.WindowedAggregate(w, init, func(_ string, v, agg string) string { return agg + "+" + v },
		kstreams.Materialized[string, string]{Name: "dummy-store-name", ValueSerde: serde.String{}, Retention: retention})
	kstreams.Map(t.ToStream(), func(k kstreams.Windowed[string], v string) (string, string) {
		return fmt.Sprintf("%s@%d/%d", k.Key, k.Window.Start, k.Window.End), v
	}).To("out")
	return b
}

func pipeKeyed(t *testing.T, d *kstreamstest.Driver, recs ...emitted) []emitted {
	t.Helper()
	for _, r := range recs {
		if err := d.Pipe("in", []byte(r.key), []byte(r.value), r.ts); err != nil {
			t.Fatal(err)
		}
	}
	var out []emitted
	for _, r := range d.ReadOutput("out") {
		out = append(out, emitted{string(r.Key), string(r.Value), r.Timestamp})
	}
	return out
}

func checkEmitted(t *testing.T, step string, got, want []emitted) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Errorf("%s: emitted %v, want %v", step, got, want)
	}
}

func eachCache(t *testing.T, interval int64, fn func(t *testing.T, d func(*kstreams.StreamsBuilder) *kstreamstest.Driver)) {
	for _, caching := range []bool{false, true} {
		t.Run("caching="+strconv.FormatBool(caching), func(t *testing.T) {
			cfg := stringDefaults
			cfg.Caching, cfg.CacheMaxBytes = caching, 10<<20
			cfg.WindowedAggregationEmitIntervalMs = interval
			fn(t, func(b *kstreams.StreamsBuilder) *kstreamstest.Driver { return build(t, b, cfg) })
		})
	}
}

// shouldEmitWithInterval0: each record that closes a window emits it.
func TestEmitOnWindowCloseWithInterval0(t *testing.T) {
	eachCache(t, 0, func(t *testing.T, newDriver func(*kstreams.StreamsBuilder) *kstreamstest.Driver) {
		d := newDriver(emitFinalTopology(10*time.Millisecond, 5*time.Millisecond, 5*time.Millisecond, day, kstreams.EmitOnWindowClose, zeroString))
		got := pipeKeyed(t, d, emitted{"A", "1", 0}, emitted{"A", "1", 5}, emitted{"B", "2", 10}, emitted{"C", "3", 15}, emitted{"D", "4", 20})
		checkEmitted(t, "after D@20", got, []emitted{{"A@0/10", "0+1+1", 5}, {"A@5/15", "0+1", 5}, {"B@5/15", "0+2", 10}})
	})
}

// shouldNotEmitFinalIfNotProgressEnough: a record that does not move the
// close time past a window start emits nothing.
func TestEmitOnWindowCloseNotIfNotProgressEnough(t *testing.T) {
	eachCache(t, 0, func(t *testing.T, newDriver func(*kstreams.StreamsBuilder) *kstreamstest.Driver) {
		d := newDriver(emitFinalTopology(10*time.Millisecond, 5*time.Millisecond, 5*time.Millisecond, day, kstreams.EmitOnWindowClose, zeroString))
		checkEmitted(t, "after C@15", pipeKeyed(t, d, emitted{"A", "1", 0}, emitted{"B", "2", 5}, emitted{"C", "3", 15}),
			[]emitted{{"A@0/10", "0+1", 0}, {"B@0/10", "0+2", 5}})
		checkEmitted(t, "D@15: stream time did not move", pipeKeyed(t, d, emitted{"D", "4", 15}), nil)
		checkEmitted(t, "E@19: no new window closed", pipeKeyed(t, d, emitted{"E", "5", 19}), nil)
	})
}

// shouldEmitWithLargeInterval: with an interval of 1000 ms of wall-clock
// time, the first emission happens at the first record and the next only
// once the wall clock has moved by the interval; the windows that closed
// in between come out together then.
func TestEmitOnWindowCloseWithLargeInterval(t *testing.T) {
	eachCache(t, 1000, func(t *testing.T, newDriver func(*kstreams.StreamsBuilder) *kstreamstest.Driver) {
		d := newDriver(emitFinalTopology(10*time.Millisecond, 5*time.Millisecond, 5*time.Millisecond, day, kstreams.EmitOnWindowClose, zeroString))
		checkEmitted(t, "wall clock 0", pipeKeyed(t, d, emitted{"A", "1", 0}, emitted{"A", "1", 5}, emitted{"B", "2", 10}, emitted{"C", "3", 15}), nil)
		if err := d.AdvanceWallClock(10 * time.Second); err != nil {
			t.Fatal(err)
		}
		checkEmitted(t, "wall clock 10000", pipeKeyed(t, d, emitted{"D", "4", 20}),
			[]emitted{{"A@0/10", "0+1+1", 5}, {"A@5/15", "0+1", 5}, {"B@5/15", "0+2", 10}})
		if err := d.AdvanceWallClock(100 * time.Millisecond); err != nil {
			t.Fatal(err)
		}
		checkEmitted(t, "wall clock 10100: within the interval", pipeKeyed(t, d, emitted{"E", "5", 40}), nil)
	})
}

// shouldLogAndMeterWhenSkippingExpiredWindow (interval 0): the records of
// an expired window are dropped; the window they could still join closes
// at stream time 105 and is the one result.
func TestEmitOnWindowCloseSkipsExpiredWindows(t *testing.T) {
	eachCache(t, 0, func(t *testing.T, newDriver func(*kstreams.StreamsBuilder) *kstreamstest.Driver) {
		d := newDriver(emitFinalTopology(10*time.Millisecond, 90*time.Millisecond, 5*time.Millisecond, 100*time.Millisecond, kstreams.EmitOnWindowClose,
			func() string { return "" }))
		var in []emitted
		for _, ts := range []int64{100, 0, 1, 2, 3, 4, 5, 6, 105, 106} {
			in = append(in, emitted{"k", strconv.FormatInt(ts, 10), ts})
		}
		checkEmitted(t, "all", pipeKeyed(t, d, in...), []emitted{{"k@5/15", "+5+6", 6}})
		if n := len(d.Dropped()); n != 7 {
			t.Errorf("%d records dropped, Kafka Streams drops 7", n)
		}
	})
}

// testAggBasic: with 100 ms of grace no window closes, so nothing is
// emitted, while the default strategy emits every update.
func TestEmitOnWindowCloseNothingBeforeGrace(t *testing.T) {
	eachCache(t, 0, func(t *testing.T, newDriver func(*kstreams.StreamsBuilder) *kstreamstest.Driver) {
		var in []emitted
		for i, kv := range []string{"A1", "B2", "C3", "D4", "A1", "A1", "B2", "D4", "B2", "C3", "A1", "B2", "D4", "B2", "C3"} {
			in = append(in, emitted{kv[:1], kv[1:], int64(i)})
		}
		in = append(in, emitted{"B", "1", 3}, emitted{"B", "2", 2}, emitted{"B", "3", 9})
		final := newDriver(emitFinalTopology(10*time.Millisecond, 100*time.Millisecond, 5*time.Millisecond, 0, kstreams.EmitOnWindowClose, zeroString))
		checkEmitted(t, "on close", pipeKeyed(t, final, in...), nil)
		update := newDriver(emitFinalTopology(10*time.Millisecond, 100*time.Millisecond, 5*time.Millisecond, 0, kstreams.EmitOnWindowUpdate, zeroString))
		if got := pipeKeyed(t, update, in...); len(got) == 0 {
			t.Error("on update: nothing emitted")
		}
	})
}
