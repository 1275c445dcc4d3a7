// Package testregistry gives tests the URL of the real schema registry that
// integration/registry.sh starts (Apicurio Registry's Confluent-compatible
// API), a client for it, and subject names no earlier run has used.
//
// Tests find the registry through one environment variable,
// STOATFLOW_TEST_REGISTRY_URL. Without it they skip with a message saying how
// to start one, except under CI=true, where a missing registry is a failure:
// a skipped integration test is not a passing one.
package testregistry

import (
	"crypto/rand"
	"encoding/hex"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/confluentinc/confluent-kafka-go/v2/schemaregistry"

	"github.com/stoatflow/stoatflow/kstreams/serde/registry"
)

// EnvURL names the environment variable holding the test registry's URL.
const EnvURL = "STOATFLOW_TEST_REGISTRY_URL"

// URL returns the test registry's URL, or skips the test when none is
// configured (fails it under CI=true). It also fails the test when the
// registry does not answer.
func URL(t testing.TB) string {
	t.Helper()
	u := strings.TrimSpace(os.Getenv(EnvURL))
	if u == "" {
		msg := "no schema registry: run `integration/registry.sh up` and set " + EnvURL + " to the URL it prints (scripts/test.sh does both)"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg + "; under CI=true a missing registry is a failure")
		}
		t.Skip(msg)
	}
	c := http.Client{Timeout: 5 * time.Second}
	resp, err := c.Get(strings.TrimRight(u, "/") + "/subjects")
	if err != nil {
		t.Fatalf("testregistry: the registry at %s (%s) does not answer: %v", u, EnvURL, err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("testregistry: GET %s/subjects answered %s", u, resp.Status)
	}
	return u
}

// Client returns a client for the test registry.
func Client(t testing.TB) schemaregistry.Client {
	t.Helper()
	cl, err := registry.NewClient(registry.ClientConfig{URL: URL(t)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cl.Close() })
	return cl
}

// Name returns a topic or subject stem no earlier run has used: prefix and a
// random suffix.
func Name(t testing.TB, prefix string) string {
	t.Helper()
	var b [4]byte
	if _, err := rand.Read(b[:]); err != nil {
		t.Fatal(err)
	}
	return prefix + "-" + hex.EncodeToString(b[:])
}
