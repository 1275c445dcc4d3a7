package integration

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"

	"github.com/stoatflow/stoatflow/examples/windowedcount"
	"github.com/stoatflow/stoatflow/internal/testkafka"
)

// TestCrashQuietStoreReplaysOnlyTheTail (several minutes) is the retention
// guard on the real broker, beside Kafka Streams 4.4 on the same input: a
// windowed count gets a record every 2 s, its changelog keeps two minutes
// (15 s of windows and grace plus 105 s) in 10-second segments, and its
// write buffer never fills. Once the broker has deleted the first segments
// of both engines' changelogs, both are killed and restarted at once.
// Kafka Streams' store never flushed: it has no offset and restores in full
// from the moved log start (KAFKA-20663). StoatFlow's flush policy (its time
// bound, tightened to half the retention: one minute) keeps the store's
// durable offset at most a minute old, inside the retention, and the
// restart replays only that tail. Both engines' outputs, after the restart
// has caught up, are the same record for record.
func TestCrashQuietStoreReplaysOnlyTheTail(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for the broker's retention (about 4 minutes); runs in the full crash pass")
	}
	bootstrap := testkafka.Bootstrap(t)
	in, out, outJVM := testkafka.Topic(t, "in"), testkafka.Topic(t, "out"), testkafka.Topic(t, "out-jvm")
	testkafka.CreateTopics(t, bootstrap, 1, in, out, outJVM)
	appID, appJVM := in+"-app", in+"-jvm"
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	spec := childSpec{Topology: windowedcount.Name, Args: map[string]string{"input": in, "output": out},
		Files: []string{filepath.Join(root, "examples", "windowedcount", "streams.properties")},
		Set: map[string]string{
			"application.id":       appID,
			"bootstrap.servers":    bootstrap,
			"state.dir":            t.TempDir(),
			"processing.guarantee": "exactly_once_v2",
			"commit.interval.ms":   "100",
			"windowstore.changelog.additional.retention.ms": "105000",
			"topic.segment.ms":                     "10000",
			"stoatflow.rocksdb.write-buffer-bytes": "16777216",
		}}
	const store = "KSTREAM-AGGREGATE-STATE-STORE-0000000001"
	changelog, changelogJVM := appID+"-"+store+"-changelog", appJVM+"-"+store+"-changelog"
	ref := ReferenceOptions{App: "windowedcount", Configs: spec.Files,
		Args: map[string]string{"input": in, "output": outJVM}, Set: map[string]string{}}
	for k, v := range spec.Set {
		if !strings.HasPrefix(k, "stoatflow.") {
			ref.Set[k] = v
		}
	}
	ref.Set["application.id"], ref.Set["state.dir"] = appJVM, t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
	defer cancel()
	jvm := startQuietReference(ctx, t, ref)

	c := startChild(t, spec)
	c.wait(t, "RUNNING", 2*time.Minute)
	admin := testkafka.Admin(t, bootstrap)
	// Quiet input: one record every 2 s, until the broker has deleted the
	// changelog's first segment.
	start := time.Now()
	sent := 0
	for {
		// The broker deletes a compact,delete changelog's expired segments
		// from its log cleaner, between cleanings: 3 to 6 minutes after the
		// first record here, more on a loaded broker.
		if time.Since(start) > 12*time.Minute {
			t.Fatalf("the changelog's log start did not move within 12 minutes (the broker's log cleaner deletes expired segments of compact,delete topics)")
		}
		testkafka.Produce(t, bootstrap, testkafka.Record{Topic: in, Partition: 0, Key: []byte(fmt.Sprintf("key-%d", sent%5)), Value: []byte("v"), Timestamp: time.Now()})
		sent++
		if sent%15 == 0 {
			lo, loJVM := logStart(t, admin, changelog), logStart(t, admin, changelogJVM)
			if lo > 0 && loJVM > 0 {
				t.Logf("changelog log starts at %d (StoatFlow) and %d (Kafka Streams) after %v and %d records", lo, loJVM, time.Since(start).Round(time.Second), sent)
				break
			}
		}
		time.Sleep(2 * time.Second)
	}
	// Go on quietly for a random part of the time bound, so that the kill
	// finds the last flush anywhere up to a minute old, then kill.
	for n := rand.IntN(20); n >= 0; n-- {
		testkafka.Produce(t, bootstrap, testkafka.Record{Topic: in, Partition: 0, Key: []byte(fmt.Sprintf("key-%d", sent%5)), Value: []byte("v"), Timestamp: time.Now()})
		sent++
		time.Sleep(2 * time.Second)
	}
	c.kill()
	jvm.Kill()
	lo, loJVM := logStart(t, admin, changelog), logStart(t, admin, changelogJVM)

	jvm = startQuietReference(ctx, t, ref)
	c = startChild(t, spec)
	c.wait(t, "RUNNING", 2*time.Minute)
	rs := c.restores()[changelog+"-0"]
	if rs == nil || !rs.done {
		t.Fatalf("no restore of %s-0 reported: %v", changelog, c.restores())
	}
	rj, ok := jvm.Restores()[changelogJVM+"-0"]
	if !ok || !rj.Done {
		t.Fatalf("Kafka Streams reported no restore of %s-0: %v", changelogJVM, jvm.Restores())
	}
	// The broker's cleaner may move the log start again between the kill
	// and a restore; a restore that began at the log start it found began
	// at or before the log start read after it.
	loJVMAfter := logStart(t, admin, changelogJVM)
	t.Logf("StoatFlow's restart after the kill: restore from %d to %d (log start %d), %d records, full=%v", rs.start, rs.end, lo, rs.records, rs.full)
	t.Logf("Kafka Streams' restart after the kill: restore from %d to %d (log start %d at the kill, %d after the restore), %d records", rj.Start, rj.End, loJVM, loJVMAfter, rj.Records)

	// One record more, so that both outputs end at the same place once the
	// records of the killed epochs have been processed again.
	testkafka.Produce(t, bootstrap, testkafka.Record{Topic: in, Partition: 0, Key: []byte("key-last"), Value: []byte("v"), Timestamp: time.Now()})
	sent++
	got, err := testkafka.ReadCommitted(bootstrap, out, sent, 2*time.Minute, 2*time.Second)
	if err != nil {
		t.Fatalf("StoatFlow's output: %v", err)
	}
	want, err := testkafka.ReadCommitted(bootstrap, outJVM, sent, 2*time.Minute, 2*time.Second)
	if err != nil {
		t.Fatalf("Kafka Streams' output: %v", err)
	}
	c.kill()
	if err := jvm.Stop(time.Minute); err != nil {
		t.Errorf("stopping Kafka Streams: %v", err)
	}
	comparePartitions(t, "output", want, got)

	// Kafka Streams restores in full: from the log start it found, every
	// record the changelog still holds, more than StoatFlow's tail.
	if rj.Start > loJVMAfter || rj.Records <= rs.records {
		t.Errorf("Kafka Streams restored %d records from %d (log start %d, end %d), StoatFlow %d: not in full, so this test no longer shows what the policy adds", rj.Records, rj.Start, loJVMAfter, rj.End, rs.records)
	}
	if rs.full || rs.start < lo {
		t.Fatalf("restored in full from %d (log start %d): the store's durable offset fell out of the changelog's retention", rs.start, lo)
	}
	// A minute of records at one per 2 s (plus the commit the kill may have
	// cut short): well under the retained changelog.
	if rs.records > 40 {
		t.Errorf("replayed %d records; the time bound of a minute allows about 30", rs.records)
	}
	if rs.records >= rs.end-lo {
		t.Errorf("replayed %d records of a retained changelog of %d offsets: not only the tail", rs.records, rs.end-lo)
	}
}

// startQuietReference starts the Kafka Streams twin and waits for RUNNING.
func startQuietReference(ctx context.Context, t *testing.T, opts ReferenceOptions) *ReferenceApp {
	t.Helper()
	a, err := StartReference(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(a.Kill)
	if err := a.WaitState(ctx, "RUNNING"); err != nil {
		t.Fatal(err)
	}
	return a
}

func logStart(t *testing.T, admin *kadm.Client, topic string) int64 {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	starts, err := admin.ListStartOffsets(ctx, topic)
	if err != nil {
		t.Fatal(err)
	}
	o, ok := starts.Lookup(topic, 0)
	if !ok || o.Err != nil {
		t.Fatalf("log start of %s-0: %v", topic, o.Err)
	}
	return o.Offset
}
