package compat

import (
	"strconv"
	"strings"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
)

// The franz-go options of the runtime's clients, resolved from the client
// settings the configuration carries: brokers, client ids, the group and its
// timeouts, isolation and the transactional id. Behaviour options
// (callbacks, balancers of the runtime's own, partitioner, logger) are the
// runtime's to append.

func msSetting(m map[string]string, key string) (time.Duration, bool) {
	v, ok := m[key]
	if !ok {
		return 0, false
	}
	n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
	if err != nil || n < 0 {
		return 0, false
	}
	return time.Duration(n) * time.Millisecond, true
}

func (c *Config) baseOptions(clientID string) []kgo.Opt {
	return []kgo.Opt{kgo.SeedBrokers(c.BootstrapServers...), kgo.ClientID(clientID)}
}

// MainConsumerOptions returns the options of stream thread thread's main
// consumer: group application.id, static membership when configured, the
// session, heartbeat and rebalance (max.poll.interval.ms) timeouts, no
// automatic commits, range assignment, and under exactly_once_v2
// read_committed.
func (c *Config) MainConsumerOptions(processID string, thread int) ([]kgo.Opt, error) {
	m := c.MainConsumerConfig(processID, thread)
	opts := c.baseOptions(m["client.id"])
	opts = append(opts, kgo.ConsumerGroup(c.ApplicationID), kgo.DisableAutoCommit(),
		kgo.Balancers(kgo.RangeBalancer()))
	if id := m["group.instance.id"]; id != "" {
		opts = append(opts, kgo.InstanceID(id))
	}
	if d, ok := msSetting(m, "session.timeout.ms"); ok {
		opts = append(opts, kgo.SessionTimeout(d))
	}
	if d, ok := msSetting(m, "heartbeat.interval.ms"); ok {
		opts = append(opts, kgo.HeartbeatInterval(d))
	}
	if d, ok := msSetting(m, "max.poll.interval.ms"); ok {
		opts = append(opts, kgo.RebalanceTimeout(d))
	}
	if d, ok := msSetting(m, "fetch.wait.max.ms"); ok {
		opts = append(opts, kgo.FetchMaxWait(d))
	}
	switch m["auto.offset.reset"] {
	case "latest", "largest", "end":
		opts = append(opts, kgo.ConsumeResetOffset(kgo.NewOffset().AtEnd()))
	default:
		opts = append(opts, kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()))
	}
	if c.ExactlyOnce() || m["isolation.level"] == "read_committed" {
		opts = append(opts, kgo.FetchIsolationLevel(kgo.ReadCommitted()))
	}
	// franz-go's group consumers always fetch offsets with require_stable
	// (kgo.RequireStableFetchOffsets is a no-op), as exactly_once_v2 needs.
	return opts, nil
}

// RestoreConsumerOptions returns the options of stream thread thread's
// restore consumer: no group, read_committed, and a fetch wait of 50 ms
// unless fetch.max.wait.ms is set for it.
func (c *Config) RestoreConsumerOptions(processID string, thread int) ([]kgo.Opt, error) {
	m := c.RestoreConsumerConfig(processID, thread)
	opts := c.baseOptions(m["client.id"])
	opts = append(opts, kgo.FetchIsolationLevel(kgo.ReadCommitted()))
	if d, ok := msSetting(m, "fetch.wait.max.ms"); ok {
		opts = append(opts, kgo.FetchMaxWait(d))
	}
	return opts, nil
}

// ProducerOptions returns the options of stream thread thread's producer:
// under exactly_once_v2 its transactional id and transaction timeout.
func (c *Config) ProducerOptions(processID string, thread int) ([]kgo.Opt, error) {
	m := c.ProducerConfig(processID, thread)
	opts := c.baseOptions(m["client.id"])
	if d, ok := msSetting(m, "linger.ms"); ok {
		opts = append(opts, kgo.ProducerLinger(d))
	}
	if d, ok := msSetting(m, "delivery.timeout.ms"); ok && d < 2147483647*time.Millisecond {
		opts = append(opts, kgo.RecordDeliveryTimeout(d))
	}
	if c.ExactlyOnce() {
		opts = append(opts, kgo.TransactionalID(c.TransactionalID(processID, thread)))
		if d, ok := msSetting(m, "transaction.timeout.ms"); ok {
			opts = append(opts, kgo.TransactionTimeout(d))
		}
	}
	return opts, nil
}

// AdminOptions returns the options of the admin client.
func (c *Config) AdminOptions(processID string) ([]kgo.Opt, error) {
	return c.baseOptions(c.AdminConfig(processID)["client.id"]), nil
}
