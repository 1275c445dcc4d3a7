// Package shadow compares what a Kafka Streams application writes to its
// output topics with what StoatFlow's twin of its topology writes to shadow
// copies of them, key by key: the sidecar's shadow mode. The comparison
// counts matched, mismatched and missing records (or keys), and keeps the
// first divergences with both values.
package shadow

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"
)

// Mode is how the two sides are compared.
type Mode int

// The comparison modes.
const (
	// Sequence compares the exact sequence of updates per key: the i-th
	// record of a key on one side with the i-th on the other. For
	// applications without record caching (statestore.cache.max.bytes=0),
	// where both engines forward every update.
	Sequence Mode = iota
	// Latest compares the latest value per key (a windowed key is its key
	// and window) once both sides have been quiet for the grace period: with
	// caching, intermediate updates legitimately differ.
	Latest
)

// String returns the mode's flag value.
func (m Mode) String() string {
	if m == Latest {
		return "latest"
	}
	return "sequence"
}

// ParseMode reads a --mode value.
func ParseMode(s string) (Mode, error) {
	switch s {
	case "sequence":
		return Sequence, nil
	case "latest":
		return Latest, nil
	}
	return 0, fmt.Errorf("shadow: mode %q: want sequence (every update per key) or latest (the latest value per key or window)", s)
}

// Side is the engine a record comes from.
type Side int

// The two sides.
const (
	KafkaStreams Side = iota
	StoatFlow
)

// String names the side as the report does.
func (s Side) String() string {
	if s == StoatFlow {
		return "stoatflow"
	}
	return "kafka-streams"
}

// Record is one output record read from either side. Topic is the Kafka
// Streams application's output topic (a shadow topic is reported under the
// topic it shadows). A nil Value is a tombstone, distinct from an empty one.
type Record struct {
	Topic     string
	Partition int32
	Offset    int64
	Key       []byte
	Value     []byte
}

// Divergence is one mismatched or missing record (or key).
type Divergence struct {
	// Kind is "mismatch" or "missing".
	Kind string `json:"kind"`
	// Topic is the Kafka Streams application's output topic.
	Topic string `json:"topic"`
	Key   string `json:"key"`
	// KafkaStreams and StoatFlow are the two sides' records; nil where the
	// side has none.
	KafkaStreams *Seen `json:"kafka_streams"`
	StoatFlow    *Seen `json:"stoatflow"`
	// At is when it was found.
	At time.Time `json:"at"`
}

// Seen is one side's record in a Divergence.
type Seen struct {
	Partition int32  `json:"partition"`
	Offset    int64  `json:"offset"`
	Value     string `json:"value"`
}

// String is the divergence in one line, for the log and the summary.
func (d Divergence) String() string {
	side := func(s *Seen) string {
		if s == nil {
			return "none"
		}
		return fmt.Sprintf("%s (partition %d, offset %d)", s.Value, s.Partition, s.Offset)
	}
	return fmt.Sprintf("%s: topic %s key %s: kafka-streams %s, stoatflow %s", d.Kind, d.Topic, d.Key, side(d.KafkaStreams), side(d.StoatFlow))
}

// Counts are a comparison's totals. In Sequence mode they count records;
// in Latest mode, keys (each key in the state its last check found).
type Counts struct {
	Matched    int64 `json:"matched"`
	Mismatched int64 `json:"mismatched"`
	Missing    int64 `json:"missing"`
	// Pending are records (keys) not compared yet: waiting for the other
	// side, or for the grace period.
	Pending int64 `json:"pending"`
	// Read are the records read per side.
	ReadKafkaStreams int64 `json:"read_kafka_streams"`
	ReadStoatFlow    int64 `json:"read_stoatflow"`
}

// Report is a comparison's state: its counts per topic and in all, and its
// first divergences.
type Report struct {
	Mode        string            `json:"mode"`
	Total       Counts            `json:"total"`
	Topics      map[string]Counts `json:"topics"`
	Divergences []Divergence      `json:"divergences"`
	// DivergencesDropped counts the divergences past the kept ones.
	DivergencesDropped int64 `json:"divergences_dropped"`
}

// Options configure a Comparer.
type Options struct {
	Mode Mode
	// Grace is how long a record waits for its counterpart (Sequence), or a
	// key stays quiet on both sides before it is compared (Latest). Default
	// 30 s.
	Grace time.Duration
	// MaxDivergences bounds the divergences kept (default 100).
	MaxDivergences int
	// OnDivergence, if set, is called (outside the lock) with every
	// divergence kept, for the log.
	OnDivergence func(Divergence)
}

// Comparer compares the two sides' records. Its methods are safe for
// concurrent use.
type Comparer struct {
	opts Options
	mu   struct {
		sync.Mutex
		keys        map[keyID]*keyState
		topics      map[string]*Counts
		divergences []Divergence
		dropped     int64
	}
}

