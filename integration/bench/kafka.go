package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"sync/atomic"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
)

// broker holds one admin client for the whole run.
type broker struct {
	bootstrap string
	client    *kgo.Client
	admin     *kadm.Client
}

// topicPartition names one partition.
type topicPartition struct {
	topic     string
	partition int32
}

func newBroker(bootstrap string) (*broker, error) {
	cl, err := kgo.NewClient(kgo.SeedBrokers(strings.Split(bootstrap, ",")...))
	if err != nil {
		return nil, err
	}
	a := kadm.NewClient(cl)
	a.SetTimeoutMillis(30_000)
	return &broker{bootstrap: bootstrap, client: cl, admin: a}, nil
}

func (b *broker) close() { b.client.Close() }

func (b *broker) createTopics(ctx context.Context, partitions int, config map[string]string, topics ...string) error {
	var cfg map[string]*string
	if len(config) > 0 {
		cfg = map[string]*string{}
		for k, v := range config {
			cfg[k] = &v
		}
	}
	res, err := b.admin.CreateTopics(ctx, int32(partitions), 1, cfg, topics...)
	if err != nil {
		return fmt.Errorf("bench: create topics %v: %w", topics, err)
	}
	for _, r := range res.Sorted() {
		if r.Err != nil && !errors.Is(r.Err, kerr.TopicAlreadyExists) {
			return fmt.Errorf("bench: create topic %s: %w", r.Topic, r.Err)
		}
	}
	// An engine started right away may otherwise find no metadata yet.
	deadline := time.Now().Add(30 * time.Second)
	for _, t := range topics {
		for {
			tps, err := b.partitions(t)
			if err == nil && len(tps) == partitions {
				break
			}
			if ctx.Err() != nil || time.Now().After(deadline) {
				return fmt.Errorf("bench: topic %s not visible with %d partitions (have %d, %v)", t, partitions, len(tps), err)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	return nil
}

// deletePrefix deletes every topic whose name starts with one of the
// prefixes, so a long run does not leave the broker holding gigabytes.
func (b *broker) deletePrefix(ctx context.Context, prefixes ...string) {
	mctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	md, err := b.admin.Metadata(mctx)
	if err != nil {
		return
	}
	var del []string
	for t := range md.Topics {
		for _, p := range prefixes {
			if strings.HasPrefix(t, p) {
				del = append(del, t)
				break
			}
		}
	}
	if len(del) > 0 {
		_, _ = b.admin.DeleteTopics(ctx, del...)
	}
}

func (b *broker) partitions(topic string) ([]topicPartition, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	md, err := b.admin.Metadata(ctx, topic)
	if err != nil {
		return nil, err
	}
	tm, ok := md.Topics[topic]
	if !ok {
		return nil, fmt.Errorf("bench: topic %s not in the metadata", topic)
	}
	if tm.Err != nil {
		return nil, tm.Err
	}
	out := make([]topicPartition, 0, len(tm.Partitions))
	for _, p := range tm.Partitions {
		out = append(out, topicPartition{topic, p.Partition})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].partition < out[j].partition })
	return out, nil
}

// groupOffsets returns the group's committed offsets of tps (absent
// where it committed none).
func (b *broker) groupOffsets(ctx context.Context, group string, tps []topicPartition) (map[topicPartition]int64, error) {
	topics := map[string]bool{}
	for _, tp := range tps {
		topics[tp.topic] = true
	}
	res, err := b.admin.FetchOffsetsForTopics(ctx, group, slices.Collect(maps.Keys(topics))...)
	if err != nil {
		return nil, err
	}
	if err := res.Error(); err != nil {
		return nil, err
	}
	out := map[topicPartition]int64{}
	for _, tp := range tps {
		if o, ok := res.Lookup(tp.topic, tp.partition); ok && o.Err == nil && o.At >= 0 {
			out[tp] = o.At
		}
	}
	return out, nil
}

// committed returns the sum of the group's committed offsets over tps
// (partitions without a commit count 0). Inputs start at offset 0, so the
// sum is the records the group has consumed and committed.
func (b *broker) committed(ctx context.Context, group string, tps []topicPartition) (int64, error) {
	offs, err := b.groupOffsets(ctx, group, tps)
	if err != nil {
		return 0, err
	}
	var sum int64
	for _, o := range offs {
		sum += o
	}
	return sum, nil
}

// repartitionTopics returns the partitions of the repartition topics of
// an application.
func (b *broker) repartitionTopics(appID string) ([]topicPartition, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	md, err := b.admin.Metadata(ctx)
	if err != nil {
		return nil, err
	}
	var out []topicPartition
	for name, tm := range md.Topics {
		if !strings.HasPrefix(name, appID+"-") || !strings.HasSuffix(name, "-repartition") {
			continue
		}
		for _, p := range tm.Partitions {
			out = append(out, topicPartition{name, p.Partition})
		}
	}
	return out, nil
}

// drained reports whether group has committed every partition of tps to
// within one offset of its end (the one a final transaction marker may
// take).
func (b *broker) drained(ctx context.Context, group string, tps []topicPartition) (bool, error) {
	topics := map[string]bool{}
	for _, tp := range tps {
		topics[tp.topic] = true
	}
	ends, err := b.admin.ListEndOffsets(ctx, slices.Collect(maps.Keys(topics))...)
	if err != nil {
		return false, err
	}
	if err := ends.Error(); err != nil {
		return false, err
	}
	committed, err := b.groupOffsets(ctx, group, tps)
	if err != nil {
		return false, err
	}
	for _, tp := range tps {
		end, ok := ends.Lookup(tp.topic, tp.partition)
		if !ok {
			return false, fmt.Errorf("bench: no end offset of %s-%d", tp.topic, tp.partition)
		}
		if end.Offset-committed[tp] > 1 {
			return false, nil
		}
	}
	return true, nil
}

// record is one generated input record.
type record struct {
	key, value []byte
	// at, when stamped, is the record's timestamp as an offset into the
	// topic's span of event time; unstamped records carry the wall clock
	// at send time.
	at      time.Duration
	stamped bool
}

// produce writes n generated records to topic as fast as the broker takes
// them, keyed with Java's default partitioner, each stamped with the wall
// clock at send time (or, for stamped records, with its offset from a base
// that puts the last record at the wall clock), and waits for every
// acknowledgement.
func produce(ctx context.Context, bootstrap, topic string, n int, gen func(i int) record) error {
	// franz-go's default partitioner hashes keys with murmur2 as Java's
	// does; its producer is idempotent unless told otherwise.
	p, err := kgo.NewClient(kgo.SeedBrokers(strings.Split(bootstrap, ",")...),
		kgo.DefaultProduceTopic(topic),
		kgo.ProducerLinger(20*time.Millisecond),
		kgo.ProducerBatchMaxBytes(1<<20),
		kgo.MaxBufferedRecords(1_000_000),
		kgo.MaxBufferedBytes(256<<20),
	)
	if err != nil {
		return err
	}
	defer p.Close()
	var failed atomic.Pointer[error]
	promise := func(_ *kgo.Record, err error) {
		if err != nil {
			failed.CompareAndSwap(nil, &err)
		}
	}
	base := time.Now()
	if n > 0 {
		if last := gen(n - 1); last.stamped {
			base = base.Add(-last.at)
		}
	}
	for i := 0; i < n; i++ {
		r := gen(i)
		ts := time.Now()
		if r.stamped {
			ts = base.Add(r.at)
		}
		// Produce blocks while the buffer is full, until ctx ends.
		p.Produce(ctx, &kgo.Record{Key: r.key, Value: r.value, Timestamp: ts}, promise)
	}
	if err := p.Flush(ctx); err != nil {
		return err
	}
	if err := failed.Load(); err != nil {
		return fmt.Errorf("bench: producing to %s: %w", topic, *err)
	}
	return nil
}

// countRecords reads topic read_committed from its start and returns how
// many records it holds, and how many of them have a value ending in
// "+null" (a join result without a partner), once the reads have reached
// every partition's end (less the one offset a trailing transaction marker
// takes) or nothing more arrived for idle.
func countRecords(ctx context.Context, admin *kadm.Client, bootstrap, topic string, idle time.Duration) (n, nulls int64, err error) {
	ends, err := admin.ListEndOffsets(ctx, topic)
	if err != nil {
		return 0, 0, err
	}
	if err := ends.Error(); err != nil {
		return 0, 0, err
	}
	want := map[int32]int64{}
	ends.Each(func(o kadm.ListedOffset) {
		if o.Offset > 0 {
			want[o.Partition] = o.Offset
		}
	})
	if len(want) == 0 {
		return 0, 0, nil
	}
	c, err := kgo.NewClient(kgo.SeedBrokers(strings.Split(bootstrap, ",")...),
		kgo.ConsumeTopics(topic),
		kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()),
		kgo.FetchIsolationLevel(kgo.ReadCommitted()),
	)
	if err != nil {
		return 0, 0, err
	}
	defer c.Close()
	next := map[int32]int64{}
	for {
		done := true
		for p, end := range want {
			if next[p] < end-1 {
				done = false
			}
		}
		if done {
			return n, nulls, nil
		}
		pctx, cancel := context.WithTimeout(ctx, idle)
		fetches := c.PollFetches(pctx)
		cancel()
		if ctx.Err() != nil {
			return n, nulls, ctx.Err()
		}
		got := 0
		fetches.EachRecord(func(r *kgo.Record) {
			got++
			next[r.Partition] = r.Offset + 1
			if bytes.HasSuffix(r.Value, []byte("+null")) {
				nulls++
			}
		})
		n += int64(got)
		if got == 0 {
			return n, nulls, nil // the rest is aborted records and markers
		}
	}
}

