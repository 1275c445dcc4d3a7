package sidecar

import (
	"context"
	"io"
	"log/slog"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/confluentinc/confluent-kafka-go/v2/kafka"
)

// TestEmbeddedBrokerHidesAbortedTransactions checks what the demo relies on
// from the embedded broker with librdkafka's transactional producer: a
// committed transaction is visible to read_committed consumers, an aborted
// one never is, and the broker's data survives a restart from its
// directory.
func TestEmbeddedBrokerHidesAbortedTransactions(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	dir := filepath.Join(t.TempDir(), "broker")
	b, err := startEmbeddedBroker(dir, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	topic := "txn-check"
	if err := b.CreateTopics(ctx, []string{topic}, 1); err != nil {
		t.Fatal(err)
	}
	p, err := kafka.NewProducer(&kafka.ConfigMap{"bootstrap.servers": joinAddrs(b.Addrs()), "transactional.id": "txn-check-1",
		"enable.metrics.push": false})
	if err != nil {
		t.Fatal(err)
	}
	if err := p.InitTransactions(ctx); err != nil {
		t.Fatal(err)
	}
	send := func(v string, commit bool) {
		t.Helper()
		if err := p.BeginTransaction(); err != nil {
			t.Fatal(err)
		}
		delivered := make(chan kafka.Event, 1)
		if err := p.Produce(&kafka.Message{TopicPartition: kafka.TopicPartition{Topic: &topic, Partition: 0}, Value: []byte(v)}, delivered); err != nil {
			t.Fatal(err)
		}
		// Wait for the ack so that the aborted record reaches the log
		// (librdkafka purges unsent records at abort).
		if m := (<-delivered).(*kafka.Message); m.TopicPartition.Error != nil {
			t.Fatal(m.TopicPartition.Error)
		}
		if commit {
			err = p.CommitTransaction(ctx)
		} else {
			err = p.AbortTransaction(ctx)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	send("a", true)
	send("b", false)
	send("c", true)
	p.Close()

	read := func(addrs []string) []string {
		c, err := kafka.NewConsumer(&kafka.ConfigMap{"bootstrap.servers": joinAddrs(addrs), "group.id": "txn-check-reader-" + time.Now().String(),
			"isolation.level": "read_committed", "auto.offset.reset": "earliest", "enable.metrics.push": false})
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		if err := c.Subscribe(topic, nil); err != nil {
			t.Fatal(err)
		}
		var got []string
		deadline := time.Now().Add(15 * time.Second)
		for time.Now().Before(deadline) && len(got) < 2 {
			if m, ok := c.Poll(100).(*kafka.Message); ok {
				got = append(got, string(m.Value))
			}
		}
		// Linger for a record that should not be there.
		for end := time.Now().Add(time.Second); time.Now().Before(end); {
			if m, ok := c.Poll(100).(*kafka.Message); ok {
				got = append(got, string(m.Value))
			}
		}
		return got
	}
	if got := read(b.Addrs()); !slices.Equal(got, []string{"a", "c"}) {
		t.Errorf("read_committed got %q, want [a c]", got)
	}
	b.Close()
	b, err = startEmbeddedBroker(dir, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if got := read(b.Addrs()); !slices.Equal(got, []string{"a", "c"}) {
		t.Errorf("after a restart read_committed got %q, want [a c]", got)
	}
}