type keyID struct{ topic, key string }

// keyState is one key's records: in Sequence mode the records waiting for
// their counterpart, in Latest mode the latest per side and the key's state.
type keyState struct {
	pending [2][]pendingRecord
	latest  [2]*pendingRecord
	updated time.Time
	state   keyVerdict
}

type pendingRecord struct {
	rec Record
	at  time.Time
}

type keyVerdict int

const (
	unchecked keyVerdict = iota
	matched
	mismatched
	missing
)

// ErrSide is returned for a side other than KafkaStreams or StoatFlow.
var ErrSide = errors.New("shadow: unknown side")

// NewComparer returns a comparer with opts.
func NewComparer(opts Options) *Comparer {
	if opts.Grace <= 0 {
		opts.Grace = 30 * time.Second
	}
	if opts.MaxDivergences <= 0 {
		opts.MaxDivergences = 100
	}
	c := &Comparer{opts: opts}
	c.mu.keys = map[keyID]*keyState{}
	c.mu.topics = map[string]*Counts{}
	return c
}

// Add compares or queues one record read from side at now.
func (c *Comparer) Add(side Side, r Record, now time.Time) error {
	if side != KafkaStreams && side != StoatFlow {
		return ErrSide
	}
	var found []Divergence
	c.mu.Lock()
	counts := c.countsLocked(r.Topic)
	if side == KafkaStreams {
		counts.ReadKafkaStreams++
	} else {
		counts.ReadStoatFlow++
	}
	id := keyID{r.Topic, string(r.Key)}
	ks := c.mu.keys[id]
	if ks == nil {
		ks = &keyState{}
		c.mu.keys[id] = ks
		if c.opts.Mode == Latest {
			counts.Pending++ // until its first verdict
		}
	}
	other := 1 - side
	switch c.opts.Mode {
	case Sequence:
		if q := ks.pending[other]; len(q) > 0 {
			o := q[0]
			ks.pending[other] = q[1:]
			counts.Pending--
			a, b := r, o.rec
			if side == StoatFlow {
				a, b = b, a
			}
			if sameValue(a.Value, b.Value) {
				counts.Matched++
			} else {
				counts.Mismatched++
				found = c.keepLocked(found, divergence("mismatch", &a, &b, now))
			}
		} else {
			ks.pending[side] = append(ks.pending[side], pendingRecord{r, now})
			counts.Pending++
		}
		if len(ks.pending[0]) == 0 && len(ks.pending[1]) == 0 {
			delete(c.mu.keys, id)
		}
	case Latest:
		ks.latest[side] = &pendingRecord{r, now}
		ks.updated = now
	}
	c.mu.Unlock()
	c.report(found)
	return nil
}

// Check compares what has waited past the grace period at now: in Sequence
// mode a record still without its counterpart is missing on the other
// side; in Latest mode a key quiet on both sides gets its verdict.
func (c *Comparer) Check(now time.Time) { c.check(now, false) }

// Finish compares everything as if the grace period had passed, for the
// summary when the shadow stops, and returns the report.
func (c *Comparer) Finish(now time.Time) Report {
	c.check(now, true)
	return c.Report()
}

func (c *Comparer) check(now time.Time, all bool) {
	var found []Divergence
	c.mu.Lock()
	for id, ks := range c.mu.keys {
		counts := c.countsLocked(id.topic)
		switch c.opts.Mode {
		case Sequence:
			for side := range ks.pending {
				q := ks.pending[side]
				for len(q) > 0 && (all || now.Sub(q[0].at) >= c.opts.Grace) {
					counts.Missing++
					counts.Pending--
					rec := q[0].rec
					if Side(side) == KafkaStreams {
						found = c.keepLocked(found, divergence("missing", &rec, nil, now))
					} else {
						found = c.keepLocked(found, divergence("missing", nil, &rec, now))
					}
					q = q[1:]
				}
				ks.pending[side] = q
			}
			if len(ks.pending[0]) == 0 && len(ks.pending[1]) == 0 {
				delete(c.mu.keys, id)
			}
		case Latest:
			if !all && now.Sub(ks.updated) < c.opts.Grace {
				continue
			}
			a, b := ks.latest[KafkaStreams], ks.latest[StoatFlow]
			verdict := matched
			switch {
			case a == nil || b == nil:
				verdict = missing
			case !sameValue(a.rec.Value, b.rec.Value):
				verdict = mismatched
			}
			if verdict != ks.state {
				if ks.state == unchecked {
					counts.Pending--
				}
				c.tallyLocked(counts, ks.state, -1)
				c.tallyLocked(counts, verdict, 1)
				if verdict != matched {
					var ra, rb *Record
					if a != nil {
						ra = &a.rec
					}
					if b != nil {
						rb = &b.rec
					}
					kind := "mismatch"
					if verdict == missing {
						kind = "missing"
					}
					found = c.keepLocked(found, divergence(kind, ra, rb, now))
				}
				ks.state = verdict
			}
		}
	}
	c.mu.Unlock()
	c.report(found)
}

