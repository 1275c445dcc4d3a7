// Package testkafka gives tests the address of the real Apache Kafka broker
// that `make kafka-up` starts, fresh topic names, and small produce,
// read_committed consume and administration helpers built on franz-go.
//
// Tests find the broker through one environment variable,
// STOATFLOW_TEST_BOOTSTRAP. Without it they skip with a message saying how to
// start one, except under CI=true, where a missing broker is a failure: a
// skipped integration test is not a passing one.
package testkafka

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/stoatflow/stoatflow/kstreams"
)

// EnvBootstrap names the environment variable holding the test broker's
// bootstrap address.
const EnvBootstrap = "STOATFLOW_TEST_BOOTSTRAP"

// Bootstrap returns the test broker's address, or skips the test when none is
// configured (fails it under CI=true).
func Bootstrap(t testing.TB) string {
	t.Helper()
	addr := strings.TrimSpace(os.Getenv(EnvBootstrap))
	if addr != "" {
		return addr
	}
	msg := "no Kafka broker: run `make kafka-up` and set " + EnvBootstrap + "=127.0.0.1:9092 (make test does both)"
	if os.Getenv("CI") == "true" {
		t.Fatal(msg + "; under CI=true a missing broker is a failure")
	}
	t.Skip(msg)
	return ""
}

var unsafeTopicChars = regexp.MustCompile(`[^a-zA-Z0-9._-]+`)

// Topic returns a topic name no earlier run has used: the test's name, the
// given role and a random suffix.
func Topic(t testing.TB, role string) string {
	t.Helper()
	var b [4]byte
	if _, err := rand.Read(b[:]); err != nil {
		t.Fatal(err)
	}
	name := unsafeTopicChars.ReplaceAllString(t.Name(), "-")
	if len(name) > 120 {
		name = name[:120]
	}
	return fmt.Sprintf("%s-%s-%s", name, role, hex.EncodeToString(b[:]))
}

// NewClient returns a franz-go client for bootstrap with opts appended.
func NewClient(bootstrap string, opts ...kgo.Opt) (*kgo.Client, error) {
	cl, err := kgo.NewClient(append([]kgo.Opt{kgo.SeedBrokers(strings.Split(bootstrap, ",")...)}, opts...)...)
	if err != nil {
		return nil, fmt.Errorf("testkafka: client for %s: %w", bootstrap, err)
	}
	return cl, nil
}

// Admin returns an admin client for bootstrap; the test's cleanup closes it.
func Admin(t testing.TB, bootstrap string) *kadm.Client {
	t.Helper()
	cl, err := NewClient(bootstrap)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cl.Close)
	return kadm.NewClient(cl)
}

// CreateTopics creates topics with the given partition count (replication
// factor 1) and waits until the broker reports them.
func CreateTopics(t testing.TB, bootstrap string, partitions int, topics ...string) {
	t.Helper()
	if err := CreateTopicsErr(bootstrap, partitions, topics...); err != nil {
		t.Fatal(err)
	}
}

