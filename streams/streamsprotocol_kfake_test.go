package streams_test

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/streams"
)

// TestKfakeStreamsProtocolUnsupportedByTheCluster: a cluster that does not
// offer the streams group protocol (StreamsGroupHeartbeat, as a broker
// without the streams.version feature) stops an application with
// group.protocol=streams, with an error that names the kafka-features.sh
// command enabling it.
func TestKfakeStreamsProtocolUnsupportedByTheCluster(t *testing.T) {
	_, addr := startBroker(t)
	createTopics(t, addr, 2, "in", "out")
	ks, err := streams.New(failOnceTopology(t, new(atomic.Bool)), appConfig(t, addr, "sgproto", t.TempDir(), "group.protocol=streams"))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	err = ks.Start(ctx)
	defer ks.Close(context.Background())
	if err == nil {
		select {
		case <-ks.Done():
		case <-ctx.Done():
			t.Fatalf("the application runs on in state %v after a minute", ks.State())
		}
		err = ks.Err()
	}
	if err == nil || !strings.Contains(err.Error(), "kafka-features.sh") || !strings.Contains(err.Error(), "streams.version=1") {
		t.Fatalf("want an error naming kafka-features.sh and streams.version=1, got %v", err)
	}
	t.Logf("%v", err)
}
