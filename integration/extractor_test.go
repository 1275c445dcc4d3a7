package integration

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/examples/windowedcount"
	"github.com/stoatflow/stoatflow/internal/testkafka"
	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/kstreamstest"
	"github.com/stoatflow/stoatflow/kstreams/serde"
	"github.com/stoatflow/stoatflow/streams"
)

// windowStore is the window store of the windowedcount example.
const windowStore = "KSTREAM-AGGREGATE-STATE-STORE-0000000001"

// bothEngines is one run of the windowedcount example on Kafka Streams 4.4
// and on StoatFlow with the same .properties plus set, on a two-partition
// input topic.
type bothEngines struct {
	set   map[string]string
	input []testkafka.Record // Topic is filled in
}

// bothResult is what the two runs produced.
type bothResult struct {
	jvmOut, goOut           []testkafka.Record
	jvmApp, goApp           string
	jvmStateDir, goStateDir string
	counters                *Counters
	bootstrap               string
}

// runBoth produces the input, runs the JVM twin until it wrote want output
// records, stops it, then runs StoatFlow until it did, and returns both
// outputs. Keys land on the partitions Java's default partitioner picks, and
// the windowed output key goes where its base key went, so each output
// partition has one writer and its order is deterministic on both engines.
func runBoth(t *testing.T, c bothEngines, want int) bothResult {
	t.Helper()
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	props := filepath.Join(root, "examples", "windowedcount", "streams.properties")
	bootstrap := testkafka.Bootstrap(t)
	in := testkafka.Topic(t, "in")
	outJVM, outGo := in+"-out-jvm", in+"-out-go"
	testkafka.CreateTopics(t, bootstrap, 2, in, outJVM, outGo)
	for i := range c.input {
		c.input[i].Topic = in
	}
	testkafka.Produce(t, bootstrap, c.input...)

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	with := func(extra map[string]string) map[string]string {
		m := map[string]string{
			"bootstrap.servers":                bootstrap,
			"processing.guarantee":             "exactly_once_v2",
			"enable.transactional.statestores": "true",
			"statestore.cache.max.bytes":       "0",
		}
		for k, v := range extra {
			m[k] = v
		}
		return m
	}
	r := bothResult{jvmApp: in + "-jvm", goApp: in + "-go", jvmStateDir: t.TempDir(), goStateDir: t.TempDir(),
		counters: NewCounters(), bootstrap: bootstrap}

	// The two engines run at once, each on an application id and output of
	// its own, and both read the whole input, all of it produced before
	// either starts.
	jvmSet := with(c.set)
	jvmSet["application.id"], jvmSet["state.dir"] = r.jvmApp, r.jvmStateDir
	ref, err := StartReference(ctx, ReferenceOptions{App: windowedcount.Name, Configs: []string{props}, Set: jvmSet,
		Args: map[string]string{"input": in, "output": outJVM}})
	if err != nil {
		t.Fatal(err)
	}
	defer ref.Stop(45 * time.Second)
	gs := with(c.set)
	gs["application.id"], gs["state.dir"] = r.goApp, r.goStateDir
	cfg, err := LoadConfig([]string{props}, gs)
	if err != nil {
		t.Fatal(err)
	}
	ks, err := StartStoatFlow(ctx, windowedcount.Build, map[string]string{"input": in, "output": outGo}, cfg, streams.WithHooks(r.counters))
	if err != nil {
		t.Fatal(err)
	}
	defer ks.Close(context.Background())
	var jvmErr, goErr error
	sideBySide(
		func() {
			if jvmErr = ref.WaitState(ctx, "RUNNING"); jvmErr == nil {
				r.jvmOut, jvmErr = testkafka.ReadCommitted(bootstrap, outJVM, want, 2*time.Minute, 3*time.Second)
			}
		},
		func() { r.goOut, goErr = testkafka.ReadCommitted(bootstrap, outGo, want, 2*time.Minute, 3*time.Second) },
	)
	stopAfterOutputs(t, ref, jvmErr, goErr)
	if err := ks.Close(context.Background()); err != nil {
		t.Error(err)
	}
	if len(r.jvmOut) != want || len(r.goOut) != want {
		t.Errorf("records: Kafka Streams %d, StoatFlow %d, want %d", len(r.jvmOut), len(r.goOut), want)
	}
	comparePartitions(t, "output", r.jvmOut, r.goOut)
	return r
}