// CreateTopicsErr is CreateTopics for code without a testing.TB: an existing
// topic is no error.
func CreateTopicsErr(bootstrap string, partitions int, topics ...string) error {
	cl, err := NewClient(bootstrap)
	if err != nil {
		return err
	}
	defer cl.Close()
	admin := kadm.NewClient(cl)
	admin.SetTimeoutMillis(20_000)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := admin.CreateTopics(ctx, int32(partitions), 1, nil, topics...)
	if err != nil {
		return fmt.Errorf("testkafka: create topics %v: %w", topics, err)
	}
	for _, r := range res.Sorted() {
		if r.Err != nil && !errors.Is(r.Err, kerr.TopicAlreadyExists) {
			return fmt.Errorf("testkafka: create topic %s: %w", r.Topic, r.Err)
		}
	}
	// The broker answers CreateTopics before every partition has a leader
	// in its metadata: wait until each reports all its partitions led.
	for {
		md, err := admin.Metadata(ctx, topics...)
		if err == nil {
			ready := true
			for _, tp := range topics {
				td, ok := md.Topics[tp]
				if !ok || td.Err != nil || len(td.Partitions) != partitions {
					ready = false
					break
				}
				for _, p := range td.Partitions {
					if p.Err != nil || p.Leader < 0 {
						ready = false
					}
				}
			}
			if ready {
				return nil
			}
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("testkafka: topics %v not ready within 30 s (last error %v)", topics, err)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// Record is one Kafka record as tests see it.
type Record struct {
	Topic     string
	Partition int32
	Offset    int64
	Key       []byte
	Value     []byte
	Timestamp time.Time
	// Headers are produced and read as they are; the differential
	// comparisons ignore them.
	Headers []kgo.RecordHeader
}

// AnyPartition as a Record's Partition lets the producer's partitioner choose.
const AnyPartition int32 = -1

// Partitioner sends a record to its Partition field when it is set, and
// otherwise where Java's default partitioner puts it: murmur2 of the key, so
// keyed records land where a JVM producer puts them, and keyless ones spread
// round-robin.
func Partitioner() kgo.Partitioner {
	var next atomic.Uint32
	return kgo.BasicConsistentPartitioner(func(string) func(*kgo.Record, int) int {
		return func(r *kgo.Record, n int) int {
			switch {
			case r.Partition >= 0:
				return int(r.Partition)
			case r.Key == nil:
				return int(next.Add(1) % uint32(n))
			default:
				return int(kstreams.DefaultPartition(r.Key, n))
			}
		}
	})
}

// Produce writes records idempotently and waits until every one is
// acknowledged. With AnyPartition the partitioner is murmur2 on the key, as
// Java's default, so keyed records land where a JVM producer puts them.
func Produce(t testing.TB, bootstrap string, recs ...Record) {
	t.Helper()
	if err := ProduceErr(bootstrap, recs...); err != nil {
		t.Fatal(err)
	}
}

// ProduceErr is Produce for code without a testing.TB.
func ProduceErr(bootstrap string, recs ...Record) error {
	cl, err := NewClient(bootstrap, kgo.RecordPartitioner(Partitioner()), kgo.ProducerLinger(5*time.Millisecond))
	if err != nil {
		return err
	}
	defer cl.Close()
	krecs := make([]*kgo.Record, 0, len(recs))
	for i := range recs {
		r := &recs[i]
		if r.Topic == "" {
			return errors.New("testkafka: Produce: record without topic")
		}
		krecs = append(krecs, &kgo.Record{Topic: r.Topic, Partition: r.Partition, Key: r.Key, Value: r.Value, Timestamp: r.Timestamp,
			Headers: r.Headers})
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if err := cl.ProduceSync(ctx, krecs...).FirstErr(); err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("testkafka: produce: not every record acknowledged within 60 s: %w", err)
		}
		return fmt.Errorf("testkafka: produce: %w", err)
	}
	return nil
}

// ErrTimeout is returned by ReadCommitted when fewer records than wanted
// arrived in time.
var ErrTimeout = errors.New("testkafka: timed out waiting for records")

// ReadCommitted reads topic from the beginning with isolation.level
// read_committed until want records arrived or timeout passed, then keeps
// reading for linger more to catch records that should not be there. It
// returns what it read, in per-partition offset order.
func ReadCommitted(bootstrap, topic string, want int, timeout, linger time.Duration) ([]Record, error) {
	cl, err := NewClient(bootstrap,
		kgo.ConsumeTopics(topic),
		kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()),
		kgo.FetchIsolationLevel(kgo.ReadCommitted()),
		kgo.FetchMaxWait(100*time.Millisecond),
	)
	if err != nil {
		return nil, err
	}
	defer cl.Close()
	var out []Record
	deadline := time.Now().Add(timeout)
	var lingerEnd time.Time
	for {
		now := time.Now()
		if len(out) >= want && lingerEnd.IsZero() {
			lingerEnd = now.Add(linger)
		}
		if !lingerEnd.IsZero() && now.After(lingerEnd) {
			return out, nil
		}
		if lingerEnd.IsZero() && now.After(deadline) {
			return out, fmt.Errorf("%w: %d of %d from %s", ErrTimeout, len(out), want, topic)
		}
		end := deadline
		if !lingerEnd.IsZero() {
			end = lingerEnd
		}
		ctx, cancel := context.WithDeadline(context.Background(), end)
		fetches := cl.PollFetches(ctx)
		cancel()
		var fatal error
		fetches.EachError(func(tp string, p int32, err error) {
			// The poll's own deadline and a topic the broker does not
			// know yet are not errors of the read.
			if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, kerr.UnknownTopicOrPartition) {
				return
			}
			if fatal == nil && !kerr.IsRetriable(err) {
				fatal = fmt.Errorf("testkafka: reading %s-%d: %w", tp, p, err)
			}
		})
		if fatal != nil {
			return out, fatal
		}
		fetches.EachRecord(func(r *kgo.Record) {
			out = append(out, Record{Topic: r.Topic, Partition: r.Partition, Offset: r.Offset,
				Key: r.Key, Value: r.Value, Timestamp: r.Timestamp, Headers: r.Headers})
		})
	}
}

