package integration

import (
	"context"
	"encoding/binary"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stoatflow/stoatflow/internal/testkafka"
	"github.com/stoatflow/stoatflow/kstreams"
	"github.com/stoatflow/stoatflow/kstreams/serde"
	"github.com/stoatflow/stoatflow/streams"
)

// emptyKeysName is the Go twin of the reference app emptykeys
// (EmptyKeys.java): four counts over String records whose keys and values
// may be empty and whose keys may be null. The three over input read plain
// string keys, as a natural port does: the key a function returns is a
// key, "" included, and only a nil pointer is null. The one over other reads
// its keys as *string, so that Java's k -> k keeps a null key null (over
// string keys the selector would see "" and give back the key "").
const emptyKeysName = "emptykeys"

// skippedNullKeyOrValue is the reason, and the start of Kafka's WARN line,
// with which a count skips a record with a null key or value.
const skippedNullKeyOrValue = "Skipping record due to null key or value."

// buildEmptyKeys builds the emptyKeysName topology. Arguments: input, other
// and output, with output-marked, output-source and output-keys beside it.
func buildEmptyKeys(args map[string]string) (*kstreams.Topology, error) {
	nullable := serde.Nullable[string](serde.String{})
	counts := kstreams.ProducedWith[string, int64](serde.String{}, serde.Long{})
	b := kstreams.NewStreamsBuilder()
	in := kstreams.Stream(b, []string{args["input"]}, kstreams.ConsumedWith[string, string](serde.String{}, serde.String{}))

	kstreams.GroupBy(in, func(_, v string) string { return v }, kstreams.Grouped[string, string]{Name: "by-value"}).
		Count(kstreams.MaterializedAs[string, int64]("value-counts")).ToStream().To(args["output"], counts)

	kstreams.SelectKey(in, func(_, v string) *string {
		if v == "-" {
			return nil
		}
		return &v
	}, kstreams.Named("dash-is-null")).
		GroupByKey(kstreams.Grouped[*string, string]{Name: "by-marked", KeySerde: nullable}).
		Count(kstreams.MaterializedAs[*string, int64]("marked-counts")).ToStream().
		To(args["output"]+"-marked", kstreams.ProducedWith[*string, int64](nullable, serde.Long{}))

	in.GroupByKey().Count(kstreams.MaterializedAs[string, int64]("source-counts")).ToStream().
		To(args["output"]+"-source", counts)

	other := kstreams.Stream(b, []string{args["other"]}, kstreams.ConsumedWith[*string, string](nullable, serde.String{}))
	kstreams.SelectKey(other, func(k *string, _ string) *string { return k }, kstreams.Named("same-key")).
		GroupByKey(kstreams.Grouped[*string, string]{Name: "by-key", KeySerde: nullable}).
		Count(kstreams.MaterializedAs[*string, int64]("key-counts")).ToStream().
		To(args["output"]+"-keys", kstreams.ProducedWith[*string, int64](nullable, serde.Long{}))
	return b.Build()
}

// emptyKeyRecord is one input record: key nil for Kafka's null.
type emptyKeyRecord struct {
	key   *string
	value string
}

// emptyKeyCounts models the four counts of emptyKeysName over input: the
// updates each output gets, in order, as key=count with <null> for a null
// key (which no count may write), and the records each count skips.
func emptyKeyCounts(input []emptyKeyRecord) (outputs map[string][]string, skipped int) {
	outputs = map[string][]string{}
	counts := map[string]map[string]int{}
	add := func(output, key string) {
		if counts[output] == nil {
			counts[output] = map[string]int{}
		}
		counts[output][key]++
		outputs[output] = append(outputs[output], fmt.Sprintf("%q=%d", key, counts[output][key]))
	}
	for _, r := range input {
		add("", r.value)
		if r.value != "-" {
			add("-marked", r.value)
		}
		if r.key == nil {
			skipped++ // by the source count; the repartitions filter the others unseen
			continue
		}
		add("-keys", *r.key)
		add("-source", *r.key)
	}
	return outputs, skipped
}

