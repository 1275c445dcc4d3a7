package integration

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/examples/joins"
	"github.com/stoatflow/stoatflow/internal/testkafka"
)

// TestStreamTableJoinOptimizedMatchesKafkaStreams is the stream-table join
// under topology.optimization=all (which here means
// reuse.ktable.source.topics: the topology has no repartition topic to
// merge and no self-join): the table's store reads its source topic as its
// changelog, so neither engine creates an internal topic, and the output
// and describe() are those of the unoptimized run.
func TestStreamTableJoinOptimizedMatchesKafkaStreams(t *testing.T) {
	t.Parallel()
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	u1, u2, u3 := str("u1"), str("u2"), str("u3")
	tbl := func(k, v *string, sec int64) joinEvent { return joinEvent{"table", tombstoneEvent{k, v, sec}} }
	st := func(k, v *string, sec int64) joinEvent { return joinEvent{"input", tombstoneEvent{k, v, sec}} }
	events := []joinEvent{
		tbl(u1, str("t1"), 1), tbl(u2, str("t2"), 2), st(u1, str("a"), 3), st(u3, str("b"), 4),
		tbl(u1, str("t1b"), 5), st(u1, str("c"), 6), tbl(u2, nil, 7), st(u2, str("d"), 8), tbl(nil, str("x"), 9),
		tbl(u3, str("t3"), 10), st(u3, str("f"), 11),
	}
	want, _ := streamTableResults(events, orNull)
	input, inputs := joinInputs(events)
	out := runDifferential(t, diffCase{
		app: joins.StreamTableName, props: filepath.Join(root, "examples", "joins", "streams.properties"),
		input: input, inputs: inputs, outputs: len(want), noInternalTopics: true,
		set: map[string]string{"topology.optimization": "all"},
	})
	checkJoinOutput(t, out, want)
}

