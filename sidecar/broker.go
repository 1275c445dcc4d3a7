package sidecar

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
)

// embeddedBroker is an in-process Kafka-protocol broker (kfake) persisted
// under a directory: the zero-setup default of the demo, and what `run
// --embedded-broker` uses. It is never chosen silently.
type embeddedBroker struct {
	c *kfake.Cluster
}

// startEmbeddedBroker starts one broker on a free 127.0.0.1 port (kfake binds
// the loopback address only), reloading
// what an earlier run persisted in dir.
func startEmbeddedBroker(dir string, log *slog.Logger) (*embeddedBroker, error) {
	c, err := kfake.NewCluster(
		kfake.NumBrokers(1),
		kfake.DataDir(dir),
	)
	if err != nil {
		return nil, fmt.Errorf("sidecar: embedded broker in %s: %w", dir, err)
	}
	log.Debug("embedded broker started", "addrs", c.ListenAddrs(), "dir", dir)
	return &embeddedBroker{c: c}, nil
}

// Addrs returns the bootstrap addresses.
func (b *embeddedBroker) Addrs() []string { return b.c.ListenAddrs() }

// Close stops the broker, writing its state to disk.
func (b *embeddedBroker) Close() { b.c.Close() }

// CreateTopics creates topics that do not exist yet with n partitions.
func (b *embeddedBroker) CreateTopics(ctx context.Context, topics []string, n int) error {
	return createTopics(ctx, b.Addrs(), topics, n)
}

// createTopics creates topics with n partitions (replication factor 1) on
// the brokers at bootstrap, accepting topics that exist.
func createTopics(ctx context.Context, bootstrap []string, topics []string, n int) error {
	if len(topics) == 0 {
		return nil
	}
	cl, err := kgo.NewClient(kgo.SeedBrokers(bootstrap...), kgo.DisableClientMetrics())
	if err != nil {
		return fmt.Errorf("sidecar: admin client for %v: %w", bootstrap, err)
	}
	defer cl.Close()
	cctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	res, err := kadm.NewClient(cl).CreateTopics(cctx, int32(n), 1, nil, topics...)
	if err != nil {
		return fmt.Errorf("sidecar: creating topics %v: %w", topics, err)
	}
	for _, r := range res.Sorted() {
		if r.Err != nil && !errors.Is(r.Err, kerr.TopicAlreadyExists) {
			return fmt.Errorf("sidecar: creating topic %s: %w", r.Topic, r.Err)
		}
	}
	return nil
}

func joinAddrs(addrs []string) string {
	out := ""
	for i, a := range addrs {
		if i > 0 {
			out += ","
		}
		out += a
	}
	return out
}
