package main

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/confluentinc/confluent-kafka-go/v2/kafka"
)

// broker holds one admin client for the whole run.
type broker struct {
	bootstrap string
	admin     *kafka.AdminClient
}

func newBroker(bootstrap string) (*broker, error) {
	a, err := kafka.NewAdminClient(&kafka.ConfigMap{"bootstrap.servers": bootstrap})
	if err != nil {
		return nil, err
	}
	return &broker{bootstrap: bootstrap, admin: a}, nil
}

func (b *broker) close() { b.admin.Close() }

func (b *broker) createTopics(ctx context.Context, partitions int, config map[string]string, topics ...string) error {
	specs := make([]kafka.TopicSpecification, 0, len(topics))
	for _, t := range topics {
		specs = append(specs, kafka.TopicSpecification{Topic: t, NumPartitions: partitions, ReplicationFactor: 1, Config: config})
	}
	res, err := b.admin.CreateTopics(ctx, specs, kafka.SetAdminOperationTimeout(30*time.Second))
	if err != nil {
		return fmt.Errorf("bench: create topics %v: %w", topics, err)
	}
	for _, r := range res {
		if r.Error.Code() != kafka.ErrNoError && r.Error.Code() != kafka.ErrTopicAlreadyExists {
			return fmt.Errorf("bench: create topic %s: %w", r.Topic, r.Error)
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
	md, err := b.admin.GetMetadata(nil, true, 10000)
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
		_, _ = b.admin.DeleteTopics(ctx, del, kafka.SetAdminOperationTimeout(30*time.Second))
	}
}

func (b *broker) partitions(topic string) ([]kafka.TopicPartition, error) {
	md, err := b.admin.GetMetadata(&topic, false, 10000)
	if err != nil {
		return nil, err
	}
	tm := md.Topics[topic]
	if tm.Error.Code() != kafka.ErrNoError {
		return nil, tm.Error
	}
	out := make([]kafka.TopicPartition, 0, len(tm.Partitions))
	for _, p := range tm.Partitions {
		out = append(out, kafka.TopicPartition{Topic: &topic, Partition: p.ID})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Partition < out[j].Partition })
	return out, nil
}

// committed returns the sum of the group's committed offsets over tps
// (partitions without a commit count 0). Inputs start at offset 0, so the
// sum is the records the group has consumed and committed.
func (b *broker) committed(ctx context.Context, group string, tps []kafka.TopicPartition) (int64, error) {
	res, err := b.admin.ListConsumerGroupOffsets(ctx, []kafka.ConsumerGroupTopicPartitions{{Group: group, Partitions: tps}})
	if err != nil {
		return 0, err
	}
	var sum int64
	for _, g := range res.ConsumerGroupsTopicPartitions {
		for _, tp := range g.Partitions {
			if tp.Error == nil && tp.Offset >= 0 {
				sum += int64(tp.Offset)
			}
		}
	}
	return sum, nil
}

// repartitionTopics returns the partitions of the repartition topics of
// an application.
func (b *broker) repartitionTopics(appID string) ([]kafka.TopicPartition, error) {
	md, err := b.admin.GetMetadata(nil, true, 10000)
	if err != nil {
		return nil, err
	}
	var out []kafka.TopicPartition
	for name, tm := range md.Topics {
		if !strings.HasPrefix(name, appID+"-") || !strings.HasSuffix(name, "-repartition") {
			continue
		}
		for _, p := range tm.Partitions {
			out = append(out, kafka.TopicPartition{Topic: &tm.Topic, Partition: p.ID})
		}
	}
	return out, nil
}

// drained reports whether group has committed every partition of tps to
// within one offset of its end (the one a final transaction marker may
// take).
func (b *broker) drained(ctx context.Context, group string, tps []kafka.TopicPartition) (bool, error) {
	spec := map[kafka.TopicPartition]kafka.OffsetSpec{}
	for _, tp := range tps {
		spec[kafka.TopicPartition{Topic: tp.Topic, Partition: tp.Partition}] = kafka.LatestOffsetSpec
	}
	ends, err := b.admin.ListOffsets(ctx, spec)
	if err != nil {
		return false, err
	}
	res, err := b.admin.ListConsumerGroupOffsets(ctx, []kafka.ConsumerGroupTopicPartitions{{Group: group, Partitions: tps}})
	if err != nil {
		return false, err
	}
	committed := map[string]int64{}
	for _, g := range res.ConsumerGroupsTopicPartitions {
		for _, tp := range g.Partitions {
			if tp.Error == nil && tp.Offset >= 0 {
				committed[fmt.Sprintf("%s/%d", *tp.Topic, tp.Partition)] = int64(tp.Offset)
			}
		}
	}
	for tp, info := range ends.ResultInfos {
		if info.Error.Code() != kafka.ErrNoError {
			return false, info.Error
		}
		if int64(info.Offset)-committed[fmt.Sprintf("%s/%d", *tp.Topic, tp.Partition)] > 1 {
			return false, nil
		}
	}
	return true, nil
}

