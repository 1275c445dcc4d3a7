// Package testkafka gives tests the address of the real Apache Kafka broker
// that `make kafka-up` starts, fresh topic names, and small produce and
// read_committed consume helpers built on confluent-kafka-go.
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
	"testing"
	"time"

	"github.com/confluentinc/confluent-kafka-go/v2/kafka"
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

// CreateTopics creates topics with the given partition count (replication
// factor 1) and waits until the broker reports them.
func CreateTopics(t testing.TB, bootstrap string, partitions int, topics ...string) {
	t.Helper()
	admin, err := kafka.NewAdminClient(&kafka.ConfigMap{"bootstrap.servers": bootstrap})
	if err != nil {
		t.Fatalf("admin client: %v", err)
	}
	defer admin.Close()
	specs := make([]kafka.TopicSpecification, 0, len(topics))
	for _, tp := range topics {
		specs = append(specs, kafka.TopicSpecification{Topic: tp, NumPartitions: partitions, ReplicationFactor: 1})
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := admin.CreateTopics(ctx, specs, kafka.SetAdminOperationTimeout(20*time.Second))
	if err != nil {
		t.Fatalf("create topics %v: %v", topics, err)
	}
	for _, r := range res {
		if r.Error.Code() != kafka.ErrNoError && r.Error.Code() != kafka.ErrTopicAlreadyExists {
			t.Fatalf("create topic %s: %v", r.Topic, r.Error)
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
}

// AnyPartition as a Record's Partition lets the producer's partitioner choose.
const AnyPartition = kafka.PartitionAny

// Produce writes records idempotently and waits until every one is
// acknowledged. With AnyPartition the partitioner is murmur2 on the key, as
// Java's default, so keyed records land where a JVM producer puts them.
func Produce(t testing.TB, bootstrap string, recs ...Record) {
	t.Helper()
	p, err := kafka.NewProducer(&kafka.ConfigMap{
		"bootstrap.servers":  bootstrap,
		"enable.idempotence": true,
		"linger.ms":          5,
		// Java's default partitioner, so keys land where a JVM producer puts them.
		"partitioner": "murmur2_random",
	})
	if err != nil {
		t.Fatalf("producer: %v", err)
	}
	defer p.Close()
	delivery := make(chan kafka.Event, len(recs))
	for i := range recs {
		r := &recs[i]
		if r.Topic == "" {
			t.Fatal("testkafka.Produce: record without topic")
		}
		msg := &kafka.Message{
			TopicPartition: kafka.TopicPartition{Topic: &r.Topic, Partition: r.Partition},
			Key:            r.Key,
			Value:          r.Value,
			Timestamp:      r.Timestamp,
		}
		if err := p.Produce(msg, delivery); err != nil {
			t.Fatalf("produce to %s: %v", r.Topic, err)
		}
	}
	deadline := time.After(60 * time.Second)
	for range recs {
		select {
		case ev := <-delivery:
			m := ev.(*kafka.Message)
			if m.TopicPartition.Error != nil {
				t.Fatalf("delivery to %s: %v", *m.TopicPartition.Topic, m.TopicPartition.Error)
			}
		case <-deadline:
			t.Fatal("produce: no delivery report within 60s")
		}
	}
}

// ErrTimeout is returned by ReadCommitted when fewer records than wanted
// arrived in time.
var ErrTimeout = errors.New("testkafka: timed out waiting for records")

// ReadCommitted reads topic from the beginning with isolation.level
// read_committed until want records arrived or timeout passed, then keeps
// reading for linger more to catch records that should not be there. It
// returns what it read, in per-partition offset order.
func ReadCommitted(bootstrap, topic string, want int, timeout, linger time.Duration) ([]Record, error) {
	c, err := kafka.NewConsumer(&kafka.ConfigMap{
		"bootstrap.servers":  bootstrap,
		"group.id":           "testkafka-reader-" + topic,
		"isolation.level":    "read_committed",
		"auto.offset.reset":  "earliest",
		"enable.auto.commit": false,
	})
	if err != nil {
		return nil, fmt.Errorf("consumer: %w", err)
	}
	defer c.Close()
	if err := c.Subscribe(topic, nil); err != nil {
		return nil, fmt.Errorf("subscribe %s: %w", topic, err)
	}
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
		ev := c.Poll(100)
		switch e := ev.(type) {
		case *kafka.Message:
			out = append(out, Record{
				Topic: *e.TopicPartition.Topic, Partition: e.TopicPartition.Partition,
				Offset: int64(e.TopicPartition.Offset), Key: e.Key, Value: e.Value, Timestamp: e.Timestamp,
			})
		case kafka.Error:
			if e.IsFatal() {
				return out, fmt.Errorf("consumer: %w", e)
			}
		}
	}
}
