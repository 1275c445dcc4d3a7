package metrics

import (
	"math"
	"sync"
	"time"

	"github.com/stoatflow/stoatflow/compat"
)

// sampling is Kafka's MetricConfig as its sampled stats read it:
// metrics.num.samples samples of metrics.sample.window.ms each.
type sampling struct {
	samples  int   // at least 1
	windowMs int64 // at least 0
}

// kafkaSampling is Kafka's default MetricConfig: 2 samples of 30 s.
var kafkaSampling = sampling{samples: 2, windowMs: 30_000}

// samplingOf is the sampling cfg sets, Kafka's defaults without one.
func samplingOf(cfg *compat.Config) sampling {
	if cfg == nil {
		return kafkaSampling
	}
	return sampling{samples: max(cfg.MetricsNumSamples, 1), windowMs: max(cfg.MetricsSampleWindow.Milliseconds(), 0)}
}

// sample is Kafka's SampledStat.Sample.
type sample struct {
	start, last int64 // ms: when the sample started, its last event
	events      int64
	value       float64
}

// statKind is what a sampledStat measures: the Kafka stat it ports.
type statKind uint8

const (
	// statAvg is Kafka's Avg: the mean of the live observations, NaN
	// without any.
	statAvg statKind = iota
	// statMax is Kafka's Max: the largest live observation, NaN without
	// any.
	statMax
	// statRate is Kafka's Rate over a WindowedCount: observations per
	// second.
	statRate
	// statSumRate is Kafka's Rate over a WindowedSum: the observed values'
	// sum per second (records per second when each observation is a
	// batch).
	statSumRate
)

// sampledStat is Kafka's SampledStat (clients' metrics.stats, as in Kafka
// 4.4): up to samples+1 samples, the extra one kept for a sample that
// started before the monitored window but overlaps it. An observation goes
// to the current sample, or to the next one (created, or reset) once the
// current is a window old. A sample whose last event is samples windows
// old is reset when the stat is measured, which also restarts it at that
// moment: measuring changes what the stat holds, as in Kafka, so each
// metric has a stat of its own.
type sampledStat struct {
	kind    statKind
	cur     int
	samples []sample
}

func newSampledStat(kind statKind, c sampling) sampledStat {
	return sampledStat{kind: kind, samples: make([]sample, 0, c.samples+1)}
}

// fresh is a sample started at now holding the stat's initial value.
func (s *sampledStat) fresh(now int64) sample {
	smp := sample{start: now, last: now}
	if s.kind == statMax {
		smp.value = math.Inf(-1)
	}
	return smp
}

// current is Kafka's current(now): the current sample, the first one
// created at now.
func (s *sampledStat) current(now int64) *sample {
	if len(s.samples) == 0 {
		s.samples = append(s.samples, s.fresh(now))
	}
	return &s.samples[s.cur]
}

// advance moves to the next of the samples+1 samples, started at now.
func (s *sampledStat) advance(c sampling, now int64) *sample {
	s.cur = (s.cur + 1) % (c.samples + 1)
	if s.cur >= len(s.samples) {
		s.samples = append(s.samples, s.fresh(now))
	} else {
		s.samples[s.cur] = s.fresh(now)
	}
	return &s.samples[s.cur]
}

// record adds n observations of v at now (ms), as n calls of Kafka's
// record would: the first may start a new sample, the others join it.
func (s *sampledStat) record(c sampling, v float64, n int64, now int64) {
	if c.windowMs <= 0 {
		// Each observation fills a sample; only the last samples+1 stay,
		// and any measure resets them all.
		for range min(n, int64(c.samples+1)) {
			s.add(c, v, 1, now)
		}
		return
	}
	s.add(c, v, n, now)
}

func (s *sampledStat) add(c sampling, v float64, n int64, now int64) {
	smp := s.current(now)
	if now-smp.start >= c.windowMs {
		smp = s.advance(c, now)
	}
	switch s.kind {
	case statAvg, statSumRate:
		smp.value += v * float64(n)
	case statRate:
		smp.value += float64(n)
	case statMax:
		smp.value = max(smp.value, v)
	}
	smp.events += n
	smp.last = now
}

// purge is Kafka's purgeObsoleteSamples: a sample with no event in the
// monitored window (samples windows up to now) restarts empty at now.
func (s *sampledStat) purge(c sampling, now int64) {
	expire := int64(c.samples) * c.windowMs
	for i := range s.samples {
		if now-s.samples[i].last >= expire {
			s.samples[i] = s.fresh(now)
		}
	}
}

// measure is Kafka's measure(config, now) of the stat.
func (s *sampledStat) measure(c sampling, now int64) float64 {
	s.purge(c, now)
	var value float64
	var events int64
	if s.kind == statMax {
		value = math.Inf(-1)
	}
	for _, smp := range s.samples {
		events += smp.events
		if s.kind == statMax {
			value = max(value, smp.value)
		} else {
			value += smp.value
		}
	}
	switch s.kind {
	case statAvg:
		if events == 0 {
			return math.NaN()
		}
		return value / float64(events)
	case statMax:
		if events == 0 {
			return math.NaN()
		}
		return value
	}
	if c.windowMs <= 0 {
		// Kafka's Rate divides by the window here and fails to read.
		return math.NaN()
	}
	return value / (float64(s.windowSize(c, now)) / 1000)
}

// windowSize is Kafka's Rate.windowSize in ms: the time since the oldest
// live sample started, counted as at least samples-1 whole windows plus
// what has passed of the last, and at least 1 ms.
func (s *sampledStat) windowSize(c sampling, now int64) int64 {
	s.purge(c, now)
	if len(s.samples) == 0 {
		s.samples = append(s.samples, s.fresh(now)) // Kafka's oldest(now)
	}
	oldest := s.samples[0].start
	for _, smp := range s.samples[1:] {
		oldest = min(oldest, smp.start)
	}
	elapsed := now - oldest
	full := elapsed / c.windowMs
	if least := int64(c.samples - 1); full < least {
		elapsed += (least - full) * c.windowMs
	}
	return max(elapsed, 1)
}

// sensor is the sampled stats one Kafka sensor records to together, under
// one lock, as a Kafka Sensor records to its stats under its metric lock.
type sensor struct {
	mu    sync.Mutex
	c     sampling
	stats []sampledStat
}

func newSensor(c sampling, kinds ...statKind) *sensor {
	s := &sensor{c: c, stats: make([]sampledStat, len(kinds))}
	for i, k := range kinds {
		s.stats[i] = newSampledStat(k, c)
	}
	return s
}

// record adds n observations of v at now to every stat of the sensor.
func (s *sensor) record(now time.Time, v float64, n int) {
	ms := now.UnixMilli()
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := range s.stats {
		s.stats[i].record(s.c, v, int64(n), ms)
	}
}

// reader returns the function that measures the sensor's stat of kind k.
func (s *sensor) reader(k statKind) func(time.Time) float64 {
	for i := range s.stats {
		if s.stats[i].kind == k {
			return func(now time.Time) float64 {
				s.mu.Lock()
				defer s.mu.Unlock()
				return s.stats[i].measure(s.c, now.UnixMilli())
			}
		}
	}
	panic("metrics: sensor without the stat asked for")
}
