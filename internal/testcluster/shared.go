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
// cluster's tests on (1) or off (0). Unset, they run where the other
// integration tests run: with STOATFLOW_TEST_BOOTSTRAP set (make test
// sets it) or under CI=true.
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
// are off (see EnvCluster), and fails it when they are off under CI=true
// or when the cluster cannot start: a skipped fault test is not a passing
// one.
func Shared(t testing.TB) *Cluster {
	t.Helper()
	if reason := disabled(); reason != "" {
		if os.Getenv("CI") == "true" {
			t.Fatalf("testcluster: %s; under CI=true the cluster tests must run", reason)
		}
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
	case "0", "false":
		return EnvCluster + "=" + v
	case "":
		if os.Getenv("STOATFLOW_TEST_BOOTSTRAP") != "" || os.Getenv("CI") == "true" {
			return ""
		}
		return "no integration run: set " + EnvCluster + "=1 (or STOATFLOW_TEST_BOOTSTRAP, as make test does) to start a three-node cluster"
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