// latencyProbe offers records at a fixed rate and measures, for every
// output record visible to a read_committed consumer, the time since its
// input record's timestamp (the engines forward the input timestamp).
type latencyProbe struct {
	bootstrap     string
	input, output string
	rate          int           // input records per second
	duration      time.Duration // of offered load
	warmup        time.Duration // outputs of inputs sent earlier are not counted
	gen           func(i int) record
	outputsPer    func(record) int // output records each input yields
}

// probeResult is what one latencyProbe run saw.
type probeResult struct {
	lat       []time.Duration // of the counted outputs
	want, got int             // outputs expected and seen in all
	offered   float64         // input records per second actually sent
	drained   time.Duration   // from the end of the load to the end of the read
}

// run offers the load and reads the output until every expected output
// arrived or 30 s after the end of the load.
func (l *latencyProbe) run(ctx context.Context) (res probeResult, err error) {
	seeds := kgo.SeedBrokers(strings.Split(l.bootstrap, ",")...)
	c, err := kgo.NewClient(seeds,
		kgo.ConsumeTopics(l.output),
		kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()),
		kgo.FetchIsolationLevel(kgo.ReadCommitted()),
		// franz-go's shortest fetch wait: a read sees an output within 10 ms.
		kgo.FetchMaxWait(10*time.Millisecond),
	)
	if err != nil {
		return res, err
	}
	defer c.Close()
	p, err := kgo.NewClient(seeds,
		kgo.DefaultProduceTopic(l.input),
		kgo.ProducerLinger(time.Millisecond),
	)
	if err != nil {
		return res, err
	}
	defer p.Close()

	var wantN atomic.Int64
	var failed atomic.Pointer[error]
	promise := func(_ *kgo.Record, err error) {
		if err != nil {
			failed.CompareAndSwap(nil, &err)
		}
	}
	type sentResult struct {
		n   int
		err error
	}
	sent := make(chan sentResult, 1)
	begin := time.Now()
	countFrom := begin.Add(l.warmup)
	go func() {
		const tick = 10 * time.Millisecond
		t := time.NewTicker(tick)
		defer t.Stop()
		i := 0
		for now := range t.C {
			if now.Sub(begin) >= l.duration || ctx.Err() != nil {
				break
			}
			due := int(float64(l.rate) * now.Sub(begin).Seconds())
			for ; i < due; i++ {
				r := l.gen(i)
				p.Produce(ctx, &kgo.Record{Key: r.key, Value: r.value, Timestamp: time.Now()}, promise)
				wantN.Add(int64(l.outputsPer(r)))
			}
		}
		fctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		err := p.Flush(fctx)
		if perr := failed.Load(); perr != nil {
			err = *perr
		}
		sent <- sentResult{i, err}
	}()
	var done bool
	var drainUntil, loadEnd time.Time
	for {
		if !done {
			select {
			case s := <-sent:
				if s.err != nil {
					return res, fmt.Errorf("bench: offering load to %s: %w", l.input, s.err)
				}
				done = true
				res.offered = float64(s.n) / l.duration.Seconds()
				loadEnd = time.Now()
				drainUntil = loadEnd.Add(30 * time.Second)
			default:
			}
		}
		res.want = int(wantN.Load())
		if done && (res.got >= res.want || time.Now().After(drainUntil)) {
			res.drained = time.Since(loadEnd)
			return res, nil
		}
		if ctx.Err() != nil {
			return res, ctx.Err()
		}
		pctx, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
		fetches := c.PollFetches(pctx)
		cancel()
		now := time.Now()
		fetches.EachRecord(func(m *kgo.Record) {
			res.got++
			if !m.Timestamp.Before(countFrom) {
				res.lat = append(res.lat, now.Sub(m.Timestamp))
			}
		})
	}
}