// compareChangelogs compares the window store's changelog of both runs.
func compareChangelogs(t *testing.T, r bothResult, n int) {
	t.Helper()
	suffix := windowStore + "-changelog"
	jvmLog, goLog, jvmErr, goErr := readPair(r.bootstrap, r.jvmApp+"-"+suffix, r.goApp+"-"+suffix, n)
	if jvmErr != nil {
		t.Fatal(jvmErr)
	}
	if goErr != nil {
		t.Fatal(goErr)
	}
	comparePartitions(t, "changelog", jvmLog, goLog)
	jvmTopics, goTopics := internalTopics(t, r.bootstrap, r.jvmApp), internalTopics(t, r.bootstrap, r.goApp)
	if strings.Join(jvmTopics, ",") != strings.Join(goTopics, ",") || len(goTopics) == 0 {
		t.Errorf("internal topics differ:\n Kafka Streams %v\n StoatFlow     %v", jvmTopics, goTopics)
	}
}

// event is one input record of the windowed count: a key and a timestamp in
// seconds from epochBase; noTimestamp marks a record written with
// timestamp -1 (Kafka's NO_TIMESTAMP), which the broker accepts under
// CreateTime and every consumer reads back as -1.
type event struct {
	key string
	sec int64
}

const noTimestamp = -1 << 40

// extractorEvents gives both input partitions records without a timestamp
// after valid ones (partition time known), in and out of order, late ones
// included, so that every extractor has its say.
var extractorEvents = []event{
	{"a", 1}, {"b", 2}, {"c", 3}, {"d", 1},
	{"a", noTimestamp}, {"b", 12}, {"a", 13}, {"c", noTimestamp}, {"d", noTimestamp},
	{"b", noTimestamp}, {"a", 4}, {"c", 25}, {"c", noTimestamp}, {"d", 30},
	{"a", noTimestamp}, {"b", 27}, {"d", noTimestamp}, {"a", 22}, {"b", noTimestamp}, {"c", 14},
}

func eventRecords(events []event) []testkafka.Record {
	var recs []testkafka.Record
	for _, e := range events {
		ts := time.UnixMilli(-1)
		if e.sec != noTimestamp {
			ts = time.UnixMilli(epochBase + e.sec*1000)
		}
		recs = append(recs, testkafka.Record{Partition: testkafka.AnyPartition, Key: []byte(e.key), Value: []byte("x"), Timestamp: ts})
	}
	return recs
}

// inDriver runs the windowed count on the events in the in-process driver
// with the given default extractor and returns the output and changelog
// records it wrote and how many records it dropped for a negative
// timestamp; it stands for what both engines must write.
func inDriver(t *testing.T, events []event, e kstreams.TimestampExtractor) (out, changelog []kstreamstest.Record, dropped int) {
	t.Helper()
	topo, err := windowedcount.Build(map[string]string{"input": "in", "output": "out"})
	if err != nil {
		t.Fatal(err)
	}
	d, err := kstreamstest.New(topo, kstreamstest.Config{ApplicationID: "app", Partitions: 2,
		DefaultKeySerde: serde.Erase[string](serde.String{}), DefaultValueSerde: serde.Erase[string](serde.String{}), TimestampExtractor: e})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	for _, r := range eventRecords(events) {
		if err := d.Pipe("in", r.Key, r.Value, r.Timestamp.UnixMilli()); err != nil {
			t.Fatal(err)
		}
	}
	for _, dr := range d.Dropped() {
		if dr.Reason == kstreams.DroppedNegativeTimestamp {
			dropped++
		}
	}
	return d.Records("out"), d.Changelog(windowStore), dropped
}

// checkAgainstDriver compares the broker records of one engine with the
// driver's, partition by partition (key, value, timestamp).
func checkAgainstDriver(t *testing.T, what string, got []testkafka.Record, want []kstreamstest.Record) {
	t.Helper()
	var w []testkafka.Record
	for _, r := range want {
		w = append(w, testkafka.Record{Partition: r.Partition, Key: r.Key, Value: r.Value, Timestamp: time.UnixMilli(r.Timestamp)})
	}
	comparePartitions(t, what, w, got)
}