// Committed returns the offsets group committed for partitions 0..n-1 of
// topic, -1 where it committed none. It fetches them with require_stable, as
// a read_committed consumer does, and retries while a transaction holding an
// offset commit is still open, until timeout.
func Committed(bootstrap, group, topic string, partitions int, timeout time.Duration) ([]int64, error) {
	cl, err := NewClient(bootstrap)
	if err != nil {
		return nil, err
	}
	defer cl.Close()
	return CommittedWith(kadm.NewClient(cl), group, topic, partitions, timeout)
}

// CommittedWith is Committed on an existing admin client.
func CommittedWith(admin *kadm.Client, group, topic string, partitions int, timeout time.Duration) ([]int64, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	for {
		out, err := fetchCommitted(ctx, admin, group, topic, partitions)
		if err == nil || !kerr.IsRetriable(err) {
			return out, err
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("testkafka: committed offsets of group %s within %v: %w", group, timeout, err)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

func fetchCommitted(ctx context.Context, admin *kadm.Client, group, topic string, partitions int) ([]int64, error) {
	out := make([]int64, partitions)
	for p := range out {
		out[p] = -1
	}
	resp, err := admin.FetchOffsetsForTopics(kadm.RequireStable(ctx), group, topic)
	if errors.Is(err, kerr.GroupIDNotFound) {
		// A group that never committed has no offsets (the in-process
		// broker says so with this error).
		return out, nil
	}
	if err != nil {
		return nil, fmt.Errorf("testkafka: committed offsets of group %s: %w", group, err)
	}
	if err := resp.Error(); err != nil {
		return nil, fmt.Errorf("testkafka: committed offsets of group %s: %w", group, err)
	}
	for p := range out {
		if o, ok := resp.Lookup(topic, int32(p)); ok && o.At >= 0 {
			out[p] = o.At
		}
	}
	return out, nil
}

// Offsets maps topic, then partition, to an offset.
type Offsets map[string]map[int32]int64

// ListOffsets returns the offsets of every partition of topics: their end
// (the high watermark) when committed is false, their last stable offset
// (the end a read_committed consumer sees) when it is true.
func ListOffsets(ctx context.Context, admin *kadm.Client, committed bool, topics ...string) (Offsets, error) {
	list := admin.ListEndOffsets
	if committed {
		list = admin.ListCommittedOffsets
	}
	return listed(list(ctx, topics...))
}

// StartOffsets returns the log start offset of every partition of topics.
func StartOffsets(ctx context.Context, admin *kadm.Client, topics ...string) (Offsets, error) {
	return listed(admin.ListStartOffsets(ctx, topics...))
}

func listed(res kadm.ListedOffsets, err error) (Offsets, error) {
	if err != nil {
		return nil, fmt.Errorf("testkafka: list offsets: %w", err)
	}
	if err := res.Error(); err != nil {
		return nil, fmt.Errorf("testkafka: list offsets: %w", err)
	}
	out := Offsets{}
	res.Each(func(o kadm.ListedOffset) {
		if out[o.Topic] == nil {
			out[o.Topic] = map[int32]int64{}
		}
		out[o.Topic][o.Partition] = o.Offset
	})
	return out, nil
}
