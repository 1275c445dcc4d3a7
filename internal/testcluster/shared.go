package testcluster

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

// EnvCluster names the environment variable that turns the shared
// cluster's tests on (1). They are off otherwise, make test included,
// until they have run within its time and load budget: with it set, a
// cluster that cannot start fails the test.
const EnvCluster = "STOATFLOW_TEST_CLUSTER"

var shared struct {
	once    sync.Once
	mu      sync.Mutex
	c       *Cluster
	err     error
	started time.Duration
}

// Shared returns the test binary's cluster, starting it on the first
// call: the tests that need a cluster share one, and StopShared, from the
// binary's TestMain, stops it. It skips the test when the cluster tests
// are off (see EnvCluster), and fails it when the cluster cannot start.
func Shared(t testing.TB) *Cluster {
	t.Helper()
	if reason := disabled(); reason != "" {
		t.Skip("testcluster: " + reason)
	}
	shared.once.Do(func() {
		began := time.Now()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		c, err := Start(ctx, Options{})
		shared.mu.Lock()
		shared.c, shared.err, shared.started = c, err, time.Since(began)
		shared.mu.Unlock()
		if err == nil {
			t.Logf("testcluster: %d-node Kafka %s cluster ready in %v: bootstrap %s (direct %s), nodes in %s",
				Nodes, KafkaVersion, time.Since(began).Round(time.Millisecond), c.Bootstrap(), c.DirectBootstrap(), c.Dir())
		}
	})
	shared.mu.Lock()
	defer shared.mu.Unlock()
	if shared.err != nil {
		t.Fatalf("testcluster: the %d-node cluster did not start: %v", Nodes, shared.err)
	}
	return shared.c
}

// disabled says why the cluster tests are off, "" when they are on.
func disabled() string {
	switch v := strings.TrimSpace(os.Getenv(EnvCluster)); v {
	case "1", "true":
		return ""
	case "", "0", "false":
		return "the replicated cluster's fault tests are off: set " + EnvCluster + "=1 to start a three-node cluster and run them"
	default:
		return fmt.Sprintf("%s=%q: want 1 or 0", EnvCluster, v)
	}
}

// StopShared stops the shared cluster if a test started it, and leaves
// its directory with the nodes' logs when keep is set (the binary's tests
// failed). It returns a message naming that directory, or an error.
func StopShared(keep bool) (string, error) {
	shared.mu.Lock()
	c := shared.c
	shared.c = nil
	shared.mu.Unlock()
	if c == nil {
		return "", nil
	}
	if keep {
		c.KeepDir()
	}
	if err := c.Close(); err != nil {
		return "", err
	}
	if keep {
		return "testcluster: the cluster's logs are in " + c.Dir(), nil
	}
	return "", nil
}
