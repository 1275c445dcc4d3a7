package integration

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/examples/replacethread"
	"github.com/stoatflow/stoatflow/internal/testkafka"
	"github.com/stoatflow/stoatflow/streams"
)

// TestShutdownApplicationStopsEveryInstanceLikeKafkaStreams: two instances
// of the replacethread word count on each engine, answering a failed
// stream thread with SHUTDOWN_APPLICATION. The words before the failure
// are committed first; then the poison record fails the instance that
// owns its partition, and the request goes through the group: on both
// engines both instances end in ERROR, and the output holds the counts of
// the words before the failure, the same per partition on both.
func TestShutdownApplicationStopsEveryInstanceLikeKafkaStreams(t *testing.T) {
	t.Parallel()
	replaceThreadMu.Lock()
	defer replaceThreadMu.Unlock()
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	props := filepath.Join(root, "examples", "replacethread", "streams.properties")
	bootstrap := testkafka.Bootstrap(t)
	in := testkafka.Topic(t, "in")
	outJVM, outGo := in+"-out-jvm", in+"-out-go"
	testkafka.CreateTopics(t, bootstrap, 2, in, outJVM, outGo)
	words := []string{"ant", "bee", "cat", "ant", "dog", "bee"}
	var before []testkafka.Record
	for i := range 30 {
		before = append(before, testkafka.Record{Topic: in, Partition: 0, Key: []byte(fmt.Sprintf("k%d", i)),
			Value: []byte(words[i%len(words)]), Timestamp: time.UnixMilli(epochBase + int64(i)*100)})
	}
	poison := testkafka.Record{Topic: in, Partition: 0, Key: []byte("poison"), Value: []byte(replacethread.Poison),
		Timestamp: time.UnixMilli(epochBase + 10_000)}

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	set := func(app string) map[string]string {
		return map[string]string{"bootstrap.servers": bootstrap, "application.id": app, "state.dir": t.TempDir(),
			"stoatflow.thread.uncaught-exception-response": "SHUTDOWN_APPLICATION"}
	}
	var refs []*ReferenceApp
	for range 2 {
		ref, err := StartReference(ctx, ReferenceOptions{App: replacethread.Name, Configs: []string{props},
			Set: set(in + "-jvm"), Args: map[string]string{"input": in, "output": outJVM}})
		if err != nil {
			t.Fatal(err)
		}
		defer ref.Stop(45 * time.Second)
		refs = append(refs, ref)
	}
	replacethread.Rearm()
	var instances []*streams.KafkaStreams
	for range 2 {
		cfg, err := LoadConfig([]string{props}, set(in+"-go"))
		if err != nil {
			t.Fatal(err)
		}
		ks, err := StartStoatFlow(ctx, replacethread.Build, map[string]string{"input": in, "output": outGo}, cfg)
		if err != nil {
			t.Fatal(err)
		}
		defer ks.Close(context.Background())
		instances = append(instances, ks)
	}
	for _, ref := range refs {
		if err := ref.WaitState(ctx, "RUNNING"); err != nil {
			t.Fatal(err)
		}
	}
	testkafka.Produce(t, bootstrap, before...)
	for name, out := range map[string]string{"Kafka Streams": outJVM, "StoatFlow": outGo} {
		if _, err := testkafka.ReadCommitted(bootstrap, out, len(before), 2*time.Minute, time.Second); err != nil {
			t.Fatalf("%s before the failure: %v", name, err)
		}
	}
	testkafka.Produce(t, bootstrap, poison)

	var wg sync.WaitGroup
	for i, ref := range refs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := ref.WaitState(ctx, "ERROR"); err != nil {
				t.Errorf("Kafka Streams instance %d: %v\n%s", i, err, ref.Stderr())
			}
		}()
	}
	failing := awaitApplicationShutdown(ctx, t, instances)
	wg.Wait()
	if failing != 1 || !replacethread.Failed() {
		t.Errorf("%d StoatFlow instances stopped with their own failure, want the one that read the poison record", failing)
	}
	jvmOut, err := testkafka.ReadCommitted(bootstrap, outJVM, len(before), time.Minute, 3*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	goOut, err := testkafka.ReadCommitted(bootstrap, outGo, len(before), time.Minute, 3*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if len(jvmOut) != len(before) || len(goOut) != len(before) {
		t.Errorf("output records: Kafka Streams %d, StoatFlow %d, want the %d counts before the failure", len(jvmOut), len(goOut), len(before))
	}
	comparePartitions(t, "output", jvmOut, goOut)
}

// awaitApplicationShutdown waits until every StoatFlow instance has ended
// in ERROR, as SHUTDOWN_APPLICATION ends them, and returns how many ended
// with a failure of their own rather than the group's shutdown.
func awaitApplicationShutdown(ctx context.Context, t *testing.T, instances []*streams.KafkaStreams) (failing int) {
	t.Helper()
	for i, ks := range instances {
		select {
		case <-ks.Done():
		case <-ctx.Done():
			t.Fatalf("StoatFlow instance %d still %s", i, ks.State())
		}
		if ks.State() != streams.Error {
			t.Errorf("StoatFlow instance %d ended %s, want ERROR", i, ks.State())
		}
		if !errors.Is(ks.Err(), streams.ErrApplicationShutdown) {
			failing++
		}
	}
	return failing
}
