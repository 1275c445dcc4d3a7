package metrics

import (
	"fmt"
	"math"
	"testing"
	"time"
)

// The expected values below are those of Kafka's own tests of its metrics
// library (clients/src/test/java/org/apache/kafka/common/metrics:
// MetricsTest, stats/RateTest, stats/SampledStatTest), whose stats
// sampled.go ports. Times are in milliseconds from an arbitrary start, as
// Kafka's MockTime.

const eps = 0.000001

func near(a, b, tolerance float64) bool { return math.Abs(a-b) <= tolerance }

func msTime(ms int64) time.Time { return time.UnixMilli(ms) }

// clockMs is MockTime: a millisecond clock the test moves.
type clockMs struct{ ms int64 }

func (c *clockMs) sleep(ms int64) { c.ms += ms }

// liveSamples is what SampledStatTest's SampleCount measures: the samples
// holding events once the stat is purged.
func liveSamples(s *sampledStat, c sampling, now int64) int {
	s.purge(c, now)
	n := 0
	for _, smp := range s.samples {
		if smp.events > 0 {
			n++
		}
	}
	return n
}

// windowed is what a WindowedCount or WindowedSum measures: the sum of the
// live samples' values, which the rate stats divide by the window.
func windowed(s *sampledStat, c sampling, now int64) float64 {
	s.purge(c, now)
	var v float64
	for _, smp := range s.samples {
		v += smp.value
	}
	return v
}

// RateTest.testRateWithNoPriorAvailableSamples: a rate measured before its
// first window ends counts samples-1 prior windows.
func TestRateWithNoPriorSamplesCountsTheWindowsBefore(t *testing.T) {
	for _, tc := range []struct{ samples, windowSec int }{{1, 1}, {1, 11}, {11, 1}, {11, 11}} {
		t.Run(fmt.Sprintf("samples=%d/window=%ds", tc.samples, tc.windowSec), func(t *testing.T) {
			c := sampling{samples: tc.samples, windowMs: int64(tc.windowSec) * 1000}
			s := newSampledStat(statSumRate, c)
			var clk clockMs
			s.record(c, 50, 1, clk.ms)
			measured := int64(tc.windowSec)*1000 - 1
			clk.sleep(measured)
			got := s.measure(c, clk.ms)
			want := 50 / (float64(measured)/1000 + float64((tc.samples-1)*tc.windowSec))
			if !near(got, want, eps) {
				t.Errorf("rate %v, want %v", got, want)
			}
		})
	}
}

// RateTest.testRateIsConsistentAfterTheFirstWindow: events every 100 ms
// measure 10 to 11 per second from the second window on, the same at
// every read of the same moment.
func TestRateIsConsistentAfterTheFirstWindow(t *testing.T) {
	c := sampling{samples: 2, windowMs: 1000}
	s := newSampledStat(statRate, c)
	var clk clockMs
	steps := []int64{0, 99, 100, 100, 100, 100, 100, 100, 100, 100, 100}
	for _, step := range steps {
		clk.sleep(step)
		s.record(c, 1, 1, clk.ms)
	}
	clk.sleep(101)
	for _, step := range steps {
		clk.sleep(step)
		s.record(c, 1, 1, clk.ms)
		got := s.measure(c, clk.ms)
		if got < 10 || got > 11 {
			t.Errorf("at %d ms: rate %v, want 10 to 11", clk.ms, got)
		}
		if again := s.measure(c, clk.ms); again != got {
			t.Errorf("at %d ms: rate %v, then %v", clk.ms, got, again)
		}
	}
}

// completeSample is SampledStatTest's: events at a sample's start and end,
// the clock left at its end.
func completeSample(s *sampledStat, c sampling, clk *clockMs) {
	s.record(c, 1, 1, clk.ms)
	clk.sleep(c.windowMs - 1)
	s.record(c, 1, 1, clk.ms)
	clk.sleep(1)
}

