package metrics

import (
	"math"
	"sync"
	"time"
)

// Kafka's metrics defaults: metrics.sample.window.ms=30000 and
// metrics.num.samples=2. Rates, averages and maxima are measured over the
// samples that have not expired, as Kafka's SampledStat measures them, so a
// dashboard reads the same numbers from either engine.
const (
	sampleWindow = 30 * time.Second
	numSamples   = 2
)

type sample struct {
	start time.Time
	count int64
	sum   float64
	max   float64
}

// sampled is Kafka's SampledStat for Rate, Avg and Max over a few
// fixed-length samples.
type sampled struct {
	mu struct {
		sync.Mutex
		samples [numSamples]sample
		cur     int
	}
}

// record adds one observation v at now.
func (s *sampled) record(now time.Time, v float64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := &s.mu.samples[s.mu.cur]
	if c.start.IsZero() || now.Sub(c.start) >= sampleWindow {
		s.mu.cur = (s.mu.cur + 1) % numSamples
		c = &s.mu.samples[s.mu.cur]
		*c = sample{start: now, max: math.Inf(-1)}
	}
	c.count++
	c.sum += v
	c.max = max(c.max, v)
}

// liveLocked calls fn for every sample that has not expired at now.
func (s *sampled) liveLocked(now time.Time, fn func(*sample)) {
	for i := range s.mu.samples {
		sm := &s.mu.samples[i]
		if sm.start.IsZero() || now.Sub(sm.start) >= numSamples*sampleWindow {
			continue
		}
		fn(sm)
	}
}

// rate returns the observations per second: their number over the time
// the live samples span, at least (numSamples-1) windows (Kafka's Rate with
// a WindowedCount).
func (s *sampled) rate(now time.Time) float64 {
	return s.perSecond(now, func(sm *sample) float64 { return float64(sm.count) })
}

// sumRate returns the summed values per second (Kafka's Rate over a
// WindowedSum, e.g. records per second when each observation is a batch).
func (s *sampled) sumRate(now time.Time) float64 {
	return s.perSecond(now, func(sm *sample) float64 { return sm.sum })
}

func (s *sampled) perSecond(now time.Time, of func(*sample) float64) float64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	var total float64
	oldest := now
	s.liveLocked(now, func(sm *sample) {
		total += of(sm)
		if sm.start.Before(oldest) {
			oldest = sm.start
		}
	})
	span := max(now.Sub(oldest), (numSamples-1)*sampleWindow)
	return total / span.Seconds()
}

// avg returns the mean of the live observations, NaN without any (as
// Kafka's Avg).
func (s *sampled) avg(now time.Time) float64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	var sum float64
	var n int64
	s.liveLocked(now, func(sm *sample) { sum += sm.sum; n += sm.count })
	if n == 0 {
		return math.NaN()
	}
	return sum / float64(n)
}

// maximum returns the largest live observation, NaN without any (as
// Kafka's Max).
func (s *sampled) maximum(now time.Time) float64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	m := math.Inf(-1)
	n := int64(0)
	s.liveLocked(now, func(sm *sample) { m = max(m, sm.max); n += sm.count })
	if n == 0 {
		return math.NaN()
	}
	return m
}