// TestTableRestoredFromItsSourceTopicMatchesKafkaStreams: the stream-table
// join under topology.optimization=all, on both engines, SIGKILLed once all
// of a first input is processed and committed, then started again on an
// empty state directory (a new pod without its disk). Each engine restores
// the table's store from the table's source topic, from its start up to the
// group's committed offset (the same records on both), and processes the
// table updates written after that offset beside the new stream records:
// both outputs are the uninterrupted join's, record for record.
func TestTableRestoredFromItsSourceTopicMatchesKafkaStreams(t *testing.T) {
	t.Parallel()
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	bootstrap := testkafka.Bootstrap(t)
	in := testkafka.Topic(t, "in")
	table, outJVM, outGo := in+"-table", in+"-out-jvm", in+"-out-go"
	testkafka.CreateTopics(t, bootstrap, 2, in, table, outJVM, outGo)
	tbl := func(k, v *string, sec int64) joinEvent { return joinEvent{"table", tombstoneEvent{k, v, sec}} }
	st := func(k, v *string, sec int64) joinEvent { return joinEvent{"input", tombstoneEvent{k, v, sec}} }
	var first, second []joinEvent
	for i := range 10 {
		first = append(first, tbl(str(fmt.Sprintf("u%d", i)), str(fmt.Sprintf("t%d", i)), int64(1+i)))
	}
	first = append(first, tbl(str("u9"), nil, 11), tbl(nil, str("no key"), 12))
	for i := range 10 {
		first = append(first, st(str(fmt.Sprintf("u%d", i)), str("a"), int64(20+i)))
	}
	for i := range 5 {
		second = append(second, tbl(str(fmt.Sprintf("u%d", i)), str(fmt.Sprintf("t%d-2", i)), int64(40+i)))
	}
	for i := range 10 {
		second = append(second, st(str(fmt.Sprintf("u%d", i)), str("b"), int64(50+i)))
	}
	produce := func(events []joinEvent) {
		input, inputs := joinInputs(events)
		for i := range input {
			input[i].Topic = in
		}
		for i := range inputs["table"] {
			inputs["table"][i].Topic = table
		}
		testkafka.Produce(t, bootstrap, inputs["table"]...)
		testkafka.Produce(t, bootstrap, input...)
	}
	wantFirst, _ := streamTableResults(first, orNull)
	want, _ := streamTableResults(append(append([]joinEvent{}, first...), second...), orNull)
	props := filepath.Join(root, "examples", "joins", "streams.properties")
	jvmApp, goApp := in+"-jvm", in+"-go"
	set := func(app string) map[string]string {
		return map[string]string{
			"application.id": app, "bootstrap.servers": bootstrap, "state.dir": t.TempDir(),
			"topology.optimization": "all",
			// The killed member leaves the group within seconds.
			"session.timeout.ms": "6000", "heartbeat.interval.ms": "1000",
		}
	}
	args := func(out string) map[string]string {
		return map[string]string{"input": in, "table": table, "output": out}
	}
	store := table + "-STATE-STORE-0000000001"
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()

	produce(first)
	runJVM := func() *ReferenceApp {
		ref, err := StartReference(ctx, ReferenceOptions{App: joins.StreamTableName, Configs: []string{props}, Set: set(jvmApp), Args: args(outJVM)})
		if err != nil {
			t.Fatal(err)
		}
		if err := ref.WaitState(ctx, "RUNNING"); err != nil {
			t.Fatal(err)
		}
		return ref
	}
	ref := runJVM()
	if _, err := testkafka.ReadCommitted(bootstrap, outJVM, len(wantFirst), 2*time.Minute, 3*time.Second); err != nil {
		t.Fatalf("Kafka Streams, before the kill: %v\n%s", err, ref.Stderr())
	}
	ref.Kill()
	spec := func() childSpec {
		return childSpec{Topology: joins.StreamTableName, Args: args(outGo), Files: []string{props}, Set: set(goApp)}
	}
	c := startChild(t, spec())
	c.wait(t, "RUNNING", 2*time.Minute)
	if _, err := testkafka.ReadCommitted(bootstrap, outGo, len(wantFirst), 2*time.Minute, 3*time.Second); err != nil {
		t.Fatalf("StoatFlow, before the kill: %v\n%s", err, c.stderr.String())
	}
	c.kill()

	produce(second)
	ref = runJVM()
	defer ref.Stop(45 * time.Second)
	jvmOut, err := testkafka.ReadCommitted(bootstrap, outJVM, len(want), 2*time.Minute, 3*time.Second)
	if err != nil {
		t.Fatalf("Kafka Streams, after the restart: %v\n%s", err, ref.Stderr())
	}
	c = startChild(t, spec())
	c.wait(t, "RUNNING", 2*time.Minute)
	goOut, err := testkafka.ReadCommitted(bootstrap, outGo, len(want), 2*time.Minute, 3*time.Second)
	if err != nil {
		t.Fatalf("StoatFlow, after the restart: %v\n%s", err, c.stderr.String())
	}
	comparePartitions(t, "output", jvmOut, goOut)
	checkJoinOutput(t, goOut, want)

	// Both restored the store from the table topic's partition 0 (all the
	// table's records are there), up to the committed offset: the twelve
	// records of the first input, the null-key one included in the range.
	jr := ref.Restores()[table+"-0"]
	gr := c.restores()[table+"-0"]
	if gr == nil || !gr.done || !jr.Done || jr.Store != store || gr.store != store {
		t.Fatalf("restores of %s-0: Kafka Streams %+v, StoatFlow %+v; want both done, of store %s", table, jr, gr, store)
	}
	if jr.Start != gr.start || jr.End != gr.end || jr.Records != gr.records || gr.end != 12 {
		t.Errorf("restore of %s-0: Kafka Streams from %d to %d, %d records; StoatFlow from %d to %d, %d records; want both from 0 to 12",
			table, jr.Start, jr.End, jr.Records, gr.start, gr.end, gr.records)
	}
	t.Logf("restores of %s-0: Kafka Streams %+v, StoatFlow %+v", table, jr, *gr)
	jvmTopics, goTopics := internalTopics(t, bootstrap, jvmApp), internalTopics(t, bootstrap, goApp)
	if len(jvmTopics) != 0 || len(goTopics) != 0 {
		t.Errorf("internal topics: Kafka Streams %v, StoatFlow %v; want none (the table's changelog is its source topic)", jvmTopics, goTopics)
	}
	c.stop(t)
}