// TestEmptyAndNullKeysMatchKafkaStreams runs EmptyKeys.java on Kafka Streams
// 4.4 and emptyKeysName on StoatFlow over the same records in both input
// topics: null, empty and other keys, and values among which are empty
// strings and "-" (which one selector maps to a null key). On both engines,
// and as the model says, a "" returned by a key function is a key, whatever
// key the record came with: written to the repartition topic, counted and
// forwarded; a null one is dropped by the repartition's filter without a
// dropped-record count; and the count grouped by the source's key skips
// each null key as a dropped record (in Kafka Streams' log, and in
// StoatFlow's dropped-records hook). Each output partition's records, the
// four changelogs, the internal topics and describe() are the same.
func TestEmptyAndNullKeysMatchKafkaStreams(t *testing.T) {
	t.Parallel()
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	props := filepath.Join(root, "examples", "wordcount", "streams.properties")
	empty, k := str(""), str("k")
	input := []emptyKeyRecord{
		{nil, ""}, {nil, "a"}, {empty, ""}, {k, "-"}, {nil, "-"}, {empty, "a"},
		{k, ""}, {nil, ""}, {k, "a"}, {nil, "b"}, {empty, "-"}, {nil, ""},
	}
	want, wantSkipped := emptyKeyCounts(input)
	if len(want["-keys"]) == 0 || wantSkipped == 0 || !strings.Contains(strings.Join(want[""], " "), `""=`) {
		t.Fatal("the input must count empty keys and skip null ones")
	}

	bootstrap := testkafka.Bootstrap(t)
	in := testkafka.Topic(t, "in")
	outJVM, outGo := in+"-out-jvm", in+"-out-go"
	suffixes := []string{"", "-marked", "-keys", "-source"}
	other := in + "-other"
	testkafka.CreateTopics(t, bootstrap, 2, in, other)
	for _, s := range suffixes {
		testkafka.CreateTopics(t, bootstrap, 2, outJVM+s, outGo+s)
	}
	var recs []testkafka.Record
	for i, r := range input {
		rec := testkafka.Record{Topic: in, Partition: 0, Value: []byte(r.value), Timestamp: time.UnixMilli(epochBase + int64(i)*1000)}
		if r.key != nil {
			rec.Key = []byte(*r.key)
		}
		recs = append(recs, rec)
		rec.Topic = other
		recs = append(recs, rec)
	}
	testkafka.Produce(t, bootstrap, recs...)

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	set := func(app string) map[string]string {
		return map[string]string{
			"application.id": app, "bootstrap.servers": bootstrap, "state.dir": t.TempDir(),
			"processing.guarantee": "exactly_once_v2", "enable.transactional.statestores": "true",
			"statestore.cache.max.bytes": "0",
		}
	}
	jvmApp, goApp := in+"-jvm", in+"-go"
	jvmArgs := map[string]string{"input": in, "other": other, "output": outJVM}
	goArgs := map[string]string{"input": in, "other": other, "output": outGo}
	ref, err := StartReference(ctx, ReferenceOptions{App: emptyKeysName, Configs: []string{props}, Set: set(jvmApp), Args: jvmArgs})
	if err != nil {
		t.Fatal(err)
	}
	defer ref.Stop(45 * time.Second)
	cfg, err := LoadConfig([]string{props}, set(goApp))
	if err != nil {
		t.Fatal(err)
	}
	counters := NewCounters()
	ks, err := StartStoatFlow(ctx, topology(t, emptyKeysName), goArgs, cfg, streams.WithHooks(counters))
	if err != nil {
		t.Fatal(err)
	}
	defer ks.Close(context.Background())

	// Every output, then every changelog, of both engines, read at once.
	type read struct {
		what              string
		jvmTopic, goTopic string
		n                 int
		jvm, goRecs       []testkafka.Record
		jvmErr, goErr     error
	}
	var outputs, changelogs []*read
	for _, s := range suffixes {
		outputs = append(outputs, &read{what: "output" + s, jvmTopic: outJVM + s, goTopic: outGo + s, n: len(want[s])})
	}
	for s, store := range map[string]string{"": "value-counts", "-marked": "marked-counts", "-keys": "key-counts", "-source": "source-counts"} {
		suffix := "-" + store + "-changelog"
		changelogs = append(changelogs, &read{what: store + " changelog", jvmTopic: jvmApp + suffix, goTopic: goApp + suffix, n: len(want[s])})
	}
	readAll := func(reads []*read, timeout, linger time.Duration) {
		var fns []func()
		for _, r := range reads {
			fns = append(fns,
				func() { r.jvm, r.jvmErr = testkafka.ReadCommitted(bootstrap, r.jvmTopic, r.n, timeout, linger) },
				func() { r.goRecs, r.goErr = testkafka.ReadCommitted(bootstrap, r.goTopic, r.n, timeout, linger) })
		}
		sideBySide(fns...)
	}
	var jvmDescribe string
	var jvmDescribeErr error
	sideBySide(
		func() {
			if err := ref.WaitState(ctx, "RUNNING"); err != nil {
				outputs[0].jvmErr = err
				return
			}
			readAll(outputs, 2*time.Minute, 3*time.Second)
		},
		func() {
			jvmDescribe, jvmDescribeErr = Describe(ctx, ReferenceOptions{App: emptyKeysName, Args: goArgs})
		},
	)
	for _, r := range outputs {
		if r.jvmErr != nil {
			t.Fatalf("Kafka Streams %s: %v\n%s", r.what, r.jvmErr, ref.Stderr())
		}
	}
	jvmLog := ref.Log()
	if err := ref.Stop(45 * time.Second); err != nil {
		t.Error(err)
	}
	readAll(changelogs, time.Minute, time.Second)

	for _, r := range append(outputs, changelogs...) {
		if r.goErr != nil {
			t.Fatalf("StoatFlow %s: %v", r.what, r.goErr)
		}
		if r.jvmErr != nil {
			t.Fatalf("Kafka Streams %s: %v", r.what, r.jvmErr)
		}
		comparePartitions(t, r.what, r.jvm, r.goRecs)
	}
	// The model: keys are compared exactly, so an empty key turned null (or
	// the reverse) fails here, which partitionRecords, printing both as "",
	// would not show. Each update is one key's next count, so the sorted
	// updates say it all.
	for i, s := range suffixes {
		wantUpdates := slices.Sorted(slices.Values(want[s]))
		for engine, recs := range map[string][]testkafka.Record{"Kafka Streams": outputs[i].jvm, "StoatFlow": outputs[i].goRecs} {
			if got := countUpdates(recs); strings.Join(got, " ") != strings.Join(wantUpdates, " ") {
				t.Errorf("%s output%s:\n got %v\nwant %v", engine, s, got, wantUpdates)
			}
		}
	}

	jvmSkipped := strings.Count(jvmLog, skippedNullKeyOrValue)
	if goSkipped := counters.Dropped(skippedNullKeyOrValue); jvmSkipped != wantSkipped || goSkipped != wantSkipped {
		t.Errorf("records skipped for a null key: Kafka Streams logged %d, StoatFlow counted %d, want %d", jvmSkipped, goSkipped, wantSkipped)
	}

	jvmTopics, goTopics := internalTopics(t, bootstrap, jvmApp), internalTopics(t, bootstrap, goApp)
	if strings.Join(jvmTopics, ",") != strings.Join(goTopics, ",") {
		t.Errorf("internal topics differ:\n Kafka Streams %v\n StoatFlow     %v", jvmTopics, goTopics)
	}
	if jvmDescribeErr != nil {
		t.Fatal(jvmDescribeErr)
	}
	topo, err := buildEmptyKeys(goArgs)
	if err != nil {
		t.Fatal(err)
	}
	if got := topo.Describe().String(); got != jvmDescribe {
		t.Errorf("describe() differs:\n--- Kafka Streams\n%s--- StoatFlow\n%s", jvmDescribe, got)
	}
}

// countUpdates shows the count updates of recs, sorted, as emptyKeyCounts
// does, with <null> for a null key or value: "" and null are told apart.
func countUpdates(recs []testkafka.Record) []string {
	var out []string
	for _, r := range recs {
		key, n := "<null>", "<null>"
		if r.Key != nil {
			key = fmt.Sprintf("%q", r.Key)
		}
		if len(r.Value) == 8 {
			n = fmt.Sprint(int64(binary.BigEndian.Uint64(r.Value)))
		}
		out = append(out, key+"="+n)
	}
	slices.Sort(out)
	return out
}