// checkPartitionsUsed guards the test's own input: both input partitions
// must carry records without a timestamp.
func checkPartitionsUsed(t *testing.T, events []event) {
	t.Helper()
	seen := map[int32]bool{}
	for _, e := range events {
		if e.sec == noTimestamp {
			seen[kstreams.DefaultPartition([]byte(e.key), 2)] = true
		}
	}
	if len(seen) != 2 {
		t.Fatalf("the events put records without a timestamp on partitions %v only", seen)
	}
}

// TestTimestampExtractorsMatchKafkaStreams runs the windowed count on input
// with records that carry no timestamp, under the two built-in extractors
// that let such records through or past: the output (keys with their window
// starts, counts, record timestamps) and the changelog must be the same on
// both engines, and the same as the in-process driver's.
func TestTimestampExtractorsMatchKafkaStreams(t *testing.T) {
	t.Parallel()
	checkPartitionsUsed(t, extractorEvents)
	cases := []struct {
		class     string
		extractor kstreams.TimestampExtractor
	}{
		{"org.apache.kafka.streams.processor.UsePartitionTimeOnInvalidTimestamp", kstreams.UsePartitionTimeOnInvalidTimestamp{}},
		{"org.apache.kafka.streams.processor.LogAndSkipOnInvalidTimestamp", kstreams.LogAndSkipOnInvalidTimestamp{}},
	}
	for _, c := range cases {
		t.Run(c.class[strings.LastIndex(c.class, ".")+1:], func(t *testing.T) {
			t.Parallel()
			out, changelog, dropped := inDriver(t, extractorEvents, c.extractor)
			r := runBoth(t, bothEngines{set: map[string]string{"default.timestamp.extractor": c.class},
				input: eventRecords(extractorEvents)}, len(out))
			checkAgainstDriver(t, "StoatFlow output against the driver's", r.goOut, out)
			compareChangelogs(t, r, len(changelog))
			negatives := 0
			for _, e := range extractorEvents {
				if e.sec == noTimestamp {
					negatives++
				}
			}
			wantDropped := 0
			if _, skip := c.extractor.(kstreams.LogAndSkipOnInvalidTimestamp); skip {
				wantDropped = negatives
			}
			if got := r.counters.Dropped(kstreams.DroppedNegativeTimestamp); got != wantDropped || dropped != wantDropped {
				t.Errorf("records dropped for a negative timestamp: StoatFlow %d, driver %d, want %d", got, dropped, wantDropped)
			}
			t.Logf("%d output records, %d changelog records, %d dropped", len(out), len(changelog), wantDropped)
			// RocksDB stores by default, on both engines: the window store's
			// segments are on disk.
			for what, dir := range map[string]string{"Kafka Streams": r.jvmStateDir, "StoatFlow": r.goStateDir} {
				if !slices.Contains(storeDirs(t, dir), windowStore) {
					t.Errorf("%s: no directory of store %s under %s", what, windowStore, dir)
				}
			}
		})
	}
}