// record is one generated input record.
type record struct {
	key, value []byte
}

// produce writes n generated records to topic as fast as the broker takes
// them, keyed with Java's default partitioner, each stamped with the wall
// clock at send time, and waits for every acknowledgement.
func produce(ctx context.Context, bootstrap, topic string, n int, gen func(i int) record) error {
	p, err := kafka.NewProducer(&kafka.ConfigMap{
		"bootstrap.servers":            bootstrap,
		"enable.idempotence":           true,
		"linger.ms":                    20,
		"batch.size":                   1 << 20,
		"queue.buffering.max.messages": 1_000_000,
		"queue.buffering.max.kbytes":   256 << 10,
		"partitioner":                  "murmur2_random",
	})
	if err != nil {
		return err
	}
	var failed atomic.Pointer[error]
	var acked atomic.Int64
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for ev := range p.Events() {
			if m, ok := ev.(*kafka.Message); ok {
				if m.TopicPartition.Error != nil {
					err := m.TopicPartition.Error
					failed.CompareAndSwap(nil, &err)
				}
				acked.Add(1)
			}
		}
	}()
	defer func() {
		p.Close()
		wg.Wait()
	}()
	for i := 0; i < n; i++ {
		r := gen(i)
		m := &kafka.Message{TopicPartition: kafka.TopicPartition{Topic: &topic, Partition: kafka.PartitionAny},
			Key: r.key, Value: r.value, Timestamp: time.Now()}
		for {
			err := p.Produce(m, nil)
			if err == nil {
				break
			}
			if kerr, ok := err.(kafka.Error); !ok || kerr.Code() != kafka.ErrQueueFull {
				return err
			}
			if ctx.Err() != nil {
				return ctx.Err()
			}
			time.Sleep(time.Millisecond)
		}
	}
	for p.Flush(1000) > 0 {
		if ctx.Err() != nil {
			return ctx.Err()
		}
	}
	if err := failed.Load(); err != nil {
		return fmt.Errorf("bench: producing to %s: %w", topic, *err)
	}
	return nil
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

// run returns the latencies of the counted outputs, and how many outputs
// were expected and seen in all.
func (l *latencyProbe) run(ctx context.Context) (lat []time.Duration, want, got int, err error) {
	c, err := kafka.NewConsumer(&kafka.ConfigMap{
		"bootstrap.servers":  l.bootstrap,
		"group.id":           "bench-latency-" + l.output,
		"isolation.level":    "read_committed",
		"auto.offset.reset":  "earliest",
		"enable.auto.commit": false,
		"fetch.wait.max.ms":  5,
	})
	if err != nil {
		return nil, 0, 0, err
	}
	defer c.Close()
	if err := c.Subscribe(l.output, nil); err != nil {
		return nil, 0, 0, err
	}
	p, err := kafka.NewProducer(&kafka.ConfigMap{
		"bootstrap.servers":  l.bootstrap,
		"enable.idempotence": true,
		"linger.ms":          1,
		"partitioner":        "murmur2_random",
	})
	if err != nil {
		return nil, 0, 0, err
	}
	go func() {
		for range p.Events() {
		}
	}()
	defer p.Close()

	var wantN atomic.Int64
	sent := make(chan error, 1)
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
				if err := p.Produce(&kafka.Message{TopicPartition: kafka.TopicPartition{Topic: &l.input, Partition: kafka.PartitionAny},
					Key: r.key, Value: r.value, Timestamp: time.Now()}, nil); err != nil {
					sent <- err
					return
				}
				wantN.Add(int64(l.outputsPer(r)))
			}
		}
		p.Flush(10_000)
		sent <- nil
	}()
	var done bool
	var drainUntil time.Time
	for {
		if !done {
			select {
			case err := <-sent:
				if err != nil {
					return nil, 0, 0, err
				}
				done = true
				drainUntil = time.Now().Add(30 * time.Second)
			default:
			}
		}
		if done && (int64(got) >= wantN.Load() || time.Now().After(drainUntil)) {
			return lat, int(wantN.Load()), got, nil
		}
		if ctx.Err() != nil {
			return lat, int(wantN.Load()), got, ctx.Err()
		}
		if m, ok := c.Poll(20).(*kafka.Message); ok {
			got++
			if !m.Timestamp.Before(countFrom) {
				lat = append(lat, time.Since(m.Timestamp))
			}
		}
	}
}