// SampledStatTest: a sample is purged once it no longer overlaps the
// monitored window (samples windows), kept while it does, and the
// samples+1-th sample is kept too.
func TestSampleIsPurgedOnlyOnceItLeavesTheMonitoredWindow(t *testing.T) {
	c := sampling{samples: 2, windowMs: 1000}
	for _, tc := range []struct {
		name string
		run  func(s *sampledStat, clk *clockMs)
		want int
	}{
		{"not overlapping", func(s *sampledStat, clk *clockMs) { completeSample(s, c, clk); clk.sleep(2500) }, 0},
		{"overlapping", func(s *sampledStat, clk *clockMs) { completeSample(s, c, clk); clk.sleep(1500) }, 1},
		{"overlapping and extra", func(s *sampledStat, clk *clockMs) {
			completeSample(s, c, clk)
			clk.sleep(100)
			completeSample(s, c, clk)
			clk.sleep(100)
			s.record(c, 1, 1, clk.ms)
		}, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newSampledStat(statRate, c)
			var clk clockMs
			tc.run(&s, &clk)
			if got := liveSamples(&s, c, clk.ms); got != tc.want {
				t.Errorf("%d live samples, want %d", got, tc.want)
			}
		})
	}
}

// MetricsTest.testTimeWindowing: with 1 ms windows and 2 samples, the
// oldest event times out as the third arrives.
func TestTimeWindowing(t *testing.T) {
	c := sampling{samples: 2, windowMs: 1}
	s := newSampledStat(statRate, c)
	var clk clockMs
	s.record(c, 1, 1, clk.ms)
	clk.sleep(1)
	s.record(c, 1, 1, clk.ms)
	if got := windowed(&s, c, clk.ms); got != 2 {
		t.Errorf("count %v, want 2", got)
	}
	clk.sleep(1)
	s.record(c, 1, 1, clk.ms)
	if got := windowed(&s, c, clk.ms); got != 2 {
		t.Errorf("count after the oldest timed out %v, want 2", got)
	}
}

// MetricsTest.testOldDataHasNoEffect,
// testSampledStatReturnsNaNWhenNoValuesExist and
// testSampledStatReturnsInitialValueWhenNoValuesExist: samples windows
// after the last event, an average or maximum is NaN, a count or sum 0.
func TestExpiredStatsReadNaNOrZero(t *testing.T) {
	c := sampling{samples: 2, windowMs: 100}
	for _, kind := range []statKind{statAvg, statMax, statRate, statSumRate} {
		s := newSampledStat(kind, c)
		var clk clockMs
		s.record(c, 50, 1, clk.ms)
		clk.sleep(int64(c.samples) * c.windowMs)
		got := s.measure(c, clk.ms)
		switch kind {
		case statAvg, statMax:
			if !math.IsNaN(got) {
				t.Errorf("kind %d: %v, want NaN", kind, got)
			}
		default:
			if got != 0 || windowed(&s, c, clk.ms) != 0 {
				t.Errorf("kind %d: %v, want 0", kind, got)
			}
		}
	}
}

// MetricsTest.testRateWindowing: 3 samples of the default 30 s; records
// one window apart, measured half a window later, span 2.5 windows; rates
// are 0 once every sample expired.
func TestRateWindowing(t *testing.T) {
	c := sampling{samples: 3, windowMs: 30_000}
	sum := newSensor(c, statSumRate, statRate)
	readSum, readCount := sum.reader(statSumRate), sum.reader(statRate)
	var clk clockMs
	clk.ms = 1_700_000_000_000
	total, count := 0.0, c.samples-1
	for range count {
		sum.record(msTime(clk.ms), 100, 1)
		total += 100
		clk.sleep(c.windowMs)
	}
	clk.sleep(c.windowMs / 2)
	elapsedSecs := float64(c.windowMs) / 1000 * (float64(c.samples) - 0.5)
	now := msTime(clk.ms)
	if got := readSum(now); !near(got, total/elapsedSecs, eps) {
		t.Errorf("rate %v, want %v (2.666)", got, total/elapsedSecs)
	}
	if got := readCount(now); !near(got, float64(count)/elapsedSecs, eps) {
		t.Errorf("count rate %v, want %v", got, float64(count)/elapsedSecs)
	}
	if got := sum.stats[0].windowSize(c, clk.ms); !near(float64(got)/1000, elapsedSecs, eps) {
		t.Errorf("window %d ms, want %v s", got, elapsedSecs)
	}
	clk.sleep(c.windowMs * int64(c.samples))
	if got, gotCount := readSum(msTime(clk.ms)), readCount(msTime(clk.ms)); got != 0 || gotCount != 0 {
		t.Errorf("rates after every sample expired: %v and %v, want 0", got, gotCount)
	}
}

