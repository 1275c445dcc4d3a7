package streams_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/internal/testkafka"
	"github.com/stoatflow/stoatflow/streams"
)

// TestKfakeAddAndRemoveStreamThreads: threads come and go while the
// instance runs, as with Kafka Streams' addStreamThread and
// removeStreamThread. An added thread takes the lowest free index and a
// share of the tasks; a removed one (the first still running) commits and
// hands its tasks over; with every thread removed the instance stays
// RUNNING and processes again once a thread is added. Under
// exactly_once_v2 each record comes out once, in order per partition.
func TestKfakeAddAndRemoveStreamThreads(t *testing.T) {
	_, addr := startBroker(t)
	createTopics(t, addr, 4, "in", "out")
	quiet := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	ks, err := streams.New(forwardTopology(t), appConfig(t, addr, "threads", t.TempDir()), streams.WithLogger(quiet))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ks.AddStreamThread(); !errors.Is(err, streams.ErrNotRunning) {
		t.Fatalf("AddStreamThread before Start: %v, want ErrNotRunning", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := ks.Start(ctx); err != nil {
		t.Fatal(err)
	}
	defer closeApp(t, ks)
	sent := 0
	produce := func(n int) {
		for range n {
			testkafka.Produce(t, addr, testkafka.Record{Topic: "in", Partition: int32(sent % 4), Key: []byte(fmt.Sprintf("k%d", sent%4)),
				Value: []byte(fmt.Sprintf("%03d", sent))})
			sent++
		}
	}
	check := func(what string) {
		t.Helper()
		got, err := testkafka.ReadCommitted(addr, "out", sent, 60*time.Second, time.Second)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		perKey := map[string][]string{}
		for _, r := range got {
			perKey[string(r.Key)] = append(perKey[string(r.Key)], string(r.Value))
		}
		for k, vs := range perKey {
			if !sort.StringsAreSorted(vs) {
				t.Errorf("%s: key %s out of order: %v", what, k, vs)
			}
		}
		if len(got) != sent {
			t.Errorf("%s: %d records out, want %d", what, len(got), sent)
		}
	}
	running := func() {
		t.Helper()
		waitFor(t, time.Minute, "RUNNING", func() bool { return ks.State() == streams.Running })
	}
	running()
	produce(8)
	check("one thread")

	name, err := ks.AddStreamThread()
	if err != nil || !strings.HasSuffix(name, "-StreamThread-2") {
		t.Fatalf("AddStreamThread: %q, %v; want a name ending in -StreamThread-2", name, err)
	}
	running()
	produce(8)
	check("two threads")

	for _, want := range []string{"-StreamThread-1", "-StreamThread-2"} {
		name, err := ks.RemoveStreamThread(ctx)
		if err != nil || !strings.HasSuffix(name, want) {
			t.Fatalf("RemoveStreamThread: %q, %v; want a name ending in %s", name, err, want)
		}
	}
	running()
	produce(4)
	if got, _ := testkafka.ReadCommitted(addr, "out", sent, 3*time.Second, time.Second); len(got) != sent-4 {
		t.Fatalf("without threads: %d records out, want %d", len(got), sent-4)
	}
	if name, err := ks.AddStreamThread(); err != nil || !strings.HasSuffix(name, "-StreamThread-1") {
		t.Fatalf("AddStreamThread after removing all: %q, %v; want -StreamThread-1", name, err)
	}
	running()
	check("a thread added after removing all")
}