func (c *Comparer) tallyLocked(counts *Counts, v keyVerdict, d int64) {
	switch v {
	case matched:
		counts.Matched += d
	case mismatched:
		counts.Mismatched += d
	case missing:
		counts.Missing += d
	}
}

func (c *Comparer) countsLocked(topic string) *Counts {
	n := c.mu.topics[topic]
	if n == nil {
		n = &Counts{}
		c.mu.topics[topic] = n
	}
	return n
}

// keepLocked keeps d among the first divergences, or counts it dropped.
func (c *Comparer) keepLocked(found []Divergence, d Divergence) []Divergence {
	if len(c.mu.divergences) >= c.opts.MaxDivergences {
		c.mu.dropped++
		return found
	}
	c.mu.divergences = append(c.mu.divergences, d)
	return append(found, d)
}

func (c *Comparer) report(found []Divergence) {
	if c.opts.OnDivergence == nil {
		return
	}
	for _, d := range found {
		c.opts.OnDivergence(d)
	}
}

// Counts returns topic's counts so far (cheap: for metrics).
func (c *Comparer) Counts(topic string) Counts {
	c.mu.Lock()
	defer c.mu.Unlock()
	if n := c.mu.topics[topic]; n != nil {
		return *n
	}
	return Counts{}
}

// Report returns the counts and the divergences kept so far.
func (c *Comparer) Report() Report {
	c.mu.Lock()
	defer c.mu.Unlock()
	r := Report{Mode: c.opts.Mode.String(), Topics: map[string]Counts{}, Divergences: append([]Divergence(nil), c.mu.divergences...),
		DivergencesDropped: c.mu.dropped}
	for t, n := range c.mu.topics {
		cn := *n
		r.Topics[t] = cn
		r.Total.Matched += cn.Matched
		r.Total.Mismatched += cn.Mismatched
		r.Total.Missing += cn.Missing
		r.Total.Pending += cn.Pending
		r.Total.ReadKafkaStreams += cn.ReadKafkaStreams
		r.Total.ReadStoatFlow += cn.ReadStoatFlow
	}
	return r
}

// Summary is the report in a few lines, for the log when the shadow stops.
func (r Report) Summary() string {
	var b strings.Builder
	fmt.Fprintf(&b, "shadow comparison (%s): %d matched, %d mismatched, %d missing, %d pending; read %d records from Kafka Streams, %d from StoatFlow\n",
		r.Mode, r.Total.Matched, r.Total.Mismatched, r.Total.Missing, r.Total.Pending, r.Total.ReadKafkaStreams, r.Total.ReadStoatFlow)
	topics := make([]string, 0, len(r.Topics))
	for t := range r.Topics {
		topics = append(topics, t)
	}
	sort.Strings(topics)
	for _, t := range topics {
		n := r.Topics[t]
		fmt.Fprintf(&b, "  topic %s: %d matched, %d mismatched, %d missing, %d pending\n", t, n.Matched, n.Mismatched, n.Missing, n.Pending)
	}
	for i, d := range r.Divergences {
		if i == 10 {
			fmt.Fprintf(&b, "  ... %d more divergences (GET /shadow)\n", len(r.Divergences)-i+int(r.DivergencesDropped))
			break
		}
		fmt.Fprintf(&b, "  %s\n", d)
	}
	return b.String()
}

// sameValue compares two values, a tombstone (nil) equal only to a
// tombstone.
func sameValue(a, b []byte) bool {
	if (a == nil) != (b == nil) {
		return false
	}
	return bytes.Equal(a, b)
}

func divergence(kind string, ks, sf *Record, now time.Time) Divergence {
	d := Divergence{Kind: kind, At: now}
	for _, r := range []*Record{ks, sf} {
		if r != nil {
			d.Topic, d.Key = r.Topic, Printable(r.Key)
		}
	}
	if ks != nil {
		d.KafkaStreams = &Seen{Partition: ks.Partition, Offset: ks.Offset, Value: Printable(ks.Value)}
	}
	if sf != nil {
		d.StoatFlow = &Seen{Partition: sf.Partition, Offset: sf.Offset, Value: Printable(sf.Value)}
	}
	return d
}

// Printable renders record bytes for a person: "null" for a tombstone, the
// text quoted when it is printable UTF-8, else 0x and hex (a Long count is
// eight bytes of big-endian binary).
func Printable(b []byte) string {
	if b == nil {
		return "null"
	}
	if utf8.Valid(b) && strings.IndexFunc(string(b), func(r rune) bool { return !unicode.IsPrint(r) }) < 0 {
		return fmt.Sprintf("%q", b)
	}
	return "0x" + hex.EncodeToString(b)
}