// MetricsTest.testSimpleStats, its sampled stats: ten records 0..9 with
// Kafka's default 2 samples of 30 s, measured at once and 2 s later.
func TestSimpleStats(t *testing.T) {
	c := kafkaSampling
	s := newSensor(c, statAvg, statMax, statSumRate, statRate)
	avg, maximum, rate, occurrences := s.reader(statAvg), s.reader(statMax), s.reader(statSumRate), s.reader(statRate)
	var clk clockMs
	clk.ms = 1_700_000_000_000
	sum := 0.0
	for i := range 10 {
		s.record(msTime(clk.ms), float64(i), 1)
		sum += float64(i)
	}
	elapsedSecs := float64(c.windowMs*int64(c.samples-1)) / 1000
	if got := occurrences(msTime(clk.ms)); !near(got, 10/elapsedSecs, eps) {
		t.Errorf("occurrences before any time passed %v, want %v", got, 10/elapsedSecs)
	}
	clk.sleep(2000)
	elapsedSecs += 2
	now := msTime(clk.ms)
	for _, check := range []struct {
		what      string
		got, want float64
	}{
		{"Avg(0...9)", avg(now), 4.5},
		{"Max(0...9)", maximum(now), 9},
		{"Rate(0...9)", rate(now), sum / elapsedSecs},
		{"Occurrences(0...9)", occurrences(now), 10 / elapsedSecs},
	} {
		if !near(check.got, check.want, eps) {
			t.Errorf("%s = %v, want %v", check.what, check.got, check.want)
		}
	}
}

// TestBatchRecordsAsSeparateObservations: n observations at one moment are
// n records, at every window.
func TestBatchRecordsAsSeparateObservations(t *testing.T) {
	for _, c := range []sampling{kafkaSampling, {samples: 3, windowMs: 1}, {samples: 1, windowMs: 0}} {
		one, batch := newSensor(c, statAvg, statMax, statRate, statSumRate), newSensor(c, statAvg, statMax, statRate, statSumRate)
		var clk clockMs
		clk.ms = 1_700_000_000_000
		for i, n := range []int{3, 1, 5} {
			v := float64(10 * (i + 1))
			for range n {
				one.record(msTime(clk.ms), v, 1)
			}
			batch.record(msTime(clk.ms), v, n)
			clk.sleep(7)
		}
		for _, k := range []statKind{statAvg, statMax, statRate, statSumRate} {
			a, b := one.reader(k)(msTime(clk.ms)), batch.reader(k)(msTime(clk.ms))
			if !(a == b || math.IsNaN(a) && math.IsNaN(b)) {
				t.Errorf("%+v kind %d: one at a time %v, batched %v", c, k, a, b)
			}
		}
	}
}

// TestZeroWindowMeasuresNothing: metrics.sample.window.ms=0, which Kafka
// accepts: every sample is purged at once, so averages and maxima are
// NaN, and a rate, which Kafka cannot compute, reads NaN too.
func TestZeroWindowMeasuresNothing(t *testing.T) {
	c := sampling{samples: 2, windowMs: 0}
	s := newSensor(c, statAvg, statMax, statRate)
	now := msTime(1_700_000_000_000)
	s.record(now, 5, 3)
	for _, k := range []statKind{statAvg, statMax, statRate} {
		if got := s.reader(k)(now); !math.IsNaN(got) {
			t.Errorf("kind %d: %v, want NaN", k, got)
		}
	}
}

// TestMeasuringBeforeTheFirstRecordStartsTheFirstSample: as Kafka's
// Rate, a read before any record starts the first sample then, which
// the first record then joins.
func TestMeasuringBeforeTheFirstRecordStartsTheFirstSample(t *testing.T) {
	c := sampling{samples: 2, windowMs: 10_000}
	s := newSampledStat(statRate, c)
	if got := s.measure(c, 0); got != 0 {
		t.Fatalf("rate without records %v", got)
	}
	s.record(c, 1, 1, 9_000)
	// The sample started at 0: 1 event over 11 s (9 s into its window
	// plus the one window before), not over 10 s.
	if got := s.measure(c, 11_000); !near(got, 1.0/11, eps) {
		t.Errorf("rate %v, want 1/11", got)
	}
}
