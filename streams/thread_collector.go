package streams

import (
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/txn"
)

// collector sends a task's sink and changelog records through the thread's
// producer. Sink records without a fixed partition go where Kafka's default
// partitioner puts their partition key; records with a null key go to one
// partition of the topic until about a batch (stickyBatchBytes) went there,
// then to another chosen at random, as the Java producer's sticky
// partitioner spreads them.
type collector struct {
	t      *streamThread
	origin *txn.Origin // Tag: the *activeTask
}

// stickyBatchBytes is how many bytes of null-key records go to one
// partition before the next is chosen: the Java producer's default
// batch.size, the unit its sticky partitioner switches at.
const stickyBatchBytes = 16384

type stickyPartition struct {
	partition int32
	bytes     int
}

func (c collector) Send(r kstreams.ProducerRecord) error {
	var hs []txn.Header
	for _, h := range r.Headers {
		hs = append(hs, txn.Header{Key: h.Key, Value: h.Value})
	}
	partition := r.Partition
	if partition < 0 {
		n, err := c.t.partitions(r.Topic)
		if err != nil {
			return err
		}
		if r.PartitionKey != nil {
			partition = kstreams.DefaultPartition(r.PartitionKey, n)
		} else {
			partition = c.t.stickyPartition(r.Topic, n, len(r.Key)+len(r.Value))
		}
	}
	if cp := c.t.s.capture; cp != nil && cp.Topics(r.Topic) {
		c.t.captured = append(c.t.captured, CapturedRecord{Topic: r.Topic, Partition: partition, Key: r.Key, Value: r.Value,
			Timestamp: time.UnixMilli(r.Timestamp), Headers: r.Headers})
		return nil
	}
	return c.t.producer.SendFrom(c.t.ctx, c.origin, r.Topic, partition, r.Key, r.Value, r.Timestamp, hs)
}

// deliverCaptured hands the committed epoch's captured records to the
// Capture.
func (t *streamThread) deliverCaptured() {
	if len(t.captured) == 0 {
		return
	}
	recs := t.captured
	t.captured = nil
	t.s.capture.Deliver(recs)
}

// Partitions implements kstreams.PartitionCounter for sinks with a
// StreamPartitioner.
func (c collector) Partitions(topic string) (int, error) { return c.t.partitions(topic) }

// stickyPartition picks the partition of a null-key record of size bytes.
func (t *streamThread) stickyPartition(topic string, n, size int) int32 {
	sp := t.sticky[topic]
	if sp == nil || sp.bytes >= stickyBatchBytes || int(sp.partition) >= n {
		next := int32(rand.IntN(n))
		if sp != nil && n > 1 && next == sp.partition {
			next = (next + 1) % int32(n)
		}
		sp = &stickyPartition{partition: next}
		t.sticky[topic] = sp
	}
	sp.bytes += size
	return sp.partition
}

// sinkMetadataWait bounds the metadata look-up of a sink topic on the
// processing path.
const sinkMetadataWait = 10 * time.Second

// missingSinkWait is how long a sink topic the metadata does not show is
// looked up again before it counts as missing.
const missingSinkWait = 3 * time.Second

// partitions returns a topic's partition count, from metadata cached for
// the thread's lifetime (a partition count change needs a restart, as in
// Kafka Streams).
func (t *streamThread) partitions(topic string) (int, error) {
	if n, ok := t.partCount[topic]; ok {
		return n, nil
	}
	defer t.doing("reading the metadata of sink topic " + topic)()
	var n int
	// A topic created a moment ago (a repartition topic this instance
	// created at start) can still be unknown to the broker that answers:
	// a missing topic is looked up again for a while before it counts as
	// missing.
	for wait := time.Now().Add(missingSinkWait); ; {
		var err error
		if n, err = topicPartitions(t.ctx, t.producer.Client(), topic, "sink", sinkMetadataWait); err != nil {
			return 0, fmt.Errorf("streams: %w", err)
		}
		if n > 0 || time.Now().After(wait) || t.ctx.Err() != nil {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if n == 0 {
		return 0, fmt.Errorf("streams: sink topic %s is missing (create it before starting the application)", topic)
	}
	t.partCount[topic] = n
	return n, nil
}