// TestFailOnInvalidTimestampStopsBothEngines: under the default extractor a
// record without a timestamp stops the application, on both engines, with
// an error naming the record's topic, partition and offset.
func TestFailOnInvalidTimestampStopsBothEngines(t *testing.T) {
	t.Parallel()
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	props := filepath.Join(root, "examples", "windowedcount", "streams.properties")
	bootstrap := testkafka.Bootstrap(t)
	in := testkafka.Topic(t, "in")
	testkafka.CreateTopics(t, bootstrap, 1, in, in+"-out")
	recs := eventRecords([]event{{"a", 1}, {"b", 2}, {"a", noTimestamp}, {"b", 3}})
	for i := range recs {
		recs[i].Topic, recs[i].Partition = in, 0
	}
	testkafka.Produce(t, bootstrap, recs...)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	set := map[string]string{"bootstrap.servers": bootstrap, "application.id": in + "-jvm", "state.dir": t.TempDir()}
	args := map[string]string{"input": in, "output": in + "-out"}

	ref, err := StartReference(ctx, ReferenceOptions{App: windowedcount.Name, Configs: []string{props}, Set: set, Args: args})
	if err != nil {
		t.Fatal(err)
	}
	defer ref.Stop(45 * time.Second)
	err = ref.WaitState(ctx, "NOT_A_STATE")
	if err == nil || !strings.Contains(err.Error(), "has invalid (negative) timestamp") {
		t.Fatalf("Kafka Streams: %v, want it to fail on the negative timestamp", err)
	}
	jvmMsg, _, _ := strings.Cut(err.Error(), "\n")
	t.Logf("Kafka Streams: %s", jvmMsg)

	set["application.id"], set["state.dir"] = in+"-go", t.TempDir()
	cfg, err := LoadConfig([]string{props}, set)
	if err != nil {
		t.Fatal(err)
	}
	// The instance may fail before or after it reports RUNNING.
	ks, goErr := StartStoatFlow(ctx, windowedcount.Build, args, cfg)
	if goErr == nil {
		defer ks.Close(context.Background())
		select {
		case <-ks.Done():
		case <-ctx.Done():
			t.Fatal("StoatFlow kept running past a record without a timestamp")
		}
		goErr = ks.Err()
	}
	t.Logf("StoatFlow: %v", goErr)
	if goErr == nil {
		t.Fatal("StoatFlow stopped without an error")
	}
	for _, want := range []string{"has invalid (negative) timestamp", "topic = " + in, "partition = 0", "offset = 2", "Use a different TimestampExtractor"} {
		if !strings.Contains(goErr.Error(), want) {
			t.Errorf("StoatFlow's error does not contain %q", want)
		}
	}
	for _, want := range []string{"topic = " + in, "partition = 0", "offset = 2"} {
		if !strings.Contains(jvmMsg, want) {
			t.Errorf("Kafka Streams' error does not contain %q (the test's assumption about its message is wrong)", want)
		}
	}
}

// TestInMemoryDSLStoresMatchKafkaStreams: dsl.store.suppliers.class naming
// the in-memory suppliers puts the window store in memory on both engines
// (no store directory under state.dir), with the same output and changelog.
// default.dsl.store=in_memory alone puts it in memory on StoatFlow, which
// applies the key as Kafka Streams applies it to a topology built with a
// TopologyConfig; the twin, built with a plain new StreamsBuilder(), keeps
// RocksDB, as Kafka Streams 4.4 reads only dsl.store.suppliers.class at run
// time. The results are the same either way.
func TestInMemoryDSLStoresMatchKafkaStreams(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name                  string
		set                   map[string]string
		jvmInMemory, inMemory bool
	}{
		{"suppliers", map[string]string{"dsl.store.suppliers.class": "org.apache.kafka.streams.state.BuiltInDslStoreSuppliers$InMemoryDslStoreSuppliers"}, true, true},
		{"default.dsl.store", map[string]string{"default.dsl.store": "in_memory"}, false, true},
		// Both keys: dsl.store.suppliers.class wins, on both engines.
		{"both", map[string]string{"default.dsl.store": "in_memory",
			"dsl.store.suppliers.class": "org.apache.kafka.streams.state.BuiltInDslStoreSuppliers$RocksDBDslStoreSuppliers"}, false, false},
	}
	var events []event
	for _, e := range extractorEvents {
		if e.sec != noTimestamp {
			events = append(events, e)
		}
	}
	out, changelog, _ := inDriver(t, events, nil)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r := runBoth(t, bothEngines{set: c.set, input: eventRecords(events)}, len(out))
			checkAgainstDriver(t, "StoatFlow output against the driver's", r.goOut, out)
			compareChangelogs(t, r, len(changelog))
			for _, e := range []struct {
				what     string
				dir      string
				inMemory bool
			}{{"Kafka Streams", r.jvmStateDir, c.jvmInMemory}, {"StoatFlow", r.goStateDir, c.inMemory}} {
				if onDisk := slices.Contains(storeDirs(t, e.dir), windowStore); onDisk == e.inMemory {
					t.Errorf("%s: store %s on disk under %s: %v, want %v", e.what, windowStore, e.dir, onDisk, !e.inMemory)
				}
			}
		})
	}
}

// storeDirs lists the names of the directories below the task directories
// of a state.dir (<state.dir>/<application.id>/<task>/...).
func storeDirs(t *testing.T, stateDir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(stateDir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(stateDir, path)
		if d.IsDir() && strings.Count(rel, string(os.PathSeparator)) >= 2 {
			out = append(out, d.Name())
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestPartitionTimeHandedOverFromKafkaStreams: a Kafka Streams 4.4 instance
// processes the first records of a partition under
// UsePartitionTimeOnInvalidTimestamp and stops; StoatFlow then takes over
// the same application (group, changelog). Its first record has no
// timestamp: StoatFlow must take the partition time Kafka Streams committed
// in the offset metadata (as a Kafka Streams instance taking over would)
// instead of failing for an unknown partition time, and count on from the
// window store it restored from Kafka Streams' changelog.
func TestPartitionTimeHandedOverFromKafkaStreams(t *testing.T) {
	t.Parallel()
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	props := filepath.Join(root, "examples", "windowedcount", "streams.properties")
	bootstrap := testkafka.Bootstrap(t)
	in := testkafka.Topic(t, "in")
	out := in + "-out"
	testkafka.CreateTopics(t, bootstrap, 1, in, out)
	produce := func(events []event) {
		recs := eventRecords(events)
		for i := range recs {
			recs[i].Topic, recs[i].Partition = in, 0
		}
		testkafka.Produce(t, bootstrap, recs...)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	set := map[string]string{
		"bootstrap.servers": bootstrap, "application.id": in + "-app", "state.dir": t.TempDir(),
		"processing.guarantee": "exactly_once_v2", "statestore.cache.max.bytes": "0",
		"default.timestamp.extractor": "org.apache.kafka.streams.processor.UsePartitionTimeOnInvalidTimestamp",
	}
	args := map[string]string{"input": in, "output": out}

	produce([]event{{"a", 1}, {"a", 5}, {"b", 3}})
	ref, err := StartReference(ctx, ReferenceOptions{App: windowedcount.Name, Configs: []string{props}, Set: set, Args: args})
	if err != nil {
		t.Fatal(err)
	}
	defer ref.Stop(45 * time.Second)
	if err := ref.WaitState(ctx, "RUNNING"); err != nil {
		t.Fatal(err)
	}
	if _, err := testkafka.ReadCommitted(bootstrap, out, 3, 2*time.Minute, 2*time.Second); err != nil {
		t.Fatalf("Kafka Streams output: %v\n%s", err, ref.Stderr())
	}
	if err := ref.Stop(45 * time.Second); err != nil {
		t.Fatal(err)
	}

	produce([]event{{"a", noTimestamp}, {"b", 7}})
	set["state.dir"] = t.TempDir() // StoatFlow restores the store from Kafka Streams' changelog
	cfg, err := LoadConfig([]string{props}, set)
	if err != nil {
		t.Fatal(err)
	}
	ks, err := StartStoatFlow(ctx, windowedcount.Build, args, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer ks.Close(context.Background())
	got, err := testkafka.ReadCommitted(bootstrap, out, 5, time.Minute, 2*time.Second)
	if err != nil {
		t.Fatalf("StoatFlow output: %v (instance error: %v)", err, ks.Err())
	}
	// Every record falls in the window starting at epochBase (a whole minute).
	wkey := func(k string) []byte { return append([]byte(k), long(epochBase)...) }
	want := []testkafka.Record{
		// Kafka Streams' three, then StoatFlow's two: the record without a
		// timestamp at the committed partition time (5 s), counted third in
		// the restored window.
		{Key: wkey("a"), Value: long(1), Timestamp: time.UnixMilli(epochBase + 1000)},
		{Key: wkey("a"), Value: long(2), Timestamp: time.UnixMilli(epochBase + 5000)},
		{Key: wkey("b"), Value: long(1), Timestamp: time.UnixMilli(epochBase + 3000)},
		{Key: wkey("a"), Value: long(3), Timestamp: time.UnixMilli(epochBase + 5000)},
		{Key: wkey("b"), Value: long(2), Timestamp: time.UnixMilli(epochBase + 7000)},
	}
	comparePartitions(t, "output", want, got)
}
